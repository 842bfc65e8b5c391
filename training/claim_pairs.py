"""Labelled claim pairs (claims_train / claims_dev format) as NLI training pairs, and the folds
that keep a document's pairs on one side of every split.

Why one module: the NLI model's fold models and the learned gate must use *the same* grouped
folds, or the gate would be fitted on scores of pairs the model memorised.

Label mapping (text-only NLI labels, decided here once):
- contradiction → contradiction, both directions (contradiction is symmetric).
- paraphrase_consistent → entailment, both directions (a paraphrase entails and is entailed).
- lexical_overlap_compatible, unrelated_cross_domain → neutral, both directions.
- tension → neutral: a recommendation against a requirement, or two preferences, can both hold;
  teaching the model "contradiction" there would make it block soft conflicts.
- scope_disjoint, time_disjoint → left out: their *texts* oppose by construction and only the
  scope or window reconciles them, which a text-only model cannot see; either label would be wrong
  for the text.
"""
from __future__ import annotations

import json
from pathlib import Path

from training.data import Pair

SHARED_BENCH = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "bench"
CLAIMS_TRAIN = SHARED_BENCH / "claims_train.jsonl"
CLAIMS_DEV = SHARED_BENCH / "claims_dev.jsonl"

_SKIP_CATEGORIES = {"scope_disjoint", "time_disjoint"}


def read_rows(path: str | Path) -> list[dict]:
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


def pair_claims(row: dict):
    """The (existing, incoming) claims of a labelled pair row, validated like any claim."""
    from guard.claims import Claim
    side = lambda d: Claim.from_dict({k: d.get(k) for k in ("text", "scope", "valid_from", "valid_until")})  # noqa: E731
    return side(row["existing"]), side(row["incoming"])


def nli_label(row: dict) -> str | None:
    """The text-level NLI label of a claim pair, or None where the text alone cannot say."""
    cat, lab = row.get("category"), row.get("label")
    if cat in _SKIP_CATEGORIES:
        return None
    if lab == "contradiction":
        return "contradiction"
    if cat == "paraphrase_consistent":
        return "entailment"
    if lab in ("compatible", "tension"):
        return "neutral"
    return None


def to_nli_pairs(rows: list[dict], source: str = "claims") -> list[Pair]:
    """Both directions of every usable pair: the gate scores both, so the model learns both."""
    out = []
    for r in rows:
        lab = nli_label(r)
        if lab is None:
            continue
        a, b = r["existing"]["text"], r["incoming"]["text"]
        out.append(Pair(a, b, lab, source))
        out.append(Pair(b, a, lab, source + ":swapped"))
    return out


def grouped_folds(rows: list[dict], k: int = 5) -> list[int]:
    """Fold index per row, grouped by ``source`` document, deterministic (no shuffling): sklearn's
    GroupKFold balances fold sizes by greedily assigning the largest groups first."""
    from sklearn.model_selection import GroupKFold
    groups = [r.get("source") or r["id"] for r in rows]
    fold = [0] * len(rows)
    for f, (_, test) in enumerate(GroupKFold(n_splits=k).split(rows, groups=groups)):
        for i in test:
            fold[i] = f
    return fold


def family_folds(rows: list[dict]) -> list[int]:
    """Fold index per row by source *family* (the id prefix: trA handbooks, trB cloud limits, trC
    config references, trD engineering guides). The learned gate's operating point is chosen on
    leave-one-family-out predictions: new documents also come from new kinds of documents, and a
    threshold that holds only within one family is what failed before."""
    fams = [str(r["id"]).split("-")[0] for r in rows]
    order = {f: i for i, f in enumerate(sorted(set(fams)))}
    return [order[f] for f in fams]
