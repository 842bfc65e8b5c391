"""Whether the whole guard judges a pair alike when one statement is written another way that means the same.

Run: ``guard bench pipeline-invariance`` or ``python -m benchmarks.pipeline_invariance [--limit N]``
(results/pipeline-invariance/).

Why beside ``benchmarks.invariance``: that one asks the normalizer and the structural comparison alone, and they
are nearly invariant; the NLI model and the learned gate read the text itself. The held-out pairs this project is
judged on pair a document's statement with a colleague's note — "Note: …", no full stop, "shall" for "must" — so
a tier that moves with such a rewrite is an error on exactly those pairs. Protocol: claims_dev's pairs (the NLI
model never trained on them), each judged by the default guard as written and with its incoming statement
rewritten by every family of ``benchmarks.rewrites`` that applies; a flip is a tier that differs from the pair's
own, counted "worse" where the original tier was the gold one and the rewrite's is not, "better" the other way.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks.report import md_table, write
from benchmarks.rewrites import rewrites
from benchmarks.stages import DEFAULT_PAIRS

ROOT = Path(__file__).resolve().parents[1]


def gold_tier(label: str) -> str:
    return {"contradiction": "block", "tension": "warn"}.get(label, "clean")


def evaluate(rows: list[dict], guard=None, examples: int = 3) -> dict:
    """Per rewrite family: pairs judged, tier flips by kind, worse and better against the gold tier, examples."""
    from guard.claims import Claim
    from guard.pipeline import Guard, GuardConfig
    guard = guard or Guard(GuardConfig())

    def judge(pairs):
        return [j.tier.value for j in guard.judge_pairs(guard.pair_items([(Claim(text=a), Claim(text=b))
                                                                            for a, b in pairs]))]
    own = judge([(r["existing"]["text"], r["incoming"]["text"]) for r in rows])
    todo = [(r, t, family, new) for r, t in zip(rows, own) for family, new in rewrites(r["incoming"]["text"])
            if new != r["incoming"]["text"]]
    tiers = judge([(r["existing"]["text"], new) for r, _, _, new in todo])
    counts: dict[str, Counter] = defaultdict(Counter)
    found: dict[str, list] = defaultdict(list)
    for (r, before, family, new), after in zip(todo, tiers):
        c = counts[family]
        c["pairs"] += 1
        if after == before:
            continue
        c["flips"] += 1
        c[f"{before} -> {after}"] += 1
        gold = gold_tier(r["label"])
        c["worse"] += before == gold != after
        c["better"] += after == gold != before
        if len(found[family]) < examples:
            found[family].append({"id": r["id"], "label": r["label"], "tier": before, "rewritten": after,
                                  "incoming": new})
    by_family = {f: dict(c) for f, c in sorted(counts.items(), key=lambda x: (-x[1]["flips"], x[0]))}
    total = Counter()
    for c in counts.values():
        total.update({k: c[k] for k in ("pairs", "flips", "worse", "better")})
    return {"pairs": len(rows), "by_family": by_family, "total": dict(total), "flip_examples": dict(found)}


def render(result: dict) -> str:
    fams = result["by_family"]
    rows = [[f, c["pairs"], c.get("flips", 0), c.get("worse", 0), c.get("better", 0),
             ", ".join(f"{k} {v}" for k, v in c.items() if "->" in k)] for f, c in fams.items()]
    t = result["total"]
    rows.append(["**all**", t.get("pairs", 0), t.get("flips", 0), t.get("worse", 0), t.get("better", 0), ""])
    md = [f"## The whole guard on rewritten statements ({result['pairs']} claims_dev pairs)", "",
          __doc__.split("Protocol: ")[1].strip(), "",
          md_table(["rewrite of the incoming statement", "pairs", "tier flips", "worse", "better", "flips"], rows), ""]
    for f, exs in result["flip_examples"].items():
        md += [f"Flips, {f}:", ""] + [f"- {e['id']} ({e['label']}): {e['tier']} -> {e['rewritten']}: \"{e['incoming']}\""
                                      for e in exs] + [""]
    return "\n".join(md)


def main(argv=None, pairs: Path = DEFAULT_PAIRS) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N pairs")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "pipeline-invariance")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in pairs.read_text().splitlines() if line.strip()][:args.limit]
    result = evaluate(rows)
    md = render(result)
    write(args.out, "pipeline_invariance", result, md)
    print(md)
    return result


if __name__ == "__main__":
    main()
