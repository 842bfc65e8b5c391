"""Typed values with units in a canonical form, for ``normalizer.rules.v2``.

Why: two claims about one attribute are only comparable when their values are in one unit —
"5 days" and "120 hours", "$250/week" and "$250 per week", "10 MiB" and "10485760 bytes",
"6000 requests per minute" and "100 per second", "2025-04-30" and "April 30, 2025". Each value
becomes a ``Bound`` whose unit is a family ("time", "bytes", "usd/time", "requests/time", "date",
"count", "percent", "clock": minutes after midnight, "period": how often, "weekday": Monday 1 … Sunday
7, "month": January 1 … December 12, "monthday": the day of the month, 1 … 31, the last day 99, "yearday": a day
of the year with no year, month × 100 + day, "Dec 24" 1224) and
whose number is in the family's base unit, so bounds compare across spellings ("02:00 UTC" = "2am UTC", "14:00" = "2 p.m."). Dates are ``yyyymmdd`` numbers; a month-only date has day 00 and compares at month
precision, a year alone ("until 2026") month and day 00 and compares by year (see ``compare._numbers``).

The v1 selectors (``values.PATTERNS``) stay as they are, so v1's norms do not change; v2 puts
these patterns first.
"""
from __future__ import annotations

import calendar
import math
import re
from dataclasses import replace

from guard.claims import Bound
from guard.normalize.naming_styles import NAMING_RE, one_style
from guard.normalize.values import (_GE, _LE, _OP, _UNIT_ALT, SWITCH_STATES, UNITS, WORD_NUMBERS, Guarded, Value, one_of,
                                    extract_values, or_so_side, unit_key)
from guard.normalize.values import _NUM as _V1_NUM

# v1's number, but never from inside a run of digits and commas: from there the search was quadratic
# ("1," * 10000: seconds per pattern); v1's own selectors keep theirs, so v1's norms do not change
_NUM = _V1_NUM.replace(r"(?<![\w.-])", r"(?<![\w.,-])", 1)
# and thousands written with a "k" ("5k requests per hour", "100k requests per day"): read as "5" and a thing
# called "k requests", "5k" was no 5,000 (six conflicts of a statement with its own rewrite "5,000" -> "5k")
_NUM = _NUM.replace(r"\d[\d,]*(?:\.\d+)?", r"\d[\d,]*(?:\.\d+)?(?:k(?![\w.-]))?", 1)

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
# a date with its year, as a day ("2025-04-30", "April 30, 2025", "30 April 2025") or a month ("April 2025"): the
# date patterns below and the windows a statement states (``stated_windows``) read the same spellings
_ISO_DATE = r"\d{4}-\d{2}-\d{2}"
_MONTH_DAY_YEAR = r"(?:" + _MONTH_RE + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
_DAY_MONTH_YEAR = r"\d{1,2}(?:st|nd|rd|th)?\s+(?:" + _MONTH_RE + r")\.?,?\s+\d{4}"
_MONTH_YEAR = r"(?:" + _MONTH_RE + r")\.?,?\s+\d{4}"
DATES_WITH_A_YEAR = f"{_ISO_DATE}|{_MONTH_DAY_YEAR}|{_DAY_MONTH_YEAR}|{_MONTH_YEAR}"
# a month's name before or after a day, any case but "may", which is the modal unless capitalised
_YEARDAY_MONTH = "(?i:" + "|".join(sorted((m for m in _MONTHS if m != "may"), key=len, reverse=True)) + ")|May"
# one such day, either way round ("Dec 24", "24 December", "the 24th of December"), for a span of them
_YEARDAY = (r"(?:(?:" + _YEARDAY_MONTH + r")\.?\s+[0-3]?\d(?:st|nd|rd|th)?|(?:the\s+)?[0-3]?\d(?:st|nd|rd|th)?\s+(?:of\s+)?"
            r"(?:" + _YEARDAY_MONTH + r"))")

_PERIOD = {"second": 1, "sec": 1, "s": 1, "minute": 60, "min": 60, "m": 60, "hour": 3600, "hr": 3600, "h": 3600,
           "day": 86400, "d": 86400, "week": 604800, "wk": 604800, "month": 2592000, "mo": 2592000,
           "year": 31536000, "yr": 31536000, "annum": 31536000}
_PERIOD_RE = r"(?:second|sec|minute|min|hour|hr|day|week|wk|month|mo|year|yr|annum|s|m|h|d)"
_CURRENCY = {"$": "usd", "usd": "usd", "€": "eur", "eur": "eur", "£": "gbp", "gbp": "gbp"}
_SIZES = {"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "pb": 1e15,
          "kib": 1024, "mib": 1024 ** 2, "gib": 1024 ** 3, "tib": 1024 ** 4, "k": 1e3, "petabyte": 1e15,
          "bit": 1 / 8, "bits": 1 / 8, "kilobyte": 1e3, "megabyte": 1e6, "gigabyte": 1e9, "terabyte": 1e12}
# never from inside a run of digits (that search was quadratic); a comma only between digits ("$700, separate
# from …" is $700, not "$700,")
_AMOUNT = r"(?P<num>(?<![\d,.])\d(?:,?\d)*(?:\.\d+)?)"
_PER = r"(?:\s*/\s*|\s+(?:per|an?|each|every)\s+)"

# ("no later than March 1, 2026" is "by March 1, 2026": read as the day itself before)
# a word of what a rate counts: not a word that joins or sets off ("8589934592 and a nightly job" counts nothing)
_THING_WORD = r"(?!(?:and|or|an?|the|to|of|in|on|for|with|by|at|is|are|was|were)\b)[a-z]+"
_BOUND_PREPS = "by|before|after|until|till|through|from|since|as of|no(?:t)? later than|no(?:t)? earlier than"
_NO_LATER, _NO_EARLIER = ("no later than", "not later than"), ("no earlier than", "not earlier than")
# what makes a year alone a point in time: a bound's preposition, the end or a part of a year, or an end
# said with "in" ("support ends in 2027", "reached end of life in 2023", "is deprecated in 2025")
_YEAR_BEFORE = (r"(?:(?P<prep>\b(?:" + _BOUND_PREPS + r")\s+)(?:the\s+)?(?:(?:(?P<part>end|start|beginning)|middle)\s+of\s+|"
                r"(?:early|mid|late)[- ]\s*)?|"
                r"\b(?:ends?|ended|ending|expires?|expired|(?:reach(?:es|ed)?\s+(?:its\s+)?)?end[- ]of[- ](?:life|support)|"
                r"EOL|deprecated|retired|removed|sunset|released|discontinued)\s+in\s+(?:(?:early|mid|late)[- ]\s*)?)")


# what a price is paid for, each (a head or a machine), and its period, in either order
_EACH_WORDS = r"(?:users?|seats?|members?|persons?|people|employees?|agents?|licen[cs]es?|hosts?|nodes?|servers?|instances?)"
_MONEY_BASIS = (r"(?:" + _PER + r"(?P<each>" + _EACH_WORDS + r")\b)?(?:" + _PER + r"(?P<per>" + _PERIOD_RE + r")\b)?"
                r"(?:(?:" + _PER + r"|\s+for\s+(?:each|every)\s+)(?P<each_after>" + _EACH_WORDS + r")\b)?")
# one name for each kind of head a price is paid for: a seat, a member or a licence is a user's
_EACH_KINDS = {"seat": "user", "member": "user", "person": "user", "people": "user", "employee": "user", "agent": "user",
               "license": "user", "licence": "user", "node": "host", "server": "host", "instance": "host"}


# the words of a statement about a release's life: its support, its end, its release or its removal
_LIFECYCLE = re.compile(r"\b(?:end[- ]of[- ](?:life|support)|eol|lts|supported|support|security (?:updates|patches|fixes)|"
                        r"maintained|maintenance|deprecated|deprecation|retired|sunset|discontinued|shut\s+down|released|"
                        r"launched|general availability|available)\b", re.IGNORECASE)


def _prep(first: str) -> str:
    """An optional preposition before a date: ``first`` ("on" a day, "in" a month) or a bound's."""
    return r"(?P<prep>\b(?:" + first + "|" + _BOUND_PREPS + r")\s+)?"


# "until"/"till" name the end itself, as before a date ("supported until April 2026" is the end-of-support
# date; "deploys are allowed until 3pm" / "… until 5pm" disagree): an exact value, not a bound
_CLOCK_LE = ("by", "before", "no later than", "not later than", "not after")
_CLOCK_GE = ("after", "from", "since", "no earlier than", "not earlier than", "not before")
_CLOCK_PREP = r"(?P<prep>\b(?:at|until|till|" + "|".join(sorted(_CLOCK_LE + _CLOCK_GE, key=len, reverse=True)) + r")\s+)?"
# a zone after a time of day: UTC/GMT/Z are the plain clock; any other names its own clock
_TZ = r"(?:\s*(?P<tz>(?-i:UTC|GMT|Z|[A-Z]{1,4}T))\b)?"


# how often, said in one word ("Logs rotate daily." / "… weekly."): a period in seconds, in a unit family
# of its own ("period"), so it is never compared with a duration ("retained for 30 days"). Only as an
# adverb: before the clause ends or a preposition, not after a determiner ("the daily standup")
_FREQUENCIES = {"hourly": 3600, "daily": 86400, "nightly": 86400, "weekly": 604800, "fortnightly": 1209600,
                "biweekly": 1209600, "monthly": 2592000, "quarterly": 7776000, "yearly": 31536000,
                "annually": 31536000}
# how often, said as a basis ("on an annual basis", "on a monthly basis", "on a bi-weekly basis"): the
# adjective names the period, as its adverb does (most are spelled alike: "a weekly basis", "runs weekly").
# Only with "on a(n) … basis", so "the annual review" and "a daily standup" stay names
_BASES = {**{k: v for k, v in _FREQUENCIES.items() if k != "annually"}, "annual": _FREQUENCIES["annually"],
          "bi-weekly": _FREQUENCIES["biweekly"], "semiannual": _FREQUENCIES["annually"] // 2,
          "semi-annual": _FREQUENCIES["annually"] // 2}
_BASIS_RE = (r"(?<![\w-])(?P<val>on\s+an?\s+(?P<basis>" + "|".join(map(re.escape, sorted(_BASES, key=len, reverse=True)))
             + r")\s+basis)\b")
# how often, said with a count or a span ("twice a day", "once per 12 hours", "three or more times an
# hour", "every 6 hours", "every other week", "once every 365 days"): the same period in seconds, so
# "every 6 hours" / "twice a day" are two periods and "every 24 months" / "every two years" one. Once
# read as a span ("6 hours", a duration), "every 6 hours" / "twice a day" had nothing to compare and
# "once a year" no value at all. A bound on how often turns round on the period: "at least every 20
# minutes" and "at least once a week" are at most that long apart, "at most once an hour" at least
_OFTEN_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "night": 86400, "week": 604800,
                # a part of the day comes once a day ("every morning", "each evening"), as a night does
                "morning": 86400, "afternoon": 86400, "evening": 86400,
                "fortnight": 1209600, "month": 2592000, "quarter": 7776000, "year": 31536000,
                # the short spellings ("every 20 mins", "once per 12 hrs"), after the words they shorten
                "sec": 1, "min": 60, "hr": 3600, "wk": 604800, "mo": 2592000, "yr": 31536000}
_OFTEN_UNIT_RE = r"(?P<unit>" + "|".join(_OFTEN_UNITS) + r")s?\b(?!['’-])"
# "every 90d", "every 12h", "every 2w", "every 30s", "every 5m" (a config's minutes: "every 5m" is no distance)
_SHORT_PERIODS = {"s": 1, "m": 60, "d": 86400, "h": 3600, "w": 604800}
# the bound words before how often: "at most once an hour" (at least an hour apart) or "at least every 20 minutes"
_OFTEN_LESS = ("at most", "no more than", "not more than", "up to", "limited to", "capped at")
_OFTEN_OP = r"(?:(?P<op>" + "|".join(("at least", *_OFTEN_LESS, "no less than", "no fewer than")) + r")\s+)?"
_CYCLE_OF = r"(?:(?:release|review|rotation|update|billing|renewal|refresh|audit)\s+)?"     # "a four-week release cycle"
_NOT_AFTER = "".join(rf"(?<!\b{w} )" for w in ("the", "a", "an", "our", "its", "their", "your", "this", "that", "every", "each"))
_ADVERB_END = r"(?=\s*(?:[.,;:)]|$|\s+(?:at|on|in|from|and|or|by|before|after|during|unless|until|except|to|for|with)\b))"
# "or fewer" / "or more" after a value the compact and business-day spellings read too ("retention 14d or fewer",
# "5 business days or more"), as "14 days or fewer" is read (``values``): read as exactly 14 days before
_OR_SO = r"(?P<post>\s+or\s+(?:less|fewer|lower|shorter|sooner|more|greater|higher|longer|later)\b)?"

# which day of the week ("must not deploy on Fridays", "releases go out every Tuesday"): a value of
# its own kind, so "is deployed in eu-central-1" / "must not deploy on Fridays" are two values of
# different kinds about one subject (two facts), and "standups are on Mondays" / "… on Tuesdays" two
# answers to one question. Only after "on", "every", "each" or "until"/"by" a day, or as a plural
# ("Fridays are meeting-free"), so a name ("Black Friday", "Good Friday", "Man Friday") is not a day.
WEEKDAYS = {d.lower(): i + 1 for i, d in enumerate(calendar.day_name)}
_WEEKDAY_RE = "|".join(WEEKDAYS)
_WEEKDAY_VAL = r"(?P<val>(?:" + _WEEKDAY_RE + r")s?)\b"

# a part of the world where something must be or is ("must stay in the EU", "hosted in the US"): a
# region, as a cloud region code is, so "must stay in the EU" / "is replicated to us-east-1" compare
# (``compare.geographies``). Capitalised names only ("in us" is a pronoun), after a preposition of place.
GEOGRAPHIES: dict[str, tuple[str, ...]] = {
    "eu": ("eu",), "european union": ("eu",), "europe": ("eu",), "eea": ("eu",), "us": ("us",), "usa": ("us",),
    "united states": ("us",), "north america": ("us", "ca"), "apac": ("ap",), "asia": ("ap",),
    "asia pacific": ("ap",), "asia-pacific": ("ap",), "south america": ("sa",), "canada": ("ca",),
    "middle east": ("me",), "africa": ("af",)}
# a country, within a part of the world (its cloud-region prefix): "processed in Germany" is processed in the EU, and
# "stored only in Australia" in ap-southeast-2 (``compare.COUNTRY_OF_REGION``). Not the UK: "eu-west-2" is London, and
# a rule to stay in the EU is not kept there
COUNTRIES: dict[str, str] = {
    "germany": "eu", "france": "eu", "ireland": "eu", "netherlands": "eu", "the netherlands": "eu", "sweden": "eu",
    "spain": "eu", "italy": "eu", "belgium": "eu", "austria": "eu", "poland": "eu", "finland": "eu", "denmark": "eu",
    "australia": "ap", "singapore": "ap", "japan": "ap", "india": "ap", "south korea": "ap", "indonesia": "ap",
    "brazil": "sa"}
# values named by a word, each compared by its one name (the "currency", "measure", "timezone" and "licence" kinds
# below): a currency by its code, a unit of measure by its symbol, a time zone as "utc" (UTC, GMT and their names in
# words), "local" (whoever reads it) or its name, a licence by its name without "licence", "version" or marks
CURRENCIES: dict[str, str] = {"usd": "USD", "dollars": "USD", "us dollars": "USD", "u.s. dollars": "USD",
                              "american dollars": "USD", "eur": "EUR", "euros": "EUR", "gbp": "GBP",
                              "pounds sterling": "GBP", "british pounds sterling": "GBP", "sterling": "GBP", "jpy": "JPY",
                              "yen": "JPY", "japanese yen": "JPY", "chf": "CHF", "swiss francs": "CHF", "cad": "CAD",
                              "canadian dollars": "CAD", "aud": "AUD", "australian dollars": "AUD"}
MEASURES: dict[str, str] = {"celsius": "C", "degrees celsius": "C", "fahrenheit": "F", "degrees fahrenheit": "F",
                            "kilometres": "km", "kilometers": "km", "km": "km", "miles": "mi", "metres": "m", "meters": "m",
                            "feet": "ft", "inches": "in", "centimetres": "cm", "centimeters": "cm", "kilograms": "kg",
                            "kg": "kg", "pounds": "lb", "lbs": "lb", "litres": "l", "liters": "l", "gallons": "gal"}
_UTC = frozenset({"utc", "gmt", "greenwich mean time", "coordinated universal time", "etc/utc", "etc/gmt"})
_LICENCE_WORDS = re.compile(r"\blicen[cs]e\b|\bversion\b|[^a-z0-9.]|\.0\b|v(?=\d)")
_ONE_NAME = {"licence": lambda low: _LICENCE_WORDS.sub("", low),
             "currency": lambda low: CURRENCIES.get(low, low.upper()),
             "measure": lambda low: MEASURES.get(low, low),
             "timezone": lambda low: "utc" if low in _UTC else "local" if low.startswith("local") else low,
             "channel": lambda low: low}


def one_name(kind: str, text: str) -> str | None:
    """The one name of a value named by a word ("euros" and "EUR" are "EUR", "km" and "kilometres" "km", "GMT" and
    "UTC" "utc", "Apache License 2.0" and "Apache-2.0" "apache2"); None for a value of another kind."""
    name = _ONE_NAME.get(kind)
    return None if name is None else name(" ".join(text.lower().split()))


_BOUNDLESS = frozenset({"region", "email", "url", "literal", "naming", "holiday", "switch", "currency", "measure", "timezone", "licence", "version", "channel"})      # kinds compared as written (by ``compare``), with no number
# where mail goes or comes from, and where a page is: "reports go to security@example.com" / "… to
# abuse@example.com" are one question's two answers, and "sent from noreply@example.com" / "sent
# through SendGrid" two facts. v1's domain selector never read them (an "@" or "/" before the name)
_EMAIL_RE = r"(?<![\w.+`-])(?P<val>[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?![\w-])"
_URL_RE = r"(?<![\w`])(?P<val>https?://[^\s<>()`\"']+[^\s<>()`\"'.,;:!?])"
_PARTS_OF_THE_WORLD = (r"EU|European Union|Europe|EEA|US|USA|United States|North America|APAC|Asia[- ]Pacific|Asia|"
                       r"South America|Canada|Middle East|Africa")
_COUNTRY_NAMES = (r"Germany|France|Ireland|Netherlands|Sweden|Spain|Italy|Belgium|Austria|Poland|Finland|Denmark|"
                  r"Australia|Singapore|Japan|India|South Korea|Indonesia|Brazil")
_GEO_NAMES = r"(?P<val>" + _PARTS_OF_THE_WORLD + "|" + _COUNTRY_NAMES + r")(?![\w-])"
# not where a thing comes from: "Logins from Germany are allowed." names which logins (a subject's variant), not a
# place they must be
_GEO_RE = (r"(?P<prep>\b(?i:in|into|to|within|inside|outside|across)\s+(?:the\s+)?|\b(?i:from)\s+(?:the\s+)?"
           r"(?=(?:" + _PARTS_OF_THE_WORLD + r")(?![\w-])))" + _GEO_NAMES)
# "must never leave the EU" is "must stay in the EU": the "never leave" is the value's, not the
# claim's negation, else "… must stay in the EU" reads as its opposite. Likewise a "not" before
# "outside the EU" ("must not be stored outside the EU" = stored only in the EU); "outside" with no
# negation to undo ("is stored outside the EU") names no region at all
_GEO_LEAVE = (r"(?P<neg>(?i:\b(?:never|not)|n't)\s+(?i:be\s+)?(?i:leave|leaves|exit|(?:be\s+)?(?:moved|transferred|taken|sent)"
              r"\s+out\s+of)\s+(?i:the\s+)?)" + _GEO_NAMES)
_OUTSIDE_NEGATED = re.compile(r"(?:\b(?:never|not)|n't)\b(?=[^.;:!?]{0,50}$)", re.IGNORECASE)

# a range of one quantity ("between 1 and 365 days", "7 to 90 calendar days", "10 seconds to 10
# minutes", "3-5 business days", "anywhere from zero to five weeks"): the values a setting may take, so
# "keeps backups for six weeks" breaks "0 to 35 days" and "a 14-day retention" sits inside "1 to 365
# days". The first end may leave its unit to the second. "from 3 to 5 nodes" is a change, not a range
# (``_range_bound``); "between" alone takes "and".
_RANGE_NUM = r"\d[\d,]*(?:\.\d+)?|" + one_of(w for w in WORD_NUMBERS if " " not in w)
_RANGE_UNIT = (r"(?:business|working|calendar|work)\s+days?|" + "|".join(map(re.escape, _UNIT_ALT)))
# "between a week and 90 days": one of a unit, said with its article, as the range's low end (``_range_bound``)
_RANGE_RE = (r"(?P<val>(?P<prep>between\s+)?(?P<lo>" + _RANGE_NUM + r"|an?(?=\s))(?:\s?(?P<u1>" + _RANGE_UNIT + r")\b)?\s*"
             r"(?P<to>-|–|to|and|through)\s*"
             r"(?P<hi>" + _RANGE_NUM + r")\s?(?:(?P<pct>%)|(?P<u2>" + _RANGE_UNIT + r")\b))")
_RANGE_FROM = re.compile(r"\bfrom\s+$", re.IGNORECASE)
_RANGE_SAID = re.compile(r"\b(?:anywhere|ranging|ranges?|somewhere|configurable|set|settable|values?)\s+from\s+$", re.IGNORECASE)

# no upper bound at all ("There is no limit on the number of log streams", "an unlimited number of
# preview deployments", "doesn't enforce a quota on concurrent connections", "is not capped"): a value
# of its own, an upper bound at infinity in any unit (``ANY_UNIT``), so a stated cap on the same thing
# breaks it ("… is capped at 10,000 log streams") while a count under it does not. Its "no"/"not" is the
# value's, not the claim's negation ("There is no limit …" is no must-not). "no limit of 5" is a limit.
_LIMIT_WORDS = r"(?:limit|maximum|max|cap|ceiling|quota)s?"
_UNLIMITED_RE = (r"(?P<val>\bunlimited\b|\bno\s+(?:[a-z-]+\s+)?" + _LIMIT_WORDS +
                 r"\b(?!\s+(?:of|at|is|are)\s+\d)(?!-)|\b(?:not|never)\s+(?:be\s+)?(?:capped|limited)\b(?!\s+(?:at|to)\b)|"
                 r"\bwithout\s+(?:a|any)\s+(?:[a-z-]+\s+)?" + _LIMIT_WORDS + r"\b|"
                 r"(?:\b(?:does|do)\s+not|\b(?:doesn't|don't|never))\s+(?:enforce|impose|set|have|put|apply)\s+(?:a|an|any)\s+"
                 r"(?:[a-z-]+\s+)?" + _LIMIT_WORDS + r"\b)")
ANY_UNIT = "*"
_COMPOUND_WORDS = one_of(w for w in WORD_NUMBERS if " " not in w and w != "single")
_FRACTION = r"(?:(?P<fn>a|one|two|three|four|[1-4])\s+(?P<den>halves|half|thirds?|quarters?|fifths?|tenths?)|(?P<half>half))"
# not "second": "a third of a second reviewer" is the ordinal, as in the durations with an article
_FRACTION_UNITS = ("minute", "hour", "day", "week", "month", "year", "kilobyte", "megabyte", "gigabyte", "terabyte")   # _PERIOD's or _SIZES' keys
_COMPOUND_SIZES = ("bit", "byte", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib")
_COMPOUND_UNITS = "|".join(("millisecond", "ms", "second", "sec", "minute", "min", "hour", "hr", "day", "week", "month",
                            "year", "character", "char", *_COMPOUND_SIZES))
# points in time and how often, not amounts: no bound word turns them and no cap holds them
POINT_UNITS = ("date", "clock", "weekday", "period", "month", "monthday", "yearday")

PLATFORMS = r"(?:(?-i:iOS|iPadOS|macOS|watchOS|tvOS)|android|windows|chrome|firefox|safari)"
TYPED_PATTERNS: list[tuple[str, Guarded]] = [
    # the whole day ("Support is available 24/7.", "around the clock", "24 hours a day"): the span of the day from
    # midnight to midnight, so "staffed from 9am to 5pm" is another span of it (it was no value, or a rate of time)
    ("allday", Guarded("", r"(?<![\w/])(?P<val>24\s?/\s?7|24\s?x\s?7|(?:a)?round[- ]the[- ]clock|24\s+hours\s+a\s+day)(?![\w/])",
                       re.IGNORECASE)),
    # "at any time, day or night", "day and night", "at all hours" (session 96: "Support is available 24/7." / "You can
    # reach support at any time, day or night." had one value; the cross-encoder blocked the pair at p 1.00); not the
    # name of a shift or a team ("day and night shifts")
    ("allday", Guarded("", r"(?<![\w/-])(?P<val>(?:day\s+(?:or|and)\s+night|night\s+(?:or|and)\s+day)"
                           r"(?!\s+(?:shifts?|teams?|crews?|rates?|staff|modes?|workers?)\b)|at\s+all\s+hours)(?![\w-])",
                       re.IGNORECASE)),
    # a release of an operating system or a browser, numbered by a whole number ("iOS 16 and later", "Android 12",
    # "Windows 11", "Chrome 120"), which v1's version selector, knowing languages' names, read as a bare number: "The
    # app supports iOS 16 and later." / "The app runs on iOS 17." were the numbers 16 and 17, blocked. Not frameworks'
    # or servers' names ("Vue 2", "Redis 7"): as versions they moved the bench pairs that name them both ways
    ("version", Guarded("", r"(?<![\w.-])(?P<val>" + PLATFORMS + r"\s?\d+(?:\.\d+)*)(?![\w%-])(?!\.\d)", re.IGNORECASE)),
    # a chat channel named by its hash ("Incidents are announced in #incidents.", "post in #admins-github"): where
    # something is said or asked is a value, compared by its name ("#incidents" / "#general" two, "in #incidents" / "in
    # the #incidents channel" one); it was no value, so the two answers of one question met as "same stance"
    ("channel", Guarded("", r"(?<![\w&#/])(?P<val>#(?![0-9a-f]{3}(?:[0-9a-f]{3})?(?:[0-9a-f]{2})?\b)(?=[a-z0-9_.-]*[a-z])[a-z0-9][a-z0-9_.-]*[a-z0-9])(?![\w-])", needs="#")),
    # the licence something is released or used under ("Our SDK is released under the Apache-2.0 licence.", "licensed
    # under the MIT License", "accepted only under Apache-2.0"): compared by its name (``one_name``), so "Apache-2.0" /
    # "Apache License 2.0" is one licence and "MIT" another. Only after "under" ("GPL-licensed dependencies are denied."
    # names which things), and a bare "MIT", "ISC" or "BSD" only before "licence" or the clause's end ("under MIT rules")
    ("licence", Guarded(r"(?P<prep>\bunder\s+(?:the\s+|an?\s+)?)",
                        r"(?P<val>(?-i:(?:MIT|ISC|Unlicense|BSD(?:[- ][23][- ]Clause)?)(?=\s*(?:[Ll]icen[cs]e|[.,;:)]|$))|MPL(?:[- ]2\.0)?|(?:A|L)?GPL(?:[- ]?v?[23](?:\.0)?)?"
                        r"(?:-only|-or-later|\+)?|CC[- ]BY(?:[- ]SA)?(?:[- ][1-4]\.0)?)|Apache(?:\s+License)?(?:[- ](?:version\s+)?2(?:\.0)?))"
                        r"(?![\w-])(?!\.\d)", re.IGNORECASE, needs=r"\bunder\b")),
    # numbers joined by colons, three or more, that are no time of day ("MaxStartups … is 10:30:100"): one
    # setting written as it is configured, compared as written; read as three numbers, "10:30:100" and
    # "10:30:60" both gave the value 10
    ("literal", Guarded("", r"(?<![\w.:])(?!(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d(?![\w:]))(?P<val>\d+(?::\d+){2,})(?![\w:])")),
    ("range", Guarded("", r"(?<![\w.,-])" + _RANGE_RE, re.IGNORECASE)),
    # a range of days as a config writes them ("7d-30d", "7-30d", "1d to 7d"): the lower-case "d" right after each
    # number (``days`` below); read so, "7d-30d" was no value and "7-30d" the bare number 7
    ("range", Guarded("", r"(?<![\w.,-])(?P<val>(?P<prep>between\s+)?(?P<lo>\d+(?:\.\d+)?)(?P<u1>(?-i:d))?\s*"
                      r"(?P<to>-|–|to|through|and)\s*(?P<hi>\d+(?:\.\d+)?)(?P<u2>(?-i:d)))(?![\w-])", re.IGNORECASE)),
    ("date", Guarded(_prep("on"), r"(?P<val>" + _ISO_DATE + r")\b", re.I)),
    ("date", Guarded(_prep("on"), r"(?P<val>" + _MONTH_DAY_YEAR + r")\b", re.I)),
    ("date", Guarded(_prep("on"), r"(?P<val>" + _DAY_MONTH_YEAR + r")\b", re.I)),
    ("date", Guarded(_prep("in"), r"(?P<val>" + _MONTH_YEAR + r")\b", re.I)),
    # a day of the year with no year ("The office is closed from Dec 24 to Jan 1.", "taxes are due on April 15",
    # "between 1st January and 31st December"): a point in the year, as a weekday is one in the week; read as a
    # bare number ("24"), or not at all, the day was compared with any other number. "May" only capitalised (the
    # modal), and never where a year or a time of day follows
    # a span of such days, the way a freeze or a closure is given ("from Dec 24 to Jan 4", "between December 20 and
    # January 3", "Dec 24 - Jan 1"): a range that may run over the new year (its first day after its last)
    ("yeardays", Guarded(r"(?P<prep>\b(?:from|between)\s+)?", r"(?P<val>(?P<first>" + _YEARDAY + r")\s*"
                         r"(?P<to>to|through|thru|until|till|and|-|–|—)\s*(?P<last>" + _YEARDAY + r"))"
                         r"(?![\d:.,]\d)(?!,?\s+\d{4})(?![\w-])")),
    ("yearday", Guarded(_prep("on"), r"(?P<val>(?:" + _YEARDAY_MONTH + r")\.?\s+[0-3]?\d(?:st|nd|rd|th)?)"
                        r"(?![\d:.,]\d)(?!,?\s+\d{4})(?![\w-])")),
    ("yearday", Guarded(_prep("on"), r"(?<![\d.,])(?P<val>(?:the\s+)?[0-3]?\d(?:st|nd|rd|th)?\s+(?:of\s+)?"
                        r"(?:" + _YEARDAY_MONTH + r"))(?![\w-])\.?(?!,?\s+\d{4})")),
    # the end or the start of a month, said as a day ("Grant reports are due at the end of March." against "… must be
    # filed by March 31." had no value, and the cross-encoder blocked the pair at p 1.00): its last or its first day
    ("yearday", Guarded(_prep("on|at"), r"(?P<val>(?:the\s+)?(?P<mpart>end|start|beginning)\s+of\s+(?:"
                        + _YEARDAY_MONTH + r"))(?![\w-])(?!,?\s+\d{4})")),
    # a year alone, where the words before it make it a point in time ("supported until 2026", "through the
    # end of 2024", "support ends in 2027"): compared at year precision. Not after a bare "in" ("moved to
    # Berlin in 2019", "created in 2013": the year of an event, which no rule of the store is about) nor
    # as a name ("the 2024 Edition", "ISO 27001")
    ("date", Guarded(_YEAR_BEFORE, r"(?P<val>(?:19[89]\d|20\d\d))\b(?![-/.]\d|\s*%|[-\w])", re.IGNORECASE)),
    # and after a bare "in" in a statement about a release's life ("stops getting security updates in 2025", "was
    # launched in 2019"): there the year is when that life begins or ends, the point such statements compare; elsewhere
    # it stays the year of an event, as above. A date; searched only in a text with a word of such a life
    # (``_LIFECYCLE``, in ``extract_typed_values``)
    ("life_year", Guarded(r"(?P<prep>\bin\s+)(?:(?:early|mid|late)[- ]\s*)?",
                          r"(?P<val>(?:19[89]\d|20\d\d))\b(?![-/.]\d|\s*%|[-\w])", re.IGNORECASE)),
    # which day of the month ("Payroll runs on the 15th of each month." / "… on the last business day of the
    # month.", "invoices are sent on the 1st"): a point in the month, as a weekday is one in the week.
    # Said with "of the month", or as "on the 1st" with nothing after it ("on the 3rd floor" is no day);
    # before the rates, which read "15th of each month" as fifteen "th of" a month
    ("monthday", Guarded(r"(?P<prep>\b(?:on|by|before|after|until|(?:no|not)\s+later\s+than)\s+)?",
                         r"\bthe\s+(?P<val>(?:(?P<nth>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)|first|(?P<last>last|final))"
                         r"(?:\s+(?:business\s+|working\s+|calendar\s+)?day)?)\s+of\s+(?:the|each|every|any)\s+month\b",
                         re.IGNORECASE, needs="month")),
    ("monthday", Guarded(r"(?P<prep>\b(?:on|by|before|after|until)\s+)",
                         r"the\s+(?P<val>(?P<nth>[1-9]|[12]\d|3[01])(?:st|nd|rd|th))(?=\s*(?:[.,;:)]|$))", re.IGNORECASE)),
    # the currency before the amount, as a sign or as its code ("$5,000", "EUR 5,000", "USD 250 per month")
    # a switch's state after a verb of being that v1's "is on"/"are off" leaves unread ("must be off in production",
    # "stays on", "remains off unless …"): the state, as "is off" is read; not "be on call", "be on time"
    ("switch", Guarded(r"", r"\b(?:be|stay|stays|stayed|remain|remains|remained)\s+(?P<val>on|off)\b(?=\s*(?:[.,;:)!]|$)|"
                       r"\s+(?:in|for|by|during|unless|when|until|except|at|outside|across|and|or|but|everywhere)\b)",
                       re.IGNORECASE)),
    # with whom or what it is paid for, before or after its period ("$20 per user per month", "$20/seat/month", "$25 a
    # month for each seat"): a price per head is another quantity than a plan's whole price
    ("money", Guarded(_OP, r"(?P<val>(?P<cur>[$€£]|\b(?-i:USD|EUR|GBP)(?=\s?\d))\s?" + _AMOUNT + r"(?P<scale>\s?[kKmM]\b)?"
                      + _MONEY_BASIS + r")", re.I)),
    ("money", Guarded(_OP, r"(?P<val>" + _AMOUNT + r"\s?(?P<cur>usd|eur|gbp|dollars?|euros?|pounds?)\b" + _MONEY_BASIS + r")",
                      re.I)),
    # "5 MB" and "5 megabytes" (the unit said in full was no unit: a bare 5 against 5 MB)
    ("size", Guarded(_OP, r"(?P<val>" + _AMOUNT + r"\s?(?P<unit>[kmgtp]i?b|bytes?|bits?|kib|mib|gib|tib|"
                     r"(?:kilo|mega|giga|tera|peta)bytes?)\b)", re.I)),
    # a fraction of a unit or of a whole ("a quarter of an hour", "three quarters of a year", "a quarter of a
    # megabyte"; "two fifths of its RAM", "at least half of the team": a share, in percent). Before the
    # rates, which read "three quarters of a year" as quarters per year
    ("fraction", Guarded(_OP, r"(?<![\w-])(?P<val>" + _FRACTION + r"\s+of\s+an?\s+(?P<unit>" + "|".join(_FRACTION_UNITS) + r"))\b",
                         re.IGNORECASE)),
    ("fraction", Guarded(_OP, r"(?<![\w-])(?P<val>" + _FRACTION + r")(?=\s+of\s+(?:the|its|their|our|your|an?|all|available)\s)",
                         re.IGNORECASE)),
    # how many times in a span, before a rate reads "3 times a day" as a rate of "times"
    ("frequency", Guarded(_OFTEN_OP, r"(?<![\w-])(?P<val>(?P<times>once|twice|thrice|(?P<tn>" + _RANGE_NUM + r")\s+"
                          r"(?P<more>or\s+more\s+)?times)(?:(?:\s+(?:a|an|per|each|every|in\s+a)\s+|\s*/\s*)(?:(?P<n>" + _RANGE_NUM +
                          r")\s+)?" + _OFTEN_UNIT_RE + r"|\s+(?P<adv>" + "|".join(_FREQUENCIES) + r")\b))", re.IGNORECASE,
                          needs="once|twice|thrice|times")),
    # a count in a span with no noun counted, which counts the statement's own thing ("Bulk exports are limited to one
    # per hour.", "Deploys: at most 3 per day"): how often, as "once per hour" is; read as a rate of nothing, it met no
    # "every 15 minutes"
    ("frequency", Guarded(_OFTEN_OP, r"(?<![\w-])(?P<val>(?P<tn>" + _RANGE_NUM + r")\s+per\s+" + _OFTEN_UNIT_RE + r")",
                          re.IGNORECASE, needs=r"\bper\b")),
    # the same in a config's units ("once per 12h", "twice a 24h"): read as the span "12h" before
    ("frequency", Guarded(_OFTEN_OP, r"(?<![\w-])(?P<val>(?P<times>once|twice|thrice|(?P<tn>" + _RANGE_NUM + r")\s+"
                          r"(?P<more>or\s+more\s+)?times)(?:\s+(?:a|an|per|each|every|in)\s+|\s*/\s*)(?P<n>\d+)"
                          r"(?-i:(?P<unit>[smdhw])))(?![\w-])", re.IGNORECASE, needs="once|twice|thrice|times")),
    # a span named as the period ("on a 6 week cadence", "at 15-minute intervals", "a three-year
    # cycle", "a weekly cadence"), before a compound reads "15-minute" as a duration
    ("frequency", Guarded("", r"(?<![\w-])(?P<val>(?:(?P<n>" + _RANGE_NUM + r")[\s-]" + _OFTEN_UNIT_RE + r"|(?P<adv>"
                          + "|".join(_FREQUENCIES) + r"))\s+" + _CYCLE_OF + r"(?:cadence|cycle|intervals?)\b)",
                          re.IGNORECASE, needs="cadence|cycle|interval")),
    # a rate over a counted span ("20 requests per 15 seconds", "10,000 per 10 minutes", "120 gateway events
    # every 60 seconds"): read as "20 requests" beside "15 seconds", two values that each differed from
    # "100 requests per minute" in the wrong way
    # ("20 requests per 15 seconds", "… per 15s": a config's span, its unit right after the number)
    ("rate", Guarded(_OP, r"(?P<val>" + _NUM + r"\s?(?P<thing>[a-z]+(?:\s[a-z]+)?)?(?:\s*/\s*|\s+(?:per|every|each)\s+)"
                     r"(?P<den>" + _RANGE_NUM + r")(?:\s+(?P<per>" + _PERIOD_RE + r")s?|(?-i:(?P<short>[smhd])))\b)",
                     re.IGNORECASE)),
    # the same said with "in" ("10000 messages in 30s", "5 failed logins in 10 minutes", "3 releases in a year"): a
    # count and a span that each differed from "1000 messages per 30 seconds"; only with what is counted
    ("rate", Guarded(_OP, r"(?P<val>" + _NUM + r"\s(?P<thing>[a-z]+(?:\s[a-z]+)?)\s+in\s+(?:(?P<den>" + _RANGE_NUM
                     + r")\s?|an?\s+)(?P<per>" + _PERIOD_RE + r")s?\b)", re.IGNORECASE, needs=r"\sin\s")),
    ("rate", Guarded(_OP, r"(?P<val>" + _NUM + r"\s?(?P<thing>[a-z]+(?:\s[a-z]+)?)?" + _PER +
                     r"(?P<per>" + _PERIOD_RE + r")\b)", re.I)),
    # the span said as its adverb ("8 hours daily", "2 GB weekly"): the rate "8 hours every day" is; read as the
    # amount beside how often, the same schedule said both ways conflicted with itself
    ("rate", Guarded(_OP, r"(?P<val>" + _NUM + r"\s?(?P<thing>" + _THING_WORD + r"(?:\s" + _THING_WORD + r")?)\s+"
                     r"(?P<adv>hourly|daily|nightly|weekly"
                     r"|monthly|yearly|annually))\b", re.IGNORECASE,
                     needs="hourly|daily|nightly|weekly|monthly|yearly|annually")),
    ("count", Guarded(_OP, r"(?P<val>" + _NUM + r"\s+times)\b", re.I)),
    # every so long, after the rates ("120 events every 60 seconds", "8 hours every day" stay rates); not
    # what is counted for each span ("accrue 1.25 days for each month of service", "$5 per every day late")
    ("frequency", Guarded(_OFTEN_OP, r"(?<![\w-])(?<!\bfor )(?<!\bper )(?P<val>(?:once\s+)?(?:every|each)\s+"
                          r"(?:(?P<other>other)\s+|(?P<n>" + _RANGE_NUM + r")\s+)?" + _OFTEN_UNIT_RE + ")",
                          re.IGNORECASE, needs="every|each")),
    # every so long in a config's units ("rotated every 90d", "every 12h", "every 2w", "scraped every 30s"): lower-case
    # letters right after the number; read as a span before, "every 90d" was a duration, not how often
    ("frequency", Guarded(_OFTEN_OP, r"(?<![\w-])(?<!\bfor )(?<!\bper )(?P<val>(?:once\s+)?(?:every|each)\s+"
                          r"(?P<n>\d+)(?-i:(?P<unit>[smdhw])))(?![\w-])", re.IGNORECASE, needs="every|each")),
    # a decimal with its unit ("0.5 days", "1.75 hours"): v1's version selector comes before its number
    # one and took "0.5" for a version
    ("decimal", Guarded(_OP, r"(?<![\w.,-])(?P<val>(?P<num>\d+\.\d+)\s?(?P<unit>%|" + "|".join(map(re.escape, _UNIT_ALT)) + r")\b)",
                        re.IGNORECASE)),
    # a quantity written as a compound adjective: "a 30-minute delay", "96-bit tokens", "a six-month
    # sabbatical", "2048-bit keys" — the hyphen kept v1's selectors from reading a unit, so the number
    # went unread ("30-") or bare
    ("compound", Guarded(_OP, r"(?<![\w.,-])(?P<val>(?P<num>\d[\d,]*(?:\.\d+)?|" + _COMPOUND_WORDS + r")-(?P<unit>"
                         + _COMPOUND_UNITS + r"))(?![\w-])", re.IGNORECASE)),
    # a grouped number joined to a noun ("the 1,000-entity sharing quota", "a 10,000-row limit"): v1's selector
    # read "1" (its digits stop where a hyphen follows), so the quota was one; after the compounds,
    # which read "1,000-hour" as a span
    ("grouped", Guarded(_OP, r"(?<![\w.,-])(?P<val>(?P<num>\d{1,3}(?:,\d{3})+))(?=-[a-z])", re.IGNORECASE)),
    # thousands with a "k" and nothing after it that counts ("capped at 10k per account", "at least 310k
    # iterations"): v1's number selector stops at the "k" and read nothing
    ("grouped", Guarded(_OP, r"(?<![\w.,-])(?P<val>(?P<num>\d{1,3}(?:\.\d+)?k))(?![\w.-])", re.IGNORECASE)),
    # "2 business days", "5 working days", "7 calendar days": days (a business day counted as a day),
    # not a bare "2" that v1's selectors read without its unit
    ("days", Guarded(_OP, r"(?P<val>" + _NUM + r"\s+(?:business|working|calendar|work)\s+days?)\b" + _OR_SO,
                     re.IGNORECASE)),
    # days written as a config writes them ("capped at 200d", "retention 30d"), a lower-case "d" right after the
    # number only ("3D Secure" is no three days); "12h" and "60s" were read already (``values.UNITS``)
    ("days", Guarded(_OP, r"(?<![\w.,-])(?P<val>(?P<num>\d+(?:\.\d+)?)(?-i:d))(?![\w-])" + _OR_SO, re.IGNORECASE)),
    # one of a unit said with an article ("within an hour", "half a day of TOIL", "at least a week", "for a
    # year and a half"); not how often ("once a week", "every day": a frequency) and not a rate's
    # denominator ("50,000 keys a day", ``_PER_DENOMINATOR``); "a second" is too often the ordinal
    ("duration", Guarded(_OP, r"(?<![\w-])(?<!\bonce )(?<!\btwice )(?<!\bper )(?<!\bevery )(?<!\beach )(?<!\btimes )(?<!\bof )"
                         r"(?P<val>(?P<half>half\s+)?an?\s+(?P<unit>minute|hour|day|week|fortnight|month|year)"
                         r"(?P<andhalf>\s+and\s+a\s+half)?)\b(?!-)", re.IGNORECASE)),
    # a number and a half of a unit: "three and a half years", "2 and a half hours" (read as "three" years before)
    ("halves", Guarded(_OP, r"(?P<val>" + _NUM + r"\s+and\s+a\s+half\s+(?P<unit>minute|hour|day|week|month|year)s?)\b",
                       re.IGNORECASE)),
    # working hours said bare ("Support is staffed 9 to 5 on weekdays.", "open 8-6"): a later first hour than the last
    # is no range of numbers, so a morning to an afternoon, where nothing is counted after it
    ("workhours", Guarded(r"(?P<prep>\b(?:from|between)\s+)?",
                          r"(?<![\w:.,/-])(?P<val>(?P<h1>[6-9]|1[01])\s{0,2}(?P<to>to|until|till|through|-|–)\s{0,2}(?P<h2>[1-7]))"
                          r"(?=[.,;:)](?!\d)|$|\s+(?:on|every|each|daily|weekdays|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)"
                          r"(?:day)?s?)\b)",
                          re.IGNORECASE)),
    # a span of the day ("The office is open from 8am to 6pm.", "Core hours are 10am to 3pm.", "09:00 to 17:30", "between
    # 9am and 5pm", "9-5pm"): the times from one to the other, as a span of weekdays is. Read as its first time alone,
    # "open from 8am to 6pm" / "open from 8am to 5pm" was "same value", and a time inside the span was another value.
    # The first end may leave its half of the day to the last ("9 to 5pm": 9am); "and" only after "between"
    ("clocks", Guarded(r"(?P<prep>\b(?:from|between)\s+)?",
                       r"(?<![\d:.])(?P<val>(?P<h1>[01]?\d|2[0-3])(?::(?P<m1>[0-5]\d))?\s{0,2}(?P<ampm1>[ap]\.m\.|[ap]m\b)?"
                       r"(?:\s{0,2}(?P<tz1>(?-i:UTC|GMT|Z|[A-Z]{1,4}T))\b)?\s{0,2}"
                       r"(?P<to>to|until|till|through|thru|and|-|–|—)\s{0,2}"
                       r"(?P<h2>[01]?\d|2[0-3])(?::(?P<m2>[0-5]\d))?\s{0,2}(?P<ampm2>[ap]\.m\.|[ap]m\b)?" + _TZ + r")(?![\d:.]\d)",
                       re.IGNORECASE)),
    # the part of the day said in words ("start at 10 in the morning", "until 5 in the afternoon"): the hour it names,
    # as "10am" is; read as the bare number 10, "Core hours start at 10 in the morning and end at 3pm." set its 3pm
    # against "10am to 3pm"'s 10am
    ("clock", Guarded(_CLOCK_PREP, r"(?<![\d:.])(?P<val>(?P<h>1[0-2]|0?[1-9])(?::(?P<m>[0-5]\d))?\s+(?:o['’]clock\s+)?"
                      r"in\s+the\s+(?P<part>morning|afternoon|evening))\b", re.IGNORECASE)),
    # times of day: "02:00 UTC" = "2am UTC", "14:00" = "2 p.m." (a ratio "3:1" and "10:30:15" are not)
    ("clock", Guarded(_CLOCK_PREP, r"(?<![\d:.])(?P<val>(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d:])"
                      r"(?:\s*(?P<ampm>[ap]\.?m\.?)(?![a-z]))?" + _TZ + ")", re.IGNORECASE)),
    ("clock", Guarded(_CLOCK_PREP, r"(?<![\d:.])(?P<val>(?P<h>1[0-2]|0?[1-9])\s*(?P<ampm>[ap]\.m\.|[ap]m\b)" + _TZ + ")",
                      re.IGNORECASE)),
    ("clock", Guarded(_CLOCK_PREP, r"(?P<val>\b(?P<word>noon|midnight)\b" + _TZ + ")", re.IGNORECASE)),
    # days of the week as a span: "Monday to Friday", "Mon–Fri" spelled out, "on weekends", "weekdays" ("No deploys
    # on weekends." against "The release job runs every Saturday."): the days from one to the other, both in
    ("weekdays", Guarded("", r"\b(?P<val>(?P<first>" + _WEEKDAY_RE + r")\s*(?:to|through|thru|until|-|–|—)\s*"
                         r"(?P<last>" + _WEEKDAY_RE + r"))\b", re.IGNORECASE)),
    # "on weekends", "over the weekend", "evenings and weekends"; not a noun's modifier ("Weekend overtime should …")
    ("weekdays", Guarded(r"(?P<prep>\b(?:on|during|over|at|across|in|every|each|and|or|the|this|next)\s+(?:the\s+)?)",
                         r"(?P<val>(?P<weekend>weekends?)|(?P<workweek>weekdays))\b(?!-)", re.IGNORECASE)),
    ("weekday", Guarded(r"(?P<prep>\b(?:on|every(?:\s+other)?|each|until|by|before|after)\s+)", _WEEKDAY_VAL, re.IGNORECASE)),
    # holidays as the days a rule holds on ("The office is closed on public holidays." against "… is open on weekends."):
    # days of their own kind, compared as written; read as nothing, the two were one office's opposite stances
    ("holiday", Guarded(r"(?P<prep>\b(?:on|during|over|for|before|after)\s+(?:the\s+|all\s+)?)",
                        r"(?P<val>(?:(?:public|bank|national|federal|company|religious|statutory)\s+)?holidays?)\b(?!-)",
                        re.IGNORECASE)),
    ("weekday", Guarded("", r"(?:(?<=day and )|(?<=day, )|(?<=day or )|(?<=days and )|(?<=days, )|(?<=days or ))"
                        + _WEEKDAY_VAL, re.IGNORECASE)),
    ("weekday", Guarded("", r"(?<!black )(?<!good )(?<!cyber )\b(?P<val>(?:" + _WEEKDAY_RE + r")s)\b", re.IGNORECASE)),
    # a month of the year with no day or year ("ship every September", "upgrade before July", "releases
    # in April"): a point in the year, as a weekday is one in the week; capitalised, so "may" is the modal
    ("month", Guarded(r"(?P<prep>\b(?i:in|every|each|until|till|by|before|after|from|during|starting in)\s+)",
                      r"(?:(?i:early|late|mid)[- ])?(?P<val>" + "|".join(m for m in calendar.month_name if m) +
                      r")\b(?!\s*\d)(?!,?\s+\d{4})(?!\s+(?:of\s+)?(?:this|next|last)\s+year)")),
    ("unlimited", Guarded("", _UNLIMITED_RE, re.IGNORECASE)),
    # a span without end ("log data is stored indefinitely", "deprecated APIs are kept forever"): longer than
    # any stated span, so "30-day retention" or "removed within 90 days" breaks it and "at least 30 days" does not
    # lower case: "Diamonds Are Forever" is a title
    ("forever", Guarded("", r"\b(?P<val>indefinitely|forever|in\s+perpetuity|permanently)\b",
                        needs="indefinitely|forever|perpetuity|permanently")),
    # a naming convention ("kebab-case", "lowerCamelCase"): one style per kind of name (``naming_styles``)
    ("naming", Guarded("", NAMING_RE, re.IGNORECASE, needs="case|kebab")),
    # a currency named alone, by its code ("The default currency is USD.") or after "in" by its name ("Invoices are
    # issued in euros."): one of a few, compared by its code (``one_name``), so "in EUR" / "in euros" is one value
    # and "in GBP" / "in USD" two. Not "in pounds" (a weight); a code before an amount is the amount's ("USD 250")
    ("currency", Guarded("", r"(?<![\w$€£-])(?P<val>(?-i:USD|EUR|GBP|JPY|CHF|CAD|AUD))(?![\w-])(?!\s?\d)",
                         needs="USD|EUR|GBP|JPY|CHF|CAD|AUD")),
    ("currency", Guarded(r"(?P<prep>\b(?:in|into)\s+)", r"(?P<val>(?:US\s+|U\.S\.\s+|American\s+|Canadian\s+|"
                         r"Australian\s+)?dollars|euros|(?:British\s+)?pounds\s+sterling|sterling|(?:Japanese\s+)?yen|"
                         r"Swiss\s+francs)\b", re.IGNORECASE, needs="dollars|euros|sterling|yen|francs")),
    # a time zone named alone ("Timestamps are in UTC.", "GMT must be used as the time zone reference", "in the
    # server's local time zone (Europe/Berlin)"): compared by its name (``one_name``), UTC and GMT one zone; a zone
    # after a time of day is that time's (read above), and "the UTC offset" is no zone
    ("timezone", Guarded("", r"\b(?P<val>(?-i:UTC|GMT)|Greenwich\s+Mean\s+Time|Coordinated\s+Universal\s+Time|"
                         r"(?-i:(?:Africa|America|Asia|Atlantic|Australia|Europe|Pacific|Etc)/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?)|"
                         r"local\s+time(?:\s*zone)?)\b(?!\s+offset)(?![/-])", re.IGNORECASE,
                         needs="UTC|GMT|Greenwich|Universal|/|local time")),
    # the unit a quantity is given in ("Distances are shown in kilometres.", "Temperatures are displayed in degrees
    # Celsius."): one of a few, compared by its symbol (``one_name``), so "in kilometres" / "in km" is one value and
    # "in kilometres" / "in miles" two; after "in" with no number before it ("is 10 km" is an amount)
    ("measure", Guarded(r"(?<![\d.])(?P<prep>\s+in\s+)", r"(?P<val>(?:degrees\s+)?(?:Celsius|Fahrenheit)|kilomet(?:re|er)s|"
                        r"km|miles|met(?:re|er)s|feet|inches|centimet(?:re|er)s|kilograms|kg|pounds|lbs|lit(?:re|er)s|gallons)"
                        r"(?![\w-])", re.IGNORECASE,
                        needs="celsius|fahrenheit|kilomet|km|miles|metres|meters|feet|inches|centimet|kilogram|kg|pounds|lbs|"
                              "litres|liters|gallons")),
    ("region", Guarded("", _GEO_LEAVE)),
    ("region", Guarded("", _GEO_RE)),
    ("email", Guarded("", _EMAIL_RE, re.IGNORECASE)),
    ("url", Guarded("", _URL_RE, re.IGNORECASE)),
    ("frequency", Guarded("", _BASIS_RE, re.IGNORECASE, needs="basis")),
    ("frequency", Guarded("", _NOT_AFTER + r"\b(?P<val>" + "|".join(_FREQUENCIES) + r")\b" + _ADVERB_END, re.IGNORECASE,
                          needs=r"ly\b")),
    # a setting whose name carries its unit, set in code ("WaitTimeSeconds=30", "limits.cpu_ms = 300000",
    # "timeout_minutes: 15"): that many of the unit; read bare, "30" was a count that "20 seconds" could not meet
    ("named_unit", Guarded("", r"(?<![\w.])(?P<name>[A-Za-z][\w.]*?(?P<unit>Seconds|Secs?|Millis|Ms|Minutes|Mins|Hours|Days|"
                           r"_seconds|_secs?|_millis|_ms|_minutes|_mins|_hours|_days|_bytes|Bytes))\s*[=:]\s*`?"
                           r"(?P<val>\d+(?:,\d{3})*(?:\.\d+)?)(?![\w.])", needs=r"[=:]")),
    # a setting's value written as a word after what sets it ("AllowOverride defaults to All", "… is set to None",
    # "PermitRootLogin defaults to prohibit-password"): the value itself, as in code; without it "… defaults to None" /
    # "… defaults to All" had nothing to compare. Not a pronoun or an article ("set to the …"), nor a word a boolean
    # reads, and only where the value ends its phrase
    ("literal", Guarded("", r"\b(?:defaults?|set|sets|is\s+set|are\s+set)\s+to\s+(?P<val>(?!(?:the|a|an|its|their|this|"
                        r"that|these|those|it|them|one|be|true|false|on|off|yes|no|enabled|disabled|zero|none\b(?=\s+of))\b)"
                        r"(?![\w.-]*\d)[A-Za-z](?:[\w.-]*[A-Za-z0-9])?)(?=\s*(?:[,;:)]|\.(?!\w)|$)|\s+(?:in|on|for|by|unless|when|if|"
                        r"so|and|but|which|since|instead|everywhere)\b)", re.IGNORECASE, needs=r"\bto\b")),
    # a count given as a range before what it counts ("provide 2-3 professional references", "1-3 minor releases"),
    # after every range with a unit: each end was no number of its own, so "five professional references" had
    # nothing to compare with. At most three digits a side: "2023-2024" is years, "8000-8100" ports
    ("count_range", Guarded("", r"(?<![\w.,:/-])(?P<val>(?P<lo>\d{1,3})\s?[-–]\s?(?P<hi>\d{1,3}))(?![\w.,:/%-])(?=\s+[A-Za-z])",
                            needs=r"\d\s?[-–]\s?\d")),
]


def _number(text: str) -> float:
    n = WORD_NUMBERS.get(text.lower())
    if n is None and text[-1:] in ("k", "K"):
        return float(text[:-1].replace(",", "")) * 1000
    return float(n) if n is not None else float(text.replace(",", ""))


def _op(m: re.Match) -> str:
    w = (m.groupdict().get("op") or "").lower()
    if w and re.fullmatch(_LE, w):
        return "le"
    if w and re.fullmatch(_GE, w):
        return "ge"
    return or_so_side(m.groupdict().get("post") or "") or "eq"


def date_number(surface: str) -> float | None:
    """A date with a year as ``yyyymmdd`` (a month of a year: day 00; a year alone: month and day 00); None
    without a month and a year."""
    s = surface.lower().replace(",", " ").replace(".", " ").strip()
    if re.fullmatch(r"\d{4}", s):
        return int(s) * 10000          # a year alone: month and day 00, compared by year
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s)
    if m:
        y, mo, d = map(int, m.groups())
        return y * 10000 + mo * 100 + d if 1 <= mo <= 12 and 1 <= d <= 31 else None
    words = s.split()
    month = next((_MONTHS[w] for w in words if w in _MONTHS), None)
    nums = [int(re.sub(r"\D", "", w)) for w in words if re.sub(r"\D", "", w)]
    year = next((n for n in nums if n > 1900), None)
    day = next((n for n in nums if 1 <= n <= 31), 0)
    if month is None or year is None:
        return None
    return year * 10000 + month * 100 + day


def yearday_number(surface: str) -> float | None:
    """A day of the year as month × 100 + day ("Dec 24" 1224.0, "the 1st of January" 101.0, "the end of February"
    228.0, "the start of April" 401.0); None for no such day."""
    words = re.findall(r"[A-Za-z]+|\d+", surface)
    month = next((_MONTHS[w.lower()] for w in words if w.lower() in _MONTHS), None)
    day = next((int(w) for w in words if w.isdigit()), None)
    part = next((w.lower() for w in words if w.lower() in ("end", "start", "beginning")), None)
    if day is None and month is not None and part is not None:
        day = calendar.monthrange(2023, month)[1] if part == "end" else 1
    if month is None or day is None or not 1 <= day <= calendar.monthrange(2024, month)[1]:    # a leap year: Feb 29
        return None
    return float(month * 100 + day)


def _unit_factor(unit: str) -> tuple[str, float] | None:
    if unit == "d":                  # a config's days, only ever lower case right after the number ("30d")
        return "time", 86400.0
    u = " ".join(unit.lower().split())
    if re.fullmatch(r"(?:business|working|calendar|work) days?", u):
        return "time", 86400.0
    return UNITS.get(unit_key(u))


_EVERY_BEFORE = re.compile(r"\bevery\s+$", re.IGNORECASE)


def _range_bound(m: re.Match) -> Bound | None:
    g = m.groupdict()
    if g["to"].lower() == "and" and not g.get("prep"):
        return None          # "between 2 and 5", "2 to 5"; not "2 and 5 years"
    if g["lo"].lower() in ("a", "an"):
        if not (g.get("prep") and g.get("u1")):
            return None      # only "between a week and 90 days": its unit said
        g = {**g, "lo": "1"}
    before = m.string[max(0, m.start() - 40):m.start()]
    if not g.get("prep") and _RANGE_FROM.search(before) and not _RANGE_SAID.search(before):
        return None          # "scaled from 3 to 5 nodes": a change
    if g.get("pct"):
        hi_unit = lo_unit = ("percent", 1.0)
    else:
        hi_unit = _unit_factor(g["u2"])
        lo_unit = _unit_factor(g["u1"]) if g.get("u1") else hi_unit
    if hi_unit is None or lo_unit is None or lo_unit[0] != hi_unit[0]:
        return None
    lo, hi = _number(g["lo"]) * lo_unit[1], _number(g["hi"]) * hi_unit[1]
    if not lo < hi:
        return None          # "10-4 days" is no range; "7-0" a score
    unit = hi_unit[0]
    if unit == "time" and _EVERY_BEFORE.search(before):
        unit = "period"      # "every 2-4 months", "every 6 to 8 weeks": how often, as "every 6 weeks" is
    return Bound("range", lo, unit, hi)


_DENOMINATORS = {"half": 2, "halve": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}


def _fraction_bound(m: re.Match) -> Bound:
    g = m.groupdict()
    share = 0.5 if g.get("half") else _number(g["fn"] if g["fn"].lower() not in ("a", "an") else "one") / \
        _DENOMINATORS[g["den"].lower().removesuffix("s")]
    unit = (g.get("unit") or "").lower()
    if not unit:
        return Bound(_op(m), round(100 * share, 2), "percent")
    if unit in _SIZES:
        return Bound(_op(m), share * _SIZES[unit], "bytes")
    return Bound(_op(m), share * _PERIOD[unit], "time")


_COMPOUND_LIMIT = re.compile(r"\s+(?:[a-z]+\s+)?(?P<w>limit|cap|maximum|max|ceiling|minimum|floor)s?\b", re.IGNORECASE)


def _compound_op(m: re.Match) -> str:
    """The noun a compound quantity describes may make it a bound: "a 1,000-character limit" is at
    most 1,000 characters, "a 12-character minimum" at least 12."""
    after = _COMPOUND_LIMIT.match(m.string, m.end("val"))
    if after is None:
        return _op(m)
    return "ge" if after.group("w").lower() in ("minimum", "floor") else "le"


# "300 API calls per minute" is a request rate, as are "50 req/s" and "120 reqs per second" in a config's words
_RATE_SAME = {"call": "request", "req": "request", "rq": "request", "msg": "message"}


def typed_bound(kind: str, m: re.Match) -> Bound | None:
    g = m.groupdict()
    if kind == "range":
        return _range_bound(m)
    if kind == "named_unit":
        unit = g["unit"].lower().lstrip("_")
        if unit == "bytes":
            return Bound("eq", _number(g["val"]) * _SIZES[unit], "bytes")
        family, factor = _unit_factor("ms" if unit == "millis" else unit)
        return Bound("eq", _number(g["val"]) * factor, family)
    if kind == "count_range":
        lo, hi = float(g["lo"]), float(g["hi"])
        return Bound("range", lo, "", hi) if lo < hi else None
    if kind in ("date", "yearday", "life_year"):       # a date with its year, or a day of any year
        n = (yearday_number if kind == "yearday" else date_number)(g["val"])
        if n is None:
            return None
        if g.get("part") and n % 10000 == 0:
            # "until the end of 2027" is its last day, not the year: "shut down on March 1, 2027" falls before it
            n += 1231 if g["part"].lower() == "end" else 101
        return Bound(_prep_op(g, ("by", "before", *_NO_LATER), ("after", "from", "since", "as of", *_NO_EARLIER)), n,
                     "yearday" if kind == "yearday" else "date")
    if kind == "money":
        amount = _number(g["num"])
        scale = (g.get("scale") or "").strip().lower()
        amount *= {"k": 1e3, "m": 1e6}.get(scale, 1)
        cur = _CURRENCY.get(g["cur"].lower().rstrip("s"), {"dollar": "usd", "euro": "eur", "pound": "gbp"}.get(
            g["cur"].lower().rstrip("s"), g["cur"].lower()))
        per = (g.get("per") or "").lower()
        each = (g.get("each") or g.get("each_after") or "").lower()
        each = each.rstrip("s")
        each = "/" + _EACH_KINDS.get(each, each) if each else ""
        if per:
            return Bound(_op(m), amount / _PERIOD[per], f"{cur}/time{each}")
        return Bound(_op(m), amount, cur + each)
    if kind == "size":
        unit = g["unit"].lower()
        return Bound(_op(m), _number(g["num"]) * _SIZES[unit if unit in _SIZES else unit.removesuffix("s")], "bytes")
    if kind == "rate":
        thing = (g.get("thing") or "").lower().strip()
        # what is counted, by its last word ("API requests", "create calls" are requests): one family
        # name whether or not a word came before it ("100 requests per minute" / "500 API requests per hour")
        last = thing.split()[-1].rstrip("s") if thing else ""
        last = _RATE_SAME.get(last, last)
        fam = UNITS[last][0] if last in UNITS else (last or "events")
        if g.get("adv"):
            per = float(_FREQUENCIES[g["adv"].lower()])
        else:
            per = _PERIOD[(g.get("per") or g["short"]).lower()] * (_number(g["den"]) if g.get("den") else 1)
        return Bound(_op(m), _number(g["num"]) / per, f"{fam}/time")
    if kind == "count":
        return Bound(_op(m), _number(g["num"]), "count")
    if kind == "grouped":
        return Bound(_op(m), _number(g["num"]), "")
    if kind == "fraction":
        return _fraction_bound(m)
    if kind == "decimal":
        family, factor = _unit_factor(g["unit"])
        return Bound(_op(m), _number(g["num"]) * factor, family)
    if kind == "compound":
        unit = g["unit"].lower()
        if unit in _COMPOUND_SIZES:
            return Bound(_compound_op(m), _number(g["num"]) * _SIZES[unit], "bytes")
        family, factor = _unit_factor(unit)
        return Bound(_compound_op(m), _number(g["num"]) * factor, family)
    if kind == "days":
        return Bound(_op(m), _number(g["num"]) * 86400, "time")
    if kind == "unlimited":
        return Bound("le", math.inf, ANY_UNIT)
    if kind == "forever":
        return Bound("eq", math.inf, "time")
    if kind == "halves":
        return Bound(_op(m), (_number(g["num"]) + 0.5) * _PERIOD[g["unit"].lower()], "time")
    if kind == "duration":
        if _PER_DENOMINATOR.search(m.string[max(0, m.start() - 60):m.start("val")]):
            return None
        n = 0.5 if g.get("half") else 1.5 if g.get("andhalf") else 1.0
        return Bound(_op(m), n * (1209600 if g["unit"].lower() == "fortnight" else _PERIOD[g["unit"].lower()]), "time")
    if kind == "clock":
        return _clock(g)
    if kind == "clocks":
        return _clock_span(g)
    if kind == "workhours":
        return Bound("range", int(g["h1"]) * 60.0, "clock", (int(g["h2"]) + 12) * 60.0)
    if kind == "allday":
        return Bound("range", 0.0, "clock", 1440.0)
    if kind == "weekdays":
        if g.get("weekend"):
            return Bound("range", 6.0, "weekday", 7.0)
        if g.get("workweek"):
            return Bound("range", 1.0, "weekday", 5.0)
        first, last = WEEKDAYS[g["first"].lower()], WEEKDAYS[g["last"].lower()]
        return Bound("range", float(first), "weekday", float(last)) if first < last else None
    if kind == "weekday":
        return Bound(_prep_op(g, ("until", "by", "before"), ("after",)), float(WEEKDAYS[g["val"].lower().removesuffix("s")]),
                     "weekday")
    if kind == "yeardays":
        if g["to"].lower() == "and" and not g.get("prep"):
            return None          # "on Dec 24 and Jan 1": two days, not the days between
        first, last = yearday_number(g["first"]), yearday_number(g["last"])
        return Bound("range", first, "yearday", last) if first is not None and last is not None and first != last \
            else None
    if kind == "monthday":
        day = 99.0 if g.get("last") else float(g["nth"]) if g.get("nth") else 1.0
        return Bound(_prep_op(g, ("by", "before", "until", "no later than", "not later than"), ("after",)), day, "monthday")
    if kind == "month":
        return Bound(_prep_op(g, ("until", "till", "by", "before"), ("after", "from", "starting in")),
                     float(_MONTHS[g["val"].lower()]), "month")
    if kind == "frequency":
        if g.get("basis"):
            return Bound("eq", float(_BASES[g["basis"].lower()]), "period")
        if g.get("unit") is None and g.get("adv") is None:
            return Bound("eq", float(_FREQUENCIES[g["val"].lower()]), "period")
        return _often(g)
    return None


def _prep_op(g: dict, le: tuple[str, ...], ge: tuple[str, ...]) -> str:
    """The bound a point's preposition makes ("by Friday", "after 5pm"): "le", "ge", or "eq" for none."""
    prep = " ".join((g.get("prep") or "").lower().split())
    return "le" if prep in le else "ge" if prep in ge else "eq"


def _often(g: dict) -> Bound | None:
    """The period of a count in a span or of "every" so long, with its bound turned round."""
    if g.get("adv"):
        span = float(_FREQUENCIES[g["adv"].lower()])
    else:
        unit = g["unit"].lower()
        span = _OFTEN_UNITS.get(unit, _SHORT_PERIODS.get(unit, 0)) * (_number(g["n"]) if g.get("n") else 2 if g.get("other") else 1)
    times = (g.get("times") or "").lower()
    # a count said in a word, or its number ("3 times", "3 per day"), or none ("every 6 hours": once)
    count = {"once": 1, "twice": 2, "thrice": 3}.get(times) or (_number(g["tn"]) if g.get("tn") else 1)
    if count <= 0 or span <= 0:
        return None
    op = (g.get("op") or "").lower()
    op = "ge" if op in _OFTEN_LESS else "le" if op or g.get("more") else "eq"
    return Bound(op, span / count, "period")


# "50,000 distinct KV keys a day", "40 hours a week": a count before the article makes it a rate
# (a number that starts there: the "0" of "Auth0 requires at least a week" is a name's, not a rate's count)
_PER_DENOMINATOR = re.compile(r"(?:(?<![\w.])\d|\b" + one_of(w for w in WORD_NUMBERS if " " not in w) + r")[\d,.]*%?"
                              r"(?:\s+[\w'-]+){0,3}\s+$", re.IGNORECASE)


def _clock_span(g: dict) -> Bound | None:
    """The span of the day between two times, each written as a clock reads it: with its half of the day, or as
    "HH:MM" ("09:00 to 17:30"); the first may take the last's half ("9 to 5pm", "10-11am"), or the other half where
    that would start it after its end ("11-1pm": 11am). A bare "2-4" is no span of clock times."""
    if g["to"].lower() == "and" and not g.get("prep"):
        return None          # "at 9am and 5pm": two times, not the span between
    a1, a2 = _half_of_the_day(g.get("ampm1")), _half_of_the_day(g.get("ampm2"))
    h1, h2 = int(g["h1"]), int(g["h2"])
    m1, m2 = int(g.get("m1") or 0), int(g.get("m2") or 0)
    if not (a2 or g.get("m2")):
        return None
    last = _minutes(h2, m2, a2)       # "17:30" is a 24-hour time, whatever the first end's style ("9am to 17:30")
    if last is None:
        return None
    if a1:
        first = _minutes(h1, m1, a1)
    elif a2 and 1 <= h1 <= 12:
        # the first end takes the last's half of the day ("9 to 5pm", "10-11am", "1:30 to 5pm"), or the other half
        # where that would start it after its end ("11-1pm": 11am)
        first = _minutes(h1, m1, a2)
        if first > last:
            first = _minutes(h1, m1, "am" if a2 == "pm" else "pm")
    elif g.get("m1"):
        first = _minutes(h1, m1, "")
    else:
        return None
    if first is None or first == last:
        return None
    return Bound("range", float(first), _clock_unit(g.get("tz") or g.get("tz1")), float(last))


def _half_of_the_day(ampm: str | None) -> str:
    """"am", "pm" or "" for none, however written ("p.m.", "PM")."""
    return (ampm or "").lower().replace(".", "")


def _minutes(h: int, mins: int, half: str) -> int | None:
    """Minutes after midnight of a time read with its half of the day ("am"/"pm"), or as a 24-hour time without one;
    None for an hour a 12-hour clock has not ("14:00 pm")."""
    if half:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if half == "pm" else 0)
    return h * 60 + mins


def _clock_unit(tz: str | None) -> str:
    """"clock" for UTC and its names, "clock/<zone>" for any other zone ("clock/cet")."""
    tz = (tz or "").upper()
    return "clock" if tz in ("", "UTC", "GMT", "Z") else f"clock/{tz.lower()}"


def _clock(g: dict) -> Bound | None:
    """Minutes after midnight; the unit names a zone other than UTC ("clock/cet")."""
    if g.get("word"):
        minutes = 720 if g["word"].lower() == "noon" else 0
    else:
        ampm = _half_of_the_day(g.get("ampm"))
        if g.get("part"):
            ampm = "am" if g["part"].lower() == "morning" else "pm"
        minutes = _minutes(int(g["h"]), int(g.get("m") or 0), ampm)
        if minutes is None:
            return None         # "14:00 pm"
    return Bound(_prep_op(g, _CLOCK_LE, _CLOCK_GE), float(minutes), _clock_unit(g.get("tz")))


# a negation of "exceed", however written: "not", "never", "cannot" (spaCy's "can" + "not") and "can't",
# "doesn't", "mustn't" ("ca"/"does"/"must" + "n't"). Only "not"/"never" were read, so "cannot exceed 2 MB"
# was a prohibition of exactly 2 MB and "can't exceed 2 MB" reached "at most 2 MB" by another way
_NOT = r"(?:\bnot|\bnever|(?<=\bcan)not|(?<=\w)n['’]t)"
_NOT_RE = re.compile(_NOT + r"\b", re.IGNORECASE)
# bound words v1's selectors do not know (v1's norms stay as they were): "capped at 40 hours",
# "limited to 5 recipients", "must not exceed 30 days", "a rate limit of 20 requests per second", what an allowance,
# a budget or a quota is ("The meal allowance is $40 per day": spend up to that, as "can spend up to $40 a day" says),
# "no later than 60 minutes" are upper bounds, "not less than 8 characters" a lower one
# ("PTO that exceeds 10 days needs approval" is a lower bound: more than 10), and a negated comparison
# word turns round ("not less than 8 characters", "never more than 3 retries")
_MORE_LE = re.compile(r"(?:" + _NOT + r"\s+exceed(?:s|ing)?|\b(?:capped at|limited to|(?:caps|limits|capping|limiting)\s+(?:[\w-]+\s+){1,6}(?:at|to)|no longer than|not longer than|not to exceed|"
                      r"no later than|(?<!\bnot )(?<!n.t )(?:allow(?:s|ed)?|permit(?:s|ted)?)(?:\s+(?:each|every|per)\s+[\w-]+)?|(?:rate |hard |upper )?(?:limit|cap|ceiling|allowance|budget|quota) of|(?<!no )(?<!any )(?<!without )(?<!lower )(?<!minimum )(?:limit|cap|ceiling|allowance|budget|quota)s?(?:\s+(?:for|on|per)(?:\s+[\w.-]+){1,3}?)?\s+(?:is|are)|(?<!no )(?<!not )(?:smaller|shorter|lower) than|"
                      # "… and the maximum is 12 hours", "the maximum value is 1000", "The maximum size of an Azure
                      # Cosmos DB item is 2 MB", "Maximum line length is 80 characters"
                      r"(?:^|(?:the|its|a)\s+)max(?:imum)?(?:\s+[\w.-]+){0,8}?\s+(?:is|are|of)|"
                      # what a setting may be raised to is the most it may be ("The timeout can be raised to 120
                      # seconds."), not its value; "was raised to" is the change made, its value
                      r"\b(?:can|may|could)\s+(?:be\s+)?(?:raised|increased|extended|bumped|lengthened)\s+(?:up\s+)?to))\s+$",
                      re.IGNORECASE)
_MORE_GE = re.compile(r"\b(?:no shorter than|not shorter than|(?:lower )?floor of|(?<!not )(?<!never )(?<!n't )(?<!n’t )exceed(?:s|ing)?|"
                      r"(?<!no )(?<!not )(?:larger|greater|bigger|longer|higher) than|"
                      r"(?:^|(?:the|its|a)\s+)min(?:imum)?(?:\s+[\w.-]+){0,8}?\s+(?:is|are)|"
                      r"\b(?:can|may|could)\s+(?:be\s+)?(?:lowered|reduced|decreased|shortened)\s+(?:down\s+)?to)\s+$",
                      re.IGNORECASE)
_NEGATED_OP = re.compile(r"\b(?:not|never)\s+$", re.IGNORECASE)
_TURNED = re.compile(r"(?:less|fewer|more) than\b", re.IGNORECASE)
_TURNED_BEFORE = re.compile(r"\b(?:less|fewer|more) than\s+$", re.IGNORECASE)
# the negated comparisons ``_LE`` and ``_GE`` read whole
_OP_PHRASES = frozenset(w for w in re.findall(r"[a-z ]+", _LE + "|" + _GE) if w.startswith(("no ", "not ")))


def _more_bound_words(text: str, v: Value) -> Value:
    if v.bound is None or v.bound.unit in POINT_UNITS:
        return v
    # the 60 characters before the value ("caps concurrent WebSocket connections at 10,000"), searched in
    # place: "^" is the statement's start ("Maximum line length is 80 …"), not wherever the window begins,
    # and a word the window cuts into is no word of its own
    cut = max(0, v.start - 60)
    if v.bound.op != "eq":
        # the comparison inside the value ("less than 8 characters") or just before it, where a money or size
        # selector left it out ("not less than $40 per day", "not more than 25 MB": turned round as well)
        said = v.start if _TURNED.match(v.text) else (t.start() if (t := _TURNED_BEFORE.search(text, cut, v.start)) else None)
        m = _NEGATED_OP.search(text, cut, said) if said is not None else None
        if m is not None and said != v.start and " ".join(text[m.start():v.start].lower().split()) in _OP_PHRASES:
            m = None            # "not more than 25 MB": the comparison's own words, already read as its bound
        op = "ge" if v.bound.op == "le" else "le"
    else:
        m = _MORE_LE.search(text, cut, v.start)
        op = "le"
        if m is None:
            m, op = _MORE_GE.search(text, cut, v.start), "ge"
    if m is None:
        return v
    # the bound's "not" is the value's, so the modality reader does not also take it for the claim's
    # own negation: "must not exceed 30 days" is "must: at most 30 days". The value's span stays (a
    # "limited to"/"exceeds" is still the verb, a "limit of" still the attribute)
    neg = _NOT_RE.search(text, m.start(), m.end())        # in place: "n't" is known by the letter before it
    negation = neg.span() if neg else None
    return Value(v.kind, v.text, v.start, v.end, Bound(op, v.bound.number, v.bound.unit), negation)


def _place_negation(kind: str, m: re.Match) -> tuple[int, int] | bool | None:
    """The span of a negation a region's words undo ("never leave the EU", "not … outside the EU");
    False: a region outside of which something is, which is no region to compare."""
    g = m.groupdict()
    if kind != "region":
        return None
    if g.get("neg"):
        return m.span("neg")
    if (g.get("prep") or "").strip().lower().startswith("outside"):
        before = m.string[max(0, m.start() - 50):m.start()]
        n = None
        for n in _OUTSIDE_NEGATED.finditer(before):
            pass
        if n is None:
            return False
        cut = m.start() - len(before)
        return cut + n.start(), cut + n.end()
    return None


# the full stop after a version of three parts that ends the statement ("We pin the chart to 1.4.0."): the
# selectors' "not followed by a dot" kept it from being read there, while "… to 1.4.0 in prod." was read.
# Only there: "2.0." and "10." were read already (as numbers), and "7 a.m." needs its stop
_VERSION_AT_END = re.compile(r"(?<![\w.])v?\d+\.\d+\.\d+(?P<stop>\.)\s*$")


def _path_segment(text: str, v: Value) -> bool:
    """A part of a path or URL between its slashes ("/api/v1/apps", "/v2/account/keys"): the name of an endpoint, not
    a version the statement gives. Read as one, "the /api/v1/apps create/list limit is 600" was valued v1. Not where
    the statement speaks of versions ("The Partner Orders API is versioned in the URL path: /v2/orders.")."""
    return v.start > 0 and text[v.start - 1] == "/" and v.end < len(text) and text[v.end] == "/" \
        and _VERSION_WORD.search(text) is None


_VERSION_WORD = re.compile(r"\bversion", re.IGNORECASE)


# "on"/"off" that opens a phrase ("are on the denied list", "are on-call", "is off the table") is a preposition, not a
# switch's state: read as one, "GPL licenses are on the denied list" was a boolean "on" that met any setting turned on
_PREPOSITION_AFTER = re.compile(r"-|\s+(?:the|a|an|our|your|their|its|his|her|this|that|these|those|every|each|all|some|any|"
                                r"my|call|leave|holiday|duty|site|track|hold|board|top|record|behalf|demand|premises|"
                                r"schedule|time|budget|par)\b", re.IGNORECASE)


def _preposition_taken_for_a_switch(text: str, v: Value) -> bool:
    return v.kind == "boolean" and v.text.lower() in ("on", "off") and _PREPOSITION_AFTER.match(text, v.end) is not None


# a number written in code, with or without its unit ("`100`", "`30s`", "`512MB`")
_VALUE_IN_CODE = re.compile(r"`\d[\d,]*(?:\.\d+)?(?: ?[A-Za-z%]{1,7})?`")


def _code_marks_off_values(text: str) -> str:
    """The backticks around a number written in code, made spaces (the offsets stay those of the text): the value is
    read as the same value written plainly. In backticks, "`max_connections` is set to `100`" had a literal "100"
    that was no number beside "max_connections is set to 200", "defaults to `30s`" no duration beside "defaults to
    60 seconds": each pair was "same stance"."""
    if "`" not in text:
        return text
    return _VALUE_IN_CODE.sub(lambda m: " " + m.group(0)[1:-1] + " ", text)


def _switch_in_code(v: Value) -> Value:
    """A switch's state in code ("defaults to `true`"): the boolean the plain word is. As a literal, "`no_parent_owners`
    defaults to `true`" / "… defaults to `false` …" conflicted and the same statements written without their
    backticks were "same stance"."""
    return replace(v, kind="boolean") if v.kind == "literal" and v.text.lower() in SWITCH_STATES else v


# a version in code, with a pin's or a constraint's sign before it: "`=5.31.0`", "`~> 4.67`", "`>= 1.5.0`", "`v1.24.3`"
_VERSION_IN_CODE = re.compile(r"(?:[=^~]|[<>]=?|~>)?\s?(?P<version>v?\d+(?:\.\d+)+)\+?")


# what makes a version a floor, said after it: "Node.js 20 or later", "Python 3.10 or newer", "iOS 15 and above", "18+"
_FLOOR_WORDS = r"\s+(?:or|and)\s+(?:later|newer|higher|above|up|greater)"
VERSION_FLOOR = re.compile(r"(?:\+|" + _FLOOR_WORDS + r")$", re.IGNORECASE)
_FLOOR_AFTER = re.compile(_FLOOR_WORDS + r"\b", re.IGNORECASE)


def version_base(v: str) -> str:
    """A version without the words that make it a floor ("Node.js 20 or later", "Node 18+": "Node.js 20", "Node 18")."""
    return VERSION_FLOOR.sub("", v.strip())


def _version_floor(text: str, v: Value) -> Value:
    """A version with the words after it that make it a floor, as one value ("Node.js 20 or later"): read without
    them, "Node.js 20 or later is required." / "The service runs on Node.js 22." were two versions, a HIGH conflict.
    The words join the value's own text, as a "+" already did ("Node.js 20+")."""
    if v.kind != "version" or (m := _FLOOR_AFTER.match(text, v.end)) is None:
        return v
    return replace(v, text=text[v.start:m.end()], end=m.end())


def _version_in_code(v: Value) -> Value:
    """A version in code: the version, as "pinned to =5.40.0" written plainly reads (a pin's or a constraint's sign
    aside, as there). As a literal, "pinned to `=5.31.0`" met no version: a statement of a pin with its backticks and
    one without were incomparable (``benchmarks.pipeline_invariance``, "backticks off": a value conflict lost). A
    version of two parts in code stays a version ("`~> 4.67`"), which written plainly, without the word "version",
    reads as a number."""
    if v.kind != "literal" or (m := _VERSION_IN_CODE.fullmatch(v.text)) is None:
        return v
    return replace(v, kind="version", text=m.group("version"), start=v.start + m.start("version"),
                   end=v.start + m.end("version"))


# "2 or more approvals", "30 or more days", "5 or fewer retries": the v1 number's "or more" before the unit
_MORE_OR_LESS = r"(?P<side>more|fewer|less|greater)"
_COUNT_OR_MORE = re.compile(r"(?P<num>\S+) or " + _MORE_OR_LESS + "$", re.IGNORECASE)
# "10 MB or more", "3 times or fewer", "100 applications or less", "5 copies max", "30 minutes at the latest": the
# bound's side said after the value (and the word it counts)
_OR_SIDE_AFTER = re.compile(r"(?:[ \t]+[a-z]{3,})?[ \t]+(?:or[ \t]+(?:(?P<ge>more|greater|longer|higher|above|over)|"
                            r"(?P<le>less|fewer|shorter|lower|below|under))\b|(?:(?P<ge2>minimum|min\b\.?|at[ \t]+least\b)"
                            r"|(?P<le2>maximum|max\b\.?|at[ \t]+(?:the[ \t]+)?most\b|tops\b|at[ \t]+the[ \t]+latest\b))"
                            # not the next value's own ("10 characters including at least 3 of …", "… max of 5")
                            r"(?![ \t]+(?:\d|(?:of|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b)))",
                            re.IGNORECASE)
_OR_SIDE_NEXT = re.compile(r"[ \t]+or[ \t]+" + _MORE_OR_LESS + r"\b", re.IGNORECASE)
_AFTER_REACH = 40


def _unit_after_or_more(text: str, v: Value) -> Value:
    """"2 or more approvals" is "at least 2 approvals", "500 or more requests per day" "at least 500 requests per day":
    the unit after the "or more" is the value's, read as the same words after "at least" / "at most" read (it was a
    bare 2, so "Pull requests need 2 or more approvals." met no "at least 3 approvals", and "Keep logs for 30 or more
    days." no "7 days")."""
    if v.kind != "number" or v.bound is None or v.bound.unit:
        return v
    if (m := _COUNT_OR_MORE.fullmatch(v.text)) is not None:
        num, said, after = m.group("num"), m.group("side"), v.end
    elif (m := _OR_SIDE_NEXT.match(text, v.end)) is not None and _bare_number(v) is not None:
        num, said, after = v.text, m.group("side"), m.end()        # "1.5 or more times": the number alone was read
    else:
        return v
    side = "at least " if or_so_side("or " + said) == "ge" else "at most "
    lead = side + num
    probe = next(iter(extract_typed_values(lead + text[after:after + _AFTER_REACH], sides=False)), None)
    # the value the probe reads from its number on ("at least 2 approvals", or "160 bits" with its side read before it)
    if probe is None or probe.start not in (0, len(side)) or probe.bound is None or not probe.bound.unit \
            or probe.bound.op == "eq" or (stop := probe.start + len(probe.text)) <= len(lead):
        return v
    end = after + stop - len(lead)
    return Value(v.kind, text[v.start:end], v.start, end, probe.bound, v.negation)


def _or_side_after(text: str, v: Value) -> Value:
    """"Uploads of 10 MB or more are rejected", "Retry 3 times or fewer", "Keep 5 copies max": the side said after the
    value (read as exactly 10 MB, exactly 3 times, exactly 5)."""
    if v.bound is None or v.bound.op != "eq" or v.bound.unit in POINT_UNITS \
            or (m := _OR_SIDE_AFTER.match(text, v.end)) is None:
        return v
    return replace(v, bound=replace(v.bound, op="ge" if m.group("ge") or m.group("ge2") else "le"))


def extract_typed_values(text: str, sides: bool = True) -> list[Value]:
    """Typed values first, then v1's selectors on what they left; leftmost first. ``sides``: also read a bound's side
    said after its number ("2 or more approvals", "10 MB or less")."""
    text = _code_marks_off_values(text)
    if (end := _VERSION_AT_END.search(text)) is not None:
        text = text[:end.start("stop")]
    found: list[Value] = []
    taken: list[tuple[int, int]] = []
    for kind, pat in TYPED_PATTERNS:
        if kind == "life_year" and _LIFECYCLE.search(text) is None:
            continue            # a year after "in" is a date only in a statement about a release's life
        for m in pat.finditer(text):
            s, e = m.start("val"), m.end("val")
            if any(s < te and e > ts for ts, te in taken):
                continue
            b = None if kind in _BOUNDLESS else typed_bound(kind, m)
            if b is None and kind not in _BOUNDLESS:
                continue
            negation = _place_negation(kind, m) if kind != "unlimited" else m.span("val")
            if negation is False:
                continue
            found.append(Value("number" if kind in ("money", "size", "rate", "count", "grouped", "days", "range", "count_range", "named_unit",
                                                    "duration", "halves",
                                                    "unlimited", "compound", "decimal", "fraction", "forever")
                               else "weekday" if kind == "weekdays" else "clock" if kind in ("clocks", "workhours", "allday") else "date" if kind == "life_year"
                               else "boolean" if kind == "switch" else kind,
                               m.group("val").strip(), s, e, b, negation or None))
            taken.append((m.start(), m.end()))
    found += extract_values(text, taken)
    found = [_version_floor(text, _version_in_code(_switch_in_code(v))) for v in found
             if not _path_segment(text, v) and not _preposition_taken_for_a_switch(text, v)]
    found = _word_counts(text, [_span_after_words(text, v, found) for v in found])
    found.sort(key=lambda v: v.start)
    found = _weekly_days(text, _named_units(text, _shared_units(text, _counted_compounds(text, one_style(found)))))
    if sides:
        found = [_or_side_after(text, _unit_after_or_more(text, v)) for v in found]
    return [_lead_time(text, _rejected_beyond(text, _more_bound_words(text, _op_negation(text, _or_more_sign(text, v)))))
            for v in found]


# a plus sign after a number that ends it ("JDK 17+ is required", "users aged 18+", "100+ guilds"): that many or more,
# as "17 or more" is, also at the sentence's end ("must be 18+."); not a sum ("17+5", "17+.5") nor a number inside a
# word or a version's build ("1.4.0+build.17")
_OR_MORE_SIGN = re.compile(r"\+(?![\w+]|\.\w)")


def _or_more_sign(text: str, v: Value) -> Value:
    if v.bound is None or v.bound.op != "eq" or v.bound.upper is not None or _OR_MORE_SIGN.match(text, v.end) is None:
        return v
    return Value(v.kind, v.text, v.start, v.end, Bound("ge", v.bound.number, v.bound.unit), v.negation)


# the "not" or "no" of a comparison that is the bound ("is not more than 2 MB", "no less than $100", "no more
# than twice a day"): the value's, as "must not exceed" is, so the modality reader does not also take it for
# the claim's own negation and turn the bound or the rule round ("The item is not more than 2 MB." was "at least
# 2 MB", "Invoices must be no less than $100." at most $100, "Tokens rotate no more than twice a day." a
# prohibition; "isn't more than" and "at least $100" were right)
_OP_NOT = re.compile(r"\b(?:not|no)\s+(?:more|less|fewer|longer|shorter|greater|larger|higher|lower|later|earlier|sooner)\s+than\s+$",
                     re.IGNORECASE)


def _op_negation(text: str, v: Value) -> Value:
    if v.negation is not None or v.bound is None or v.bound.op not in ("le", "ge"):
        return v
    m = _OP_NOT.search(text, max(0, v.start - 30), v.start)
    return v if m is None else Value(v.kind, v.text, v.start, v.end, v.bound, (m.start(), m.start() + len(m.group().split()[0])))


# a count said in a word before what it counts ("the last two major releases", "three on-call engineers",
# "enables two ACME-compatible CAs", "after a single positive review"): a bare number, as the same count in
# digits is read ("2 major releases" gives "2"), so "two" meets "3" and "three" meets "a single". Only two to
# twelve before a plural noun within three words, and "a single" before a noun ("one" is as often the pronoun
# or "one of"), so "two of them", "two-factor" and "the two are" stay unread; "two or more backups" is at
# least two, as "2 or more" is
_COUNT_STOP = r"(?!(?:of|or|and|to|times|more|less|fewer|out|at|in|on|for|by|per|are|is|were|was)(?:\s|$))"
# "in a single tenant", "of a single group", "per single request": the thing a quantity is counted in, not a count
_CONTAINER = "".join(rf"(?<!\b{w} )" for w in ("in", "of", "per", "within", "across", "from", "inside"))
_TWO_AND_MORE = one_of(w for w in WORD_NUMBERS if " " not in w and WORD_NUMBERS[w] >= 2)
_WORD_COUNTS = (
    Guarded(_OP, r"(?<![\w-])(?P<val>(?P<num>" + _TWO_AND_MORE +
            r"))(?P<post>\s+or\s+(?:more|fewer|less))?(?![\w-])(?=\s+" + _COUNT_STOP +
            r"(?:[a-z][\w-]*\s+){0,3}(?P<noun>[a-z][\w-]*[a-z]s|people|children|men|women|staff)\b)", re.IGNORECASE,
            needs=_TWO_AND_MORE),
    Guarded(_OP, r"(?<![\w-])" + _CONTAINER + r"(?P<val>(?P<num>a\s+single))(?P<post>)(?=\s+" + _COUNT_STOP +
            r"(?:[a-z][\w-]*\s+){0,2}?(?P<noun>[a-z][\w-]*[a-z])\b)", re.IGNORECASE, needs="single"),
    # "one" after a comparison ("at least one allowed domain", "no more than one reviewer"): a count there
    Guarded(r"(?P<op>" + _LE + "|" + _GE + r")\s+", r"(?<![\w-])(?P<val>(?P<num>one))(?P<post>)(?=\s+" + _COUNT_STOP +
            r"(?:[a-z][\w-]*\s+){0,2}?(?P<noun>[a-z][\w-]*[a-z])\b)", re.IGNORECASE, needs="one"),
)
# the same span in digits, read bare by v1's selector ("up to 3 consecutive weeks" was "up to 3"): that long
_SPAN_AFTER_WORDS = re.compile(r"\s+(?:(?!(?:of|or|and|to|per|a|an|the)\s)[a-z][\w-]*\s+){1,2}(?P<noun>" +
                               "|".join(sorted({u + "s" for u, (fam, _) in UNITS.items() if fam == "time" and len(u) > 2},
                                               key=len, reverse=True)) + r")\b", re.IGNORECASE)


_TIME_AFTER = re.compile(r"\s+(?:[a-z][\w-]*\s+){0,2}?(?:second|minute|hour|day|week|fortnight|month|quarter|year)s?\b",
                         re.IGNORECASE)


def _word_counts(text: str, found: list[Value]) -> list[Value]:
    out = list(found)
    for pattern in _WORD_COUNTS:
        for m in pattern.finditer(text):
            post = (m.group("post") or "").split()
            start, end = m.start("op") if m.group("op") else m.start("val"), m.end("post") if post else m.end("val")
            if any(start < v.end and end > v.start for v in out):
                continue
            if m.group("num").lower() == "one" and _TIME_AFTER.match(text, m.end("val")):
                continue      # "at least one working week's notice": a span, which the span selectors read or not
            op = _op(m) if not post else "ge" if post[-1] == "more" else "le"
            n = float(WORD_NUMBERS[" ".join(m.group("num").lower().split())])
            # a span with a word between ("seven idle days", "three consecutive weeks"): that long (the words
            # between stay out of the value, as ``_span_after_words`` keeps them out)
            unit = _unit_factor(m.group("noun").lower())
            bound = Bound(op, n * unit[1], "time") if unit is not None and unit[0] == "time" else Bound(op, n, "")
            out.append(Value("number", text[start:end], start, end, bound))
    return out


def _span_after_words(text: str, v: Value, found: list[Value]) -> Value:
    """The words between stay out of the value's span: they are as often the subject ("You can have up to 24
    credit hours accrued"), and a value's words are kept out of it. A value of its own between ("30
    eight-hour days") is ``_counted_compounds``'s."""
    n = _bare_number(v)
    m = _SPAN_AFTER_WORDS.match(text, v.end) if n is not None else None
    if m is None or any(v.end <= u.start < m.end() for u in found):
        return v
    unit = _unit_factor(m.group("noun").lower())
    return Value(v.kind, v.text, v.start, v.end, Bound(v.bound.op, n * unit[1], "time"), v.negation)


# notice given ahead ("need two weeks' notice", "request it 48 hours in advance", "a month's notice"): at
# least that long before, a lower bound. Read as an exact span, "two weeks' notice" kept within "at least
# one month in advance" and the two agreed
_AHEAD = re.compile(r"(?:['’]s?)?\s+(?:(?:advance|prior)\s+)?(?:notice|in\s+advance|ahead(?:\s+of\s+time)?|beforehand)\b",
                    re.IGNORECASE)


def _lead_time(text: str, v: Value) -> Value:
    if v.bound is None or v.bound.op != "eq" or v.bound.unit != "time" or not _AHEAD.match(text, v.end):
        return v
    return Value(v.kind, v.text, v.start, v.end, Bound("ge", v.bound.number, v.bound.unit), v.negation)


# what is refused above an amount is a limit of that amount: "etcd rejects any request larger than 512
# KiB", "CI fails the build on any line over 99 characters", "return 414 if a URL exceeds 2083
# characters", "messages over 256 KB are dropped" — at most the amount, not at least it. (What needs
# an approval above an amount stays a lower bound: "PTO that exceeds 10 days requires approval".)
_REFUSAL = (r"\b(?:reject(?:s|ed)?|refuse(?:s|d)?|den(?:y|ies|ied)|fail(?:s|ed)?|drop(?:s|ped)?|truncate(?:s|d)?|"
            r"cancel(?:s|led|ed)?|kill(?:s|ed)?|terminate(?:s|d)?|abort(?:s|ed)?|time(?:s|d)?\s+out|"
            r"block(?:s|ed)?|throttle(?:s|d)?|(?:return|respond|answer)(?:s|ed)?\s+(?:with\s+)?(?:an?\s+)?(?:error|[45]\d\d)|"
            r"errors?\s+out|(?:is|are)\s+not\s+accepted|invalid)\b")
_REFUSED_BEFORE = re.compile(_REFUSAL + r"[^.;:!?]{0,60}$", re.IGNORECASE)
_REFUSED_AFTER = re.compile(r"^[^.;:!?]{0,40}?" + _REFUSAL, re.IGNORECASE)


_COMPARATIVE = (r"(?:(?:more|less|fewer|larger|greater|bigger|longer|higher|smaller|shorter|lower)\s+than|over|above|under|"
                r"below|exceed(?:s|ing)?)")
_COMPARED_BEFORE = re.compile(r"\b" + _COMPARATIVE + r"\s+$", re.IGNORECASE)
_COMPARED_START = re.compile(_COMPARATIVE + r"\s", re.IGNORECASE)
_RULE_SAID = re.compile(r"\b(?:must|should|shall|needs?\s+to|ha(?:s|ve)\s+to|required\s+to|cannot|can't|may\s+not)\b[^.;:!?]*$",
                        re.IGNORECASE)


def _rejected_beyond(text: str, v: Value) -> Value:
    """The amount past which something is refused is the limit of what is accepted: "rejects requests
    larger than 512 KiB" is at most 512 KiB, "passwords shorter than 8 characters are rejected" at least
    8. Not where a rule states the bound itself ("must complete in less than 30 s or it fails")."""
    if v.bound is None or v.bound.op not in ("ge", "le") or v.bound.unit in POINT_UNITS or v.bound.unit == ANY_UNIT:
        return v
    before, after = text[max(0, v.start - 80):v.start], text[v.end:v.end + 60]
    if not (_COMPARED_BEFORE.search(before) or _COMPARED_START.match(v.text)):
        return v             # "at most 100 messages, and additional messages are rejected": the limit itself
    if not (_REFUSED_BEFORE.search(before) or _REFUSED_AFTER.search(after)) or _RULE_SAID.search(before):
        return v
    return Value(v.kind, v.text, v.start, v.end, Bound("le" if v.bound.op == "ge" else "ge", v.bound.number, v.bound.unit),
                 v.negation)


# numbers coordinated before one unit ("28 or 56 days", "either 4 or 8 weeks", "2, 4, or 8 hours", "3
# and 5 GB"): each is in the last one's unit. v1's selectors read the first ones bare, so "4 or 8
# weeks" / "28 or 56 days" (the same pair of deadlines) differed in a value
_COORDINATION_GAP = 12
_COORDINATED = re.compile(r"\s*(?:,\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+)$", re.IGNORECASE)
_LEADING_NUMBER = re.compile(r"(?:" + _LE + "|" + _GE + r")?\s*(?P<num>\d[\d,]*(?:\.\d+)?|" +
                             one_of(w for w in WORD_NUMBERS if " " not in w) + r")\b",
                             re.IGNORECASE)


def _bare_number(v: Value) -> float | None:
    """The number of a value read without a unit ("28", "at most 30"), else None."""
    if v.bound is None or v.bound.unit or v.bound.op == "range" or v.kind != "number":
        return None
    m = _LEADING_NUMBER.fullmatch(v.text)
    return _number(m.group("num")) if m else None


def _shared_units(text: str, found: list[Value]) -> list[Value]:
    out = list(found)
    for i in range(len(out) - 2, -1, -1):
        v, nxt = out[i], out[i + 1]
        n = _bare_number(v)
        # only a short gap is a coordination, and only a short one is matched: a run of thousands of
        # spaces between two numbers made the pattern backtrack quadratically (8,000: 0.65 s)
        if n is None or nxt.bound is None or not nxt.bound.unit or nxt.bound.unit in POINT_UNITS \
                or nxt.bound.op == "range" or nxt.start - v.end > _COORDINATION_GAP \
                or not _COORDINATED.fullmatch(text[v.end:nxt.start]):
            continue
        m = _LEADING_NUMBER.match(nxt.text)
        written = _number(m.group("num")) if m else 0
        if not written:
            continue
        out[i] = Value(v.kind, v.text, v.start, v.end, Bound(v.bound.op, n * (nxt.bound.number / written), nxt.bound.unit),
                       v.negation)
    return out


# a count of things that each last a time ("30 eight-hour days", "two 4-hour shifts"): the total time,
# one value, so "at most 30 eight-hour days" is "240 hours", not a bare 30 beside 8 hours
_COUNTED_NOUN = re.compile(r"\s+(?:days|shifts|sessions|blocks|periods|slots|weeks)\b", re.IGNORECASE)


# the count said in a word, which no selector reads bare ("more than ten 8-hour days")
_COUNT_WORD_BEFORE = re.compile(r"(?:" + _OP + r")?\b(?P<num>" + _COMPOUND_WORDS + r")\s+$", re.IGNORECASE)


def _counted_compounds(text: str, found: list[Value]) -> list[Value]:
    out: list[Value] = []
    for v in found:
        compound = v.bound is not None and v.bound.unit == "time" and v.bound.op == "eq" and "-" in v.text
        noun = _COUNTED_NOUN.match(text, v.end) if compound else None
        prev = out[-1] if out else None
        n = _bare_number(prev) if prev is not None else None
        if noun and n is not None and not text[prev.end:v.start].strip():
            end = noun.end()
            out[-1] = Value(prev.kind, text[prev.start:end], prev.start, end,
                            Bound(prev.bound.op, n * v.bound.number, "time"), prev.negation)
            continue
        if noun and (w := _COUNT_WORD_BEFORE.search(text, 0, v.start)) is not None \
                and not any(u.end > w.start() for u in out):
            start = w.start("op") if w.group("op") else w.start("num")
            out.append(Value("number", text[start:noun.end()], start, noun.end(),
                             Bound(_op(w), WORD_NUMBERS[w.group("num").lower()] * v.bound.number, "time"), v.negation))
            continue
        out.append(v)
    return out


# a bare number whose clause names what it counts ("the maximum number of hours you can work in a single
# day is 12", "KeepAliveTimeout is the number of seconds … and its default is 5", "the number of
# bytes allowed in a request body … its default value is 0"): that many of the unit, so it meets "10
# hours" or "1 MB". Only a span or a size: a count ("the number of connections … is 151", "the number of
# retries … is 100") stays bare, because a count is as often written bare on the other side
# ("max_connections = 100", "after 10 failed attempts"), and a bare number meets only a bare one. Only
# from "number of" and up to two words after it, and only with no other number and no sentence break
# between the words and the value
_NUMBER_OF = re.compile(r"\bnumber\s+of\s+(?P<words>(?:[\w-]+\s+){0,2}[\w-]+)", re.IGNORECASE)
_NAMED_UNIT_REACH = 160
_BREAK = re.compile(r"[.;!?](?:\s|$)|\d")
_UNREAD_UNIT = re.compile(r"\s?[°%]|[A-Za-z]")


def _named_unit(text: str, v: Value) -> tuple[str, float] | None:
    cut = max(0, v.start - _NAMED_UNIT_REACH)
    last = None
    for last in _NUMBER_OF.finditer(text, cut, v.start):
        pass
    if last is None or _BREAK.search(text, last.end(), v.start):
        return None
    for word in last.group("words").lower().split():
        if word in _SIZES and len(word) > 3:            # "bytes", not "b" or "k"
            return "bytes", float(_SIZES[word])
        if (unit := _unit_factor(word)) is not None and unit[0] == "time" and len(word) > 3:    # "hours", not "h"
            return unit
    return None


# "every Sunday", "each Monday", "every other Thursday": how often as well as which day — once a week, or once in two
# weeks. Read as the day alone, "The staging database is reset every Sunday." / "… reset nightly." were two kinds of
# value (two facts, the gate's block capped) and "… every Thursday" / "… every other Thursday" one value. Only after
# "every"/"each": "not on Fridays" says no how often
_EVERY_DAY_BEFORE = re.compile(r"\b(?:every|each)\s+(?P<other>(?:other|second|alternate)\s+)?$", re.IGNORECASE)
_WEEK = float(UNITS["week"][1])


def _weekly_days(text: str, found: list[Value]) -> list[Value]:
    """A weekday after "every" also gives how often, as a value of its own on the day's span (written "every Sunday",
    once a week; "every other Thursday", once in two), which the day's value is chosen before
    (``values.primary_value``)."""
    out = []
    for v in found:
        out.append(v)
        if v.kind == "weekday" and v.bound is not None and v.bound.op == "eq" \
                and (m := _EVERY_DAY_BEFORE.search(text, max(0, v.start - 30), v.start)) is not None:
            other = bool(m.group("other"))
            out.append(Value("frequency", text[m.start():v.end], v.start, v.end,
                             Bound("eq", 2 * _WEEK if other else _WEEK, "period"), None))
    return out


def _named_units(text: str, found: list[Value]) -> list[Value]:
    if "number" not in text.lower():
        return found
    out = []
    for v in found:
        n = _bare_number(v)
        # a unit of its own the selectors do not read follows ("above 35°C"): not the counted thing's
        unit = _named_unit(text, v) if n is not None and not _UNREAD_UNIT.match(text, v.end) else None
        if unit is not None:
            fam, factor = unit
            v = Value(v.kind, v.text, v.start, v.end, Bound(v.bound.op, n * factor, fam), v.negation)
        out.append(v)
    return out
