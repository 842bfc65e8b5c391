"""Locked constraints: what a RAG answer must respect, fixed by a hash, echoed verbatim by the
model, and checked against the answer by the contradiction engine itself.

Why a lock and an echo: a model that silently drops a constraint from its working context is
the failure we cannot see in its answer. Asking it to echo the locked set, and comparing the echo
with the set the hash fixes, turns that failure into a checkable one. Why the engine: a fixed
list of forbidden phrases catches the phrasing someone thought of; the write guard's normalize →
structure → gated NLI → judge reads "X supports null keys." against "X rejects null keys." the
same way it reads two claims in a store. Deterministic checkers (an allow-list, a numeric bound)
add what a machine can check exactly.

Fails closed, the opposite of the write guard: a checker that cannot run rejects and says so.
"""
from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from dataclasses import dataclass

from guard.answer import trace as tracing
from guard.json_text import NoJSONObject, first_json_object

OK, REFUSAL, REJECT = "OK", "REFUSAL", "REJECT"
REFUSAL_TEXT = "not in context"
_REFUSALS = {REFUSAL_TEXT, "not_in_context", "not in the context"}


def is_refusal(text: str) -> bool:
    """The refusal string, spelled as models spell it: a correct answer when the context lacks one."""
    return normalise(text).strip(" .").lower() in _REFUSALS


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", str(text))).strip()


def lock(constraints: list[str]) -> dict:
    """``{"constraints": [...normalised, sorted, unique...], "hash": 16 hex of sha256}``."""
    if not isinstance(constraints, list) or not all(isinstance(c, str) for c in constraints):
        raise ValueError("constraints must be a list of strings")
    items = sorted({normalise(c) for c in constraints if normalise(c)})
    if not items:
        raise ValueError("constraints must hold at least one non-empty string")
    return {"constraints": items, "hash": _hash(items)}


def _hash(items: list[str]) -> str:
    return hashlib.sha256("\n".join(items).encode("utf-8")).hexdigest()[:16]


def verify_lock(locked: dict) -> list[str]:
    if not isinstance(locked, dict) or not isinstance(locked.get("constraints"), list) or "hash" not in locked:
        raise ValueError("a lock is {\"constraints\": [...], \"hash\": \"...\"} as lock() returns it")
    items = sorted({normalise(c) for c in locked["constraints"]})
    if _hash(items) != locked["hash"]:
        raise ValueError("the lock's hash does not match its constraints (changed after locking)")
    return items


def sentences(text: str) -> list[str]:
    """Sentences of a claim: split after . ! ? ; before the next capital, digit or quote."""
    parts = re.split(r"(?<=[.!?;])\s+(?=[\"'(\[A-Z0-9])", normalise(text))
    return [p for p in (s.strip() for s in parts) if p]


@dataclass
class Verdict:
    verdict: str
    reason: str | None = None
    detail: dict | None = None
    trace_id: str | None = None

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "reason": self.reason, **({"detail": self.detail} if self.detail else {}),
                "trace_id": self.trace_id}


# ---- deterministic checkers ------------------------------------------------------------------
_DOMAIN = re.compile(r"(?<![\w.-])(?:[\w.+-]+@)?((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})(?![\w-])", re.I)
_ONLY = re.compile(r"\bonly\b", re.I)
_NEG = re.compile(r"\b(?:not|never|no|cannot|can't|isn't|aren't|forbidden|prohibited|blocked|disallowed|reject(?:ed|s)?|"
                  r"deny|denied|won't|don't|doesn't)\b", re.I)


def _clause_around(sentence: str, start: int, end: int) -> str:
    """The clause holding a span: cut at ; : , and "but"/"while"/"whereas"."""
    cuts = [m.end() for m in re.finditer(r"[;:,]|\b(?:but|while|whereas)\b", sentence[:start])]
    after = re.search(r"[;:,]|\b(?:but|while|whereas)\b", sentence[end:])
    return sentence[(cuts[-1] if cuts else 0):(end + after.start() if after else len(sentence))]


def allow_list_violation(constraint: str, sentence: str) -> dict | None:
    """"Only domain example.com is allowed." against a sentence naming another domain (an e-mail
    address counts by its domain), unless the sentence negates it."""
    if not _ONLY.search(constraint) or not re.search(r"\b(allow|permit|accept|may|can|only)", constraint, re.I):
        return None
    allowed = {d.lower() for d in _DOMAIN.findall(constraint)}
    if not allowed:
        return None
    for m in _DOMAIN.finditer(sentence):
        dom = m.group(1).lower()
        if dom in allowed or any(dom.endswith("." + a) for a in allowed):
            continue
        if _NEG.search(_clause_around(sentence, m.start(), m.end())):
            continue            # "gmail.com is not allowed" agrees with the allow-list
        return {"checker": "allow_list", "allowed": sorted(allowed), "found": dom}
    return None


def numeric_bound_violation(c_norm, s_norm) -> dict | None:
    """A locked bound ("at most 30 days") and a sentence value of the same unit about the same
    thing that breaks it."""
    from guard.compare import SubjectMatch, attributes_match, bounds_conflict, subject_match
    b = c_norm.bound
    if b is None or b.op not in ("le", "ge", "range") or not b.unit:
        return None
    same_thing = subject_match(c_norm.subject, s_norm.subject, c_norm.theme, s_norm.theme) is not SubjectMatch.DIFFERENT \
        or (c_norm.attribute and s_norm.attribute and attributes_match(c_norm.attribute, s_norm.attribute))
    if not same_thing:
        return None
    for kind, text, vb in s_norm.values:
        if vb is not None and vb.unit == b.unit and bounds_conflict(b, vb):
            said = f"{b.number:g}..{b.upper:g}" if b.op == "range" else f"{b.op} {b.number:g}"
            return {"checker": "numeric_bound", "bound": f"{said} {b.unit}", "found": text}
    return None


# ---- the gate ------------------------------------------------------------------------------------
class ConstraintGate:
    """``check(raw_output, locked, retrieved_ids) -> Verdict``. Holds the engine (loaded once)."""

    def __init__(self, guard=None, trace_path=None):
        self._guard = guard
        self._error: str | None = None
        self._lock = threading.Lock()
        self.trace_path = trace_path

    def engine(self):
        """The write guard's engine, accurate profile; None (with the reason kept) if it cannot run."""
        with self._lock:
            if self._guard is None and self._error is None:
                try:
                    from guard.pipeline import Guard, GuardConfig
                    self._guard = Guard(GuardConfig())
                except Exception as exc:  # noqa: BLE001 — reported as checker_unavailable
                    self._error = f"{type(exc).__name__}: {exc}"
            g = self._guard
            if g is not None and "nli" in g.config.stages and g.nli_gate is None:
                self._error = "the NLI stage could not load (" + "; ".join(g.notes) + ")"
                return None
            return g

    def check(self, raw_output, locked: dict, retrieved_ids: list[str], trace_path=None) -> Verdict:
        items = verify_lock(locked)
        if not isinstance(retrieved_ids, list) or not all(isinstance(i, str) for i in retrieved_ids):
            raise ValueError("retrieved_ids must be a list of strings")
        tr = tracing.Trace("constraints", {"output": raw_output if isinstance(raw_output, str) else repr(raw_output),
                                           "lock_hash": locked["hash"], "retrieved_ids": retrieved_ids})
        v = self._check(raw_output, items, set(retrieved_ids), tr)
        v.trace_id = tr.trace_id
        tracing.append(trace_path or self.trace_path, tr.record(v.verdict, v.reason, detail=v.detail))
        return v

    def _check(self, raw, items: list[str], retrieved: set[str], tr: tracing.Trace) -> Verdict:
        if isinstance(raw, dict):
            out = raw
        else:
            text = raw if isinstance(raw, str) else ""
            if is_refusal(text):
                tr.check("refusal", True)
                return Verdict(REFUSAL, "not_in_context")
            try:
                out = first_json_object(text)
            except NoJSONObject as exc:
                tr.check("json", False, error=str(exc))
                return Verdict(REJECT, "no_json", {"error": str(exc)})
        tr.check("json", True)
        bad = _schema_problem(out)
        if bad:
            tr.check("schema", False, error=bad)
            return Verdict(REJECT, "bad_schema", {"error": bad})
        tr.check("schema", True)
        if is_refusal(out["claim"]):
            tr.check("refusal", True)
            return Verdict(REFUSAL, "not_in_context")
        echo = {normalise(c) for c in out["constraints_echo"] if normalise(c)}
        if not tr.check("constraints_echo", echo == set(items), missing=sorted(set(items) - echo),
                        extra=sorted(echo - set(items))):
            return Verdict(REJECT, "constraints_echo_mismatch",
                           {"missing": sorted(set(items) - echo), "extra": sorted(echo - set(items))})
        outside = [c for c in out["citations"] if c not in retrieved]
        if not tr.check("citation_scope", not outside, outside=outside):
            return Verdict(REJECT, "citation_scope", {"outside": outside})
        return self._contradictions(out["claim"], items, tr)

    def _contradictions(self, claim: str, items: list[str], tr: tracing.Trace) -> Verdict:
        sents = sentences(claim)
        for c in items:
            for s in sents:
                hit = allow_list_violation(c, s)
                if hit:
                    tr.check("allow_list", False, constraint=c, sentence=s, **hit)
                    return Verdict(REJECT, "constraint_contradiction", {"constraint": c, "sentence": s, **hit})
        tr.check("allow_list", True)
        g = self.engine()
        if g is None:
            tr.check("engine", False, error=self._error)
            return Verdict(REJECT, "checker_unavailable", {"checker": "engine", "error": self._error})
        try:
            from guard.claims import Claim
            pairs = [(Claim(text=c), Claim(text=s)) for c in items for s in sents]
            norms = g.normalize_claims([x for p in pairs for x in p])
            for i, (c, s) in enumerate(pairs):
                hit = numeric_bound_violation(norms[2 * i], norms[2 * i + 1])
                if hit:
                    tr.check("numeric_bound", False, constraint=c.text, sentence=s.text, **hit)
                    return Verdict(REJECT, "constraint_contradiction",
                                   {"constraint": c.text, "sentence": s.text, **hit})
            tr.check("numeric_bound", True)
            judged = g.judge_pairs([(c, norms[2 * i], s, norms[2 * i + 1]) for i, (c, s) in enumerate(pairs)])
        except Exception as exc:  # noqa: BLE001 — fail closed
            tr.check("engine", False, error=f"{type(exc).__name__}: {exc}")
            return Verdict(REJECT, "checker_unavailable", {"checker": "engine", "error": f"{type(exc).__name__}: {exc}"})
        for (c, s), j in zip(pairs, judged):
            if j.tier.value == "block":
                tr.check("engine", False, constraint=c.text, sentence=s.text, stage=j.stage, why=j.reason)
                return Verdict(REJECT, "constraint_contradiction",
                               {"constraint": c.text, "sentence": s.text, "checker": "engine", "stage": j.stage,
                                "why": j.reason})
        warns = [{"constraint": c.text, "sentence": s.text, "why": j.reason}
                 for (c, s), j in zip(pairs, judged) if j.tier.value == "warn"]
        tr.check("engine", True, pairs=len(pairs), warnings=warns)
        return Verdict(OK, None, {"warnings": warns} if warns else None)


def _schema_problem(out: dict) -> str | None:
    if not isinstance(out.get("claim"), str):
        return "claim must be a string"
    for k in ("citations", "constraints_echo"):
        if not isinstance(out.get(k), list) or not all(isinstance(x, str) for x in out[k]):
            return f"{k} must be a list of strings"
    if len(out["claim"]) > 20000:
        return "claim is longer than 20000 characters"
    return None


_DEFAULT: list[ConstraintGate] = []


def check(raw_output, locked: dict, retrieved_ids: list[str], trace_path=None) -> Verdict:
    """Module-level convenience: one engine per process, loaded on first use."""
    if not _DEFAULT:
        _DEFAULT.append(ConstraintGate())
    return _DEFAULT[0].check(raw_output, locked, retrieved_ids, trace_path)
