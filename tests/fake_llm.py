"""A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol, for the one piece
that cannot run here (a language model). What it answers is chosen by a cue in the statement:

  [chatter] JSON wrapped in prose        [malformed] broken JSON        [badenum] modality outside the set
  [invent] a value not in the statement  [refuse] a refusal              [html] not a chat completion
  [error] HTTP 500 every time            [flaky] HTTP 503 twice, then a good answer
  [slow] answers after ``slow_s``        [huge] a 5,000-character subject
  [trickle] a good answer, one byte every ``trickle_s``     [flood] 200 with an endless body
  [oddusage] token counts that are not numbers              [badmessage] a message that is a string
  [gzip] a good answer, gzip-compressed (as hosted APIs and proxies send it)
(or the cue in ``mode``, for every statement); otherwise a good answer from ``answers`` (keyed by statement) or a generic one.
``schema_supported=False`` makes it refuse ``response_format: json_schema`` with HTTP 400.
"""
from __future__ import annotations

import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeLLM:
    def __init__(self, answers: dict[str, dict] | None = None, schema_supported: bool = True, slow_s: float = 3.0,
                 delay_s: float = 0.0, trickle_s: float = 0.2):
        self.answers = answers or {}
        self.trickle_s = trickle_s
        self.bytes_sent = 0           # by [flood], until the client hung up
        self.schema_supported = schema_supported
        self.slow_s, self.delay_s = slow_s, delay_s
        self.mode = ""           # a cue applied to every statement (e.g. "[error]": the endpoint is down)
        self.requests: list[dict] = []
        self.in_flight = self.max_in_flight = 0
        self.flaky_seen: dict[str, int] = {}
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"{}")
                with fake._lock:
                    fake.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                try:
                    status, payload = fake.answer(self.path, body)
                finally:
                    with fake._lock:
                        fake.in_flight -= 1
                raw = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                text = str(body.get("messages", [{}])[-1].get("content", "")) + fake.mode
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    if "[flood]" in text:                  # no length: the body ends when the client hangs up
                        self.end_headers()
                        while True:
                            self.wfile.write(b" " * 65536)
                            fake.bytes_sent += 65536
                    if "[gzip]" in text:
                        raw = gzip.compress(raw)
                        self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    if "[trickle]" in text:
                        for i in range(len(raw)):
                            self.wfile.write(raw[i:i + 1])
                            self.wfile.flush()
                            time.sleep(fake.trickle_s)
                    else:
                        self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass       # the client gave up (a timeout): nothing to answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> "FakeLLM":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    @staticmethod
    def completion(content: str | None, refusal: str | None = None) -> dict:
        return {"id": "cmpl-1", "object": "chat.completion", "model": "fake-norm-1",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": refusal},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 120, "completion_tokens": 40, "total_tokens": 160}}

    def answer(self, path: str, body: dict) -> tuple[int, dict | str]:
        if not path.endswith("/chat/completions"):
            return 404, {"error": {"message": "not found"}}
        fmt = (body.get("response_format") or {}).get("type")
        if fmt == "json_schema" and not self.schema_supported:
            return 400, {"error": {"message": "response_format json_schema is not supported by this server"}}
        text = body["messages"][-1]["content"] + self.mode
        if self.delay_s:
            time.sleep(self.delay_s)
        good = self.answers.get(text.removesuffix(self.mode) if self.mode else text) or {"modality": "must", "subject": "thing", "object": "be", "value": None,
                                          "attribute": None, "theme": None, "subject_kind": "PRESENT",
                                          "exclusive": False, "qualifiers": []}
        if "[error]" in text:
            return 500, {"error": {"message": "internal error"}}
        if "[flaky]" in text:
            with self._lock:
                self.flaky_seen[text] = self.flaky_seen.get(text, 0) + 1
                if self.flaky_seen[text] <= 2:
                    return 503, {"error": {"message": "overloaded"}}
        if "[slow]" in text:
            time.sleep(self.slow_s)
        if "[html]" in text:
            return 200, "<html><body>502 Bad Gateway</body></html>"
        if "[refuse]" in text:
            return 200, self.completion(None, refusal="I can't help with that.")
        if "[malformed]" in text:
            return 200, self.completion('{"modality": "must", "subject": "thing", ')
        if "[badenum]" in text:
            return 200, self.completion(json.dumps({**good, "modality": "mandatory"}))
        if "[invent]" in text:
            return 200, self.completion(json.dumps({**good, "value": "9999"}))
        if "[huge]" in text:
            return 200, self.completion(json.dumps({**good, "subject": "x" * 5000}))
        if "[oddusage]" in text:
            return 200, {**self.completion(json.dumps(good)), "usage": {"prompt_tokens": "n/a", "completion_tokens": [1]}}
        if "[badmessage]" in text:
            return 200, {**self.completion(None), "choices": [{"index": 0, "message": "hello"}]}
        if "[chatter]" in text:
            return 200, self.completion("Sure! Here is the reading you asked for:\n```json\n"
                                        + json.dumps(good) + "\n```\nLet me know if you need more.")
        return 200, self.completion(json.dumps(good))
