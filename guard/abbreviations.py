"""Abbreviations a statement defines ("the recovery time objective (RTO)"), and two subjects read
with them spelled out.

Why: stores and policy prose define a term once and then use its short form. "The recovery time
objective (RTO) is 1 hour." / "Our RTO is 4 hours." had the subjects "recovery time objective" and
"rto", two different subjects, so a value conflict on one thing was left to the NLI gate. A definition
in either statement of a pair now spells the short form out in both subjects before they are compared.

Only a definition written in the pair's own texts counts (no list of known abbreviations: "ATO" is an
authorization to operate in one handbook and something else in the next), and only the two standard
shapes: a long form followed by its short form in parentheses, or the reverse. The long form must spell
the short form by word initials, in order, where small words ("to", "of", "as") may be skipped. This is
stricter than Schwartz and Hearst's character match (which also takes letters inside words): an
all-capitals unit or time zone in parentheses ("use UTC (Coordinated …)" aside) after unrelated words
would otherwise find a long form in whatever precedes it. scispacy ships that algorithm, but with a
dependency tree (nmslib, a second spaCy pipeline) far heavier than the twenty lines here.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from guard.claims import Norm

_SMALL_WORDS = frozenset({"of", "and", "the", "for", "to", "in", "on", "as", "a", "an", "at", "by", "with", "&"})
# "Long Form (LF)", "Long Form (LFs)"; "LF (long form)"
_SHORT = r"[A-Z][A-Za-z0-9]{0,6}[A-Z0-9](?:s)?"
_SHORT_IN_PARENS = re.compile(r"\(\s*(?P<short>" + _SHORT + r")\s*\)")
_BEFORE_REACH = 200          # characters before the parenthesis a long form is looked for in
_SHORT_THEN_LONG = re.compile(r"(?<![\w-])(?P<short>" + _SHORT + r")\s*\(\s*(?P<long>[A-Za-z][A-Za-z -]{2,80}?)\s*\)")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _letters(short: str) -> str:
    """The short form's letters, without a plural "s" ("ATOs", "APIs")."""
    if len(short) > 2 and short.endswith("s") and short[:-1].isupper():
        short = short[:-1]
    return short.lower()


def _as_written(long: str) -> str:
    """A long form as a subject holds it: lower case, one space between words, hyphens kept
    ("multi-factor authentication")."""
    return " ".join(long.lower().split())


def _initials_match(letters: str, words: list[str]) -> int | None:
    """Where in ``words`` (read from the end) a long form spelt by ``letters`` starts, else None.

    Each letter is one word's initial, the last letter the last word's; small words between may be
    skipped, but the long form starts on a word the first letter spells."""
    i, j = len(words) - 1, len(letters) - 1
    while j >= 0:
        if i < 0:
            return None
        w = words[i].lower()
        if w[0] == letters[j]:
            j -= 1
        elif w not in _SMALL_WORDS or i == len(words) - 1:
            return None
        i -= 1
    return i + 1


@lru_cache(maxsize=4096)
def definitions(text: str) -> dict[str, str]:
    """Short form (lower case, no plural "s") → long form (lower-case words) for each abbreviation
    ``text`` defines."""
    if "(" not in text:
        return {}
    found: dict[str, str] = {}
    for m in _SHORT_IN_PARENS.finditer(text):
        letters = _letters(m.group("short"))
        # the words before the parenthesis, back to the previous one (hyphenated parts as words,
        # "multi-factor"); a window of its own per parenthesis keeps a long text linear
        before = text[max(0, m.start() - _BEFORE_REACH):m.start()]
        before = before[max(before.rfind("("), before.rfind(")")) + 1:]
        spans = list(_WORD.finditer(before))[-(2 * len(letters) + 2):]
        start = _initials_match(letters, [w.group(0) for w in spans]) if len(spans) >= 2 else None
        if start is not None and len(spans) - start >= 2:
            found.setdefault(letters, _as_written(before[spans[start].start():spans[-1].end()]))
    for m in _SHORT_THEN_LONG.finditer(text):
        letters, words = _letters(m.group("short")), _WORD.findall(m.group("long"))
        if len(words) >= 2 and _initials_match(letters, words) == 0:
            found.setdefault(letters, _as_written(m.group("long")))
    return found


def _completed(subject: str, defined: dict[str, str]) -> str:
    """The subject with a defined long form it was cut inside made whole: a subject phrase ends at a
    preposition, so "a LiSaaS Authorization to Operate (ATO)" was "LiSaaS authorization" while "LiSaaS ATOs"
    spells out to "LiSaaS authorization to operate". Only where the cut falls just before a small word of the
    long form and the subject ends with the long form's words up to it."""
    words = subject.split()
    for long in defined.values():
        lw = long.split()
        for k in range(len(lw) - 1, 0, -1):
            if lw[k] in _SMALL_WORDS and [w.lower() for w in words[-k:]] == lw[:k]:
                return " ".join(words + lw[k:])
    return subject


def _spelled(subject: str | None, defined: dict[str, str]) -> str | None:
    if not subject:
        return subject
    subject = _completed(subject, defined)
    words = subject.split()
    out: list[str] = []
    changed = False
    for w in words:
        key = w.lower()
        long = defined.get(key) or (defined.get(key[:-1]) if key.endswith("s") else None)
        if long is not None and long not in subject.lower():
            out += long.split()
            changed = True
        else:
            out.append(w)
    return " ".join(out) if changed else subject


def spelled_out(a: Norm, a_text: str, b: Norm, b_text: str) -> tuple[Norm, Norm]:
    """The two norms with every short form either text defines spelt out in their subjects and
    attributes (the attribute is a phrase of the same kind: "rto" in "Our RTO is 4 hours."); the same
    norms where neither text defines one (most pairs: no parenthesis at all)."""
    if "(" not in a_text and "(" not in b_text:
        return a, b
    defined = {**definitions(b_text), **definitions(a_text)}
    if not defined:
        return a, b
    return _norm_spelled(a, defined), _norm_spelled(b, defined)


def _norm_spelled(n: Norm, defined: dict[str, str]) -> Norm:
    subject, attribute = _spelled(n.subject, defined), _spelled(n.attribute, defined)
    if subject == n.subject and attribute == n.attribute:
        return n
    return replace(n, subject=subject, attribute=attribute)
