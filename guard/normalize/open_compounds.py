"""A compound modifier written open ("each on call shift", "in person meetings", "Auth0's built in email provider")
read as with its hyphen.

Why: notes drop the hyphen English writes in a compound before a noun, and the small model then parses the
compound's preposition as a phrase of the clause: "Each on call shift is limited to 7 days." had no subject, "All in
person travel requires …" none, "the secondary on call" became "secondary", "Git's built in gc.auto threshold" became
"git" (`guard bench invariance`, "hyphen -> space": 130 of 463 rewrites changed their subject, many at such
compounds; 109 now). Hyphenated, each is one modifier of the noun after it, as where the writer kept the hyphen.

Only the compounds listed; only before a word that can be a noun (not a stop word, nor a verb's inflected form that
the lemmatizer's tables list as no noun's: "rotates", "handled"; a bare word they do not list, "email", "PII", can
be), and where the compound's first word is a verb's, not after a noun: "the on call rotation" and "the FIFO in flight
cap" are compounds, "is on call this week", "the engineer on call must …", "users opt in to emails" and "the cache
built in memory" are not. A compound whose number can be a count ("one time", "one time zone") is not listed, nor one
that is as often a verb and its object ("we open source libraries").
"""
from __future__ import annotations

import re

from guard.normalize.sentence_case import inflection_bases, plural_bases

# compounds English hyphenates before a noun; each written open, one space between its words
_OPEN = ("in person", "on call", "built in", "append only", "in flight", "read only", "write only", "self hosted",
         "self managed", "self service", "user facing", "customer facing", "public facing", "internet facing",
         "long lived", "short lived", "long running", "full time", "part time", "real time", "well known",
         "well behaved", "opt in", "opt out", "end to end", "third party", "first party", "multi region",
         "multi tenant", "two factor", "multi factor", "out of band", "day to day", "up to date", "point in time",
         "on premises", "high risk", "low risk")
# a compound whose first word is a verb's: after a noun it is that noun's verb ("users read only …", "the CLI built in
# Go", "the cache built in memory")
_VERB_FIRST = frozenset({"built", "append", "read", "write", "opt"})
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being"})
_COMPOUND = re.compile(r"(?<![\w-])(" + "|".join(w.replace(" ", " +") for w in _OPEN) + r")(?= +([A-Za-z]+)\b)",
                       re.IGNORECASE)
# a number and a measure in the singular before a noun ("a six digit passcode", "a twelve factor app", "a 3 month
# sabbatical"): English hyphenates them; read open, the number became the statement's value and the measure its
# subject's first word ("factor app", 12). Not "one" or 1 ("one time zone" is a count)
_COUNTED = re.compile(r"(?<![\w.,-])((?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[2-9]|\d\d+) +"
                      r"(?:digit|factor|"
                      r"character|letter|step|tier|level|day|week|month|year|hour|minute|second|person|page|point|node|"
                      r"star|way|lane|region|zone))(?= +([A-Za-z]+)\b)", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"(?<![\w'’])([A-Za-z]+)\W*$")


def _forms(word: str) -> list[str]:
    """The word and what it may be the plural of ("shifts", "policies", "boxes")."""
    w = word.lower()
    return [w, *plural_bases(w)] if w.endswith("s") else [w]


def _a_noun(word: str, nouns: frozenset[str], verbs: frozenset[str], stop_words: frozenset[str]) -> bool:
    """Whether ``word`` can be the noun a compound modifies: not a stop word, nor a verb's inflected form that is no
    noun's ("rotates", "handled", "running"); a bare form can be ("email", "encryption", "PII")."""
    low = word.lower()
    if low in stop_words:
        return False
    if any(f in nouns for f in _forms(low)):
        return True
    return not (low.endswith(("s", "ed", "ing")) and any(b in verbs for b in inflection_bases(low)[1:]))


def _a_nouns_verb(before: str, first: bool, nouns: frozenset[str], verbs: frozenset[str],
                  stop_words: frozenset[str]) -> bool:
    """Whether a compound whose first word is a verb's follows a noun, the verb's subject or object."""
    low = before.lower()
    if low in stop_words or not any(f in nouns for f in _forms(low)):
        return False
    return not (first and low in verbs)


def hyphenated(text: str, nouns: frozenset[str], verbs: frozenset[str], stop_words: frozenset[str]) -> str:
    """``text`` with each listed compound that modifies a noun written with its hyphens; as written without a
    lemmatizer's noun table."""
    if not nouns or " " not in text:
        return text
    lead = len(text) - len(text.lstrip())      # where the first word starts

    def one(m: re.Match) -> str:
        if not _a_noun(m.group(2), nouns, verbs, stop_words):
            return m.group(0)
        if m.group(1).split()[0].lower() in _VERB_FIRST:
            # after a noun the verb is the noun's ("the CLI built in Go", "users read only …"); an order's verb is
            # not one ("Use read only replicas …")
            before = _WORD_BEFORE.search(text, max(0, m.start() - 60), m.start())
            if before is not None and text[before.end(1):m.start()].strip() == "" and (
                    before.group(1).lower() in _BE or
                    _a_nouns_verb(before.group(1), before.start(1) == lead, nouns, verbs, stop_words)):
                # and after "is"/"are" it is a passive's ("Dashboards are built in Grafana.": built, in Grafana)
                return m.group(0)
        return "-".join(m.group(1).split())

    def counted(m: re.Match) -> str:
        return "-".join(m.group(1).split()) if _a_noun(m.group(2), nouns, verbs, stop_words) else m.group(0)
    return _COUNTED.sub(counted, _COMPOUND.sub(one, text))
