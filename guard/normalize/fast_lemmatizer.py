"""spaCy's rule lemmatizer with every answer remembered.

Why: the lemmatizer took about as long as the attribute ruler (1.1 s on claims_train's 2,157
statements, against 3.8 s for tok2vec, tagger and parser): spaCy caches its rule results, but not
the early answers (base forms, proper nouns, words without rules), so most tokens run the English
base-form test every time. Its answer depends on the token's text, POS and morphology only (the
English ``is_base_form`` reads POS and morphology; the rules and tables read the text and POS), so
remembering it under (orth, pos, morph) gives the same lemma for every token — the test compares
them token by token. The memo is bounded: it starts over past ``MAX_ENTRIES``.
"""
from __future__ import annotations

from spacy.language import Language

MAX_ENTRIES = 200_000


def memoize_lemmatizer(nlp: Language) -> Language:
    """Wrap the pipeline's rule lemmatizer in place; any other pipeline is returned as it is."""
    if "lemmatizer" not in nlp.pipe_names:
        return nlp
    lem = nlp.get_pipe("lemmatizer")
    if getattr(lem, "mode", None) != "rule" or getattr(lem, "_guard_memo", None) is not None:
        return nlp
    compute = lem.lemmatize
    memo: dict[tuple[int, int, int], list[str]] = {}

    def lemmatize(token) -> list[str]:
        key = (token.orth, token.pos, token.morph.key)
        found = memo.get(key)
        if found is None:
            if len(memo) >= MAX_ENTRIES:
                memo.clear()
            found = memo[key] = compute(token)
        return found

    lem.lemmatize = lemmatize
    lem._guard_memo = memo
    return nlp
