"""An audit trace of answer-time decisions: one JSON object per line, appended.

Why a file a person can read: an answer gate that rejects or accepts must be explainable after the
fact (which check ran, on what, with what evidence, how long it took). Appends take an exclusive
``flock`` and write the whole line in one call, so several processes can share one trace file
without interleaving lines.
"""
from __future__ import annotations

import fcntl
import json
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:16]}"


@dataclass
class Trace:
    """The record of one decision, built while the gate runs."""
    gate: str
    inputs: dict
    handoff_id: str | None = None
    trace_id: str = field(default_factory=lambda: new_id("tr"))
    checks: list[dict] = field(default_factory=list)
    _t0: float = field(default_factory=time.perf_counter, repr=False)

    def check(self, name: str, ok: bool, **evidence) -> bool:
        self.checks.append({"check": name, "ok": bool(ok), "ms": round((time.perf_counter() - self._t0) * 1000, 2),
                            **({"evidence": evidence} if evidence else {})})
        return ok

    def record(self, verdict: str, reason: str | None, **extra) -> dict:
        return {"trace_id": self.trace_id, "handoff_id": self.handoff_id, "gate": self.gate,
                "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "inputs": self.inputs,
                "checks": self.checks, "verdict": verdict, "reason": reason, **extra,
                "ms": round((time.perf_counter() - self._t0) * 1000, 2)}


def append(path: str | Path | None, record: dict) -> None:
    """Append one line; ``path`` None means no trace was asked for."""
    if path is None:
        return
    line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8")
    fd = os.open(str(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
