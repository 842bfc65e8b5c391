"""Normalizers head to head on a gold file of real-prose statements with their gold norms.

Run: ``guard bench normalizers [--normalizer NAME …]`` or ``python -m benchmarks.normalizers``.
Any registered normalizer can be named; the LLM and hybrid normalizers join the default run when an
endpoint is set (``GUARD_LLM_BASE_URL``, ``GUARD_LLM_MODEL``), and their rows name the model that
answered and what it cost (requests, tokens). Field accuracy per field, exact-match rate over all
fields, statements per second.
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
GOLD_LONG = ROOT / "benchmarks" / "data" / "normalizer_gold_long.jsonl"   # 150 long statements from claims_train
FIELDS = ("modality", "subject", "object", "value", "attribute", "scope", "subject_kind")


def _words(s: str | None) -> set[str]:
    if not s:
        return set()
    return {re.sub(r"s$", "", w) for w in re.findall(r"[a-z0-9_.+/<>-]+", s.lower().replace("`", "")) if w}


def field_correct(field: str, gold, pred) -> bool:
    if field == "subject":
        return _words(gold) == _words(pred)
    if field == "attribute":
        if not gold or not pred:
            return not gold and not pred
        from guard.compare import attributes_match
        return attributes_match(gold.lower().replace("_", " "), pred.lower().replace("_", " "))
    if field == "value":
        if not gold or not pred:
            return not gold and not pred
        g, p = gold.lower().strip("` "), pred.lower().strip("` ")
        return g == p or g in p or p in g
    return gold == pred


def _client(inner):
    """The LLM client behind a normalizer, if any (for the model name and the cost)."""
    llm = getattr(inner, "llm", inner)
    return getattr(llm, "client", None)


def default_names() -> list[str]:
    import os
    names = ["normalizer.rules.v1", "normalizer.rules.v2"]
    if os.environ.get("GUARD_LLM_BASE_URL") and os.environ.get("GUARD_LLM_MODEL"):
        names += ["normalizer.llm.v1", "normalizer.hybrid.v1"]
    return names


def evaluate(normalizer_name: str, rows: list[dict], inner=None) -> dict:
    inner = inner or get_normalizer(normalizer_name)
    norm = SafeNormalizer(inner)
    items = [(r["text"], Scope.from_dict(r["scope"]), Window()) for r in rows]
    t = time.perf_counter()
    from guard.progress import chunks
    norms = [n for part in chunks(items, 32, normalizer_name, "statement") for n in norm.normalize_many(part)]
    secs = time.perf_counter() - t
    fields = [f for f in FIELDS if f != "attribute" or all("attribute" in r["gold"] for r in rows)]
    correct = {f: 0 for f in fields}
    exact = 0
    errors = []
    for r, n in zip(rows, norms):
        pred = {"modality": n.modality.value, "subject": n.subject, "object": n.object.value, "value": n.value,
                "attribute": n.attribute, "scope": n.scope.to_dict(), "subject_kind": n.subject_kind.value}
        gold = {**r["gold"], "scope": Scope.from_dict(r["scope"]).to_dict()}
        ok = {f: field_correct(f, gold.get(f), pred[f]) for f in fields}
        for f, v in ok.items():
            correct[f] += v
        exact += all(ok.values())
        if not all(ok.values()):
            errors.append({"text": r["text"], "wrong": {f: [gold.get(f), pred[f]] for f, v in ok.items() if not v}})
    n = len(rows)
    out = {"n": n, "field_accuracy": {f: correct[f] / n for f in fields}, "exact_match": exact / n,
           "statements_per_second": n / secs if secs else None, "errors": errors,
           "unknown": sum(x.is_unknown for x in norms)}
    client = _client(inner)
    if client is not None:
        out["llm"] = {**client.usage, "endpoint": client.config.base_url}
    return out


def main(names: list[str] | None = None, golds: list[Path] | None = None,
         out_dir: Path = ROOT / "results" / "normalizers") -> dict:
    golds = golds or [GOLD, GOLD_LONG]
    names = names or default_names()
    instances = {name: get_normalizer(name) for name in names}      # one each: the LLM cache spans both files
    results, md = {}, []
    for gold in golds:
        rows = [json.loads(x) for x in gold.read_text().splitlines() if x.strip()]
        res = {}
        for name in names:
            client = _client(instances[name])
            before = dict(client.usage) if client is not None else None
            res[name] = evaluate(name, rows, instances[name])
            if before is not None:      # this file's share of the cost
                res[name]["llm"] = {k: (v - before.get(k, 0) if isinstance(v, int) else v)
                                    for k, v in res[name]["llm"].items()}
        results[gold.name] = res
        fields = list(next(iter(res.values()))["field_accuracy"])
        table = [[name, r["n"], *[r["field_accuracy"][f] for f in fields], r["exact_match"], r["statements_per_second"]]
                 for name, r in res.items()]
        md += [f"## Normalizers on {len(rows)} gold statements (`{gold.relative_to(ROOT) if gold.is_relative_to(ROOT) else gold}`)",
               "", md_table(["normalizer", "n", *fields, "exact match", "statements/s"], table), ""]
        llm_rows = [[name, r["llm"].get("model"), r["llm"]["requests"], r["llm"]["failures"], r["unknown"],
                     r["llm"]["prompt_tokens"], r["llm"]["completion_tokens"]] for name, r in res.items() if "llm" in r]
        if llm_rows:
            md += ["LLM cost on this file:", "", md_table(["normalizer", "model that answered", "requests", "failed",
                                                           "unknown norms", "prompt tokens", "completion tokens"],
                                                          llm_rows), ""]
    if not any("llm" in r for res in results.values() for r in res.values()):
        md += ["_The LLM rows need an endpoint: set GUARD_LLM_BASE_URL and GUARD_LLM_MODEL (any OpenAI-compatible "
               "chat-completions server) and run again._", ""]
    md = "\n".join(md)
    out = write(out_dir, "normalizers", {"gold": [str(g) for g in golds], "results": results}, md)
    series = {}
    for gname, res in results.items():
        for name, r in res.items():
            series[f"{name} / {gname}"] = [r["field_accuracy"].get(f, 0) for f in FIELDS] + [r["exact_match"]]
    bar_plot(out / "normalizers.png", list(FIELDS) + ["exact"], series, "Normalizer field accuracy", "accuracy")
    print(md)
    return results


if __name__ == "__main__":
    import sys
    main(sys.argv[1:] or None)
