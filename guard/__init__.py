"""claim-guard: contradiction detection for stores of claims.

Public API only; everything else is reached through submodules.
"""
from guard.claims import Claim, ClaimError, Modality, Norm, Scope, StateVerb, SubjectKind, Window
from guard.judge import Decision, Tier
from guard.pipeline import Guard, GuardConfig

__all__ = ["Claim", "ClaimError", "Decision", "Guard", "GuardConfig", "Modality", "Norm", "Scope",
           "StateVerb", "SubjectKind", "Tier", "Window"]
