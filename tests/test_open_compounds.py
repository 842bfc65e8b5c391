"""A compound modifier written without its hyphen (guard.normalize.open_compounds), read by normalizer.rules.v2 as it
reads the statement with it, with the real spaCy model and its lemmatizer's tables; the same words as a phrase of the
clause are left as written."""
import time

import pytest

from guard.claims import Scope, Window
from guard.normalize.open_compounds import hyphenated


def reading(n, text):
    x = n.normalize(text, Scope(), Window())
    return x.subject, x.modality, x.object, x.value, x.bound, x.attribute


def tables(n):
    return n._nouns, n._verbs, n._stop_words


@pytest.mark.parametrize("text", [
    "Each on-call shift is limited to 7 days.",
    "All in-person travel requires a Meetup Champion.",
    "Auth0's built-in email provider may be used for load tests.",
    "Git's built-in gc.auto threshold is 10,000 loose objects.",
    "Hitting the FIFO in-flight cap makes SQS throw an OverLimit error.",
    "Out-of-band authentication requests must have a maximum lifetime of 10 minutes.",
    "Use end-to-end encryption for customer exports.",
    "Third-party cookies are blocked on the checkout pages.",
    "Releases are an append-only ledger and a release cannot be mutated once it is created.",
    # a number and a measure before a noun (session 86: "twelve factor app" was "factor app", valued 12)
    "A six-digit numeric passcode is sufficient for company iPhones.",
    "A twelve-factor app never relies on system-wide packages.",
    "Use ISO two-letter country codes in every address form.",
    "There is a 240-hour limit on the annual leave you can carry over.",
])
def test_a_compound_without_its_hyphens_reads_as_with_them(normalizer_v2, text):
    assert reading(normalizer_v2, text.replace("-", " ")) == reading(normalizer_v2, text)


@pytest.mark.parametrize("text", [
    "Alice is on call this week.",                        # a predicate, not a modifier: a stop word follows
    "The engineer on call must acknowledge within 5 minutes.",
    "Users must opt in to marketing emails.",
    "The on call rotates weekly.",                         # an inflected verb follows
    "The cache built in memory is small.",                 # a verb's compound after a noun: that noun's verb
    "Users read only public docs.",
    "Dashboards are built in Grafana.",                    # after "are": a passive and its preposition
    "Emailed one time codes are an approved authenticator.",   # not listed: "one time zone"
    "We open source our libraries.",
    "Keep dependencies up to date.",
    "Passwords need at least two digits and one letter.",     # plurals: a count of them
    "Keep 2 days of logs.",
    "Rotate the key every 2 day and notify the team.",        # no noun after the measure
    "Version 1.5 hour limits apply.",                          # a number inside a version
])
def test_the_same_words_as_a_phrase_of_the_clause_stay_as_written(normalizer_v2, text):
    assert hyphenated(text, *tables(normalizer_v2)) == text


def test_an_order_keeps_its_verb_and_the_compound_after_it_is_joined(normalizer_v2):
    assert hyphenated("Use read only replicas for reports.", *tables(normalizer_v2)) == \
        "Use read-only replicas for reports."
    assert hyphenated("on call engineers must ack pages.", *tables(normalizer_v2)) == \
        "on-call engineers must ack pages."
    # no tables (a pipeline without a lemmatizer): as written
    assert hyphenated("Each on call shift is short.", frozenset(), frozenset(), frozenset()) == \
        "Each on call shift is short."


def test_hostile_input_is_read_in_linear_time(normalizer_v2):
    text = "a" * 100_000 + " on call shift " + "on call " * 20_000 + "x"
    many = "built in data " * 30_000         # every match looks at the word before it
    counted = "2 " * 50_000 + "6 digit code"
    t = time.perf_counter()
    out = hyphenated(text, *tables(normalizer_v2))
    joined = hyphenated(many, *tables(normalizer_v2))
    hyphened = hyphenated(counted, *tables(normalizer_v2))
    assert time.perf_counter() - t < 2.0
    assert hyphened.endswith("6-digit code")
    assert out.startswith("a" * 100_000 + " on-call shift") and joined.startswith("built-in data built in data")
