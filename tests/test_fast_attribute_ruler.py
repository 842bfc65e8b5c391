"""The normalizer's faster spaCy components give exactly spaCy's annotations: the attribute ruler
matched by lookups and the remembered lemmatizer, token by token, on real statements and odd input."""
import pytest

ODD = ["", "   ", "\n\n", "Y'all gotta go, gonna be fine, let's go!  c'mon", "I ain't sure it is there.",
       "There are two.\tThere is one.", "but it is.", "Ünïcödé façade — naïve café’s “quotes”.",
       "DO NOT deploy on Fridays!!!", "x" * 500, "a.b.c 1.2.3 $5/week 10:00 am (see §4.2)"]


@pytest.fixture(scope="module")
def pipelines():
    from guard.normalize.rules import SPACY_MODEL, import_spacy
    spacy = import_spacy()
    return spacy.load(SPACY_MODEL, disable=["ner"]), spacy.load(SPACY_MODEL, disable=["ner"])


def _annotations(doc):
    return [(t.text, t.pos_, t.tag_, str(t.morph), t.lemma_, t.dep_) for t in doc]


def _texts(shared_data):
    from training.claim_pairs import read_rows
    rows = read_rows(shared_data / "bench" / "claims_dev.jsonl")
    return list(dict.fromkeys(t for r in rows for t in (r["existing"]["text"], r["incoming"]["text"]))) + ODD


def test_lookup_ruler_and_memo_lemmatizer_annotate_like_spacy(pipelines, shared_data):
    from guard.normalize.fast_attribute_ruler import FACTORY, speed_up
    from guard.normalize.fast_lemmatizer import memoize_lemmatizer
    plain, fast = pipelines
    memoize_lemmatizer(speed_up(fast))
    assert fast.pipe_names == plain.pipe_names or FACTORY in fast.pipe_names
    assert type(fast.get_pipe("attribute_ruler")).__name__ == "FastAttributeRuler"
    texts = _texts(shared_data)
    for _ in range(2):                     # the second pass answers from the lemmatizer's memo
        for a, b in zip(plain.pipe(texts), fast.pipe(texts)):
            assert _annotations(a) == _annotations(b), a.text


def test_a_pattern_the_lookup_matcher_cannot_read_keeps_spacys_ruler():
    from guard.normalize.fast_attribute_ruler import speed_up
    from guard.normalize.rules import import_spacy
    nlp = import_spacy().blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "a", "OP": "+"}]], {"LEMMA": "x"})       # a quantifier
    speed_up(nlp)
    assert type(nlp.get_pipe("attribute_ruler")).__name__ == "AttributeRuler"


def test_the_lemma_memo_is_bounded(pipelines, monkeypatch):
    import guard.normalize.fast_lemmatizer as fl
    from guard.normalize.rules import SPACY_MODEL, import_spacy
    monkeypatch.setattr(fl, "MAX_ENTRIES", 5)
    nlp = fl.memoize_lemmatizer(import_spacy().load(SPACY_MODEL, disable=["ner"]))
    lem = nlp.get_pipe("lemmatizer")
    plain = pipelines[0]
    text = "Seven different words are lemmatized here by this pipeline today."
    assert _annotations(nlp(text)) == _annotations(plain(text))
    assert 0 < len(lem._guard_memo) <= 5
