"""Claim pairs → the learned gate's evidence table, from stored NLI predictions.

The NLI scores come from files written by ``training.cv_nli`` (out-of-fold for claims_train,
the final model for claims_dev), so fitting and benchmarking the gate costs no model inference
beyond the bi-encoder; the structural verdicts and features are computed by the same code that
runs at write time (``Guard`` + ``guard.nli.evidence``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guard.candidates import NEIGHBOUR_MIN_SIMILARITY
from guard.compare import Verdict
from guard.judge import structure_decides, unsure_where_unlike
from guard.nli.evidence import pair_features, predicate_pair, second_direction, vector
from guard.nli.learned_gate import BACKWARD_BELOW
from guard.nli.model_text import model_text
from training.claim_pairs import pair_claims


@dataclass
class GateTable:
    rows: list[dict]
    verdicts: list[Verdict]
    X: np.ndarray
    y: list[str]
    structural: list[str | None]     # the tier structure decides alone, or None (the gate decides)
    features: list[dict]
    norms: list                      # (existing norm, incoming norm) per row
    similarities: list[tuple]        # (subject similarity or None, text similarity) per row
    backward_below: float | None = BACKWARD_BELOW   # the NLI-direction rule the features were built with
    predicate_similarities: list[float] | None = None   # per row: cosine of the texts without their subjects


def read_predictions(path: str | Path, temperature: float = 1.0) -> dict[str, tuple[dict, dict]]:
    """Stored (raw) predictions, rescaled by the model's temperature — what its scorer gives now."""
    from guard.nli.calibration import rescale
    out = {}
    for line in Path(path).read_text().splitlines():
        if line.strip():
            p = json.loads(line)
            out[p["id"]] = (rescale(p["forward"], temperature), rescale(p["backward"], temperature))
    return out


def structural_decision(v: Verdict) -> str | None:
    t = structure_decides(v)
    return t.value if t is not None else None


def build(rows: list[dict], predictions: dict[str, tuple[dict, dict]], guard, embedder,
          backward_below: float | None = BACKWARD_BELOW) -> GateTable:
    """``backward_below``: the stored backward scores are read only where the write-time rule
    would score that direction (``evidence.second_direction``), so the gate is fitted on what it sees."""
    from guard.progress import chunks
    pairs = [pair_claims(r) for r in rows]
    claims = [c for p in pairs for c in p]
    norms = [n for part in chunks(claims, 64, "normalize", "claim") for n in guard.normalize_claims(part)]
    verdicts = [guard.comparator.compare(norms[2 * i], a.text, norms[2 * i + 1], b.text)
                for i, (a, b) in enumerate(pairs)]
    texts = [model_text(t) for a, b in pairs for t in (a.text, b.text)]      # as the gate reads them at write time
    subjects = [n.subject or "" for n in norms]
    tv = embedder.encode(texts)
    # as a write does (``Guard.judge_pairs``): a structural block on a one-word common subject between
    # unlike texts is the gate's
    verdicts = [unsure_where_unlike(v, float(tv[2 * i] @ tv[2 * i + 1]), NEIGHBOUR_MIN_SIMILARITY)
                for i, v in enumerate(verdicts)]
    sv = embedder.encode(subjects)
    pv = embedder.encode([t for i in range(len(rows))
                          for t in predicate_pair(texts[2 * i], norms[2 * i].subject, texts[2 * i + 1], norms[2 * i + 1].subject)])
    feats, sims = [], []
    for i, ((a, b), v) in enumerate(zip(pairs, verdicts)):
        na, nb = norms[2 * i], norms[2 * i + 1]
        fwd, bwd = predictions[rows[i]["id"]]
        ssim = float(sv[2 * i] @ sv[2 * i + 1]) if na.subject and nb.subject else None
        tsim = float(tv[2 * i] @ tv[2 * i + 1])
        feats.append(pair_features(na, texts[2 * i], nb, texts[2 * i + 1], v, fwd, second_direction(fwd, bwd, backward_below),
                                   ssim, tsim))
        sims.append((ssim, tsim))
    X = np.array([vector(f) for f in feats])
    return GateTable(rows, verdicts, X, [r["label"] for r in rows], [structural_decision(v) for v in verdicts], feats,
                     [(norms[2 * i], norms[2 * i + 1]) for i in range(len(rows))], sims, backward_below,
                     [float(pv[2 * i] @ pv[2 * i + 1]) for i in range(len(rows))])
