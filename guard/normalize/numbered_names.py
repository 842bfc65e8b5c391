"""A name with a number in a statement's subject: "*Node 18* reached end of life in April 2025.", "*Shard 4* holds
200 GB.", "*Sev 1* incidents page the on-call engineer."

Why: the subject is read as its words ("node", "shard", "sev incident"), the number left out, so "Node 18 reached end
of life in April 2025." / "Node 20 reaches end of life in April 2026." were one subject's two dates — a value conflict
at HIGH, blocked — while they speak of two releases, as "Python 3.8" / "Python 3.9" do (``version_variants``, which
reads only a dotted or a "v" version: "React 18" is as often the value said of another subject). Read as a variant
of the statement where the name is the subject's own word, two numbers of one name are two things, and a statement
without the number is about every one of them.

Not a number that is a quantity ("Wait 5 minutes", "Keep 14 days of logs", "Deploy 3 times a day": a unit or a counted
noun after it is no name's number — only what may follow a name does: a verb, a noun of its own, the end of the
phrase), a bound ("Node.js 18+"), a date ("April 2025"), a value the statement says (``restricting_variants`` drops
those), nor a later mention of the name ("Vue 2.7 … until the Vue 3 migration": another release spoken of).
"""
from __future__ import annotations

import re

from guard.normalize.typed_values import _MONTHS
from guard.normalize.values import UNITS

# words after a number that make it a quantity, not a name's number
_QUANTITY_WORDS = (set(UNITS) | {u + "s" for u in UNITS} |
                   {"time", "times", "second", "seconds", "minute", "minutes", "hour", "hours", "day", "days", "week",
                    "weeks", "month", "months", "year", "years", "percent", "per", "of", "or", "to", "and", "x", "more",
                    "fewer", "less", "most", "least"})
_NUMBERED = re.compile(r"(?<![\w.$€£#-])(?P<name>[A-Z][A-Za-z+#]*(?:\.[A-Za-z]+)?)\s+(?P<num>\d{1,3})(?![\w.,:/%+-]|\.\d)"
                       r"(?:\s+(?P<next>[A-Za-z]+))?")


def numbered_variants(text: str, subject: str | None) -> tuple[tuple[str, str], ...]:
    """("<name> number", the number) for each name with a number whose name is a word of ``subject``."""
    if not subject:
        return ()
    words = set(re.findall(r"[a-z0-9+#.]+", subject.lower()))
    found, seen = [], set()
    for m in _NUMBERED.finditer(text[:2000]):
        name, nxt = m.group("name").lower(), (m.group("next") or "").lower()
        first = name not in seen and not re.search(r"(?<![\w.])" + re.escape(m.group("name")) + r"(?![\w])",
                                                    text[:m.start()])
        seen.add(name)
        # the name's first mention only: a later one is another thing the statement speaks of ("Vue 2.7 … until the
        # Vue 3 migration")
        if not first or name in _MONTHS or name not in words or nxt in _QUANTITY_WORDS:
            continue
        found.append((f"{name} number", m.group("num")))
    return tuple(dict.fromkeys(found))
