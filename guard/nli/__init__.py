"""Stage 3: the gated cross-encoder."""
from importlib import import_module

# Lazy (PEP 562), like the package root: the scorer alone must import without the pipeline.
_EXPORTS = {"GateConfig": "guard.nli.gate", "NLIGate": "guard.nli.gate", "NLIScorer": "guard.nli.scorer",
            "ModelUnavailable": "guard.nli.scorer", "default_model_path": "guard.nli.scorer"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'guard.nli' has no attribute {name!r}")


__all__ = list(_EXPORTS)
