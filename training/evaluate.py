"""Evaluating an NLI model on 3-way or 2-way files (``guard eval-nli``).

2-way files (entailment / not_entailment) are scored by collapsing the model's neutral and
contradiction into not_entailment — the mapping is stated in the report, never implied.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from training.data import LABELS_2WAY, LABELS_3WAY, _read_jsonl, check_nli_rows


def metrics(gold: list[str], pred: list[str], labels: tuple[str, ...]) -> dict:
    from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support
    p, r, f, s = precision_recall_fscore_support(gold, pred, labels=list(labels), zero_division=0)
    return {
        "n": len(gold), "accuracy": float(accuracy_score(gold, pred)),
        "per_class": {lab: {"precision": float(p[i]), "recall": float(r[i]), "f1": float(f[i]), "support": int(s[i])}
                      for i, lab in enumerate(labels)},
        "confusion": {"labels": list(labels), "matrix": confusion_matrix(gold, pred, labels=list(labels)).tolist()},
    }


def evaluate_files(model: str, files: list[str], quantize: bool = False, limit: int | None = None,
                   scorer=None, on_file=None, device: str = "cpu", backend: str = "auto") -> dict:
    from guard.nli.scorer import NLIScorer
    scorer = scorer or NLIScorer(model, quantize=quantize, batch_size=64, device=device, backend=backend)
    out = {"model": model, "quantized": quantize, "backend": getattr(scorer, "backend", None), "files": {}}
    for f in files:
        rows = _read_jsonl(Path(f))[:limit] if limit else _read_jsonl(Path(f))
        check_nli_rows(f, rows)
        labels = {r["label"] for r in rows}
        two_way = labels <= set(LABELS_2WAY)
        t = time.perf_counter()
        probs = scorer.predict([(r["premise"], r["hypothesis"]) for r in rows])
        secs = time.perf_counter() - t
        pred = [max(p, key=p.get) for p in probs]
        gold = [r["label"] for r in rows]
        if two_way:
            pred = ["entailment" if x == "entailment" else "not_entailment" for x in pred]
            m = metrics(gold, pred, LABELS_2WAY)
            m["mapping"] = "model neutral+contradiction → not_entailment"
        else:
            m = metrics(gold, pred, LABELS_3WAY)
        m["seconds"] = round(secs, 1)
        m["pairs_per_second"] = round(len(rows) / secs, 1) if secs else None
        out["files"][Path(f).name.removesuffix(".jsonl")] = m
        if on_file:
            on_file(f)
    return out


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    rep = json.dumps(evaluate_files(a.model, a.files, limit=a.limit, device=a.device), indent=2)
    if a.out:
        a.out.write_text(rep)
    print(rep)
