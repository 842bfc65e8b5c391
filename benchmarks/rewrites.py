"""Meaning-preserving rewrites of a statement: the same rule written another way.

Why: a normalizer must read "cannot exceed 2 MB" as it reads "can't exceed 2 MB", "two engineers" as
"2 engineers", a note without its full stop as the note with it. Each rewrite here changes only the
spelling, so any difference in the norm, and above all a structural conflict between a statement and its
own rewrite, is a normalizer bug — found without labels, on any statements (session 66 found a dozen this
way). Pure: a text in, ``(family, rewritten text)`` pairs out; a family that does not apply gives nothing.
"""
from __future__ import annotations

import re

from guard.markup import CLOSED_COMPOUNDS

_CONTRACTIONS = (("do not", "don't"), ("does not", "doesn't"), ("cannot", "can't"), ("must not", "mustn't"),
                 ("is not", "isn't"), ("are not", "aren't"), ("should not", "shouldn't"), ("will not", "won't"),
                 ("did not", "didn't"), ("was not", "wasn't"), ("has not", "hasn't"), ("have not", "haven't"),
                 ("need not", "needn't"))
_MONTH_NAMES = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"]
_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
          11: "eleven", 12: "twelve"}
_DIGITS = {w: str(n) for n, w in _WORDS.items()}
# a span's round number in words, as handbooks write notice periods ("thirty days", "ninety days", "twenty minutes")
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 90: "ninety"}
_TENS_SPAN = re.compile(r"\b(20|30|40|50|60|90) (seconds|minutes|hours|days|weeks|months|years)\b")
# a count before a lower-case word, not part of a name, a version, an amount or a time ("Windows 11", "v2",
# "$5", "10:30", "2.7")
_DIGIT_COUNT = re.compile(r"(?<![\w.,$€£:/=-])([2-9]|1[0-2])(?= [a-z])")
_NAMED = re.compile(r"(?:^|\s)[A-Z.][\w.]*\s$")      # "Windows 11", ".NET 9", "Sev 2": a name's number
_WORD_COUNT = re.compile(r"\b(" + "|".join(_WORDS.values()) + r")\b(?= [a-z])")
_SIZE_WORDS = {"GB": "gigabytes", "MB": "megabytes", "KB": "kilobytes"}
# a compound the bench statements write closed, written with its hyphen ("email" / "e-mail", "setup" / "set-up")
_CLOSED = {w.replace("-", ""): w for w in CLOSED_COMPOUNDS}
_CLOSED_WORD = re.compile(r"(?<![\w./@`-])(" + "|".join(_CLOSED) + r")(?=(?:s|d|ed|ing)?(?![\w/@`-]))", re.IGNORECASE)


def _hyphenated(m: re.Match) -> str:
    word = _CLOSED[m.group(1).lower()]
    return word[:1].upper() + word[1:] if m.group(1)[:1].isupper() else word


# (family, pattern, replacement): words that say the same thing
_SAME = (
    ("must -> shall", re.compile(r"\bmust\b"), "shall"),
    # a specification's key words in capitals (RFC 2119: "MUST NOT", "SHOULD", "MAY")
    ("modal in capitals", re.compile(r"\b(must not|must|should not|should|may not|may|shall not|shall)\b"),
     lambda m: m.group(1).upper()),
    ("closed compound -> hyphen", _CLOSED_WORD, _hyphenated),
    ("at least -> no less than", re.compile(r"\bat least\b"), "no less than"),
    ("at most -> no more than", re.compile(r"\bat most\b"), "no more than"),
    ("it is -> it's", re.compile(r"\b([Ii])t is\b"), r"\1t's"),
    ("no later than -> by", re.compile(r"\bno later than (?=(?:January|February|March|April|May|June|July|August|September"
                                       r"|October|November|December|\d{4}-)\b)"), "by "),
    ("every day -> daily", re.compile(r"\bevery day\b"), "daily"),
    # how often, how much per period, a prohibition's word, one of a unit, a date, a time of day and dollars, each
    # written the other common way
    ("every period -> adverb", re.compile(r"\bevery (hour|week|month|year)\b"),
     lambda m: {"hour": "hourly", "week": "weekly", "month": "monthly", "year": "yearly"}[m.group(1)]),
    ("per -> a", re.compile(r"\b(\d[\d,]*(?:\.\d+)? [a-z]+) per (hour|day|week|month|year)\b"), r"\1 a \2"),
    ("not allowed -> prohibited", re.compile(r"\b(is|are) not (?:allowed|permitted)\b(?! to)"), r"\1 prohibited"),
    ("required -> mandatory", re.compile(r"\b(is|are) required\b(?! to| for)"), r"\1 mandatory"),
    ("1 hour -> an hour", re.compile(r"\b(?:1|one) (hour|day|week|month|year)\b"), lambda m: ("an " if m.group(1) == "hour" else "a ") + m.group(1)),
    ("ISO date -> written", re.compile(r"\b(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b"),
     lambda m: f"{_MONTH_NAMES[int(m.group(2))]} {int(m.group(3))}, {m.group(1)}"),
    ("written date -> ISO", re.compile(r"\b(" + "|".join(_MONTH_NAMES[1:]) + r") (\d{1,2}), (20\d\d)\b"),
     lambda m: f"{m.group(3)}-{_MONTH_NAMES.index(m.group(1)):02d}-{int(m.group(2)):02d}"),
    ("24h clock -> am/pm", re.compile(r"\b(0?[1-9]|1\d|2[0-3]):00\b(?! ?[AaPp]\.?[Mm])"),
     lambda m: f"{int(m.group(1)) % 12 or 12} {'am' if int(m.group(1)) < 12 else 'pm'}"),
    ("be at most -> not exceed", re.compile(r"\b(must|should|may|cannot|can) be at most (?=\d)"), r"\1 not exceed "),
    ("be at least -> not be less than", re.compile(r"\b(must|should) be at least (?=\d)"), r"\1 not be less than "),
    ("enabled -> turned on", re.compile(r"\b(is|are|be) (enabled|disabled)\b"),
     lambda m: f"{m.group(1)} turned {'on' if m.group(2) == 'enabled' else 'off'}"),
    ("be disabled -> not be enabled", re.compile(r"\b(must|should) be (enabled|disabled)\b"),
     lambda m: f"{m.group(1)} not be {'disabled' if m.group(2) == 'enabled' else 'enabled'}"),
    ("not required -> optional", re.compile(r"\b(is|are) not required\b(?! to)"), r"\1 optional"),
    ("$ -> USD", re.compile(r"\$(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w/.,]\w)(?![\w/])"), r"\1 USD"),
    ("must not -> may not", re.compile(r"\bmust not\b"), "may not"),
    ("at least -> a minimum of", re.compile(r"\bat least (?=\d)"), "a minimum of "),
    # the bound's side said after the number ("2 or more approvals") or after the whole value ("10 MB or less")
    ("at least -> or more", re.compile(r"\bat least (\d[\d,]*(?:\.\d+)?) ([a-z]+)\b(?![\w-])"), r"\1 or more \2"),
    ("at most -> or less", re.compile(r"\bat most (\d[\d,]*(?:\.\d+)? ?[A-Za-z]+)\b(?![\w-]| [A-Za-z])"), r"\1 or less"),
    ("at most -> up to", re.compile(r"\bat most (?=\d)"), "up to "),
    ("minutes -> mins", re.compile(r"\b(\d+) minutes\b"), r"\1 mins"),
    ("minutes -> min", re.compile(r"\b(\d+) minutes?\b"), r"\1 min"),
    # a config's units, right after the number ("30s", "12h")
    ("seconds -> s", re.compile(r"\b(\d+) seconds?\b"), r"\1s"),
    ("hours -> h", re.compile(r"\b(\d+) hours?\b"), r"\1h"),
    ("requests per second -> req/s", re.compile(r"\b(\d[\d,]*) requests per second\b"), r"\1 req/s"),
    ("hours -> hrs", re.compile(r"\b(\d+) hours\b"), r"\1 hrs"),
    ("weeks -> wks", re.compile(r"\b(\d+) weeks\b"), r"\1 wks"),
    ("months -> mos", re.compile(r"\b(\d+) months\b"), r"\1 mos"),
    ("years -> yrs", re.compile(r"\b(\d+) years\b"), r"\1 yrs"),
    ("% -> percent", re.compile(r"(\d)%"), r"\1 percent"),
    ("% -> per cent", re.compile(r"(\d)%"), r"\1 per cent"),
    ("do not -> never", re.compile(r"^(?:Do not|Don't) "), "Never "),
    ("must not -> must never", re.compile(r"\bmust not\b"), "must never"),
    ("per -> /", re.compile(r"\b(\d[\d,]*(?:\.\d+)? [a-z]+) per (second|minute|hour|day|week|month|year)\b"), r"\1/\2"),
    ("10,000 -> 10000", re.compile(r"\b(\d{1,3}),(\d{3})\b(?!,\d)"), r"\1\2"),
    ("10,000 -> 10k", re.compile(r"\b(\d{1,3}),000\b(?!,\d)"), r"\1k"),
    ("days -> d", re.compile(r"\b(\d+) days?\b"), r"\1d"),
    ("day range -> d", re.compile(r"\b(\d+) ?(?:-|–|to) ?(\d+) days\b"), r"\1d-\2d"),
    ("GB -> gigabytes", re.compile(r"\b(\d+(?:\.\d+)?) ?(GB|MB|KB)\b"),
     lambda m: f"{m.group(1)} {_SIZE_WORDS[m.group(2)]}"),
)
# the same span in another unit: whole days for hours, whole hours for minutes ("48 hours" -> "2 days")
_IN_UNITS = (("hours -> days", re.compile(r"\b(\d+) hours\b"), 24, "day"),
             ("minutes -> hours", re.compile(r"\b(\d+) minutes\b"), 60, "hour"))
# a name in code written with or without its backticks: "`max_connections` is 100" / "max_connections is 100".
# One word only (an identifier: "`main`", "`vm.swappiness`", "`lib/`"); a command with spaces read bare is
# words of prose ("git push --force"), and a literal with a space in it is no identifier
_BACKTICKED = re.compile(r"`([^`\s]+)`")
_IDENTIFIER = re.compile(r"(?<![`\w./-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![`\w/-]|\.\w)")   # snake_case: a name only code has
# the markup a statement copied out of a document brings with it (``guard.markup``): a list item's bullet or
# number, a bold modal, a typographic apostrophe, a footnote marker, an icon, a numbered rule's label
_MODAL = re.compile(r"\b(must not|must|should not|should|shall not|shall|may not|may|never|cannot|can't|do not|don't"
                    r"|does not|doesn't|will not|won't|is not|isn't|are not|aren't)(?!\w)", re.IGNORECASE)
# not inside a name: a path, a file, a chat channel ("#admins-github" is one name, not a compound)
_COMPOUND = re.compile(r"(?<![\w/.#-])([a-z]{2,})-([a-z]{2,})(?![\w/.-])")
_MARKUP = (("list item", lambda t: "- " + t), ("numbered item", lambda t: "3. " + t),
           ("bold modal", lambda t: _MODAL.sub(r"**\1**", t, count=1)),
           ("typographic apostrophe", lambda t: t.replace("'", "\u2019")),
           ("footnote marker", lambda t: re.sub(r"\.$", ".[1]", t)),
           ("icon", lambda t: "\u26a0\ufe0f " + t), ("numbered rule", lambda t: "Rule 4.2: " + t),
           # and what a writer adds for attention: a label, an exclamation mark
           ("attention label", lambda t: "Note: " + t), ("exclamation", lambda t: re.sub(r"\.$", "!", t)),
           # and a note-taker's shorthand
           ("without -> w/o", lambda t: re.sub(r"\bwithout\b", "w/o", t)), ("with -> w/", lambda t: re.sub(r"\bwith\b", "w/", t)),
           ("and -> &", lambda t: re.sub(r"\b(\w+) and (\w+)\b", r"\1 & \2", t, count=1)),
           ("all capitals", lambda t: t if "`" in t else t.upper()),
           # a compound's hyphen left out ("read-only" / "read only", "on-call" / "on call"), not in code
           ("hyphen -> space", lambda t: t if "`" in t else _COMPOUND.sub(r"\1 \2", t, count=1)),
           # and how a note is filed and marked: a tag in brackets, a label before a colon, a check mark after it,
           # quotes round it, a list item's ";" for its stop
           ("bracket tag", lambda t: "[Security] " + t), ("short label", lambda t: "Security: " + t),
           ("trailing icon", lambda t: t + " \u2705"), ("quoted", lambda t: '"' + t + '"' if '"' not in t else t),
           ("list item stop", lambda t: re.sub(r"\.$", ";", t)),
           # and when a decision holds, or how it is told, before it ("Going forward, …", "TL;DR: …")
           ("going forward", lambda t: "Going forward, " + t[:1].lower() + t[1:] if re.match(r"[A-Z][a-z]+\b(?![.-])", t)
            else t),
           ("tl;dr label", lambda t: "TL;DR: " + t),
           # and a note's lower-case start ("paid parental leave is 26 weeks.")
           ("lower-case first letter", lambda t: t[:1].lower() + t[1:] if re.match(r"[A-Z][a-z]+\b", t) else t),
           # one claim written as two sentences where it had a semicolon
           ("two sentences", lambda t: re.sub(r"; ([a-z])", lambda m: ". " + m.group(1).upper(), t, count=1)))
# the comma after an opening phrase or clause left out, as notes often do ("In production, X …" / "In production X …";
# "When the build fails, the deploy stops." / "When the build fails the deploy stops."): its first comma only, and not
# one of a date or a number
_OPENING = ("in|on|during|for|after|before|within|under|at|outside|inside|without|across|over|from|since|starting|as of|"
            "beyond|except|per|throughout|upon|following|by default|by|out of the box")
_CLAUSE_OPENING = "if|when|unless|once|whenever|while|where|because|although|even if|as long as|provided that"
_COMMAS = (("opening phrase comma off", re.compile(r"^((?:" + _OPENING + r")\b(?! (?:least|most)\b)[^,;:]{0,80}?), (?=[A-Za-z])",
                                                   re.IGNORECASE)),
           ("opening clause comma off", re.compile(r"^((?:" + _CLAUSE_OPENING + r")\b[^,;:]{0,80}?), (?=[A-Za-z])",
                                                   re.IGNORECASE)))
# an aside in parentheses written between dashes, as many writers do ("The = operator (or no operator) allows …" / "The =
# operator — or no operator — allows …"), and a last one after a single dash ("… in the present tense — "Add feature"
# not "Added feature".")
_MID_ASIDE = re.compile(r" \(([^()]{3,80})\)(?=[ ,;:])")
_LAST_ASIDE = re.compile(r" \(([^()]{3,80})\)(?=[.!?]?$)")
_DASHES = (("parentheses -> dashes", lambda t: _MID_ASIDE.sub(r" — \1 —", t, count=1).replace("— ,", "—,")),
           ("last parentheses -> dash", lambda t: _LAST_ASIDE.sub(r" — \1", t, count=1)))
# a rule's modal said with a phrase ("must" / "are required to", "may" / "are allowed to", "must not" / "cannot"), as
# handbooks and policies say it: where the statement opens with its subject, a few plain words before the modal (no
# preposition among them), whose last word says whether the verb agrees with one or many ("Contractors are …", "The
# service is …"); a statement whose subject is not so plain is left as it is
_PLAIN_SUBJECT = re.compile(r"^(?P<subject>(?:(?:The|All|Every|Each|Our|New|Any) )?(?:[A-Za-z][\w-]* ){0,3}?"
                            r"(?P<last>[A-Za-z][\w-]*)) (?P<modal>must not|must|may|should)(?P<rest> (?!not\b|be able\b)[a-z])")
_PLURAL_PRONOUNS = {"we", "you", "they", "i"}
_NOT_SUBJECT_WORDS = re.compile(r"\b(?:in|on|at|for|to|of|with|by|from|if|when|after|before|during|unless|that|which|who"
                                r"|under|no|it|this|there|here)\b", re.IGNORECASE)


def _many(last: str) -> bool:
    low = last.lower()
    return low in _PLURAL_PRONOUNS or bool(re.fullmatch(r"[A-Z]{2,}s", last)) \
        or bool(re.fullmatch(r"[a-z-]{2,}s", low)) and not re.search(r"(?:ss|us|is|ics)$", low)


def _modal_phrase(text: str, modal: str, many: str, one: str) -> str:
    """``text`` with its first ``modal`` said as ``many`` / ``one`` (agreeing with the subject), or as it is."""
    m = _PLAIN_SUBJECT.match(text)
    if m is None or m.group("modal") != modal or _NOT_SUBJECT_WORDS.search(m.group("subject")):
        return text
    said = many if _many(m.group("last")) else one
    return text[:m.start("modal")] + said + text[m.end("modal"):]


_MODAL_PHRASES = (("must -> are required to", "must", "are required to", "is required to"),
                  ("must -> need to", "must", "need to", "needs to"),
                  ("must not -> are not allowed to", "must not", "are not allowed to", "is not allowed to"),
                  ("must not -> cannot", "must not", "cannot", "cannot"),
                  ("may -> are allowed to", "may", "are allowed to", "is allowed to"),
                  ("must -> have to", "must", "have to", "has to"),
                  ("should -> are encouraged to", "should", "are encouraged to", "is encouraged to"))
# a thing's state said as what people did to it, as a colleague's note says it ("Debug logging is disabled in
# production." / "We disabled debug logging in production.", "Telemetry is turned off by default." / "We turned off
# telemetry by default."): where the statement opens with a plain subject and its state, not with a condition, and
# the state is not said by whom ("… is disabled by the admin"). The subject's first letter is lower-cased only where
# the first word opens a phrase of common words ("The health UI endpoint", "Debug logging"), not a name ("Cloud
# Storage soft delete")
_STATE_REPORT = re.compile(r"^(?P<subject>(?!(?:if|when|once|where|while|unless|whenever|although|because|as)\b)"
                           r"[A-Z][^,;:()]{1,60}?) (?:is|are) (?:(?:now|always|still) )?"
                           r"(?P<state>disabled|enabled|turned off|turned on|switched off|switched on)"
                           r"(?P<rest>(?! by (?!default\b))[ ,.(][^;]*)$", re.IGNORECASE)
STATE_REPORT = "state -> people's report"
# a second verb of the same subject after the state ("… is enabled by default on all buckets and has a retention …"):
# "We enabled … and has" would be no sentence
_DETERMINERS = ("The", "Our", "All", "Every", "Each", "Any")
_SUBJECT_GOES_ON = re.compile(r"\band (?:has|have|is|are|was|were|can|cannot|must|should|will)\b")


def _state_report(text: str) -> str:
    m = _STATE_REPORT.match(text)
    if m is None or _SUBJECT_GOES_ON.search(m.group("rest")):
        return text
    subject = m.group("subject")
    words = subject.split()
    if words[0] in _DETERMINERS or re.fullmatch(r"[A-Z][a-z]+", words[0]) and (len(words) == 1 or words[1][:1].islower()):
        subject = subject[:1].lower() + subject[1:]
    return f"We {m.group('state')} {subject}{m.group('rest')}"


FAMILIES = ("contraction", "digits -> words", "words -> digits", "tens -> words", "no full stop", *(f for f, _, _ in _SAME),
            *(f for f, _, _, _ in _IN_UNITS), "backticks off", "backticks on", *(f for f, _ in _MARKUP),
            *(f for f, _ in _COMMAS), *(f for f, _ in _DASHES), *(f for f, _, _, _ in _MODAL_PHRASES), STATE_REPORT)


# the families that change the words, not the markup around them (a bullet, bold, quotes, an icon, capitals): what a
# model learning to read a rule's phrasing is shown (``training.claim_pairs.rewritten_rows``). Not the people's report
# either: it says what was done, not the rule's words another way, and the recipes that read rewritten rows were
# written before it (a new family would change what they train on)
_NOT_WORDING = frozenset({f for f, _ in _MARKUP} | {"no full stop", STATE_REPORT})
WORDING_FAMILIES = tuple(f for f in FAMILIES if f not in _NOT_WORDING)


def _in_unit(m: re.Match, per: int, unit: str) -> str:
    n = int(m.group(1))
    if n % per or n == 0:
        return m.group(0)
    k = n // per
    return f"{k} {unit}" + ("s" if k != 1 else "")


def rewrites(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for long, short in _CONTRACTIONS:
        for a, b in ((long, short), (short, long)):
            pattern = re.compile(r"\b" + re.escape(a) + r"\b")
            if pattern.search(text):
                out.append(("contraction", pattern.sub(b, text)))
                break
    out.append(("digits -> words", _DIGIT_COUNT.sub(lambda m: m.group(1) if _NAMED.search(text, 0, m.start())
                                                    else _WORDS[int(m.group(1))], text)))
    out.append(("words -> digits", _WORD_COUNT.sub(lambda m: _DIGITS[m.group(1)], text)))
    out.append(("tens -> words", _TENS_SPAN.sub(lambda m: f"{_TENS[int(m.group(1))]} {m.group(2)}", text)))
    out.append(("no full stop", text.removesuffix(".")))
    out += [(family, pattern.sub(repl, text)) for family, pattern, repl in _SAME]
    out += [(family, pattern.sub(lambda m, per=per, unit=unit: _in_unit(m, per, unit), text))
            for family, pattern, per, unit in _IN_UNITS]
    out.append(("backticks off", _BACKTICKED.sub(r"\1", text)))
    if "`" not in text:
        out.append(("backticks on", _IDENTIFIER.sub(r"`\1`", text)))
    if " " in text.strip():                   # a statement, not a word
        out += [(family, rewrite(text)) for family, rewrite in _MARKUP]
        out += [(family, pattern.sub(r"\1 ", text, count=1)) for family, pattern in _COMMAS]
        out += [(family, rewrite(text)) for family, rewrite in _DASHES]
        out += [(family, _modal_phrase(text, modal, many, one)) for family, modal, many, one in _MODAL_PHRASES]
        out.append((STATE_REPORT, _state_report(text)))
    return [(family, new) for family, new in out if new != text]
