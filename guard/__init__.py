"""claim-guard: contradiction detection for stores of claims.

Public API only; everything else is reached through submodules.
"""
from importlib import import_module

# Lazy (PEP 562): importing one submodule — the NLI scorer on a training machine that has no
# spaCy, say — must not pull in the whole pipeline.
_EXPORTS = {"Claim": "guard.claims", "ClaimError": "guard.claims", "Modality": "guard.claims",
            "Norm": "guard.claims", "Scope": "guard.claims", "StateVerb": "guard.claims",
            "SubjectKind": "guard.claims", "Window": "guard.claims", "Decision": "guard.judge",
            "Tier": "guard.judge", "Guard": "guard.pipeline", "GuardConfig": "guard.pipeline"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'guard' has no attribute {name!r}")


__all__ = ["Claim", "ClaimError", "Decision", "Guard", "GuardConfig", "Modality", "Norm", "Scope",
           "StateVerb", "SubjectKind", "Tier", "Window"]
