"""Stage 4: verdicts (and NLI results) → one tier per pair, and one Decision per write.

Kept separate from the comparator so the policy — what blocks, what only warns — is in one small
place that can be read in a minute.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from guard.compare import Confidence, Verdict, VerdictKind


class Tier(str, Enum):
    CLEAN = "clean"
    WARN = "warn"
    BLOCK = "block"

    @property
    def rank(self) -> int:
        return {"clean": 0, "warn": 1, "block": 2}[self.value]


@dataclass
class NLIResult:
    """What stage 3 said about one pair; ``action`` is already gated."""
    p_contradiction: float | None          # None: no model ran (the gate's answer was known without it)
    p_forward: dict[str, float] | None
    p_backward: dict[str, float] | None    # None: not scored (the first direction found no contradiction)
    gates: dict[str, Any]
    action: str            # "block" | "warn" | "none"
    reason: str
    learned: bool = False  # from the learned gate, which saw the structural verdict: its action is final


@dataclass
class PairJudgement:
    claim_id: str | None
    claim_text: str
    tier: Tier
    stage: str             # "structural" | "nli" | "none"
    verdict: Verdict
    nli: NLIResult | None = None

    @property
    def reason(self) -> str:
        """The deciding stage's reason. A learned-gate decision (stage "gate") gave the structural
        verdict's until session 33: the shipped example scan's six gate blocks read "different
        subjects", and a floor's "capped at warn" never showed; the gate's reason names its
        probabilities, the NLI scores and the structural verdict it weighed."""
        if self.stage in ("nli", "gate") and self.nli is not None:
            return self.nli.reason
        return self.verdict.reason

    def to_dict(self) -> dict:
        d = {"claim_id": self.claim_id, "claim_text": self.claim_text, "tier": self.tier.value,
             "stage": self.stage, "verdict": self.verdict.kind.value,
             "confidence": self.verdict.confidence.value, "reason": self.reason,
             "evidence": self.verdict.evidence}
        if self.nli is not None:
            p = self.nli.p_contradiction
            d["nli"] = {"p_contradiction": None if p is None else round(p, 4), "forward": self.nli.p_forward,
                        "backward": self.nli.p_backward, "gates": self.nli.gates, "action": self.nli.action}
        return d


@dataclass
class Decision:
    tier: Tier
    judgements: list[PairJudgement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def conflicts(self) -> list[PairJudgement]:
        return [j for j in self.judgements if j.tier is not Tier.CLEAN]

    @property
    def reasons(self) -> list[str]:
        return [j.reason for j in self.conflicts]

    def to_dict(self) -> dict:
        return {"tier": self.tier.value, "conflicts": [j.to_dict() for j in self.conflicts],
                "reasons": self.reasons, "notes": self.notes}


def structure_decides(verdict: Verdict) -> Tier | None:
    """Where structure decides without the learned gate: a confident opposition or value conflict
    blocks; a disjoint scope or window coexists, and so do a statement that denies a different
    value than the other asserts and two statements about differently named things (``auth-api-0``
    / ``search-api-0``). Everything else is the gate's."""
    if verdict.kind is VerdictKind.COEXIST or verdict.kind is VerdictKind.CONSISTENT and verdict.confidence is Confidence.HIGH:
        return Tier.CLEAN      # disjoint scope/window; or a negation of a different value ("not on port 6380")
    if verdict.kind is VerdictKind.INCOMPARABLE and "named" in verdict.evidence:
        return Tier.CLEAN      # "auth-api-0 …" / "search-api-0 …": different named things
    if verdict.kind in (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT) and verdict.confidence is Confidence.HIGH:
        return Tier.BLOCK
    return None


# A structural decision that rests on a one-word common noun as the whole subject ("change",
# "decision", "api", "response") is sure only where the two texts are about the same thing. Scanned as
# one store, claims_train's statements met on such a word alone and structure blocked them at HIGH
# across unrelated documents: "A decision on your flexible working request will be made … within 14
# calendar days." / "Decisions on requests to join Django's security notification list take at least six
# weeks." (cosine 0.39), "APIs … must use the 429 … response code" / "Every API must be described … OpenAPI
# … version 3" (0.32). Labelled structural contradictions that the rule could touch are alike (claims_dev's
# "At least one approval …" / "At least two approvals …", whose NLI says 0.02: the gate could not save
# them). The floor is the candidate search's own: pairs less alike than its bi-encoder neighbours meet
# only through a shared word.
_GENERIC_SUBJECT = re.compile(r"[a-z]+")


def blocks_on_a_generic_subject(verdict: Verdict) -> bool:
    """Structure would block alone (HIGH), and both subjects are one plain lower-case word: the
    verdicts ``unsure_where_unlike`` may lower, so only their texts need a similarity."""
    subjects = verdict.evidence.get("subjects") or ()
    return (verdict.confidence is Confidence.HIGH and structure_decides(verdict) is Tier.BLOCK
            and len(subjects) == 2 and all(s and _GENERIC_SUBJECT.fullmatch(s) for s in subjects))


def unsure_where_unlike(verdict: Verdict, text_similarity: float | None, floor: float) -> Verdict:
    """``verdict`` at MED where structure would block on a one-word common subject and the texts are
    less alike than ``floor``, so the learned gate decides (reading the verdict among its evidence)."""
    if text_similarity is None or text_similarity >= floor or not blocks_on_a_generic_subject(verdict):
        return verdict
    return Verdict(verdict.kind, Confidence.MED,
                   f"{verdict.reason} (the shared subject is one common word and the texts are not alike: "
                   f"cosine {text_similarity:.2f} < {floor:.2f})", verdict.evidence)


class Judge:
    """Stage 4. ``judge(verdict, nli) -> (tier, stage)`` for a pair; ``decide`` for a write."""

    def judge(self, verdict: Verdict, nli: NLIResult | None = None, learned: bool = False) -> tuple[Tier, str]:
        """``learned``: the NLI stage is the learned gate, which never scores a pair ``structure_decides`` settles; such a
        pair (``nli`` None) gets that rule's tier, not v0.1's rules for a pair without NLI, which gave the same tiers
        only while the two were never changed apart (session 75: a block added to the rule came out a warn)."""
        if learned or nli is not None and nli.learned:
            fixed = structure_decides(verdict)
            if fixed is not None:
                return fixed, "structural"
        if nli is not None and nli.learned:
            tier = {"block": Tier.BLOCK, "warn": Tier.WARN}.get(nli.action, Tier.CLEAN)
            return tier, "gate"
        k, c = verdict.kind, verdict.confidence
        hard = k in (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT)
        if hard and c in (Confidence.HIGH, Confidence.MED):
            return Tier.BLOCK, "structural"
        if k is VerdictKind.TENSION:
            return Tier.WARN, "structural"
        if nli is not None and nli.action == "block":
            return Tier.BLOCK, "nli"
        if hard:
            return Tier.WARN, "structural"
        if nli is not None and nli.action == "warn":
            return Tier.WARN, "nli"
        return Tier.CLEAN, "none"

    def decide(self, judgements: list[PairJudgement], notes: list[str] | None = None) -> Decision:
        tier = max((j.tier for j in judgements), key=lambda t: t.rank, default=Tier.CLEAN)
        ordered = sorted(judgements, key=lambda j: -j.tier.rank)
        return Decision(tier, ordered, list(notes or []))
