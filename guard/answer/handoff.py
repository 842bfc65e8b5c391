"""The scholar/auditor handoff: one agent answers from the retrieved evidence (the scholar), another
checks the answer against that evidence (the auditor), and ``enforce`` decides from their JSON.

Why a contract between two agents: an answer checked by the model that wrote it inherits its
mistakes. The handoff pins what both may cite (``scope.allowed_ids``) and what the auditor may
say (VALID, INVALID, NOT_IN_CONTEXT); ``enforce`` accepts only a VALID audit with citations in
scope, retries a NOT_IN_CONTEXT (bounded, the reason handed back), and rejects the rest.

The local auditor needs no LLM: for each sentence of the scholar's claim the NLI model scores the
cited chunks (premise) against the sentence (hypothesis); the best-supporting chunk decides. Its
two thresholds are fitted on claim-vs-evidence data (``benchmarks.answer``), saved beside the
model with what they were fitted on.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Optional

from guard.answer import trace as tracing
from guard.answer.constraints import sentences
from guard.json_text import validated

VALID, INVALID, NOT_IN_CONTEXT = "VALID", "INVALID", "NOT_IN_CONTEXT"
ACCEPT, REJECT, RETRY = "ACCEPT", "REJECT", "RETRY"
AUDITOR_FILE = "auditor.json"
DEFAULT_THRESHOLDS = {"entail": 0.5, "contradict": 0.5}


def _models():
    from pydantic import BaseModel, ConfigDict, Field

    class Scope(BaseModel):
        model_config = ConfigDict(extra="forbid")
        allowed_ids: list[str]

    class Scholar(BaseModel):
        model_config = ConfigDict(extra="ignore")
        claim: str = Field(max_length=20000)
        citations: list[str] = Field(default_factory=list)
        notes: Optional[str] = None

    class Auditor(BaseModel):
        model_config = ConfigDict(extra="ignore")
        verdict: Literal["VALID", "INVALID", "NOT_IN_CONTEXT"]
        reason: Optional[str] = None
        citations: list[str] = Field(default_factory=list)
        corrected_claim: Optional[str] = None

    class Handoff(BaseModel):
        model_config = ConfigDict(extra="ignore")
        handoff_id: str = Field(min_length=1, max_length=200)
        question: str = Field(max_length=20000)
        scope: Scope
        scholar: Scholar
        auditor: Optional[Auditor] = None

    return Handoff


_handoff_model = functools.cache(_models)


def parse(data: dict):
    """The validated handoff, or ``ValueError`` naming the first bad field."""
    return validated(_handoff_model(), data, "bad handoff", "handoff")


@dataclass
class Decision:
    decision: str                 # ACCEPT | REJECT | RETRY
    reason: str | None
    handoff_id: str
    audit: dict | None = None
    attempt: int = 0
    trace_id: str | None = None

    def to_dict(self) -> dict:
        return {"verdict": self.decision, "reason": self.reason, "handoff_id": self.handoff_id, "audit": self.audit,
                "attempt": self.attempt, "trace_id": self.trace_id}


def enforce(handoff, attempt: int = 0, max_retries: int = 2, trace_path=None) -> Decision:
    """ACCEPT a VALID audit whose citations (and the scholar's) are in scope; RETRY a NOT_IN_CONTEXT
    while retries remain, handing the reason back; REJECT everything else."""
    h = handoff if not isinstance(handoff, dict) else parse(handoff)
    tr = tracing.Trace("handoff", {"question": h.question, "allowed_ids": h.scope.allowed_ids,
                                   "scholar": h.scholar.model_dump(), "auditor": h.auditor.model_dump() if h.auditor else None,
                                   "attempt": attempt}, handoff_id=h.handoff_id)
    allowed = set(h.scope.allowed_ids)

    def done(decision: str, reason: str | None) -> Decision:
        d = Decision(decision, reason, h.handoff_id, h.auditor.model_dump() if h.auditor else None, attempt, tr.trace_id)
        tracing.append(trace_path, tr.record(decision, reason))
        return d

    outside = [c for c in h.scholar.citations if c not in allowed]
    if not tr.check("scholar_citation_scope", not outside, outside=outside):
        return done(REJECT, f"citation_scope: scholar cites {', '.join(outside)} outside the allowed ids")
    if h.auditor is None:
        tr.check("auditor_present", False)
        return done(REJECT, "no auditor verdict")
    outside = [c for c in h.auditor.citations if c not in allowed]
    if not tr.check("auditor_citation_scope", not outside, outside=outside):
        return done(REJECT, f"citation_scope: auditor cites {', '.join(outside)} outside the allowed ids")
    v = h.auditor.verdict
    tr.check("auditor_verdict", v == VALID, verdict=v, reason=h.auditor.reason)
    if v == VALID:
        return done(ACCEPT, h.auditor.reason)
    if v == NOT_IN_CONTEXT:
        if attempt < max_retries:
            return done(RETRY, h.auditor.reason or "the evidence does not cover the claim")
        return done(REJECT, f"not in context after {attempt + 1} attempts: {h.auditor.reason or ''}".strip(": "))
    return done(REJECT, f"auditor: {v}" + (f": {h.auditor.reason}" if h.auditor.reason else ""))


# ---- the local auditor ----------------------------------------------------------------------
def chunks_of(text: str, max_words: int = 80) -> list[str]:
    """Windows of whole sentences of at most ``max_words`` words: the NLI model reads 128 tokens."""
    out, cur = [], []
    for s in sentences(text) or [text]:
        w = s.split()
        if cur and len(cur) + len(w) > max_words:
            out.append(" ".join(cur))
            cur = []
        cur += w[:max_words * 2]
    if cur:
        out.append(" ".join(cur))
    return out


_STOP = set("the a an and or of to in on at by for with from as is are was were be been being it its this that these "
            "those there their they them he she his her we our you your i not no can may must should will would "
            "which who what when where how than then also only more most less any all each some such into over "
            "about after before between under very have has had do does did".split())


def _content_words(text: str) -> set[str]:
    """Lower-case words of three letters or more, stop words out, a plural s off: a contradiction
    needs a shared topic (the NLI model calls unrelated sentences contradictory)."""
    words = re.findall(r"[a-z0-9][a-z0-9_.-]{2,}", text.lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words if w not in _STOP}


def _fitted(path: Path) -> dict:
    """The auditor's fitted thresholds file, or a one-line error: a damaged one ended an audit in
    "JSONDecodeError: …" (exit 1), and guessing the defaults instead would audit at thresholds nobody
    chose for this model."""
    try:
        fitted = json.loads(path.read_text())
        th = fitted.get("thresholds") if isinstance(fitted, dict) else None
        if th is not None and not (isinstance(th, dict) and all(isinstance(th.get(k), (int, float)) and 0 <= th[k] <= 1
                                                                  for k in DEFAULT_THRESHOLDS)):
            raise ValueError("thresholds must be entail and contradict in [0, 1]")
    except (OSError, ValueError, AttributeError) as exc:
        raise ValueError(f"{path} is damaged ({str(exc)[:120]}): fit it again (guard bench answer --fit) "
                         "or remove it for the default thresholds") from None
    return fitted


class LocalAuditor:
    """``audit(claim, citations, evidence) -> auditor dict`` with the NLI model and fitted thresholds."""

    def __init__(self, scorer=None, thresholds: dict | None = None, model: str | None = None):
        from guard.nli.scorer import NLIScorer, default_model_path
        self.scorer = scorer or NLIScorer.from_pretrained(model)
        path = Path(getattr(self.scorer, "path", None) or model or default_model_path()) / AUDITOR_FILE
        fitted = _fitted(path) if thresholds is None and path.exists() else {}
        self.thresholds = thresholds or fitted.get("thresholds") or dict(DEFAULT_THRESHOLDS)
        self.fitted_on = fitted.get("fitted_on") if thresholds is None else "given"

    def scores(self, claim: str, citations: list[str], evidence: dict[str, str]) -> list[dict]:
        """Per claim sentence: the best entailing and the most contradicting (citation, chunk)."""
        sents = sentences(claim) or [claim]
        cands = [(cid, ch) for cid in dict.fromkeys(citations) if cid in evidence for ch in chunks_of(evidence[cid])]
        pairs = [(ch, s) for s in sents for _, ch in cands]
        probs = self.scorer.predict(pairs) if pairs else []
        out = []
        for i, s in enumerate(sents):
            row = probs[i * len(cands):(i + 1) * len(cands)]
            best_e = max(range(len(row)), key=lambda k: row[k]["entailment"], default=None)
            best_c = max(range(len(row)), key=lambda k: row[k]["contradiction"], default=None)
            topical = best_c is not None and bool(_content_words(s) & _content_words(cands[best_c][1]))
            out.append({"sentence": s, "topical": topical,
                        "entailment": row[best_e]["entailment"] if best_e is not None else 0.0,
                        "support": cands[best_e][0] if best_e is not None else None,
                        "contradiction": row[best_c]["contradiction"] if best_c is not None else 0.0,
                        "contradicted_by": cands[best_c][0] if best_c is not None else None,
                        "per_citation": {cid: max((r["entailment"] for (c, _), r in zip(cands, row) if c == cid), default=0.0)
                                         for cid in dict.fromkeys(c for c, _ in cands)}})
        return out

    def verdict_of(self, scored: list[dict]) -> tuple[str, str]:
        """Per sentence, the best-supporting chunk decides: supported if it entails; otherwise
        contradicted if a chunk on the same topic contradicts it; otherwise not in context."""
        te, tc = self.thresholds["entail"], self.thresholds["contradict"]
        unsupported = [s for s in scored if s["entailment"] < te]
        for s in unsupported:
            if s["contradiction"] >= tc and s.get("topical", True):
                return INVALID, f"{s['contradicted_by']} contradicts: {s['sentence']}"
        if unsupported:
            return NOT_IN_CONTEXT, f"no cited evidence supports: {unsupported[0]['sentence']}"
        return VALID, "every sentence is supported by its cited evidence"

    def audit(self, claim: str, citations: list[str], evidence: dict[str, str]) -> dict:
        missing = [c for c in citations if c not in evidence]
        scored = self.scores(claim, citations, evidence)
        verdict, reason = self.verdict_of(scored) if citations and not missing else (
            NOT_IN_CONTEXT, "the claim cites nothing" if not citations else f"no evidence text for {', '.join(missing)}")
        te = self.thresholds["entail"]
        supporting = sorted({s["support"] for s in scored if s["support"] and s["entailment"] >= te})
        idle = [c for c in dict.fromkeys(citations) if c in evidence
                and all(s["per_citation"].get(c, 0.0) < te for s in scored)]
        return {"verdict": verdict, "reason": reason, "citations": supporting, "corrected_claim": None,
                "unsupportive_citations": idle,
                "sentences": [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in s.items() if k != "per_citation"}
                              for s in scored]}


_CREATIVE_NONFACT = re.compile(r"^(?:hi|hello|hey|dear|thanks|thank you|best|regards|cheers|kind regards|sincerely|"
                               r"please|could you|can you|would you|let me know|i(?:'d| would) like|we(?:'d| would) like|"
                               r"i am writing|i'm writing|we are writing)\b", re.I)


def factual_sentences(text: str) -> list[str]:
    """Sentences that state something: not questions, requests, greetings or sign-offs."""
    out = []
    for s in sentences(text):
        st = s.strip()
        if st.endswith("?") or _CREATIVE_NONFACT.match(st) or len(st.split()) < 3:
            continue
        out.append(st)
    return out
