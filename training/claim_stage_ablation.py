"""Does an option of the claim stage separate contradictions better? A controlled, CPU-sized run.

Run: ``python -m training.claim_stage_ablation --neutrals 0,4 [--swaps 0,1] [--perturb 0,1] [--identity 0,1]
[--objective ce,poe,reweight,label-smoothing,symmetric,distill [--teacher-scores F] [--teacher-pairs F]] [--freeze 0,3] [--average-from 0,0.5]
[--lr-schedule linear] [--rewrite 0,0.5] [--rewrite-copies 0,0.5] [--consistency 0,1] [--seed 42] [--dev]
[--epochs 1] [--base models/nli-minilm-l6]`` (every combination of same-document neutrals, subject-swap neutrals,
perturbed pairs, identity pairs, training objective, frozen lower layers and weight averaging is one variant;
``--dev`` also scores claims_dev with each fold model, which never saw it).

Why this and not the full recipe: the recipe's fold models start from the general stage, which
takes a GPU to make. Here every fold model starts from a model that never saw claims_train (v1,
general NLI only) and is fine-tuned for a short while on its four folds' claim pairs, with and
without the option — the same grouped folds as the gate (``grouped_folds``), so the comparison is
out-of-fold. Reports ROC AUC of max-direction p(contradiction), overall and on the text-only
categories (scope- and time-disjoint pairs need the scope, which a text model cannot see), with the
model card's definition (``card.claims_auc``: contradiction against compatible pairs, tension left
out) so the figures compare with the card's, and recall at 2 % false positives on those text-only
pairs. Resumable: each fold's predictions are kept in the work folder.
"""
from __future__ import annotations

import argparse
import itertools
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from training.claim_pairs import (
    CLAIMS_DEV,
    CLAIMS_TRAIN,
    claim_training_pairs,
    grouped_folds,
    read_rows,
    rewrite_share,
)

ROOT = Path(__file__).resolve().parents[1]


def figures(rows: list[dict], oof_file: Path) -> dict:
    """The model card's claim-pair AUC (``card.claims_auc``: contradiction vs compatible, tension
    left out) and, on its text-only pairs, recall at 2 % false positives; mean score per category."""
    from training.card import claims_auc, false_positive_cut, p_contradiction
    pc = p_contradiction(oof_file)
    use = [r for r in rows if r["label"] in ("contradiction", "compatible")
           and r["category"] not in ("scope_disjoint", "time_disjoint")]
    cut = false_positive_cut(rows, pc)
    by_cat: dict[str, list[float]] = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(pc[r["id"]])
    return {**claims_auc(oof_file, rows),
            "recall_at_2pct_fp_text_only": round(float(np.mean([pc[r["id"]] > cut for r in use
                                                                if r["label"] == "contradiction"])), 4),
            "mean_p_contradiction_by_category": {c: round(float(np.mean(v)), 3) for c, v in sorted(by_cat.items())}}


def dev_figures(dev_rows: list[dict], fold_files: list[Path], mean_file: Path) -> dict:
    """claims_dev scored by each fold model (none saw it): the mean of their ROC AUCs — what one such
    model gives — and the AUC of their averaged probabilities (what the five give together)."""
    from training.card import claims_auc
    aucs = [claims_auc(f, dev_rows) for f in fold_files]
    preds = [{p["id"]: p for p in map(json.loads, f.read_text().splitlines())} for f in fold_files]
    mean = [{"id": i, **{d: {k: float(np.mean([p[i][d][k] for p in preds])) for k in preds[0][i][d]}
                         for d in ("forward", "backward")}} for i in preds[0]]
    mean_file.write_text("".join(json.dumps(m) + "\n" for m in mean))
    return {"fold_models_mean_roc_auc": round(float(np.mean([a["roc_auc"] for a in aucs])), 4),
            "fold_models_mean_roc_auc_text_only": round(float(np.mean([a["roc_auc_text_only"] for a in aucs])), 4),
            "averaged_probabilities": claims_auc(mean_file, dev_rows)}


def run(neutrals: list[int], epochs: float, base: str, work: Path, swaps: list[int] = (0,),
        keep_models: bool = False, perturb: list[int] = (0,), identity: list[int] = (0,),
        precision: str = "auto", objectives: list[str] = ("ce",), freeze: list[int] = (0,),
        dev: bool = False, seed: int = 42, average_from: list[float] = (0.0,), lr_schedule: str = "linear",
        teacher_scores: str | None = None, distill_alpha: float = 0.5, distill_temperature: float = 2.0,
        teacher_pairs: str | None = None, rewrite: list[float] = (0.0,), rewrite_copies: list[float] = (0.0,),
        consistency: list[float] = (0.0,)) -> dict:
    from training.cv_nli import score_fold, train_fold
    from training.precision import choose
    from training.train import TrainConfig
    precision = choose(precision, gpu=False)      # the fold models train on the CPU
    rows = read_rows(CLAIMS_TRAIN)
    dev_rows = read_rows(CLAIMS_DEV) if dev else []
    folds = grouped_folds(rows)
    work.mkdir(parents=True, exist_ok=True)
    report = {"base": base, "epochs": epochs, "precision": precision, "variants": {}}
    for n, sw, pt, ip, obj, fz, av, rw, rc, cs in itertools.product(neutrals, swaps, perturb, identity, objectives, freeze,
                                                                    average_from, rewrite, rewrite_copies, consistency):
        tag = (f"n{n}" + (f"_s{sw}" if sw else "") + ("_p" if pt else "") + ("_i" if ip else "")
               + (f"_{obj}" if obj != "ce" else "") + ("_tp" if teacher_pairs and obj == "distill" else "")
               + (f"_f{fz}" if fz else "") + (f"_avg{av:g}" if av else "") + (f"_rw{rw:g}" if rw else "") + (f"_rc{rc:g}" if rc else "")
               + (f"_rd{cs:g}" if cs else "") + (f"_seed{seed}" if seed != 42 else "") + (f"_{lr_schedule}" if lr_schedule != "linear" else "")
               + ("_bf16" if precision == "bf16" else ""))     # fp32 keeps the names of the runs before bf16
        for f in range(5):
            pred_file = work / f"{tag}_e{epochs}_fold{f}.jsonl"
            dev_file = work / f"dev_{tag}_e{epochs}_fold{f}.jsonl"
            # a kept model's folder names its epochs as its prediction files do: a run with other --epochs
            # trains beside it, not into it
            mdir = work / f"model_{tag}_e{epochs}_fold{f}"
            if (pred_file.exists() and (not keep_models or mdir.exists())
                    and (not dev or dev_file.exists())):
                continue
            t = time.time()
            recipe = {"same_document_neutrals": n, "subject_swap_neutrals": sw, "perturbed_pairs": bool(pt),
                      "identity_pairs": bool(ip), "rewritten_statements": rw, "rewritten_copies": rc,
                      "seed": seed}
            cfg = TrainConfig(output_dir=str(mdir), train_files=[], from_checkpoint=base, domain_pairs=False,
                              symmetric=False, epochs=epochs, batch_size=16, learning_rate=5e-5, max_length=128,
                              save_steps=100000, device="cpu", precision=precision, objective=obj,
                              freeze_layers=fz, average_from=av, seed=seed, lr_schedule=lr_schedule,
                              teacher_scores=teacher_scores if obj == "distill" else None,
                              distill_alpha=distill_alpha, distill_temperature=distill_temperature,
                              rewritten_statements=rewrite_share(recipe), consistency=cs)
            train_rows = [r for r, k in zip(rows, folds) if k != f]
            if teacher_pairs and obj == "distill":     # the fold's own documents' pairs only
                cfg.teacher_pairs = teacher_pairs
                cfg.teacher_pair_sources = sorted({r["source"] for r in train_rows})
            s = train_fold(cfg, claim_training_pairs(train_rows, recipe),
                           [r for r, k in zip(rows, folds) if k == f], f, pred_file, 128)
            if dev:
                score_fold(mdir, dev_rows, f, dev_file, 128)
            if not keep_models:
                shutil.rmtree(mdir, ignore_errors=True)
            print(f"neutrals {n}, swaps {sw}, fold {f}: {s.get('pairs_total')} pairs, {time.time() - t:.0f} s", flush=True)
        oof = work / f"oof_{tag}_e{epochs}.jsonl"
        oof.write_text("".join((work / f"{tag}_e{epochs}_fold{f}.jsonl").read_text() for f in range(5)))
        name = (f"same_document_neutrals={n}" + (f", subject_swap_neutrals={sw}" if sw else "")
                + (", perturbed_pairs" if pt else "") + (", identity_pairs" if ip else "")
                + (f", objective={obj}" if obj != "ce" else "") + (", teacher_pairs" if teacher_pairs and obj == "distill" else "")
                + (f", freeze_layers={fz}" if fz else "")
                + (f", average_from={av:g}" if av else "") + (f", rewritten_statements={rw:g}" if rw else "")
                + (f", rewritten_copies={rc:g}" if rc else "") + (f", consistency={cs:g}" if cs else "")
                + (f", seed={seed}" if seed != 42 else "") + (f", lr_schedule={lr_schedule}" if lr_schedule != "linear" else ""))
        report["variants"][name] = figures(rows, oof)
        if dev:
            report["variants"][name]["claims_dev"] = dev_figures(
                dev_rows, [work / f"dev_{tag}_e{epochs}_fold{f}.jsonl" for f in range(5)], work / f"dev_{tag}_e{epochs}_mean.jsonl")
    return report


def main(argv: list[str] | None = None) -> None:
    from training.precision import PRECISIONS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--neutrals", default="0,4", help="values of same_document_neutrals to compare")
    ap.add_argument("--swaps", default="0", help="values of subject_swap_neutrals to compare")
    ap.add_argument("--perturb", default="0", help="0,1: without / with the perturbed pairs (claim_pairs.perturbed_pairs)")
    ap.add_argument("--identity", default="0", help="0,1: without / with each statement against itself (claim_pairs.identity_pairs)")
    ap.add_argument("--objective", default="ce",
                    help="training objectives to compare (training/objectives.py): ce, poe, reweight, label-smoothing, "
                         "symmetric, distill")
    ap.add_argument("--teacher-scores", default=str(ROOT / "results" / "claims-cv" / "oof_nli_nli-mpnet-lora-lr8.jsonl"),
                    help="distill: the teacher's claims_train scores (default: the large profile's out-of-fold file)")
    ap.add_argument("--teacher-pairs", default=None,
                    help="distill: also learn unlabelled same-document pairs from the teacher's scores "
                         "(a training.teacher_pairs file; each fold only its own documents' pairs)")
    ap.add_argument("--distill-alpha", type=float, default=0.5, help="distill: weight of the gold label's cross-entropy")
    ap.add_argument("--distill-temperature", type=float, default=2.0, help="distill: temperature of the KL term")
    ap.add_argument("--freeze", default="0", help="numbers of lower layers (with the embeddings) to keep frozen")
    ap.add_argument("--average-from", default="0",
                    help="fractions of the run after which the weights are averaged (training/weight_averaging.py); 0: off")
    ap.add_argument("--lr-schedule", default="linear",
                    help="learning-rate schedule after the warm-up (a transformers scheduler: linear, constant_with_warmup, …)")
    ap.add_argument("--rewrite", default="0",
                    help="shares of the statements read rewritten (claim_pairs.rewritten_rows); 0: as written")
    ap.add_argument("--rewrite-copies", default="0",
                    help="shares of the statements rewritten into pairs added beside those as written; 0: none")
    ap.add_argument("--consistency", default="0",
                    help="R-Drop weights (two dropout passes a batch, the symmetric KL between them; training/objectives.py); 0: off")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--dev", action="store_true",
                    help="also score claims_dev with every fold model (mean fold AUC and averaged probabilities)")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--precision", default="auto", choices=PRECISIONS,
                    help="training arithmetic (training/precision.py); auto: bf16 on a CPU with AMX, else fp32")
    ap.add_argument("--keep-models", action="store_true",
                    help="keep each fold model (work/model_<variant>_e<epochs>_fold<k>) to score other inputs out of fold")
    ap.add_argument("--base", default=str(ROOT / "models" / "nli-minilm-l6"))
    ap.add_argument("--work", default=str(ROOT / "runs" / "claim-stage-ablation"))
    ap.add_argument("--out", default=str(ROOT / "results" / "claims-cv" / "claim_stage_ablation.json"))
    a = ap.parse_args(argv)
    report = run([int(x) for x in a.neutrals.split(",")], a.epochs, a.base, Path(a.work),
                 [int(x) for x in a.swaps.split(",")], a.keep_models, [int(x) for x in a.perturb.split(",")],
                 [int(x) for x in a.identity.split(",")], a.precision, a.objective.split(","),
                 [int(x) for x in a.freeze.split(",")], a.dev, a.seed, [float(x) for x in a.average_from.split(",")],
                 a.lr_schedule, a.teacher_scores, a.distill_alpha, a.distill_temperature, a.teacher_pairs,
                 [float(x) for x in a.rewrite.split(",")], [float(x) for x in a.rewrite_copies.split(",")],
                 [float(x) for x in a.consistency.split(",")])
    report["command"] = " ".join(["python -m training.claim_stage_ablation", *(sys.argv[1:] if argv is None else argv)])
    Path(a.out).write_text(json.dumps(report, indent=1))
    print(json.dumps({k: {m: v[m] for m in ("roc_auc", "roc_auc_text_only", "recall_at_2pct_fp_text_only")}
                      for k, v in report["variants"].items()}, indent=1))


if __name__ == "__main__":
    main()
