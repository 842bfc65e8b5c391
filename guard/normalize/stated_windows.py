"""The validity window a statement names in its own words: "Until March 2026, the API accepts TLS 1.1.",
"From April 2026 the API rejects TLS 1.1.", "As of 2025-06-01, all deploys require two approvals."

Why: a claim's window came only from its metadata (``valid_from`` / ``valid_until``), so the two statements above,
written without metadata, were one subject with opposing modalities and blocked at HIGH — while they say what holds
before and after one change, which the comparator calls *coexist* when the windows are given. A leading phrase of
time was already cut off as a qualifier (not the subject); here it is read as the window it names.

Read only from a qualifier that is nothing but a preposition of time and an absolute date (a year, a month of a year,
or a day of one): a date inside the main clause is the statement's value ("Node 18 is supported until April 2026":
the end of support is what is said, not when the saying holds), a phrase with more in it ("Until the migration
completes") names no date, and a date with no year ("from Dec 24") names no window. Where the words leave a bound
open to reading ("until March 2026": up to its start or its end?), the wider reading is taken, so a window read here
never makes two statements coexist that a reader could take to overlap.
"""
from __future__ import annotations

import calendar
import datetime as _dt
import re

from guard.claims import ClaimError, Window
from guard.normalize.typed_values import DATES_WITH_A_YEAR, date_number


def _date(name: str) -> str:
    """A group ``name`` holding a date with its year, or a year alone: what ``typed_values`` reads as a date."""
    return f"(?P<{name}>{DATES_WITH_A_YEAR}|" + r"(?:19|20)\d\d)"


# not "by": "By March 2026, all services must use TLS 1.3." is a deadline, after which the rule holds, not its end
_UNTIL = r"until|till|til|through|thru|up\s+to|up\s+until|before|prior\s+to"
_FROM = (r"from|starting(?:\s+(?:on|in|from))?|beginning(?:\s+(?:on|in))?|as\s+of|as\s+from|effective(?:\s+(?:on|from))?|"
         r"since|after|on\s+and\s+after|on\s+or\s+after|commencing|with\s+effect\s+from")
_DURING = r"in|during|throughout|for|on"
_STATED = re.compile(
    r"^\s*(?:"
    r"(?:between\s+" + _date("lo") + r"\s+and\s+" + _date("hi") + r")|"
    r"(?:(?:from|starting|beginning)\s+" + _date("lo2") + r"\s+(?:to|until|till|through|thru)\s+" +
    _date("hi2") + r")|"
    r"(?P<until>" + _UNTIL + r")\s+(?:the\s+end\s+of\s+)?" + _date("d_until") + r"|"
    r"(?P<from>" + _FROM + r")\s+" + _date("d_from") + r"(?:\s+onwards?|\s+on)?|"
    r"(?P<during>" + _DURING + r")\s+" + _date("d_during") +
    r")\s*[,.]?\s*$", re.IGNORECASE)
# "before" and "prior to" leave the named day out; "after" starts past the named span
_EXCLUSIVE_END = re.compile(r"^(?:before|prior\s+to)$", re.IGNORECASE)
_PAST_THE_SPAN = re.compile(r"^after$", re.IGNORECASE)


def _span(surface: str) -> tuple[_dt.date, _dt.date] | None:
    """The first and last day a date names (a day: itself; a month: its days; a year: its days)."""
    n = date_number(surface)
    if n is None:
        return None
    y, m, d = int(n // 10000), int(n // 100 % 100), int(n % 100)
    try:
        if m == 0:
            return _dt.date(y, 1, 1), _dt.date(y, 12, 31)
        if d == 0:
            return _dt.date(y, m, 1), _dt.date(y, m, calendar.monthrange(y, m)[1])
        day = _dt.date(y, m, d)
    except ValueError:
        return None
    return day, day


def stated_window(qualifier: str) -> Window | None:
    """The window ``qualifier`` names, or None where it names none (see the module's docstring)."""
    m = _STATED.match(qualifier)
    if m is None:
        return None
    g = m.groupdict()
    try:
        for lo_key, hi_key in (("lo", "hi"), ("lo2", "hi2")):
            if g[lo_key]:
                lo, hi = _span(g[lo_key]), _span(g[hi_key])
                return Window(lo[0], hi[1]) if lo and hi else None
        if g["d_until"]:
            span = _span(g["d_until"])
            if span is None:
                return None
            if _EXCLUSIVE_END.match(g["until"].strip()):
                return Window(None, span[0] - _dt.timedelta(days=1))
            return Window(None, span[1])
        if g["d_from"]:
            span = _span(g["d_from"])
            if span is None:
                return None
            if _PAST_THE_SPAN.match(g["from"].strip()):
                return Window(span[1] + _dt.timedelta(days=1), None)
            return Window(span[0], None)
        span = _span(g["d_during"])
        return Window(*span) if span else None
    except ClaimError:       # a window that ends before it starts ("between 2026 and 2024") names none
        return None


def read_window(qualifiers: tuple[str, ...]) -> Window | None:
    """The window the qualifiers name together (each one's days in common); None where none names one, or where
    the ones named share no day."""
    window = None
    for q in qualifiers:
        stated = stated_window(q)
        if stated is not None:
            window = stated if window is None else window.intersection(stated)
            if window is None:
                return None
    return window
