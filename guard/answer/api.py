"""The answer gates behind one request shape, shared by the CLI and the HTTP service so both
answer the same JSON for the same input.

Each handler takes the request body (a dict), returns the answer (a dict with at least
``verdict`` and ``reason``) and raises ``ValueError`` with a one-line message for bad input.
Exit codes for the CLI: 0 OK / ACCEPT / REFUSAL, 3 REJECT, 4 RETRY (2 is bad input).
"""
from __future__ import annotations

import threading

from guard.answer import trace as tracing

EXIT = {"OK": 0, "ACCEPT": 0, "REFUSAL": 0, "REJECT": 3, "RETRY": 4}


def _strings(body: dict, key: str, required: bool = True) -> list[str]:
    v = body.get(key)
    if v is None and not required:
        return []
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{key} must be a list of strings")
    return v


class AnswerGates:
    """Holds the engine and the auditor, loaded on first use and shared by every request."""

    def __init__(self, guard=None, trace_path=None, nli_model: str | None = None, nli_backend: str = "auto"):
        self._guard = guard
        self.trace_path = trace_path
        # the auditor's model and backend where no engine is given (None: the shipped model)
        self.nli_model, self.nli_backend = nli_model, nli_backend
        self._gate = None
        self._auditor = None
        self._lock = threading.Lock()

    def constraint_gate(self):
        from guard.answer.constraints import ConstraintGate
        with self._lock:
            if self._gate is None:
                self._gate = ConstraintGate(guard=self._guard)
            return self._gate

    def auditor(self):
        from guard.answer.handoff import LocalAuditor
        with self._lock:
            if self._auditor is None:
                g = self._guard.nli_gate if self._guard is not None else None
                scorer = getattr(g, "scorer", None)
                if scorer is None and self.nli_backend != "auto":
                    from guard.nli.scorer import NLIScorer
                    scorer = NLIScorer.from_pretrained(self.nli_model, backend=self.nli_backend)
                self._auditor = LocalAuditor(scorer=scorer, model=self.nli_model)
            return self._auditor

    # ---- handlers -----------------------------------------------------------------------------
    def lock(self, body) -> dict:
        from guard.answer.constraints import lock
        constraints = body if isinstance(body, list) else _strings(body if isinstance(body, dict) else {}, "constraints")
        return {"verdict": "OK", "reason": None, **lock(constraints)}

    def check(self, body: dict) -> dict:
        from guard.answer.constraints import lock, verify_lock
        if not isinstance(body, dict):
            raise ValueError('expected {"constraints": [...], "retrieved_ids": [...], "output": "..."}')
        locked = body.get("lock")
        if locked is not None:
            verify_lock(locked)
        else:
            locked = lock(_strings(body, "constraints"))
        if "output" not in body:
            raise ValueError("output is missing (the model's raw text or its JSON object)")
        v = self.constraint_gate().check(body["output"], locked, _strings(body, "retrieved_ids"), self.trace_path)
        return {**v.to_dict(), "lock_hash": locked["hash"]}

    def split(self, body: dict) -> dict:
        from guard.answer.intents import plan
        if not isinstance(body, dict) or not isinstance(body.get("request"), str):
            raise ValueError('expected {"request": "..."}')
        retrieved = body.get("retrieved") or {}
        if not isinstance(retrieved, dict):
            raise ValueError("retrieved must map a step's query to its list of ids")
        steps = plan(body["request"], (lambda q: retrieved.get(q, [])) if retrieved else None)
        tr = tracing.Trace("split", {"request": body["request"]})
        tr.check("split", True, steps=len(steps))
        out = {"verdict": "OK", "reason": None, "steps": [s.to_dict() for s in steps], "trace_id": tr.trace_id}
        tracing.append(self.trace_path, tr.record("OK", None, steps=out["steps"]))
        return out

    def audit(self, body: dict) -> dict:
        from guard.answer.handoff import enforce, parse
        if not isinstance(body, dict):
            raise ValueError("expected a handoff object")
        evidence = body.get("evidence") or {}
        if not isinstance(evidence, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in evidence.items()):
            raise ValueError("evidence must map ids to their text")
        data = {k: v for k, v in body.items() if k not in ("evidence", "attempt", "max_retries")}
        h = parse(data)
        local = None
        if h.auditor is None:
            if not evidence:
                raise ValueError("no auditor verdict and no evidence to audit locally (give \"evidence\": {id: text})")
            allowed = {k: v for k, v in evidence.items() if k in set(h.scope.allowed_ids)}
            local = self.auditor().audit(h.scholar.claim, h.scholar.citations, allowed)
            h = parse({**data, "auditor": {k: local[k] for k in ("verdict", "reason", "citations", "corrected_claim")}})
        attempt, retries = body.get("attempt", 0), body.get("max_retries", 2)
        if not isinstance(attempt, int) or not isinstance(retries, int) or attempt < 0 or retries < 0:
            raise ValueError("attempt and max_retries must be non-negative integers")
        d = enforce(h, attempt=attempt, max_retries=retries, trace_path=self.trace_path).to_dict()
        if local is not None:
            d["local_audit"] = local
        return d
