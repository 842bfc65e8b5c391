"""Candidate generation: which stored claims are worth comparing with a statement.

Comparing against every claim is quadratic in a scan and linear per write. Two claims can only
conflict structurally if they share subject words, so an inverted index on subject and theme
words (blocking) finds those; claims worded differently about the same thing are found by
bi-encoder nearest neighbours, which only the NLI stage can use anyway.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from guard.claims import Norm

# Words too generic to block on: every third claim has them.
_GENERIC = {"use", "new", "default", "value", "file", "all", "code", "change", "time", "team", "system",
            "service", "data", "user", "version", "set", "rule", "policy", "one", "two"}


def blocking_keys(norm: Norm) -> set[str]:
    keys = set()
    for field in (norm.subject, norm.theme):
        if field:
            keys.update(w for w in field.split() if w not in _GENERIC and len(w) > 1)
    if not keys and norm.subject:
        keys.update(norm.subject.split())
    return keys


class CandidateIndex:
    """Inverted index over blocking keys plus an optional matrix of unit embeddings."""

    def __init__(self, max_bucket: int = 5000):
        self._index: dict[str, set[str]] = defaultdict(set)
        self._keys: dict[str, set[str]] = {}
        self.max_bucket = max_bucket
        self._ids: list[str] = []
        self._vecs: list[np.ndarray] = []
        self._matrix: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, claim_id: str, norm: Norm, vec: np.ndarray | None = None) -> None:
        keys = blocking_keys(norm)
        self._keys[claim_id] = keys
        for k in keys:
            self._index[k].add(claim_id)
        if vec is not None:
            self._ids.append(claim_id)
            self._vecs.append(vec)
            self._matrix = None

    def remove(self, claim_id: str) -> None:
        for k in self._keys.pop(claim_id, ()):
            self._index[k].discard(claim_id)
        if claim_id in self._ids:
            i = self._ids.index(claim_id)
            del self._ids[i], self._vecs[i]
            self._matrix = None

    def blocked(self, norm: Norm, exclude: str | None = None) -> set[str]:
        out: set[str] = set()
        for k in blocking_keys(norm):
            bucket = self._index.get(k)
            if bucket and len(bucket) <= self.max_bucket:
                out |= bucket
        out.discard(exclude)
        return out

    def neighbours(self, vec: np.ndarray, k: int, min_sim: float = 0.5) -> list[str]:
        if not self._ids or k <= 0:
            return []
        if self._matrix is None:
            self._matrix = np.stack(self._vecs)
        sims = self._matrix @ vec
        top = np.argpartition(-sims, min(k, len(sims) - 1))[:k]
        return [self._ids[i] for i in top if sims[i] >= min_sim]

    def all_neighbour_pairs(self, k: int, min_sim: float = 0.5, chunk: int = 2048) -> set[tuple[str, str]]:
        """Each claim's k nearest neighbours, as unordered id pairs, in matrix chunks."""
        pairs: set[tuple[str, str]] = set()
        if not self._ids or k <= 0:
            return pairs
        m = np.stack(self._vecs) if self._matrix is None else self._matrix
        kk = min(k + 1, len(self._ids))
        for s in range(0, len(m), chunk):
            sims = m[s:s + chunk] @ m.T
            top = np.argpartition(-sims, kk - 1, axis=1)[:, :kk]
            for r, row in enumerate(top):
                i = s + r
                for j in row:
                    if j != i and sims[r, j] >= min_sim:
                        a, b = self._ids[i], self._ids[j]
                        pairs.add((a, b) if a < b else (b, a))
        return pairs

    def blocked_pairs(self) -> set[tuple[str, str]]:
        pairs: set[tuple[str, str]] = set()
        for bucket in self._index.values():
            if 1 < len(bucket) <= self.max_bucket:
                ids = sorted(bucket)
                for i, a in enumerate(ids):
                    for b in ids[i + 1:]:
                        pairs.add((a, b))
        return pairs
