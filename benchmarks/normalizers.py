"""Normalizers head to head on a gold file of real-prose statements with their gold norms.

Run: ``guard bench normalizers [--normalizer NAME …]`` or ``python -m benchmarks.normalizers``.
Any registered normalizer can be named (the LLM normalizer joins when its endpoint is set).
Field accuracy per field, exact-match rate over all fields, statements per second.
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

from benchmarks.report import bar_plot, md_table, write
from guard.claims import Scope, Window
from guard.normalize import SafeNormalizer, get_normalizer

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "benchmarks" / "data" / "normalizer_gold.jsonl"
FIELDS = ("modality", "subject", "object", "value", "scope", "subject_kind")


def _words(s: str | None) -> set[str]:
    if not s:
        return set()
    return {re.sub(r"s$", "", w) for w in re.findall(r"[a-z0-9_.+/<>-]+", s.lower().replace("`", "")) if w}


def field_correct(field: str, gold, pred) -> bool:
    if field == "subject":
        return _words(gold) == _words(pred)
    if field == "value":
        if not gold or not pred:
            return not gold and not pred
        g, p = gold.lower().strip("` "), pred.lower().strip("` ")
        return g == p or g in p or p in g
    return gold == pred


def evaluate(normalizer_name: str, rows: list[dict]) -> dict:
    norm = SafeNormalizer(get_normalizer(normalizer_name))
    items = [(r["text"], Scope.from_dict(r["scope"]), Window()) for r in rows]
    t = time.perf_counter()
    norms = norm.normalize_many(items)
    secs = time.perf_counter() - t
    correct = {f: 0 for f in FIELDS}
    exact = 0
    errors = []
    for r, n in zip(rows, norms):
        pred = {"modality": n.modality.value, "subject": n.subject, "object": n.object.value, "value": n.value,
                "scope": n.scope.to_dict(), "subject_kind": n.subject_kind.value}
        gold = {**r["gold"], "scope": Scope.from_dict(r["scope"]).to_dict()}
        ok = {f: field_correct(f, gold.get(f), pred[f]) for f in FIELDS}
        for f, v in ok.items():
            correct[f] += v
        exact += all(ok.values())
        if not all(ok.values()):
            errors.append({"text": r["text"], "wrong": {f: [gold.get(f), pred[f]] for f, v in ok.items() if not v}})
    n = len(rows)
    return {"n": n, "field_accuracy": {f: correct[f] / n for f in FIELDS}, "exact_match": exact / n,
            "statements_per_second": n / secs if secs else None, "errors": errors}


def main(names: list[str] | None = None, gold: Path = GOLD, out_dir: Path = ROOT / "results" / "normalizers") -> dict:
    rows = [json.loads(x) for x in gold.read_text().splitlines() if x.strip()]
    names = names or ["normalizer.rules.v1"]
    results = {name: evaluate(name, rows) for name in names}
    table = [[name, r["n"], *[r["field_accuracy"][f] for f in FIELDS], r["exact_match"], r["statements_per_second"]]
             for name, r in results.items()]
    md = "\n".join([f"## Normalizers on {len(rows)} gold statements (`{gold.relative_to(ROOT)}`)", "",
                    md_table(["normalizer", "n", *FIELDS, "exact match", "statements/s"], table)])
    out = write(out_dir, "normalizers", {"gold": str(gold), "results": results}, md)
    bar_plot(out / "normalizers.png", list(FIELDS) + ["exact"],
             {name: [r["field_accuracy"][f] for f in FIELDS] + [r["exact_match"]] for name, r in results.items()},
             "Normalizer field accuracy", "accuracy")
    print(md)
    return results


if __name__ == "__main__":
    import sys
    main(sys.argv[1:] or None)
