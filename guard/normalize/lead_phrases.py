"""The named thing a leading phrase says a statement is about: "*On gateway v10* the timeout is 30 seconds.",
"*In Postgres 16*, the default max_connections is 100.", "*For `payments-api`*, retries are capped at 3."

Why: a leading phrase is cut off as a qualifier, so the subject is what follows it ("timeout"), and "On gateway v10 the
timeout is 30 seconds." / "On gateway v11 the timeout is 60 seconds." were one subject's two values — a value conflict
at HIGH, blocked — while they speak of two versions. Read as a variant of the statement (``Norm.variants``), as a plan
or a region is, two different names make two things (``compare.different_variants``); a statement without such a
phrase is about every one of them, so against it the phrase changes nothing ("The gateway timeout is 60 seconds.").

Only a name: a capitalised word, a word with a digit ("v10", "16", "auth-db-0") or code in backticks, as
``subject_phrases`` reads a subject's own phrase. A common noun may be the other's class ("For services, …" / "For
the payments service, …": one rule and a case of it), a date is when, not which (``stated_windows``), and a phrase
with a verb is a condition.
"""
from __future__ import annotations

import calendar
import re

from guard.normalize.stated_windows import stated_window
from guard.normalize.typed_values import WEEKDAYS

KIND = "lead-phrase"
_LEAD = re.compile(r"^(?P<prep>for|on|in|at|with|under|across|via)\s+(?:(?:the|our|a|an|all|each|every)\s+)?"
                   r"(?P<words>[^\s,;:()]+(?:\s+[^\s,;:()]+){0,3})\s*$", re.IGNORECASE)
# words that make the phrase a condition or a clause, not a thing's name
_NOT_A_NAME = re.compile(r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|if|when|that|which|who|where)\b",
                         re.IGNORECASE)
_NAME_WORD = re.compile(r"^(?:`[^`]+`|[A-Z][\w.+#-]*|[\w.+#-]*\d[\w.+#-]*)$")
# where a capital says nothing of a name: environments (``text_scope``) and days and months (when, not which)
_NOT_NAMES = frozenset({"production", "prod", "staging", "development", "dev", "test", "qa", "sandbox",
                        *WEEKDAYS, *(d + "s" for d in WEEKDAYS), *(m.lower() for m in calendar.month_name if m),
                        "general", "practice", "particular", "addition"})


def lead_phrase_variant(qualifier: str) -> tuple[str, str] | None:
    """(``KIND``, the phrase's words lower-cased) where ``qualifier`` is a leading phrase naming a thing; else None."""
    m = _LEAD.match(qualifier)
    if m is None or _NOT_A_NAME.search(m.group("words")) or stated_window(qualifier) is not None:
        return None
    words = m.group("words").split()
    if not any(_NAME_WORD.match(w) and w.lower().strip("`") not in _NOT_NAMES for w in words):
        return None
    if all(re.fullmatch(r"[\d.,]+", w) for w in words):      # a bare number ("In 3, …") names nothing
        return None
    return KIND, " ".join(w.lower().strip("`") for w in words)


def lead_phrase_variants(text: str, qualifiers: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The variants of the qualifiers that open ``text`` (a trailing "…, with 22 LTS recommended" is no leading phrase)."""
    start = text.lstrip(" \"'([").lower()
    return tuple(dict.fromkeys(v for q in qualifiers
                               if start.startswith(q.lower()) and (v := lead_phrase_variant(q)) is not None))


def names_apart(na: set[str], nb: set[str]) -> bool:
    """Whether two sets of leading phrases name different things: no phrase's words within another's ("postgres 16" /
    "postgres 15" are two; "postgres" / "postgres 16" one and a case of it)."""
    return not any(set(x.split()) <= set(y.split()) or set(y.split()) <= set(x.split()) for x in na for y in nb)
