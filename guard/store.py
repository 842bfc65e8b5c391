"""ClaimStore: one SQLite file (WAL) of claims, their revisions, an event log and recorded
exceptions. Persistence only: it never runs a stage; ``guard.service`` does guarded writes on top.

- One connection per thread (FastAPI runs handlers on a thread pool; a shared sqlite3 connection
  there interleaves transactions), each with a busy timeout, so a writer waits for another
  process or thread instead of failing.
- Every read is from committed state. The event log's sequence number is the change counter
  other processes' writes are seen by (``changes_since``).
- Nothing is deleted or overwritten without a copy: a status change leaves an event row; an
  update by ``ingest`` first copies the old version into ``revisions``.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from contextlib import closing, contextmanager
from pathlib import Path

from guard.claims import Claim, ClaimError, Norm, Scope, Status, Window, scope_value

DEFAULT_PATH = os.environ.get("GUARD_STORE", "claims.sqlite")
BUSY_TIMEOUT_MS = 60_000
MAX_CHAIN = 10_000          # a supersession chain longer than this is corrupt, not history

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
CREATE TABLE IF NOT EXISTS revisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, claim_id TEXT NOT NULL, row TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
CREATE INDEX IF NOT EXISTS revisions_claim ON revisions(claim_id);
CREATE TABLE IF NOT EXISTS embeddings (
    claim_id TEXT NOT NULL, model TEXT NOT NULL, text_hash TEXT NOT NULL, vec BLOB NOT NULL,
    PRIMARY KEY (claim_id, model)
);
CREATE TABLE IF NOT EXISTS norms (
    claim_id TEXT NOT NULL, build TEXT NOT NULL, key TEXT NOT NULL, norm TEXT NOT NULL,
    PRIMARY KEY (claim_id, build)
);
CREATE TABLE IF NOT EXISTS nli_scores (
    model TEXT NOT NULL, pair_hash TEXT NOT NULL, logits BLOB NOT NULL,
    UNIQUE (model, pair_hash)
);
"""
MAX_NLI_SCORES = 500_000     # ~60 MB of cache rows; the oldest go first beyond this
APPLICATION_ID = 0x436C4744  # "ClGD" in the SQLite header: this file is a claim store
OUR_TABLES = frozenset({"claims", "events", "exceptions", "revisions", "embeddings", "norms", "nli_scores"})
CLAIM_COLUMNS = frozenset({"id", "text", "env", "team", "tenant", "valid_from", "valid_until", "status", "kind",
                           "source", "created_at", "supersedes", "reason", "norm"})


def read_only_flags(path: Path) -> str:
    """How a store this process cannot write is opened: ``mode=ro``, and ``immutable=1`` where its
    write-ahead log holds nothing (absent or empty: every commit is in the file itself). Why: SQLite
    reads a WAL store through a shared-memory file it must create, so on read-only media or a full
    disk such a store did not open at all ("unable to open database file", "disk I/O error"), and in
    a writable folder a reader left journal files of its own beside another user's store. (Read
    that way, a store its owner writes meanwhile is read as of its last checkpoint.)"""
    wal = path.with_name(path.name + "-wal")
    try:
        pending = wal.stat().st_size > 0
    except OSError:
        pending = False
    return "mode=ro" + ("" if pending else "&immutable=1")


def check_is_claim_store(path: Path) -> None:
    """Refuse a SQLite file that belongs to something else, before anything is written to it.
    Why: every open ran the schema and switched the file to WAL, so a mistyped ``--store app.db``
    added seven tables and a claim to another application's database; one with a ``claims`` table
    of its own failed with "OperationalError: no such column". A claim store carries our
    application id; a store from before the id (every release until session 34) is recognised by
    its tables and adopted."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        # (on a full disk SQLite cannot make the shared-memory file a plain read needs either)
        flags = read_only_flags(path) if _read_only_reason(path) or _nearly_full(path) else "mode=ro"
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?{flags}", uri=True)) as db:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            if app_id == APPLICATION_ID:
                return
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                                "AND name NOT LIKE 'sqlite_%'")}
            columns = {r[1] for r in db.execute("PRAGMA table_info(claims)")}
    except sqlite3.DatabaseError as exc:
        if (u := unavailable(exc, path)) is not None:
            raise u from None
        raise ClaimError(f"{path} is not a claim store ({exc})") from None
    if app_id == 0 and (not tables or (tables <= OUR_TABLES and CLAIM_COLUMNS <= columns)):
        return
    what = f"application id {app_id:#x}" if app_id else "tables " + ", ".join(sorted(tables)[:6])
    raise ClaimError(f"{path} is a SQLite database of another application ({what}), not a claim store; "
                     "nothing was written to it (choose another path)")


class UnknownClaim(ClaimError):
    pass


def shown_id(claim_id: str) -> str:
    """A looked-up id as an error message shows it: an unknown id is whatever the caller sent (a
    20,000-character one came back whole in the 404), so a long one is cut and an unprintable one
    escaped; stored ids are bounded on the way in."""
    s = claim_id if claim_id.isprintable() else ascii(claim_id)[1:-1]
    return s if len(s) <= 80 else f"{s[:60]}… ({len(claim_id)} characters)"


class StoreUnavailable(ClaimError):
    """The store cannot be written here and now — its disk is full, it is read-only to this
    process, another process held its write lock past the busy timeout, or the disk failed: the
    machine's state, not the request's, and nothing was written. ``kind`` is one of ``KINDS``.
    Why its own class: SQLite's words for these ("database or disk is full" at COMMIT, "unable to
    open database file") reached users as "OperationalError: cannot rollback - no transaction is
    active" or "… is not a claim store", which named neither the cause nor that nothing was stored."""
    KINDS = ("full", "read-only", "locked", "io")

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


# SQLite's primary result codes (the low byte of an extended code) that say the store cannot be
# written now, rather than that a statement or a file is wrong
_UNAVAILABLE = {13: "full", 8: "read-only", 5: "locked", 6: "locked", 10: "io"}


def unavailable(exc: sqlite3.Error, path: Path) -> StoreUnavailable | None:
    """``exc`` said in the user's terms, or None when it is not about the store's medium or lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    kind = _UNAVAILABLE.get(code & 0xFF) if isinstance(code, int) else None
    if kind is None:
        text = str(exc).lower()
        kind = ("full" if "disk is full" in text else "read-only" if "readonly" in text
                else "locked" if "locked" in text or "busy" in text else "io" if "i/o error" in text else None)
    if kind is None:
        return None
    if kind == "io" and _nearly_full(path):
        kind = "full"       # a journal or shared-memory file that cannot grow is an I/O error to SQLite
    return store_unavailable(kind, path, str(exc) if kind == "io" else None)


_WHY = {"full": "the disk that holds the store {path} is full", "read-only": "the store {path} is read-only here",
        "locked": "another process has held the store {path} locked for {wait:g} s",
        "io": "the disk that holds the store {path} failed a read or write"}
_THEN = {"full": "free some space and try again", "read-only": "write to a copy, or where it can be written",
         "locked": "try again when it is done", "io": "check the disk"}


def store_unavailable(kind: str, path: Path, detail: str | None = None) -> StoreUnavailable:
    """The one wording of every refusal: the cause, that nothing was written, and what to do."""
    why = _WHY[kind].format(path=path, wait=BUSY_TIMEOUT_MS / 1000)
    return StoreUnavailable(f"{why}{f' ({detail})' if detail else ''}: nothing was written ({_THEN[kind]})", kind)


def _nearly_full(path: Path) -> bool:
    """Under 1 MiB free beside the store: too little for the journal files SQLite makes to read it."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 1 << 20


def _read_only_reason(path: Path) -> str | None:
    """Why this process cannot write ``path`` (SQLite also needs to create its journal files
    beside it), or None if it can. A store that does not exist yet needs a writable folder."""
    folder = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        return f"the file {path} cannot be written"
    if not os.access(folder, os.W_OK):
        return f"its folder {folder} cannot be written (SQLite keeps its journal beside the store)"
    return None


class DamagedRow(ClaimError):
    """A stored row that does not read as a claim (edited by hand or by another tool)."""


class ClaimStore:
    def __init__(self, path: str | Path = DEFAULT_PATH):
        self.path = Path(path)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # SQLite says only "unable to open database file" / "disk I/O error" for these
        if self.path.is_dir():
            raise ClaimError(f"the store {self.path} is a folder, not a file (give a file, e.g. {self.path / 'claims.sqlite'})"
                             + (" — an empty --store or GUARD_STORE reads as the current folder"
                                if str(self.path) == "." else ""))
        if not self.path.parent.is_dir():
            raise ClaimError(f"cannot open the store {self.path}: the folder {self.path.parent} does not exist")
        self.read_only, self._full = _read_only_reason(self.path), False
        if self.read_only and not self.path.exists():
            raise StoreUnavailable(f"cannot create the store {self.path}: {self.read_only}", "read-only")
        check_is_claim_store(self.path)
        try:
            if self.read_only:
                # a store on read-only media or another user's: readable (list, show, history, scan),
                # not writable; tables a newer release adds are read as empty where missing
                self.db.execute("SELECT 1 FROM claims LIMIT 1").fetchall()
            else:
                self.db.executescript(SCHEMA)
        except (sqlite3.DatabaseError, StoreUnavailable) as exc:
            self.close()
            u = exc if isinstance(exc, StoreUnavailable) else unavailable(exc, self.path)
            if u is not None and u.kind == "full" and not self.read_only:
                # SQLite could not make the files a WAL store is read through: read what is there,
                # as from read-only media (nobody can write it while its disk is full)
                self.read_only, self._full = "it was when the store was opened: open it again once there is space", True
                try:
                    self.db.execute("SELECT 1 FROM claims LIMIT 1").fetchall()
                except sqlite3.DatabaseError:
                    self.close()
                    raise u from None
            elif u is not None:
                raise u from None
            else:
                raise ClaimError(f"{self.path} is not a claim store ({exc})") from None
        try:
            if not self.read_only and self.db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except sqlite3.OperationalError:
            pass              # a read-only store: recognised by its tables on every open

    def _uri_flags(self) -> str:
        return read_only_flags(self.path) if self.read_only else ""

    def check_writable(self) -> None:
        """Refuse a write before any work (normalising, the models) is spent on it."""
        if self.read_only:
            raise store_unavailable("full" if self._full else "read-only", self.path, self.read_only)

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection (autocommit; transactions are explicit)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            flags = self._uri_flags()
            try:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?{flags}" if flags else str(self.path),
                                       isolation_level=None, check_same_thread=False,
                                       timeout=BUSY_TIMEOUT_MS / 1000, uri=bool(flags))
                conn.row_factory = sqlite3.Row
                conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                if not flags:
                    conn.execute("PRAGMA journal_mode=WAL")
                # FULL: a commit is on disk (the WAL synced) before a write is reported stored. Under
                # NORMAL, what a power cut or an OS crash came within the last commits of was gone
                # after a "stored" / 201; it costs ~0.2 ms a commit (measured), against a 25–55 ms write
                conn.execute("PRAGMA synchronous=FULL")
            except sqlite3.DatabaseError as exc:
                if (u := unavailable(exc, self.path)) is not None:
                    raise u from None
                raise ClaimError(f"{self.path} is not a claim store ({exc})") from None
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            for c in self._all:
                c.close()
            self._all.clear()
        self._local = threading.local()

    @contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE: the write lock is taken before anything is read, so what the block reads
        is what it commits against. Waits up to the busy timeout for other writers."""
        self.check_writable()
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if (u := unavailable(exc, self.path)) is not None:
                raise u from None
            raise
        try:
            yield db
            db.execute("COMMIT")
        except BaseException as exc:
            # a COMMIT that fails on a full disk may already have rolled back (SQLite's advice: roll
            # back explicitly, and ignore the error if there is nothing left to roll back)
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(exc, sqlite3.OperationalError) and (u := unavailable(exc, self.path)) is not None:
                raise u from None
            raise

    # ---- reading ------------------------------------------------------------------------
    @staticmethod
    def row_claim(r: sqlite3.Row) -> Claim:
        # scope values folded as they are read: a store written before values were folded may
        # hold "prod" + a zero-width space, which must still meet "prod"
        try:
            if not isinstance(r["text"], str):
                raise ClaimError(f"its text is {type(r['text']).__name__}, not text")
            return Claim(text=r["text"], scope=Scope(*(scope_value(r[k], k) or None if r[k] else None
                                                          for k in ("env", "team", "tenant"))),
                         window=Window.parse(r["valid_from"], r["valid_until"]), id=r["id"],
                         status=Status(r["status"]), source=r["source"], created_at=r["created_at"],
                         supersedes=r["supersedes"], reason=r["reason"])
        except (ValueError, TypeError, AttributeError) as exc:
            # a row edited by hand or by another tool: every write, list and scan of the store ended
            # in the bare field error ("valid_from is not a valid ISO date …") naming no claim
            raise DamagedRow(f"claim {r['id']} in the store cannot be read ({exc}); repair that row, or "
                             f"withdraw it with guard cancel {r['id']}") from None

    @staticmethod
    def row_claim_as_far_as_readable(r: sqlite3.Row) -> Claim:
        """A damaged row as far as it reads (unreadable scope or window left open): what a cancel of
        it answers with, since the claim it was can no longer be read whole."""
        try:
            return ClaimStore.row_claim(r)
        except DamagedRow:
            return Claim(text=str(r["text"] or ""), scope=Scope(), window=Window(), id=r["id"],
                         status=Status(r["status"]) if r["status"] in {s.value for s in Status} else Status.CANCELLED,
                         source=r["source"] if isinstance(r["source"], str) else None,
                         created_at=r["created_at"] if isinstance(r["created_at"], str) else None,
                         supersedes=r["supersedes"] if isinstance(r["supersedes"], str) else None,
                         reason=r["reason"] if isinstance(r["reason"], str) else None)

    @staticmethod
    def row_norm(r: sqlite3.Row, build: str | None = None) -> Norm | None:
        """The norm stored with the claim; None where there is none, it does not parse, or (with
        ``build``) another normalizer build read it — older rows name no build."""
        return parse_norm(r["norm"], build)

    def row(self, claim_id: str) -> sqlite3.Row | None:
        return self.db.execute("SELECT * FROM claims WHERE id=?", (claim_id,)).fetchone()

    def get(self, claim_id: str) -> Claim:
        r = self.row(claim_id)
        if r is None:
            raise UnknownClaim(f"unknown claim id: {shown_id(claim_id)}")
        return self.row_claim(r)

    def list(self, status: str | None = "active", limit: int | None = None, offset: int = 0) -> list[Claim]:
        q, args = "SELECT * FROM claims", []
        if status:
            q, args = q + " WHERE status=?", [status]
        q += " ORDER BY created_at, rowid"
        if limit is not None:
            q, args = q + " LIMIT ? OFFSET ?", args + [limit, offset]
        # a withdrawn row that no longer reads whole is history, shown as far as it reads; an active
        # one stops the listing with its id, as it stops writes (cancel it, and it lists)
        return [self.row_claim(r) if r["status"] == Status.ACTIVE.value else self.row_claim_as_far_as_readable(r)
                for r in self.db.execute(q, args)]

    def count(self, status: str | None = "active") -> int:
        if status:
            return self.db.execute("SELECT COUNT(*) FROM claims WHERE status=?", (status,)).fetchone()[0]
        return self.db.execute("SELECT COUNT(*) FROM claims").fetchone()[0]

    # ---- the embedding cache ---------------------------------------------------------------
    # Derived data, not history: a claim's bi-encoder vector, keyed by the model and a hash of the
    # text it was computed from, so opening a store does not re-embed every claim. A row whose hash
    # no longer matches (an ingested fact's new text) is recomputed and replaced.
    def embeddings(self, claim_ids: list[str], model: str) -> dict[str, tuple[str, bytes]]:
        return {r["claim_id"]: (r["text_hash"], r["vec"])
                for r in self._rows_in("SELECT claim_id, text_hash, vec FROM embeddings WHERE model=? AND claim_id",
                                       model, claim_ids)}

    def _rows_in(self, select: str, model: str, keys: list[str]):
        """``select`` ends with the key column; the keys go in chunks under SQLite's variable limit."""
        for s in range(0, len(keys), 900):
            chunk = keys[s:s + 900]
            try:
                rows = self.db.execute(f"{select} IN ({','.join('?' * len(chunk))})", [model, *chunk])
            except sqlite3.OperationalError as exc:
                if self.read_only and "no such table" in str(exc):    # an older release's store, read-only
                    return
                raise
            yield from rows

    def put_embeddings(self, rows: list[tuple[str, str, str, bytes]], replaces: tuple[str, str] | None = None) -> bool:
        """``replaces`` = (model name, kind): these claims' vectors of that kind from other weights of
        the same-named model (an upgrade; or keys from before weights were digested, the bare name)
        go, so a store keeps one vector per claim, kind and model name."""
        steps = [("INSERT OR REPLACE INTO embeddings (claim_id, model, text_hash, vec) VALUES (?, ?, ?, ?)", rows)]
        if replaces is not None:
            name, kind = replaces
            suffix = f"|{kind}" if kind else ""
            same_kind = "substr(model, -?) = ?" if suffix else "instr(model, '|') = 0"
            prune = ("DELETE FROM embeddings WHERE claim_id = ? AND model <> ? AND "
                     f"(model = ? OR (substr(model, 1, ?) = ? AND {same_kind}))")
            steps.append((
                prune,
                [(cid, model, name + suffix, len(name) + 1, name + "@", *((len(suffix), suffix) if suffix else ()))
                 for cid, model, _, _ in rows]))
        return self._cache_write(steps)

    def _cache_write(self, steps: list[tuple[str, list[tuple]]]) -> bool:
        """Best effort: inside a caller's transaction the rows commit with it; otherwise in a short
        one of their own, skipped (False) if the store is busy or read-only — a cache miss costs
        one recomputation, never a failed write. ``steps``: (statement, rows of arguments), run in
        order in one transaction, so a cache's insert and the pruning it implies land together."""
        if not steps or not steps[0][1]:
            return True
        if self.read_only:
            return False
        db = self.db

        def run() -> None:
            for sql, rows in steps:
                db.executemany(sql, rows)

        try:
            if db.in_transaction:
                run()
                return True
            db.execute("PRAGMA busy_timeout = 2000")       # a cache may wait a little, not a minute
            try:
                db.execute("BEGIN")
                try:
                    run()
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            finally:
                db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            return True
        except sqlite3.OperationalError:
            return False

    # ---- the norm cache -----------------------------------------------------------------------
    # Derived data too: a claim's norm as read by a normalizer build other than the one that wrote
    # the claim (an upgrade, or another normalizer), keyed by that build and by what was read (text,
    # scope and window), so each build reads a claim once, not on every open.
    def norms(self, claim_ids: list[str], build: str) -> dict[str, tuple[str, str]]:
        return {r["claim_id"]: (r["key"], r["norm"])
                for r in self._rows_in("SELECT claim_id, key, norm FROM norms WHERE build=? AND claim_id",
                                       build, claim_ids)}

    def put_norms(self, build: str, rows: list[tuple[str, str, Norm]]) -> bool:
        """(claim id, key, norm) rows read by ``build``; rows of an earlier build of the same
        normalizer (the same name before the ``@``) go, as an upgrade replaces its predecessor."""
        name = build.split("@", 1)[0]
        return self._cache_write([
            ("INSERT OR REPLACE INTO norms (claim_id, build, key, norm) VALUES (?, ?, ?, ?)",
             [(cid, build, key, norm_json(n, build)) for cid, key, n in rows]),
            ("DELETE FROM norms WHERE build <> ? AND substr(build, 1, ?) = ?", [(build, len(name) + 1, name + "@")])])

    # ---- the NLI score cache ---------------------------------------------------------------
    # Derived data too: a cross-encoder's raw logits for one (premise, hypothesis), keyed by the
    # model's fingerprint and a hash of the two texts, so a CLI write (a fresh process) does not
    # score again the pairs an earlier write scored. Bounded: the oldest rows go first.
    def nli_logits(self, model: str, pair_hashes: list[str]) -> dict[str, bytes]:
        return {r["pair_hash"]: r["logits"]
                for r in self._rows_in("SELECT pair_hash, logits FROM nli_scores WHERE model=? AND pair_hash",
                                       model, pair_hashes)}

    def put_nli_logits(self, rows: list[tuple[str, str, bytes]], limit: int = MAX_NLI_SCORES) -> bool:
        return self._cache_write([
            ("INSERT OR IGNORE INTO nli_scores (model, pair_hash, logits) VALUES (?, ?, ?)", rows),
            ("DELETE FROM nli_scores WHERE rowid <= (SELECT MAX(rowid) FROM nli_scores) - ?", [(int(limit),)])])

    def active_rows(self) -> list[sqlite3.Row]:
        """In ``list``'s order (oldest first), which is the order a scan pairs them in."""
        return self.db.execute("SELECT * FROM claims WHERE status='active' ORDER BY created_at, rowid").fetchall()

    def chain(self, claim: Claim) -> list[Claim]:
        """The claims this one supersedes, newest first; stops at a cycle or a dangling id, and at
        ``MAX_CHAIN`` links, so a corrupt store cannot hang a reader."""
        chain, seen = [claim], {claim.id}
        while chain[-1].supersedes and len(chain) <= MAX_CHAIN:
            nxt = chain[-1].supersedes
            if nxt in seen:
                break
            r = self.row(nxt)
            if r is None:
                break
            seen.add(nxt)
            chain.append(self.row_claim(r))
        return chain

    def in_place_of(self, claim_id: str) -> str | None:
        """The id of the claim that now stands in place of a superseded one: its successor's, followed
        to the active end of the chain (``MAX_CHAIN`` links at most); None where there is none."""
        cur, seen = claim_id, {claim_id}
        for _ in range(MAX_CHAIN):
            r = self.db.execute("SELECT id, status FROM claims WHERE supersedes=? ORDER BY rowid DESC LIMIT 1",
                                (cur,)).fetchone()
            if r is None or r["id"] in seen:
                return None
            if r["status"] == "active":
                return r["id"]
            cur = r["id"]
            seen.add(cur)
        return None

    def history(self, claim_id: str) -> dict:
        claim = self.get(claim_id)
        chain = self.chain(claim)
        later = self.db.execute("SELECT id FROM claims WHERE supersedes=? AND id<>?", (claim_id, claim_id)).fetchall()
        ids = [c.id for c in chain] + [r["id"] for r in later]
        marks = ",".join("?" * len(ids))
        events = [dict(r) | {"detail": json.loads(r["detail"]) if r["detail"] else None} for r in
                  self.db.execute(f"SELECT * FROM events WHERE claim_id IN ({marks}) ORDER BY seq", ids)]
        exceptions = [dict(r) | {"conflicts": json.loads(r["conflicts"])} for r in
                      self.db.execute(f"SELECT * FROM exceptions WHERE claim_id IN ({marks})", ids)]
        revisions = [{"at": r["at"], **json.loads(r["row"])} for r in
                     self.db.execute("SELECT * FROM revisions WHERE claim_id=? ORDER BY id", (claim_id,))]
        return {"claim": claim.to_dict(), "supersedes_chain": [c.to_dict() for c in chain[1:]],
                "superseded_by": [r["id"] for r in later], "revisions": revisions, "events": events,
                "exceptions": exceptions}

    def events(self) -> list[dict]:
        return [dict(r) for r in self.db.execute("SELECT * FROM events ORDER BY seq")]

    def last_seq(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def changes_since(self, seq: int) -> tuple[int, set[str]]:
        """(newest seq, ids of claims some event touched after ``seq``): what another writer changed."""
        rows = self.db.execute("SELECT seq, claim_id FROM events WHERE seq>?", (seq,)).fetchall()
        return (max((r["seq"] for r in rows), default=seq), {r["claim_id"] for r in rows if r["claim_id"]})

    def stats(self) -> dict:
        rows = self.db.execute("SELECT status, COUNT(*) n FROM claims GROUP BY status").fetchall()
        return {r["status"]: r["n"] for r in rows}

    # ---- writing (inside ``transaction``) ----------------------------------------------------
    def insert(self, claim: Claim, norm: Norm | None, kind: str = "claim", build: str | None = None) -> None:
        s, w = claim.scope, claim.window
        self.db.execute(
            "INSERT INTO claims(id,text,env,team,tenant,valid_from,valid_until,status,kind,source,created_at,"
            "supersedes,reason,norm) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (claim.id, claim.text, s.env, s.team, s.tenant, *w.to_dict().values(), claim.status.value, kind,
             claim.source, claim.created_at, claim.supersedes, claim.reason, norm_json(norm, build)))

    def revise(self, claim: Claim, norm: Norm | None, build: str | None = None) -> None:
        """Replace a claim's content, keeping the old version as a revision row first."""
        old = self.row(claim.id)
        self.db.execute("INSERT INTO revisions(claim_id, row) VALUES (?,?)",
                        (claim.id, json.dumps({k: old[k] for k in old.keys() if k != "norm"})))
        s, w = claim.scope, claim.window
        self.db.execute("UPDATE claims SET text=?, env=?, team=?, tenant=?, valid_from=?, valid_until=?, source=?, "
                        "supersedes=?, norm=? WHERE id=?",
                        (claim.text, s.env, s.team, s.tenant, *w.to_dict().values(), claim.source, claim.supersedes,
                         norm_json(norm, build), claim.id))

    def set_status(self, claim_id: str, status: Status, reason: str | None = None) -> None:
        self.db.execute("UPDATE claims SET status=?, reason=COALESCE(?, reason) WHERE id=?",
                        (status.value, reason, claim_id))

    def event(self, action: str, claim_id: str | None, detail: dict | None = None) -> None:
        self.db.execute("INSERT INTO events(action, claim_id, detail) VALUES (?,?,?)",
                        (action, claim_id, json.dumps(detail) if detail else None))

    def exception(self, claim_id: str, reason: str, conflicts: list[dict]) -> None:
        self.db.execute("INSERT INTO exceptions(claim_id, reason, conflicts) VALUES (?,?,?)",
                        (claim_id, reason, json.dumps(conflicts)))

    def excepted_pairs(self) -> dict[frozenset, dict]:
        """Every pair a forced write overrode: {forced id, overridden id} → who forced it, why, when,
        and the overridden claim's text as it then stood (an exception covers that conflict, not
        whatever the other claim is later revised to say)."""
        out: dict[frozenset, dict] = {}
        for r in self.db.execute("SELECT claim_id, reason, conflicts, at FROM exceptions ORDER BY id"):
            try:
                conflicts = json.loads(r["conflicts"])
            except ValueError:
                continue
            for c in conflicts if isinstance(conflicts, list) else ():
                if isinstance(c, dict) and isinstance(c.get("claim_id"), str):
                    out[frozenset((r["claim_id"], c["claim_id"]))] = {
                        "by": r["claim_id"], "reason": r["reason"], "at": r["at"],
                        "overrides": c["claim_id"], "overridden_text": c.get("claim_text")}
        return out


def norm_json(norm: Norm | None, build: str | None) -> str | None:
    """A norm as stored, stamped with the normalizer build that read it (``guard.normalize.build``)."""
    if norm is None:
        return None
    return json.dumps({**norm.to_dict(), "build": build} if build else norm.to_dict())


def parse_norm(text: str | None, build: str | None = None) -> Norm | None:
    """A stored norm; None where there is none, it does not parse, or ``build`` did not read it."""
    if not text:
        return None
    try:
        d = json.loads(text)
        if build is not None and d.get("build") != build:
            return None
        return Norm.from_dict(d)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None          # a norm of an older build: read again
