"""The learned gate's fitting table is built with the same NLI-direction rule the gate applies at
write time, and the fitted gate carries that rule (real normalizer and bi-encoder, tiny rows)."""
import numpy as np
import pytest

from guard.nli.evidence import FEATURES


def row(i, a, b, label):
    empty = {"env": None, "team": None, "tenant": None}
    return {"id": f"r{i}", "existing": {"text": a, "scope": empty, "valid_from": None, "valid_until": None},
            "incoming": {"text": b, "scope": empty, "valid_from": None, "valid_until": None},
            "label": label, "category": "x", "source": f"doc{i}"}


def probs(pc):
    return {"contradiction": pc, "entailment": (1 - pc) / 2, "neutral": (1 - pc) / 2}


def test_the_table_reads_the_second_direction_only_where_the_gate_would_score_it(gate_parts):
    from training.fit_learned_gate import fit_on
    from training.gate_data import build
    guard, embedder = gate_parts
    rows = [row(0, "Secrets are stored in Vault.", "Secrets are stored in AWS Secrets Manager.", "contradiction"),
            row(1, "Deploys happen on Tuesdays.", "Releases are tagged by the release manager.", "compatible")]
    preds = {"r0": (probs(0.7), probs(0.9)), "r1": (probs(0.2), probs(0.95))}
    table = build(rows, preds, guard, embedder, backward_below=0.5)
    pc_max, pc_min = FEATURES.index("pc_max"), FEATURES.index("pc_min")
    assert table.X[0, pc_max] == pytest.approx(0.9) and table.X[0, pc_min] == pytest.approx(0.7)
    assert table.X[1, pc_max] == pytest.approx(0.2) and table.X[1, pc_min] == pytest.approx(0.2)  # forward for both
    both = build(rows, preds, guard, embedder, backward_below=None)
    assert both.X[1, pc_max] == pytest.approx(0.95) and both.backward_below is None
    assert np.array_equal(both.X[0], table.X[0])
    # the gate fitted on a table carries the table's rule into inference
    # (pairs structure leaves to the gate; the labels only need to be learnable from the scores)
    # (named by words: "service 3" / "app 3" are numbered things, which structure itself tells apart)
    names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
             "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
             "xray"]
    many = [row(i, f"Deploys of the {names[i]} service happen on Tuesdays.", f"Releases of the {names[i]} app are tagged by hand.",
                "contradiction" if i % 2 else "compatible") for i in range(24)]
    p = {r["id"]: (probs(0.9 if r["label"] == "contradiction" else 0.1), probs(0.8)) for r in many}
    for rule in (0.5, None):
        t = build(many, p, guard, embedder, backward_below=rule)
        assert all(d is None for d in t.structural)
        gate = fit_on(t, list(range(len(many))), [i % 4 for i in range(len(many))])
        assert gate.backward_below == rule
