"""A thin REST app over the same ClaimStore (``guard serve``). A blocked write is HTTP 409 with the
conflicting claims and reasons; bad input is 422 with the message; unknown ids are 404."""
from __future__ import annotations

from typing import Optional

from fastapi import FastAPI, HTTPException
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from guard.claims import ClaimError
from guard.store import ClaimStore, UnknownClaim


class Statement(BaseModel):
    text: str
    scope: Optional[dict] = None
    valid_from: Optional[str] = None
    valid_until: Optional[str] = None
    source: Optional[str] = None
    reason: Optional[str] = None


class Replacement(Statement):
    reason: str


def create_app(store: ClaimStore) -> FastAPI:
    app = FastAPI(title="claim-guard", version="0.1.0")

    def window(s: Statement) -> dict:
        return {"valid_from": s.valid_from, "valid_until": s.valid_until}

    def write(fn):
        try:
            res = fn()
        except UnknownClaim as exc:
            raise HTTPException(404, str(exc)) from None
        except ClaimError as exc:
            raise HTTPException(422, str(exc)) from None
        return JSONResponse(res.to_dict(), status_code=201 if res.stored else 409)

    @app.post("/claims")
    def remember(s: Statement):
        if s.source:
            return write(lambda: store.learn(s.text, s.source, s.scope, window(s)))
        return write(lambda: store.remember(s.text, s.scope, window(s)))

    @app.post("/claims/force")
    def force(s: Statement):
        return write(lambda: store.force(s.text, s.reason or "", s.scope, window(s), s.source))

    @app.post("/claims/{claim_id}/supersede")
    def supersede(claim_id: str, s: Replacement):
        return write(lambda: store.supersede(claim_id, s.text, s.reason, s.scope, window(s) if s.valid_from or s.valid_until else None))

    @app.post("/check")
    def check(s: Statement):
        try:
            return store.check(s.text, s.scope, window(s)).to_dict()
        except ClaimError as exc:
            raise HTTPException(422, str(exc)) from None

    @app.post("/claims/{claim_id}/cancel")
    def cancel(claim_id: str, reason: Optional[str] = None):
        try:
            return store.cancel(claim_id, reason).to_dict()
        except UnknownClaim as exc:
            raise HTTPException(404, str(exc)) from None
        except ClaimError as exc:
            raise HTTPException(409, str(exc)) from None

    @app.get("/claims")
    def list_claims(status: str = "active"):
        return [c.to_dict() for c in store.list(None if status == "all" else status)]

    @app.get("/claims/{claim_id}")
    def get(claim_id: str):
        try:
            return store.history(claim_id)
        except UnknownClaim as exc:
            raise HTTPException(404, str(exc)) from None

    return app
