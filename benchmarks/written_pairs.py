"""Short policy statements written by hand as a team would, judged by the default guard.

Run: ``python -m benchmarks.written_pairs [--out DIR]`` (results/written-pairs/).

Why a set of its own: claims_train and claims_dev are long sentences from public documents; what a
team or an agent writes into a store is shorter and of a few everyday kinds — access rules ("Only
admins can delete projects."), assignments ("The payments team owns the billing-api."), schedules,
places, limits — of which the two sets hold a handful (about three access-rule pairs among 1,520).
``benchmarks/data/written_pairs.jsonl`` holds such pairs (never trained or fitted on), each of a
kind and marked by when it was written against the change that concerns it: ``design`` while a
change was designed (its failures are what the change is for); ``after`` once it ran (access only:
two general fixes followed those pairs — a role's hyphenated modifiers, and conditions and
possessors kept out of the action); ``held`` after the last change to what it tests, with nothing
changed for it after. Session 56 wrote ``access``, ``assignment`` and ``everyday``; session 57
``schedule``, ``choice``, ``place``, ``version``, ``limit`` and ``policy`` (design), then held
schedules once how often a thing happens was read; session 64 ``force`` (design): the ways English gives a
rule its force ("no longer", "free to", "exempt from", "refrain from", "Nobody may", "may not disable"); session 92
``money``, ``lifecycle``, ``retention``, ``state``, ``sla``, ``security``, ``notice``, ``approval``, ``percent``,
``counts``, ``window`` and ``residency``, and more ``version`` pairs (design, then held: each held set was written
with its design set, before that was first judged, and judged once); session 93 ``leave``, ``format``, ``logging``,
``meeting``, ``office``, ``exceptions``, ``defaults``, ``backup``, ``password``, ``locale``, then ``long`` (handbook
sentences against short notes) and ``scope`` (teams, environments, plans), then ``license``, ``ci``, ``incident`` and
``network``, then ``api``, ``data`` and ``device``, each as a design and a held set written together, the held judged
once; session 94 ``requirement``, ``sequence``, ``ratelimit``, ``ownership``, ``timeout``, ``encryption``,
``dependency``, ``review``, ``tiers`` and ``flags``, then ``deadline``, ``eligibility``, ``support``, ``travel``,
``equipment``, ``channel``, ``language`` and ``onboarding``, the same way; session 95 ``billing``, ``refunds``,
``shipping``, ``caching``, ``alerts``, ``benefits``, ``performance``, ``compliance``, ``branching`` and ``oncall``, then
``quota``, ``retries``, ``release``, ``hours``, ``expenses``, ``pricing``, ``ai`` and ``social``, then ``procurement``,
``hiring``, ``infra``, ``database``, ``notifications``, ``testing``, ``holidays`` and ``documentation``, then
``longform`` (long sentences with leading phrases, asides and second clauses), the same way. A pair
is right when a contradiction blocks and a compatible pair is clean (a warn is wrong both ways).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from benchmarks.report import md_table, write

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "benchmarks" / "data" / "written_pairs.jsonl"
ORDER = ("design", "after", "held")


def right(label: str, tier: str) -> bool:
    return tier == ("block" if label == "contradiction" else "clean")


def _n(c: Counter, label: str, tier: str | None = None) -> int:
    return sum(v for (lab, t), v in c.items() if lab == label and (tier is None or t == tier))


def run(pairs_file: Path = PAIRS, guard=None) -> dict:
    """Each set's counts, by kind and when its pairs were written, and each pair's judgement."""
    from guard.claims import Claim
    from guard.pipeline import Guard, GuardConfig
    rows = [json.loads(line) for line in pairs_file.read_text().splitlines() if line.strip()]
    guard = guard or Guard(GuardConfig())
    judged = guard.judge_pairs(guard.pair_items([(Claim(text=r["existing"]["text"]), Claim(text=r["incoming"]["text"]))
                                                 for r in rows]))
    counts: dict[str, Counter] = {}
    items = []
    for r, j in zip(rows, judged):
        tier = j.tier.value
        counts.setdefault(f"{r['kind']} {r['written']}", Counter())[(r["label"], tier)] += 1
        items.append({"id": r["id"], "label": r["label"], "tier": tier, "stage": j.stage,
                      "right": right(r["label"], tier), "reason": j.reason})
    sets = {name: {"pairs": sum(c.values()), "right": sum(v for (lab, t), v in c.items() if right(lab, t)),
                   "contradictions_blocked": _n(c, "contradiction", "block"), "contradictions": _n(c, "contradiction"),
                   "compatible_clean": _n(c, "compatible", "clean"), "compatible_blocked": _n(c, "compatible", "block"),
                   "compatible": _n(c, "compatible")} for name, c in counts.items()}
    return {"pairs_file": str(pairs_file), "sets": sets, "items": items}


def _order(name: str) -> tuple:
    kind, written = name.split(" ", 1)
    return kind, ORDER.index(written) if written in ORDER else len(ORDER)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "results" / "written-pairs"))
    args = ap.parse_args(argv)
    report = run()
    names = sorted(report["sets"], key=_order)
    md = ["## Pairs written by hand (`benchmarks/data/written_pairs.jsonl`, default guard)", "",
          md_table(["set", "pairs", "right", "contradictions blocked", "compatible clean", "compatible blocked"],
                   [[s, v["pairs"], v["right"], f"{v['contradictions_blocked']} / {v['contradictions']}",
                     f"{v['compatible_clean']} / {v['compatible']}", v["compatible_blocked"]]
                    for s in names for v in [report["sets"][s]]]), "",
          md_table(["id", "label", "tier", "right", "reason"],
                   [[i["id"], i["label"], i["tier"], "yes" if i["right"] else "no", i["reason"][:110]]
                    for i in report["items"]])]
    out = write(args.out, "written_pairs", report, "\n".join(md))
    for s in names:
        v = report["sets"][s]
        print(f"{s:18s} {v['right']:2d} / {v['pairs']:2d} right; contradictions blocked {v['contradictions_blocked']} / "
              f"{v['contradictions']}, compatible clean {v['compatible_clean']} / {v['compatible']}")
    print(f"report: {out}")
    return report


if __name__ == "__main__":
    main()
