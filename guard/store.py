"""ClaimStore: one SQLite file (WAL) of claims, their norms, an event log and recorded exceptions.

Every write is one transaction taken with BEGIN IMMEDIATE, and the guard runs inside it, so two
writers cannot both pass the check and then store claims that contradict each other. Nothing is
deleted: cancel and supersede change a status and leave an event row.
"""
from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from guard.candidates import CandidateIndex
from guard.claims import Claim, ClaimError, Norm, Scope, Status, Window, validate_text
from guard.judge import Decision, Tier
from guard.pipeline import Guard

DEFAULT_PATH = os.environ.get("GUARD_STORE", "claims.sqlite")

SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    id TEXT PRIMARY KEY, text TEXT NOT NULL, env TEXT, team TEXT, tenant TEXT,
    valid_from TEXT, valid_until TEXT, status TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'claim',
    source TEXT, created_at TEXT NOT NULL, supersedes TEXT, reason TEXT, norm TEXT
);
CREATE INDEX IF NOT EXISTS claims_status ON claims(status);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    action TEXT NOT NULL, claim_id TEXT, detail TEXT
);
CREATE INDEX IF NOT EXISTS events_claim ON events(claim_id);
CREATE TABLE IF NOT EXISTS exceptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, claim_id TEXT NOT NULL, reason TEXT NOT NULL,
    conflicts TEXT NOT NULL, at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
"""


class UnknownClaim(ClaimError):
    pass


@dataclass
class WriteResult:
    stored: bool
    decision: Decision
    claim: Claim | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"stored": self.stored, "claim": self.claim.to_dict() if self.claim else None,
                **self.decision.to_dict()}


class ClaimStore:
    def __init__(self, path: str | Path = DEFAULT_PATH, guard: Guard | None = None, neighbours: int = 8):
        self.path = Path(path)
        self._guard = guard
        self.neighbours = neighbours
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ClaimError(f"{self.path} is not a claim store ({exc})") from None
        self._index: CandidateIndex | None = None
        self._norms: dict[str, Norm] = {}
        self._claims: dict[str, Claim] = {}

    @property
    def guard(self) -> Guard:
        """Built on first need, so reading a store never loads a model."""
        if self._guard is None:
            self._guard = Guard()
        return self._guard

    def close(self) -> None:
        self.db.close()

    # ---- reading ------------------------------------------------------------------------
    @staticmethod
    def _row_claim(r: sqlite3.Row) -> Claim:
        return Claim(text=r["text"], scope=Scope(r["env"], r["team"], r["tenant"]),
                     window=Window.parse(r["valid_from"], r["valid_until"]), id=r["id"],
                     status=Status(r["status"]), source=r["source"], created_at=r["created_at"],
                     supersedes=r["supersedes"], reason=r["reason"])

    def get(self, claim_id: str) -> Claim:
        r = self.db.execute("SELECT * FROM claims WHERE id=?", (claim_id,)).fetchone()
        if r is None:
            raise UnknownClaim(f"unknown claim id: {claim_id}")
        return self._row_claim(r)

    def list(self, status: str | None = "active") -> list[Claim]:
        q, args = "SELECT * FROM claims", ()
        if status:
            q, args = q + " WHERE status=?", (status,)
        return [self._row_claim(r) for r in self.db.execute(q + " ORDER BY created_at, rowid", args)]

    def history(self, claim_id: str) -> dict:
        claim = self.get(claim_id)
        chain = [claim]
        while chain[-1].supersedes:
            chain.append(self.get(chain[-1].supersedes))
        later = self.db.execute("SELECT id FROM claims WHERE supersedes=?", (claim_id,)).fetchall()
        ids = [c.id for c in chain] + [r["id"] for r in later]
        marks = ",".join("?" * len(ids))
        events = [dict(r) | {"detail": json.loads(r["detail"]) if r["detail"] else None} for r in
                  self.db.execute(f"SELECT * FROM events WHERE claim_id IN ({marks}) ORDER BY seq", ids)]
        exceptions = [dict(r) | {"conflicts": json.loads(r["conflicts"])} for r in
                      self.db.execute(f"SELECT * FROM exceptions WHERE claim_id IN ({marks})", ids)]
        return {"claim": claim.to_dict(), "supersedes_chain": [c.to_dict() for c in chain[1:]],
                "superseded_by": [r["id"] for r in later], "events": events, "exceptions": exceptions}

    def events(self) -> list[dict]:
        return [dict(r) for r in self.db.execute("SELECT * FROM events ORDER BY seq")]

    # ---- the active set and its candidate index -------------------------------------------
    def _load_active(self) -> None:
        if self._index is not None:
            return
        rows = self.db.execute("SELECT * FROM claims WHERE status='active'").fetchall()
        claims = [self._row_claim(r) for r in rows]
        norms: list[Norm | None] = []
        stale = []
        for r, c in zip(rows, claims):
            n = Norm.from_dict(json.loads(r["norm"])) if r["norm"] else None
            if n is None or n.normalizer != self.guard.normalizer.name:
                stale.append(len(norms))
            norms.append(n)
        if stale:
            fresh = self.guard.normalize_claims([claims[i] for i in stale])
            for i, n in zip(stale, fresh):
                norms[i] = n
        self._index = CandidateIndex()
        for c, n in zip(claims, norms):
            self._claims[c.id] = c
            self._norms[c.id] = n
            self._index.add(c.id, n, self._vector(c) if self._use_neighbours else None)

    @property
    def _use_neighbours(self) -> bool:
        return self.neighbours > 0 and self.guard.nli_gate is not None and self.guard.nli_gate.embedder is not None

    def _vector(self, claim: Claim):
        return self.guard.nli_gate.embedder.encode([claim.text])[0]

    def candidates(self, norm: Norm, claim: Claim, exclude: str | None = None) -> list[tuple[Claim, Norm]]:
        self._load_active()
        ids = self._index.blocked(norm, exclude)
        if self._use_neighbours:
            ids |= set(self._index.neighbours(self._vector(claim), self.neighbours)) - {exclude}
        return [(self._claims[i], self._norms[i]) for i in sorted(ids)]

    # ---- writes -------------------------------------------------------------------------
    @contextmanager
    def _tx(self):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            self._index = None        # the in-memory view may be ahead of the rolled-back file
            self._claims.clear()
            self._norms.clear()
            raise

    def _event(self, action: str, claim_id: str | None, detail: dict | None = None) -> None:
        self.db.execute("INSERT INTO events(action, claim_id, detail) VALUES (?,?,?)",
                        (action, claim_id, json.dumps(detail) if detail else None))

    def _insert(self, claim: Claim, norm: Norm | None, kind: str = "claim") -> None:
        s, w = claim.scope, claim.window
        self.db.execute(
            "INSERT INTO claims(id,text,env,team,tenant,valid_from,valid_until,status,kind,source,created_at,"
            "supersedes,reason,norm) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (claim.id, claim.text, s.env, s.team, s.tenant, *w.to_dict().values(), claim.status.value, kind,
             claim.source, claim.created_at, claim.supersedes, claim.reason,
             json.dumps(norm.to_dict()) if norm else None))

    def _index_add(self, claim: Claim, norm: Norm) -> None:
        if self._index is not None:
            self._claims[claim.id], self._norms[claim.id] = claim, norm
            self._index.add(claim.id, norm, self._vector(claim) if self._use_neighbours else None)

    def _index_remove(self, claim_id: str) -> None:
        if self._index is not None:
            self._index.remove(claim_id)
            self._claims.pop(claim_id, None)
            self._norms.pop(claim_id, None)

    def _new_claim(self, text, scope, window, **kw) -> Claim:
        return Claim(text=validate_text(text), scope=_scope(scope), window=_window(window), **kw)

    def _guarded(self, claim: Claim, action: str, exclude: str | None = None,
                 force_reason: str | None = None, before_insert=None) -> WriteResult:
        with self._tx():
            norm = self.guard.normalize(claim.text, claim.scope, claim.window)
            decision = self.guard.check(claim, self.candidates(norm, claim, exclude), norm)
            if decision.tier is Tier.BLOCK and force_reason is None:
                return WriteResult(False, decision, None)
            if before_insert:
                before_insert()
            self._insert(claim, norm)
            detail = {"tier": decision.tier.value, "reasons": decision.reasons}
            if claim.source:
                detail["source"] = claim.source
            if claim.reason:
                detail["reason"] = claim.reason
            self._event(action, claim.id, detail)
            if force_reason is not None and decision.conflicts:
                conflicts = [j.to_dict() for j in decision.conflicts]
                self.db.execute("INSERT INTO exceptions(claim_id, reason, conflicts) VALUES (?,?,?)",
                                (claim.id, force_reason, json.dumps(conflicts)))
                self._event("exception", claim.id, {"reason": force_reason,
                                                    "overrides": [j.claim_id for j in decision.conflicts]})
        self._index_add(claim, norm)
        return WriteResult(True, decision, claim)

    def check(self, text: str, scope: dict | Scope | None = None, window: dict | Window | None = None) -> Decision:
        claim = self._new_claim(text, scope, window)
        norm = self.guard.normalize(claim.text, claim.scope, claim.window)
        return self.guard.check(claim, self.candidates(norm, claim), norm)

    def remember(self, text: str, scope=None, window=None, source: str | None = None) -> WriteResult:
        return self._guarded(self._new_claim(text, scope, window, source=source), "remember")

    def learn(self, text: str, source: str, scope=None, window=None) -> WriteResult:
        if not source or not str(source).strip():
            raise ClaimError("learn needs the source the claim was learnt from")
        return self._guarded(self._new_claim(text, scope, window, source=str(source).strip()), "learn")

    def force(self, text: str, reason: str, scope=None, window=None, source: str | None = None) -> WriteResult:
        if not reason or not reason.strip():
            raise ClaimError("force needs a reason; it is recorded with the exception")
        claim = self._new_claim(text, scope, window, source=source, reason=reason.strip())
        return self._guarded(claim, "force", force_reason=reason.strip())

    def supersede(self, old_id: str, text: str, reason: str, scope=None, window=None) -> WriteResult:
        if not reason or not reason.strip():
            raise ClaimError("supersede needs a reason")
        old = self.get(old_id)
        if old.status is not Status.ACTIVE:
            raise ClaimError(f"claim {old_id} is {old.status.value}, only active claims can be superseded")
        claim = self._new_claim(text, scope if scope is not None else old.scope,
                                window if window is not None else old.window,
                                supersedes=old_id, reason=reason.strip())

        def retire():
            self.db.execute("UPDATE claims SET status='superseded' WHERE id=?", (old_id,))
            self._event("superseded", old_id, {"by": claim.id, "reason": reason.strip()})

        res = self._guarded(claim, "supersede", exclude=old_id, before_insert=retire)
        if res.stored:
            self._index_remove(old_id)
        return res

    def cancel(self, claim_id: str, reason: str | None = None) -> Claim:
        claim = self.get(claim_id)
        if claim.status is not Status.ACTIVE:
            raise ClaimError(f"claim {claim_id} is already {claim.status.value}")
        with self._tx():
            self.db.execute("UPDATE claims SET status='cancelled', reason=COALESCE(?, reason) WHERE id=?",
                            (reason, claim_id))
            self._event("cancel", claim_id, {"reason": reason} if reason else None)
        self._index_remove(claim_id)
        return self.get(claim_id)

    def ingest(self, claims: list[Claim]) -> int:
        """Upsert reference facts without the guard (they are the ground truth others are checked
        against). All in one transaction: a failure stores none of them."""
        norms = self.guard.normalize_claims(claims)
        with self._tx():
            for c, n in zip(claims, norms):
                prev = self.db.execute("SELECT id FROM claims WHERE id=?", (c.id,)).fetchone()
                if prev:
                    s, w = c.scope, c.window
                    self.db.execute(
                        "UPDATE claims SET text=?, env=?, team=?, tenant=?, valid_from=?, valid_until=?, "
                        "status='active', source=?, norm=? WHERE id=?",
                        (c.text, s.env, s.team, s.tenant, *w.to_dict().values(), c.source,
                         json.dumps(n.to_dict()), c.id))
                    self._event("ingest-update", c.id, {"source": c.source} if c.source else None)
                else:
                    self._insert(c, n, kind="reference")
                    self._event("ingest", c.id, {"source": c.source} if c.source else None)
        self._index = None   # rebuilt on next use
        self._claims.clear()
        self._norms.clear()
        return len(claims)

    def stats(self) -> dict:
        rows = self.db.execute("SELECT status, COUNT(*) n FROM claims GROUP BY status").fetchall()
        return {r["status"]: r["n"] for r in rows}


def _scope(scope) -> Scope:
    return scope if isinstance(scope, Scope) else Scope.from_dict(scope)


def _window(window) -> Window:
    if isinstance(window, Window):
        return window
    if window is None:
        return Window()
    if isinstance(window, dict):
        extra = set(window) - {"valid_from", "valid_until"}
        if extra:
            raise ClaimError(f"unknown window key(s): {', '.join(sorted(extra))}")
        return Window.parse(window.get("valid_from"), window.get("valid_until"))
    raise ClaimError("window must be an object with valid_from/valid_until")
