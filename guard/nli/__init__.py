"""Stage 3: the gated cross-encoder."""
from guard.nli.gate import GateConfig, NLIGate
from guard.nli.scorer import NLIScorer, ModelUnavailable, default_model_path

__all__ = ["GateConfig", "NLIGate", "NLIScorer", "ModelUnavailable", "default_model_path"]
