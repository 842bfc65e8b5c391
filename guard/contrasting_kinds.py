"""Two subjects of one head noun told apart by modifiers that name contrasting kinds of it.

Why a module of its own: "Free accounts get 100 API calls per day." / "Paid accounts get 10,000 API calls per day."
and "Major versions are released once a year." / "Minor versions are released every month." speak of two kinds of one
thing, each with its own rule, as two plans or two environments do — yet the subjects share their head, and the
cross-encoder, reading two alike sentences with different values, blocked them at p 1.00. Any two modifiers are not
enough: "search endpoint" / "upload endpoint" and "recovery time objective" / "recovery point objective" were
contradictions as often as not among the bench pairs (session 94), so only modifiers that exist to tell kinds of a
thing apart — one of a closed set of contrasts, or two different periods — make two things here, unless the two
statements say the very same thing of each, a value apiece: "The search endpoint allows 10 requests per second." /
"The upload endpoint allows 2 requests per second.", "Password reset emails are limited to 3 per hour." / "Verification
emails are limited to 5 per hour." are one rule written out for two members of a kind, the way a table lists them
(session 96: among the bench and earlier written pairs so said, all 8 were compatible once a rule for "each" member
against one of them was kept out). What it cannot tell is one subject named two ways under one head ("The login
endpoint …" / "The sign-in endpoint …", "Customer refunds …" / "Client refunds …"): held pairs of that shape, written to
find it, went clean in 3 of 6. Pure: two subjects, two texts and, where the comparator found differing values of one
kind with one stance, the words each says besides its subject and value; the contrast or None out.
"""
from __future__ import annotations

import re

from guard.claims import ENV_NAMES

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
# a rule for every member of the kind ("Each on-call rotation has at least three engineers." / "The payments rotation has
# two engineers."): the other subject is one of those members, not a kind beside it
_EVERY_MEMBER = r"\b(?:each|every|all|any)\s+(?:[\w-]+\s+){{0,3}}{head}"
# a limit's words: "The maximum message size is 256 KB." / "The billing queue message size is 1 MB." is a limit for every
# message against one queue's, not two kinds of size
_LIMIT_WORDS = frozenset({"maximum", "minimum", "max", "min", "default", "overall", "global", "total"})
# how alike the two predicates must be (shared words over all words) to be one thing said of two subjects: "allows 60
# requests per minute per IP" / "allows 10 requests per minute" is; "kept for 7 days" / "kept forever" is too (2 of 2)
_ALIKE = 0.75


def contrasting_kinds(a_subject: str | None, b_subject: str | None, a_text: str, b_text: str,
                      predicates: tuple[frozenset[str], frozenset[str]] | None = None) -> tuple[str, str] | None:
    """The two modifiers ("free", "paid") where the subjects are one head noun with one contrasting modifier each and
    otherwise the same words — or any modifiers of their own each, where ``predicates`` (the words each statement
    says besides its subject and its value, given where the two give a value of one kind with one stance) are alike
    and neither statement rules for every member of the kind; None otherwise, or where either text also speaks of the
    other kind."""
    if not a_subject or not b_subject:
        return None
    wa, wb = a_subject.lower().split(), b_subject.lower().split()
    if len(wa) < 2 or len(wb) < 2 or wa[-1] != wb[-1]:
        return None
    da, db = [w for w in wa if w not in wb], [w for w in wb if w not in wa]
    if not da or not db:
        return None
    if _SPEAKS_OF_OTHERS.search(a_text) or _SPEAKS_OF_OTHERS.search(b_text):
        return None
    if len(da) == len(db) == 1 and (frozenset((da[0], db[0])) in _CONTRASTS or da[0] in _PERIODS and db[0] in _PERIODS):
        return da[0], db[0]
    # an environment against another kind of qualifier ("Production web servers …" / "Public web servers …") names two
    # sets that overlap (two environments are the scope's to tell apart)
    if predicates is not None and _said_alike(*predicates) and not any(w in ENV_NAMES or w in _LIMIT_WORDS for w in (*da, *db)) \
            and not _one_word_spelled_two_ways(da, db) \
            and not (_every_member(a_text, wa[-1]) or _every_member(b_text, wb[-1])):
        return " ".join(da), " ".join(db)
    return None


def _every_member(text: str, head: str) -> bool:
    """Does the text quantify its subject's head over all members ("Each on-call rotation", "all public endpoints")? A
    frequency's "every three years" is not on the head. The head is matched by its stem, so its plural matches too."""
    stem = re.escape(head.removesuffix("s")[:-1] if len(head) > 3 else head)
    return re.search(_EVERY_MEMBER.format(head=stem), text, re.IGNORECASE) is not None


def _one_word_spelled_two_ways(da: list[str], db: list[str]) -> bool:
    """"EU" / "European", "auth" / "authentication": one qualifier in two spellings, not two kinds."""
    return any(x.startswith(y) or y.startswith(x) or len(x) >= 4 and x[:4] == y[:4] for x in da for y in db)


def _said_alike(pa: frozenset[str], pb: frozenset[str]) -> bool:
    """The same words besides subject and value, or nothing at all on either side ("The recovery time objective is 4
    hours." / "The recovery point objective is 1h." say only a value of each), or words shared over all ≥ ``_ALIKE``."""
    return pa == pb or bool(pa) and bool(pb) and len(pa & pb) / len(pa | pb) >= _ALIKE
