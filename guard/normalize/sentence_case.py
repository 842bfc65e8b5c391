"""A statement written without its first capital ("paid parental leave is 26 weeks.", "delete idle Pub/Sub
subscriptions …", "- never deploy on fridays") read as with it.

Why: notes and chat start lower-case, and the small model tags a sentence's first word by its case: "stopped Fly
Machines are …" took "stopped" for the verb, "delete idle …" was no order, "refresh tokens are …" became
"refresh tokens" against "refresh token" (75 of 2,502 statements so rewritten changed their subject, 4 their modality:
``guard bench invariance``, "lower-case first letter"). Only a word the lemmatizer's tables or the stop words list as
English is capitalised: a lower-case name means its case ("etcd", "journald", "npm", "dxw", "max_connections").
"""
from __future__ import annotations

import re

# a first word of lower-case letters only, not a name's part ("gc.auto", "payments.fifo", "max_connections", "api-version")
_FIRST_WORD = re.compile(r"[a-z]{2,}(?=[\s,;:!?]|\.(?:\s|$)|$)")


def english_words(nlp) -> tuple[frozenset[str], frozenset[str]]:
    """(base forms and stop words, irregular forms) of ``nlp``'s English; both empty without a lemmatizer's tables."""
    words: set[str] = set(getattr(nlp.Defaults, "stop_words", ()))
    irregular: set[str] = set()
    if "lemmatizer" not in nlp.pipe_names:
        return frozenset(), frozenset()
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or "lemma_index" not in lookups.tables:
        return frozenset(), frozenset()
    index = lookups.get_table("lemma_index")
    for pos in ("noun", "verb", "adj", "adv"):
        words.update(index.get(pos, ()))
    if "lemma_exc" in lookups.tables:
        exc = lookups.get_table("lemma_exc")
        for pos in ("noun", "verb", "adj", "adv"):
            irregular.update(exc.get(pos, {}))
    return frozenset(words), frozenset(irregular)


def plural_bases(low: str) -> list[str]:
    """What a word ending in -s may be the third person or the plural of ("dies" → "die", "dy"; "specifies" → …)."""
    return [low[:-1]] + ([low[:-2]] if low.endswith("es") else []) + ([low[:-3] + "y"] if low.endswith("ies") else [])


def inflection_bases(word: str) -> tuple[str, ...]:
    """What an inflected word may be the form of: -s, -es, -ies, -ed, -ied, -ing, with a doubled consonant or a
    dropped "e" ("stopped", "running", "making")."""
    out = [word]
    if word.endswith("s"):
        out += [word[:-1], word[:-2], word[:-3] + "y"]
    if word.endswith("ed"):
        out += [word[:-1], word[:-2], word[:-3], word[:-3] + "y"]
    if word.endswith("ing"):
        out += [word[:-3], word[:-3] + "e", word[:-4]]
    return tuple(out)


def sentence_case(text: str, words: frozenset[str], irregular: frozenset[str]) -> str:
    """``text`` with its first letter a capital where its first word is lower-case English."""
    m = _FIRST_WORD.match(text)
    if m is None or not words:
        return text
    word = m.group(0)
    if word in irregular or any(b in words for b in inflection_bases(word)):
        return text[:1].upper() + text[1:]
    return text
