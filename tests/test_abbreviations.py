"""Abbreviations a statement defines, spelt out in both subjects of a pair before they are compared."""
import pytest

from guard.abbreviations import definitions, spelled_out
from guard.claims import Scope, Window
from guard.compare import Confidence, StructuralComparator, VerdictKind


@pytest.mark.parametrize("text,defined", [
    ("The recovery time objective (RTO) is 1 hour.", {"rto": "recovery time objective"}),
    ("RTO (recovery time objective) is 4 hours.", {"rto": "recovery time objective"}),
    ("When a LiSaaS Authorization to Operate (ATO) is granted, it lasts a year.", {"ato": "authorization to operate"}),
    ("Use multi-factor authentication (MFA) for all accounts.", {"mfa": "multi-factor authentication"}),
    ("Keep a Software Bill of Materials (SBOM) for each image.", {"sbom": "software bill of materials"}),
    ("We use Infrastructure as Code (IaC) tools.", {"iac": "infrastructure as code"}),
    ("Escape carriage return (CR) and line feed (LF) characters.", {"cr": "carriage return", "lf": "line feed"}),
    ("Recovery Time Objectives (RTOs) are set per service.", {"rto": "recovery time objectives"}),
])
def test_a_definition_is_read_by_the_initials_of_its_long_form(text, defined):
    assert definitions(text) == defined


@pytest.mark.parametrize("text", [
    "Releases hit stable late in the year (October).",      # not a short form
    "Timestamps use local time (UTC) here.",                # the words before do not spell it
    "Size the heap (JVM) carefully.",
    "Store times in UTC (Coordinated Universal Time).",     # a parenthesis that spells another short form
    "Backups run nightly (see the runbook).",
    "No parenthesis at all.",
])
def test_other_parentheses_define_nothing(text):
    assert definitions(text) == {}


def test_the_short_form_is_spelt_out_in_both_subjects_and_attributes(normalizer_v2):
    a, b = "The recovery time objective (RTO) is 1 hour.", "Our RTO is 4 hours."
    na, nb = (normalizer_v2.normalize(t, Scope(), Window()) for t in (a, b))
    assert nb.subject == "rto"                      # the norm itself is left as it was read
    sa, sb = spelled_out(na, a, nb, b)
    assert sa.subject == sb.subject == "recovery time objective"
    assert sb.attribute == "recovery time objective"
    assert spelled_out(nb, b, nb, b) == (nb, nb)    # no definition in either text: the same norms


def test_a_value_conflict_under_a_short_form_is_decided_by_structure(normalizer_v2):
    """"The recovery time objective (RTO) is 1 hour." / "Our RTO is 4 hours." were two subjects, left to the gate."""
    for a, b in [("The recovery time objective (RTO) is 1 hour.", "Our RTO is 4 hours."),
                 ("Our RTO is 4 hours.", "The recovery time objective (RTO) is 1 hour.")]:
        v = StructuralComparator().compare(normalizer_v2.normalize(a, Scope(), Window()), a,
                                           normalizer_v2.normalize(b, Scope(), Window()), b)
        assert (v.kind, v.confidence) == (VerdictKind.VALUE_CONFLICT, Confidence.HIGH), v
    a, b = "The recovery time objective (RTO) is 1 hour.", "Our RPO is 4 hours."      # another short form
    v = StructuralComparator().compare(normalizer_v2.normalize(a, Scope(), Window()), a,
                                       normalizer_v2.normalize(b, Scope(), Window()), b)
    assert v.kind is not VerdictKind.VALUE_CONFLICT, v


def test_a_hostile_parenthesis_run_ends_at_once():
    text = "(" * 5000 + "A" * 5000 + ")" * 5000 + " x (" + "Ab " * 3000 + ")"
    assert isinstance(definitions(text), dict)


def test_a_long_text_is_read_in_linear_time():
    """The long form was looked for by a lazy pattern tried at every position before a parenthesis: 0.6 s for
    100 KB of words with one "(" at the end, about 30 s for these five reads of 1 MB. Now only the 200 characters
    before each parenthesis are read (about 0.2 s here); the bound is loose enough for any machine this runs on."""
    import time

    def cost(n):
        text = "word " * n + "(ABC) and a b c (ABC)"
        definitions.cache_clear()
        t = time.perf_counter()
        for _ in range(5):
            definitions.cache_clear()
            assert definitions(text) == {"abc": "a b c"}
        return time.perf_counter() - t
    assert cost(200_000) < 5


def test_a_subject_cut_inside_a_defined_long_form_is_made_whole(normalizer_v2):
    """"When a LiSaaS Authorization to Operate (ATO) is granted, it is limited to one year" was about "LiSaaS
    authorization" (the subject phrase ends at "to"), while "LiSaaS ATOs are valid for three years" spells out to
    "LiSaaS authorization to operate": related subjects, so the two years were a possible conflict, not one."""
    from guard.abbreviations import _spelled, definitions
    defined = definitions("When a LiSaaS Authorization to Operate (ATO) is granted, it is limited to one year only.")
    assert _spelled("LiSaaS authorization", defined) == _spelled("LiSaaS ato", defined) == "LiSaaS authorization to operate"
    assert _spelled("authorization", {"rto": "recovery time objective"}) == "authorization"
    a, b = ("When a LiSaaS Authorization to Operate (ATO) is granted, it is limited to one year only.",
            "LiSaaS ATOs are valid for three years from the date of approval.")
    v = StructuralComparator().compare(normalizer_v2.normalize(a, Scope(), Window()), a,
                                       normalizer_v2.normalize(b, Scope(), Window()), b)
    assert v.kind is VerdictKind.VALUE_CONFLICT and v.confidence is Confidence.HIGH
