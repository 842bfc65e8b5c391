"""A statement written without its first capital (guard.normalize.sentence_case), read by normalizer.rules.v2 as it reads
the statement with it, with the real spaCy model and its lemmatizer's tables."""
import pytest

from guard.claims import Scope, Window
from guard.normalize.sentence_case import english_words, sentence_case


def reading(n, text):
    x = n.normalize(text, Scope(), Window())
    return x.subject, x.modality, x.object, x.value, x.bound, x.attribute


@pytest.mark.parametrize("text", [
    "Paid parental leave is 26 weeks at full pay.",
    "Stopped Fly Machines are still billed for CPU and RAM.",
    "Delete idle Pub/Sub subscriptions to avoid retention charges.",
    "Disable remote root user logins over SSH.",
    "Refresh tokens expire after 30 days.",
    "Escalate to the manager on duty if there is still no acknowledgment within 30 minutes.",
    "Only Owners may toggle Spike Protection in our Sentry org.",
    "Never deploy on Fridays.",
])
def test_a_statement_without_its_first_capital_reads_as_with_it(normalizer_v2, text):
    assert reading(normalizer_v2, text[:1].lower() + text[1:]) == reading(normalizer_v2, text)


@pytest.mark.parametrize("text, expected", [
    ("paid leave is 26 weeks.", "Paid leave is 26 weeks."),
    ("running jobs are never killed.", "Running jobs are never killed."),
    ("stopped machines are billed.", "Stopped machines are billed."),
    ("never deploy on fridays", "Never deploy on fridays"),
    # a lower-case name means its case: tools, settings, identifiers
    ("etcd rejects requests larger than 512 KiB.", "etcd rejects requests larger than 512 KiB."),
    ("journald keeps 100 files.", "journald keeps 100 files."),
    ("gc.auto is 6700.", "gc.auto is 6700."),
    ("max_connections is 500.", "max_connections is 500."),
    ("api-version values follow semver.", "api-version values follow semver."),
    ("iOS apps need review.", "iOS apps need review."),
    ("", ""),
])
def test_only_an_english_first_word_gets_its_capital(normalizer_v2, text, expected):
    assert sentence_case(text, *english_words(normalizer_v2.nlp)) == expected


def test_without_a_lemmatizer_nothing_changes():
    import spacy
    assert english_words(spacy.blank("en")) == (frozenset(), frozenset())
    assert sentence_case("paid leave is 26 weeks.", frozenset(), frozenset()) == "paid leave is 26 weeks."
