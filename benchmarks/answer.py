"""Answer-time gates on real data: the intent split and the local auditor.

Run: ``guard bench answer [--fit] [--limit N]`` or ``python -m benchmarks.answer``.

Intent split — MixATIS / MixSNIPS (clean; multi-intent utterances, intents an unordered set: the
number of sub-intents and whether a request is multi-intent), BREAK QDMR high-level dev (ordered
decompositions of one question: step count, multi-step detection, and COMPARE detection against
the comparison operators), and our own RAG-style requests (``benchmarks/data/answer_requests.jsonl``,
labelled by hand: split, roles and references).

Auditor — the NLI model's verdict on claim vs evidence. Thresholds are fitted (``--fit``) on
AttributionBench dev (attributable ↔ VALID) and one half of Climate-FEVER (3-way), then measured on
AttributionBench test (in-distribution sample and out-of-distribution), the other half of
Climate-FEVER and HealthVer test, none of which the fit saw.
"""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

from benchmarks.report import md_table, write

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
ANSWER = SHARED / "answer"
NLI = SHARED / "nli"
REQUESTS = ROOT / "benchmarks" / "data" / "answer_requests.jsonl"
_COMPARE_OPS = {"comparison", "comparative", "superlative"}
_LABEL = {"entailment": "VALID", "contradiction": "INVALID", "neutral": "NOT_IN_CONTEXT"}


def _read(path: Path, limit: int | None = None, seed: int = 0) -> list[dict]:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    if limit and len(rows) > limit:
        rows = random.Random(seed).sample(rows, limit)
    return rows


# ---- intent split -------------------------------------------------------------------------------
def split_multi_intent(rows: list[dict]) -> dict:
    from guard.answer.intents import split
    from guard.progress import bar
    counts = [len(split(r["text"])) for r in bar(rows, desc="split", unit="query")]
    gold = [r["n_intents"] for r in rows]
    return {"n": len(rows), "count_accuracy": sum(c == g for c, g in zip(counts, gold)) / len(rows),
            **_prf([g > 1 for g in gold], [c > 1 for c in counts], True, "multi")}


def split_break(rows: list[dict]) -> dict:
    from guard.answer.intents import COMPARE, split
    from guard.progress import bar
    plans = [split(r["question"]) for r in bar(rows, desc="break", unit="question")]
    gold = [r["n_steps"] for r in rows]
    gold_compare = [bool(_COMPARE_OPS & set(o for o in r["operators"] if o)) for r in rows]
    return {"n": len(rows), "step_count_accuracy": sum(len(p) == g for p, g in zip(plans, gold)) / len(rows),
            **_prf([g > 1 for g in gold], [len(p) > 1 for p in plans], True, "multi"),
            **_prf(gold_compare, [any(s.role == COMPARE for s in p) for p in plans], True, "compare")}


def split_requests(rows: list[dict]) -> dict:
    from guard.answer.intents import split
    count = roles = refs = whole = 0
    for r in rows:
        steps = split(r["request"])
        gold = r["steps"]
        ok_count = len(steps) == len(gold)
        ok_roles = ok_count and all(s.role == g["role"] for s, g in zip(steps, gold))
        ok_refs = ok_count and all(s.refs == g["refs"] for s, g in zip(steps, gold))
        count, roles, refs, whole = count + ok_count, roles + ok_roles, refs + ok_refs, whole + (ok_roles and ok_refs)
    n = len(rows)
    single = [r for r in rows if len(r["steps"]) == 1]
    return {"n": n, "count_accuracy": count / n, "roles_accuracy": roles / n, "refs_accuracy": refs / n,
            "exact_plan_accuracy": whole / n,
            "single_kept_whole": sum(len(split(r["request"])) == 1 for r in single) / max(1, len(single))}


def _prf(gold: list, pred: list, positive, name: str) -> dict:
    """Precision, recall and F1 of ``positive`` (scikit-learn; 0 where undefined)."""
    from sklearn.metrics import precision_recall_fscore_support
    p, r, f, _ = precision_recall_fscore_support(gold, pred, labels=[positive], average=None, zero_division=0)
    return {f"{name}_precision": float(p[0]), f"{name}_recall": float(r[0]), f"{name}_f1": float(f[0])}


# ---- auditor -----------------------------------------------------------------------------------
def auditor_scores(auditor, rows: list[dict], kind: str) -> list[tuple[list[dict], str]]:
    """(per-sentence scores, gold verdict) per row. ``kind``: "attribution" (claim, evidence,
    attributable|not) or "nli" (premise = evidence, hypothesis = claim, 3-way)."""
    from guard.progress import bar
    out = []
    for r in bar(rows, desc=f"audit {kind}", unit="row"):
        if kind == "attribution":
            claim, ev = r["claim"], r["evidence"] or ""
            gold = "VALID" if r["label"] == "attributable" else "NOT_VALID"
        else:
            claim, ev, gold = r["hypothesis"], r["premise"], _LABEL[r["label"]]
        scored = auditor.scores(claim, ["e"], {"e": ev}) if ev.strip() else \
            [{"sentence": claim, "entailment": 0.0, "contradiction": 0.0, "support": None, "contradicted_by": None}]
        out.append((scored, gold))
    return out


def verdicts(auditor, scored: list[tuple[list[dict], str]], thresholds: dict) -> list[str]:
    old = auditor.thresholds
    auditor.thresholds = thresholds
    try:
        return [auditor.verdict_of(s)[0] for s, _ in scored]
    finally:
        auditor.thresholds = old


def auditor_figures(pred: list[str], gold: list[str]) -> dict:
    binary = any(g == "NOT_VALID" for g in gold)
    if binary:
        pred = ["VALID" if p == "VALID" else "NOT_VALID" for p in pred]
        return {"n": len(gold), "accuracy": sum(p == g for p, g in zip(pred, gold)) / len(gold),
                **_prf(gold, pred, "VALID", "valid")}
    out = {"n": len(gold), "accuracy": sum(p == g for p, g in zip(pred, gold)) / len(gold)}
    for v in ("VALID", "INVALID", "NOT_IN_CONTEXT"):
        out.update(_prf(gold, pred, v, v.lower()))
    out["macro_f1"] = sum(out[f"{v.lower()}_f1"] for v in ("VALID", "INVALID", "NOT_IN_CONTEXT")) / 3
    return out


def fit_thresholds(auditor, attribution, nli3) -> dict:
    """Entailment threshold: best accuracy on attribution ∪ 3-way VALID-vs-rest; then the
    contradiction threshold: best macro-F1 on the 3-way set."""
    grid = [round(x / 20, 2) for x in range(2, 20)]
    both = attribution + [(s, "VALID" if g == "VALID" else "NOT_VALID") for s, g in nli3]
    gold_b = [g for _, g in both]
    best_e = max(grid, key=lambda t: (auditor_figures(verdicts(auditor, both, {"entail": t, "contradict": 1.01}),
                                                      gold_b)["accuracy"], -abs(t - 0.5)))
    gold3 = [g for _, g in nli3]
    best_c = max(grid, key=lambda t: (auditor_figures(verdicts(auditor, nli3, {"entail": best_e, "contradict": t}),
                                                      gold3)["macro_f1"], -abs(t - 0.5)))
    return {"entail": best_e, "contradict": best_c}


def main(out_dir: Path = ROOT / "results" / "answer", fit: bool = False, limit: int | None = None,
         model: str | None = None, requests: Path = REQUESTS) -> dict:
    report: dict = {"split": {}, "auditor": {}}
    t = time.perf_counter()
    report["split"]["own RAG requests"] = split_requests(_read(requests))
    if ANSWER.exists():
        for name, f in (("MixATIS clean", "multi_intent_mixatis_clean.jsonl"),
                        ("MixSNIPS clean", "multi_intent_mixsnips_clean.jsonl")):
            report["split"][name] = split_multi_intent(_read(ANSWER / f, limit))
        report["split"]["BREAK QDMR high-level dev"] = split_break(_read(ANSWER / "break_qdmr_high_level_dev.jsonl", limit))
    report["split_seconds"] = round(time.perf_counter() - t, 1)
    if ANSWER.exists() and NLI.exists():
        from guard.answer.handoff import AUDITOR_FILE, LocalAuditor
        auditor = LocalAuditor(model=model)
        cf = _read(NLI / "climate_fever.test.jsonl", seed=1)
        random.Random(7).shuffle(cf)
        half = len(cf) // 2
        lim = limit or 2000
        fit_sets = {"AttributionBench dev": (_read(ANSWER / "attributionbench_dev.jsonl", limit), "attribution"),
                    "Climate-FEVER (fit half)": (cf[:half][:lim], "nli")}
        eval_sets = {"AttributionBench test (ID sample)": (_read(ANSWER / "attributionbench_test_sampled500.jsonl", limit), "attribution"),
                     "AttributionBench test (OOD)": (_read(ANSWER / "attributionbench_test_ood.jsonl", limit), "attribution"),
                     "Climate-FEVER (held-out half)": (cf[half:][:lim], "nli"),
                     "HealthVer test": (_read(NLI / "healthver.test.jsonl", limit), "nli")}
        t = time.perf_counter()
        scored = {k: auditor_scores(auditor, rows, kind) for k, (rows, kind) in {**fit_sets, **eval_sets}.items()}
        report["auditor_seconds"] = round(time.perf_counter() - t, 1)
        if fit:
            th = fit_thresholds(auditor, scored["AttributionBench dev"], scored["Climate-FEVER (fit half)"])
            path = Path(auditor.scorer.path) / AUDITOR_FILE
            path.write_text(json.dumps({"thresholds": th, "fitted_on": (
                "AttributionBench dev (attributable <-> VALID) and a seeded half of Climate-FEVER test (3-way); "
                f"model {Path(auditor.scorer.path).name}")}, indent=1))
            auditor.thresholds = th
            report["fitted_to"] = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        report["auditor_model"] = Path(auditor.scorer.path).name
        report["thresholds"] = auditor.thresholds
        for k, s in scored.items():
            report["auditor"][k] = {**auditor_figures(verdicts(auditor, s, auditor.thresholds), [g for _, g in s]),
                                    "role": "fit" if k in fit_sets else "held out"}
    md = render(report)
    write(out_dir, "answer", report, md)
    print(md)
    return report


def render(report: dict) -> str:
    md = ["## Intent split", ""]
    rows = []
    for name, r in report["split"].items():
        rows.append([name, r["n"], r.get("count_accuracy", r.get("step_count_accuracy")), r.get("multi_f1"),
                     r.get("roles_accuracy"), r.get("refs_accuracy"), r.get("compare_f1")])
    md += [md_table(["set", "n", "count / step-count accuracy", "multi-intent F1", "roles", "refs", "COMPARE F1"], rows), ""]
    if report["auditor"]:
        md += [f"## Local auditor (model `{report['auditor_model']}`, thresholds {report['thresholds']})", ""]
        rows = [[k, r["role"], r["n"], r["accuracy"], r.get("valid_precision"), r.get("valid_recall"),
                 r.get("invalid_f1"), r.get("not_in_context_f1"), r.get("macro_f1")] for k, r in report["auditor"].items()]
        md += [md_table(["set", "role", "n", "accuracy", "VALID P", "VALID R", "INVALID F1", "NOT_IN_CONTEXT F1",
                         "macro F1"], rows), ""]
    return "\n".join(md)


if __name__ == "__main__":
    import sys
    main(fit="--fit" in sys.argv)
