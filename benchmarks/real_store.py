"""A labelled real-prose pair set scanned as one claim store: what a user who loads real documents sees.

Run: ``python -m benchmarks.real_store [claims_dev claims_train] [--profile accurate] [--out DIR]
[--without-floor]`` (results/real-store/).

Why: ``guard bench stages`` judges each labelled pair on its own, but a store is scanned as a whole:
every statement meets the candidates the blocking keys and the bi-encoder find among all the
others, most of them from other documents. So the statements of both sides of every row (each with
its own scope and window) go into one list, which is scanned like ``guard scan``; each finding is
then placed by what the set knows about its two statements:

- a labelled row (the two statements are a pair of the set: contradiction, tension or compatible):
  the scan's recall of the labelled contradictions, and its blocks of labelled compatible pairs;
- one document, no row: unlabelled (a document may contradict itself, rarely does);
- two documents: the pairs nobody wrote as a pair. Put in one store, two documents can disagree
  (claims_dev's short statements from different repositories — "The maximum line length for code
  is 120 characters." / "Maximum line width is 100 characters." — are conflicts a store should
  show), so these are not all false. Statements of two different source families (claims_train's
  handbooks against cloud limits, say) seldom speak of one thing ("Releases to this environment are
  pushed … once a week." / "… TEENY releases will be released approximately every 2-4 months."):
  blocks there are the nearest thing to a count of false blocks that needs no labels.

claims_dev is the clean check (no model saw it); on claims_train the shipped model's claim stage
saw every labelled row, so its labelled figures are optimistic and only its unlabelled pairs say
much. ``--without-floor`` scans with the learned gate's similarity floor switched off (to measure it).
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from benchmarks.report import md_table, write

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT.parent / "shared" / "data" / "bench"


def statements(rows: list[dict]):
    """(claims, where, labelled) from pair rows: one claim per distinct (text, scope, window), all
    with one ``created_at`` so a scan orders them as listed; per claim id the set of (document,
    family) it came from; and each row's label keyed by the frozenset of its two claim ids."""
    from benchmarks.synth import CREATED_AT
    from guard.claims import Claim
    from training.claim_pairs import pair_claims
    ids: dict[tuple, str] = {}
    claims, where, labelled = [], {}, {}
    for r in rows:
        doc, family = str(r.get("source", r["id"])), str(r["id"]).split("-")[0]
        pair = []
        for c in pair_claims(r):
            key = (c.text, repr(c.scope), repr(c.window))
            if key not in ids:
                ids[key] = f"s{len(ids):05d}"
                claims.append(Claim(text=c.text, scope=c.scope, window=c.window, id=ids[key], created_at=CREATED_AT))
            where.setdefault(ids[key], set()).add((doc, family))
            pair.append(ids[key])
        labelled[frozenset(pair)] = r["label"]
    return claims, where, labelled


def place(a: str, b: str, where: dict, labelled: dict) -> str:
    """Where a finding between claims ``a`` and ``b`` falls (see the module docstring)."""
    label = labelled.get(frozenset((a, b)))
    if label is not None:
        return f"labelled {label}"
    da, db = {d for d, _ in where[a]}, {d for d, _ in where[b]}
    if da & db:
        return "one document"
    fa, fb = {f for _, f in where[a]}, {f for _, f in where[b]}
    return "two documents, one family" if fa & fb else "two families"


PLACES = ("labelled contradiction", "labelled tension", "labelled compatible", "one document",
          "two documents, one family", "two families")


def scan_set(path: str | Path, profile: str = "accurate", floor: bool = True, neighbours: int | None = None,
             min_similarity: float | None = None) -> dict:
    """``neighbours``, ``min_similarity``: the scan's candidate search (default: ``ScanConfig``'s)."""
    from guard.pipeline import Guard, GuardConfig
    from guard.scan import ScanConfig, Scanner
    from training.claim_pairs import read_rows
    rows = read_rows(path)
    claims, where, labelled = statements(rows)
    guard = Guard(GuardConfig.profile(profile))
    gate = guard.nli_gate
    if not floor and gate is not None and hasattr(gate, "gate"):
        gate.gate.min_block_similarity_ = None
    cfg = ScanConfig(progress=False)
    cfg.neighbours = cfg.neighbours if neighbours is None else neighbours
    cfg.min_similarity = cfg.min_similarity if min_similarity is None else min_similarity
    rep = Scanner(guard, cfg).scan(claims)
    counts = {t: Counter() for t in ("block", "warn")}
    examples = []
    for f in rep.findings:
        p = place(f["existing_id"], f["incoming_id"], where, labelled)
        counts[f["tier"]][p] += 1
        if f["tier"] == "block" and p == "two families" and len(examples) < 5:
            examples.append([f["existing"], f["incoming"], f.get("reason")])
    n_label = Counter(labelled.values())
    found = {t: counts[t]["labelled contradiction"] for t in counts}
    return {"set": Path(path).name, "profile": profile, "similarity_floor": floor, "neighbours": cfg.neighbours,
            "min_similarity": cfg.min_similarity, "statements": len(claims),
            "candidate_pairs": rep.pairs_compared, "seconds": round(rep.seconds, 1), "stages": rep.stage_seconds,
            "labelled_rows": dict(n_label),
            "blocks": dict(counts["block"]), "warns": dict(counts["warn"]),
            "labelled_contradictions_blocked": round(found["block"] / max(1, n_label["contradiction"]), 4),
            "labelled_contradictions_flagged": round((found["block"] + found["warn"]) / max(1, n_label["contradiction"]), 4),
            "labelled_compatible_blocked": round(counts["block"]["labelled compatible"] / max(1, n_label["compatible"]), 4),
            "unlabelled_blocks_per_1000_statements": round(1000 * sum(v for k, v in counts["block"].items()
                                                                      if not k.startswith("labelled")) / len(claims), 1),
            "two_family_block_examples": examples}


def render(reports: list[dict]) -> str:
    rows = []
    for r in reports:
        rows.append([r["set"] + ("" if r["similarity_floor"] else " (no floor)")
                     + f" (k {r['neighbours']}, cosine ≥ {r['min_similarity']})", r["statements"], r["candidate_pairs"],
                     r["labelled_contradictions_blocked"], r["labelled_contradictions_flagged"],
                     r["labelled_compatible_blocked"]]
                    + [f"{r['blocks'].get(p, 0)} / {r['warns'].get(p, 0)}" for p in PLACES[3:]]
                    + [r["unlabelled_blocks_per_1000_statements"]])
    return ("### Labelled real-prose pairs scanned as one store (`benchmarks.real_store`)\n\n"
            + md_table(["set", "statements", "candidate pairs", "labelled contradictions blocked", "… blocked or warned",
                        "labelled compatible blocked", "one document: blocks / warns", "two documents, one family",
                        "two families", "unlabelled blocks per 1,000 statements"], rows))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="*", default=["claims_dev", "claims_train"],
                    help="pair files: a name in ../shared/data/bench or a path")
    ap.add_argument("--profile", default="accurate")
    ap.add_argument("--without-floor", action="store_true", help="switch the learned gate's similarity floor off")
    ap.add_argument("--neighbours", type=int, help="bi-encoder neighbours per statement (default: the scan's)")
    ap.add_argument("--min-similarity", type=float, help="their cosine floor (default: the scan's)")
    ap.add_argument("--name", default="real_store", help="report file name")
    ap.add_argument("--out", default=str(ROOT / "results" / "real-store"))
    a = ap.parse_args(argv)
    reports = []
    for s in a.sets:
        path = Path(s) if Path(s).suffix == ".jsonl" else BENCH / f"{s}.jsonl"
        if not path.is_file():
            raise SystemExit(f"error: no pair file {path}")
        reports.append(scan_set(path, a.profile, floor=not a.without_floor, neighbours=a.neighbours,
                                min_similarity=a.min_similarity))
        print(render(reports[-1:]), flush=True)
    md = render(reports)
    name = a.name + ("_without_floor" if a.without_floor else "")
    out = write(a.out, name, {"sets": reports}, md)
    print(f"report: {out}")


if __name__ == "__main__":
    main()
