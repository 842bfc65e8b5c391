"""Benchmark metrics on hand-made inputs with known answers."""
import pytest

from benchmarks.metrics import (block_prf, bootstrap_ci, false_block_rate, fit_threshold, per_category_ci,
                                per_category_recall, summarize, tension_warn_share, tier_confusion)

LABELS = ["contradiction", "contradiction", "contradiction", "compatible", "compatible", "tension"]
TIERS = ["block", "block", "clean", "block", "clean", "warn"]
CATS = ["value", "modal", "modal", "unrelated", "paraphrase", "soft"]


def test_block_prf_known_answer():
    m = block_prf(LABELS, TIERS)
    assert m["precision"] == pytest.approx(2 / 3)
    assert m["recall"] == pytest.approx(2 / 3)
    assert m["f1"] == pytest.approx(2 / 3)
    assert block_prf(["compatible"], ["clean"])["f1"] == 0.0


def test_false_blocks_and_tension():
    fb = false_block_rate(LABELS, TIERS, CATS)
    assert fb["overall"] == 0.5
    assert fb["by_category"] == {"paraphrase": 0.0, "unrelated": 1.0}
    assert tension_warn_share(LABELS, TIERS) == 1.0
    assert tension_warn_share(LABELS, ["clean"] * 6) == 0.0


def test_confusion_rows_are_gold():
    c = tier_confusion(LABELS, TIERS)["rows_gold_cols_predicted"]
    assert c == [[2, 0, 1], [0, 1, 0], [1, 0, 1]]


def test_per_category_recall():
    assert per_category_recall(LABELS, TIERS, CATS) == {"modal": 0.5, "paraphrase": 1.0, "soft": 1.0,
                                                         "unrelated": 0.0, "value": 1.0}


def test_bootstrap_interval_brackets_the_point_estimate():
    labels = LABELS * 20
    tiers = TIERS * 20
    lo, hi = bootstrap_ci(labels, tiers, lambda la, ti: block_prf(la, ti)["f1"], n=300)
    assert lo < 2 / 3 < hi and hi - lo < 0.4
    lo, hi = bootstrap_ci(["contradiction"] * 10, ["block"] * 10, lambda la, ti: block_prf(la, ti)["f1"], n=50)
    assert lo == hi == 1.0


def test_fit_threshold_finds_the_separating_score():
    scores = [0.9, 0.8, 0.7, 0.4, 0.3, 0.2]
    labels = ["contradiction"] * 3 + ["compatible"] * 3
    assert fit_threshold(scores, labels) == 0.7


def test_summarize_has_latency_and_ci():
    s = summarize(LABELS, TIERS, CATS, seconds=0.6, bootstrap=50)
    assert s["ms_per_pair"] == pytest.approx(100.0)
    assert s["f1_ci95"][0] <= s["f1"] <= s["f1_ci95"][1]


def test_per_category_intervals_hold_the_share_and_narrow_with_more_pairs():
    ci = per_category_ci(LABELS, TIERS, CATS)
    shares = per_category_recall(LABELS, TIERS, CATS)
    for c, (lo, hi, n) in ci.items():
        assert 0 <= lo <= shares[c] <= hi <= 1 and n == CATS.count(c)
    small = per_category_ci(["contradiction", "compatible"] * 5, ["block", "block"] * 5, ["x"] * 10)["x"]
    big = per_category_ci(["contradiction", "compatible"] * 50, ["block", "block"] * 50, ["x"] * 100)["x"]
    assert big[1] - big[0] < small[1] - small[0] and abs((big[0] + big[1]) / 2 - 0.5) < 0.05


def test_growth_exponent_reads_the_power_law():
    from benchmarks.metrics import growth_exponent
    assert abs(growth_exponent([1e3, 1e4, 1e5], [2.0, 20.0, 200.0]) - 1.0) < 1e-9
    assert abs(growth_exponent([1e3, 1e4, 1e5], [1.0, 100.0, 1e4]) - 2.0) < 1e-9
    assert growth_exponent([1e3], [5.0]) is None and growth_exponent([1e3, 1e3], [1.0, 2.0]) is None


def test_f1_at_a_common_false_block_rate_needs_no_threshold():
    from benchmarks.metrics import f1_at_false_block
    inf = float("inf")
    labels = ["contradiction"] * 4 + ["compatible"] * 10 + ["tension"]
    scores = [inf, 0.9, 0.6, -inf] + [0.95, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05, 0.01, 0.0, -inf] + [0.99]
    at0 = f1_at_false_block(labels, scores, 0.0)       # nothing compatible may block: only above 0.95
    assert at0["false_block"] == 0.0 and at0["recall"] == 0.25          # structure's block (inf) only
    at10 = f1_at_false_block(labels, scores, 0.1)      # one compatible pair of ten may block: above 0.5
    assert at10["false_block"] == 0.1 and at10["recall"] == 0.75
    assert at10["precision"] == round(3 / 5, 4)        # the tension pair at 0.99 blocks too and counts against it
    # a pair that can never block (-inf) stays out at any rate
    assert f1_at_false_block(labels, scores, 1.0)["recall"] == 0.75
