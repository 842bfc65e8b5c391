"""Does an option of the claim stage separate contradictions better? A controlled, CPU-sized run.

Run: ``python -m training.claim_stage_ablation --neutrals 0,4 [--epochs 1] [--base models/nli-minilm-l6]``.

Why this and not the full recipe: the recipe's fold models start from the general stage, which
takes a GPU to make. Here every fold model starts from a model that never saw claims_train (v1,
general NLI only) and is fine-tuned for a short while on its four folds' claim pairs, with and
without the option — the same grouped folds as the gate (``grouped_folds``), so the comparison is
out-of-fold. Reports ROC AUC of max-direction p(contradiction) on the text-only categories (scope-
and time-disjoint pairs need the scope, which a text model cannot see) and recall at 2 % false
positives there. Resumable: each fold's predictions are kept in the work folder.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from training.claim_pairs import CLAIMS_TRAIN, claim_training_pairs, grouped_folds, read_rows

ROOT = Path(__file__).resolve().parents[1]


def figures(rows: list[dict], p_contradiction: dict[str, float]) -> dict:
    from sklearn.metrics import roc_auc_score
    use = [r for r in rows if r["category"] not in ("scope_disjoint", "time_disjoint")]
    y = [r["label"] == "contradiction" for r in use]
    s = [p_contradiction[r["id"]] for r in use]
    negatives = sorted((v for v, t in zip(s, y) if not t), reverse=True)
    cut = negatives[int(0.02 * len(negatives))]
    by_cat: dict[str, list[float]] = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(p_contradiction[r["id"]])
    return {"roc_auc_text_only": round(float(roc_auc_score(y, s)), 4),
            "recall_at_2pct_fp_text_only": round(float(np.mean([v > cut for v, t in zip(s, y) if t])), 4),
            "mean_p_contradiction_by_category": {c: round(float(np.mean(v)), 3) for c, v in sorted(by_cat.items())}}


def run(neutrals: list[int], epochs: float, base: str, work: Path) -> dict:
    from training.cv_nli import _score
    from training.train import TrainConfig, train
    rows = read_rows(CLAIMS_TRAIN)
    folds = grouped_folds(rows)
    work.mkdir(parents=True, exist_ok=True)
    report = {"base": base, "epochs": epochs, "variants": {}}
    for n in neutrals:
        for f in range(5):
            pred_file = work / f"n{n}_e{epochs}_fold{f}.jsonl"
            if pred_file.exists():
                continue
            t = time.time()
            train_rows = [r for r, k in zip(rows, folds) if k != f]
            held = [r for r, k in zip(rows, folds) if k == f]
            mdir = work / f"model_n{n}_fold{f}"
            cfg = TrainConfig(output_dir=str(mdir), train_files=[], from_checkpoint=base, domain_pairs=False,
                              symmetric=False, epochs=epochs, batch_size=16, learning_rate=5e-5, max_length=128,
                              save_steps=100000, device="cpu")
            s = train(cfg, extra=claim_training_pairs(train_rows, {"same_document_neutrals": n}))
            tmp = pred_file.with_suffix(".tmp")
            tmp.write_text("".join(json.dumps(p) + "\n" for p in _score(mdir, held, 128)))
            tmp.replace(pred_file)
            shutil.rmtree(mdir, ignore_errors=True)
            print(f"neutrals {n}, fold {f}: {s.get('pairs_total')} pairs, {time.time() - t:.0f} s", flush=True)
        pc = {}
        for f in range(5):
            for line in (work / f"n{n}_e{epochs}_fold{f}.jsonl").read_text().splitlines():
                p = json.loads(line)
                pc[p["id"]] = max(p["forward"]["contradiction"], p["backward"]["contradiction"])
        report["variants"][f"same_document_neutrals={n}"] = figures(rows, pc)
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--neutrals", default="0,4", help="values of same_document_neutrals to compare")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--base", default=str(ROOT / "models" / "nli-minilm-l6"))
    ap.add_argument("--work", default=str(ROOT / "runs" / "claim-stage-ablation"))
    ap.add_argument("--out", default=str(ROOT / "results" / "claims-cv" / "claim_stage_ablation.json"))
    a = ap.parse_args(argv)
    report = run([int(x) for x in a.neutrals.split(",")], a.epochs, a.base, Path(a.work))
    report["command"] = " ".join(["python -m training.claim_stage_ablation", *(sys.argv[1:] if argv is None else argv)])
    Path(a.out).write_text(json.dumps(report, indent=1))
    print(json.dumps({k: {m: v[m] for m in ("roc_auc_text_only", "recall_at_2pct_fp_text_only")}
                      for k, v in report["variants"].items()}, indent=1))


if __name__ == "__main__":
    main()
