"""Metrics for tier predictions against labelled claim pairs.

Gold labels are guard actions: contradiction → block, tension → warn, compatible → clean.
scikit-learn does the counting; this module only says what is counted, so the numbers in every
table mean the same thing.
"""
from __future__ import annotations

import random
from collections import defaultdict

import numpy as np

GOLD_TIER = {"contradiction": "block", "tension": "warn", "compatible": "clean"}
TIERS = ("block", "warn", "clean")


def block_prf(labels: list[str], tiers: list[str]) -> dict:
    """Precision, recall and F1 of `block` as a detector of `contradiction`."""
    from sklearn.metrics import precision_recall_fscore_support
    y = [lab == "contradiction" for lab in labels]
    p = [t == "block" for t in tiers]
    if not any(y) and not any(p):
        return {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    pr, rc, f1, _ = precision_recall_fscore_support(y, p, average="binary", pos_label=True, zero_division=0)
    return {"precision": float(pr), "recall": float(rc), "f1": float(f1)}


def false_block_rate(labels: list[str], tiers: list[str], categories: list[str] | None = None) -> dict:
    """Share of `compatible` pairs that were blocked, overall and per category."""
    out: dict = {}
    comp = [(t, c) for lab, t, c in zip(labels, tiers, categories or [None] * len(labels)) if lab == "compatible"]
    out["overall"] = sum(t == "block" for t, _ in comp) / len(comp) if comp else 0.0
    if categories:
        by = defaultdict(list)
        for t, c in comp:
            by[c].append(t == "block")
        out["by_category"] = {c: sum(v) / len(v) for c, v in sorted(by.items())}
    return out


def tension_warn_share(labels: list[str], tiers: list[str]) -> float:
    t = [tier for lab, tier in zip(labels, tiers) if lab == "tension"]
    return sum(x == "warn" for x in t) / len(t) if t else 0.0


def tier_confusion(labels: list[str], tiers: list[str]) -> dict:
    from sklearn.metrics import confusion_matrix
    gold = [GOLD_TIER[lab] for lab in labels]
    return {"labels": list(TIERS), "rows_gold_cols_predicted": confusion_matrix(gold, tiers, labels=list(TIERS)).tolist()}


def per_category_recall(labels: list[str], tiers: list[str], categories: list[str]) -> dict:
    """For each category, the share of pairs that got the category's gold tier."""
    by = defaultdict(list)
    for lab, t, c in zip(labels, tiers, categories):
        by[c].append(t == GOLD_TIER[lab])
    return {c: sum(v) / len(v) for c, v in sorted(by.items())}


def per_category_ci(labels: list[str], tiers: list[str], categories: list[str]) -> dict:
    """Wilson 95 % interval of each category's share (a category holds 30–120 pairs here, so a
    share's uncertainty is the first thing to read next to it); [low, high, n]."""
    from scipy.stats import binomtest
    by = defaultdict(list)
    for lab, t, c in zip(labels, tiers, categories):
        by[c].append(t == GOLD_TIER[lab])
    out = {}
    for c, v in sorted(by.items()):
        ci = binomtest(sum(v), len(v)).proportion_ci(confidence_level=0.95, method="wilson")
        out[c] = [round(ci.low, 3), round(ci.high, 3), len(v)]
    return out


def bootstrap_ci(labels: list[str], tiers: list[str], stat, n: int = 1000, seed: int = 0,
                 alpha: float = 0.05) -> tuple[float, float]:
    """Percentile bootstrap interval of ``stat(labels, tiers)`` over resampled pairs."""
    rng = random.Random(seed)
    idx = list(range(len(labels)))
    vals = []
    for _ in range(n):
        s = [rng.choice(idx) for _ in idx]
        vals.append(stat([labels[i] for i in s], [tiers[i] for i in s]))
    lo, hi = np.percentile(vals, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(lo), float(hi)


def summarize(labels: list[str], tiers: list[str], categories: list[str], seconds: float | None = None,
              bootstrap: int = 1000) -> dict:
    prf = block_prf(labels, tiers)
    f1 = lambda la, ti: block_prf(la, ti)["f1"]  # noqa: E731
    out = {
        "n": len(labels), **prf,
        "f1_ci95": bootstrap_ci(labels, tiers, f1, n=bootstrap) if bootstrap else None,
        "false_block": false_block_rate(labels, tiers, categories),
        "tension_warn_share": tension_warn_share(labels, tiers),
        "confusion": tier_confusion(labels, tiers),
        "per_category": per_category_recall(labels, tiers, categories),
        "per_category_ci95": per_category_ci(labels, tiers, categories),
    }
    if seconds is not None:
        out["ms_per_pair"] = 1000 * seconds / max(1, len(labels))
    return out


def f1_at_false_block(labels: list[str], scores: list[float], rate: float) -> dict:
    """Block F1 where the pairs whose score is above the ``rate`` share of compatible pairs' scores block: a
    point of the whole ranking's curve, with no fitted threshold in it. Scores of ±inf are pairs decided
    without one (structure's block, or a pair that cannot block). Why: a learned gate's threshold is about the
    tenth-highest compatible score of its fitting rows, so a refit moves F1 by several points for a change
    that leaves the ranking as it was; two rankings compared at one false-block rate show the change alone."""
    comp = sorted((s for s, y in zip(scores, labels) if y == "compatible"), reverse=True)
    k = int(rate * len(comp) + 1e-9)
    cut = comp[k] if k < len(comp) else float("-inf")
    block = [s > cut for s in scores]
    tp = sum(b and y == "contradiction" for b, y in zip(block, labels))
    p, r = tp / max(1, sum(block)), tp / max(1, labels.count("contradiction"))
    fb = sum(b and y == "compatible" for b, y in zip(block, labels)) / max(1, len(comp))
    return {"f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "precision": round(p, 4), "recall": round(r, 4),
            "false_block": round(fb, 4)}


def fit_threshold(scores: list[float], labels: list[str], grid: list[float] | None = None) -> float:
    """The threshold on a score that maximises block F1 (score ≥ threshold → block) on the given pairs."""
    grid = grid or sorted(set(round(s, 3) for s in scores))
    best, best_f1 = 1.0, -1.0
    for th in grid:
        f1 = block_prf(labels, ["block" if s >= th else "clean" for s in scores])["f1"]
        if f1 > best_f1:
            best, best_f1 = th, f1
    return best


def growth_exponent(sizes: list[float], costs: list[float]) -> float | None:
    """The k in cost ∝ size^k: the least-squares slope on log-log axes (None with fewer than two
    positive points). 1 is linear; a scan above 1 compares more pairs per claim as the store grows."""
    pts = [(s, c) for s, c in zip(sizes, costs) if s and c and s > 0 and c > 0]
    if len({s for s, _ in pts}) < 2:
        return None
    x, y = np.log([s for s, _ in pts]), np.log([c for _, c in pts])
    return float(np.polyfit(x, y, 1)[0])
