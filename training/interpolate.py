"""A claim-tuned model pulled part of the way back to the general NLI model it was tuned from.

Why: the claim stage fits the few hundred documents of claims_train and learns their shortcuts
("two facts about one thing contradict"), which do not carry to other documents; the general
model knows nothing of claims. WiSE-FT (Wortsman et al., 2022, "Robust fine-tuning of zero-shot
models") takes the straight line between the two sets of weights: most of the tuned model's gain
where it was tuned, more of the general model's behaviour elsewhere, at no inference cost (one
model of the same size). The merge is sentence-transformers' ``CrossEncoder.merge`` (mergekit's
"linear" method), which also checks that the two models share architecture, labels and tokenizer.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from training.model_folder import staging, swap_in


def interpolate(general: str | Path, tuned: str | Path, weight: float, out: str | Path,
                fp16: bool = True) -> Path:
    """``(1 - weight) * general + weight * tuned``, saved to ``out`` whole or not at all (it may be
    ``tuned`` itself: the tuned weights are only replaced once the merged model is on disk)."""
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"the interpolation weight must be within 0–1, not {weight}")
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder
    try:
        merged = CrossEncoder.merge([str(general), str(tuned)], method="linear",
                                    parameters={"weight": [1.0 - weight, weight]},
                                    out_dtype=torch.float16 if fp16 else None)
    except ImportError as exc:
        raise SystemExit(f"interpolating models needs mergekit: pip install 'claim-guard[train]' ({exc})") from None
    out = Path(out)
    tmp = staging(out, "merging")
    merged.save_pretrained(str(tmp))
    summary = Path(tuned) / "training_summary.json"
    if summary.exists():                    # what the tuned half was trained on travels with the merge
        shutil.copy2(summary, tmp / "training_summary.json")
    return swap_in(tmp, out)


def probe(work: Path, final: Path, weights: list[float], out: Path, name: str) -> dict:
    """Grouped-CV and claims_dev prediction files for each weight, from a finished
    ``training.cv_nli`` run: its general model (``work/general``) merged with each fold model
    (``work/fold{k}``, scored on that fold's held-out rows) and with the final model (scored on
    claims_dev). Tags are ``{name}-wise{weight*100:03d}``; ``guard bench stages --tuned TAG`` reads them."""
    import json

    from training.card import claims_auc
    from training.claim_pairs import grouped_folds
    from training.cv_nli import CLAIMS_DEV, CLAIMS_TRAIN, _score, read_rows, score_dev
    rows, dev = read_rows(CLAIMS_TRAIN), read_rows(CLAIMS_DEV)
    fold = grouped_folds(rows)
    k = max(fold) + 1
    missing = [str(p) for p in [work / "general", final, *(work / f"fold{f}" for f in range(k))] if not p.is_dir()]
    if missing:
        raise SystemExit(f"not a finished cv_nli run: no {', '.join(missing)}")
    out.mkdir(parents=True, exist_ok=True)
    order = {r["id"]: i for i, r in enumerate(rows)}
    report = {}
    for w in weights:
        tag = f"{name}-wise{int(round(w * 100)):03d}"
        tmp = work / f"_{tag}"
        oof = []
        for f in range(k):
            m = interpolate(work / "general", work / f"fold{f}", w, tmp, fp16=False)
            oof += [{**p, "fold": f} for p in _score(m, [r for r, x in zip(rows, fold) if x == f], 128)]
        oof.sort(key=lambda p: order[p["id"]])
        (out / f"oof_nli_{tag}.jsonl").write_text("".join(json.dumps(p) + "\n" for p in oof))
        score_dev(str(interpolate(work / "general", final, w, tmp, fp16=False)), tag, out, CLAIMS_DEV)
        shutil.rmtree(tmp, ignore_errors=True)
        report[tag] = {"weight": w, "claims_train_out_of_fold": claims_auc(out / f"oof_nli_{tag}.jsonl", rows),
                       "claims_dev": claims_auc(out / f"dev_nli_{tag}.jsonl", dev)}
        print(tag, json.dumps(report[tag]), flush=True)
    return report


if __name__ == "__main__":
    import argparse
    import json
    ap = argparse.ArgumentParser(description="WiSE-FT probe over a finished training.cv_nli run")
    ap.add_argument("work", type=Path, help="the run's work folder (general/ and fold0/ … inside)")
    ap.add_argument("final", type=Path, help="the run's final model (its recipe's output)")
    ap.add_argument("--weights", default="0,0.25,0.5,0.75", help="weights of the claim-tuned model")
    ap.add_argument("--name", default="interpolated", help="tag prefix of the prediction files")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "results" / "claims-cv")
    a = ap.parse_args()
    rep = probe(a.work, a.final, [float(x) for x in a.weights.split(",")], a.out, a.name)
    (a.out / f"{a.name}_interpolation.json").write_text(json.dumps(rep, indent=2))
