"""A learned gate: a calibrated classifier over the structural and NLI evidence decides
block / warn / clean, in place of hand-set thresholds.

Why learned: thresholds fitted on a few hundred pairs from one family of documents did not carry
over to new documents; a classifier fitted on grouped cross-validation over many documents, with
the operating point chosen on its out-of-fold predictions, is what can be measured honestly.

Why logistic regression: with ~1,000 labelled pairs a linear model on well-chosen evidence is
stable across folds, its probabilities are calibrated by its own log-loss, and its whole state is
a few arrays that are saved as JSON (no pickle): a shipped gate loads in any scikit-learn version
and can be read by a person. ``fit`` returns self and learned state ends in ``_`` (scikit-learn
conventions); ``save``/``load`` keep what it was fitted on beside the numbers.

Three classes: contradiction (→ block), tension (→ warn), compatible (→ clean). Block when
p(contradiction) ≥ ``block_threshold_``, chosen so that the false-block rate on compatible pairs
of the grouped out-of-fold predictions stays within ``max_false_block``; warn when
p(contradiction) + p(tension) ≥ ``warn_threshold_``.

A block also needs texts at least ``min_block_similarity_`` alike (bi-encoder cosine): the
``similarity_floor_quantile`` of the text similarity of the contradictions it was fitted on. Why:
a linear model extrapolates, and below that floor it has (almost) no contradiction to learn from.
The gate's blocks of real contradictions on grouped CV all had a cosine of 0.23 or more, while
scanning claims_train's statements as one store (``benchmarks.real_store``) it blocked pairs of
unrelated statements that share a word far below that ("The CA operator … MUST disclose …" / "The ~>
operator allows only the rightmost version component to increment …": 0.11, gate p 0.93); with the
floor, blocks between two source families 150 → 96, labelled contradictions blocked unchanged.

A block also needs the two statements' predicates — each text without the subject words the two
share, and articles (``evidence.predicate_pair``) — at least ``min_block_predicate_similarity_`` alike: the
``predicate_floor_quantile`` of the same cosine over the fitted contradictions. Why: two short claims
about one thing share its name, which carries their text similarity over the floor above, while the
rest says something about another aspect ("The media-cron-1 listens on port 3000." / "… must not skip
code review for hotfixes.": predicate cosine 0.06; the claim-tuned model gives such pairs
p(contradiction) ≈ 0.9). On the 2,000-claim synthetic store this cap took the gate's false blocks
from 96 to 53 (README, session 19); pairs of that kind whose predicates are closer
("… listens on port 80." / "… must share its database with other services.": 0.22) stay blocks.

The NLI probabilities in its evidence are read at ``nli_temperature`` (1.0: the model's raw
scores), whatever temperature the scorer shows users: the model's temperature is fitted to make
general-NLI probabilities honest, which the gate — calibrated by its own log-loss — does not need,
and on the raw scores it separated claim pairs better (session 18, README).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from guard.nli.evidence import FEATURES

CLASSES = ("contradiction", "tension", "compatible")
GATE_FILE = "learned_gate.json"
# The second NLI direction is scored only where the first (existing → incoming) gives
# p(contradiction) at least this; below it the gate reads the first direction for both
# (``evidence.second_direction``). Measured on claims_train's grouped CV and claims_dev, block F1
# 0.476 / 0.706 with both directions always, 0.477 / 0.697 with this rule, while a scan of
# real-prose claims skips the second direction for 58 % of its pairs (see the README).
BACKWARD_BELOW = 0.5


class LearnedGate:
    def __init__(self, max_false_block: float = 0.02, C: float | str = 0.5, max_compatible_warn: float = 0.25,
                 C_grid: tuple[float, ...] = (0.02, 0.05, 0.1, 0.2, 0.5, 1.0), threshold_bootstrap: int = 200,
                 backward_below: float | None = BACKWARD_BELOW, similarity_floor_quantile: float | None = 0.01,
                 nli_temperature: float | None = None, predicate_floor_quantile: float | None = 0.01,
                 negative_weight: float = 0.0):
        self.max_false_block = max_false_block
        # the weight of each unlabelled hard negative (``training.store_negatives``) against a labelled
        # pair of its class, in the classifier's fit only — never in the operating point
        self.negative_weight = negative_weight
        # the temperature the evidence's NLI probabilities were read at (1.0: the model's raw scores);
        # None = whatever the scorer gives (gates saved before this). Why its own: the model's
        # temperature is fitted to make the NLI probabilities honest on general NLI, and the gate
        # separates claim pairs better on the raw scores (grouped CV block F1 0.475 -> 0.488 at the
        # same 1.7 % false blocks, claims_dev 0.698 -> 0.711; session 18, README)
        self.nli_temperature = nli_temperature
        self.similarity_floor_quantile = similarity_floor_quantile   # None: no floor (gates saved before it)
        self.predicate_floor_quantile = predicate_floor_quantile     # None: no predicate floor (saved before it)
        # how the fitting rows' NLI evidence was built, so inference builds it the same way:
        # None = both directions always (gates saved before this rule existed)
        self.backward_below = backward_below
        self.threshold_bootstrap = threshold_bootstrap   # > 0: thresholds are the mean over that many resamples
        self.C = C                    # "auto": chosen from C_grid on the fitting rows' grouped folds
        self.max_compatible_warn = max_compatible_warn
        self.C_grid = C_grid

    # ---- fitting ---------------------------------------------------------------------------
    def _estimator(self):
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        C = getattr(self, "C_", self.C)
        return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=2000, class_weight="balanced"))

    def _fit_estimator(self, X: np.ndarray, yi: np.ndarray, negatives: np.ndarray | None = None):
        """The classifier fitted on labelled rows ``X`` and, where given, unlabelled compatible rows
        ``negatives`` at ``negative_weight`` each. The class weights stay those the labelled rows
        balance to (thousands of negatives would otherwise make each labelled compatible pair count
        for a fraction of a contradiction)."""
        if negatives is None or not len(negatives) or not self.negative_weight:
            return self._estimator().fit(X, yi)
        present, counts = np.unique(yi, return_counts=True)
        balanced = dict(zip(present.tolist(), (len(yi) / (len(present) * counts)).tolist()))
        comp = CLASSES.index("compatible")
        w = np.concatenate([[balanced[c] for c in yi.tolist()],
                            np.full(len(negatives), self.negative_weight * balanced.get(comp, 1.0))])
        est = self._estimator()
        est.set_params(logisticregression__class_weight=None)
        return est.fit(np.vstack([X, negatives]), np.concatenate([yi, np.full(len(negatives), comp)]),
                       standardscaler__sample_weight=w, logisticregression__sample_weight=w)

    def cross_val_proba(self, X: np.ndarray, y: list[str], folds: list[int], negatives=None,
                        negative_groups=None) -> np.ndarray:
        """Out-of-fold class probabilities (columns in ``CLASSES`` order) on the given folds; a fold's
        classifier sees the ``negatives`` whose ``negative_groups`` (a set of fold labels each: the
        families their two statements come from) do not include it."""
        X = np.asarray(X, dtype=float)
        yi = np.array([CLASSES.index(v) for v in y])
        folds = np.asarray(folds)
        out = np.zeros((len(yi), len(CLASSES)))
        for f in sorted(set(folds.tolist())):
            tr, te = folds != f, folds == f
            neg = None
            if negatives is not None and len(negatives):
                neg = np.asarray(negatives, dtype=float)[[f not in g for g in negative_groups]]
            est = self._fit_estimator(X[tr], yi[tr], neg)
            out[np.ix_(te, est.classes_)] = est.predict_proba(X[te])
        return out

    def fit(self, X, y: list[str], folds: list[int], fitted_on: str = "",
            decided: dict | None = None, predicate_similarity=None, negatives=None,
            negative_groups=None) -> "LearnedGate":
        """Fit on all rows; choose the operating point on grouped out-of-fold predictions.

        ``decided`` counts the pairs structure already decided without the gate (``{"false_blocks": n,
        "compatible": m}``), so the false-block limit holds for the whole pipeline, not the gate alone.
        ``predicate_similarity``: the rows' predicate cosines (``evidence.predicate_pair``), from which
        the predicate floor is learned; without them the gate has none. ``negatives``: evidence rows of
        unlabelled pairs known compatible (``training.store_negatives``), with ``negative_groups`` (the
        fold labels each row's statements come from, so an inner fold never fits on a negative that
        shares its group); they count at ``negative_weight`` in the classifier only."""
        X = np.asarray(X, dtype=float)
        if negatives is not None and len(negatives) and negative_groups is None:
            raise ValueError("negatives need their groups (negative_groups)")
        negatives = None if negatives is None or not len(negatives) else np.asarray(negatives, dtype=float)
        if X.shape[1] != len(FEATURES):
            raise ValueError(f"expected {len(FEATURES)} features, got {X.shape[1]}")
        if self.C == "auto":
            # the regularisation chosen where the operating point is: block F1 at the false-block
            # limit on the same grouped out-of-fold predictions (so an outer CV stays honest)
            scores = {}
            for c in self.C_grid:
                self.C_ = c
                p = self.cross_val_proba(X, y, folds, negatives, negative_groups)
                scores[c] = operating_figures(p, y, *choose_thresholds(p, y, self.max_false_block,
                                                                       self.max_compatible_warn, decided))["f1"]
            self.C_ = max(self.C_grid, key=lambda c: (scores[c], c))
            self.C_scores_ = scores
        else:
            self.C_ = float(self.C)
        oof = self.cross_val_proba(X, y, folds, negatives, negative_groups)
        self.block_threshold_, self.warn_threshold_ = (
            bagged_thresholds(oof, y, self.max_false_block, self.max_compatible_warn, decided, self.threshold_bootstrap)
            if self.threshold_bootstrap else
            choose_thresholds(oof, y, self.max_false_block, self.max_compatible_warn, decided))
        est = self._fit_estimator(X, np.array([CLASSES.index(v) for v in y]), negatives)
        self.n_negatives_ = 0 if negatives is None or not self.negative_weight else len(negatives)
        scaler, lr = est[0], est[1]
        self.mean_, self.scale_ = scaler.mean_.copy(), scaler.scale_.copy()
        self.coef_, self.intercept_ = lr.coef_.copy(), lr.intercept_.copy()
        self.classes_ = [CLASSES[i] for i in lr.classes_]
        self.oof_proba_ = oof
        self.min_block_similarity_ = similarity_floor(X, y, self.similarity_floor_quantile)
        self.min_block_predicate_similarity_ = (
            None if predicate_similarity is None else
            quantile_of_contradictions(np.asarray(predicate_similarity, dtype=float), y, self.predicate_floor_quantile))
        self.fitted_on_ = fitted_on or f"{len(y)} labelled pairs"
        self.cv_ = operating_figures(oof, y, self.block_threshold_, self.warn_threshold_)
        return self

    # ---- inference -------------------------------------------------------------------------
    def predict_proba(self, X) -> np.ndarray:
        X = (np.atleast_2d(np.asarray(X, dtype=float)) - self.mean_) / self.scale_
        z = X @ self.coef_.T + self.intercept_
        if z.shape[1] == 1:          # fitted on two classes (pairs labelled without tension): one logit
            z = np.hstack([np.zeros_like(z), z])
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        out = np.zeros((len(X), len(CLASSES)))
        for j, c in enumerate(self.classes_):
            out[:, CLASSES.index(c)] = p[:, j]
        return out

    def tiers(self, proba: np.ndarray) -> list[str]:
        return tiers_at(proba, self.block_threshold_, self.warn_threshold_)

    # ---- persistence -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"kind": "logistic-regression, 3 classes, standardised features", "features": list(FEATURES),
                "classes": self.classes_, "mean": self.mean_.tolist(), "scale": self.scale_.tolist(),
                "coef": self.coef_.tolist(), "intercept": self.intercept_.tolist(),
                "block_threshold": self.block_threshold_, "warn_threshold": self.warn_threshold_,
                "min_block_similarity": getattr(self, "min_block_similarity_", None),
                "min_block_predicate_similarity": getattr(self, "min_block_predicate_similarity_", None),
                "params": {"C": self.C, "max_false_block": self.max_false_block,
                           "max_compatible_warn": self.max_compatible_warn, "C_grid": list(self.C_grid),
                           "threshold_bootstrap": self.threshold_bootstrap, "backward_below": self.backward_below,
                           "similarity_floor_quantile": self.similarity_floor_quantile,
                           "nli_temperature": self.nli_temperature,
                           "predicate_floor_quantile": self.predicate_floor_quantile,
                           "negative_weight": self.negative_weight},
                "negatives": getattr(self, "n_negatives_", 0),
                "chosen_C": getattr(self, "C_", self.C), "C_scores": getattr(self, "C_scores_", None),
                "fitted_on": self.fitted_on_, "cross_validation": getattr(self, "cv_", None)}

    def save(self, path: str | Path) -> None:
        from guard.safe_output import atomic_write
        with atomic_write(Path(path)) as fh:
            fh.write(json.dumps(self.to_dict(), indent=1))

    @classmethod
    def load(cls, path: str | Path) -> "LearnedGate":
        try:
            d = json.loads(Path(path).read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is damaged (not JSON: {exc.msg} at line {exc.lineno})") from None
        if not isinstance(d, dict):
            raise ValueError(f"{path} is not a learned gate (a JSON object)")   # noqa: TRY004 — callers catch ValueError
        if d.get("features") != list(FEATURES):
            got = d.get("features") if isinstance(d.get("features"), list) else []
            gone, new = [f for f in FEATURES if f not in got], [f for f in got if f not in FEATURES]
            raise ValueError(f"{path} was fitted on {len(got)} features, this build computes {len(FEATURES)}"
                             + (f" (it lacks {', '.join(gone[:3])}{' …' if len(gone) > 3 else ''})" if gone else "")
                             + (f" (it has {', '.join(map(str, new[:3]))}{' …' if len(new) > 3 else ''})" if new else "")
                             + ("" if gone or new else " (in another order)"))
        params = dict(d.get("params", {}))
        params.setdefault("backward_below", None)       # fitted before the rule: both directions always
        params.setdefault("similarity_floor_quantile", None)    # fitted before the floor: none
        params.setdefault("nli_temperature", None)       # fitted before it: the scorer's own scores
        params.setdefault("predicate_floor_quantile", None)     # fitted before the predicate floor: none
        params.setdefault("negative_weight", 0.0)        # fitted before hard negatives: none
        if "C_grid" in params:
            params["C_grid"] = tuple(params["C_grid"])
        g = cls(**params)
        g.C_ = d.get("chosen_C", g.C)
        g.classes_, g.mean_, g.scale_ = d["classes"], np.array(d["mean"]), np.array(d["scale"])
        g.coef_, g.intercept_ = np.array(d["coef"]), np.array(d["intercept"])
        g.block_threshold_, g.warn_threshold_ = d["block_threshold"], d["warn_threshold"]
        g.min_block_similarity_ = d.get("min_block_similarity")
        g.min_block_predicate_similarity_ = d.get("min_block_predicate_similarity")
        g.fitted_on_, g.cv_ = d.get("fitted_on", ""), d.get("cross_validation")
        g.n_negatives_ = int(d.get("negatives", 0) or 0)
        return g


def similarity_floor(X: np.ndarray, y: list[str], quantile: float | None) -> float | None:
    """The ``quantile`` of the text similarity of the fitting rows labelled contradiction (None
    without a quantile or a contradiction)."""
    return quantile_of_contradictions(np.asarray(X)[:, FEATURES.index("text_similarity")], y, quantile)


def quantile_of_contradictions(values: np.ndarray, y: list[str], quantile: float | None) -> float | None:
    """The ``quantile`` of ``values`` over the rows labelled contradiction (None without a quantile
    or a contradiction)."""
    contradictions = np.asarray(y) == "contradiction"
    if quantile is None or not contradictions.any():
        return None
    return round(float(np.quantile(np.asarray(values)[contradictions], quantile)), 4)


def tiers_at(proba: np.ndarray, block_t: float, warn_t: float) -> list[str]:
    pc = proba[:, 0]
    pw = proba[:, 0] + proba[:, 1]
    return ["block" if c >= block_t else "warn" if w >= warn_t else "clean" for c, w in zip(pc, pw)]


def choose_thresholds(proba: np.ndarray, y: list[str], max_false_block: float,
                      max_compatible_warn: float, decided: dict | None = None) -> tuple[float, float]:
    """Block threshold: the lowest p(contradiction) whose false-block rate on compatible pairs is
    within the limit (lowest = most recall). Warn threshold: the lowest p(contradiction)+p(tension)
    that warns on at most ``max_compatible_warn`` of the compatible pairs the block left clean."""
    y = np.asarray(y)
    comp = y == "compatible"
    pc = proba[:, 0]
    fixed_fb, fixed_comp = (decided or {}).get("false_blocks", 0), (decided or {}).get("compatible", 0)
    n_comp = comp.sum() + fixed_comp
    block_t = 1.0
    for t in sorted(set(np.round(pc, 4).tolist()) | {1.0}, reverse=True):
        if ((pc[comp] >= t).sum() + fixed_fb) / max(1, n_comp) <= max_false_block:
            block_t = t
        else:
            break
    pw = proba[:, 0] + proba[:, 1]
    clean_comp = comp & (pc < block_t)
    warn_t = 1.0
    for t in sorted(set(np.round(pw, 4).tolist()) | {1.0}, reverse=True):
        if clean_comp.sum() and (pw[clean_comp] >= t).sum() / comp.sum() <= max_compatible_warn:
            warn_t = t
        else:
            break
    return float(max(block_t, 0.05)), float(max(warn_t, 0.05))


def bagged_thresholds(proba: np.ndarray, y: list[str], max_false_block: float, max_compatible_warn: float,
                      decided: dict | None = None, n: int = 200, seed: int = 0) -> tuple[float, float]:
    """``choose_thresholds`` on ``n`` bootstrap resamples of the rows, the mean of each. Why: the
    block threshold is an order statistic (about the 10th-highest compatible score at 2 % of ~500
    pairs), so one pair's score moving or one verdict changing shifted it by ~0.01 and the
    recall by several points (claims_train: seven statements normalised differently moved it 0.863 →
    0.875 and the shipped fit's CV F1 0.452 → 0.418). The mean over resamples moved half as much; a
    median would not help, it lands on the same data point."""
    rng = np.random.default_rng(seed)
    y = np.asarray(y)
    got = [choose_thresholds(proba[idx], y[idx].tolist(), max_false_block, max_compatible_warn, decided)
           for idx in (rng.integers(0, len(y), len(y)) for _ in range(n))]
    return float(np.mean([b for b, _ in got])), float(np.mean([w for _, w in got]))


def operating_figures(proba: np.ndarray, y: list[str], block_t: float, warn_t: float) -> dict:
    tiers = tiers_at(proba, block_t, warn_t)
    yb = [v == "contradiction" for v in y]
    pb = [t == "block" for t in tiers]
    tp = sum(a and b for a, b in zip(yb, pb))
    p = tp / max(1, sum(pb))
    r = tp / max(1, sum(yb))
    comp = [t for v, t in zip(y, tiers) if v == "compatible"]
    ten = [t for v, t in zip(y, tiers) if v == "tension"]
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "false_block": round(sum(t == "block" for t in comp) / max(1, len(comp)), 4),
            "tension_warn": round(sum(t == "warn" for t in ten) / max(1, len(ten)), 4),
            "ece_contradiction": round(expected_calibration_error(proba[:, 0], yb), 4)}


def expected_calibration_error(p: np.ndarray, y: list[bool], bins: int = 10) -> float:
    p, y = np.asarray(p), np.asarray(y, dtype=float)
    edges = np.linspace(0, 1, bins + 1)
    err = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (p >= lo) & (p < hi if hi < 1 else p <= hi)
        if m.any():
            err += m.mean() * abs(p[m].mean() - y[m].mean())
    return float(err)
