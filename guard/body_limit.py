"""The request body limit, counted as the body arrives.

Why not only the Content-Length header: a client that sends its body chunked declares no length,
and FastAPI reads a whole body into memory before a handler sees it — one such request of a few
gigabytes takes the service (and every agent writing through it) down. This counts the bytes each
``http.request`` message brings and answers 413 the moment the limit is passed; the app then sees
the client gone, and anything it still tries to send is dropped.
"""
from __future__ import annotations

import json


class BodyLimit:
    """Pure ASGI middleware (Starlette's ``BaseHTTPMiddleware`` cannot see the body stream)."""

    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        seen = 0
        app_started = refused = False

        async def counted_receive():
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    refused = True
                    if not app_started:
                        await _too_large(send, self.max_bytes)
                    return {"type": "http.disconnect"}
            elif refused:
                return {"type": "http.disconnect"}
            return message

        async def guarded_send(message):
            nonlocal app_started
            if refused:
                return            # the 413 went out; the app's own answer to a cut-off body is dropped
            app_started = True
            await send(message)

        await self.app(scope, counted_receive, guarded_send)


async def _too_large(send, max_bytes: int) -> None:
    body = json.dumps({"error": f"request body over {max_bytes} bytes", "details": []}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
