"""The gate around the cross-encoder: when may an NLI "contradiction" block a write?

Raw NLI fires on pairs that merely share a shape ("logs rotate daily" vs "the on-call rotation
changes weekly"). So a block needs, besides a high contradiction score, three structural checks:
the same (or near-same) subject, an actual polarity difference (opposing stance or differing
value), and enough overlap between the texts. Failing a check caps the pair at warn.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from guard.claims import Norm
from guard.compare import SubjectMatch, objects_compatible, subject_match
from guard.judge import NLIResult

if TYPE_CHECKING:
    from guard.embed import Embedder
    from guard.nli.scorer import NLIScorer


@dataclass
class GateConfig:
    """All the gate's thresholds. Fitted by ``training.fit_gate`` on a stated split; see
    ``fitted_on``. Defaults are conservative hand-set values used until a fit is shipped."""
    block_threshold: float = 0.85      # p(contradiction), max over both directions, to block
    warn_threshold: float = 0.6        # … to warn
    subject_similarity: float = 0.7    # bi-encoder cosine for "near-same subject"
    min_term_overlap: float = 0.25     # Jaccard of content terms …
    min_text_similarity: float = 0.55  # … or bi-encoder cosine of the whole texts
    fitted_on: str = "hand-set defaults"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=2))

    @classmethod
    def load(cls, path: str | Path) -> "GateConfig":
        return cls(**json.loads(Path(path).read_text()))


def jaccard(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 0.0


def _polarity_differs(a: Norm, b: Norm) -> tuple[bool, str]:
    if a.modality.negated != b.modality.negated and objects_compatible(a, b):
        return True, "opposing stance"
    if a.value and b.value and a.value.lower() != b.value.lower():
        return True, "differing values"
    return False, "same stance, no differing value"


class NLIGate:
    """Stage 3. ``assess(items) -> list[NLIResult]`` for (norm_a, text_a, norm_b, text_b) items."""

    def __init__(self, scorer: "NLIScorer", config: GateConfig | None = None,
                 embedder: "Embedder | None" = None, gated: bool = True):
        self.scorer = scorer
        self.config = config or GateConfig()
        self.embedder = embedder
        self.gated = gated

    def features(self, a: Norm, a_text: str, b: Norm, b_text: str, complete: bool = False) -> dict:
        """Raw gate evidence. Embedding similarities are computed only when the cheap check did not
        already pass, unless ``complete`` (threshold fitting needs every number)."""
        cfg = self.config
        match = subject_match(a.subject, b.subject, a.theme, b.theme)
        subj_sim = text_sim = None
        if self.embedder is not None:
            if a.subject and b.subject and (complete or match is SubjectMatch.DIFFERENT):
                subj_sim = self.embedder.similarity(a.subject, b.subject)
            if complete or jaccard(a.terms, b.terms) < cfg.min_term_overlap:
                text_sim = self.embedder.similarity(a_text, b_text)
        return self.features_from(a, b, subj_sim, text_sim)

    @staticmethod
    def features_from(a: Norm, b: Norm, subject_similarity: float | None, text_similarity: float | None) -> dict:
        """The evidence from two norms and already-computed similarities (benchmarks reuse stored ones)."""
        polarity_ok, polarity_why = _polarity_differs(a, b)
        return {"subject_match": subject_match(a.subject, b.subject, a.theme, b.theme).value,
                "subject_similarity": subject_similarity, "polarity": polarity_ok, "polarity_reason": polarity_why,
                "term_overlap": jaccard(a.terms, b.terms), "text_similarity": text_similarity}

    @staticmethod
    def decide(p: float, f: dict, cfg: GateConfig, gated: bool = True) -> tuple[dict, str, str]:
        """(gates, action, reason) from a contradiction probability and the gate evidence. Pure, so
        thresholds can be refitted on stored scores without re-running any model."""
        gates = {}
        if gated:
            sim = f.get("subject_similarity")
            tsim = f.get("text_similarity")
            # differing values conflict only on the very same attribute, so that evidence needs a
            # structural subject match; an opposing stance may rest on a paraphrased subject
            structural = f["subject_match"] in (SubjectMatch.SAME.value, SubjectMatch.NEAR.value)
            similar = sim is not None and sim >= cfg.subject_similarity
            gates = {"subject": structural or (similar and f["polarity_reason"] == "opposing stance"),
                     "polarity": bool(f["polarity"]),
                     "overlap": f["term_overlap"] >= cfg.min_term_overlap or
                     (tsim is not None and tsim >= cfg.min_text_similarity)}
        passed = all(gates.values())
        if p >= cfg.block_threshold and passed:
            return gates, "block", f"NLI contradiction {p:.2f} with subject, polarity and overlap gates passed"
        if p >= cfg.warn_threshold:
            failed = [k for k, v in gates.items() if not v]
            return gates, "warn", f"NLI contradiction {p:.2f}" + (
                f"; capped at warn by gate(s): {', '.join(failed)}" if failed and p >= cfg.block_threshold else "")
        return gates, "none", f"NLI contradiction {p:.2f} below thresholds"

    def assess(self, items: list[tuple[Norm, str, Norm, str]]) -> list[NLIResult]:
        scored = self.scorer.score_both([(a_text, b_text) for _, a_text, _, b_text in items])
        out = []
        for (a, a_text, b, b_text), (fwd, bwd) in zip(items, scored):
            p = max(fwd.get("contradiction", 0.0), bwd.get("contradiction", 0.0))
            feats = self.features(a, a_text, b, b_text)
            gates, action, reason = self.decide(p, feats, self.config, self.gated)
            evidence = {**gates, **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in feats.items()}}
            out.append(NLIResult(p, _round(fwd), _round(bwd), evidence, action, reason))
        return out


def _round(d: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in d.items()}
