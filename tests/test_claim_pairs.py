"""Claim pairs as NLI training data, and the grouped folds the NLI models and the gate share."""
from training.claim_pairs import grouped_folds, nli_label, read_rows, to_nli_pairs


def row(label, category, source="doc", i=0):
    return {"id": f"x-{i}", "existing": {"text": f"A {i}."}, "incoming": {"text": f"B {i}."},
            "label": label, "category": category, "source": source}


def test_label_mapping():
    assert nli_label(row("contradiction", "value_conflict")) == "contradiction"
    assert nli_label(row("compatible", "paraphrase_consistent")) == "entailment"
    assert nli_label(row("compatible", "unrelated_cross_domain")) == "neutral"
    assert nli_label(row("tension", "soft_tension")) == "neutral"
    assert nli_label(row("compatible", "scope_disjoint")) is None      # the texts oppose; only scope reconciles
    assert nli_label(row("compatible", "time_disjoint")) is None


def test_both_directions_of_each_usable_pair():
    pairs = to_nli_pairs([row("contradiction", "value_conflict"), row("compatible", "time_disjoint", i=1)])
    assert [(p.premise, p.hypothesis) for p in pairs] == [("A 0.", "B 0."), ("B 0.", "A 0.")]


def test_no_document_on_both_sides_of_a_split(shared_data):
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")
    folds = grouped_folds(rows)
    by_source = {}
    for r, f in zip(rows, folds):
        by_source.setdefault(r["source"], set()).add(f)
    assert all(len(s) == 1 for s in by_source.values())
    assert sorted(set(folds)) == [0, 1, 2, 3, 4] and folds == grouped_folds(rows)     # deterministic
