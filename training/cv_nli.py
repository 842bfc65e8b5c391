"""Out-of-fold NLI models on claim pairs, then the model trained on every fold.

Run: ``python -m training.cv_nli training/recipes/nli-minilm-l6-v2.json``.

Why out-of-fold: the learned gate (``guard.nli.learned_gate``) is fitted on NLI scores. If those
scores came from a model that trained on the very pairs, they would look far better than on new
documents, and the gate would trust them too much. So for each grouped fold k a model is trained
on the other folds (plus general NLI data) and scores fold k only; the gate is fitted on those
scores. The final model trains on all of claims_train; claims_dev is never trained on.

Checkpointing: each fold writes its predictions when done and is skipped on a rerun, so an
interrupted run resumes at the fold it was in.
"""
from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

from training.claim_pairs import (CLAIMS_DEV, CLAIMS_TRAIN, claim_training_pairs, family_folds, grouped_folds, read_rows,
                                  rewrite_share)

ROOT = Path(__file__).resolve().parents[1]
SHARED_NLI = ROOT.parent / "shared" / "data" / "nli"


def load_recipe(path: str | Path) -> dict:
    """The recipe with what it ``extends`` merged in (``training.recipe_file``)."""
    from training.recipe_file import read_recipe
    recipe = read_recipe(path)
    recipe["_path"] = str(path)
    return recipe


def _general_cfg(recipe: dict, out_dir: Path):
    """Stage one of a two-stage recipe: general 3-way NLI from the base, no claim pairs."""
    from training.train import TrainConfig
    g = recipe["general"]
    return TrainConfig(
        output_dir=str(out_dir), train_files=[str(SHARED_NLI / f) for f in g["files"]], sample=g.get("sample"),
        base_model=recipe.get("base_model"), domain_pairs=g.get("domain_pairs", False), dedupe=True,
        epochs=g["epochs"], batch_size=g["batch_size"], learning_rate=g["learning_rate"],
        max_length=recipe["max_length"], seed=recipe["seed"], save_fp16=False, save_steps=g.get("save_steps", 500),
        max_steps=g.get("max_steps", -1), group_by_length=bool(g.get("group_by_length", False)),
        precision=recipe.get("precision", "auto"), lora=recipe.get("lora"),
        warmup_ratio=g.get("warmup_ratio", 0.1), max_seconds=float(g.get("max_seconds", 0)))


def _more_cfg(recipe: dict, gdir: Path, out_dir: Path):
    """A second general stage that continues the first on the pairs it did not reach: a general stage
    cut short to fit a CPU session (``max_steps``) is finished later from its checkpoint, with a new
    learning-rate schedule (``learning_rate``, ``epochs``, ``max_steps`` in "general_more")."""
    from dataclasses import replace
    g, more = recipe["general"], recipe["general_more"]
    if not g.get("group_by_length") or g.get("max_steps", -1) <= 0:
        raise ValueError('"general_more" continues a length-grouped general stage stopped by "max_steps"')
    return replace(_general_cfg(recipe, out_dir), from_checkpoint=str(gdir), skip_batches=g["max_steps"],
                   epochs=more.get("epochs", 1), max_steps=more.get("max_steps", -1),
                   learning_rate=more.get("learning_rate", g["learning_rate"]))


# what makes a general stage the recipe's; not its seed, which a recipe varies to draw another claim stage
# from the same general model (training.parallel shares the first recipe's general stage with every arm)
GENERAL_KEYS = ("epochs", "batch_size", "learning_rate", "max_length", "domain_pairs", "sample",
                "group_by_length", "max_steps", "base_model", "lora")


def check_general(recipe: dict, folder: Path) -> None:
    """Refuse a general-stage model that was not trained as this recipe's general stage says: a claim
    stage run from it would be reported under the recipe's name with another start. Why one is given
    at all: the general stage is hours of a GPU (about a day on 2 CPU cores), the claim stage 35 minutes,
    so a CPU session reruns claim stages from a general model trained once and kept
    (``models/nli-minilm-l6-v2-general``)."""
    if "general" not in recipe:
        raise ValueError(f"--general {folder}: the recipe {recipe['name']} has no general stage")
    if "general_more" in recipe:
        raise ValueError(f"--general {folder}: the recipe {recipe['name']} continues its general stage "
                         '("general_more"); give its work folder instead')
    f = folder / "training_summary.json"
    if not f.is_file():
        raise ValueError(f"--general {folder}: no training_summary.json there (not a trained general stage)")
    got = json.loads(f.read_text()).get("config", {})
    want = _general_cfg(recipe, folder)
    diff = [k for k in GENERAL_KEYS if k in got and got[k] != getattr(want, k)]
    names = lambda files: sorted(Path(x).name for x in files)  # the machine's paths differ
    if names(got.get("train_files", [])) != names(want.train_files):
        diff.append("train_files")
    if diff:
        raise ValueError(f"--general {folder}: trained with other {', '.join(diff)} than the recipe's general stage")


def _start(recipe: dict, work: Path, general: Path | None = None) -> str | None:
    """The checkpoint the claim-pair stage starts from: ``general`` when given (checked against the
    recipe), else the recipe's own general-NLI model when it has a "general" stage (trained here
    first, once), else a shipped one."""
    if general is not None:
        check_general(recipe, general)
        return str(general)
    if "general" in recipe:
        gdir = work / "general"
        if not (gdir / "training_summary.json").exists():
            from training.train import train
            s = train(_general_cfg(recipe, gdir))
            print(f"general NLI: {s['pairs_total']} pairs, {s['steps']} steps, {s['wall_seconds']:.0f} s", flush=True)
        if "general_more" not in recipe:
            return str(gdir)
        more = work / "general_more"
        if not (more / "training_summary.json").exists():
            from training.train import train
            s = train(_more_cfg(recipe, gdir, more))
            print(f"general NLI, continued: {s['pairs_total']} pairs, {s['steps']} steps, {s['wall_seconds']:.0f} s",
                  flush=True)
        return str(more)
    base = recipe.get("from_checkpoint")
    return str(ROOT / base) if base else None


def _train_cfg(recipe: dict, out_dir: Path, start: str | None = None):
    from training.train import TrainConfig
    return TrainConfig(
        output_dir=str(out_dir),
        train_files=[str(SHARED_NLI / f) for f in recipe["replay_files"]],
        sample=recipe.get("replay_sample"), from_checkpoint=start,
        base_model=recipe.get("base_model"), dedupe=bool(recipe.get("dedupe")), domain_pairs=recipe.get("domain_pairs", False),
        epochs=recipe["epochs"], batch_size=recipe["batch_size"], learning_rate=recipe["learning_rate"],
        max_length=recipe["max_length"], seed=recipe["seed"], save_fp16=True, max_steps=recipe.get("max_steps", -1),
        group_by_length=bool(recipe.get("group_by_length", False)), precision=recipe.get("precision", "auto"),
        lr_schedule=recipe.get("lr_schedule", "linear"), average_from=float(recipe.get("average_from", 0.0)),
        lora=recipe.get("lora"), save_steps=int(recipe.get("save_steps", 200)),
        objective=recipe.get("objective", "ce"),
        teacher_scores=str(ROOT / recipe["teacher_scores"]) if recipe.get("teacher_scores") else None,
        teacher_pairs=str(ROOT / recipe["teacher_pairs"]) if recipe.get("teacher_pairs") else None,
        distill_alpha=float(recipe.get("distill_alpha", 0.5)),
        distill_temperature=float(recipe.get("distill_temperature", 2.0)),
        consistency=float(recipe.get("consistency", 0.0)),
        rewritten_statements=rewrite_share(recipe))


def _score(model_dir: Path, rows: list[dict], max_length: int) -> list[dict]:
    """Both directions, all three labels, fp32 (no quantisation: the gate is fitted on exact scores),
    of each text as the guard's models read it at write time (``nli.model_text``), uncalibrated (readers
    rescale by the model's temperature: ``gate_data.read_predictions``)."""
    import torch

    from guard.nli.model_text import model_text
    from guard.nli.scorer import NLIScorer
    scorer = NLIScorer(model_dir, quantize=False, batch_size=32, max_length=max_length, calibrated=False,
                       device="cuda" if torch.cuda.is_available() else "cpu")
    both = scorer.score_both([(model_text(r["existing"]["text"]), model_text(r["incoming"]["text"])) for r in rows])
    return [{"id": r["id"], "forward": {k: round(v, 5) for k, v in f.items()},
             "backward": {k: round(v, 5) for k, v in b.items()}} for r, (f, b) in zip(rows, both)]


def score_fold(model_dir: Path, held: list[dict], fold: int, pred_file: Path, max_length: int) -> None:
    """A fold model's (or a fold soup's) scores of its held-out rows (both directions) written to
    ``pred_file`` whole or not at all, so a rerun skips a finished fold."""
    from guard.safe_output import atomic_write
    preds = _score(model_dir, held, max_length)
    with atomic_write(pred_file) as fh:
        fh.writelines(json.dumps({**p, "fold": fold}) + "\n" for p in preds)


def train_fold(cfg, extra: list, held: list[dict], fold: int, pred_file: Path, max_length: int) -> dict:
    """Train one fold model and score its held-out rows (``score_fold``); returns the training summary."""
    from training.train import train
    s = train(cfg, extra=extra)
    score_fold(Path(cfg.output_dir), held, fold, pred_file, max_length)
    return s


def seeds(recipe: dict) -> list[int]:
    """The claim stage's seeds: one model each, averaged into a soup (``training.soup``) where there
    are several ("seeds": [42, 43]); a recipe without the key trains one model with its "seed"."""
    return [int(x) for x in (recipe.get("seeds") or [recipe["seed"]])]


def _member(work: Path, part: str, seed: int, several: bool) -> tuple[Path, Path]:
    """Where one seed's model of a fold ("fold0" …) or of the final model ("final") goes, and where
    its held-out scores go. One seed keeps the layout of the recipes before seeds (work/fold0)."""
    base = work / f"seed{seed}" if several else work
    return base / part, base / f"oof_{part}.jsonl"


def write_oof(pred_files: list[Path], out: Path, order: dict[str, int]) -> None:
    """The fold files joined into one out-of-fold file, in the rows' order (``order``: id → row index)."""
    preds = [json.loads(x) for f in pred_files for x in f.read_text().splitlines()]
    preds.sort(key=lambda p: order[p["id"]])
    out.write_text("".join(json.dumps(p) + "\n" for p in preds))


def recipe_folds(recipe: dict, rows: list[dict]) -> tuple[list[int], int]:
    """The fold of each claims_train row and the number of folds. ``"fold_by": "family"``: one fold per source
    family (``claim_pairs.family_folds``), so each out-of-fold score is of a model that never saw a document of the
    pair's kind — as the final model meets a new user's documents; by default folds grouped by document."""
    by = recipe.get("fold_by", "document")
    if by == "family":
        fold = family_folds(rows)
        k = max(fold) + 1
        if recipe.get("folds", k) != k:
            raise ValueError(f"the recipe says {recipe['folds']} folds, and its rows come from {k} families")
        return fold, k
    if by != "document":
        raise ValueError(f"fold_by must be 'document' or 'family', not {by!r}")
    k = recipe.get("folds", 5)
    return grouped_folds(rows, k), k


def run(recipe_path: str | Path, work_dir: Path | None = None, out_dir: Path | None = None,
        folds_only: bool = False, train_path: Path = CLAIMS_TRAIN, dev_path: Path = CLAIMS_DEV,
        model_root: Path = ROOT, general_only: bool = False, only_seed: int | None = None,
        only_part: str | None = None, general: Path | None = None) -> dict:
    """The recipe's general stage (once), one model per fold and seed scoring its held-out fold, the
    final model per seed, and — with several seeds — each fold's and the final soup. ``only_seed`` /
    ``only_part`` ("fold3", "final") train just those members and stop, so that a machine with room
    for several trainings at once can run them side by side; a later plain run finds them done and
    makes the soups and the prediction files."""
    from training.train import train
    recipe = load_recipe(recipe_path)
    name = recipe["name"]
    work = work_dir or ROOT / "runs" / name
    work.mkdir(parents=True, exist_ok=True)
    start = _start(recipe, work, general)
    summary = {"recipe": recipe, "folds": recipe.get("folds", 5), "fold_by": recipe.get("fold_by", "document"),
               "runs": {}}
    if general_only:
        return summary
    rows = read_rows(train_path)
    fold, k = recipe_folds(recipe, rows)
    all_seeds = seeds(recipe)
    several = len(all_seeds) > 1
    if only_seed is not None and only_seed not in all_seeds:
        raise ValueError(f"seed {only_seed} is not among the recipe's seeds {all_seeds}")
    parts = [f"fold{f}" for f in range(k)] + ([] if folds_only else ["final"])
    if only_part is not None:
        if only_part not in [f"fold{f}" for f in range(k)] + ["final"]:
            raise ValueError(f"part {only_part!r} is none of fold0…fold{k - 1}, final")
        parts = [only_part]
    final = model_root / recipe["output"]
    for part in parts:
        for seed in ([only_seed] if only_seed is not None else all_seeds):
            mdir, pred_file = _member(work, part, seed, several)
            if part == "final" and not several:
                mdir = final
            done = pred_file.exists() if part != "final" else (mdir / "model.safetensors").exists()
            if done:
                print(f"{part} seed {seed}: done earlier, skipped", flush=True)
                continue
            train_rows = rows if part == "final" else [r for r, x in zip(rows, fold) if x != int(part.removeprefix("fold"))]
            cfg = replace(_train_cfg(recipe, mdir, start), seed=seed, teacher_rows=str(train_path))
            if cfg.teacher_scores and "{part}" in cfg.teacher_scores:     # a teacher per fold: no leak
                cfg = replace(cfg, teacher_scores=cfg.teacher_scores.format(part=part))
            if cfg.teacher_pairs:          # a fold learns only its own documents' pairs (a teacher per fold with {part})
                cfg = replace(cfg, teacher_pairs=cfg.teacher_pairs.format(part=part),
                              teacher_pair_sources=sorted({r["source"] for r in train_rows if r.get("source")}))
            t = time.time()
            if part == "final":
                s = train(cfg, extra=claim_training_pairs(rows, {**recipe, "seed": seed}))
                s["command"] = f"python -m training.cv_nli {recipe['_path']}"
                s["recipe"] = {k2: v for k2, v in recipe.items() if not k2.startswith("_")}
                if start and (Path(start) / "training_summary.json").is_file():     # the card's stage 1
                    s["general_stage"] = json.loads((Path(start) / "training_summary.json").read_text())
                (mdir / "training_summary.json").write_text(json.dumps(s, indent=2))
                if recipe.get("score_training_rows"):
                    _score_training_rows(recipe, mdir, rows, part, seed, several, out_dir)
            else:
                f = int(part.removeprefix("fold"))
                held = [r for r, x in zip(rows, fold) if x == f]
                s = train_fold(cfg, claim_training_pairs(train_rows, {**recipe, "seed": seed}), held, f, pred_file,
                               recipe["max_length"])
                if recipe.get("score_training_rows"):
                    _score_training_rows(recipe, mdir, train_rows, part, seed, several, out_dir)
                print(f"{part} seed {seed}: {len(train_rows)} train rows, {len(held)} held out, "
                      f"{time.time() - t:.0f} s", flush=True)
            shutil.rmtree(mdir / "_checkpoints", ignore_errors=True)
            summary["runs"][part if not several else f"{part}-s{seed}"] = {
                "pairs": s["pairs_total"], "wall_seconds": round(time.time() - t, 1)}
    if only_seed is not None or only_part is not None:
        return summary
    out = out_dir or ROOT / "results" / "claims-cv"
    out.mkdir(parents=True, exist_ok=True)
    order = {r["id"]: i for i, r in enumerate(rows)}
    if several:
        from training.soup import average
        for f in range(k):                  # each fold's soup scores the fold its members held out
            pred_file = work / f"oof_fold{f}.jsonl"
            if pred_file.exists():
                continue
            soup = average([_member(work, f"fold{f}", s, True)[0] for s in all_seeds], work / f"fold{f}")
            score_fold(soup, [r for r, x in zip(rows, fold) if x == f], f, pred_file, recipe["max_length"])
        for seed in all_seeds:              # each seed alone, beside the soup: is the soup better?
            write_oof([_member(work, f"fold{f}", seed, True)[1] for f in range(k)],
                       out / f"oof_nli_{name}-s{seed}.jsonl", order)
    write_oof([work / f"oof_fold{f}.jsonl" for f in range(k)], out / f"oof_nli_{name}.jsonl", order)
    if folds_only:
        return summary
    if several:
        if not (final / "model.safetensors").exists():
            from training.soup import average
            members = [_member(work, "final", s, True)[0] for s in all_seeds]
            average(members, final)
            s = json.loads((members[0] / "training_summary.json").read_text())
            s["soup_of_seeds"] = {str(seed): json.loads((m / "training_summary.json").read_text())
                                  for seed, m in zip(all_seeds, members)}
            (final / "training_summary.json").write_text(json.dumps(s, indent=2))
        for seed in all_seeds:
            score_dev(str(_member(work, "final", seed, True)[0]), f"{name}-s{seed}", out, dev_path,
                      recipe["max_length"])
    score_dev(str(final), name, out, dev_path, recipe["max_length"])
    (work / "cv_summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary


def _score_training_rows(recipe: dict, mdir: Path, train_rows: list[dict], part: str, seed: int,
                         several: bool, out_dir: Path | None = None) -> None:
    """A recipe with ``"score_training_rows": true`` keeps each member's scores of the rows it trained
    on (``results/claims-cv/insample_nli_<name>_<part>.jsonl``): what a student's claim stage of the
    same fold distils from (``"teacher_scores": "…_{part}.jsonl"``) without the leak of out-of-fold
    scores, which teacher fold models made after training on the student's held-out fold. With
    ``"score_document_pairs": N`` it also scores N unlabelled pairs a document of those rows
    (``claim_pairs.document_pairs``) into ``docpairs_nli_<name>_<part>.jsonl``: a student's
    ``"teacher_pairs": "…_{part}.jsonl"``."""
    tag = recipe["name"] + (f"-s{seed}" if several else "")
    out = (out_dir or ROOT / "results" / "claims-cv") / f"insample_nli_{tag}_{part}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    score_fold(mdir, train_rows, -1 if part == "final" else int(part.removeprefix("fold")), out,
               recipe["max_length"])
    n = int(recipe.get("score_document_pairs", 0))
    if n > 0:                 # and unlabelled pairs of the same documents: a student's "teacher_pairs"
        from training.teacher_pairs import score, write
        write(score(str(mdir), train_rows, n), out.with_name(f"docpairs_nli_{tag}_{part}.jsonl"))


def score_dev(model: str, tag: str, out_dir: Path | None = None, dev_path: Path = CLAIMS_DEV,
              max_length: int = 128) -> None:
    """claims_dev's prediction file: the final model's, or a model's whose claims_train scores came
    from folds (e.g. a ``--folds-only`` run's fold model standing in for a final model not trained)."""
    out = out_dir or ROOT / "results" / "claims-cv"
    out.mkdir(parents=True, exist_ok=True)
    preds = _score(Path(model), read_rows(dev_path), max_length)
    (out / f"dev_nli_{tag}.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds))


def score_shipped(model: str, tag: str, out_dir: Path | None = None) -> None:
    """The same prediction files for a model that is not retrained per fold (e.g. v1): it never
    saw claims_train, so its scores on every pair are already out-of-sample."""
    out = out_dir or ROOT / "results" / "claims-cv"
    out.mkdir(parents=True, exist_ok=True)
    rows = read_rows(CLAIMS_TRAIN)
    fold = grouped_folds(rows)
    preds = _score(Path(model), rows, 128)
    (out / f"oof_nli_{tag}.jsonl").write_text("".join(json.dumps({**p, "fold": f}) + "\n" for p, f in zip(preds, fold)))
    score_dev(model, tag, out)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("recipe", nargs="?")
    ap.add_argument("--folds-only", action="store_true")
    ap.add_argument("--general-only", action="store_true", help="train the recipe's general stage and stop")
    ap.add_argument("--seed", type=int, help="train only this seed's models (of --part, else every fold and "
                    "the final model) and stop; a later run without it makes the soups and prediction files")
    ap.add_argument("--part", help="train only this member: fold0 … fold4 or final (with --seed, that seed's)")
    ap.add_argument("--general", type=Path, help="start the claim stage from this general-stage model "
                    "(e.g. models/nli-minilm-l6-v2-general) instead of training the recipe's own; refused unless "
                    "it was trained as the recipe's general stage says")
    ap.add_argument("--work", type=Path, help="where fold models and checkpoints go (default runs/<name>)")
    ap.add_argument("--out", type=Path, help="where the out-of-fold and dev prediction files go (default "
                    "results/claims-cv; give another folder to rebuild a shipped model's folds without "
                    "overwriting its files)")
    ap.add_argument("--train", type=Path, default=CLAIMS_TRAIN, help="the labelled claim pairs the folds are cut "
                    "from and the final model trains on (default ../shared/data/bench/claims_train.jsonl)")
    ap.add_argument("--dev", type=Path, default=CLAIMS_DEV, help="the pairs scored, never trained on "
                    "(default ../shared/data/bench/claims_dev.jsonl)")
    ap.add_argument("--score-shipped", nargs=2, metavar=("MODEL_DIR", "TAG"))
    ap.add_argument("--score-dev", nargs=2, metavar=("MODEL_DIR", "TAG"),
                    help="write only claims_dev's predictions of MODEL_DIR (to --out)")
    a = ap.parse_args()
    if a.score_shipped:
        score_shipped(*a.score_shipped, out_dir=a.out)
    elif a.score_dev:
        score_dev(*a.score_dev, out_dir=a.out)
    elif a.recipe:
        for path in (a.train, a.dev):
            if not path.is_file():
                sys.exit(f"error: no such file: {path}")
        if a.general is not None and a.general_only:
            sys.exit("error: --general and --general-only exclude each other")
        if a.general is not None:
            try:
                check_general(load_recipe(a.recipe), a.general)
            except ValueError as exc:
                sys.exit(f"error: {exc}")
        print(json.dumps(run(a.recipe, work_dir=a.work, out_dir=a.out, folds_only=a.folds_only,
                             train_path=a.train, dev_path=a.dev, general_only=a.general_only,
                             only_seed=a.seed, only_part=a.part, general=a.general),
                         indent=2, default=str))
    else:
        sys.exit("give a recipe file or --score-shipped MODEL_DIR TAG")
