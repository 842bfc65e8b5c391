"""Hard negatives for the learned gate: the pairs a store scan of claims_train meets between two
source families, scored by the gate's NLI model.

Run: ``python -m training.store_negatives training/recipes/nli-minilm-l6-v2.json`` (writes
``results/claims-cv/negatives_nli_<name>.jsonl``; a few minutes on 2 cores for the default model).

Why: the labelled pairs show the gate almost nothing of what a scan of a real store mostly meets —
two statements of unrelated documents that happen to share a topic word ("Releases to this
environment are pushed … once a week." / "… TEENY releases … every 2-4 months."), to which the
claim-tuned model often gives p(contradiction) ≥ 0.97. Scanning claims_train's statements as one store
(``benchmarks.real_store``), such pairs were the bulk of its blocks. Two statements of different
source families (a handbook against a cloud provider's limits) almost never speak of one thing, so
they are compatible without anyone labelling them, and the set does not depend on the gate: every
candidate pair the scan's search (blocking keys + bi-encoder neighbours, ``Scanner.candidate_pairs``)
finds between two families, whatever the gate would say of it.

They enter the gate's fit with a small weight (``LearnedGate.fit``'s ``negative_weight``): session 15
gave 300 such pairs the weight of a labelled pair and lost real contradictions with them (CV F1 0.475
→ 0.443) — the weak label is right for nearly all of them, but the evidence of a topical stranger and
of a paraphrased contradiction overlap, and at full weight they outvote the 540 labelled
contradictions. The operating point is still chosen on the labelled pairs only.

Caveat, recorded in the gate's ``fitted_on``: the negatives are scored by the final model, which saw
each of their statements in a labelled pair (never the two together), while the labelled pairs' scores
are out-of-fold.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CV_DIR = ROOT / "results" / "claims-cv"


def negatives_file(name: str, cv_dir: Path = CV_DIR) -> Path:
    return cv_dir / f"negatives_nli_{name}.jsonl"


def _side(claim) -> dict:
    """A statement as a pair row needs it: its text, and its scope and window where it has them."""
    scope = {k: v for k, v in claim.scope.to_dict().items() if v is not None}
    window = {k: v for k, v in claim.window.to_dict().items() if v is not None}
    return {"text": claim.text, **({"scope": scope} if scope else {}), **window}


def cross_family_rows(rows: list[dict], normalizer: str = "normalizer.rules.v2") -> list[dict]:
    """Pair rows (labelled compatible) for every scan candidate pair of ``rows``' statements whose two
    statements share no source family; each names its ``documents`` and ``families``. The statements
    are those ``benchmarks.real_store`` scans as one store; the earlier one (in the order the rows list
    them) is "existing", as in a scan."""
    from benchmarks.real_store import statements
    from guard.pipeline import Guard, GuardConfig
    from guard.scan import ScanConfig, Scanner
    claims, where, _ = statements(rows)
    guard = Guard(GuardConfig(normalizer=normalizer, stages=("structural",)))
    scanner = Scanner(guard, ScanConfig(progress=False))
    pairs, _ = scanner.candidate_pairs(claims, guard.normalize_claims(claims), {})
    out = []
    for i, j in pairs:
        a, b = claims[i], claims[j]
        fams = [{f for _, f in where[c.id]} for c in (a, b)]
        if fams[0] & fams[1]:
            continue
        out.append({"id": f"neg-{a.id}-{b.id}", "existing": _side(a), "incoming": _side(b),
                    "label": "compatible", "category": "store_cross_family",
                    "documents": sorted({d for c in (a, b) for d, _ in where[c.id]}), "families": sorted(fams[0] | fams[1])})
    return out


def write(recipe_path: str | Path, rows_path: Path, out: Path | None = None, normalizer: str = "normalizer.rules.v2") -> Path:
    """Score ``rows_path``'s cross-family candidate pairs with the recipe's shipped model (raw, fp32,
    both directions, as ``training.cv_nli`` scores the labelled pairs) and write them, whole or not at all."""
    from guard.safe_output import atomic_write
    from training.claim_pairs import read_rows
    from training.cv_nli import _score, load_recipe
    recipe = load_recipe(recipe_path)
    rows = cross_family_rows(read_rows(rows_path), normalizer)
    preds = {p["id"]: p for p in _score(ROOT / recipe["output"], rows, int(recipe.get("max_length", 128)))}
    out = out or negatives_file(recipe["name"])
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(out) as fh:
        for r in rows:
            p = preds[r["id"]]
            fh.write(json.dumps({**r, **{d: {k: round(v, 4) for k, v in p[d].items()} for d in ("forward", "backward")}})
                     + "\n")
    return out


@dataclass
class Negatives:
    """A negatives file read back: the pair rows, their stored NLI predictions (rescaled as
    ``gate_data.read_predictions`` does), and per row the documents and families it joins."""
    rows: list[dict]
    predictions: dict[str, tuple[dict, dict]]

    @classmethod
    def read(cls, path: str | Path, temperature: float = 1.0) -> Negatives:
        from guard.nli.calibration import rescale
        rows, preds = [], {}
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                scores = [r[d] for d in ("forward", "backward")]
                if not all(isinstance(x, dict) and set(x) == {"contradiction", "entailment", "neutral"}
                           and all(isinstance(v, (int, float)) and 0 <= v <= 1 for v in x.values()) for x in scores):
                    raise TypeError("forward and backward must each give the three NLI probabilities")
                if not (isinstance(r["documents"], list) and r["documents"]
                        and all(isinstance(r[k], dict) and isinstance(r[k].get("text"), str) for k in ("existing", "incoming"))):
                    raise TypeError("a row needs its documents and both statements' texts")
                preds[r["id"]] = tuple(rescale(x, temperature) for x in scores)
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{n}: not a negatives row ({type(exc).__name__}: {exc})") from None
            rows.append(r)
        return cls(rows, preds)


def main(argv: list[str] | None = None) -> None:
    import argparse

    from training.claim_pairs import CLAIMS_TRAIN
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("recipe")
    ap.add_argument("--pairs", type=Path, default=CLAIMS_TRAIN, help="the labelled pair file whose statements are scanned")
    ap.add_argument("--out", type=Path, help="default results/claims-cv/negatives_nli_<name>.jsonl")
    ap.add_argument("--normalizer", default="normalizer.rules.v2")
    a = ap.parse_args(argv)
    from training.cv_nli import load_recipe
    try:
        recipe = load_recipe(a.recipe)
    except ValueError as exc:
        ap.error(str(exc))
    if not a.pairs.is_file():
        ap.error(f"no pair file {a.pairs}")
    if not (ROOT / recipe["output"]).is_dir():
        ap.error(f"no model at {ROOT / recipe['output']} (the recipe's output): train or install it first")
    try:
        out = write(a.recipe, a.pairs, a.out, a.normalizer)
    except (ValueError, KeyError, TypeError) as exc:     # a damaged pair file: bad JSON, a row without a side
        ap.error(f"{a.pairs}: not a pair file ({type(exc).__name__}: {exc})")
    print(f"wrote {sum(1 for _ in out.open())} cross-family pairs to {out}")


if __name__ == "__main__":
    main()
