"""A thin REST app over GuardService (``guard serve``).

A blocked write is HTTP 409 with the conflicting claims, the reasons and the ways to resolve it as
ready-to-send requests; bad input is 422 with one error shape everywhere (unknown fields
included); unknown ids are 404. Models are loaded at start-up (``/ready`` says when), every
request uses its own SQLite connection (one per worker thread), and every write is checked
against the committed state of the store, whichever process wrote it.
"""
from __future__ import annotations

import asyncio
import hmac
import html
import os
from contextlib import asynccontextmanager
from typing import Optional, Union

from fastapi import Body as FBody, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from guard.body_limit import BodyLimit
from guard.claims import Claim, ClaimError
from guard.service import GuardService, UnknownClaim
from guard.store import DamagedRow, StoreUnavailable

MAX_BODY_BYTES = 1_000_000
LOOPBACK = {"127.0.0.1", "::1", "localhost"}


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Statement(Body):
    text: str
    scope: Optional[dict] = None
    valid_from: Optional[str] = None
    valid_until: Optional[str] = None
    source: Optional[str] = None
    reason: Optional[str] = None


class Replacement(Statement):
    reason: str


class Cancel(Body):
    reason: Optional[str] = None


MAX_CHECK_BATCH = 1000      # a request holds a worker thread: ~30 ms a statement, so about half a minute


class Statements(Body):
    statements: list[Statement] = Field(min_length=1, max_length=MAX_CHECK_BATCH)


class IngestBody(Body):
    claims: list[dict]


class Error(BaseModel):
    error: str
    details: list[str] = []


class WriteBody(BaseModel):
    stored: bool
    tier: str
    claim: Optional[dict] = None
    conflicts: list[dict] = []
    reasons: list[str] = []
    notes: list[str] = []
    resolve: list[dict] = []
    duplicate_of: Optional[str] = None


def _error(status: int, msg: str, details: list[str] | None = None) -> JSONResponse:
    return JSONResponse({"error": msg, "details": details or []}, status_code=status)


def check_bind(host: str, token: str | None) -> None:
    """A guard anyone on the network can write to is no guard: a non-loopback bind needs a token."""
    if host not in LOOPBACK and not token:
        raise ClaimError(f"refusing to listen on {host} without a token (--token or GUARD_TOKEN)")


def create_app(service: GuardService, token: str | None = None, warm: bool = True,
               answer_trace: str | None = None) -> FastAPI:
    token = token if token is not None else os.environ.get("GUARD_TOKEN") or None
    state = {"ready": False, "error": None}

    @asynccontextmanager
    async def lifespan(_app):
        """Models load at start-up, not on the first request; /ready says when they have."""
        if warm:
            try:
                await asyncio.to_thread(lambda: (service.warm(), service.refresh()))
            except Exception as exc:  # noqa: BLE001 — /ready reports it
                state["error"] = f"{type(exc).__name__}: {exc}"
        state["ready"] = state["error"] is None
        yield

    # Swagger UI and ReDoc load their scripts from a CDN; /docs here is a plain page built from the
    # OpenAPI schema, so it works on a machine with no internet.
    app = FastAPI(title="claim-guard", version="0.2.0", docs_url=None, redoc_url=None, lifespan=lifespan)

    @app.middleware("http")
    async def guard_requests(request: Request, call_next):
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY_BYTES:
            return _error(413, f"request body over {MAX_BODY_BYTES} bytes")
        if token and request.url.path not in ("/health",):
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode("utf-8", "replace"), f"Bearer {token}".encode()):
                return _error(401, "missing or wrong bearer token")
        try:
            return await call_next(request)
        except Exception as exc:  # noqa: BLE001 — one line, never a traceback
            return _error(500, f"internal error: {type(exc).__name__}")

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError):
        errors = _one_branch(list(exc.errors()), getattr(exc, "body", None))
        # the field's path, or "body" where the whole body is wrong (a list or a string sent for an object)
        details = [f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg', '')}"
                   for e in errors]
        return _error(422, details[0] if details else "invalid request", details)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException):
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(ClaimError)
    async def bad(_request: Request, exc: ClaimError):
        if isinstance(exc, UnknownClaim):
            return _error(404, str(exc))
        if isinstance(exc, DamagedRow):      # the store's state, not the request: the operator's to mend
            return _error(500, str(exc))
        if isinstance(exc, StoreUnavailable):
            # the machine's state: 507 for a full disk, else 503 (a lock may pass: say when to retry)
            resp = _error(507 if exc.kind == "full" else 503, str(exc))
            if exc.kind == "locked":
                resp.headers["Retry-After"] = "5"
            return resp
        return _error(422, str(exc))

    def window(s: Statement) -> dict:
        return {"valid_from": s.valid_from, "valid_until": s.valid_until}

    def write_body(res, statement: Statement | None = None) -> dict:
        body = res.to_dict()
        if not res.stored and not res.duplicate_of and statement is not None:
            body["resolve"] = _resolutions(body, statement)
        return body

    def write(res, statement: Statement | None = None):
        # 200: the same statement was already active (``duplicate_of``), nothing new stored
        return JSONResponse(write_body(res, statement), status_code=201 if res.stored else 200 if res.duplicate_of else 409)

    responses = {201: {"model": WriteBody, "description": "stored"},
                 200: {"model": WriteBody, "description": "already stored: the same statement, scope, window and "
                                                          "source is active as duplicate_of; nothing new stored"},
                 409: {"model": WriteBody, "description": "blocked: nothing stored; see conflicts and resolve"},
                 422: {"model": Error, "description": "bad input"}}

    @app.get("/docs", include_in_schema=False)
    def docs():
        return HTMLResponse(_docs_page(app.openapi()))

    @app.get("/", include_in_schema=False)
    def index():
        # a person or an agent opening the service's address finds where to go, not a 404
        return {"service": "claim-guard", "docs": "/docs", "openapi": "/openapi.json",
                "endpoints": sorted({f"{m} {r.path}" for r in app.routes if getattr(r, "include_in_schema", False)
                                     for m in getattr(r, "methods", ()) if m != "HEAD"})}

    @app.get("/health")
    def health():
        return {"status": "ok"}

    @app.get("/ready")
    def ready():
        if state["ready"]:
            return {"status": "ready"}
        return _error(503, state["error"] or "models are loading")

    @app.post("/claims", status_code=201, responses=responses)
    def remember(s: Union[Statement, Statements]):
        """One statement, or ``{"statements": [...]}``: written in turn, each as its own POST would write it
        (a blocked one not stored, the rest going on); answered 200 with ``{"results": [...]}`` in order,
        each as a single write's body. A bad statement refuses them all (422 naming it) before any is written."""
        if isinstance(s, Statements):
            results = service.remember_many([(x.text, x.scope, window(x), x.source) for x in s.statements])
            return JSONResponse({"results": [write_body(r, x) for r, x in zip(results, s.statements)]})
        if s.source:
            return write(service.learn(s.text, s.source, s.scope, window(s)), s)
        return write(service.remember(s.text, s.scope, window(s)), s)

    @app.post("/claims/learn", status_code=201, responses=responses)
    def learn(s: Statement):
        return write(service.learn(s.text, s.source or "", s.scope, window(s)), s)

    @app.post("/claims/force", status_code=201, responses=responses)
    def force(s: Statement):
        return write(service.force(s.text, s.reason or "", s.scope, window(s), s.source), s)

    @app.post("/claims/{claim_id}/supersede", status_code=201, responses={**responses, 404: {"model": Error}})
    def supersede(claim_id: str, s: Replacement):
        return write(service.supersede(claim_id, s.text, s.reason, s.scope,
                                       window(s) if s.valid_from or s.valid_until else None), s)

    @app.post("/check")
    def check(s: Union[Statement, Statements]):
        """One statement, or ``{"statements": [...]}`` for a batch (one decision each, in order)."""
        if isinstance(s, Statements):
            return {"decisions": [d.to_dict() for d in service.check_many([(x.text, x.scope, window(x))
                                                                            for x in s.statements])]}
        return service.check(s.text, s.scope, window(s)).to_dict()

    @app.post("/ingest", responses={422: {"model": Error}})
    def ingest(body: IngestBody):
        claims = []
        for i, d in enumerate(body.claims):
            try:
                claims.append(Claim.reference_from_dict(d))
            except ClaimError as exc:
                return _error(422, f"claims[{i}]: {exc}")
        return {"ingested": service.ingest(claims)}

    from guard.answer.api import AnswerGates
    gates = AnswerGates(guard=service.guard, trace_path=answer_trace or os.environ.get("GUARD_ANSWER_TRACE") or None)

    def answer(handler: str, body):
        try:
            return getattr(gates, handler)(body)
        except ValueError as exc:
            return _error(422, str(exc))

    @app.post("/answer/lock", responses={422: {"model": Error}})
    def answer_lock(body: dict | list = FBody(...)):
        """Normalise and hash constraints: ``{"constraints": [...]}`` → ``{constraints, hash}``."""
        return answer("lock", body)

    @app.post("/answer/check", responses={422: {"model": Error}})
    def answer_check(body: dict = FBody(...)):
        """``{"constraints"|"lock", "retrieved_ids", "output"}`` → OK / REFUSAL / REJECT with its reason."""
        return answer("check", body)

    @app.post("/answer/split", responses={422: {"model": Error}})
    def answer_split(body: dict = FBody(...)):
        """``{"request", "retrieved"?}`` → ordered sub-intents with roles, references and contracts."""
        return answer("split", body)

    @app.post("/answer/audit", responses={422: {"model": Error}})
    def answer_audit(body: dict = FBody(...)):
        """A handoff (with ``evidence`` to audit locally) → ACCEPT / RETRY / REJECT."""
        return answer("audit", body)

    # the last scan's answer, replaced whole: it was one dict cleared and refilled in place, so a
    # GET /conflicts served while another POST /scan finished could read it half-written
    last_scan: list[dict] = []

    @app.post("/scan")
    def scan():
        """Scan the store's active claims (the same engine as ``guard scan``); kept as /conflicts."""
        from guard.scan import ScanConfig, Scanner
        report = Scanner(service.guard, ScanConfig(progress=False)).scan_store(service.store)   # its norms, vectors, scores
        answer = {"summary": report.summary, "findings": report.findings}
        last_scan[:] = [answer]
        return answer

    @app.get("/conflicts", responses={404: {"model": Error}})
    def conflicts():
        done = last_scan[-1:]
        if not done:
            return _error(404, "no scan has run yet: POST /scan")
        return done[0]

    @app.post("/claims/{claim_id}/cancel", responses={404: {"model": Error}, 409: {"model": Error}})
    def cancel(claim_id: str, body: Optional[Cancel] = None):
        try:
            return service.cancel(claim_id, body.reason if body else None).to_dict()
        except UnknownClaim:
            raise
        except ClaimError as exc:
            return _error(409, str(exc))

    @app.get("/claims")
    def list_claims(status: str = "active", limit: int = 100, offset: int = 0):
        if status not in ("active", "superseded", "cancelled", "all"):
            return _error(422, "status must be active, superseded, cancelled or all")
        if not 1 <= limit <= 1000 or offset < 0:
            return _error(422, "limit must be 1–1000 and offset >= 0")
        st = None if status == "all" else status
        return {"claims": [c.to_dict() for c in service.list(st, limit, offset)],
                "total": service.store.count(st), "limit": limit, "offset": offset}

    @app.get("/claims/{claim_id}", responses={404: {"model": Error}})
    def get(claim_id: str):
        return service.get(claim_id).to_dict()

    @app.get("/claims/{claim_id}/history", responses={404: {"model": Error}})
    def history(claim_id: str):
        return service.history(claim_id)

    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)      # outermost: counts chunked bodies too
    return app


def _one_branch(errors: list[dict], body) -> list[dict]:
    """/check takes one statement or a batch: pydantic reports a bad body against both shapes, and
    the first error ("Statement.text: Field required") answered a batch that was only too long.
    Keep the errors of the shape the body was meant as, named without the shape."""
    shape = "Statements" if isinstance(body, dict) and "statements" in body else "Statement"
    branches = {e["loc"][1] for e in errors if len(e.get("loc", ())) > 1 and e["loc"][1] in ("Statement", "Statements")}
    if len(branches) < 2:
        return errors
    return [{**e, "loc": (e["loc"][0], *e["loc"][2:])} for e in errors if e["loc"][1] == shape]


def _resolutions(body: dict, s: Statement) -> list[dict]:
    """The three ways out of a block, as requests a client can send as they are (after filling
    in a reason), the way the CLI prints its hint."""
    stmt = s.model_dump(exclude_none=True)
    out = []
    for c in body.get("conflicts", []):
        if c.get("tier") != "block" or not c.get("claim_id"):
            continue
        cid = c["claim_id"]
        out.append({"action": "cancel", "method": "POST", "path": f"/claims/{cid}/cancel",
                    "body": {"reason": "<why the existing claim no longer holds>"}})
        out.append({"action": "supersede", "method": "POST", "path": f"/claims/{cid}/supersede",
                    "body": {**stmt, "reason": "<why it replaces the existing claim>"}})
    if out:
        out.append({"action": "force", "method": "POST", "path": "/claims/force",
                    "body": {**stmt, "reason": "<why the conflict is accepted; recorded as an exception>"}})
    return out


def _docs_page(spec: dict) -> str:
    rows = []
    for path, ops in spec.get("paths", {}).items():
        for method, op in ops.items():
            codes = ", ".join(sorted(op.get("responses", {})))
            doc = html.escape((op.get("description") or op.get("summary") or "").strip())
            rows.append(f"<tr><td><code>{method.upper()}</code></td><td><code>{html.escape(path)}</code></td>"
                        f"<td>{codes}</td><td>{doc}</td></tr>")
    return ("<!doctype html><meta charset=utf-8><title>claim-guard API</title>"
            "<style>body{font:14px sans-serif;margin:2em}td,th{border-bottom:1px solid #ddd;padding:4px 8px;"
            "text-align:left;vertical-align:top}</style>"
            f"<h1>{html.escape(spec['info']['title'])} {html.escape(spec['info']['version'])}</h1>"
            "<p>The full schema is at <a href=/openapi.json>/openapi.json</a>. Errors share one shape: "
            "<code>{\"error\": str, \"details\": [str]}</code>.</p>"
            "<table><tr><th>method</th><th>path</th><th>responses</th><th>what it does</th></tr>"
            + "".join(rows) + "</table>")
