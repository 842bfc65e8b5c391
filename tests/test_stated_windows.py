"""A validity window a statement names in its own words (guard.normalize.stated_windows), read by normalizer.rules.v2
with the real spaCy model, compared by the structural stage and held by a real SQLite store as its metadata window is."""
import datetime as dt
import time

import pytest
from conftest import structural_verdict as _verdict

from guard.claims import Claim, Norm, Scope, Window, in_force
from guard.compare import VerdictKind, effective_window
from guard.normalize.stated_windows import read_window, stated_window


def W(lo=None, hi=None):
    return Window.parse(lo, hi)


@pytest.mark.parametrize("qualifier, window", [
    ("Until March 2026", W(None, "2026-03-31")),             # the wider reading: through the month
    ("Till 2026-03-15", W(None, "2026-03-15")),
    ("Through the end of 2025", W(None, "2025-12-31")),
    ("Before June 2026", W(None, "2026-05-31")),            # "before" leaves the named span out
    ("Prior to 1 July 2025", W(None, "2025-06-30")),
    ("From April 2026", W("2026-04-01", None)),
    ("From April 2026 onwards", W("2026-04-01", None)),
    ("Starting January 1st 2026", W("2026-01-01", None)),
    ("As of 2025-06-01", W("2025-06-01", None)),
    ("Effective July 1, 2023", W("2023-07-01", None)),
    ("Since 2006", W("2006-01-01", None)),
    ("After March 2026", W("2026-04-01", None)),            # "after" starts past the named span
    ("In 2025", W("2025-01-01", "2025-12-31")),
    ("For 2023", W("2023-01-01", "2023-12-31")),
    ("During February 2024", W("2024-02-01", "2024-02-29")),
    ("Between January 2025 and March 2025", W("2025-01-01", "2025-03-31")),
    ("From 2025-12-24 to 2026-01-04", W("2025-12-24", "2026-01-04")),
])
def test_a_phrase_of_time_names_its_window(qualifier, window):
    assert stated_window(qualifier) == window


@pytest.mark.parametrize("qualifier", [
    "Until the TLS migration completes",        # no date
    "From Dec 24",                              # no year: no window in time
    "In production",
    "Since we moved to Kubernetes",
    "Between 2026 and 2024",                    # ends before it starts
    "Until March 2026, unless the CAB extends it",   # more than a date
    "On 2026-02-30",                            # no such day
    "In 12 months",                             # a span from now, not a date
    "By March 2026",                            # a deadline: the rule holds after it, not until it
])
def test_other_phrases_name_no_window(qualifier):
    assert stated_window(qualifier) is None


def test_windows_named_twice_are_their_days_in_common_and_none_when_they_share_none():
    assert read_window(("From January 2025", "Until March 2025")) == W("2025-01-01", "2025-03-31")
    assert read_window(("In 2024", "In 2025")) is None
    assert read_window(("If the cache is warm",)) is None


def test_the_normalizer_reads_the_window_and_keeps_the_subject(normalizer_v2):
    n = normalizer_v2.normalize("Until March 2026, the API accepts TLS 1.1.", Scope(), Window())
    assert n.subject == "api" and n.qualifiers == ("Until March 2026",)
    assert n.text_window == W(None, "2026-03-31") and n.window == Window()      # the given window stays as given
    assert Norm.from_dict(n.to_dict()) == n
    # a date in the main clause is what is said, not when it holds
    assert normalizer_v2.normalize("Node 18 is supported until April 2026.", Scope(), Window()).text_window is None
    # a leading "until" that names no date is a condition, no longer the subject
    n = normalizer_v2.normalize("Until the migration completes, the legacy API answers on port 80.", Scope(), Window())
    assert n.subject == "legacy api" and n.text_window is None


def test_statements_of_different_times_coexist(normalizer_v2):
    v = _verdict(normalizer_v2, "Until March 2026, the API accepts TLS 1.1.", "From April 2026 the API rejects TLS 1.1.")
    assert v.kind is VerdictKind.COEXIST
    assert v.evidence["windows"] == [{"valid_from": None, "valid_until": "2026-03-31"},
                                     {"valid_from": "2026-04-01", "valid_until": None}]
    v = _verdict(normalizer_v2, "In 2025, the on-call stipend was $250 per week.", "In 2026 the on-call stipend is $300 per week.")
    assert v.kind is VerdictKind.COEXIST


def test_overlapping_or_open_windows_still_conflict(normalizer_v2):
    # March 2026 is in both readings
    v = _verdict(normalizer_v2, "Until March 2026, the API accepts TLS 1.1.", "From March 2026 the API rejects TLS 1.1.")
    assert v.kind is VerdictKind.CONTRADICTION
    v = _verdict(normalizer_v2, "Until March 2026, the API accepts TLS 1.1.", "The API rejects TLS 1.1.")
    assert v.kind is VerdictKind.CONTRADICTION


def test_words_cannot_move_a_window_the_metadata_gives(normalizer_v2):
    a = normalizer_v2.normalize("Until March 2026, the API accepts TLS 1.1.", Scope(), W("2026-06-01", "2026-12-31"))
    assert effective_window(a) == W("2026-06-01", "2026-12-31")                 # no day in common: the metadata's
    b = normalizer_v2.normalize("In 2026, the API accepts TLS 1.1.", Scope(), W("2025-06-01", "2026-06-30"))
    assert effective_window(b) == W("2026-01-01", "2026-06-30")
    v = _verdict(normalizer_v2, "Until March 2026, the API accepts TLS 1.1.", "The API rejects TLS 1.1.",
                 W("2026-06-01", None), W("2026-06-01", None))
    assert v.kind is VerdictKind.CONTRADICTION


def test_in_force_reads_a_stated_window_as_a_metadata_one(normalizer_v2):
    at = "2026-06-01T09:00:00+00:00"
    text = "Until March 2026, the API accepts TLS 1.1."
    # ended before it was written: a statement about the past keeps its window
    assert in_force(Claim(text, created_at=at), normalizer_v2.normalize(text, Scope(), Window())).window == \
        W(None, "2026-03-31")
    text = "Until December 2026, the API accepts TLS 1.1."
    # still in force when written: from that day on, as a window-less claim
    assert in_force(Claim(text, created_at=at), normalizer_v2.normalize(text, Scope(), Window())).window == \
        W("2026-06-01", "2026-12-31")


def test_a_store_holds_each_statement_over_the_time_it_names(tmp_path, normalizer_v2):
    from guard.judge import Tier
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    s = GuardService(tmp_path / "claims.sqlite", guard=Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2))
    try:
        year = dt.date.today().year
        first = s.remember(f"Until March {year + 1}, the API accepts TLS 1.1.")
        assert first.stored
        after = s.remember(f"From April {year + 1} the API rejects TLS 1.1.")
        assert after.stored and after.decision.tier is Tier.CLEAN
        now = s.remember("The API rejects TLS 1.1.")            # holds from today: March next year is in it
        assert not now.stored and now.decision.conflicts[0].verdict.kind is VerdictKind.CONTRADICTION
        assert [c.text for c in s.list()] == [first.claim.text, after.claim.text]
    finally:
        s.close()


def test_hostile_input_is_read_in_linear_time():
    for text in ("Until " + "1 " * 50_000, "Between " + "March 2026 and " * 20_000, "from" + " " * 100_000 + "x"):
        t = time.perf_counter()
        assert stated_window(text) is None
        assert time.perf_counter() - t < 1.0
