"""Fit the NLI model's temperature on held-out pairs; report ECE before and after, and draw the
reliability diagram.

Run: ``python -m training.calibrate models/nli-minilm-l6-v2``. Writes ``calibration.json`` (the
temperature, what it was fitted on, ECE before/after per evaluation file, the diagram's bins) and
``reliability.png`` beside the model. Fitted on files no recipe trains on (LingNLI and New
Protocols dev splits); evaluated on MNLI dev-matched and SNLI test, which nothing was fitted on.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from guard.nli.calibration import CALIBRATION_FILE
from training.data import LABELS_3WAY, _read_jsonl

SHARED_NLI = Path(__file__).resolve().parents[2] / "shared" / "data" / "nli"
FIT_FILES = {"lingnli.dev.jsonl": 2000, "newprotocols_base.dev.jsonl": None}
EVAL_FILES = {"mnli.dev_matched.jsonl": 1000, "snli.test.jsonl": 1000}
BINS = 10


def _rows(files: dict[str, int | None], seed: int = 42) -> list[dict]:
    out = []
    for name, cap in files.items():
        rows = [r for r in _read_jsonl(SHARED_NLI / name) if r["label"] in LABELS_3WAY]
        out += random.Random(seed).sample(rows, cap) if cap and len(rows) > cap else rows
    return out


def log_probs(scorer, rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """Raw log-probabilities (logits up to a per-row constant, which temperature scaling ignores)
    and gold label indices in the scorer's label order."""
    probs = scorer.predict([(r["premise"], r["hypothesis"]) for r in rows])
    lp = np.log(np.clip(np.array([[p[lab] for lab in scorer.labels] for p in probs]), 1e-12, 1.0))
    return lp, np.array([scorer.labels.index(r["label"]) for r in rows])


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def nll(lp: np.ndarray, y: np.ndarray, t: float) -> float:
    p = _softmax(lp / t)
    return float(-np.log(np.clip(p[np.arange(len(y)), y], 1e-12, 1.0)).mean())


def fit_temperature(lp: np.ndarray, y: np.ndarray) -> float:
    from scipy.optimize import minimize_scalar
    res = minimize_scalar(lambda lt: nll(lp, y, float(np.exp(lt))), bounds=(np.log(0.05), np.log(20)), method="bounded")
    return round(float(np.exp(res.x)), 4)


def reliability(p: np.ndarray, y: np.ndarray, bins: int = BINS) -> dict:
    """Top-label confidence against accuracy in equal-width bins, and the expected calibration error."""
    conf, pred = p.max(axis=1), p.argmax(axis=1)
    edges = np.linspace(1 / 3, 1.0, bins + 1)          # a 3-way top label is never below 1/3
    out, ece = [], 0.0
    for i in range(bins):
        m = (conf >= edges[i]) & ((conf < edges[i + 1]) if i < bins - 1 else (conf <= 1.0))
        if m.any():
            acc, c = float((pred[m] == y[m]).mean()), float(conf[m].mean())
            ece += m.mean() * abs(acc - c)
            out.append({"from": round(float(edges[i]), 3), "to": round(float(edges[i + 1]), 3), "n": int(m.sum()),
                        "confidence": round(c, 4), "accuracy": round(acc, 4)})
    return {"ece": round(float(ece), 4), "bins": out}


def calibrate(model_dir: str | Path) -> dict:
    from guard.nli.scorer import NLIScorer
    model_dir = Path(model_dir)
    scorer = NLIScorer(model_dir, calibrated=False, batch_size=64)
    lp, y = log_probs(scorer, _rows(FIT_FILES))
    t = fit_temperature(lp, y)
    report = {"temperature": t, "fitted_on": {k: v or "all" for k, v in FIT_FILES.items()},
              "fit_nll": {"before": round(nll(lp, y, 1.0), 4), "after": round(nll(lp, y, t), 4)}, "eval": {}}
    for name, cap in EVAL_FILES.items():
        elp, ey = log_probs(scorer, _rows({name: cap}))
        report["eval"][name.removesuffix(".jsonl")] = {
            "n": len(ey), "before": reliability(_softmax(elp), ey), "after": reliability(_softmax(elp / t), ey)}
    (model_dir / CALIBRATION_FILE).write_text(json.dumps(report, indent=2))
    _diagram(report, model_dir / "reliability.png")
    return report


def _diagram(report: dict, out: Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:          # the [bench] extra draws it; the JSON holds the same bins
        return
    files = list(report["eval"])
    fig, axes = plt.subplots(1, len(files), figsize=(5 * len(files), 4.5))
    for ax, name in zip(np.atleast_1d(axes), files):
        for key, style in (("before", "o--"), ("after", "s-")):
            r = report["eval"][name][key]
            ax.plot([b["confidence"] for b in r["bins"]], [b["accuracy"] for b in r["bins"]], style,
                    label=f"{key} (ECE {r['ece']:.3f})")
        ax.plot([1 / 3, 1], [1 / 3, 1], color="grey", lw=0.8)
        ax.set(title=name, xlabel="confidence (top label)", ylabel="accuracy", xlim=(0.3, 1.0), ylim=(0.0, 1.0))
        ax.legend(loc="upper left")
    fig.suptitle(f"Reliability, temperature {report['temperature']}")
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    import sys
    rep = calibrate(sys.argv[1] if len(sys.argv) > 1 else "models/nli-minilm-l6-v2")
    print(json.dumps({"temperature": rep["temperature"], "fit_nll": rep["fit_nll"],
                      "ece": {k: {"before": v["before"]["ece"], "after": v["after"]["ece"]} for k, v in rep["eval"].items()}},
                     indent=2))
