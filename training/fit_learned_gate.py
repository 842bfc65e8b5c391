"""Fit the learned gate on claims_train and save it beside the NLI model it was fitted for.

Run: ``python -m training.fit_learned_gate training/recipes/nli-minilm-l6-v2.json
[--normalizer normalizer.rules.v2]``.

The gate is fitted on the out-of-fold NLI scores that ``training.cv_nli`` wrote (never on scores
of a model that saw the pair), on the pairs structure leaves to it; its operating point is chosen
so that the whole pipeline's false-block rate stays within
2 % on leave-one-source-family-out predictions. ``guard bench stages`` fits it the same way
(``fit_on``), fold by fold.
"""
from __future__ import annotations

import json
from pathlib import Path

from guard.nli.learned_gate import GATE_FILE, LearnedGate

ROOT = Path(__file__).resolve().parents[1]


def fit_on(table, idx: list[int], folds: list[int], fitted_on: str = "", C: float | str = 0.5,
           nli_temperature: float | None = None, negatives=None, negative_weight: float = 0.0) -> LearnedGate:
    """Fit on rows ``idx`` of a ``GateTable`` that structure leaves to the gate, counting the
    false blocks structure makes on the others against the false-block limit. ``folds`` are the
    groups the operating point is chosen on (leave-one-group-out predictions): source families.
    ``negatives``: a ``GateTable`` of unlabelled compatible pairs (``training.store_negatives``), at
    ``negative_weight`` each; only those whose documents are all among rows ``idx`` are used (so a
    cross-validation fold never fits on a pair of its own documents), each in the groups of its documents."""
    labels = table.y
    gidx = [i for i in idx if table.structural[i] is None]
    decided = {"false_blocks": sum(table.structural[i] == "block" and labels[i] == "compatible" for i in idx),
               "compatible": sum(table.structural[i] is not None and labels[i] == "compatible" for i in idx)}
    # inference builds evidence as the table did: the same second-direction rule, the same temperature
    gate = LearnedGate(C=C, backward_below=table.backward_below, nli_temperature=nli_temperature,
                       negative_weight=negative_weight if negatives is not None else 0.0)
    ps = table.predicate_similarities
    neg_X, neg_groups = negative_rows(negatives, table, idx, folds) if negatives is not None and negative_weight else (None, None)
    return gate.fit(table.X[gidx], [labels[i] for i in gidx], [folds[i] for i in gidx],
                    fitted_on=fitted_on, decided=decided,
                    predicate_similarity=None if ps is None else [ps[i] for i in gidx],
                    negatives=neg_X, negative_groups=neg_groups)


def negative_rows(negatives, table, idx: list[int], folds: list[int]):
    """(evidence rows, groups) of the negatives the gate may fit on beside rows ``idx``: those left to
    the gate by structure whose documents all belong to rows ``idx``, each with the groups (``folds``)
    of its documents."""
    from training.claim_pairs import document_of
    doc_group = {document_of(table.rows[i]): folds[i] for i in idx}
    keep = [k for k, r in enumerate(negatives.rows)
            if negatives.structural[k] is None and all(d in doc_group for d in r["documents"])]
    return negatives.X[keep], [frozenset(doc_group[d] for d in negatives.rows[k]["documents"]) for k in keep]


def pipeline_tiers(gate: LearnedGate, table, idx: list[int]) -> list[str]:
    """The whole pipeline's tier of rows ``idx``: structure where it decides, else the gate's tier
    under its principled caps (``evidence_gate.veto``) — what a write or a scan would answer."""
    todo = [i for i in idx if table.structural[i] is None]
    tiers = {i: capped_tier(gate, table, i, tier)
             for i, tier in zip(todo, gate.tiers(gate.predict_proba(table.X[todo])))} if todo else {}
    return [table.structural[i] or tiers[i] for i in idx]


def block_scores(gate: LearnedGate, table, idx: list[int]) -> list[float]:
    """The whole pipeline's block score of rows ``idx``: +inf where structure blocks, -inf where it decides
    otherwise or where a principled cap keeps the pair from blocking, else the gate's p(contradiction) — the
    ranking ``pipeline_tiers``' block threshold cuts (``benchmarks.metrics.f1_at_false_block`` reads it)."""
    todo = [i for i in idx if table.structural[i] is None]
    p = dict(zip(todo, gate.predict_proba(table.X[todo])[:, 0].tolist())) if todo else {}
    out = []
    for i in idx:
        if table.structural[i] is not None:
            out.append(float("inf") if table.structural[i] == "block" else float("-inf"))
        else:
            out.append(p[i] if capped_tier(gate, table, i, "block") == "block" else float("-inf"))
    return out


def capped_tier(gate: LearnedGate, table, i: int, tier: str) -> str:
    """Row ``i``'s gate tier under the principled caps (``evidence_gate.veto``), read from the table's evidence."""
    from guard.nli.evidence_gate import veto
    ps = table.predicate_similarities
    return veto(tier, table.verdicts[i], table.features[i], table.norms[i], gate.min_block_similarity_,
                None if ps is None else ps[i], gate.min_block_predicate_similarity_)[0]


def cross_validated_tiers(table, folds: list[int], families: list[int] | None = None,
                          nli_temperature: float | None = None, inner_folds: int = 5) -> list[str]:
    """Out-of-fold tiers: each fold judged by a gate fitted on the others, its operating point chosen
    on leave-one-group-out predictions over ``families`` — or, where those give the fitting rows
    fewer than two groups, over ``inner_folds`` folds of them grouped by source document."""
    from training.claim_pairs import document_of, grouped_folds
    n = len(folds)
    out: list[str | None] = [None] * n
    for f in sorted(set(folds)):
        fit_idx = [i for i in range(n) if folds[i] != f]
        app_idx = [i for i in range(n) if folds[i] == f]
        groups = list(families) if families is not None else [0] * n
        if len({groups[i] for i in fit_idx}) < 2:
            fit_rows = [table.rows[i] for i in fit_idx]
            if len({document_of(r) for r in fit_rows}) < 2:    # one document: its pairs as groups
                fit_rows = [{"id": r["id"]} for r in fit_rows]
            k = min(inner_folds, len({document_of(r) for r in fit_rows}))
            for i, g in zip(fit_idx, grouped_folds(fit_rows, k)):
                groups[i] = g
        gate = fit_on(table, fit_idx, groups, nli_temperature=nli_temperature)
        for i, tier in zip(app_idx, pipeline_tiers(gate, table, app_idx)):
            out[i] = tier
    return out  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> None:
    import argparse

    from guard.embed import Embedder
    from guard.pipeline import Guard, GuardConfig
    from training.claim_pairs import CLAIMS_TRAIN, family_folds, read_rows
    from training.cv_nli import load_recipe
    from training.gate_data import build, read_predictions
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("recipe")
    ap.add_argument("--normalizer", default="normalizer.rules.v2")
    ap.add_argument("--C", default="0.5", help='regularisation, or "auto": chosen on the grouped folds '
                    "(claims_train: CV F1 .445 -> .477 but false blocks 1.7 -> 2.2 %%; see the README)")
    ap.add_argument("--nli-temperature", default="1", help='the temperature the gate reads NLI scores at: '
                    '1 = the raw scores (default since session 18: grouped CV F1 .475 -> .488), "model" = the '
                    "model's calibrated ones (the gates before)")
    ap.add_argument("--negative-weight", type=float, default=0.0,
                    help="fit with the recipe's hard negatives (training.store_negatives) at this weight each; 0: "
                         "none (default: at 0.02 grouped CV F1 .568 -> .553 and ROC AUC .864 -> .862, while a store "
                         "scan's held-out cross-family blocks fell 182 -> 133; see the README)")
    ap.add_argument("--negatives", type=Path, help="the negatives file (default results/claims-cv/negatives_nli_<name>.jsonl)")
    a = ap.parse_args(argv)
    if not 0 <= a.negative_weight <= 1:
        ap.error(f"--negative-weight must be between 0 and 1, not {a.negative_weight}")
    recipe = load_recipe(a.recipe)
    from training.store_negatives import Negatives, negatives_file
    neg_path = a.negatives or negatives_file(recipe["name"])
    if a.negative_weight > 0 and not neg_path.is_file():
        ap.error(f"no negatives file {neg_path} (python -m training.store_negatives {a.recipe})")
    preds_file = ROOT / "results" / "claims-cv" / f"oof_nli_{recipe['name']}.jsonl"
    rows = read_rows(CLAIMS_TRAIN)
    folds = family_folds(rows)
    guard = Guard(GuardConfig(normalizer=a.normalizer, stages=("structural",)))
    from guard.nli.calibration import load_temperature
    temperature = load_temperature(ROOT / recipe["output"]) if a.nli_temperature == "model" else float(a.nli_temperature)
    embedder = Embedder()
    table = build(rows, read_predictions(preds_file, temperature), guard, embedder)
    negatives, neg_note = None, ""
    if a.negative_weight > 0:
        try:
            neg = Negatives.read(neg_path, temperature)
        except ValueError as exc:
            ap.error(str(exc))
        negatives = build(neg.rows, neg.predictions, guard, embedder)
        neg_note = (f"; with {len(neg.rows)} hard negatives (cross-family store-scan candidate pairs, scored by the "
                    f"final model) from {neg_path.name} at weight {a.negative_weight:g}")
    gate = fit_on(table, list(range(len(rows))), folds, C=a.C if a.C == "auto" else float(a.C),
                  nli_temperature=temperature, negatives=negatives, negative_weight=a.negative_weight, fitted_on=(
        f"{CLAIMS_TRAIN.name}: {len(rows)} pairs; operating point on leave-one-source-family-out predictions "
        f"({len(set(folds))} families); out-of-fold NLI scores (folds grouped by source document) "
        f"from {preds_file.relative_to(ROOT)} (temperature {temperature:g}); normalizer {a.normalizer}{neg_note}"))
    out = ROOT / recipe["output"] / GATE_FILE
    gate.save(out)
    print(json.dumps({"saved": str(out), "block_threshold": gate.block_threshold_,
                      "warn_threshold": gate.warn_threshold_, "cross_validation": gate.cv_}, indent=2))


if __name__ == "__main__":
    main()
