"""Gates fitted on one kind of out-of-fold scores and judged on another (``benchmarks.gate_regimes``), on tiny tables
built by the real normalizer and bi-encoder."""
import numpy as np
import pytest

from tests.test_gate_data import probs

NAMES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
         "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray"]


def row(i):
    empty = {"env": None, "team": None, "tenant": None}
    return {"id": f"r{i}", "label": "contradiction" if i % 2 else "compatible", "category": "x", "source": f"doc{i}",
            "existing": {"text": f"The {NAMES[i]} team reviews incidents weekly.", "scope": empty,
                         "valid_from": None, "valid_until": None},
            "incoming": {"text": f"The {NAMES[i]} team holds a retrospective after each incident.", "scope": empty,
                         "valid_from": None, "valid_until": None}}


@pytest.fixture(scope="module")
def tables(gate_parts):
    from training.gate_data import build
    guard, embedder = gate_parts
    rows = [row(i) for i in range(len(NAMES))]
    rng = np.random.default_rng(0)
    # scores that tell the labels apart (a model that saw the kind of document) and scores that barely do
    sharp = {r["id"]: (probs(0.9 if r["label"] == "contradiction" else 0.1),) * 2 for r in rows}
    blunt = {r["id"]: (probs(float(rng.uniform(0.3, 0.7))),) * 2 for r in rows}
    return {"document": build(rows, sharp, guard, embedder), "family": build(rows, blunt, guard, embedder)}


def test_a_stacked_table_holds_both_evidences_row_by_row(tables):
    from benchmarks.gate_regimes import stacked
    a, b = tables["document"], tables["family"]
    t = stacked(a, b)
    n = len(a.rows)
    assert len(t.rows) == len(t.y) == len(t.structural) == len(t.norms) == len(t.verdicts) == t.X.shape[0] == 2 * n
    assert np.array_equal(t.X[:n], a.X) and np.array_equal(t.X[n:], b.X)
    assert t.predicate_similarities == a.predicate_similarities + b.predicate_similarities
    assert len(a.rows) == n and a.X.shape[0] == n          # its inputs are left as they were


def test_a_gate_is_judged_on_the_evidence_it_is_given_not_the_one_it_was_fitted_on(tables):
    from benchmarks.gate_regimes import cross_judged
    folds = [(i // 2) % 4 for i in range(len(NAMES))]         # each fold holds both labels
    families = [(i // 2) % 3 for i in range(len(NAMES))]
    judged = cross_judged("document", tables, ("document", "family"), folds, families, 1.0)
    on_sharp, on_blunt = judged["document"], judged["family"]
    assert on_sharp["recall"] > 0.5 and on_sharp["false_block"] == 0.0
    assert on_blunt["f1"] < on_sharp["f1"]
    assert set(on_sharp["f1_at_false_block"]) == {"1%", "2%", "3%", "5%"}
