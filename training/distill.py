"""Distil the shipped NLI cross-encoder into a shallower student (the speed issue's "smaller student").

Run: ``python -m training.distill training/recipes/nli-minilm-l3-v2.json`` (checkpointed: the
teacher's scores are saved as they are computed, the student's training resumes from its last
checkpoint). That recipe is two-stage, like the teacher's: the distilled student is its general
stage (``distill.output``), and ``python -m training.cv_nli <recipe>`` then adds the teacher's claim
stage with grouped fold models (the gate's out-of-fold scores). A one-stage recipe (no
``from_checkpoint``) ships the distilled student itself: ``python -m training.distill --score
<recipe>`` writes its claim-pair scores (held-out: it never saw a claim pair). Then ``python -m
training.calibrate <output>`` and ``python -m training.fit_learned_gate <recipe>``.

Why a student made of the teacher's own layers: a cross-encoder's cost is linear in its layers, and
a student initialised from every other layer of the teacher (DistilBERT's recipe) starts close to
it, so a CPU can distil it from tens of thousands of pairs instead of training from scratch on
hundreds of thousands.

Why soft targets: the teacher's whole distribution (temperature-softened KL) carries how sure it
is and which wrong label is nearer, which the gold label alone does not; the gold label is mixed
in (``alpha``) where the pair has one.

What distillation never shows the student: claims_train and claims_dev. The gate is fitted on
claims_train scores from models that did not train on those pairs; the teacher did (its claim
stage), so the student is distilled on general NLI and the synthetic domain templates only, and
learns claim pairs, if at all, in a claim stage of its own with grouped folds. The teacher's
claim-stage knowledge still reaches the student through its scores of other pairs (the card says
so); no claims_train pair is memorised that way.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class DistillConfig:
    output_dir: str
    teacher: str = str(ROOT / "models" / "nli-minilm-l6-v2")
    layers: list[int] = field(default_factory=lambda: [0, 2, 5])    # the teacher's layers the student starts from
    train_files: list[str] = field(default_factory=list)            # NLI files (names under ../shared/data/nli or paths)
    sample: dict[str, int] | None = None
    domain_pairs: bool = True
    both_directions: bool = True          # the guard scores both directions: the student learns both
    epochs: float = 2.0
    batch_size: int = 32
    learning_rate: float = 1e-4
    warmup_ratio: float = 0.05
    temperature: float = 2.0              # softens both distributions in the KL term
    alpha: float = 0.2                    # weight of the gold-label cross-entropy (1 - alpha: the KL term)
    max_length: int = 128
    seed: int = 42
    save_steps: int = 300
    limit: int | None = None              # cap on pairs (tests, smoke runs)
    max_steps: int = -1
    device: str = "auto"
    group_by_length: bool = False         # batches of similar length (training/length_batches.py): faster on a CPU
    precision: str = "auto"               # training/precision.py: bf16 where the GPU or an AMX CPU runs it natively


def student_from_teacher(teacher: str | Path, layers: list[int], out: Path) -> Path:
    """The teacher with only the given transformer layers, saved (fp32) where the trainer can load it."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    model = AutoModelForSequenceClassification.from_pretrained(str(teacher), dtype=torch.float32)
    base = getattr(model, model.base_model_prefix)
    stack = base.encoder.layer
    if not layers or any(not 0 <= i < len(stack) for i in layers) or sorted(set(layers)) != list(layers):
        raise ValueError(f"layers must be increasing indices of the teacher's {len(stack)} layers, not {layers}")
    base.encoder.layer = torch.nn.ModuleList([stack[i] for i in layers])
    model.config.num_hidden_layers = len(layers)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    AutoTokenizer.from_pretrained(str(teacher)).save_pretrained(str(out))
    return out


def distillation_pairs(cfg: DistillConfig):
    """The pairs the student learns from (never a claims_train or claims_dev pair), shuffled by seed."""
    from training.train import SHARED_NLI, TrainConfig, collect_pairs
    files = [f if Path(f).is_absolute() else str(SHARED_NLI / f) for f in cfg.train_files]
    tc = TrainConfig(output_dir=cfg.output_dir, train_files=files, domain_pairs=cfg.domain_pairs,
                     symmetric=False, sample=cfg.sample, seed=cfg.seed, dedupe=True)
    pairs, counts = collect_pairs(tc)
    if cfg.both_directions:
        from training.data import Pair
        # the swapped pair has no gold label unless contradiction (symmetric); the teacher labels it
        pairs = pairs + [Pair(p.hypothesis, p.premise, p.label if p.label == "contradiction" else "", p.source + ":swapped")
                         for p in pairs]
        import random
        random.Random(cfg.seed).shuffle(pairs)
    if cfg.limit:
        pairs = pairs[:cfg.limit]
    return pairs, counts


def teacher_logits(teacher: str | Path, pairs, path: Path, chunk: int = 2048, max_length: int = 128) -> np.ndarray:
    """Log-probabilities of the uncalibrated teacher for every pair (a shift of its logits: the
    same softmax), saved after each chunk so an interrupted run picks up where it stopped."""
    from guard.nli import NLIScorer
    done = np.load(path) if path.exists() else np.zeros((0, 3), dtype=np.float32)
    if len(done) >= len(pairs):
        return done[:len(pairs)]
    scorer = NLIScorer(teacher, calibrated=False, max_length=max_length)
    from tqdm import tqdm
    parts = [done]
    for s in tqdm(range(len(done), len(pairs), chunk), desc="teacher", unit="chunk"):
        probs = scorer.predict([(p.premise, p.hypothesis) for p in pairs[s:s + chunk]])
        parts.append(np.log(np.clip([[d[lab] for lab in scorer.labels] for d in probs], 1e-9, 1)).astype(np.float32))
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, np.concatenate(parts))
        tmp.replace(path)
    return np.concatenate(parts)


class DistillationLoss(torch.nn.Module):
    """KL(teacher ‖ student) on temperature-softened distributions, plus ``alpha`` × cross-entropy
    on the gold label where there is one. Labels per pair: the teacher's logits, then the gold
    class index (-1: none). The interface of a sentence-transformers CrossEncoder loss."""

    def __init__(self, model, temperature: float = 2.0, alpha: float = 0.2):
        super().__init__()
        self.model, self.temperature, self.alpha = model, temperature, alpha

    def forward(self, inputs, labels, prompt=None, task=None):
        from sentence_transformers.util import batch_to_device
        target = torch.stack(labels) if isinstance(labels, list) else labels
        tokens = batch_to_device(self.model.preprocess(list(zip(inputs[0], inputs[1]))), self.model.device)
        return self.from_logits(self.model(tokens)["scores"], target)

    def from_logits(self, logits, target):
        import torch.nn.functional as F
        n = logits.shape[1]
        teacher, gold = target[:, :n].to(logits), target[:, n].long().to(logits.device)
        t = self.temperature
        kl = F.kl_div(F.log_softmax(logits / t, -1), F.log_softmax(teacher / t, -1), log_target=True,
                      reduction="batchmean") * t * t
        if self.alpha and (gold >= 0).any():
            return (1 - self.alpha) * kl + self.alpha * F.cross_entropy(logits, gold, ignore_index=-1)
        return kl

    def get_config_dict(self):
        return {"temperature": self.temperature, "alpha": self.alpha}


def _fresh_work_dir(work: Path, cfg: DistillConfig, pairs) -> None:
    """Resume only what this very run started: teacher scores and checkpoints left by a run with
    other pairs or settings would be silently wrong, so a changed recipe starts the work over."""
    import hashlib
    import shutil
    h = hashlib.sha1(json.dumps(asdict(cfg), sort_keys=True).encode())
    for p in pairs:
        h.update(f"{p.premise}\x00{p.hypothesis}\x00{p.label}\x01".encode())
    stamp = work / "run.sha1"
    if work.exists() and (not stamp.exists() or stamp.read_text() != h.hexdigest()):
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    stamp.write_text(h.hexdigest())


def distill(cfg: DistillConfig) -> dict:
    from datasets import Dataset
    from sentence_transformers.cross_encoder import CrossEncoder, CrossEncoderTrainer, CrossEncoderTrainingArguments
    from training.train import hardware

    out = Path(cfg.output_dir)
    work = out.parent / f"_{out.name}_work"
    pairs, counts = distillation_pairs(cfg)
    _fresh_work_dir(work, cfg, pairs)
    t0 = time.time()
    logits = teacher_logits(cfg.teacher, pairs, work / "teacher_logits.npy", max_length=cfg.max_length)
    teacher_s = time.time() - t0
    init = student_from_teacher(cfg.teacher, cfg.layers, work / "student_init")
    model = CrossEncoder(str(init), max_length=cfg.max_length, local_files_only=True,
                         model_kwargs={"dtype": torch.float32})
    label2id = {str(v).lower(): int(k) for k, v in model.config.id2label.items()}
    gold = [label2id.get(p.label, -1) for p in pairs]
    ds = Dataset.from_dict({"premise": [p.premise for p in pairs], "hypothesis": [p.hypothesis for p in pairs],
                            "label": [[*map(float, row), float(g)] for row, g in zip(logits, gold)]})
    gpu = cfg.device == "cuda" or (cfg.device == "auto" and torch.cuda.is_available())
    from training.precision import choose
    precision = choose(cfg.precision, gpu)
    from training.length_batches import sampler_args
    from training.train import warmup_args
    sampler = sampler_args(cfg.group_by_length, model.tokenizer, ds["premise"], ds["hypothesis"], cfg.max_length)
    args = CrossEncoderTrainingArguments(
        output_dir=str(work / "checkpoints"), num_train_epochs=cfg.epochs, max_steps=cfg.max_steps,
        per_device_train_batch_size=cfg.batch_size, learning_rate=cfg.learning_rate,
        **warmup_args(cfg.warmup_ratio), seed=cfg.seed, save_strategy="steps", save_steps=cfg.save_steps,
        save_total_limit=1, logging_steps=50, report_to="none", use_cpu=not gpu,
        bf16=precision == "bf16", dataloader_num_workers=0, **sampler)
    trainer = CrossEncoderTrainer(model=model, args=args, train_dataset=ds,
                                  loss=DistillationLoss(model, cfg.temperature, cfg.alpha))
    t1 = time.time()
    resume = any((work / "checkpoints").glob("checkpoint-*"))
    result = trainer.train(resume_from_checkpoint=True if resume else None)
    train_s = time.time() - t1
    trainer.accelerator.unwrap_model(trainer.model, keep_fp32_wrapper=False)     # no autocast left on forward
    model.model.half()
    model.save_pretrained(str(out))
    summary = {"command": "python -m training.distill " + " ".join(sys.argv[1:]), "config": asdict(cfg),
               "pairs_total": len(pairs), "pairs_by_source": counts,
               "pairs_with_gold_label": int(sum(g >= 0 for g in gold)),
               "student_layers": f"{len(cfg.layers)} of the teacher's (indices {cfg.layers})",
               "steps": result.global_step, "train_loss": result.training_loss,
               "teacher_seconds": round(teacher_s, 1), "wall_seconds": round(train_s, 1), "hardware": hardware(),
               "precision": precision}
    (out / "training_summary.json").write_text(json.dumps(summary, indent=2))
    import shutil
    shutil.rmtree(work, ignore_errors=True)      # finished: nothing left to resume
    return summary


def main(argv: list[str] | None = None) -> None:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipe")
    ap.add_argument("--score", action="store_true", help="only write the student's claim-pair scores")
    a = ap.parse_args(argv)
    from training.recipe_file import read_recipe
    try:
        recipe = read_recipe(a.recipe)
    except ValueError as exc:
        ap.error(str(exc))
    fields = dict(recipe.get("distill", {}))
    # a two-stage recipe distils its general stage to distill.output; training.cv_nli adds the claim stage
    out = ROOT / fields.pop("output", recipe["output"])
    if a.score:
        # the student never trained on claims_train or claims_dev: every score is held-out, as the
        # gate's fitting needs (the files ``training.fit_learned_gate`` and ``guard bench stages`` read)
        from training.cv_nli import score_shipped
        score_shipped(str(out), recipe["name"])
        return
    fields["output_dir"] = str(out)
    if "teacher" in fields and not Path(fields["teacher"]).is_absolute():
        fields["teacher"] = str(ROOT / fields["teacher"])
    print(json.dumps(distill(DistillConfig(**fields)), indent=2))


if __name__ == "__main__":
    main()
