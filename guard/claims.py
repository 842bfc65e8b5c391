"""The domain's values: Claim, Norm, Scope, Window — with validation and JSON round-trip.

Every edge (CLI, HTTP, JSONL, SQLite) builds these through ``from_dict`` so bad input is refused
in one place with one kind of error, before any stage or the store sees it.
"""
from __future__ import annotations

import datetime as _dt
import re
import unicodedata
import uuid
from functools import lru_cache
from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from typing import Any

from guard.markup import plain_statement

MAX_TEXT_CHARS = 2000
SCOPE_KEYS = ("env", "team", "tenant")


class ClaimError(ValueError):
    """Input that cannot become a claim. The message names the problem; it is shown to users as is."""


class Modality(str, Enum):
    MUST = "must"
    SHOULD = "should"
    MAY = "may"
    MUST_NOT = "must_not"
    SHOULD_NOT = "should_not"
    MAY_NOT = "may_not"
    UNKNOWN = "unknown"

    @property
    def negated(self) -> bool:
        return self.value.endswith("_not")

    @property
    def strength(self) -> str:
        return self.value.split("_")[0]

    def flip(self) -> "Modality":
        if self is Modality.UNKNOWN:
            return self
        return Modality(self.strength if self.negated else self.value + "_not")


class SubjectKind(str, Enum):
    PRESENT = "PRESENT"
    FUZZY = "FUZZY"
    MISSING = "MISSING"


class StateVerb(str, Enum):
    """The closed set of state verbs a norm's object is drawn from.

    Closed on purpose: two claims can only oppose each other on the *same* state, and a free-text
    verb would make "uses" and "utilises" different states.
    """
    BE = "be"
    USE = "use"
    REQUIRE = "require"
    ALLOW = "allow"
    ENABLE = "enable"
    SUPPORT = "support"
    STORE = "store"
    LOG = "log"
    LISTEN = "listen"
    RETAIN = "retain"
    MERGE = "merge"
    DEPLOY = "deploy"
    PUSH = "push"
    EXPOSE = "expose"
    RUN = "run"
    SET = "set"
    NAME = "name"
    SIGN = "sign"
    ACCESS = "access"
    ENCRYPT = "encrypt"
    APPROVE = "approve"
    REVIEW = "review"
    ROTATE = "rotate"
    LIMIT = "limit"
    PIN = "pin"
    FOLLOW = "follow"
    EXPIRE = "expire"
    SEND = "send"
    OTHER = "other"


@dataclass(frozen=True)
class Scope:
    env: str | None = None
    team: str | None = None
    tenant: str | None = None

    @classmethod
    def from_dict(cls, d: dict | None) -> "Scope":
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise ClaimError(f"scope must be an object with keys {', '.join(SCOPE_KEYS)}")
        unknown = sorted(map(ascii, set(d) - set(SCOPE_KEYS)))
        if unknown:
            raise ClaimError(f"unknown scope key(s): {', '.join(unknown)} (allowed: {', '.join(SCOPE_KEYS)})")
        vals = {}
        for k in SCOPE_KEYS:
            v = d.get(k)
            if v is not None and (not isinstance(v, str) or not v.strip()):
                raise ClaimError(f"scope.{k} must be a non-empty string or null")
            vals[k] = scope_value(validate_field(v, f"scope.{k}", 200), k) if isinstance(v, str) else None
            if vals[k] == "":
                raise ClaimError(f"scope.{k} has no visible characters")
        return cls(**vals)

    def overlaps(self, other: "Scope") -> bool:
        """Unset dimensions apply everywhere, so scopes overlap unless some dimension is set on both
        to different values."""
        e, t, n = other.env, other.team, other.tenant       # unrolled: called for every candidate pair
        return ((self.env is None or e is None or self.env == e) and (self.team is None or t is None or self.team == t)
                and (self.tenant is None or n is None or self.tenant == n))

    def to_dict(self) -> dict:
        # by hand, not dataclasses.asdict (a deep copy): every scope-disjoint pair's evidence is
        # built here, and asdict was 70 % of the structural compare's time on a 10k-claim write
        return {k: getattr(self, k) for k in SCOPE_KEYS}


def parse_date(value: Any, name: str) -> _dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, _dt.date):
        return value
    if not isinstance(value, str):
        raise ClaimError(f"{name} must be an ISO date (YYYY-MM-DD) or null, got {value!r}")
    v = value.strip()
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            raise ValueError
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise ClaimError(f"{name} is not a valid ISO date (YYYY-MM-DD): {ascii(value)[:60]}") from None


@dataclass(frozen=True)
class Window:
    """Inclusive validity window; None is open on that side."""
    valid_from: _dt.date | None = None
    valid_until: _dt.date | None = None

    def __post_init__(self):
        if self.valid_from and self.valid_until and self.valid_from > self.valid_until:
            raise ClaimError(f"valid_from {self.valid_from} is after valid_until {self.valid_until}")

    @classmethod
    def parse(cls, valid_from: Any = None, valid_until: Any = None) -> "Window":
        return cls(parse_date(valid_from, "valid_from"), parse_date(valid_until, "valid_until"))

    def overlaps(self, other: "Window") -> bool:
        return self.intersection(other) is not None

    def intersection(self, other: Window) -> Window | None:
        """The days both windows hold on; None where they share none."""
        lo = max((d for d in (self.valid_from, other.valid_from) if d), default=None)
        hi = min((d for d in (self.valid_until, other.valid_until) if d), default=None)
        return None if lo is not None and hi is not None and lo > hi else Window(lo, hi)

    def narrowed_by(self, stated: Window | None) -> Window:
        """This window narrowed by one a claim's text states ("Until March 2026, …"); itself where the text states none
        or none that shares a day with it (the metadata says when a claim holds; the words cannot move it)."""
        return self if stated is None else self.intersection(stated) or self

    def to_dict(self) -> dict:
        return {"valid_from": _iso(self.valid_from), "valid_until": _iso(self.valid_until)}


def written_on(created_at: str | None) -> _dt.date | None:
    """The (UTC) day of a claim's ``created_at``; None where it does not start with an ISO date (a
    file's or an old store's free-form value)."""
    m = re.match(r"(\d{4}-\d{2}-\d{2})(?![\d])", created_at or "")
    try:
        return _dt.date.fromisoformat(m.group(1)) if m else None
    except ValueError:
        return None


def in_force(claim: Claim, norm: Norm) -> Norm:
    """``norm`` read over the window ``claim`` holds in a store (``Claim.in_force``): what writes and
    store scans compare. Pairs files (``guard compare``, the benchmarks) keep their windows as given."""
    w = claim.in_force(claim.window.narrowed_by(norm.text_window))     # "Until March 2026, …": within its own
    return norm if w == norm.window else replace(norm, window=w)


def _iso(d: _dt.date | None) -> str | None:
    return d.isoformat() if d else None


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
MAX_FIELD_CHARS = 500


def _check_string(value: str, name: str) -> None:
    """Valid UTF-8 and no control characters. The message never echoes the value: a lone
    surrogate in it would break whatever renders the error."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ClaimError(f"{name} is not valid UTF-8 (it contains a lone surrogate)") from None
    m = _CONTROL.search(value)
    if m:
        raise ClaimError(f"{name} contains the control character U+{ord(m.group()):04X}")


def validate_field(value: Any, name: str, max_chars: int = MAX_FIELD_CHARS) -> str:
    """Every string field other than the text (scope values, source, reason, ids) is checked the
    way the text is."""
    if not isinstance(value, str):
        raise ClaimError(f"{name} must be a string")
    _check_string(value, name)
    value = value.strip()
    if not value:
        raise ClaimError(f"{name} is empty")
    if len(value) > max_chars:
        raise ClaimError(f"{name} is {len(value)} characters; the limit is {max_chars}")
    return value


def validate_text(text: Any) -> str:
    if not isinstance(text, str):
        raise ClaimError("text must be a string")
    _check_string(text, "text")
    stripped = text.strip()
    if not stripped:
        raise ClaimError("text is empty")
    if len(stripped) > MAX_TEXT_CHARS:
        raise ClaimError(f"text is {len(stripped)} characters; the limit is {MAX_TEXT_CHARS}")
    if not any(ch.isalpha() for ch in stripped):
        # ".", "!!!", "123": a stray keystroke or a broken template, never a rule or a fact, and
        # stored it would sit in the store for good (it was stored clean)
        raise ClaimError("text has no words")
    return stripped


class Status(str, Enum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    CANCELLED = "cancelled"


@dataclass
class Claim:
    text: str
    scope: Scope = field(default_factory=Scope)
    window: Window = field(default_factory=Window)
    id: str = field(default_factory=lambda: "c_" + uuid.uuid4().hex[:12])
    status: Status = Status.ACTIVE
    source: str | None = None
    created_at: str = field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    supersedes: str | None = None
    reason: str | None = None

    @property
    def valid_from(self) -> _dt.date | None:
        return self.window.valid_from

    @property
    def valid_until(self) -> _dt.date | None:
        return self.window.valid_until

    def in_force(self, window: Window | None = None) -> Window:
        """The window a *stored* claim holds over: its own, from the day it was written where it
        names no start. Why: a window-less claim read as holding for all time overlapped every
        window in the past, so a claim whose window had ended ("deploys are frozen until 5
        January") blocked every later claim it disagreed with, for good. A claim that names a start,
        or whose end is before the day it was written (a statement about the past), keeps its own.
        ``window``: the one to read so, where not the claim's own (narrowed by what its text states)."""
        w = self.window if window is None else window
        written = written_on(self.created_at)
        if w.valid_from is not None or written is None or (w.valid_until is not None and w.valid_until < written):
            return w
        return Window(written, w.valid_until)

    @classmethod
    def from_dict(cls, d: Any) -> "Claim":
        if not isinstance(d, dict):
            raise ClaimError("a claim must be a JSON object")
        unknown = set(d) - {"id", "text", "scope", "valid_from", "valid_until", "status", "source",
                            "created_at", "supersedes", "reason"}
        if unknown:
            raise ClaimError(f"unknown claim field(s): {', '.join(sorted(map(ascii, unknown)))}")
        kw: dict[str, Any] = dict(text=validate_text(d.get("text")), scope=Scope.from_dict(d.get("scope")),
                                  window=Window.parse(d.get("valid_from"), d.get("valid_until")))
        for k in ("id", "source", "created_at", "supersedes", "reason"):
            if d.get(k) is not None:
                v = d[k] if isinstance(d[k], str) else str(d[k])
                kw[k] = validate_field(v, k, 200 if k in ("id", "supersedes", "created_at") else 2000)
        if d.get("status") is not None:
            try:
                kw["status"] = Status(d["status"])
            except ValueError:
                raise ClaimError(f"unknown status {d['status']!r}") from None
        return cls(**kw)

    @classmethod
    def reference_from_dict(cls, d: Any) -> Claim:
        """A reference fact to ingest: as ``from_dict``, and without an id its id is derived from
        what it says (text, scope, window). Why: ingest upserts by id, and a random id made every
        run of `guard ingest facts.jsonl` (a nightly sync) store every id-less fact once more."""
        c = cls.from_dict(d)
        if d.get("id") is None:
            c.id = reference_id(c)
        return c

    def content(self) -> tuple:
        """What the claim says and how it stands, without the time it was read."""
        return (self.text, self.scope, self.window, self.status, self.source, self.supersedes, self.reason)

    def to_dict(self) -> dict:
        return {"id": self.id, "text": self.text, "scope": self.scope.to_dict(), **self.window.to_dict(),
                "status": self.status.value, "source": self.source, "created_at": self.created_at,
                "supersedes": self.supersedes, "reason": self.reason}


@dataclass(frozen=True)
class Bound:
    """A numeric value with its comparator, so "at most 30" and "at least 60" can be checked."""
    op: str          # "eq" | "le" | "ge" | "range" (``number`` … ``upper``, both included)
    number: float
    unit: str = ""
    upper: float | None = None


@dataclass(frozen=True)
class Permission:
    """Who may (or may not) do what: "Only admins can delete projects." is admins, kept to them,
    allowed to "delete project". Why apart from the subject: a rule about an action names the one
    who acts and the thing acted on, and the subject is one of the two — two rules on one action
    with different actors ("Only owners …" / "Members can …") conflict or agree by who they name,
    which no subject comparison sees."""
    actor: str                  # the role's words, singular: "security team", "admin", "anyone"
    action: tuple[str, ...]     # the predicate's content words, sorted: ("delete", "project")
    allowed: bool               # False: "cannot", "may not", "must not", "nobody may"
    only: bool = False          # the action is kept to this actor: "Only X …", "No one except X …"
    everyone: bool = False      # the actor is everyone: "anyone", "any member", "all users", "nobody"
    verb: str = ""              # the action's verb: "delete"; "access" for "has access to"

    def to_dict(self) -> dict:
        return {"actor": self.actor, "action": list(self.action), "allowed": self.allowed, "only": self.only,
                "everyone": self.everyone, "verb": self.verb}

    @classmethod
    def from_dict(cls, d: dict) -> Permission:
        return cls(str(d["actor"]), tuple(str(w) for w in d["action"]), bool(d["allowed"]), bool(d.get("only")),
                   bool(d.get("everyone")), str(d.get("verb") or ""))


@dataclass(frozen=True)
class Assignment:
    """A thing given to one party: "The payments team owns the billing-api.", "Incidents are
    escalated to the SRE lead.", "The on-call engineer is responsible for rollbacks." Why apart from
    the value: the party is a noun phrase, which the value selectors (surface forms: ports,
    versions, amounts) never read, so two owners of one service were two statements about
    different subjects ("payments team" / "platform team")."""
    relation: str               # "owner", "maintainer", "responsible", "escalation", "manager"
    party: str                  # who it is given to, its words: "payment team", "sre lead"
    thing: tuple[str, ...]      # what is given, its content words in order: ("security", "incident")

    def to_dict(self) -> dict:
        return {"relation": self.relation, "party": self.party, "thing": list(self.thing)}

    @classmethod
    def from_dict(cls, d: dict) -> Assignment:
        return cls(str(d["relation"]), str(d["party"]), tuple(str(w) for w in d["thing"]))


ANY_VARIANT = "*"      # a class of variants ("paid plans"): comparable with every named one


@dataclass(frozen=True)
class Norm:
    """A claim's structured reading. ``unknown`` when the normalizer could not (or failed to) read it."""
    modality: Modality
    subject: str | None
    object: StateVerb = StateVerb.OTHER
    value: str | None = None
    scope: Scope = field(default_factory=Scope)
    window: Window = field(default_factory=Window)
    subject_kind: SubjectKind = SubjectKind.MISSING
    value_kind: str | None = None        # port, number, version, colour, domain, literal, name, …
    bound: Bound | None = None
    theme: str | None = None             # canonical complement, e.g. "null key" in "rejects null keys"
    terms: tuple[str, ...] = ()          # content lemmas, for overlap gates
    values: tuple = ()                   # every (kind, text, Bound|None) mention, primary or not
    exclusive: bool = False              # "only X": a permission that excludes other values
    attribute: str | None = None         # what the value is of: "max_connections", "stipend", "retry count"
    qualifiers: tuple[str, ...] = ()     # conditions, exceptions, asides kept apart from the main clause
    text_scope: Scope | None = None      # a scope the prose itself states ("… in staging")
    text_window: Window | None = None    # a validity window the prose itself states ("Until March 2026, …")
    variants: tuple[tuple[str, str], ...] = ()   # (kind, name) the prose restricts itself to: ("plan", "pro")
    permission: Permission | None = None  # who may do what, where the statement grants or denies an action
    assignment: Assignment | None = None  # a thing given to one party: its owner, who is responsible, …
    normalizer: str = "unknown"
    error: str | None = None

    @classmethod
    def unknown(cls, scope: Scope | None = None, window: Window | None = None,
                normalizer: str = "unknown", error: str | None = None) -> "Norm":
        return cls(Modality.UNKNOWN, None, scope=scope or Scope(), window=window or Window(),
                   normalizer=normalizer, error=error)

    @property
    def is_unknown(self) -> bool:
        return self.modality is Modality.UNKNOWN

    def to_dict(self) -> dict:
        return {"modality": self.modality.value, "subject": self.subject, "object": self.object.value,
                "value": self.value, "value_kind": self.value_kind,
                "bound": asdict(self.bound) if self.bound else None, "theme": self.theme,
                "scope": self.scope.to_dict(), **self.window.to_dict(),
                "subject_kind": self.subject_kind.value, "terms": list(self.terms),
                "values": [[k, t, asdict(b) if b else None] for k, t, b in self.values], "exclusive": self.exclusive,
                "attribute": self.attribute, "qualifiers": list(self.qualifiers),
                "text_scope": self.text_scope.to_dict() if self.text_scope else None,
                "text_window": self.text_window.to_dict() if self.text_window else None,
                "variants": [list(v) for v in self.variants],
                "permission": self.permission.to_dict() if self.permission else None,
                "assignment": self.assignment.to_dict() if self.assignment else None,
                "normalizer": self.normalizer, "error": self.error}

    @classmethod
    def from_dict(cls, d: dict) -> "Norm":
        return cls(modality=Modality(d["modality"]), subject=d.get("subject"), object=StateVerb(d.get("object", "other")),
                   value=d.get("value"), value_kind=d.get("value_kind"),
                   bound=Bound(**d["bound"]) if d.get("bound") else None, theme=d.get("theme"),
                   scope=Scope.from_dict(d.get("scope")), window=Window.parse(d.get("valid_from"), d.get("valid_until")),
                   subject_kind=SubjectKind(d.get("subject_kind", "MISSING")), terms=tuple(d.get("terms", ())),
                   values=tuple((k, t, Bound(**b) if b else None) for k, t, b in d.get("values", ())),
                   exclusive=bool(d.get("exclusive", False)), attribute=d.get("attribute"),
                   qualifiers=tuple(d.get("qualifiers", ())),
                   text_scope=Scope.from_dict(d["text_scope"]) if d.get("text_scope") else None,
                   text_window=Window.parse(**d["text_window"]) if d.get("text_window") else None,
                   variants=tuple((str(k), str(n)) for k, n in d.get("variants", ())),
                   permission=Permission.from_dict(d["permission"]) if d.get("permission") else None,
                   assignment=Assignment.from_dict(d["assignment"]) if d.get("assignment") else None,
                   normalizer=d.get("normalizer", "unknown"), error=d.get("error"))

    def with_context(self, scope: Scope, window: Window) -> "Norm":
        return replace(self, scope=scope, window=window)


# Latin look-alikes from Cyrillic and Greek: the common ones, enough that "Dерloys" (Cyrillic е, р)
# reads as "Deploys". Unicode's full confusables table is larger; these cover the letters that look
# identical in ordinary fonts.
_CONFUSABLES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})


@lru_cache(maxsize=65536)       # a scan folds each claim's text for every pair it is in
def comparison_text(text: str) -> str:
    """The text the stages compare: NFKC, format characters (zero-width, bidi overrides) removed,
    common confusable letters folded to Latin, and the markup of the document it was copied from taken
    off (``markup.plain_statement``: a list item's bullet, Markdown emphasis, typographic quotes …).
    What the user wrote is what is stored; this is only what the guard reads, so invisible or
    look-alike characters cannot slip a conflict past it, nor a bullet change what a rule says."""
    return plain_statement(_fold(text, look_alikes=True))


def _fold(text: str, look_alikes: bool) -> str:
    """NFKC, format characters (Cf) dropped, look-alike letters folded to Latin if asked, runs of
    whitespace made one space: what a claim's text and its scope values are compared as."""
    t = unicodedata.normalize("NFKC", text)
    t = "".join(ch for ch in t if unicodedata.category(ch) != "Cf")
    if look_alikes:
        t = t.translate(_CONFUSABLES)
    return re.sub(r"\s+", " ", t).strip()


# An environment's usual names, one value each: the normalizer reads "in production" from the text
# as env "prod", so a scope field written "production" must be "prod" too, or the two are disjoint
# scopes and their claims never meet (session 34: "… port 8443." with env production and "… port
# 9000 in production." were clean).
ENV_NAMES = {"production": "prod", "prod": "prod", "staging": "staging", "stage": "staging", "development": "dev",
             "dev": "dev", "qa": "qa", "sandbox": "sandbox", "test": "test", "testing": "test"}


@lru_cache(maxsize=4096)        # a store's claims share a handful of scope values
def scope_value(value: str, key: str = "") -> str:
    """The form a scope value is stored and compared in. Scopes decide whether two claims can
    conflict at all (disjoint scopes coexist), so "ｐｒｏｄ" (fullwidth), "prod" + a zero-width
    space, "Prod", "prod  eu" or "prоd" with a Cyrillic о must all be "prod"/"prod eu", and an
    environment ``key`` "production" must be "prod" (``ENV_NAMES``), or a conflicting claim is
    stored beside the rule it breaks. Look-alike letters are folded only in a
    value that also has Latin letters: a tenant written wholly in Cyrillic keeps its name."""
    latin = any("a" <= ch <= "z" or "A" <= ch <= "Z" for ch in unicodedata.normalize("NFKC", value))
    t = _fold(value, look_alikes=latin).lower()
    return ENV_NAMES.get(t, t) if key == "env" else t


def reference_id(claim: Claim) -> str:
    """``r_`` + the claim's ``read_digest``: the same fact gets the same id on every ingest,
    whatever file or source it came from."""
    return "r_" + read_digest(claim)[:12]


def read_digest(claim: Claim) -> str:
    """sha1 of what a reader of the claim sees — its text, scope and window — and nothing of how it
    stands (status, source). One digest for both uses: an ingested fact's id and the key a cached
    norm was read from, so the two never disagree on what "the same claim" means."""
    import hashlib
    import json
    key = json.dumps([claim.text, claim.scope.to_dict(), claim.window.to_dict()], ensure_ascii=False)
    return hashlib.sha1(key.encode("utf-8")).hexdigest()
