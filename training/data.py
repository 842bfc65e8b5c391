"""Loading NLI training data.

Why a module of its own: the rules about *which* data a model may see (eval splits never trained
on, 2-way files never silently mixed into 3-way training) must hold for the CLI, the script and
the tests alike, so they live in one place.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

LABELS_3WAY = ("contradiction", "entailment", "neutral")
UNLABELLED = "unlabelled"       # a pair learnt from a teacher's scores alone (the distill objective)
LABELS_2WAY = ("entailment", "not_entailment")

# Files of ../shared/data/nli that are reserved for evaluation; never trained on.
EVAL_ONLY_PATTERNS = (
    "mnli.dev_matched", "snli.test", "anli_", "sick.test", "breaking_nli.test",
    "med.test", "fracas.test", "conjnli.dev", "cad_snli_original.test", "cad_snli_revised.test",
)


# The files the model cards evaluate on (besides the eval-only ones above). Training data may still
# name them, but any pair that also occurs in one of these is dropped (``drop_overlap``), so a card's
# figure is never a memorised pair.
CARD_EVAL_FILES = (
    "mnli.dev_matched", "snli.test", "anli_r1.dev", "anli_r2.dev", "anli_r3.dev", "sick.test",
    "contractnli.test", "climate_fever.test", "healthver.test", "fever_symmetric.test",
    "negation_mnli.test", "nope_main.test", "ambient_disambiguated.test",
)


class DataError(ValueError):
    """A training file is unusable as given (bad label set, eval-only split, malformed line)."""


@dataclass
class Pair:
    premise: str
    hypothesis: str
    label: str
    source: str


def is_eval_only(path: str | Path) -> bool:
    name = Path(path).name
    return any(name.startswith(p) for p in EVAL_ONLY_PATTERNS)


def _read_jsonl(path: Path) -> list[dict]:
    """Every line an object; the first that is not is refused naming its line (a training or an
    evaluation file is used whole or not at all: a skipped row would change what the figures mean)."""
    from guard.jsonl import TooDeep, loads, what_is_wrong
    rows = []
    try:
        fh = path.open(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    with fh:
        try:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"{path}:{lineno}: not valid JSON ({what_is_wrong(exc)})") from None
                except TooDeep as exc:
                    raise DataError(f"{path}:{lineno}: not valid JSON ({exc})") from None
                if not isinstance(row, dict):
                    raise DataError(f"{path}:{lineno}: a row must be a JSON object, not {type(row).__name__}")
                rows.append(row)
        except UnicodeDecodeError:
            raise DataError(f"{path}: not UTF-8 text") from None
    return rows


def check_nli_rows(path: str | Path, rows: list[dict]) -> None:
    """premise and hypothesis strings and a 3-way or 2-way label on every row; the first row that
    is not so is refused naming its line (blank lines are not counted)."""
    known = set(LABELS_3WAY) | set(LABELS_2WAY)
    for i, r in enumerate(rows, 1):
        if "premise" not in r and "existing" in r and "incoming" in r:
            raise DataError(f"{path}: row {i} is a claim pair (existing / incoming), not an NLI row (premise, "
                            "hypothesis, label); claim pairs are scored with guard compare")
        for k in ("premise", "hypothesis"):
            if not isinstance(r.get(k), str):
                raise DataError(f"{path}: row {i}: '{k}' must be a string")
        if r.get("label") not in known:
            raise DataError(f"{path}: row {i}: label {str(r.get('label'))[:40]!r} is not one of {sorted(known)}")


def load_pairs(path: str | Path, map_2way: dict[str, str] | None = None,
               allow_eval: bool = False) -> list[Pair]:
    """Read one NLI or claim-pair JSONL file as 3-way pairs.

    A 2-way file (labels entailment/not_entailment) is refused unless ``map_2way`` says where
    each 2-way label goes: not_entailment is neutral *or* contradiction, and guessing would
    teach the model wrong contradictions. Benchmark-format claim pairs (existing/incoming)
    map contradiction→contradiction, tension→neutral, compatible→neutral.
    """
    path = Path(path)
    if not allow_eval and is_eval_only(path):
        raise DataError(f"{path.name} is an evaluation split and is never trained on")
    rows = _read_jsonl(path)
    if not rows:
        raise DataError(f"{path}: no rows")
    pairs: list[Pair] = []
    if "existing" in rows[0]:
        claim_map = {"contradiction": "contradiction", "tension": "neutral", "compatible": "neutral"}
        for i, r in enumerate(rows, 1):
            lab = claim_map.get(r.get("label"))
            if lab is None:
                raise DataError(f"{path}:{i}: claim-pair label {r.get('label')!r} not in {sorted(claim_map)}")
            texts = [side.get("text") if isinstance(side, dict) else None for side in (r.get("existing"), r.get("incoming"))]
            for key, text in zip(("existing", "incoming"), texts):
                if not isinstance(text, str) or not text.strip():
                    # these ended `guard train` with KeyError / TypeError, or trained on a number as text
                    raise DataError(f"{path}:{i}: a claim pair needs '{key}' as an object with a non-empty 'text' string")
            pairs.append(Pair(texts[0], texts[1], lab, path.name))
        return pairs
    check_nli_rows(path, rows)
    labels = {r.get("label") for r in rows}
    if labels <= set(LABELS_3WAY):
        return [Pair(r["premise"], r["hypothesis"], r["label"], path.name) for r in rows]
    if labels <= set(LABELS_2WAY):
        if not map_2way:
            raise DataError(
                f"{path.name} is a 2-way file (entailment/not_entailment); pass an explicit mapping "
                "(e.g. --map-2way not_entailment=neutral) to train a 3-way model on it")
        bad = {lab for lab in labels if map_2way.get(lab, lab) not in LABELS_3WAY}
        if bad:
            raise DataError(f"{path.name}: 2-way labels {sorted(bad)} have no 3-way mapping")
        return [Pair(r["premise"], r["hypothesis"], map_2way.get(r["label"], r["label"]), path.name)
                for r in rows]
    raise DataError(f"{path.name}: unknown label set {sorted(map(str, labels))}")


def symmetric_contradictions(pairs: list[Pair]) -> list[Pair]:
    """Contradiction is symmetric, so each contradiction also teaches its swapped order.

    The gate scores both directions; training on both keeps the two scores close.
    """
    return [Pair(p.hypothesis, p.premise, p.label, p.source + ":swapped")
            for p in pairs if p.label == "contradiction"]


def _pair_key(premise: str, hypothesis: str) -> tuple[str, str]:
    return " ".join(premise.lower().split()), " ".join(hypothesis.lower().split())


def eval_pair_keys(nli_dir: str | Path) -> set[tuple[str, str]]:
    """Every (premise, hypothesis) of the evaluation files present in ``nli_dir``, both orders."""
    keys: set[tuple[str, str]] = set()
    for f in sorted(Path(nli_dir).glob("*.jsonl")):
        name = f.name.removesuffix(".jsonl")
        if is_eval_only(f) or name in CARD_EVAL_FILES:
            for r in _read_jsonl(f):
                if "premise" in r:
                    keys.add(_pair_key(r["premise"], r["hypothesis"]))
                    keys.add(_pair_key(r["hypothesis"], r["premise"]))
    return keys


def drop_overlap(pairs: list[Pair], eval_keys: set[tuple[str, str]]) -> tuple[list[Pair], dict[str, int]]:
    """Pairs without exact duplicates (first kept; the shared files overlap one another, see their
    README) and without any pair that an evaluation file holds; the counts say what went."""
    seen: set[tuple[str, str, str]] = set()
    kept, dropped = [], {"duplicate": 0, "in_eval_files": 0}
    for p in pairs:
        k = _pair_key(p.premise, p.hypothesis)
        if k in eval_keys:
            dropped["in_eval_files"] += 1
            continue
        if (*k, p.label) in seen:
            dropped["duplicate"] += 1
            continue
        seen.add((*k, p.label))
        kept.append(p)
    return kept, dropped
