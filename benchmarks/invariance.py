"""Does a normalizer read a statement and its meaning-preserving rewrite alike? (``benchmarks.rewrites``)

Run: ``guard bench invariance [NAME …]`` or ``python -m benchmarks.invariance``. For every statement of the
gold files in benchmarks/data/ and, where ../shared is there, of claims_train and claims_dev, each rewrite
that applies is normalised beside it and the two are compared by the structural comparator, as a write
compares a claim with a stored one (both read as the guard reads a claim's text: ``claims.comparison_text``).
Counted per rewrite family and normalizer: **conflicts** (the comparator finds a contradiction, a value conflict
or a tension between a statement and its own rewrite — a false block or warn in waiting), and rewrites that change
the subject, the modality or the value's bound.
No labels are needed, so it measures a normalizer on statements nobody has labelled.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks.normalizers import GOLD, GOLD_LONG, ROOT
from benchmarks.report import md_table, write
from benchmarks.rewrites import FAMILIES, rewrites
from benchmarks.stages import DEFAULT_PAIRS, TRAIN_PAIRS
from guard.claims import Scope, Window, comparison_text
from guard.compare import StructuralComparator, VerdictKind
from guard.normalize import SafeNormalizer, get_normalizer

GOLDS = (GOLD, GOLD_LONG)
PAIR_FILES = (TRAIN_PAIRS, DEFAULT_PAIRS)
CONFLICTS = (VerdictKind.CONTRADICTION, VerdictKind.VALUE_CONFLICT, VerdictKind.TENSION)
CHANGES = ("conflict", "subject", "modality", "bound")


def default_statements() -> list[str]:
    """The gold files' statements, and the pair files' where ../shared is beside the checkout."""
    texts: set[str] = set()
    for path in GOLDS:
        texts.update(json.loads(line)["text"] for line in path.read_text().splitlines() if line.strip())
    for path in PAIR_FILES:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    texts.update(row[side]["text"] for side in ("existing", "incoming"))
    return sorted(texts)


def evaluate(name: str, statements: list[str], examples: int = 5) -> dict:
    normalizer = SafeNormalizer(get_normalizer(name))
    pairs = [(text, family, new) for text in statements for family, new in rewrites(text)]
    # each text as the guard reads it (``comparison_text``: its form folded, a document's markup off), as a write
    # normalises it: the markup families measure that reading, the others the normalizer's
    texts = list(dict.fromkeys(t for p in pairs for t in (p[0], p[2])))
    norms = dict(zip(texts, normalizer.normalize_many([(comparison_text(t), Scope(), Window()) for t in texts])))
    compare = StructuralComparator().compare
    counts: dict[str, Counter] = defaultdict(Counter)
    found: dict[str, list] = defaultdict(list)
    for text, family, new in pairs:
        a, b = norms[text], norms[new]
        counts[family]["rewrites"] += 1
        verdict = compare(a, comparison_text(text), b, comparison_text(new))
        changed = {"conflict": verdict.kind in CONFLICTS, "subject": a.subject != b.subject,
                   "modality": a.modality != b.modality, "bound": a.bound != b.bound}
        for k, v in changed.items():
            counts[family][k] += v
        if changed["conflict"] and len(found[family]) < examples:
            found[family].append({"statement": text, "rewrite": new, "verdict": verdict.kind.value,
                                  "reason": verdict.reason})
    by_family = {f: {k: counts[f][k] for k in ("rewrites", *CHANGES)} for f in FAMILIES if counts[f]["rewrites"]}
    total = {k: sum(c[k] for c in by_family.values()) for k in ("rewrites", *CHANGES)}
    return {"statements": len(statements), "by_family": by_family, "total": total, "conflict_examples": dict(found)}


def main(names: list[str] | None = None, statements: list[str] | None = None, limit: int | None = None,
         out_dir: Path = ROOT / "results" / "normalizers") -> dict:
    names = names or ["normalizer.rules.v1", "normalizer.rules.v2"]
    statements = statements if statements is not None else default_statements()
    if limit:
        statements = statements[:limit]
    results = {name: evaluate(name, statements) for name in names}
    md = [f"## Meaning-preserving rewrites ({len(statements)} statements; `benchmarks.rewrites`)", "",
          ("Per rewrite family: how many rewrites applied, how many a statement's structural comparison with its "
           "own rewrite calls a conflict (contradiction, value conflict or tension), and how many change the "
           "subject, the modality or the value's bound."), ""]
    rows = [[name, family, *[r["by_family"][family][k] for k in ("rewrites", *CHANGES)]]
            for name, r in results.items() for family in r["by_family"]]
    rows += [[name, "**all**", *[r["total"][k] for k in ("rewrites", *CHANGES)]] for name, r in results.items()]
    md += [md_table(["normalizer", "rewrite", "rewrites", "conflicts", "subject changed", "modality changed",
                     "bound changed"], rows), ""]
    for name, r in results.items():
        for family, exs in r["conflict_examples"].items():
            md += [f"Conflicts, {name}, {family}:", ""] + [f"- \"{e['statement']}\" / \"{e['rewrite']}\": {e['reason']}"
                                                           for e in exs] + [""]
    md = "\n".join(md)
    write(out_dir, "invariance", {"normalizers": names, "results": results}, md)
    print(md)
    return results


if __name__ == "__main__":
    import sys
    main(sys.argv[1:] or None)
