"""The named thing a leading phrase narrows a statement to (guard.normalize.lead_phrases), read by normalizer.rules.v2
with the real spaCy model and compared by the structural stage: two names are two things; a statement without such a
phrase is about every one of them."""
import time

import pytest
from conftest import structural_verdict as _verdict

from guard.claims import Scope, Window
from guard.compare import VerdictKind
from guard.normalize.lead_phrases import (
    KIND,
    lead_phrase_variant,
    lead_phrase_variants,
    names_apart,
)


@pytest.mark.parametrize("qualifier, name", [
    ("On gateway v10", "gateway v10"),
    ("In Postgres 16", "postgres 16"),
    ("Under GDPR", "gdpr"),
    ("For `payments-api`", "payments-api"),
    ("For the Payouts API", "payouts api"),
    ("On AWS", "aws"),
])
def test_a_leading_phrase_that_names_a_thing_is_a_variant(qualifier, name):
    assert lead_phrase_variant(qualifier) == (KIND, name)


@pytest.mark.parametrize("qualifier", [
    "For the payments service",          # common nouns: maybe the other's class
    "In production", "In Production",    # an environment is the scope (text_scope)
    "On Fridays",                        # when, not which
    "In 2025", "Until March 2026",       # a window (stated_windows)
    "If the cache is warm",              # a condition
    "For services that are Internal",    # a clause
    "In 3",
])
def test_other_leading_phrases_are_no_variant(qualifier):
    assert lead_phrase_variant(qualifier) is None


def test_only_a_phrase_that_opens_the_text_counts():
    text = "Node.js 18+ is supported, with 22 LTS recommended."
    assert lead_phrase_variants(text, ("with 22 LTS recommended",)) == ()
    assert lead_phrase_variants("On gateway v10 the timeout is 30 seconds.", ("On gateway v10",)) == ((KIND, "gateway v10"),)


def test_names_are_apart_unless_one_is_within_the_other():
    assert names_apart({"postgres 16"}, {"postgres 15"})
    assert not names_apart({"postgres"}, {"postgres 16"})
    assert not names_apart({"gdpr"}, {"gdpr"})


@pytest.mark.parametrize("a, b", [
    ("On gateway v10 the timeout is 30 seconds.", "On gateway v11 the timeout is 60 seconds."),
    # a role the phrase's thing holds is its own ("the default" of Postgres 16, not of every version)
    ("In Postgres 16 the default max_connections is 100.", "In Postgres 15 the default max_connections is 200."),
    ("Under GDPR, personal data must be deleted within 30 days.", "Under CCPA, personal data must be deleted within 45 days."),
])
def test_statements_about_two_named_things_coexist(normalizer_v2, a, b):
    v = _verdict(normalizer_v2, a, b)
    assert v.kind is VerdictKind.COEXIST, v
    v = _verdict(normalizer_v2, b, a)
    assert v.kind is VerdictKind.COEXIST, v


@pytest.mark.parametrize("a, b", [
    # one named thing and a case of it, or the thing and every one of its kind
    ("In Postgres the default max_connections is 100.", "In Postgres 16, the default max_connections is 200."),
    ("On gateway v10 the timeout is 30 seconds.", "The gateway timeout is 60 seconds."),
    # "only" speaks of the others too
    ("Only on gateway v10 is the timeout 30 seconds.", "On gateway v11 the timeout is 30 seconds."),
    # common nouns are no names: left as they were (a value conflict)
    ("For the payments service, the timeout is 30 seconds.", "For the search service, the timeout is 5 seconds."),
])
def test_a_thing_and_a_case_of_it_or_unnamed_things_still_compare(normalizer_v2, a, b):
    assert _verdict(normalizer_v2, a, b).kind is not VerdictKind.COEXIST


def test_a_store_keeps_two_versions_and_refuses_a_second_value_for_one(tmp_path, normalizer_v2):
    from guard.judge import Tier
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    s = GuardService(tmp_path / "claims.sqlite", guard=Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2))
    try:
        assert s.remember("On gateway v10 the timeout is 30 seconds.").stored
        second = s.remember("On gateway v11 the timeout is 60 seconds.")
        assert second.stored and second.decision.tier is Tier.CLEAN
        same = s.remember("On gateway v10 the timeout is 45 seconds.")          # one version, two values
        assert same.decision.tier is not Tier.CLEAN
        assert same.decision.conflicts[0].verdict.kind is VerdictKind.VALUE_CONFLICT
    finally:
        s.close()


def test_hostile_input_is_read_in_linear_time():
    for q in ("On " + "a " * 50_000, "For " + "`x" * 50_000, "In " + "Postgres 16 " * 20_000):
        t = time.perf_counter()
        assert lead_phrase_variant(q) is None
        assert time.perf_counter() - t < 1.0


@pytest.mark.parametrize("a, b", [
    ("Logs are retained for 30 days in hot storage.", "Logs are retained for 1 year in cold storage."),
    ("The cache TTL is 5 minutes for user profiles.", "The cache TTL is 1 hour for product listings."),
    ("The retention period for audit logs is 7 years.", "The retention period for debug logs is 14 days."),
])
def test_values_narrowed_to_different_things_are_left_to_the_gate(normalizer_v2, a, b):
    """A phrase after the verb or its value that narrows it ("in hot storage") makes a value conflict unsure, never a
    coexistence: common nouns may be one thing and a case of it (guard.normalize.subject_phrases.predicate_phrases)."""
    v = _verdict(normalizer_v2, a, b)
    assert v.kind is VerdictKind.UNCERTAIN and v.confidence.value == "LOW" and "narrow" in v.reason, v


@pytest.mark.parametrize("a, b", [
    ("Logs are retained for 30 days in hot storage.", "Logs are retained for 90 days in hot storage."),   # one place
    ("Logs are retained for 30 days in hot storage.", "Logs are retained for 1 year."),                   # every place
    ("The retention period for audit logs is 7 years.", "The retention period for audit logs is 5 years."),
    ("The API is served with TLS 1.2.", "The API is served with TLS 1.3."),                               # the value
])
def test_values_of_one_thing_still_conflict(normalizer_v2, a, b):
    assert _verdict(normalizer_v2, a, b).kind is VerdictKind.VALUE_CONFLICT


@pytest.mark.parametrize("text, phrases", [
    ("Logs are retained for 30 days in hot storage.", (("in-predicate", "hot storage"),)),
    ("The cache TTL is 5 minutes for user profiles.", (("for-predicate", "user profiles"),)),
    ("Sessions expire after 30 minutes for all users.", (("for-predicate", "users"),)),
    ("Logs are retained for 30 days.", ()),                          # a quantity is the value, not a narrowing
    ("The API is served with TLS 1.2.", ()),                         # "with": often the value itself
    ("Logins from Russia are blocked.", ()),                         # "from": a name's (subject_phrases)
    ("The retention period for audit logs is 7 years.", (("for-predicate", "audit logs"),)),   # on the subject
    ("Backups are stored in 2 regions.", ()),
])
def test_a_phrase_that_narrows_the_verb_or_its_value(normalizer_v2, text, phrases):
    from guard.normalize.subject_phrases import predicate_phrases
    assert predicate_phrases(normalizer_v2.nlp(text)) == phrases


@pytest.mark.parametrize("a, b", [
    ("All new services must be written in Go.", "New services may be written in Python."),
    ("Feature flags are managed in LaunchDarkly.", "Feature flags are managed in Unleash."),
    ("On-call handoff happens at 9am on Mondays.", "On-call handoff happens at 9am on Fridays."),
])
def test_a_phrase_that_holds_the_value_is_what_is_said(normalizer_v2, a, b):
    """"in Go" / "in Python" is the value, not where it holds: no narrowing phrase, so the values still conflict."""
    na, nb = (normalizer_v2.normalize(t, Scope(), Window()) for t in (a, b))
    assert not [v for v in na.variants + nb.variants if v[0].endswith("-predicate")]
