"""Stage 2: the structural comparator. Pure and deterministic: two norms and two raw texts in,
one verdict out. No model, no I/O — so every block it issues can be explained by a rule.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from guard.abbreviations import spelled_out
from guard.claims import (
    ANY_VARIANT,
    Bound,
    Modality,
    Norm,
    Scope,
    StateVerb,
    SubjectKind,
    Window,
)
from guard.contrasting_kinds import contrasting_kinds
from guard.excepted_cases import excepted_case
from guard.normalize.lead_phrases import KIND as LEAD_PHRASE
from guard.normalize.lead_phrases import names_apart
from guard.normalize.lexicon import POLE
from guard.normalize.naming_styles import different_name_kinds, naming_style
from guard.normalize.subject_phrases import PREDICATE_KIND
from guard.normalize.typed_values import (
    ANY_UNIT,
    COUNTRIES,
    GEOGRAPHIES,
    POINT_UNITS,
    VERSION_FLOOR,
    WEEKDAYS,
    one_name,
    version_base,
)
from guard.normalize.values import UNITS
from guard.restated_requirements import restated_requirement


class VerdictKind(str, Enum):
    CONTRADICTION = "contradiction"          # opposing modality on the same subject
    VALUE_CONFLICT = "value_contradiction"   # same stance, differing atomic values
    TENSION = "tension"                      # soft opposition: should vs should not, prefer X vs Y
    CONSISTENT = "consistent"
    COEXIST = "coexist"                      # disjoint scope or validity window
    INCOMPARABLE = "incomparable"            # a subject is missing
    UNCERTAIN = "uncertain"                  # fuzzy or near subject: defer to NLI
    UNKNOWN = "unknown"                      # nothing structural to go on


class Confidence(str, Enum):
    HIGH = "HIGH"
    MED = "MED"
    LOW = "LOW"


@dataclass(frozen=True)
class Verdict:
    kind: VerdictKind
    confidence: Confidence
    reason: str
    evidence: dict = field(default_factory=dict)

    @property
    def deferred(self) -> bool:
        """LOW confidence is structure saying "I could not decide": the NLI stage may look."""
        return self.confidence is Confidence.LOW and self.kind not in (VerdictKind.COEXIST,
                                                                        VerdictKind.INCOMPARABLE)


class SubjectMatch(str, Enum):
    SAME = "same"          # equal canonical subjects, or the same two roles swapped
    NEAR = "near"          # one subject a qualified form of the other ("log" / "application log")
    RELATED = "related"    # same head word, most words shared: not enough to block on
    DIFFERENT = "different"


_PLURAL_IDENTIFIER = re.compile(r"^\w*_[a-z]*[a-rt-z]s$")


# the long form of the short names engineers write for the same thing ("the prod DB" / "the production
# database"): one word each, so two subjects that differ only in how they are spelt are one subject.
# Only abbreviations that mean nothing else ("auth" is authentication or authorisation: not here).
_SHORT_NAMES = {"production": "prod", "development": "dev", "repository": "repo", "repositories": "repo",
                "repos": "repo", "configuration": "config", "configurations": "config", "configs": "config",
                "database": "db", "databases": "db", "dbs": "db", "application": "app", "applications": "app",
                "apps": "app", "environment": "env", "environments": "env", "envs": "env",
                "administrator": "admin", "administrators": "admin", "admins": "admin",
                "infrastructure": "infra", "kubernetes": "k8s",
                "identifier": "id", "identifiers": "id", "ids": "id",
                "deployment": "deploy", "deployments": "deploy"}


# British spellings, as the American ones: handbooks of UK teams (claims_train has several) write "organisation",
# "licence", "data centre", their readers' notes often "organization", "license", "data center" — one subject
# ("Do not prop open the data center doors" read as of another subject written "centre": ``guard bench invariance``,
# a British-spelling rewrite, 3 of 36). A word ending in -ise, -ised, -ising or -isation is its -ize form (no two
# English words are told apart by that alone); the other spellings are listed, since "-our" and "-re" are also plain
# endings ("hour", "tour", "genre").
_BRITISH = {"behaviour": "behavior", "behaviours": "behaviors", "colour": "color", "colours": "colors",
            "favour": "favor", "labour": "labor", "honour": "honor", "neighbour": "neighbor", "neighbours": "neighbors",
            "flavour": "flavor", "flavours": "flavors", "endeavour": "endeavor", "armour": "armor", "humour": "humor",
            "centre": "center", "centres": "centers", "metre": "meter", "metres": "meters", "litre": "liter",
            "litres": "liters", "fibre": "fiber", "theatre": "theater", "calibre": "caliber",
            "catalogue": "catalog", "catalogues": "catalogs", "analogue": "analog", "dialogue": "dialog",
            "dialogues": "dialogs", "licence": "license", "licences": "licenses", "defence": "defense",
            "offence": "offense", "offences": "offenses", "programme": "program", "programmes": "programs",
            "modelling": "modeling", "travelling": "traveling", "labelled": "labeled", "labelling": "labeling",
            "cancelled": "canceled", "cancelling": "canceling", "levelled": "leveled", "signalling": "signaling",
            "enrolment": "enrollment", "fulfilment": "fulfillment", "instalment": "installment",
            "judgement": "judgment", "ageing": "aging", "grey": "gray", "aluminium": "aluminum"}
_ISE = re.compile(r"(?<=[a-z]{3})is(?=(?:e|es|ed|ing|er|ers|ation|ations)$)")


def _american(word: str) -> str:
    """``word``, a lower-case word, in its American spelling."""
    if (us := _BRITISH.get(word)) is not None:
        return us
    return _ISE.sub("iz", word) if "is" in word else word


def _stem(word: str) -> str:
    """A light suffix strip so "merge"/"merging", "owner"/"owners" match; identifiers stay whole, but
    for a snake_case name's plural "s" ("batch_ids" is the "batch_id" of several); a long form and
    its usual short name are one word (``_SHORT_NAMES``), as are a British spelling and the American one
    (``_BRITISH``)."""
    if (short := _SHORT_NAMES.get(word.lower())) is not None:
        return short
    if word.isalpha() and word.islower():
        word = _american(word)
    if _PLURAL_IDENTIFIER.match(word):
        return word[:-1]
    if len(word) == 4 and word.endswith("e") and word.isalpha():
        return word[:-1]           # "page" / "paging", "code" / "coding": the -ing form loses the e
    if len(word) <= 4 or any(c in word for c in "_`-0123456789"):
        return word
    stem = re.sub(r"(ings?|ed|es|e|s)$", "", word)
    if len(stem) > 3 and re.search(r"(ings?|ed)$", word) and re.search(r"([b-df-hj-km-rtv-y])\1$", stem):
        return stem[:-1]           # "logging" / "log", "shipped" / "ship": the doubled consonant of the -ing form
    return stem


def folded(word: str) -> str:
    """A subject's or an attribute's word as the comparator matches it: in lower case — letter case is how a name is
    written, not which thing it is ("StrictModes" / "strictmodes", "GitHub" / "Github", a shouted "MAX_CONNECTIONS")
    — and stemmed (``_stem``). The candidate index files subjects by the same
    words (``candidates.blocking_keys``), so a scan pairs what the comparator would call one subject."""
    return _stem(word.lower())


def stems(words) -> frozenset[str]:
    """``_stem`` of each word, as a set: two phrases that say the same words in any form."""
    return frozenset(_stem(w) for w in words)


_VALUE_QUALIFIERS = frozenset({"maximum", "minimum", "max", "min"})


# a setting named under its namespace ("vm.watermark_scale_factor", "net.ipv4.tcp_fin_timeout"): the
# namespace in lower case, the setting's own name with an underscore or in camel case
_NAMESPACED_SETTING = re.compile(r"^(?:[a-z][a-z0-9]*\.)+([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)$")


def _unqualified_settings(words: list[str], other: list[str]) -> list[str]:
    """``words`` with a namespaced setting written bare by ``other`` taken for that bare name: sysctl's
    "vm.watermark_scale_factor" is the kernel documentation's "watermark_scale_factor". Two namespaces
    of one name stay apart ("fetch.fsckObjects" / "transfer.fsckObjects": two settings), as does a name
    the other does not write bare."""
    if not any("." in w for w in words):
        return words
    bare = {w.lower() for w in other if "." not in w}
    out = []
    for w in words:
        m = _NAMESPACED_SETTING.match(w)
        out.append(m.group(1) if m is not None and m.group(1).lower() in bare else w)
    return out


_JOINED = re.compile(r"(?<=[A-Za-z0-9])[-_](?=[A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z][a-z])")


def _compounds_apart(words: list[str], other: list[str]) -> list[str]:
    """``words`` with a compound joined by a hyphen or an underscore, or written in camel case, taken apart where
    ``other`` writes each of its parts as a word of its own: "maximum line-width" / "maximum line width",
    "request_id" / "request id", "failed-login counter" / "counter for failed logins", "imagePullPolicy" / "image
    pull policy" — one name in two spellings. A compound whose parts the other does not all write stays whole
    ("auto_start_machines" / "auto_stop_machines", "readOnlyRootFilesystem" / "root filesystem")."""
    if not any(_JOINED.search(w) for w in words):
        return words          # the usual subject: nothing joined, nothing to stem twice
    apart = {folded(w) for w in other}
    out = []
    for w in words:
        parts = [x for x in _JOINED.split(w) if x]
        if len(parts) > 1 and not w.startswith(("-", "_")) and "." not in w \
                and all(folded(x) in apart for x in parts):
            out.extend(x.lower() for x in parts)
        else:
            out.append(w)
    return out


# what a name in code is a name of ("the `no_parent_owners` option", "`PendingDeprecationWarning` warnings", "the
# PASS_MAX_DAYS parameter"): said after the name, the word adds nothing to which thing it is
_KINDS_OF_NAMES = frozenset({"warning", "error", "exception", "function", "method", "class", "field", "flag", "option",
                             "setting", "parameter", "header", "variable", "directive", "property", "attribute"})


def _without_kind_after_a_name(words: list[str], other: list[str]) -> list[str]:
    """``words`` without a word that only says what kind of name the word before it is, where ``other`` has that name
    and not the kind word ("PendingDeprecationWarning warning" / "PendingDeprecationWarning")."""
    if not any(w.lower().removesuffix("s") in _KINDS_OF_NAMES for w in words[1:]):
        return words          # the usual subject: no kind word after another word
    named = {w.strip("`").lower() for w in other}
    kinds = {w.lower() for w in other}
    out = []
    for i, w in enumerate(words):
        prev = words[i - 1] if i else ""
        if a_name_in_code(prev) and w.lower().removesuffix("s") in _KINDS_OF_NAMES \
                and prev.strip("`").lower() in named and w.lower() not in kinds:
            continue
        out.append(w)
    return out


# a hyphen between two words of a compound, which writers put or leave out ("read-only" / "read only", "on-call" /
# "on call", "soft-delete" / "soft delete"); not one in a name in code ("kv-payments-prod" has letters on both sides too,
# but is split alike on both sides, so it matches itself)
_COMPOUND_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")


def compound_words(phrase: str) -> list[str]:
    """A phrase's words with a compound's hyphen read as a space."""
    return _COMPOUND_HYPHEN.sub(" ", phrase).split()


def subject_match(a: str | None, b: str | None, a_theme: str | None = None,
                  b_theme: str | None = None) -> SubjectMatch:
    if not a or not b:
        return SubjectMatch.DIFFERENT
    wa, wb = compound_words(a), compound_words(b)
    ta, tb = _unqualified_settings(wa, wb), _unqualified_settings(wb, wa)
    ta, tb = _compounds_apart(ta, tb), _compounds_apart(tb, ta)
    ta, tb = _without_kind_after_a_name(ta, tb), _without_kind_after_a_name(tb, ta)
    ta, tb = [folded(w) for w in ta], [folded(w) for w in tb]
    sa, sb = set(ta), set(tb)
    if sa == sb:
        return SubjectMatch.SAME
    # "maximum message size" / "billing queue message size": a limit on a thing holds for each of its
    # kind, so the word that makes it a limit says nothing of which thing it is. Not "default": a
    # default is what one of its kind changes ("default visibility timeout" / "the transcode queue's
    # visibility timeout is 5 minutes" is an override, no conflict)
    ka, kb = [w for w in ta if w not in _VALUE_QUALIFIERS] or ta, [w for w in tb if w not in _VALUE_QUALIFIERS] or tb
    if (ka, kb) != (ta, tb) and set(ka) != set(kb):
        ta, tb, sa, sb = ka, kb, set(ka), set(kb)
    if a_theme and b_theme:
        tha, thb = {folded(w) for w in a_theme.split()}, {folded(w) for w in b_theme.split()}
        if sa == thb and sb == tha:
            return SubjectMatch.SAME   # "MFA is required for VPN access" / "VPN access does not require MFA"
        if ta[-1] in thb and tb[-1] in tha:
            return SubjectMatch.NEAR   # the same two things, one of them qualified
    small, big = (ta, tb) if len(sa) < len(sb) else (tb, ta)
    if set(small) < set(big) and small[-1] == big[-1]:
        return SubjectMatch.NEAR
    if ta[-1] == tb[-1] and len(sa & sb) / len(sa | sb) >= 0.5 or set(small) < set(big):
        return SubjectMatch.RELATED
    return SubjectMatch.DIFFERENT


_MATCH_CONFIDENCE = {SubjectMatch.SAME: Confidence.HIGH, SubjectMatch.NEAR: Confidence.MED,
                     SubjectMatch.RELATED: Confidence.LOW}

# Object verbs that describe the same state from different angles.
_FAMILIES = [{StateVerb.STORE, StateVerb.RETAIN, StateVerb.LOG, StateVerb.EXPIRE},
             {StateVerb.USE, StateVerb.RUN, StateVerb.FOLLOW, StateVerb.SET, StateVerb.REQUIRE, StateVerb.PIN,
              StateVerb.NAME},
             {StateVerb.ALLOW, StateVerb.ENABLE, StateVerb.SUPPORT, StateVerb.ACCESS, StateVerb.EXPOSE,
              StateVerb.LISTEN},
             {StateVerb.DEPLOY, StateVerb.MERGE, StateVerb.PUSH, StateVerb.APPROVE, StateVerb.REVIEW,
              StateVerb.SIGN, StateVerb.REQUIRE}]     # "must be approved by two" / "must not require approval"


# (strength_a, strength_b) of opposing stances → verdict kind. Stances are (strength, negated);
# "may_not" here is the lifted obligation ("optional"), which opposes only "must".
_OPPOSED = {
    ("must", "must_not"): VerdictKind.CONTRADICTION,
    ("must", "may_not"): VerdictKind.CONTRADICTION,
    ("may", "must_not"): VerdictKind.CONTRADICTION,
    ("should", "must_not"): VerdictKind.CONTRADICTION,
    ("must", "should_not"): VerdictKind.CONTRADICTION,
    ("should", "should_not"): VerdictKind.TENSION,
    ("may", "should_not"): VerdictKind.TENSION,
    ("should", "may_not"): VerdictKind.TENSION,
}


def opposition(a: Modality, b: Modality) -> VerdictKind | None:
    return _OPPOSED.get((a.value, b.value)) or _OPPOSED.get((b.value, a.value))


def same_stance(a: Modality, b: Modality) -> bool:
    return a.negated == b.negated and opposition(a, b) is None


def bounds_conflict(a: Bound, b: Bound) -> bool:
    """Two bounds on the same quantity that cannot both be the rule.

    Equal-kind bounds with different numbers are different rules; an upper and a lower bound
    conflict only when they leave no room; an exact value conflicts with a bound it breaks.
    """
    if ANY_UNIT in (a.unit, b.unit):
        return _unlimited_conflict(a, b) if a.unit == ANY_UNIT else _unlimited_conflict(b, a)
    if a.unit != b.unit:
        return False
    if "range" in (a.op, b.op):
        return _range_conflict(a, b) if a.op == "range" else _range_conflict(b, a)
    x, y = _numbers(a, b)
    pair = (a.op, b.op)
    if a.op == b.op:
        return x != y
    if pair == ("le", "ge"):
        return y > x
    if pair == ("ge", "le"):
        return x > y
    if pair == ("eq", "le"):
        return x > y
    if pair == ("le", "eq"):
        return y > x
    if pair == ("eq", "ge"):
        return x < y
    if pair == ("ge", "eq"):
        return y < x
    return False


def _a_limit(va: tuple, vb: tuple) -> bool:
    """Whether either of two differing values is a limit ("up to 5 retries", "no more than 3", "at least 8
    characters"): two permissions of plain values coexist ("may use Slack" / "may use Teams"), but "Up to 5
    retries are allowed." breaks "No more than 3 retries are allowed." however permissive both sound."""
    return any(v[2] is not None and v[2].op in ("le", "ge", "range") and v[2].unit not in POINT_UNITS
               and v[2].unit != ANY_UNIT for v in (va, vb))


def _unlimited_conflict(unlimited: Bound, b: Bound) -> bool:
    """"No limit on log streams" against another bound: a cap or a range of any amount breaks it; an
    amount ("holds 50 streams"), a floor or another "no limit" does not."""
    return b.unit != ANY_UNIT and b.op in ("le", "range")


def _numbers(a: Bound, b: Bound) -> tuple[float, float]:
    """The two numbers at the precision they can be compared at: "April 2026" is a month, so a
    date against it compares by month, and "2026" a year; "24 months" is "two years" (``same_number``)."""
    x, y = a.number, b.number
    if a.unit == "date" and (x % 10000 == 0 or y % 10000 == 0):
        x, y = x // 10000, y // 10000      # "until 2026": a year, so a date against it compares by year
    elif a.unit == "date" and (x % 100 == 0 or y % 100 == 0):
        x, y = x // 100, y // 100
    if same_number(x, y, a.unit):
        return x, x
    return x, y


_MONEY = frozenset({"usd", "eur", "gbp"})    # typed_values' currencies
_CALENDAR_SLACK = 0.015           # 12 months of 30 days against a 365-day year: 1.4 %
_CALENDAR_FLOOR = 28 * 86400      # below a month, durations are counted exactly ("99 seconds" is not "100 seconds")


def same_number(x: float, y: float, unit: str) -> bool:
    """One number, also where calendar units were converted: a month is counted as 30 days and a year
    as 365, so "24 months" and "two years", "18 months" and "a year and a half", "52 weeks" and "one
    year" come out up to 1.4 % apart — one span, said in two units. So do one price said per month and per year
    ("$100 per month" / "$1,200 a year", "$20 per user per month" / "$240 per user per year"): money per time."""
    if x == y:
        return True
    if math.isinf(x) or math.isinf(y):      # "indefinitely" is no span a slack reaches (inf - y <= inf)
        return False
    if unit.split("/")[0] in _MONEY and "/time" in unit:
        return abs(x - y) <= _CALENDAR_SLACK * max(x, y)
    return unit in ("time", "period") and min(x, y) >= _CALENDAR_FLOOR and abs(x - y) <= _CALENDAR_SLACK * max(x, y)


def _mentions(n: Norm) -> list[tuple[str, Bound]]:
    return [(v[1] or "", v[2]) for v in (n.values or ((n.value_kind, n.value, n.bound),))
            if v[2] is not None and v[2].unit != ANY_UNIT]


def _quantities(n: Norm) -> list[Bound]:
    return [b for _, b in _mentions(n)]


def _same_bound_number(p: Bound, q: Bound) -> bool:
    return p.unit == q.unit and same_number(p.number, q.number, p.unit) and \
        (p.upper is None) == (q.upper is None) and (p.upper is None or same_number(p.upper, q.upper, p.unit))


# Leave is counted in working time: a week of it is five working days, a day seven to eight hours ("25
# days of holiday" / "five weeks of paid holiday", "12 weeks of paid time off" / "480 hours of parental
# leave", "0.25 days (1.75 hours) of TOIL"). Only where both statements are about time off: elsewhere "10
# days" / "two weeks" are two calendar spans and a real conflict (a token's lifetime, a reply deadline).
_TIME_OFF = re.compile(r"\b(?:leave|holidays?|vacation|PTO|TOIL|time[- ]off|sabbatical|overtime)\b", re.IGNORECASE)
_HOURS_PER_WORKING_DAY = (7.0, 7.5, 8.0)
_WORKING_UNIT = re.compile(r"\b(hour|hr|day|week)s?\b(?!.*\b(?:hour|hr|day|week)s?\b)", re.IGNORECASE)


def _in_working_units(text: str, q: Bound) -> tuple[float, str] | None:
    """How many of its written unit (hours, days or weeks) a span is, and that unit."""
    m = _WORKING_UNIT.search(text)
    if m is None or q.unit != "time" or q.op == "range":
        return None
    unit = m.group(1).lower()
    return q.number / UNITS[unit][1], unit


def _same_working_time(p: tuple[str, Bound], q: tuple[str, Bound]) -> bool:
    x, y = _in_working_units(*p), _in_working_units(*q)
    if x is None or y is None:
        return False
    for per_day in _HOURS_PER_WORKING_DAY:
        hours = {"hour": 1.0, "hr": 1.0, "day": per_day, "week": 5 * per_day}
        hx, hy = x[0] * hours[x[1]], y[0] * hours[y[1]]
        if abs(hx - hy) <= 1e-6 * max(hx, hy):
            return True
    return False


# a span counted in business days against one in weeks: a working week is five of them ("within 10 business days" /
# "within two weeks", "5 business days" / "a working week"), whatever the statements are about. Not against calendar
# days, which a business day is not ("3 business days" / "3 days" are two deadlines)
_BUSINESS_DAYS = re.compile(r"\b(?:business|working|work)\s+days?\b", re.IGNORECASE)


def _same_business_time(p: tuple[str, Bound], q: tuple[str, Bound]) -> bool:
    for x, y in ((p, q), (q, p)):
        if _BUSINESS_DAYS.search(x[0]) and not _BUSINESS_DAYS.search(y[0]):
            wx, wy = _in_working_units(*x), _in_working_units(*y)
            if wx is not None and wy is not None and wx[1] == "day" and wy[1] == "week":
                return abs(wx[0] - 5 * wy[0]) <= 1e-6 * wx[0]
    return False


def same_quantities(a: Norm, b: Norm, texts: tuple[str, str] | None = None) -> bool:
    """Both statements state the same quantities, each of one in the other ("10 minutes for
    out-of-band codes and 30 seconds for TOTP" / "half a minute for TOTP, 600 seconds out of band").
    Why: a sentence with several values is read with one of them as its value, and the two readings
    may pick different ones; two texts that state the same numbers have not changed one of them, so a
    difference between the picked values is no conflict. Whatever the bound word ("at most 30
    seconds" is the quantity "30 seconds" too): the comparison of bounds is ``bounds_conflict``'s."""
    qa, qb = _mentions(a), _mentions(b)
    working = texts is not None and all(t and _TIME_OFF.search(t) for t in texts)

    def same(p, q):
        return _same_bound_number(p[1], q[1]) or working and _same_working_time(p, q) or _same_business_time(p, q)
    return bool(qa) and bool(qb) and all(any(same(p, q) for q in qb) for p in qa) \
        and all(any(same(q, p) for p in qa) for q in qb)


def _range_conflict(r: Bound, b: Bound) -> bool:
    """A stated range ("configurable between 1 and 365 days") against another bound: two ranges
    conflict when they differ; a value, or a limit, outside the range breaks it ("keeps backups for
    six weeks" against "0 to 35 days"); one inside it ("a 14-day retention") does not."""
    lo, hi = r.number, r.upper if r.upper is not None else r.number
    if b.op == "range":
        return not (same_number(lo, b.number, r.unit)
                    and same_number(hi, b.upper if b.upper is not None else b.number, r.unit))
    if (r.unit == "yearday" or r.unit.startswith("clock")) and lo > hi:
        # over the new year ("Dec 24 to Jan 4") or midnight ("10pm to 6am"): from its first day or time on, or to its last
        return not (b.number >= lo or b.number <= hi)
    return not (lo <= b.number <= hi or same_number(lo, b.number, r.unit) or same_number(hi, b.number, r.unit))


def _grounded(value: str | None, text: str) -> bool:
    """The value is written in the text: a compound the normalizer read with its hyphen ("a 6 week cadence" is valued
    "6-week", ``open_compounds``) is written open there."""
    return bool(value) and _open(value) in _open(text)


def _open(text: str) -> str:
    return re.sub(r"[\s-]+", " ", text.lower())


def value_quantity(n: Norm) -> tuple:
    """What kind of quantity a statement's value is: its kind and its unit family."""
    return n.value_kind, n.bound.unit if n.bound is not None else None


def one_quantity(a: Norm, b: Norm) -> bool:
    """The two statements' values answer one question: of one kind and unit family, or comparable as they stand —
    no limit against a cap ("no limit to the number of applications" / "at most 100 applications": unit "*" against
    a count), which ``value_quantity`` alone reads as two kinds."""
    return value_quantity(a) == value_quantity(b) or _comparable((a.value_kind, a.value, a.bound),
                                                                 (b.value_kind, b.value, b.bound))


def _value_pair(a: Norm, b: Norm, texts: tuple[str, str] | None = None) -> tuple[tuple, tuple] | None:
    """The two values to compare: the primaries if they are of one kind, else the first pair of
    one kind among all mentions ("expire after 15 minutes (`15m`)" vs "valid for one hour"); with the
    texts, a default against a default first (``default_pair``)."""
    if different_settings(a, b):
        return None           # "max_connections is 151" and "max_user_connections is 100": different attributes
    if texts is not None and (d := default_pair(a, texts[0], b, texts[1])) is not None:
        return d
    pa = (a.value_kind, a.value, a.bound)
    pb = (b.value_kind, b.value, b.bound)

    def one_quantity(va: tuple, vb: tuple) -> bool:
        return _comparable(va, vb) and not (texts is not None and _two_ends_of_the_day((va, vb), texts))

    if one_quantity(pa, pb):
        return pa, pb
    pairs = [(va, vb) for va in a.values or (pa,) for vb in b.values or (pb,)]
    if (pair := next((p for p in pairs if one_quantity(*p) and not _one_product_named(*p)), None)) is not None:
        return pair
    if texts is not None:
        # "Sick days are unlimited." / "Employees get 10 sick days per year."
        return next((p for p in pairs if _an_allowance_against_no_limit(p, texts)), None)
    return None


_PRODUCT_WORD = re.compile(r"[A-Za-z]{2,}")


def _one_product_named(va: tuple, vb: tuple) -> bool:
    """A product's version both statements mention alike ("PHP 8.1 reached its end of life …, and its last release
    was 8.1.34" / "The final PHP 8.1 release was 8.1.31"): the thing both speak of, not a value either gives it.
    Taken for one, the two were "same value", consistent, and the values they do give went uncompared."""
    return va[0] == vb[0] == "version" and va[1].lower() == vb[1].lower() and bool(_PRODUCT_WORD.search(va[1]))


# a value said as the default ("the default value of 30 seconds", "a default of 10 s", "defaults to 300
# seconds", "the default 60-second ack deadline", "By default the retention is 7 days"): in its clause
_DEFAULT_BEFORE = re.compile(r"\bdefault(?:s|ed)?\b[^.;,:()]{0,30}$", re.IGNORECASE)
_DEFAULT_WORD = re.compile(r"default", re.IGNORECASE)


def default_values(n: Norm, text: str) -> list[tuple]:
    """The statement's values that it gives as a default."""
    if not n.values or _DEFAULT_WORD.search(text) is None:
        return []          # most statements (every one of a synthetic store): no value is a default
    out, pos = [], 0
    for v in n.values:
        i = text.find(v[1], pos)
        if i < 0:
            continue
        pos = i + len(v[1])
        if _DEFAULT_BEFORE.search(text[max(0, i - 40):i]):
            out.append(v)
    return out


def default_pair(a: Norm, a_text: str, b: Norm, b_text: str) -> tuple[tuple, tuple] | None:
    """A default against a default: where one statement gives a default among other values and the other
    speaks of the default too (gives one, or says what holds when nothing is set), those are the values to
    compare. Why: "the max stop timeout value is 120 seconds, and if the stopTimeout parameter isn't
    specified, the default value of 30 seconds is used" / "When stopTimeout is unset on Fargate, ECS waits
    60 seconds …" compared the maximum (120 s) with 60 s, which keeps within it."""
    da, db = default_values(a, a_text), default_values(b, b_text)
    if not (da or db):
        return None
    xs = da or (list(a.values) if _DEFAULT_SAID.search(a_text) else [])
    ys = db or (list(b.values) if _DEFAULT_SAID.search(b_text) else [])
    return next(((x, y) for x in xs for y in ys if _comparable(x, y)), None)


def different_settings(a: Norm, b: Norm) -> bool:
    """Each statement names its own setting: both attributes read reliably and not one attribute
    ("max_connections" / "max_user_connections"; "python version" / "tls version")."""
    return strong_attribute(a.attribute) and strong_attribute(b.attribute) and not attributes_match(a.attribute, b.attribute) \
        and not one_action_in_two_verbs(a, b)


def frequencies_of_two_verbs(a: Norm, b: Norm) -> bool:
    """How often each of two differently named actions happens ("rotate frequency" / "change
    frequency"): one action in two words, or two actions; the attribute alone cannot say which."""
    wa, wb = (a.attribute or "").split(), (b.attribute or "").split()
    return len(wa) == len(wb) == 2 and wa[1] == wb[1] == "frequency" and wa[0] != wb[0]


def one_action_in_two_verbs(a: Norm, b: Norm) -> bool:
    """Two verbs of one state ("Certificates are renewed every 90 days." / "… rotated every 60 days."):
    one action, so one attribute. Other pairs of verbs ("Backups run every 6 hours." / "Backups are
    tested every quarter.", "Logs are rotated daily." / "… archived weekly.") stay two actions'
    schedules for structure; the gate does not take them for two facts (``evidence_gate``)."""
    if not frequencies_of_two_verbs(a, b):
        return False
    if a.object is b.object and a.object not in (StateVerb.OTHER, StateVerb.BE):
        return True
    return {a.attribute.split()[0], b.attribute.split()[0]} <= _REPLACING


# verbs of putting a new one in the old one's place ("Passwords must be changed every 90 days." / "… rotated every
# 180 days.", "… reset every 30 days"): on a schedule, one action whichever word says it; "change" is no rotation
# elsewhere (it sets a setting, ``StateVerb.OTHER``), so only the schedules of two such verbs are one attribute
_REPLACING = frozenset({"rotate", "renew", "change", "replace", "reset", "refresh", "regenerate", "cycle", "reissue"})


def attributes_match(a: str, b: str) -> bool:
    """One attribute named twice: equal after stemming, or one a qualified form of the other
    ("retry count" / "job retry count")."""
    wa, wb = a.split(), b.split()
    ta = [folded(w) for w in _unqualified_settings(wa, wb)]
    tb = [folded(w) for w in _unqualified_settings(wb, wa)]
    return ta == tb or (ta[-1] == tb[-1] and (set(ta) <= set(tb) or set(tb) <= set(ta)))


def component_id(word: str) -> bool:
    """A component's identifier: a word with digits and letters, an underscore or backticks ("auth-api-0",
    "db_primary", "`maxconn`") — a name, not a word of prose."""
    return bool(re.search(r"\d", word) and re.search(r"[a-z]", word, re.I) or "_" in word.strip("_")
                or word.startswith("`"))


def a_name_in_code(word: str) -> bool:
    """An identifier ("auth-api-0", "db_primary", "PaymentsService"), not a word of prose."""
    return component_id(word) or bool(re.search(r"[a-z][A-Z]", word))


def named_things(subject: str | None) -> set[str]:
    """Identifier words of a subject ("auth-api-0", "db_primary", "us-east-1", "PaymentsService"):
    two statements whose subjects name different such things are about different things."""
    return {w for w in (subject or "").split() if a_name_in_code(w)}


def _bare(name: str) -> str:
    return name.strip("`").lower()


def names_shared(na: set[str], nb: set[str]) -> bool:
    """One named thing written twice: equal but for case and backticks, or a dotted path ending in
    the other ("net.ipv4.tcp_fin_timeout" / "tcp_fin_timeout")."""
    xa, xb = {_bare(n) for n in na}, {_bare(n) for n in nb}
    return bool(xa & xb) or any(x.endswith("." + y) or y.endswith("." + x) for x in xa for y in xb)


def mentions_a_name(text: str, names: set[str]) -> bool:
    """Whether the text names one of the things (a whole word, any case): "Use RSA-4096 keys; we'd
    avoid ED25519" is about ED25519 too, whatever its grammatical subject."""
    low = text.lower()
    return any(_whole_word_in(_bare(n), low) for n in names)


def _whole_word_in(word: str, low: str) -> bool:
    """``word`` in ``low`` with no word character (or ``.``/``-``) before it and no word character
    after it. Plain string search: this runs on every candidate pair of a scan, and a pattern per
    name would be compiled anew once names outnumber the regex cache."""
    if not word:
        return False
    start = low.find(word)
    while start >= 0:
        end = start + len(word)
        before = low[start - 1] if start else " "
        after = low[end] if end < len(low) else " "
        if not (before.isalnum() or before in "_.-") and not (after.isalnum() or after == "_"):
            return True
        start = low.find(word, start + 1)
    return False


def _without_final_stop(t: str) -> str:
    return re.sub(r"[\s.;!]+$", "", t)


def _statement_words(t: str) -> str:
    return re.sub(r"\s+", " ", _without_final_stop(t.strip().lower().strip("\"'`“”‘’")))


def same_statement(a: str, b: str) -> bool:
    """The same words in the same order (case, spacing, quotes and the final stop aside): a claim
    said twice. It agrees with itself whatever a model says — the claim-tuned cross-encoder gives
    "The catalog-api-10 runs 8 replicas." against itself p(contradiction) 0.81, and a 10k-claim
    store's duplicates drew 23 blocks and 193 warns — so structure decides, and no NLI is spent."""
    x = _statement_words(a)
    return bool(x) and x == _statement_words(b)


_ONLY_WORDS = re.compile(r"\b(?:only|solely|exclusively)\b\s*", re.IGNORECASE)


def restated_without_only(a: str, b: str) -> bool:
    """"Team leads can grant repository access." is "Only team leads can grant repository access." without its "only":
    what a rule keeps to someone or something holds of them, so the two cannot contradict (the cross-encoder gave such
    pairs p 1.00, and a parse that misses the actor leaves them to it)."""
    x, y = _statement_words(a), _statement_words(b)
    bx, by = _ONLY_WORDS.sub("", x).strip(" ,"), _ONLY_WORDS.sub("", y).strip(" ,")
    return bool(bx) and len(bx.split()) >= 2 and bx == by and (bx == x) != (by == y)


def restates_a_conjunct(a: str, b: str) -> bool:
    """"X preserves ordering." is the first conjunct of "X preserves ordering and rejects null keys.":
    a sentence entails each of its conjuncts, so the two cannot contradict (raw NLI says they do)."""
    x, y = (_without_final_stop(t.strip().lower()) for t in (a, b))
    short, long_ = (x, y) if len(x) < len(y) else (y, x)
    return bool(short) and len(short.split()) >= 2 and long_.startswith(short) and \
        re.match(r"(,\s*)?\s+and\s|,\s", long_[len(short):] + " ") is not None


# ", not environment variables", ", not on local disk", ", not even admins": what a rule sets itself against
_CONTRAST_NOT = re.compile(r",\s+not\s+(?:even\s+)?(?P<x>[^,.;:!?()]+)", re.IGNORECASE)
_CONTRAST_SKIP = frozenset({"the", "a", "an", "in", "on", "into", "to", "for", "by", "with", "at", "from", "of", "any",
                            "our", "your", "their", "its", "and", "or"})
_CONTRAST_WORD = re.compile(r"[a-z0-9][a-z0-9_-]*")


def excludes_what_the_other_names(a: str, b: str) -> bool:
    """Whether one statement sets itself against a thing the other names ("Use Vault for secrets, not environment
    variables." / "Store secrets in environment variables."): every word of the contrasted phrase, a few at most, is
    in the other text. Why: the normaliser reads such a rule as the clause before its ", not …" (the rule's polarity
    is not denied by it), so the two may read as one subject in two unrelated states, which structure would settle as
    consistent; the contrast is where they meet, and the gate should see it."""
    for text, other in ((a, b), (b, a)):
        if ", not" not in text.lower():
            continue
        # what the other names outside a contrast of its own ("…, not counting lunch" in both is no meeting)
        seen = {_stem(w) for w in _CONTRAST_WORD.findall(_CONTRAST_NOT.sub(" ", other).lower())}
        for m in _CONTRAST_NOT.finditer(text):
            words = [w for w in _CONTRAST_WORD.findall(m.group("x").lower()) if w not in _CONTRAST_SKIP]
            if 1 <= len(words) <= 6 and all(_stem(w) in seen for w in words):
                return True
    return False


def strong_attribute(attr: str | None) -> bool:
    """An attribute read from the text itself (an identifier) or from the value's kind (a port, a
    product's version, a dated event, a count of an action) names the attribute reliably; one
    guessed from a nearby noun does not, so it never keeps two values apart. The day of an action
    ("deploy day") is not one: as a strong attribute it kept apart days that one schedule gives
    (measured: claims_dev 0.706 with it, 0.712 without)."""
    return bool(attr) and bool(re.search(r"[_.]|^-|^port$| (version|date|count|frequency)$", attr))


def _identifier_attribute(n: Norm) -> bool:
    return bool(n.attribute) and bool(re.search(r"[_.]|^-", n.attribute))


def _primaries(a: Norm, va: tuple, b: Norm, vb: tuple) -> bool:
    """The compared values are each statement's own value, not two of its other quantities."""
    return va[1] == a.value and vb[1] == b.value


def effective_scope(n: Norm) -> Scope:
    """The claim's scope, with a dimension the claim leaves open filled from what its text states."""
    ts = n.text_scope
    if ts is None:
        return n.scope
    return Scope(env=n.scope.env or ts.env, team=n.scope.team or ts.team, tenant=n.scope.tenant or ts.tenant)


def effective_window(n: Norm) -> Window:
    """The days the claim holds on: its window, narrowed by one its text states (``Window.narrowed_by``)."""
    return n.window.narrowed_by(n.text_window)


# What holds only for one thing speaks of every other one too ("Only the Enterprise plan includes SSO."
# / "The Pro plan includes SSO."): an "only" before the thing's first mention, or a role only one thing
# can hold. An "only" after it is about the value ("… get only 10 GB", "accepts only TLS 1.3").
_ONLY = re.compile(r"\b(?:only|exclusively|solely|(?:exclusive|unique|limited|restricted) to)\b", re.IGNORECASE)
_ONE_ROLE = re.compile(r"\bthe (?:only|sole|default|minimum|maximum|min|max|recommended|preferred|primary|current|"
                       r"latest|newest|oldest|earliest|first|last|most|least|best|cheapest|fastest|largest|smallest|"
                       r"highest|lowest|biggest)\b", re.IGNORECASE)


def said_only_of(text: str, names) -> bool:
    """Whether ``text`` says what it says only of the thing ``names`` name (see ``_ONLY``)."""
    return bool(_ONE_ROLE.search(text)) or only_before(text, names)


def narrowed_apart(a: Norm, b: Norm) -> tuple[str, str] | None:
    """The two phrases, of one preposition, that narrow each statement's verb or value to a different thing ("in hot
    storage" / "in cold storage"); None where they name none, or one names the other's or a case of it."""
    for kind in dict.fromkeys(k for k, _ in a.variants if k.endswith(PREDICATE_KIND)):
        na = {n for k, n in a.variants if k == kind}
        nb = {n for k, n in b.variants if k == kind}
        if nb and names_apart(na, nb):
            return f"{kind.split('-')[0]} {', '.join(sorted(na))}", f"{kind.split('-')[0]} {', '.join(sorted(nb))}"
    return None


def only_before(text: str, names) -> bool:
    """Whether an "only" comes before the first mention of what ``names`` name ("Only on gateway v10 …")."""
    firsts = [m.start() for n in names if n != ANY_VARIANT
              for m in [re.search(r"(?<![\w.-])v?" + re.escape(n).replace(r"\-", r"[-\s]") + r"(?!\w)", text,
                                  re.IGNORECASE)] if m]
    return bool(firsts) and any(m.start() < min(firsts) for m in _ONLY.finditer(text))


def different_variants(a: Norm, b: Norm, a_text: str = "", b_text: str = "") -> str | None:
    """The kind of variant ("plan", "region") both texts name where no name of one is a name of the
    other ("Free" / "Pro"): as two environments, different things. A name inside another ("eu" /
    "eu-west-1", a region within a region) is not different, nor is a class ("paid plans"); and
    a text that says what holds *only* for its variant is about the others as well ("Only the
    Enterprise plan includes SSO." / "The Pro plan includes SSO.")."""
    for kind in dict.fromkeys(k for k, _ in a.variants):
        if kind.endswith(PREDICATE_KIND):
            continue           # a predicate's phrase only makes a value conflict less sure (``narrowed_apart``)
        na = {n for k, n in a.variants if k == kind}
        nb = {n for k, n in b.variants if k == kind}
        if kind == LEAD_PHRASE:
            # a role the phrase's thing holds ("In Postgres 16 the default …") is its own: only an "only" speaks of others
            if nb and names_apart(na, nb) and not only_before(a_text, na) and not only_before(b_text, nb):
                return kind    # "On gateway v10 …" / "On gateway v11 …"; not "In Postgres …" / "In Postgres 16 …"
            continue
        if kind.endswith("-phrase") and any(set(x.split()) & set(y.split()) for x in na for y in nb):
            continue           # "from production" / "from production config": one within the other
        if nb and ANY_VARIANT not in na | nb and \
                not any(x == y or x.startswith((y + "-", y + ".")) or y.startswith((x + "-", x + ".")) for x in na for y in nb) \
                and not said_only_of(a_text, na) and not said_only_of(b_text, nb):
            return kind
    return None


def _product(v: str) -> str:
    return re.sub(r"[^a-z]", "", version_base(v).lower().replace("node.js", "node")).rstrip("v")


def _version_parts(v: str) -> tuple[bool, tuple[int, ...]]:
    """(whether it is a floor, its numbers): "Python 3.10 or newer" → (True, (3, 10)), "TLS 1.2" → (False, (1, 2))."""
    return bool(VERSION_FLOOR.search(v.strip())), tuple(int(n) for n in re.findall(r"\d+", version_base(v)))


def _versions_differ(a: str, b: str) -> bool:
    """Two versions of one product that cannot both hold: a version below the other's floor ("Node.js 20 or later" /
    "Node.js 18", where "Node.js 22" keeps it), two floors that differ, or two versions written differently. Not
    one version said with fewer parts against one with more: "Google APIs use v1, not v1.0, v1.1 …" / "… pin to
    /v1.2/" is a conflict (claims_train)."""
    (fa, pa), (fb, pb) = _version_parts(a), _version_parts(b)
    if fa == fb or not pa or not pb:
        return _canon(version_base(a)) != _canon(version_base(b))
    floor, other = (pa, pb) if fa else (pb, pa)
    return other < floor[:len(other)] if len(other) < len(floor) else other[:len(floor)] < floor


# a statement that gives its version as the least one ("Node.js 20 is the minimum supported version", "at least Node 18")
_LEAST_VERSION_SAID = re.compile(r"\b(?:minimum|min\.|at least|oldest supported|lowest supported|earliest supported)\b",
                                 re.IGNORECASE)


def _floored(v: tuple, text: str) -> tuple:
    """A version value as a floor where its statement says it is the least one, though not in the words after it."""
    if v[0] != "version" or VERSION_FLOOR.search(v[1].strip()) or not _LEAST_VERSION_SAID.search(text):
        return v
    return (v[0], v[1].strip() + "+", *v[2:])


# the side ports a service keeps beside its own (a closed list: "the default port", "falls back to port
# 3000" name no purpose, and "serves its API on port 8080" is the service's own port)
_PORT_PURPOSES = stems({"metric", "metrics", "admin", "health", "healthcheck", "debug", "management", "monitoring",
                        "profiling", "pprof", "status", "telemetry", "prometheus"})


def port_purposes(n: Norm) -> frozenset[str]:
    """The side port a statement says a port is for, from its theme ("exposes metrics on port 9090" →
    {"metric"}, "serves its admin API on port 9000" → {"admin"}) or its subject ("Grafana's admin console
    is on port 3001"); empty for the service's own port ("listens on port 8080", "listens on the default
    port 8080")."""
    return stems(f"{n.theme or ''} {n.subject or ''}".lower().split()) & _PORT_PURPOSES


# a code literal written as a setting: "httpOnly: true", "max_connections = 100", "SameSite=None"
_SETTING = re.compile(r"([A-Za-z_][\w.-]*)\s*(?::|=)\s*(\S.*?)")


def setting_of(literal: str | None) -> tuple[str, str] | None:
    """(key, value) of a literal written as a setting, the key without case or separators ("SameSite" is
    "sameSite", "max_connections" "maxConnections") and the value without quotes; None for any other."""
    m = _SETTING.fullmatch((literal or "").strip())
    if m is None:
        return None
    return re.sub(r"[_.-]", "", m.group(1)).lower(), m.group(2).strip("'\"` ").lower()


# verbs whose object is one of several things side by side: a service reads many variables, depends on
# many packages, runs many commands, exposes many paths
_SIDE_BY_SIDE_VERBS = ("read", "use", "depend", "import", "call", "run", "execute", "expose", "load",
                       "include", "support", "accept", "install", "consume", "emit", "publish", "invoke",
                       "export", "mount", "serve", "subscribe", "watch")
_VERB_STEMS = "|".join(v[:-1] + "e?" if v.endswith("e") else v + f"(?:{v[-1]})?" for v in _SIDE_BY_SIDE_VERBS)
_SIDE_BY_SIDE = re.compile(rf"(?:{_VERB_STEMS})(?:s|es|d|ed|ing)?")
# words between such a verb and its object: "depends on the `x`", "reads both `A`"; "as" and "to" are
# not among them, since "runs as `nobody`" and "is set to `info`" name a thing's one value
_BEFORE_OBJECT = frozenset({"the", "a", "an", "its", "their", "our", "on", "from", "via", "with", "both", "also",
                            "each", "every", "all"})


def one_of_several(literal: str | None, text: str) -> bool:
    """A code literal that is the object of a verb like read, use, depend on, run or expose: a thing
    does that to several literals at once, so two such literals are no two values of one setting
    ("The service reads `DATABASE_URL`." / "The service reads `REDIS_URL`."). A literal written as a
    setting ("uses `sameSite: 'strict'`") is a value of its key whatever the verb."""
    if not literal or setting_of(literal) is not None:
        return False
    at = text.find(f"`{literal}`")
    if at < 0:
        return False
    for word in reversed(re.findall(r"[A-Za-z]+", text[:at].lower())[-4:]):
        if word not in _BEFORE_OBJECT:
            return _SIDE_BY_SIDE.fullmatch(word) is not None
    return False


def side_by_side(a: Norm, va: tuple, a_text: str, b: Norm, vb: tuple, b_text: str) -> bool:
    """Two literals, one of several that a thing reads, uses or runs, and neither statement says it is the
    only one ("reads only `DATABASE_URL`")."""
    return (va[0] == vb[0] == "literal" and not (a.exclusive or b.exclusive)
            and (one_of_several(va[1], a_text) or one_of_several(vb[1], b_text)))


def _comparable(va: tuple, vb: tuple) -> bool:
    if not va[1] or not vb[1]:
        return False
    if va[0] == vb[0] == "literal" and (sa := setting_of(va[1])) and (sb := setting_of(vb[1])) and sa[0] != sb[0]:
        return False          # two settings of one thing ("httpOnly: true" / "sameSite: 'strict'"), not two values of one
    if va[0] == vb[0] == "version" and _product(va[1]) != _product(vb[1]):
        return False          # "Python 3.11" and "TLS 1.3" are not two values of one thing
    if va[2] is not None and vb[2] is not None:
        if ANY_UNIT in (va[2].unit, vb[2].unit):
            # no limit is compared only with a cap: with any other amount it is a pair of two quantities
            other = vb[2] if va[2].unit == ANY_UNIT else va[2]
            return other.op in ("le", "range") and other.unit not in POINT_UNITS
        return va[2].unit == vb[2].unit
    return va[0] == vb[0] and va[2] is None and vb[2] is None


def geographies(region: str) -> set[str] | None:
    """The cloud-region prefixes a region stands for: "eu-west-1" → {"eu"}, "the EU" → {"eu"},
    "North America" → {"us", "ca"}, "Germany" → {"eu"}; None for anything else."""
    low = region.lower().strip()
    if low in GEOGRAPHIES:
        return set(GEOGRAPHIES[low])
    if low in COUNTRIES:
        return {COUNTRIES[low]}
    m = re.fullmatch(r"([a-z]{2})-[a-z]+-\d+", low)
    return {m.group(1)} if m else None


# the country each AWS region code is in, where the code is one a country's name is said against
COUNTRY_OF_REGION = {
    "eu-central-1": "germany", "eu-west-1": "ireland", "eu-west-3": "france", "eu-north-1": "sweden",
    "eu-south-1": "italy", "eu-south-2": "spain", "ap-southeast-2": "australia", "ap-southeast-4": "australia",
    "ap-southeast-1": "singapore", "ap-northeast-1": "japan", "ap-northeast-3": "japan", "ap-south-1": "india",
    "ap-south-2": "india", "ap-northeast-2": "south korea", "ap-southeast-3": "indonesia", "sa-east-1": "brazil"}


def _regions_differ(a: str, b: str) -> bool | None:
    """A region code against a part of the world: the code lies in it or not ("us-east-1" is not in
    the EU, "eu-west-1" is in Europe); a country against a part of the world likewise ("Germany" is in
    the EU), against another country by name, and against a code by the code's country ("Australia" /
    "ap-southeast-2"); None where neither is a part of the world nor a country (two codes, or anything
    else), or a code's country is not known, which compare as written."""
    la, lb = a.lower().strip(), b.lower().strip()
    na, nb = la.removeprefix("the "), lb.removeprefix("the ")
    if na in COUNTRIES or nb in COUNTRIES:
        if na in COUNTRIES and nb in COUNTRIES:
            return na != nb
        country, other = (na, lb) if na in COUNTRIES else (nb, la)
        if other in COUNTRY_OF_REGION:
            return COUNTRY_OF_REGION[other] != country
        if other in GEOGRAPHIES:
            return COUNTRIES[country] not in GEOGRAPHIES[other]
        return None
    ga, gb = geographies(a), geographies(b)
    if ga is None or gb is None or (la not in GEOGRAPHIES and lb not in GEOGRAPHIES):
        return None
    return not (ga & gb)


def _apart_within_bounds(va: tuple, vb: tuple) -> bool:
    """Two bounded values of one unit that do not conflict (``bounds_conflict``) but are not one number."""
    a, b = va[2], vb[2]
    if a is None or b is None or a.unit != b.unit:
        return False
    if _clock_span_and_point((va, vb)) is not None:
        return False        # a time inside a span of the day is a time of it ("between 9am and 5pm" / "at 2pm"), no limit
    if "range" in (a.op, b.op):
        r, o = (a, b) if a.op == "range" else (b, a)
        # "up to ten hours" states the range's upper end, "at least 10 seconds" its lower one
        return not (o == r or o.op == "le" and r.upper is not None and same_number(o.number, r.upper, r.unit)
                    or o.op == "ge" and same_number(o.number, r.number, r.unit))
    x, y = _numbers(a, b)
    return x != y


_SETTING_VERBS = frozenset({StateVerb.SET, StateVerb.RETAIN})


def _setting_within_bound(a: Norm, va: tuple, b: Norm, vb: tuple) -> bool:
    """One statement sets an exact value ("is set to 20 minutes", "defaults to 512 MB", "logs are kept for
    180 days") and the other bounds it: a setting, a retention among them, is not a limit stated a second time."""
    for x, vx, vy in ((a, va, vb), (b, vb, va)):
        retention = x.object is StateVerb.STORE and vx[2] is not None and vx[2].unit == "time"   # "kept for 180 days"
        if (x.object in _SETTING_VERBS or retention) and vx[2] is not None and vx[2].op == "eq" and vy[2] is not None \
                and vy[2].op in ("le", "ge", "range"):
            return True
    return False


def _values_differ(va: tuple, vb: tuple) -> bool:
    if va[2] is not None and vb[2] is not None:
        return bounds_conflict(va[2], vb[2])
    if va[0] == vb[0] == "region" and (d := _regions_differ(va[1], vb[1])) is not None:
        return d
    if va[0] == vb[0] and (name := one_name(va[0], va[1])) is not None:
        return name != one_name(vb[0], vb[1])        # "EUR" / "euros", "kilometres" / "km", "UTC" / "GMT"
    if va[0] == vb[0] == "literal" and (sa := setting_of(va[1])) and (sb := setting_of(vb[1])):
        return sa != sb        # one setting's value in two spellings: "SameSite=None" / "sameSite: 'none'"
    if va[0] == vb[0] == "naming":
        return naming_style(va[1]) != naming_style(vb[1])      # "lower_snake_case" is "snake_case"
    if va[0] == vb[0] == "version":
        return _versions_differ(va[1], vb[1])
    if va[0] == vb[0] == "name":
        # a noun read as the value, once singular and once plural, is one value: "must log every
        # failed login" / "must not log failed logins" deny the same thing
        return singular(_canon(va[1])) != singular(_canon(vb[1]))
    return _canon(va[1]) != _canon(vb[1])


# what holds while nobody sets it: "if unset", "If the global maxconn value is not set, HAProxy calculates
# it …", "when the region isn't specified"
_UNSET_SAID = (r"\bif (?:unset|omitted|not (?:set|specified))\b|"
               r"\b(?:if|when|where)\s+(?:[\w.-]+\s+){0,4}?(?:(?:(?:is|are)\s+not|isn't|aren't)\s+(?:set(?!\s+up\b)|"
               r"specified|configured|given|provided)|(?:is|are)\s+(?:unset|omitted|left\s+(?:unset|empty|blank|out)))\b")
_UNSET = re.compile(_UNSET_SAID, re.IGNORECASE)
_DEFAULT_SAID = re.compile(
    r"\bdefault(?:s|ed)?\b|\bout of the box\b|\bstock\b|\bships with\b|\b(?:built|compiled)-in\b|"
    r"\bunless (?:customi[sz]ed|configured|overridden|changed)\b|" + _UNSET_SAID + "|"
    # "… expire after 60 seconds unless the stage overrides the TTL": what holds unless someone sets it
    r"\bunless (?:[\w-]+\s+){1,3}(?:overrides?|changes?|sets?|configures?|customi[sz]es?|pass(?:es)?|enables?|disables?)\b",
    re.IGNORECASE)
_OVERRIDE_SAID = re.compile(
    r"\b(?:we|our)\b|\bus\b(?!-)|\boverrid(?:e|es|den|ing)\b|"      # not the "us" of a region code, us-east-1
    r"\b(?:sets?|turns?|configures?|raises?|lowers?|bumps?)\s+(?:[\w.-]+\s+){0,2}?(?:to\b|=|(?:on|off|yes|no|true|false)\b|\d)", re.IGNORECASE)
_OVERRIDES_THE_DEFAULT = re.compile(r"\boverrid(?:e|es|den|ing)\s+(?:the\s+|its\s+)?(?:[\w-]+\s+)?defaults?\b", re.IGNORECASE)


# "… by default it is automatically computed, so it is recommended not to use this option": a default the
# text tells you to keep is advice, which a deployment that changes it goes against
_KEEP_THE_DEFAULT = re.compile(r"\b(?:not|never)\s+(?:to\s+)?(?:change|override|modify|touch|use|set|tune|increase|decrease)\b",
                               re.IGNORECASE)


def _states_a_default(text: str) -> bool:
    # "is not set" in a condition of absence is no advice to keep the default
    return (bool(_DEFAULT_SAID.search(text)) and not _OVERRIDE_SAID.search(text)
            and not _KEEP_THE_DEFAULT.search(_UNSET.sub(" ", text)))


def _configures_its_own(text: str) -> bool:
    return bool(_OVERRIDE_SAID.search(text)) and not _DEFAULT_SAID.search(_OVERRIDES_THE_DEFAULT.sub(" ", text))


def default_against_override(a: Norm, a_text: str, b: Norm, b_text: str) -> bool:
    """One statement gives a default ("the default visibility timeout is 30 seconds", "… and its default
    is Off"), the other what one deployment configures ("The orders queue overrides the SQS default
    with a 90-second visibility timeout", "All bastion hosts set LoginGraceTime 30"). A default is
    there to be overridden, so a different configured value is no conflict with it — unless the
    configured value breaks a limit the first statement also states ("configurable between 7 and 90
    days" / "we set it to 180 days"). Why: the model reads the two as a value conflict (p 0.9)."""
    for d, dt, o, ot in ((a, a_text, b, b_text), (b, b_text, a, a_text)):
        if _states_a_default(dt) and _configures_its_own(ot):
            limits = [q for q in _quantities(d) if q.op in ("le", "ge", "range")]
            return not any(bounds_conflict(q, v) for q in limits for v in _quantities(o))
    return False


def values_conflict(a: Norm, b: Norm, pair: tuple[tuple, tuple], texts: tuple[str, str] | None = None) -> bool:
    """The two compared values differ, and not merely as two picks among the same quantities. A version is a floor
    where its text says it is the least one (``_floored``): "Node.js 18+ is required." / "Node.js 20 is the minimum
    supported version." are two floors that differ."""
    return _differ_as_said(pair, texts) and not same_quantities(a, b, texts)


def _differ_as_said(pair: tuple[tuple, tuple], texts: tuple[str, str] | None) -> bool:
    """``_values_differ``, with a version read as a floor where its statement's text says it is the least one, and a
    time of day said as when a span of the day starts or ends compared with that end of the other's span."""
    if texts is not None and pair[0][0] == pair[1][0] == "version":
        pair = (_floored(pair[0], texts[0]), _floored(pair[1], texts[1]))
    if texts is not None and (differs := _point_against_span(pair, texts)) is not None:
        return differs
    if texts is not None and _an_allowance_against_no_limit(pair, texts):
        return True
    return _values_differ(*pair)


# an amount given to someone: what they get is all they get ("Employees get 10 sick days per year.")
_GIVEN = re.compile(r"\b(?:gets?|receives?|(?:is|are)\s+(?:entitled\s+to|given|granted|allowed|allotted)|accrues?|earns?)\b",
                    re.IGNORECASE)


def _an_allowance_against_no_limit(pair: tuple[tuple, tuple], texts: tuple[str, str]) -> bool:
    """"Sick days are unlimited." / "Employees get 10 sick days per year.": an amount said as what someone is given is
    all they are given, so no limit and it cannot both hold. A plain amount under no limit can ("There is no limit on
    the number of log streams." / "The group holds 50 log streams.")."""
    for i in (0, 1):
        u, o = pair[i][2], pair[1 - i][2]
        if u is not None and o is not None and u.unit == ANY_UNIT and o.unit != ANY_UNIT and o.op == "eq" \
                and _GIVEN.search(texts[1 - i]):
            return True
    return False


_SPAN_STARTS = re.compile(r"\b(?:opens?|opening|starts?|starting|begins?|beginning|from)\s+(?:at\s+)?$", re.IGNORECASE)
_SPAN_ENDS = re.compile(r"\b(?:closes?|closing|ends?|ending|finish(?:es)?|stops?|until|till)\s+(?:at\s+)?$",
                        re.IGNORECASE)


def _clock_span_and_point(pair: tuple[tuple, tuple]) -> tuple[int, int] | None:
    """(index of the span, index of the time) where one value is a span of the day and the other one time of it."""
    a, b = pair[0][2], pair[1][2]
    if a is None or b is None or a.unit != b.unit or not a.unit.startswith("clock"):
        return None
    if a.op == "range" and b.op == "eq":
        return 0, 1
    if b.op == "range" and a.op == "eq":
        return 1, 0
    return None


def _end_said(value: str, text: str) -> str | None:
    """"start" or "end" where the text says its time of day as when something opens or closes; None otherwise."""
    at = text.lower().find(value.lower())
    before = text[max(0, at - 40):at] if at >= 0 else ""
    return "start" if _SPAN_STARTS.search(before) else "end" if _SPAN_ENDS.search(before) else None


def _two_ends_of_the_day(pair: tuple[tuple, tuple], texts: tuple[str, str]) -> bool:
    """"The help desk opens at 7am." / "The help desk closes at 7pm.": when it opens and when it closes are two times of
    one day, not one time said twice (they were 7am against 7pm, a structural block at HIGH)."""
    a, b = pair[0][2], pair[1][2]
    if a is None or b is None or a.op != "eq" or b.op != "eq" or not a.unit.startswith("clock") or a.unit != b.unit:
        return False
    ends = {_end_said(pair[0][1], texts[0]), _end_said(pair[1][1], texts[1])}
    return ends == {"start", "end"}


def _point_against_span(pair: tuple[tuple, tuple], texts: tuple[str, str]) -> bool | None:
    """"The support desk is open 8am to 6pm." / "The support desk opens at 9am.": a time said as when the span starts
    (opens, starts, from) is its first end, one said as when it ends (closes, until) its last, so they differ where that
    end differs — inside the span or not. None where the time is said as neither."""
    sides = _clock_span_and_point(pair)
    if sides is None:
        return None
    span, point = pair[sides[0]][2], pair[sides[1]][2]
    end = _end_said(pair[sides[1]][1], texts[sides[1]])
    if end == "start":
        return not same_number(point.number, span.number, span.unit)
    if end == "end":
        return not same_number(point.number, span.upper if span.upper is not None else span.number, span.unit)
    return None


def any_value_conflict(a: Norm, b: Norm, pair: tuple[tuple, tuple], texts: tuple[str, str] | None = None) -> bool:
    """The compared values (``pair``, from ``_value_pair``) conflict, or a quantity of a unit each
    statement gives exactly once does ("every two years in April" / "every two years in October": the
    picked values agree, the months do not). One of a unit on each side is one quantity said twice;
    with more, which goes with which is unknown, so those are left alone."""
    if same_quantities(a, b, texts):
        return False
    if _values_differ(*pair):
        return True
    return _said_once_apart(a, b) is not None


def _said_once_apart(a: Norm, b: Norm, besides: tuple[tuple, tuple] | None = None) -> tuple[str, str] | None:
    """The two values, as written, of a quantity of a unit each statement gives exactly once, where they conflict
    ("in April" / "in October", "on Sundays" / "on Saturdays"); None otherwise. With more than one of a unit on a
    side, which goes with which is unknown. ``besides``: a compared pair, whose units are left out (the quantities
    beside it: "on Sundays" / "on Saturdays" beside one time of day)."""
    skip = {v[2].unit for v in besides or () if v[2] is not None}
    ma = [(t, q) for t, q in _mentions(a) if q.unit not in skip]
    mb = [(t, q) for t, q in _mentions(b) if q.unit not in skip]
    for unit in sorted({q.unit for _, q in ma} & {q.unit for _, q in mb}):
        xa, xb = [m for m in ma if m[1].unit == unit], [m for m in mb if m[1].unit == unit]
        if len(xa) == len(xb) == 1 and bounds_conflict(xa[0][1], xb[0][1]):
            return xa[0][0], xb[0][0]
    return None


def forbids_what_the_other_leaves_out(a: Norm, b: Norm, pair: tuple[tuple, tuple]) -> bool:
    """One statement forbids an exact value that the other's required bound leaves out ("Nothing merges with failing
    CI or zero reviews." / "Require at least one review and green CI before merge.": 0 reviews forbidden, at least 1
    required): one rule said twice, whose values differ only as a forbidden and an allowed one do. Where the forbidden
    value is inside the other's bound ("must not be 0" / "at most 5"), or both stances agree, the values say
    different things as before."""
    (_, _, ba), (_, _, bb) = pair
    for x, bx, y, by in ((a, ba, b, bb), (b, bb, a, ba)):
        if x.modality.negated and not y.modality.negated and bx is not None and by is not None \
                and bx.op == "eq" and by.op in ("ge", "le", "range") and bounds_conflict(bx, by):
            return True
    return False


def singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _canon(v: str | None) -> str:
    return _COMPOUND_HYPHEN.sub(" ", (v or "").lower().strip(" .`'\"").replace("node.js", "node").rstrip("+"))


def _themes_overlap(a: Norm, b: Norm) -> bool:
    """Do the two claims talk about the same state? A missing theme is a wildcard only when the
    state verbs agree; "must not run migrations" and "uses Python" share a verb family, not a state."""
    sa, sb = _state_words(a), _state_words(b)
    if not sa or not sb:
        if _a_quantity_against_an_action(a, sa, b, sb) or _a_quantity_against_an_action(b, sb, a, sa):
            return False
        wild = (StateVerb.BE, StateVerb.OTHER)
        return a.object == b.object or a.object in wild or b.object in wild
    if sa & sb:
        return True
    # derivations of one word ("approved by two reviewers" / "require approval"): the object verb
    # counts as a state word, and words sharing a stem of five letters are one word — but the two
    # verbs against each other prove nothing: "must not deploy on Fridays" / "is deployed in
    # eu-central-1" share the verb and nothing it is about
    va, vb = _verb_word(a), _verb_word(b)
    return any(x[:5] == y[:5] for x in sa | va for y in sb | vb
               if len(x) >= 5 and len(y) >= 5 and not (x in va and y in vb))


def _predicates_of_alike_values(a: Norm, a_text: str, b: Norm, b_text: str) -> tuple[frozenset, frozenset] | None:
    """What each statement says besides its subject and its value, where the two give differing values of one kind with
    one stance (``contrasting_kinds``: one thing said of two kinds of a thing); None otherwise."""
    if not (a.subject and b.subject and a.subject.split()[-1] == b.subject.split()[-1]
            and same_stance(a.modality, b.modality)):
        return None
    pair = _value_pair(a, b, (a_text, b_text))
    if pair is None or pair[0][1].lower() == pair[1][1].lower():     # one value: nothing to tell apart
        return None
    return _predicate_words(a), _predicate_words(b)


def _predicate_words(n: Norm) -> frozenset:
    """The statement's words but its subject's and its values' (a value's unit too: "4 hours" against "1h")."""
    said = {v[1] for v in n.values} | {n.value}
    units = {w.lower().removesuffix("s") for v in said if v for w in v.split()}
    subject = set(n.subject.split()) if n.subject else set()
    return frozenset(t for t in n.terms if t not in said and t not in subject and t.removesuffix("s") not in units
                     and not any(c.isdigit() for c in t))


def _a_quantity_against_an_action(q: Norm, q_words: set, x: Norm, x_words: set) -> bool:
    """One statement's state is a quantity of its subject ("Every employee gets a $1,000 yearly learning budget.": be
    $1,000, no state word), the other's an action with no quantity ("Unused learning budget does not carry over to the
    next year."): the amount says nothing of what is done with it, so the missing state word is no wildcard there (the
    two were an opposing modality on one state, a structural block at MED)."""
    return q.object is StateVerb.BE and not q_words and any(v[2] is not None for v in q.values) \
        and bool(x_words) and not x.values and x.object is not StateVerb.BE


def _un_prefixed(a: Norm, b: Norm) -> bool:
    """One side says "un<word>" (unencrypted, unsigned, unauthenticated) of a word the other side
    says plainly (encrypt, signed): a negation written into the word, which no modality shows."""
    def flips(x: Norm, y: Norm) -> bool:
        denied = {t[2:] for t in x.terms if t.startswith("un") and len(t) >= 7}
        plain = {t for t in (*y.terms, *_verb_word(y)) if len(t) >= 4 and not t.startswith("un")}
        return any(d[:5].startswith(p[:5]) or p[:5].startswith(d[:5]) for d in denied for p in plain
                   if min(len(d[:5]), len(p[:5])) >= 4)
    return flips(a, b) or flips(b, a)


def _denied_by_an_un_word(ev: dict) -> Verdict:
    """``_un_prefixed``'s verdict, wherever the two states meet: undecided, the gate's."""
    return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "same subject, one statement denies the other's state (un-)", ev)


_POLAR_WORD = re.compile(r"[a-z][a-z-]*")


def _opposite_poles(a_text: str, b_text: str) -> bool:
    """One text says a word of the opposition lexicon ("encrypted") and the other its opposite pole
    ("plaintext"), which neither says itself: the two states deny each other whatever verbs carry them."""
    def poles(text: str) -> set[tuple[str, bool]]:
        return {POLE[w] for w in _POLAR_WORD.findall(text.lower()) if w in POLE}
    pa, pb = poles(a_text), poles(b_text)
    return any((w, not neg) in pb and (w, not neg) not in pa and (w, neg) not in pb for w, neg in pa)


_PRIVATIVE = re.compile(r"^([a-z]{4,})(?:less|free)$")


def _privative_flip(a: Norm, b: Norm) -> bool:
    """One side's state word is the other's stem with a privative suffix (blameless / blame,
    passwordless / password) and the stem itself is not on the first side: the suffix is a negation."""
    sa, sb = _state_words(a) | _verb_word(a), _state_words(b) | _verb_word(b)

    def plain(ws: set[str]) -> set[str]:
        return {w for w in ws if len(w) >= 4 and not _PRIVATIVE.match(w.replace("-", ""))}

    def flips(x: set[str], y: set[str]) -> bool:
        stems = {m.group(1)[:5] for w in x if (m := _PRIVATIVE.match(w.replace("-", "")))}
        return bool(stems & {w[:5] for w in plain(y)}) and not stems & {w[:5] for w in plain(x)}
    return flips(sa, sb) or flips(sb, sa)


def _verb_word(n: Norm) -> set[str]:
    return set() if n.object in (StateVerb.BE, StateVerb.OTHER, StateVerb.REQUIRE) else {n.object.value}


def _state_words(n: Norm) -> set[str]:
    """What the claim says about its subject: the theme, or failing that the value ("uses Python 3.11")."""
    words = set((n.theme or "").split())
    if not words and n.value:
        words = set(re.findall(r"[a-z]+", n.value.lower()))
    return words


def _different_actions(a: Norm, b: Norm) -> bool:
    """One state verb from the closed set against an unknown verb ("other"), with themes that
    differ: the two statements name different actions on the subject."""
    kinds = {a.object, b.object}
    if StateVerb.OTHER not in kinds or len(kinds) != 2 or kinds & {StateVerb.BE, StateVerb.REQUIRE}:
        return False
    return set((a.theme or "").split()) != set((b.theme or "").split())


def _permitted_verbs_differ(a: Norm, b: Norm) -> bool:
    """Both statements let someone act, with different verbs ("Only admins can delete projects." /
    "Any member can create projects."): two actions on one thing, which opposing stances do not set
    against each other (the state verbs cannot tell: "create" is no state verb)."""
    pa, pb = a.permission, b.permission
    return pa is not None and pb is not None and _stem(pa.verb) != _stem(pb.verb)


def objects_compatible(a: Norm, b: Norm) -> bool:
    wild = (StateVerb.BE, StateVerb.OTHER)
    if a.object in wild or b.object in wild or a.object == b.object:
        return True
    return any(a.object in f and b.object in f for f in _FAMILIES)


def _qualifier_contested(a: Norm, b: Norm) -> bool:
    """"No root containers" vs "containers must run as non-root": the word that makes one subject
    narrower is what the other claim is about, so the two may well agree."""
    sa, sb = set((a.subject or "").split()), set((b.subject or "").split())
    extra, other = (sa - sb, b) if len(sa) > len(sb) else (sb - sa, a)
    theme = set((other.theme or "").replace("non-", "").replace("non ", "").split())
    return bool(extra & theme)


@lru_cache(maxsize=1)
def _role_verdicts():
    """guard.permissions and guard.assignments build on this module's verdicts, so they are imported
    on first use — once: an import statement in ``compare`` cost 1.6 µs a pair against its 5.3 µs."""
    from guard.assignments import assignment_verdict
    from guard.permissions import permission_verdict
    return permission_verdict, assignment_verdict


def _role_verdict(a: Norm, b: Norm) -> Verdict | None:
    """Who may act decides a pair of rules on one action, and who is given a thing a pair about it —
    unless both statements give values that differ: those are the values' to decide ("Admins can keep
    logs for 30 days." / "… for 90 days.")."""
    if not (a.permission or a.assignment) or not (b.permission or b.assignment) \
            or a.value and b.value and a.value != b.value:
        return None
    permission_verdict, assignment_verdict = _role_verdicts()
    return permission_verdict(a, b) or assignment_verdict(a, b)


# days of the week and of the year: a day is said, or a span of them a day falls in
_DAY_UNITS = ("weekday", "yearday")


def _day_within_days(vp: tuple[tuple, tuple]) -> tuple[str, str] | None:
    """(the day, the days) where one value is a day of the week or of the year and the other a span of days holding
    it ("Saturday" / "weekends", "Wednesday" / "Monday to Friday", "December 28" / "Dec 20 to Jan 3"); None
    otherwise."""
    (_, ta, ba), (_, tb, bb) = vp
    if ba is None or bb is None or ba.unit != bb.unit or ba.unit not in _DAY_UNITS:
        return None
    for (t1, b1), (t2, b2) in (((ta, ba), (tb, bb)), ((tb, bb), (ta, ba))):
        if b1.op == "eq" and b2.op == "range" and not _range_conflict(b2, b1):     # the day inside the days
            return t1, t2
    return None


def _points(va: tuple, vb: tuple) -> bool:
    """Both values are things said, not limits: no bound, one value, or a span of days ("weekends", "Dec 24 to Jan 4")."""
    return all(v[2] is None or v[2].op == "eq" or v[2].op == "range" and v[2].unit in _DAY_UNITS for v in (va, vb))


def _days_said(n: Norm) -> list[tuple]:
    """The statement's values that are days of the week (one day or a span of them)."""
    return [v for v in n.values if v[2] is not None and v[2].unit == "weekday"]


def _subject_day(n: Norm) -> tuple[str, Bound] | None:
    """The day of the week a subject names ("friday deployment"), where the statement gives no day as its value."""
    if _days_said(n):
        return None
    days = [(w, WEEKDAYS[w.lower().removesuffix("s")]) for w in (n.subject or "").split()
            if w.lower().removesuffix("s") in WEEKDAYS]
    return (days[0][0], Bound("eq", float(days[0][1]), "weekday")) if len(days) == 1 else None


def _a_day_named_against_days(a: Norm, b: Norm) -> tuple[str, str, bool] | None:
    """(the day, the days, whether the day is among them) where one statement's subject names a day of the week and
    the other's value is one or more days, the day's statement having no day value of its own; None otherwise."""
    for x, y in ((a, b), (b, a)):
        day = _subject_day(x)
        said = [v for v in _days_said(y) if v[2].op in ("eq", "range")]
        if day is not None and len(said) == 1:
            return day[0], said[0][1], not bounds_conflict(day[1], said[0][2])
    return None


# the attributes of the day a thing's life ends (``rules_v2._attribute``)
_END_DATE_ATTRIBUTES = frozenset({"end of support date", "deprecation date"})


def _end_dates(a: Norm, b: Norm, vp: tuple[tuple, tuple]) -> bool:
    """Both values are dates on which one attribute of a thing's life ends (its support, its availability)."""
    return all(v[0] == "date" for v in vp) and a.attribute == b.attribute and a.attribute in _END_DATE_ATTRIBUTES


# a threshold on the subject's own noun, which says which of its things a rule is about ("Expenses over $500 need …",
# "Purchases above $1,000 …"), and one thing of that kind given with its amount ("A $200 expense needs …")
_THRESHOLD_WORDS = r"(?:over|above|under|below|exceeding|(?:of\s+)?(?:more|less|greater|fewer)\s+than)"


def _threshold_against_case(a: Norm, va: tuple, a_text: str, b: Norm, vb: tuple, b_text: str) -> Verdict | None:
    """One statement's value is a threshold on its subject ("Expenses over $500 need finance approval.") and the
    other's a case of that subject with its amount ("A $200 expense needs only manager approval."): the threshold says
    which expenses the rule is about, so a case outside it is none of them (it was a HIGH value conflict, $500 against
    $200), and a case inside it that says what the rule says keeps it. None where the values are not such a pair (two
    thresholds are compared as values: "Expenses over £100 …" / "… over £500 …"), or the case is inside and says
    something else ("A $700 expense needs only manager approval.": a conflict, as before)."""
    head = (a.subject or "").split()[-1:]
    if not head or head != (b.subject or "").split()[-1:] or va[2] is None or vb[2] is None or va[2].unit != vb[2].unit:
        return None
    noun = re.escape(head[0])

    def threshold(v: tuple, text: str) -> bool:
        return v[2].op in ("ge", "le") and re.search(rf"\b{noun}\w*\s+{_THRESHOLD_WORDS}\s+{re.escape(v[1])}", text,
                                                     re.IGNORECASE) is not None

    def case(v: tuple, text: str) -> bool:
        return v[2].op == "eq" and re.search(rf"\b(?:an?|one|the)\s+{re.escape(v[1])}\s+(?:[\w-]+\s+){{0,2}}?{noun}\b", text,
                                             re.IGNORECASE) is not None

    for (t, tt), (c, ct) in (((va, a_text), (vb, b_text)), ((vb, b_text), (va, a_text))):
        if threshold(t, tt) and case(c, ct):
            ev = {"values": [va[1], vb[1]], "threshold": t[1], "case": c[1]}
            if bounds_conflict(t[2], c[2]):
                # as sure as disjoint scopes: the rule is about none of the things the other statement is about
                return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                               f"the rule's threshold ({t[1]}) does not reach the other's case ({c[1]})", ev)
            if a.theme and set(a.theme.split()) == set((b.theme or "").split()):
                # "A $700 expense needs finance approval.": a case the rule is about, which keeps it
                return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                               f"the other's case ({c[1]}) falls under the rule's threshold ({t[1]}) and keeps it", ev)
            return None        # a case the rule is about, which says something else of it: the values decide, as before
    return None


def _switch_states(a: Norm, b: Norm) -> tuple[bool, bool] | None:
    """(whether each is on) where one statement gives a switch's state as its value ("is off", "is on by default")
    and the other says it with the verb ("is disabled", "enabled"), both as a rule or a fact; None for any other
    pair, which the stances decide as before."""
    def state(n: Norm) -> bool | None:
        return (n.value.lower() == "on") != n.modality.negated \
            if n.value_kind == "boolean" and (n.value or "").lower() in ("on", "off") and n.object is StateVerb.BE else None

    def verb(n: Norm) -> bool | None:
        return not n.modality.negated if n.object is StateVerb.ENABLE and not n.value else None

    if a.modality.strength != "must" or b.modality.strength != "must":
        return None         # "may be enabled", "should be off": what is allowed or advised, which the stances weigh
    for x, y in ((a, b), (b, a)):
        if (sx := state(x)) is not None and (vy := verb(y)) is not None:
            return (sx, vy) if x is a else (vy, sx)
    return None


def _another_value_negated(ev: dict, vp: tuple[tuple, tuple]) -> Verdict:
    """"listens on 6379" / "does not listen on 6380": denying another value opposes nothing."""
    return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "the negation is of a different value",
                   {**ev, "values": [vp[0][1], vp[1][1]]})


# an obligation said in words, not a plain statement of fact (which the normalizers also read as a "must")
_OBLIGED = re.compile(r"\b(?:must|shall|required?|requires|need(?:s|ed)?|ha(?:s|ve)\s+to|mandatory|obliged|obligated|"
                      r"always|only)\b", re.IGNORECASE)


class StructuralComparator:
    """Stage 2. ``compare(existing_norm, existing_text, incoming_norm, incoming_text) -> Verdict``."""

    def compare(self, a: Norm, a_text: str, b: Norm, b_text: str) -> Verdict:
        verdict = self._compare(a, a_text, b, b_text)
        if verdict.kind is VerdictKind.CONSISTENT and excludes_what_the_other_names(a_text, b_text) \
                and not same_statement(a_text, b_text):
            # "Use Vault for secrets, not environment variables." / "Store secrets in environment variables.": read
            # without its contrast, the rule seemed to agree; the thing it excludes is the other's, so the gate decides
            return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "one statement excludes what the other names",
                           {**verdict.evidence, "consistent_without_the_contrast": verdict.reason})
        return verdict

    def _compare(self, a: Norm, a_text: str, b: Norm, b_text: str) -> Verdict:
        if a.is_unknown or b.is_unknown:
            return Verdict(VerdictKind.UNKNOWN, Confidence.LOW, "a statement could not be normalised",
                           {"errors": [a.error, b.error]})
        a, b = spelled_out(a, a_text, b, b_text)     # "the recovery time objective (RTO)" / "our RTO": one subject
        if not a.scope.overlaps(b.scope):        # first: disjoint scopes coexist whatever the texts say
            return Verdict(VerdictKind.COEXIST, Confidence.HIGH, "scopes are disjoint",
                           {"scopes": [a.scope.to_dict(), b.scope.to_dict()]})
        wa, wb = effective_window(a), effective_window(b)
        if not wa.overlaps(wb):
            # as disjoint scopes: two claims valid at different times coexist whatever they say, even
            # where a statement has no subject (it was "incomparable" and left to the gate)
            return Verdict(VerdictKind.COEXIST, Confidence.HIGH, "validity windows do not overlap",
                           {"windows": [wa.to_dict(), wb.to_dict()]})
        if same_statement(a_text, b_text):
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "the two statements say the same thing")
        if (pv := _role_verdict(a, b)) is not None and effective_scope(a).overlaps(effective_scope(b)) \
                and different_variants(a, b, a_text, b_text) is None:
            return pv
        if a.value_kind == b.value_kind == "naming" and different_name_kinds(a.subject, b.subject):
            # the gate, seeing two alike sentences with different style words, blocked them on the
            # cross-encoder's 0.98–1.00 ("Python module names are snake_case." / "… class names are PascalCase.")
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "styles of names of different kinds",
                           {"subjects": [a.subject, b.subject], "values": [a.value, b.value]})
        same_identifier = _identifier_attribute(a) and a.attribute == b.attribute
        if SubjectKind.MISSING in (a.subject_kind, b.subject_kind) and not same_identifier:
            return Verdict(VerdictKind.INCOMPARABLE, Confidence.HIGH, "a statement has no subject")
        na_, nb_ = named_things(a.subject), named_things(b.subject)
        # different named things only where neither statement names the other's: long prose often
        # has one named thing as subject and the other's in a clause ("batch_id" / "SendGrid sends
        # … without a batch_id"), and those pairs were wrong as often as right (grouped CV, 6 of 9)
        if na_ and nb_ and not names_shared(na_, nb_) and not (mentions_a_name(b_text, na_)
                                                               or mentions_a_name(a_text, nb_)) \
                and not (said_only_of(a_text, na_) or said_only_of(b_text, nb_)):   # "Only shard 4 holds PII."
            return Verdict(VerdictKind.INCOMPARABLE, Confidence.HIGH,
                           f"different named subjects: {', '.join(sorted(na_))} vs {', '.join(sorted(nb_))}",
                           {"named": [sorted(na_), sorted(nb_)]})
        if restated_without_only(a_text, b_text):
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "one statement says what the other keeps to it ('only')")
        if restates_a_conjunct(a_text, b_text):
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "one statement restates part of the other")
        if (exception := excepted_case(a, a_text, b, b_text)) is not None:
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                           f"one statement speaks of the case the other's rule excepts ('{exception}')")
        if (required := restated_requirement(a_text, b_text)) is not None:
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                           f"one statement says what cannot happen without what the other requires ('{required}')")
        sa, sb = effective_scope(a), effective_scope(b)
        if not sa.overlaps(sb):
            return Verdict(VerdictKind.COEXIST, Confidence.MED, "scopes stated in the texts are disjoint",
                           {"scopes": [sa.to_dict(), sb.to_dict()]})
        if (kind := different_variants(a, b, a_text, b_text)) is not None:
            names = [sorted(n for k, n in x.variants if k == kind) for x in (a, b)]
            return Verdict(VerdictKind.COEXIST, Confidence.MED,
                           (f"the subjects are narrowed apart ('{kind[:-7]}'): {', '.join(names[0])} vs {', '.join(names[1])}"
                            if kind.endswith("-phrase") else
                            f"the texts name different {kind}s: {', '.join(names[0])} vs {', '.join(names[1])}"),
                           {"variants": names})
        if (kinds := contrasting_kinds(a.subject, b.subject, a_text, b_text, _predicates_of_alike_values(a, a_text, b, b_text))) \
                is not None:
            # "Free accounts get 100 API calls per day." / "Paid accounts get 10,000 …": two kinds of one thing, as two
            # plans are (``different_variants``); the cross-encoder blocked them on likeness alone
            return Verdict(VerdictKind.COEXIST, Confidence.MED,
                           f"the subjects are kinds apart: {kinds[0]} vs {kinds[1]}", {"kinds": list(kinds)})
        if SubjectKind.FUZZY in (a.subject_kind, b.subject_kind):
            return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "a subject is vague (pronoun or generic)")
        match = subject_match(a.subject, b.subject, a.theme, b.theme)
        if same_identifier and match is not SubjectMatch.SAME:
            match = SubjectMatch.NEAR        # "max_connections" names the thing, whatever the subject words
        ev = {"subjects": [a.subject, b.subject], "match": match.value,
              "modalities": [a.modality.value, b.modality.value], "objects": [a.object.value, b.object.value]}
        if match is SubjectMatch.DIFFERENT:
            # structure cannot tell paraphrased subjects from unrelated ones: NLI and its gates decide
            shared = set(a.terms) & set(b.terms)
            return Verdict(VerdictKind.UNKNOWN, Confidence.LOW, "different subjects", {**ev, "shared_terms": sorted(shared)})
        if match is SubjectMatch.NEAR and not same_identifier and _qualifier_contested(a, b):
            match = SubjectMatch.RELATED
        strong = _MATCH_CONFIDENCE[match]
        related = match is SubjectMatch.RELATED
        opp = opposition(a.modality, b.modality)
        if match in (SubjectMatch.SAME, SubjectMatch.NEAR) and (sw := _switch_states(a, b)) is not None \
                and not default_against_override(a, a_text, b, b_text):
            # "Telemetry is off." / "Telemetry is disabled.": one switch said as its state and as its verb. Read
            # apart, the state was a "must" and the verb a "must not", an opposition at HIGH, while "is off" /
            # "is enabled" was the same stance
            if sw[0] == sw[1]:
                # not sure enough to decide alone: where each holds may differ ("only has to be on for the source
                # account" / "must be enabled for the destination storage account", claims_train), so the gate reads it
                return Verdict(VerdictKind.CONSISTENT, Confidence.MED if match is SubjectMatch.SAME else Confidence.LOW,
                               "one switch state, said as a state and as a verb", ev)
            return Verdict(VerdictKind.CONTRADICTION, strong,
                           f"opposite switch states on '{b.subject}': {'on' if sw[0] else 'off'} vs "
                           f"{'on' if sw[1] else 'off'}", ev)
        if not objects_compatible(a, b):
            # the very same subject in two states no verb family joins ("listens on port 6379" /
            # "logs are retained for 7 days"): two facts about one thing, decided here — unless both
            # give a value of one kind and the values differ ("deploys … with 1024 MB" / "defaults to
            # 512 MB"): the verbs differ in the wording, the values may be one setting's
            vp = _value_pair(a, b, (a_text, b_text))
            if vp is not None and values_conflict(a, b, vp, (a_text, b_text)):
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                               "same subject, different wording, values of one kind differ",
                               {**ev, "values": [vp[0][1], vp[1][1]]})
            if match is SubjectMatch.SAME and _un_prefixed(a, b):
                # "Database backups are encrypted at rest." / "… are stored unencrypted.": the verbs
                # differ, but the un- word denies the other's state, so structure cannot call it
                # consistent on its own (below a same subject, the gate already decides)
                return _denied_by_an_un_word(ev)
            if match is SubjectMatch.SAME and _opposite_poles(a_text, b_text):
                # "Daily backups are encrypted." / "… are written in plaintext …": the verbs differ, but
                # one state word is the other's opposite (the opposition lexicon), so structure cannot
                # call them consistent (opposing modalities alone can: "must not call internal APIs
                # without authentication" / "must expose the admin endpoint publicly")
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                               "same subject, different wording of opposing states", ev)
            if match is SubjectMatch.SAME and opp is VerdictKind.CONTRADICTION \
                    and not component_id((a.subject or "").split()[0]):
                # a subject read from prose, one statement requiring and the other denying, each in its own
                # words ("On-demand TLS must be both enabled and restricted …" / "… may run without an ask
                # endpoint or any other restriction"; "sudo will only run when … logged in to a real tty" /
                # "sudo refuses to run from cron jobs"): the gate decides. Two rules about one named component
                # stay two facts (the short claims agents write: "must not share its database …" / "must
                # expose the admin endpoint publicly")
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                               "same subject, different wording, opposing modality", ev)
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH if match is SubjectMatch.SAME else Confidence.LOW,
                           "same subject, different state", ev)
        if opp is not None:
            if _privative_flip(a, b):
                # "Postmortems are blameless" / "must not assign blame": the -less word already
                # negates the state, so the opposite modalities say the same thing
                return Verdict(VerdictKind.CONSISTENT, Confidence.MED,
                               "opposing modality on a privative word (-less, -free): the two agree",
                               {**ev, "themes": [a.theme, b.theme]})
            if not _themes_overlap(a, b):
                vp = _value_pair(a, b, (a_text, b_text))
                if vp is not None and match in (SubjectMatch.SAME, SubjectMatch.NEAR) and (days := _day_within_days(vp)):
                    # "Deploys must not happen on weekends." / "Deploys happen every Saturday.": the state is the
                    # day itself, and one stance's day lies within the other's days (of a kind of the thing, at MED:
                    # "Production deploys are scheduled every Saturday morning.")
                    return Verdict(VerdictKind.CONTRADICTION, strong,
                                   f"opposing modality on '{b.subject}' for {days[0]}, within {days[1]}",
                                   {**ev, "values": [vp[0][1], vp[1][1]]})
                if not (a.theme or b.theme) and vp is not None and all(v[2] is None or v[2].op == "eq" for v in vp) \
                        and values_conflict(a, b, vp, (a_text, b_text)) and match is SubjectMatch.SAME:
                    # "Deploys are frozen on Fridays." / "Deploys are allowed on Mondays.": the state is the
                    # value itself, of one kind and no limit, and each stance holds for its own value
                    return _another_value_negated(ev, vp)
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                               "opposing modality on different aspects", {**ev, "themes": [a.theme, b.theme]})
            if _different_actions(a, b) or _permitted_verbs_differ(a, b):
                # "X rejects null keys" / "X maps keys to values": one verb the closed set knows, one it
                # does not; a shared noun does not make them one action
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "opposing modality on different actions",
                               {**ev, "themes": [a.theme, b.theme]})
            if opp is VerdictKind.TENSION:
                return Verdict(VerdictKind.TENSION, strong if strong is Confidence.HIGH else Confidence.MED,
                               f"soft opposition: {a.modality.value} vs {b.modality.value}", ev)
            if related:
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "possible opposition on related subjects", ev)
            if (days := _a_day_named_against_days(a, b)) is not None:
                # "Deployments are prevented during weekends." / "Friday deployments are permitted.": the narrower
                # subject names its day, and each stance holds for its own days unless the day is among the other's
                if not days[2]:
                    return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                                   f"each stance holds for its own days: {days[0]}, {days[1]}", ev)
                return Verdict(VerdictKind.CONTRADICTION, strong,
                               f"opposing modality on '{b.subject}' for {days[0]}, within {days[1]}", ev)
            vp = _value_pair(a, b, (a_text, b_text))
            if vp is None and a.value and b.value and value_quantity(a) != value_quantity(b):
                # "The office is closed on Sundays." / "… opens at 8am.": each side's stance holds for
                # a value of its own kind (a day, a time of day), so the two speak of different aspects
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "opposing modality on values of different kinds",
                               {**ev, "values": [a.value, b.value]})
            if vp is not None and _end_dates(a, b, vp):
                # "Ubuntu 22.04 receives security updates until April 2027." / "… stops getting security updates in
                # 2025.": what ends on a day is what goes on until it, so the two stances say one thing, the day
                # it ends, and only the days can differ
                if values_conflict(a, b, vp, (a_text, b_text)):
                    return Verdict(VerdictKind.VALUE_CONFLICT, strong,
                                   f"'{b.subject}' ends on {vp[0][1]} in one claim and on {vp[1][1]} in the other",
                                   {**ev, "values": [vp[0][1], vp[1][1]]})
                return Verdict(VerdictKind.CONSISTENT, strong, "the same end, said as what goes on until it and as "
                               "what stops", {**ev, "values": [vp[0][1], vp[1][1]]})
            if vp is not None and values_conflict(a, b, vp, (a_text, b_text)):
                if all(v[2] is not None and v[2].unit == "time" for v in vp):
                    # "Idle SSH sessions are closed after 10 minutes." / "SSH sessions stay open indefinitely when
                    # idle.": a duration is how long the state lasts, not another thing it holds of (as a port or a
                    # day is), so the two stances give one span two lengths; it was "a different value" denied, clean
                    return Verdict(VerdictKind.VALUE_CONFLICT, strong,
                                   f"'{b.subject}' lasts {vp[0][1]} in one claim and {vp[1][1]} in the other",
                                   {**ev, "values": [vp[0][1], vp[1][1]]})
                return _another_value_negated(ev, vp)
            return Verdict(VerdictKind.CONTRADICTION, strong,
                           f"opposing modality on '{b.subject}': {a.modality.value} vs {b.modality.value}", ev)
        pair = _value_pair(a, b, (a_text, b_text)) if same_stance(a.modality, b.modality) else None
        if pair is not None:
            va, vb = pair
            vev = {**ev, "values": [va[1], vb[1]]}
            if (case := _threshold_against_case(a, va, a_text, b, vb, b_text)) is not None:
                return case
            if _differ_as_said(pair, (a_text, b_text)):     # a version may be a floor ("… the minimum supported version")
                if same_quantities(a, b, (a_text, b_text)):
                    return Verdict(VerdictKind.CONSISTENT, Confidence.MED, "both state the same quantities", vev)
                if not (_grounded(va[1], a_text) and _grounded(vb[1], b_text)):
                    return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "differing values not found in the texts", vev)
                if a.modality.negated and b.modality.negated and _points(va, vb):
                    # "Deployments must not happen on weekends." / "… on Fridays.", "must not listen on 6379" / "… on
                    # 6380": each denies its own value, and both hold (a bound denied is a limit: left to the bounds)
                    return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "each denies a different value", vev)
                soft = {a.modality.strength, b.modality.strength}
                if soft <= {"may"} and not (a.exclusive or b.exclusive) and not _a_limit(va, vb):
                    return Verdict(VerdictKind.CONSISTENT, Confidence.LOW, "two permitted values can coexist", vev)
                if "should" in soft:
                    return Verdict(VerdictKind.TENSION, Confidence.MED,
                                   f"different preferred values: {va[1]} vs {vb[1]}", vev)
                if va[0] == vb[0] == "port" and (pa := port_purposes(a)) != (pb := port_purposes(b)) \
                        and not (a.exclusive or b.exclusive):
                    # "listens on port 8080" / "exposes metrics on port 9090": a service's port and its
                    # metrics port are two ports, not one port's two values — as sure as two literals side
                    # by side, unless one says it listens on that port only
                    return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "ports for different purposes",
                                   {**vev, "purposes": [sorted(pa), sorted(pb)]})
                if side_by_side(a, va, a_text, b, vb, b_text):
                    # "reads `DATABASE_URL`" / "reads `REDIS_URL`": two of the several things it reads are
                    # as sure to stand together as a negated other value; the gate, fitted on pairs where
                    # one changed token is mostly a conflict, would block them on likeness alone
                    return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "two of several literals side by side", vev)
                if related:
                    return Verdict(VerdictKind.VALUE_CONFLICT, Confidence.LOW,
                                   "possible value conflict on related subjects", vev)
                if (apart := narrowed_apart(a, b)) is not None:
                    # "… for 30 days in hot storage" / "… for 1 year in cold storage": each value may be of its own
                    # part; not sure enough for structure to block on (the gate reads the pair)
                    return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                                   f"values differ, but the texts narrow them apart: {apart[0]} vs {apart[1]}",
                                   {**vev, "narrowed": list(apart)})
                conf = strong if va[0] != "name" else Confidence.LOW
                if conf is Confidence.MED and same_identifier and _primaries(a, va, b, vb) \
                        and not default_against_override(a, a_text, b, b_text):
                    # "vm.swappiness … its default value is 60" / "the upstream kernel default for vm.swappiness is
                    # 30": one setting named in code, given two values, neither a deployment's own against a
                    # default — as sure as one subject's two values, whatever words surround the name
                    conf = Confidence.HIGH
                return Verdict(VerdictKind.VALUE_CONFLICT, conf,
                               f"'{b.subject or b.attribute}' is {va[1]} in one claim and {vb[1]} in the other", vev)
            if _apart_within_bounds(va, vb):
                if strong is Confidence.HIGH and _setting_within_bound(a, va, b, vb):
                    # "The session timeout is set to 20 minutes." under "… set to no more than 30
                    # minutes": a configured value, not a second limit, that keeps the rule. As sure as a
                    # value that breaks the bound is a conflict, on one subject only: a weaker
                    # "consistent" is evidence the gate reads towards a block (claims_train's
                    # consistent/LOW pairs are mostly contradictions), so those stay undecided
                    return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, "a configured value inside the other's bound", vev)
                # "capped at 80 hours" / "is 40 hours", "1 write per second" / "up to 10": one
                # value breaks no bound of the other, yet they are not one value. Either may be the
                # limit itself stated twice, so this is no evidence of agreement either way
                return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "different values, neither breaks the other's bound",
                               vev)
            # one quantity in two spellings ("every 10 minutes" / "six times an hour", "a five minute timeout"
            # / "300 seconds") of the very same subject is as sure as two differing ones are a conflict; a
            # name or a place said by both may be a condition both share ("Orders from Canada ship with …")
            if (other := _said_once_apart(a, b, besides=(va, vb))) is not None:
                # "Maintenance windows are on Sundays from 2am to 4am UTC." / "Maintenance runs on Saturdays at 2am
                # UTC.": the compared times agree, the days do not — one quantity each states once, as
                # ``any_value_conflict`` reads it for the gate; it was "same value"
                return Verdict(VerdictKind.VALUE_CONFLICT, strong,
                               f"'{b.subject or b.attribute}' is {other[0]} in one claim and {other[1]} in the other",
                               {**ev, "values": list(other)})
            sure = strong is Confidence.HIGH and va[2] is not None and vb[2] is not None
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH if sure else Confidence.MED, "same value", vev)
        if {a.modality, b.modality} == {Modality.MAY, Modality.MUST} and not (a.values and b.values) \
                and not any(v[0] == "boolean" for v in (*a.values, *b.values)) \
                and _OBLIGED.search(a_text if a.modality is Modality.MUST else b_text):
            # "The CA MAY support revocation …" / "CAs are required to offer revocation …", "Breaking changes require a
            # new major version." / "… can ship in a minor version.": a permission and an obligation of one subject are
            # not one stance — what one leaves free the other demands, or one allows what the other's rule rules out
            # by its words. Read as agreeing, such pairs of claims_train were contradictions three times in four. Not
            # where both give values: "may take up to 10 days" / "is capped at 10 days" is one limit said twice; nor
            # a switch's state ("Telemetry is off." / "… may be enabled.": off until someone turns it on); and only
            # where the "must" is said as one — a plain fact reads as a "must" too ("Support is available 24/7." / "You
            # can reach support at any time …" is one fact, and the "can" its availability)
            return Verdict(VerdictKind.CONTRADICTION, Confidence.LOW, "same subject, one permits and the other obliges", ev)
        if match is SubjectMatch.SAME and _un_prefixed(a, b):
            # "The door is locked." / "The door is unlocked.": one state's verb and the other's "un-" word join as one
            # family (a copula's state is a wildcard), yet the "un-" denies the state — no stance shared
            return _denied_by_an_un_word(ev)
        if a.modality.negated == b.modality.negated:     # implied by same_stance, so it alone decides
            return Verdict(VerdictKind.CONSISTENT, Confidence.MED if match is SubjectMatch.SAME else Confidence.LOW,
                           "same subject, same stance", ev)
        return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW, "same subject, undecided", ev)
