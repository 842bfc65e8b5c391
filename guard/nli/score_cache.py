"""A persistent NLI score cache kept in the claim store.

Why: a CLI write is a fresh process, so the scorer's in-memory cache starts empty each time and
the pairs an earlier write scored are scored again; the server keeps its memory cache, a scan
scores each pair once anyway. Keyed by the model's fingerprint (weights, backend, truncation)
and a hash of the two texts; raw logits as float32 bytes. Every failure is a cache miss, never a
failed write.
"""
from __future__ import annotations

import logging
import sqlite3

import numpy as np

log = logging.getLogger(__name__)


class StoreScoreCache:
    def __init__(self, store):
        self.store = store

    def get(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        try:
            rows = self.store.nli_logits(model, keys)
        except sqlite3.Error as exc:
            log.debug("NLI score cache unreadable (%s): scoring again", exc)
            return {}
        out = {}
        for k, blob in rows.items():
            try:
                v = np.frombuffer(blob, dtype=np.float32)
            except (TypeError, ValueError):            # not whole float32s (a damaged row): it ended the write
                continue                               # in "buffer size must be a multiple of element size"
            if v.size and np.isfinite(v).all():       # a damaged row is a miss
                out[k] = v.astype(np.float64)
        return out

    def put(self, model: str, logits: dict[str, np.ndarray]) -> None:
        try:
            self.store.put_nli_logits([(model, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in logits.items()])
        except sqlite3.Error as exc:
            log.debug("NLI score cache not written (%s)", exc)
