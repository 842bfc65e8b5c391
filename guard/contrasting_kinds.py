"""Two subjects of one head noun told apart by modifiers that name contrasting kinds of it.

Why a module of its own: "Free accounts get 100 API calls per day." / "Paid accounts get 10,000 API calls per day."
and "Major versions are released once a year." / "Minor versions are released every month." speak of two kinds of one
thing, each with its own rule, as two plans or two environments do — yet the subjects share their head, and the
cross-encoder, reading two alike sentences with different values, blocked them at p 1.00. Any two modifiers are not
enough: "search endpoint" / "upload endpoint" and "recovery time objective" / "recovery point objective" were
contradictions as often as not among the bench pairs (session 94), so only modifiers that exist to tell kinds of a
thing apart — one of a closed set of contrasts, or two different periods — make two things here. Pure: two subjects
and two texts in, the contrast or None out.
"""
from __future__ import annotations

import re

# modifiers of which one names a kind the other is not; each pair, in either order
_CONTRASTS = frozenset(frozenset(p) for p in (
    ("major", "minor"), ("free", "paid"), ("internal", "external"), ("public", "private"), ("primary", "secondary"),
    ("inbound", "outbound"), ("incoming", "outgoing"), ("full-time", "part-time"), ("junior", "senior"),
    ("hot", "cold"), ("incremental", "full"), ("frontend", "backend"), ("front-end", "back-end"), ("mobile", "desktop"),
    ("domestic", "international"), ("permanent", "temporary"), ("read", "write"), ("standard", "premium"),
    ("standard", "express"), ("paper", "electronic"), ("ios", "android"), ("day", "night"),
))
# periods: "annual billing" / "monthly billing", "daily backups" / "weekly backups"
_PERIODS = frozenset({"hourly", "daily", "nightly", "weekly", "biweekly", "fortnightly", "monthly", "quarterly",
                      "annual", "yearly", "semiannual"})
# a statement that speaks of the other kind too: an "only" rules the others out ("Only paid accounts can use the API." /
# "Free accounts can use the API."), "first" orders the two ("Page the primary on-call first."), and a comparison or an
# "also" says one kind holds what the other does
_SPEAKS_OF_OTHERS = re.compile(r"\b(?:only|solely|exclusively|first|same|unlike|like|instead|also|too|as\s+well|both|"
                               r"either|neither|regardless)\b", re.IGNORECASE)


def contrasting_kinds(a_subject: str | None, b_subject: str | None, a_text: str, b_text: str) -> tuple[str, str] | None:
    """The two modifiers ("free", "paid") where the subjects are one head noun with one contrasting modifier each and
    otherwise the same words; None otherwise, or where either text also speaks of the other kind."""
    if not a_subject or not b_subject:
        return None
    wa, wb = a_subject.lower().split(), b_subject.lower().split()
    if len(wa) < 2 or len(wb) < 2 or wa[-1] != wb[-1]:
        return None
    da, db = [w for w in wa if w not in wb], [w for w in wb if w not in wa]
    if len(da) != 1 or len(db) != 1:
        return None
    x, y = da[0], db[0]
    if not (frozenset((x, y)) in _CONTRASTS or x in _PERIODS and y in _PERIODS):
        return None
    if _SPEAKS_OF_OTHERS.search(a_text) or _SPEAKS_OF_OTHERS.search(b_text):
        return None
    return x, y
