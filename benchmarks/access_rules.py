"""Rules about who may act, judged by the default guard: restatements, other actors, other actions.

Run: ``python -m benchmarks.access_rules [--out DIR]`` (results/access-rules/).

Why a set of its own: access rules ("Only admins can delete projects.", "Contractors may not …")
are among the commonest things a policy store holds, yet claims_train and claims_dev have about
three such pairs among 1,520, so `guard bench stages` cannot show how the guard reads them.
``benchmarks/data/access_rule_pairs.jsonl`` holds 59 pairs written by hand (never trained or
fitted on), each marked by when it was written against the actor reader of session 56: ``design``
while it was designed, ``after`` once it ran (two general fixes followed it: the role's
hyphenated modifiers, and conditions and possessors kept out of the action), ``held`` after the
last change, with nothing changed after it. A pair is right when a contradiction blocks and a
compatible pair is clean (a warn is wrong both ways).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from benchmarks.report import md_table, write

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "benchmarks" / "data" / "access_rule_pairs.jsonl"


def right(label: str, tier: str) -> bool:
    return tier == ("block" if label == "contradiction" else "clean")


def run(pairs_file: Path = PAIRS, guard=None) -> dict:
    from guard.claims import Claim
    from guard.pipeline import Guard, GuardConfig
    rows = [json.loads(line) for line in pairs_file.read_text().splitlines() if line.strip()]
    guard = guard or Guard(GuardConfig())
    judged = guard.judge_pairs(guard.pair_items([(Claim(text=r["existing"]["text"]), Claim(text=r["incoming"]["text"]))
                                                 for r in rows]))
    per_set: dict[str, Counter] = {}
    items = []
    for r, j in zip(rows, judged):
        tier = j.tier.value
        per_set.setdefault(r["written"], Counter())[(r["label"], tier)] += 1
        items.append({"id": r["id"], "label": r["label"], "tier": tier, "stage": j.stage, "right": right(r["label"], tier),
                      "reason": j.reason})
    sets = {}
    for name, c in per_set.items():
        n = sum(c.values())
        sets[name] = {"pairs": n, "right": sum(v for (lab, t), v in c.items() if right(lab, t)),
                      "contradictions_blocked": c[("contradiction", "block")],
                      "contradictions": sum(v for (lab, _), v in c.items() if lab == "contradiction"),
                      "compatible_clean": c[("compatible", "clean")],
                      "compatible_blocked": c[("compatible", "block")],
                      "compatible": sum(v for (lab, _), v in c.items() if lab == "compatible")}
    return {"pairs_file": str(pairs_file), "sets": sets, "items": items}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "results" / "access-rules"))
    args = ap.parse_args(argv)
    report = run()
    order = [s for s in ("design", "after", "held") if s in report["sets"]]
    md = ["## Access rules (`benchmarks/data/access_rule_pairs.jsonl`, default guard)", "",
          md_table(["written", "pairs", "right", "contradictions blocked", "compatible clean", "compatible blocked"],
                   [[s, v["pairs"], v["right"], f"{v['contradictions_blocked']} / {v['contradictions']}",
                     f"{v['compatible_clean']} / {v['compatible']}", v["compatible_blocked"]]
                    for s in order for v in [report["sets"][s]]]), "",
          md_table(["id", "label", "tier", "right", "reason"],
                   [[i["id"], i["label"], i["tier"], "yes" if i["right"] else "no", i["reason"][:110]]
                    for i in report["items"]])]
    out = write(args.out, "access_rules", report, "\n".join(md))
    for s in order:
        v = report["sets"][s]
        print(f"{s:7s} {v['right']:2d} / {v['pairs']:2d} right; contradictions blocked {v['contradictions_blocked']} / "
              f"{v['contradictions']}, compatible clean {v['compatible_clean']} / {v['compatible']}")
    print(f"report: {out}")
    return report


if __name__ == "__main__":
    main()
