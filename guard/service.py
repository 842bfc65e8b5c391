"""GuardService: guarded writes on top of a ClaimStore.

Why a module apart from the store: the check must run against the store's *committed* state,
whatever other threads or processes wrote, and models must never load while the write lock is
held. So a write here (1) loads models and normalizes outside any lock, (2) runs the check once
outside the lock, which warms the NLI and embedding caches, then (3) takes SQLite's write lock
(BEGIN IMMEDIATE), brings its in-memory view of the active claims up to date from the event log
(the change counter other processes advance), and re-checks inside the lock, where the scores
are cache hits. A blocked write stores nothing; a stored write is one transaction.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from guard.candidates import NEIGHBOURS, CandidateIndex
from guard.claims import Claim, ClaimError, Norm, Scope, Status, Window, comparison_text, in_force, validate_text
from guard.judge import Decision, Tier
from guard.nli.model_text import model_text
from guard.pipeline import Guard
from guard.store import MAX_CHAIN, ClaimStore, UnknownClaim, shown_id

__all__ = ["GuardService", "WriteResult", "UnknownClaim"]


@dataclass
class WriteResult:
    stored: bool
    decision: Decision
    claim: Claim | None = None
    notes: list[str] = field(default_factory=list)
    duplicate_of: str | None = None     # the same statement was already active: nothing new stored, ``claim`` is it

    def to_dict(self) -> dict:
        out = {"stored": self.stored, "claim": self.claim.to_dict() if self.claim else None,
               **self.decision.to_dict()}
        if self.duplicate_of:
            out["duplicate_of"] = self.duplicate_of
        return out


POOL_MIN = 2000      # an ingest this big normalises in worker processes (their start costs ~2 s)


class GuardService:
    def __init__(self, store: ClaimStore | str | Path, guard: Guard | Callable[[], Guard] | None = None,
                 neighbours: int = NEIGHBOURS):
        """``guard`` may be a function that builds one: called on the first need, so a command that
        never judges (a cancel, a refused write) loads no model."""
        self.store = store if isinstance(store, ClaimStore) else ClaimStore(store)
        if guard is None or isinstance(guard, Guard):
            self._guard, self._make_guard = guard, Guard
        else:
            self._guard, self._make_guard = None, guard
        self.neighbours = neighbours
        self._view = threading.RLock()      # the in-memory view and in-process writers
        self._index: CandidateIndex | None = None
        self._claims: dict[str, Claim] = {}
        self._norms: dict[str, Norm] = {}
        self._same: dict[tuple, dict[str, None]] = {}     # _same_key → active claim ids, oldest first
        self._seq = 0

    # ---- models ---------------------------------------------------------------------------
    @property
    def guard(self) -> Guard:
        """Built on first need, so reading a store never loads a model."""
        if self._guard is None:
            self._guard = self._make_guard()
        if getattr(self._guard.score_cache, "store", None) is not self.store:     # this store's, not another's
            from guard.nli.score_cache import StoreScoreCache
            self._guard.use_score_cache(StoreScoreCache(self.store))
        return self._guard

    def warm(self) -> "GuardService":
        """Load every model a write needs (spaCy, cross-encoder, bi-encoder) now, not under a lock."""
        _ = self.guard.nli_gate
        return self

    @property
    def path(self) -> Path:
        return self.store.path

    def close(self) -> None:
        self.store.close()

    # ---- the view of the active claims -----------------------------------------------------
    @property
    def _use_neighbours(self) -> bool:
        gate = self.guard.nli_gate
        return self.neighbours > 0 and gate is not None and getattr(gate, "embedder", None) is not None

    def _vector(self, claim: Claim, norm: Norm | None = None):
        """The claim's vector; its text as the models read it (``nli.model_text``) and its subject are encoded in the
        same call, so the gate's similarities later find them cached (one model call per write, not three)."""
        extra = [model_text(comparison_text(claim.text))] + ([norm.subject] if norm is not None and norm.subject else [])
        return self.guard.nli_gate.embedder.encode([claim.text, *extra])[0]

    def _vectors(self, claims: list[Claim]) -> list:
        """Vectors for many claims at once, from the store's embedding cache where it has them
        (opening a store re-embeds nothing; ``guard.stored``)."""
        if not claims or not self._use_neighbours:
            return [None] * len(claims)
        from guard.stored import stored_vectors
        return stored_vectors(self.store, claims, self.guard.nli_gate.embedder)

    def _norm_rows(self, rows) -> list[tuple[Claim, Norm]]:
        from guard.stored import stored_norms
        return stored_norms(self.store, rows, self.guard)

    def _add_all(self, pairs: list[tuple[Claim, Norm]]) -> None:
        gate = self.guard.nli_gate if pairs else None
        if gate is not None and getattr(gate, "embedder", None) is not None:
            from guard.stored import prime_subjects          # the gate's subject similarities read these
            prime_subjects(self.store, pairs, gate.embedder)
        for (claim, norm), vec in zip(pairs, self._vectors([c for c, _ in pairs])):
            self._claims[claim.id], self._norms[claim.id] = claim, norm
            self._same.setdefault(_same_key(claim), {})[claim.id] = None
            self._index.add(claim.id, norm, vec)

    def _remove(self, claim_id: str) -> None:
        self._index.remove(claim_id)
        claim = self._claims.pop(claim_id, None)
        self._norms.pop(claim_id, None)
        if claim is not None:
            ids = self._same.get(_same_key(claim), {})
            ids.pop(claim_id, None)
            if not ids:
                self._same.pop(_same_key(claim), None)

    def _duplicate(self, claim: Claim, same_reason: bool = False) -> Claim | None:
        """An active claim that says the same as ``claim``: the same words (as the guard reads
        them), scope, window and source — and with ``same_reason`` (a force) the same reason. Why: an agent
        that retries a write after a timeout, or a script run twice, stored the statement once per
        try — the store filled with copies, each a candidate of every later write and a pair in
        every scan (a retried force also recorded its exceptions again)."""
        with self._view:
            self.refresh()
            # the first stored (the view adds claims in the store's order)
            first = next((i for i in self._same.get(_same_key(claim), {})
                          if not same_reason or self._claims[i].reason == claim.reason), None)
            return self._claims[first] if first is not None else None

    def refresh(self) -> None:
        """Bring the view up to the committed state: a full load the first time, then only the
        claims some event touched since the last refresh (any process's writes)."""
        with self._view:
            if self._index is None:
                seq = self.store.last_seq()           # read before the rows: a change in between is re-applied
                self._index, self._claims, self._norms, self._same = CandidateIndex(), {}, {}, {}
                self._add_all(self._norm_rows(self.store.active_rows()))
                self._seq = seq
                return
            seq, ids = self.store.changes_since(self._seq)
            rows = [r for r in (self.store.row(i) for i in ids) if r is not None]
            for i in ids:
                if i in self._claims:
                    self._remove(i)
            self._add_all(self._norm_rows([r for r in rows if r["status"] == Status.ACTIVE.value]))
            self._seq = seq

    def candidates(self, norm: Norm, claim: Claim, exclude: str | None = None) -> list[tuple[Claim, Norm]]:
        with self._view:
            self.refresh()
            ids = self._index.blocked(norm, exclude)
            if self._use_neighbours:
                ids |= set(self._index.neighbours(self._vector(claim, norm), self.neighbours)) - {exclude}
            # each over the window it holds in the store: one whose window has ended is no conflict now
            return [(self._claims[i], in_force(self._claims[i], self._norms[i])) for i in sorted(ids)]

    # ---- reads (delegated) -------------------------------------------------------------------
    def get(self, claim_id: str) -> Claim:
        return self.store.get(claim_id)

    def list(self, status: str | None = "active", limit: int | None = None, offset: int = 0) -> list[Claim]:
        return self.store.list(status, limit, offset)

    def history(self, claim_id: str) -> dict:
        return self.store.history(claim_id)

    def events(self) -> list[dict]:
        return self.store.events()

    def stats(self) -> dict:
        return self.store.stats()

    # ---- guarded writes ----------------------------------------------------------------------
    def _new_claim(self, text, scope, window, **kw) -> Claim:
        return Claim.from_dict({"text": validate_text(text), "scope": _scope(scope).to_dict(),
                                **_window(window).to_dict(), **{k: v for k, v in kw.items() if v is not None}})

    def check(self, text: str, scope: dict | Scope | None = None, window: dict | Window | None = None) -> Decision:
        return self._check_claims([self._new_claim(text, scope, window)])[0]

    def check_many(self, statements: list[tuple[str, dict | Scope | None, dict | Window | None]]) -> list[Decision]:
        """Dry runs of many statements (text, scope, window) against the store as it is, one decision
        each, in order — what ``check`` gives for each alone. Why not ``check`` in a loop: a CI job's
        file or an agent's batch of a few hundred statements paid the models' fixed cost per statement
        (a few pairs a call); here the statements are normalised in one batch and their pairs scored
        together. A bad statement refuses the whole batch before any model runs, named by its place
        (``statements[3]: text is empty``, as the HTTP body names it)."""
        return self._check_claims(_each_named(statements, self._new_claim))

    def _check_claims(self, claims: list[Claim]) -> list[Decision]:
        norms = self.guard.normalize_claims(claims)
        with self._view:
            candidates = [self.candidates(n, c) for c, n in zip(claims, norms)]
        decisions = self.guard.check_many([(c, in_force(c, n), cands)
                                           for c, n, cands in zip(claims, norms, candidates)])
        for claim, decision in zip(claims, decisions):
            dup = self._duplicate(claim)
            if dup is not None:       # what a write would do: store nothing new
                decision.notes.append(f"already stored as {dup.id}: a write would store nothing new")
        return decisions

    def _guarded(self, claim: Claim, action: str, exclude: str | None = None,
                 force_reason: str | None = None, before_insert=None) -> WriteResult:
        self.store.check_writable()          # before the models: a read-only store refuses at once
        self.warm()
        # a repeat stores nothing new; a forced one only when it repeats the force itself (same reason)
        idempotent = action in ("remember", "learn", "force")
        if idempotent and (dup := self._duplicate(claim, same_reason=action == "force")) is not None:
            return _already(dup)
        norm = self.guard.normalize(claim.text, claim.scope, claim.window)
        with self._view:
            candidates, seen = self.candidates(norm, claim, exclude), self._seq
        held = in_force(claim, norm)          # what it is compared as; the norm stored is its own
        first = self.guard.check(claim, candidates, held)        # outside the locks: the models run here
        with self._view, self.store.transaction():
            self.refresh()
            if idempotent and (dup := self._duplicate(claim, action == "force")) is not None:    # another writer's, meanwhile
                return _already(dup)
            # under the write lock: the decision stands if no write committed since it was made (the
            # view, and so the candidates and their scores, are the same); else it is made again
            decision = first if self._seq == seen else self.guard.check(claim, self.candidates(norm, claim, exclude), held)
            if decision.tier is Tier.BLOCK and force_reason is None:
                return WriteResult(False, decision, None)
            if before_insert:
                before_insert()
            self.store.insert(claim, norm, build=self.guard.normalizer.build)
            detail = {"tier": decision.tier.value, "reasons": decision.reasons}
            if claim.source:
                detail["source"] = claim.source
            if claim.reason:
                detail["reason"] = claim.reason
            self.store.event(action, claim.id, detail)
            if force_reason is not None and decision.conflicts:
                self.store.exception(claim.id, force_reason, [j.to_dict() for j in decision.conflicts])
                self.store.event("exception", claim.id, {"reason": force_reason,
                                                        "overrides": [j.claim_id for j in decision.conflicts]})
        return WriteResult(True, decision, claim)

    def remember(self, text: str, scope=None, window=None, source: str | None = None) -> WriteResult:
        return self._guarded(self._new_claim(text, scope, window, source=source), "remember")

    def learn(self, text: str, source: str, scope=None, window=None) -> WriteResult:
        source = given(source, LEARN_NEEDS_SOURCE)
        return self._guarded(self._new_claim(text, scope, window, source=source), "learn")

    def remember_many(self, statements: list[tuple[str, dict | Scope | None, dict | Window | None, str | None]],
                      done: Callable[[int, WriteResult], None] | None = None) -> list[WriteResult]:
        """Statements (text, scope, window, source) written in turn, each as ``remember`` — ``learn`` where it
        names a source — would write it: guarded against the store and every earlier statement stored, a
        blocked one not stored and the rest going on. A bad statement (named by its place,
        ``statements[3]: …``) refuses them all before any is written. ``done(i, result)`` hears of each.
        Why not batched as ``check_many`` is: a statement's candidates include the earlier ones, which
        exist only once they are stored."""
        def claim(text, scope, window, source) -> Claim:
            return self._new_claim(text, scope, window, source=None if source is None else given(source, LEARN_NEEDS_SOURCE))
        _each_named(statements, claim)      # all refused before any is written
        results = []
        for i, statement in enumerate(statements):
            c = claim(*statement)         # made as it is written: its created_at is when it was stored
            results.append(self._guarded(c, "learn" if c.source else "remember"))
            if done is not None:
                done(i, results[-1])
        return results

    def force(self, text: str, reason: str, scope=None, window=None, source: str | None = None) -> WriteResult:
        reason = given(reason, FORCE_NEEDS_REASON)
        claim = self._new_claim(text, scope, window, source=source, reason=reason)
        return self._guarded(claim, "force", force_reason=reason)

    def supersede(self, old_id: str, text: str, reason: str, scope=None, window=None) -> WriteResult:
        reason = given(reason, SUPERSEDE_NEEDS_REASON)
        old = self.store.get(old_id)
        claim = self._new_claim(text, scope if scope is not None else old.scope,
                                window if window is not None else old.window,
                                supersedes=old_id, reason=reason)
        if old.status is not Status.ACTIVE:
            if (done := self._successor_saying(claim)) is not None:
                return _already(done)
            raise ClaimError(f"claim {old_id} is {old.status.value}, only active claims can be superseded")

        def retire():     # inside the write transaction: the old claim may have changed meanwhile
            now = self.store.get(old_id)
            if now.status is not Status.ACTIVE:
                if (done := self._successor_saying(claim)) is not None:
                    raise _AlreadyDone(done)
                raise ClaimError(f"claim {old_id} is {now.status.value}, only active claims can be superseded")
            self.store.set_status(old_id, Status.SUPERSEDED)
            self.store.event("superseded", old_id, {"by": claim.id, "reason": reason})

        try:
            return self._guarded(claim, "supersede", exclude=old_id, before_insert=retire)
        except _AlreadyDone as done:            # another writer's identical supersede, meanwhile
            return _already(done.claim)

    def _successor_saying(self, claim: Claim) -> Claim | None:
        """The active claim that already superseded ``claim.supersedes`` with the same words, scope
        and window. Why: an agent retrying a supersede whose answer it never got (a timeout) was
        told the old claim "is superseded" — an error for a change that had gone through."""
        for r in self.store.db.execute("SELECT * FROM claims WHERE supersedes=? AND status='active'",
                                       (claim.supersedes,)):
            c = ClaimStore.row_claim(r)
            if _reading(c) == _reading(claim):
                return c
        return None

    def cancel(self, claim_id: str, reason: str | None = None) -> Claim:
        return self.cancel_once(claim_id, reason)[0]

    def cancel_once(self, claim_id: str, reason: str | None = None) -> tuple[Claim, bool]:
        """(the claim, whether this call cancelled it). Read from the row's status alone, so a row
        that no longer reads as a claim (edited by hand) can still be withdrawn — the way out its
        error message names. A claim already cancelled is answered as it is, nothing recorded: an
        agent retrying a cancel whose answer it never got (a timeout) was told "is already
        cancelled", an error for a change that had gone through. A superseded claim is refused:
        it was replaced, not withdrawn, and its successor is what to cancel."""
        with self._view, self.store.transaction():
            row = self.store.row(claim_id)
            if row is None:
                raise UnknownClaim(f"unknown claim id: {shown_id(claim_id)}")
            done = row["status"] == Status.CANCELLED.value
            if not done and row["status"] != Status.ACTIVE.value:
                now = self.store.in_place_of(claim_id)
                by = f"; {now} stands in its place: cancel that claim instead" if now else ""
                raise ClaimError(f"claim {claim_id} is {row['status']}{by}")
            if not done:
                self.store.set_status(claim_id, Status.CANCELLED, reason)
                self.store.event("cancel", claim_id, {"reason": reason} if reason else None)
        return self.store.row_claim_as_far_as_readable(self.store.row(claim_id)), not done

    def ingest(self, claims: list[Claim], progress=None, default_source: str | None = None) -> int:
        """Upsert reference facts without the guard (they are the ground truth others are checked
        against). All in one transaction: a refused row stores none of them. An update keeps the
        old version as a revision; a fact the file marks cancelled or superseded, or that another
        fact in it supersedes, is retired (the file's status was ignored for a stored fact, and a
        superseded one stayed active); a cancelled or superseded claim is never reactivated; a claim
        stored through the guard is never rewritten (supersede it); ``supersedes`` must name a
        known claim and form no cycle. A fact that names no source keeps the one it is stored with
        (``default_source`` — the CLI's file path — goes only to new facts): the same facts from a
        renamed or date-stamped export file were each "updated", a revision per fact per sync."""
        claims = _one_per_id(claims)
        self.store.check_writable()
        from guard.normalize.pool import default_processes   # normalised outside the lock; big batches in workers
        norms = self.guard.normalize_claims(claims, processes=default_processes(), min_pool=POOL_MIN,
                                            progress=progress)
        with self._view, self.store.transaction():
            batch = {c.id: c for c in claims}
            # a fact another one in the file supersedes is retired, as `guard supersede` retires
            # its claim: before session 34 both stayed active, and writes and scans were checked
            # against the outdated one too
            successor: dict[str, str] = {}
            for c in claims:
                if c.supersedes:
                    successor.setdefault(c.supersedes, c.id)

            def status_of(c: Claim) -> Status:
                return Status.SUPERSEDED if c.id in successor and c.status is Status.ACTIVE else c.status

            # every row the batch touches, read once (nothing is written before the last use)
            rows = {i: self.store.row(i) for i in {*batch, *successor}}
            problems = []
            for c in claims:
                r = rows[c.id]
                if r is None:
                    continue
                if r["kind"] != "reference":
                    problems.append(f"{c.id} was stored through the guard; supersede it instead of ingesting")
                elif r["status"] != Status.ACTIVE.value and status_of(c) is Status.ACTIVE:
                    problems.append(f"{c.id} is {r['status']}; ingest does not reactivate claims")
            for p in sorted(successor.keys() - batch.keys()):
                r = rows[p]
                if r is not None and r["status"] == Status.ACTIVE.value and r["kind"] != "reference":
                    problems.append(f"{p} was stored through the guard; ingest cannot retire it "
                                    f"(guard supersede {p} …)")
            problems += _supersession_problems(claims, batch, self.store)
            if problems:
                raise ClaimError("ingest refused, nothing stored: " + "; ".join(problems[:5]) +
                                 (f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""))
            retire = [(p, Status.SUPERSEDED, None) for p in sorted(successor.keys() - batch.keys())]
            for c, n in zip(claims, norms):
                r = rows[c.id]
                if c.source is None:
                    c = replace(c, source=r["source"] if r is not None else default_source)
                if r is None:
                    self.store.insert(replace(c, status=status_of(c)), n, kind="reference", build=self.guard.normalizer.build)
                    self.store.event("ingest", c.id, {"source": c.source} if c.source else None)
                    continue
                if _changed(r, c):
                    self.store.revise(c, n, build=self.guard.normalizer.build)
                    self.store.event("ingest-update", c.id, {"source": c.source} if c.source else None)
                if status_of(c) is not Status.ACTIVE:
                    retire.append((c.id, status_of(c), c.reason))
            for cid, status, reason in retire:            # only active ones change; a rerun changes nothing
                r = rows[cid]         # as read before this batch: revising a row leaves its status
                if r is None or r["status"] != Status.ACTIVE.value:
                    continue
                self.store.set_status(cid, status, reason)
                by = {"by": successor[cid]} if cid in successor else {}
                self.store.event("superseded" if status is Status.SUPERSEDED else "cancel", cid, {"via": "ingest", **by})
        if self._index is not None:
            # a service that guards writes (the HTTP server, whose view is loaded at start-up) takes the new
            # facts into its view now, embedding them: the ingest waits for it instead of the next write —
            # which took 24 s after ingesting 5,000 facts, past an agent's timeout. A command-line ingest
            # has no view and embeds nothing.
            self.refresh()
        return len(claims)


def _each_named(statements: list[tuple], make: Callable[..., Claim]) -> list[Claim]:
    """``make(*statement)`` for each of a batch; a bad one is refused named by its place, as the HTTP body
    names it (``statements[3]: text is empty``)."""
    claims = []
    for i, statement in enumerate(statements):
        try:
            claims.append(make(*statement))
        except ClaimError as exc:
            raise ClaimError(f"statements[{i}]: {exc}") from None
    return claims


class _AlreadyDone(Exception):
    def __init__(self, claim: Claim):
        super().__init__(claim.id)
        self.claim = claim


LEARN_NEEDS_SOURCE = "learn needs the source the claim was learnt from"
FORCE_NEEDS_REASON = "force needs a reason; it is recorded with the exception"
SUPERSEDE_NEEDS_REASON = "supersede needs a reason"


def given(value, refusal: str) -> str:
    """``value`` stripped, or ``ClaimError(refusal)`` where it is missing or blank. Public so that a
    caller that loads models before writing (the command line) can refuse first, at no cost."""
    if not isinstance(value, str) or not value.strip():
        raise ClaimError(refusal)
    return value.strip()


def _reading(c: Claim) -> tuple:
    """What a claim says, as the guard reads it: its words, scope and window."""
    return (comparison_text(c.text), c.scope, c.window)


def _same_key(c: Claim) -> tuple:
    return (*_reading(c), c.source)


def _already(dup: Claim) -> WriteResult:
    return WriteResult(False, Decision(Tier.CLEAN), dup, duplicate_of=dup.id)


def _changed(row, c: Claim) -> bool:
    """Whether an ingested fact says something else than its stored row, compared as the store
    reads the row (scope values folded): a row stored before folding is not revised by an ingest
    of the same fact."""
    old = ClaimStore.row_claim(row)
    return (old.text, old.scope, old.window, old.source, old.supersedes) != (c.text, c.scope, c.window, c.source,
                                                                             c.supersedes)


def _supersession_problems(claims: list[Claim], batch: dict[str, Claim], store: ClaimStore) -> list[str]:
    def parent(i: str) -> str | None:
        if i in batch:
            return batch[i].supersedes
        r = store.row(i)
        return r["supersedes"] if r is not None else None

    out = []
    for c in claims:
        if not c.supersedes:
            continue
        if c.supersedes == c.id:
            out.append(f"{c.id} supersedes itself")
            continue
        if c.supersedes not in batch and store.row(c.supersedes) is None:
            out.append(f"{c.id} supersedes unknown claim {c.supersedes}")
            continue
        seen, cur = {c.id}, c.supersedes
        for _ in range(MAX_CHAIN):
            if cur is None:
                break
            if cur in seen:
                out.append(f"{c.id} is part of a supersession cycle")
                break
            seen.add(cur)
            cur = parent(cur)
    return out


def _one_per_id(claims: list[Claim]) -> list[Claim]:
    """A fact listed twice, word for word, is one fact (a file's id-less repeats share their
    derived id); one id with two different contents is refused."""
    first: dict[str, Claim] = {}
    clash = set()
    for c in claims:
        seen = first.setdefault(c.id, c)
        if seen is not c and seen.content() != c.content():
            clash.add(c.id)
    if clash:
        raise ClaimError(f"ingest: id(s) appear more than once with different content: {_few(sorted(clash))}")
    return list(first.values())


def _few(xs: list[str]) -> str:
    return ", ".join(xs[:5]) + (f" (+{len(xs) - 5} more)" if len(xs) > 5 else "")


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
            raise ClaimError(f"unknown window key(s): {', '.join(sorted(map(ascii, extra)))}")
        return Window.parse(window.get("valid_from"), window.get("valid_until"))
    raise ClaimError("window must be an object with valid_from/valid_until")
