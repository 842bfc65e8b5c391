"""Learned gates fitted on out-of-fold NLI scores by document or by source family, each judged on both kinds of
scores and on claims_dev.

Why: the gate is fitted on a claim-tuned model's out-of-fold scores. With folds grouped by document, each fold model
had seen other documents of the held-out pair's source family; with folds by family (a recipe's ``"fold_by":
"family"``) it had seen none, as on a new kind of document. Which scores the gate should be fitted on, and what the
pipeline does where the model never saw the family, is one question with two halves: a gate judged on
cross-validation folds (grouped by document) whose evidence comes from either kind of fold model. claims_dev is
judged by each gate fitted on all of claims_train, on the final model's scores.

Run: ``python -m benchmarks.gate_regimes --document TAG --family TAG`` (the tags of
``results/claims-cv/oof_nli_<tag>.jsonl``; claims_dev's scores are ``dev_nli_<document tag>.jsonl`` unless
``--dev``), after ``python -m training.cv_nli RECIPE --folds-only`` for a recipe with ``"fold_by": "family"``.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import numpy as np

from benchmarks.stages import (
    CV_DIR,
    DEFAULT_PAIRS,
    MATCHED_RATES,
    ROOT,
    TRAIN_PAIRS,
    load_pairs,
)

REGIMES = ("document", "family", "both")


def stacked(a, b):
    """One gate table holding the rows of ``a`` and then those of ``b`` (the same pairs with other evidence): every
    per-row field joined, whatever fields the table has; a setting (the NLI-direction rule) stays ``a``'s."""
    def joined(x, y):
        if isinstance(x, np.ndarray):
            return np.vstack([x, y])
        if isinstance(x, list):
            return x + y if isinstance(y, list) else None
        return x
    return dataclasses.replace(a, **{f.name: joined(getattr(a, f.name), getattr(b, f.name))
                                     for f in dataclasses.fields(a)})


def fit_gate(regime: str, tables: dict, idx: list[int], families: list[int], temperature: float | None):
    """The gate fitted on rows ``idx`` of the document-fold table, the family-fold one, or both stacked (each pair
    twice, once with each evidence: a gate fitted to both kinds of document)."""
    from training.fit_learned_gate import fit_on
    if regime != "both":
        return fit_on(tables[regime], idx, families, nli_temperature=temperature)
    n = len(tables["document"].rows)
    return fit_on(stacked(tables["document"], tables["family"]), idx + [i + n for i in idx], families + families,
                  nli_temperature=temperature)


def judged(tiers: list[str], scores: list[float], labels: list[str]) -> dict:
    from benchmarks import metrics
    prf = metrics.block_prf(labels, tiers)
    return {"precision": round(prf["precision"], 4), "recall": round(prf["recall"], 4), "f1": round(prf["f1"], 4),
            "false_block": round(metrics.false_block_rate(labels, tiers)["overall"], 4),
            "f1_at_false_block": {f"{r:.0%}": metrics.f1_at_false_block(labels, scores, r)["f1"] for r in MATCHED_RATES}}


def cross_judged(regime: str, tables: dict, evidence: tuple[str, ...], folds: list[int], families: list[int],
                 temperature: float | None) -> dict[str, dict]:
    """Out of fold: each fold (by document) judged on each ``evidence`` table's scores by the one ``regime`` gate
    fitted on the other folds."""
    from training.fit_learned_gate import block_scores, pipeline_tiers
    n = len(folds)
    tiers = {ev: [""] * n for ev in evidence}
    scores = {ev: [0.0] * n for ev in evidence}
    for f in sorted(set(folds)):
        fit = [i for i in range(n) if folds[i] != f]
        app = [i for i in range(n) if folds[i] == f]
        gate = fit_gate(regime, tables, fit, families, temperature)
        for ev in evidence:
            for i, t, s in zip(app, pipeline_tiers(gate, tables[ev], app), block_scores(gate, tables[ev], app)):
                tiers[ev][i], scores[ev][i] = t, s
    return {ev: judged(tiers[ev], scores[ev], tables[ev].y) for ev in evidence}


def run(tables: dict, dev_table, folds: list[int], families: list[int], temperature: float | None) -> dict:
    from training.fit_learned_gate import block_scores, pipeline_tiers
    out = {}
    every, di = list(range(len(folds))), list(range(len(dev_table.rows)))
    for regime in REGIMES:
        gate = fit_gate(regime, tables, every, families, temperature)
        out[regime] = {f"cv, {ev} scores": j for ev, j in
                       cross_judged(regime, tables, ("document", "family"), folds, families, temperature).items()}
        out[regime]["claims_dev"] = judged(pipeline_tiers(gate, dev_table, di), block_scores(gate, dev_table, di),
                                           dev_table.y)
    return out


def render(result: dict) -> str:
    title = (f"## Gates fitted on scores by document or by family (document folds: `{result['document']}`, family "
             f"folds: `{result['family']}`, claims_dev: `{result['dev']}`)")
    how = ("Each row a gate fitted on the out-of-fold scores of that kind (both: each pair twice); each column its "
           "block F1 (false-block rate) and F1 at 1 / 2 / 3 / 5 % false blocks, out of fold on claims_train with "
           "the evidence of fold models by document or by family, and on claims_dev.")
    lines = [title, "", how, "",
             "| gates fitted on | CV, scores by document | CV, scores by family | claims_dev |", "|---|---|---|---|"]
    for regime in REGIMES:
        cells = []
        for k in ("cv, document scores", "cv, family scores", "claims_dev"):
            j = result["regimes"][regime][k]
            cells.append(f"{j['f1']:.3f} ({j['false_block']:.1%}); "
                         + " / ".join(f"{v:.3f}" for v in j["f1_at_false_block"].values()))
        lines.append(f"| {regime} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> dict:
    from benchmarks.report import provenance
    from guard.embed import Embedder
    from guard.pipeline import Guard, GuardConfig
    from training.claim_pairs import family_folds, grouped_folds
    from training.gate_data import build, read_predictions
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--document", required=True, help="tag of the out-of-fold scores by document")
    ap.add_argument("--family", required=True, help="tag of the out-of-fold scores by source family")
    ap.add_argument("--dev", help="tag of claims_dev's scores (default: the --document tag's)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "gate-regimes")
    a = ap.parse_args(argv)
    files = {"document": CV_DIR / f"oof_nli_{a.document}.jsonl", "family": CV_DIR / f"oof_nli_{a.family}.jsonl",
             "dev": CV_DIR / f"dev_nli_{a.dev or a.document}.jsonl"}
    for k, f in files.items():
        if not f.is_file():
            ap.error(f"no {k} scores: {f} is missing")
    train_rows, dev_rows = load_pairs([TRAIN_PAIRS]), load_pairs([DEFAULT_PAIRS])
    guard = Guard(GuardConfig(normalizer="normalizer.rules.v2", stages=("structural",)))
    embedder = Embedder()
    # the raw scores (temperature 1), as the shipped gates read them
    tables = {k: build(train_rows, read_predictions(files[k]), guard, embedder) for k in ("document", "family")}
    dev = build(dev_rows, read_predictions(files["dev"]), guard, embedder)
    result = {"document": a.document, "family": a.family, "dev": a.dev or a.document,
              "regimes": run(tables, dev, grouped_folds(train_rows), family_folds(train_rows), 1.0),
              "provenance": provenance()}
    a.out.mkdir(parents=True, exist_ok=True)
    name = f"{a.document}__{a.family}"
    (a.out / f"{name}.json").write_text(json.dumps(result, indent=1))
    (a.out / f"{name}.md").write_text(render(result))
    print(render(result))
    return result


if __name__ == "__main__":
    main()
