"""Hard negatives for the learned gate (``training.store_negatives``): unlabelled cross-family
store-scan pairs enter the classifier's fit at a small weight, never the operating point, and never
a fold that shares their documents."""
import json

import numpy as np
import pytest
from conftest import ROOT
from test_learned_gate import synthetic

from guard.nli.evidence import FEATURES
from guard.nli.learned_gate import LearnedGate


def strangers(n=200, seed=1):
    """Compatible pairs the labelled ones never show: the evidence of a contradiction (high pc_max)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, len(FEATURES)))
    X[:, FEATURES.index("pc_max")] = rng.normal(1.5, 0.3, n)
    return X


def test_negatives_lower_p_contradiction_where_they_lie_and_not_the_operating_points_counts():
    X, y, folds = synthetic(400)
    neg = strangers()
    plain = LearnedGate().fit(X, y, folds)
    weighted = LearnedGate(negative_weight=0.2).fit(X, y, folds, negatives=neg, negative_groups=[frozenset({0})] * len(neg))
    assert weighted.predict_proba(neg)[:, 0].mean() < plain.predict_proba(neg)[:, 0].mean() - 0.05
    # the operating point is still chosen on the labelled rows' out-of-fold predictions
    assert weighted.oof_proba_.shape == (len(y), 3)
    assert weighted.n_negatives_ == len(neg) and plain.n_negatives_ == 0


def test_weight_zero_or_no_negatives_fit_exactly_as_before():
    X, y, folds = synthetic(300)
    a = LearnedGate().fit(X, y, folds)
    b = LearnedGate(negative_weight=0.0).fit(X, y, folds, negatives=strangers(), negative_groups=[frozenset({0})] * 200)
    assert np.array_equal(a.coef_, b.coef_) and a.block_threshold_ == b.block_threshold_


def test_an_inner_fold_never_fits_on_a_negative_of_its_own_group():
    X, y, folds = synthetic(300)
    neg = strangers()
    g = LearnedGate(negative_weight=0.5)
    plain = g.cross_val_proba(X, y, folds)
    # every negative belongs to group 2: fold 2's predictions are those without negatives
    mine = g.cross_val_proba(X, y, folds, neg, [frozenset({2})] * len(neg))
    f = np.asarray(folds)
    assert np.allclose(mine[f == 2], plain[f == 2]) and not np.allclose(mine[f == 0], plain[f == 0])


def test_negatives_without_groups_are_refused():
    X, y, folds = synthetic(100)
    with pytest.raises(ValueError, match="groups"):
        LearnedGate(negative_weight=0.1).fit(X, y, folds, negatives=strangers(10))


def test_the_weight_and_count_are_saved_and_an_older_gate_loads_without_them(tmp_path):
    X, y, folds = synthetic(300)
    neg = strangers(50)
    g = LearnedGate(negative_weight=0.1).fit(X, y, folds, negatives=neg, negative_groups=[frozenset({1})] * 50)
    g.save(tmp_path / "g.json")
    back = LearnedGate.load(tmp_path / "g.json")
    assert back.negative_weight == 0.1 and back.n_negatives_ == 50
    assert np.allclose(back.predict_proba(X), g.predict_proba(X))
    d = json.loads((tmp_path / "g.json").read_text())
    del d["params"]["negative_weight"], d["negatives"]
    (tmp_path / "old.json").write_text(json.dumps(d))
    old = LearnedGate.load(tmp_path / "old.json")
    assert old.negative_weight == 0.0 and old.n_negatives_ == 0


def _row(rid, source, existing, incoming, label="compatible"):
    side = lambda t: {"text": t, "scope": {"env": None, "team": None, "tenant": None},
                      "valid_from": None, "valid_until": None}
    return {"id": rid, "source": source, "existing": side(existing), "incoming": side(incoming), "label": label}


ROWS = [_row("trA-1", "handbook/leave.md", "Employees get 25 days of paid leave per year.",
             "Paid leave is 25 days a year for every employee."),
        _row("trA-2", "handbook/expenses.md", "Hotel stays on customer trips are reimbursed.",
             "The company pays for hotels when you visit a customer."),
        _row("trB-1", "cloud/hr-api.md", "Employees get 25 API requests of paid leave data per day.",
             "Paid leave API calls are limited to 25 a day for every employee."),
        _row("trB-2", "cloud/quotas.md", "A project may create at most 50 buckets.",
             "The bucket limit per project is 50.")]


def test_cross_family_rows_are_scan_candidates_between_two_families_only():
    from training.store_negatives import cross_family_rows
    out = cross_family_rows(ROWS)
    assert out, "the two families' statements about 25 days should be candidates"
    for r in out:
        assert r["label"] == "compatible" and len(r["families"]) == 2
        assert r["existing"]["text"] != r["incoming"]["text"] and "scope" not in r["existing"]
        assert len(r["documents"]) == 2
    assert len({r["id"] for r in out}) == len(out)


def test_fit_on_uses_only_negatives_whose_documents_it_fits_on():
    from types import SimpleNamespace

    from training.fit_learned_gate import negative_rows
    table = SimpleNamespace(rows=[{"id": "a", "source": "d1"}, {"id": "b", "source": "d2"}, {"id": "c", "source": "d3"}])
    negs = SimpleNamespace(rows=[{"documents": ["d1", "d2"]}, {"documents": ["d1", "d3"]}, {"documents": ["d2", "d3"]}],
                           structural=[None, None, "block"], X=np.arange(3 * len(FEATURES)).reshape(3, -1).astype(float))
    X, groups = negative_rows(negs, table, [0, 1], [7, 8, 9])
    # d3 is not fitted on: only the first negative; the third is structure's anyway
    assert len(X) == 1 and groups == [frozenset({7, 8})]
    X, groups = negative_rows(negs, table, [0, 1, 2], [7, 8, 9])
    assert len(X) == 2 and groups == [frozenset({7, 8}), frozenset({7, 9})]


_P = {"contradiction": 0.1, "neutral": 0.8, "entailment": 0.1}
_GOOD = {"id": "x", "existing": {"text": "a"}, "incoming": {"text": "b"}, "documents": ["d1", "d2"],
         "forward": _P, "backward": _P}


@pytest.mark.parametrize("bad", [
    {"id": "y"},
    {**_GOOD, "forward": [0.1, 0.8, 0.1]},
    {**_GOOD, "backward": {**_P, "contradiction": "high"}},
    {**_GOOD, "backward": {**_P, "contradiction": 7}},
    {**_GOOD, "documents": []},
    {**_GOOD, "incoming": "b"},
    "not an object",
])
def test_a_damaged_negatives_file_is_refused_in_one_line(tmp_path, bad):
    from training.store_negatives import Negatives
    f = tmp_path / "n.jsonl"
    f.write_text(json.dumps(_GOOD) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ValueError, match=r"n\.jsonl:2: not a negatives row") as exc:
        Negatives.read(f)
    assert "\n" not in str(exc.value)
    f.write_text(json.dumps(_GOOD) + "\n")
    assert len(Negatives.read(f).rows) == 1


@pytest.mark.skipif(not (ROOT / "results" / "claims-cv" / "negatives_nli_nli-minilm-l6-v2.jsonl").exists(),
                    reason="the default model's negatives file is not in this checkout")
def test_the_shipped_negatives_file_is_cross_family_and_scored():
    from training.store_negatives import Negatives
    neg = Negatives.read(ROOT / "results" / "claims-cv" / "negatives_nli_nli-minilm-l6-v2.jsonl")
    assert len(neg.rows) > 1000
    assert all(len({f for f in r["families"]}) >= 2 for r in neg.rows)
    f, b = neg.predictions[neg.rows[0]["id"]]
    assert abs(sum(f.values()) - 1) < 1e-2 and abs(sum(b.values()) - 1) < 1e-2


@pytest.mark.parametrize("args, says", [
    (["training/recipes/nope.json"], "no such file"),
    (["training/recipes/nli-minilm-l6-v2.json", "--pairs", "{tmp}/missing.jsonl"], "no pair file"),
    (["training/recipes/nli-minilm-l6-v2.json", "--pairs", "{tmp}/bad.jsonl"], "not a pair file"),
])
def test_store_negatives_refuses_bad_input_in_one_line(tmp_path, args, says):
    import subprocess
    import sys
    (tmp_path / "bad.jsonl").write_text("nonsense\n")
    out = tmp_path / "neg.jsonl"
    r = subprocess.run([sys.executable, "-m", "training.store_negatives", *[a.format(tmp=tmp_path) for a in args],
                        "--out", str(out)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 2 and says in r.stderr, r.stderr
    # argparse's usage, then one line that names the problem
    assert "Traceback" not in r.stderr and r.stderr.strip().splitlines()[-1].startswith("store_negatives.py: error:")
    assert not out.exists()


def test_fit_learned_gate_refuses_a_missing_negatives_file_before_any_work(tmp_path):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "training.fit_learned_gate", "training/recipes/nli-minilm-l6-v2.json",
                        "--negative-weight", "0.02", "--negatives", str(tmp_path / "none.jsonl")],
                       capture_output=True, text=True, cwd=ROOT, check=False, timeout=120)
    assert r.returncode == 2 and "no negatives file" in r.stderr and "Traceback" not in r.stderr, r.stderr
