"""Score unlabelled claim pairs with a teacher model, for a student to distil from.

Run: ``python -m training.teacher_pairs MODEL OUT.jsonl [--per-document 6] [--rows claims_train.jsonl]
[--backend auto] [--seed 7]``. Writes one line a pair: the document it comes from, the two
statements as references into the rows file (``"<row id>:existing|incoming"``: the text stays in
../shared), and the teacher's raw (uncalibrated) probabilities — what ``TrainConfig.teacher_pairs``
reads (resolving the references in ``teacher_rows``), with a fold's training documents picked by
``teacher_pair_sources``.

Why a step of its own: the large profile's model takes a minute to rebuild and scores ~30–50 pairs
a second on two cores, so its scores are made once and read by every student run (each fold, each
seed). A teacher that trained on claims_train has seen these statements, so students distilled
from it are judged on claims_dev alone; a leak-free teacher per fold is a recipe's
``"score_document_pairs"`` (``training.cv_nli``).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from training.claim_pairs import CLAIMS_TRAIN, document_pairs, read_rows


def score(model: str, rows: list[dict], per_document: int, backend: str = "auto", seed: int = 7) -> list[dict]:
    from guard.nli.scorer import NLIScorer
    pairs = document_pairs(rows, per_document, seed)
    scorer = NLIScorer(model, calibrated=False, backend=backend)
    preds = scorer.predict([(p["premise"], p["hypothesis"]) for p in pairs])
    # references to the rows, not their text: the data stays in ../shared, as its README asks
    return [{"source": p["source"], "refs": p["refs"], "teacher": {k: round(float(v), 6) for k, v in s.items()}}
            for p, s in zip(pairs, preds)]


def write(lines: list[dict], out: Path) -> None:
    from guard.safe_output import atomic_write
    with atomic_write(out) as fh:
        fh.writelines(json.dumps(x) + "\n" for x in lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="the teacher: a model folder (e.g. models/nli-mpnet-lora-lr8) or hub id")
    ap.add_argument("out")
    ap.add_argument("--rows", default=str(CLAIMS_TRAIN), help="the labelled claim pairs whose documents to pair")
    ap.add_argument("--per-document", type=int, default=6)
    ap.add_argument("--backend", default="auto", help="what runs the teacher (guard --nli-backend's choices)")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    if a.per_document < 1:
        ap.error(f"--per-document must be 1 or more, not {a.per_document}")
    if not Path(a.rows).is_file():
        ap.error(f"no such file: {a.rows}")
    t = time.time()
    lines = score(a.model, read_rows(Path(a.rows)), a.per_document, a.backend, a.seed)
    write(lines, Path(a.out))
    print(f"{len(lines)} pairs scored by {a.model} in {time.time() - t:.0f} s → {a.out}")


if __name__ == "__main__":
    main()
