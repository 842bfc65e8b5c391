"""A small client for any OpenAI-compatible chat-completions endpoint (llama.cpp server, Ollama,
vLLM, a hosted API), as the LLM normalizer needs it: one JSON answer per request, bounded in time.

Why a client of our own rather than the ``openai`` package: we need four behaviours that must be
exactly right for a write path — a per-call timeout, bounded retries with backoff on transient
errors only, a cap on concurrent requests shared by every thread, and a fallback from the JSON-
schema response format to plain JSON for servers that do not support it — and one ``httpx``
POST covers them without a large dependency. Every failure is an ``LLMError`` with a one-line
reason, so the caller can fail open and say why.
"""
from __future__ import annotations

import logging
import os
import random
import threading
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)

ENV_BASE_URL, ENV_MODEL, ENV_KEY, ENV_TIMEOUT = "GUARD_LLM_BASE_URL", "GUARD_LLM_MODEL", "GUARD_LLM_API_KEY", "GUARD_LLM_TIMEOUT"
_TRANSIENT = {408, 409, 425, 429, 500, 502, 503, 504}
# a chat completion of a norm (max_tokens 400) is a few kilobytes; anything near this is not one
MAX_ANSWER_BYTES = 1 << 20


class LLMError(RuntimeError):
    """A request that produced no usable answer; ``str()`` is the one-line reason."""


class EndpointDown(LLMError):
    """The endpoint could not answer (timeouts, no connection, 5xx/429 after the retries), or did
    not a moment ago: a later request may well succeed, unlike a bad answer to this statement."""


@dataclass
class LLMConfig:
    base_url: str | None = None          # e.g. http://127.0.0.1:8080/v1 ; env GUARD_LLM_BASE_URL
    model: str | None = None             # env GUARD_LLM_MODEL
    api_key: str | None = None           # env GUARD_LLM_API_KEY (sent as a bearer token when set)
    timeout_s: float = 20.0              # per HTTP attempt, the whole answer read within it; env GUARD_LLM_TIMEOUT
    max_retries: int = 2                 # transient failures only (timeouts, 429, 5xx)
    backoff_s: float = 0.5               # first wait; doubles per retry, with jitter, capped at 8 s
    concurrency: int = 4                 # requests in flight at once, across all threads
    max_tokens: int = 400
    cache_size: int = 4096               # normalised texts remembered (successful answers only)
    cooldown_s: float = 30.0             # after the endpoint is found down, requests fail at once this long

    def resolved(self) -> "LLMConfig":
        """Fill unset fields from the environment and check that an endpoint is named."""
        env = os.environ
        cfg = LLMConfig(**{**self.__dict__})
        cfg.base_url = cfg.base_url or env.get(ENV_BASE_URL) or None
        cfg.model = cfg.model or env.get(ENV_MODEL) or None
        cfg.api_key = cfg.api_key or env.get(ENV_KEY) or None
        if env.get(ENV_TIMEOUT):
            try:
                cfg.timeout_s = float(env[ENV_TIMEOUT])
            except ValueError:
                raise ValueError(f"{ENV_TIMEOUT} must be a number of seconds, got {env[ENV_TIMEOUT]!r}") from None
        if not cfg.base_url or not cfg.model:
            raise ValueError(f"the LLM normalizer needs an endpoint: set {ENV_BASE_URL} (e.g. http://127.0.0.1:8080/v1) "
                             f"and {ENV_MODEL}")
        if not cfg.base_url.startswith(("http://", "https://")):
            raise ValueError(f"{ENV_BASE_URL} must be an http(s) URL, got {cfg.base_url!r}")
        if cfg.timeout_s <= 0 or cfg.max_retries < 0 or cfg.concurrency < 1 or cfg.cooldown_s < 0:
            raise ValueError("LLM timeout must be > 0, retries >= 0, concurrency >= 1 and cooldown >= 0")
        return cfg


@dataclass
class ChatAnswer:
    content: str
    model: str                  # the model that answered, as the server names it
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


class ChatClient:
    """``complete(messages, schema) -> ChatAnswer``; thread-safe."""

    def __init__(self, config: LLMConfig):
        import httpx
        self.config = config.resolved()
        self._http = httpx.Client(timeout=httpx.Timeout(self.config.timeout_s),
                                  limits=httpx.Limits(max_connections=self.config.concurrency))
        self._slots = threading.BoundedSemaphore(self.config.concurrency)
        # what the server accepts, learnt on the first refusal: json_schema → json_object → none
        self._format = "json_schema"
        self._lock = threading.Lock()
        self.usage = {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0, "failures": 0}
        # a circuit breaker: once the endpoint is found down, the next requests fail at once for
        # ``cooldown_s`` instead of each waiting out its own timeouts and retries (opening a store
        # whose claims were written during an outage asks again for each of them)
        self._down_until, self._down_reason = 0.0, ""

    @property
    def url(self) -> str:
        return self.config.base_url.rstrip("/") + "/chat/completions"

    def _body(self, messages: list[dict], schema: dict | None, fmt: str) -> dict:
        body = {"model": self.config.model, "messages": messages, "temperature": 0,
                "max_tokens": self.config.max_tokens}
        if fmt == "json_schema" and schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "norm", "schema": schema, "strict": True}}
        elif fmt == "json_object":
            body["response_format"] = {"type": "json_object"}
        return body

    def complete(self, messages: list[dict], schema: dict | None = None) -> ChatAnswer:
        import httpx
        headers = {"Authorization": f"Bearer {self.config.api_key}"} if self.config.api_key else {}
        attempt = 0
        t0 = time.perf_counter()
        wait = self._down_until - time.monotonic()
        if wait > 0:
            raise EndpointDown(f"{self._down_reason}; not asked again for {wait:.0f} s")
        while True:
            fmt = self._format
            try:
                with self._slots:
                    resp = self._post(self._body(messages, schema, fmt), headers)
            except httpx.TimeoutException:
                reason = f"timed out after {self.config.timeout_s:g} s"
                transient = True
            except httpx.HTTPError as exc:
                reason = f"cannot reach {self.config.base_url}: {type(exc).__name__}"
                transient = True
            else:
                if resp.status_code in (400, 422) and fmt != "none" and _format_refused(resp.text):
                    with self._lock:           # the server does not do this response format: step down
                        if self._format == fmt:
                            self._format = "json_object" if fmt == "json_schema" else "none"
                            log.info("LLM endpoint refused response_format %s; using %s", fmt, self._format)
                    continue
                if resp.status_code == 200:
                    return self._answer(resp, t0)
                reason = f"HTTP {resp.status_code} from {self.url}"
                transient = resp.status_code in _TRANSIENT
                if transient:
                    wait = _retry_after(resp)
                    if wait is not None and attempt < self.config.max_retries:
                        time.sleep(min(wait, 8.0))
                        attempt += 1
                        continue
            if not transient or attempt >= self.config.max_retries:
                reason += f" ({attempt + 1} attempts)" if attempt else ""
                with self._lock:
                    self.usage["failures"] += 1
                    if transient:
                        self._down_until = time.monotonic() + self.config.cooldown_s
                        self._down_reason = reason
                raise (EndpointDown if transient else LLMError)(reason)
            time.sleep(min(8.0, self.config.backoff_s * 2 ** attempt) * (0.5 + random.random() / 2))
            attempt += 1

    def _post(self, body: dict, headers: dict):
        """One attempt, its answer read whole within ``timeout_s`` and at most ``MAX_ANSWER_BYTES``.

        Why not a plain ``post``: httpx's timeout bounds each network read, not the answer, so an
        endpoint (or a proxy) that sends its answer a few bytes at a time held a write for as long
        as it liked — a 2 s timeout took 33 s on a 430-byte answer sent a byte every 0.5 s — and an
        endpoint that never stops sending filled the memory. The deadline is checked after each
        piece that arrives, so an attempt ends within ``timeout_s`` plus one read's timeout."""
        import httpx
        deadline = time.monotonic() + self.config.timeout_s
        with self._http.stream("POST", self.url, json=body, headers=headers) as resp:
            size, pieces = 0, []
            for piece in resp.iter_bytes():
                size += len(piece)
                if size > MAX_ANSWER_BYTES:
                    raise LLMError(f"the endpoint's answer is over {MAX_ANSWER_BYTES >> 20} MiB: not a chat completion")
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("the answer did not arrive whole within the timeout")
                pieces.append(piece)
            # the pieces are decoded already (gzip, br): the answer keeps the other headers only, or
            # reading it would decode it a second time
            kept = [(k, v) for k, v in resp.headers.multi_items()
                    if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
            return httpx.Response(resp.status_code, headers=kept, content=b"".join(pieces))

    def _answer(self, resp, t0: float) -> ChatAnswer:
        try:
            data = resp.json()
            msg = data["choices"][0]["message"]
            if not isinstance(msg, dict):
                raise TypeError
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMError("the endpoint's answer is not a chat completion") from None
        if msg.get("refusal"):
            raise LLMError(f"the model refused: {str(msg['refusal'])[:120]}")
        content = msg.get("content")
        if not isinstance(content, str) or not content.strip():
            raise LLMError("the model answered with no content")
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        ans = ChatAnswer(content, str(data.get("model") or self.config.model),
                         _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")),
                         time.perf_counter() - t0)
        with self._lock:
            self.usage["requests"] += 1
            self.usage["prompt_tokens"] += ans.prompt_tokens
            self.usage["completion_tokens"] += ans.completion_tokens
            self.usage["model"] = ans.model
        return ans

    def close(self) -> None:
        self._http.close()


def _count(v) -> int:
    """A token count as the server gave it, or 0: the counts are for the usage report only, so a
    server that fills them oddly ("n/a", a list) must not cost the answer (it escaped as a
    TypeError, and the whole batch was asked again one statement at a time)."""
    try:
        return max(0, int(v or 0))
    except (TypeError, ValueError, OverflowError):
        return 0


def _format_refused(body: str) -> bool:
    low = body.lower()
    return "response_format" in low or "json_schema" in low or "json schema" in low


def _retry_after(resp) -> float | None:
    v = resp.headers.get("retry-after")
    try:
        return max(0.0, float(v)) if v is not None else None
    except ValueError:
        return None
