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
from guard.compare import folded

# Bi-encoder neighbours per claim and their cosine floor: one setting for a write's candidates and a
# scan's (the write's: a scan used 5 at cosine >= 0.6 and missed pairs a write checks). Measured on
# real prose, each labelled pair set's statements as one store (`benchmarks.real_store`; claims_train /
# claims_dev): labelled contradictions that become candidate pairs 60 % / 81 % with the scan's old
# setting, 78 % / 89 % with this one; blocked by the scan 0.39 / 0.53 -> 0.49 / 0.58. A floor of 0.3
# paired 90 % / 96 % but blocked one more of dev's 140 contradictions for two more of its 150
# compatible pairs and 90 more unlabelled pairs: not taken.
NEIGHBOURS = 8
NEIGHBOUR_MIN_SIMILARITY = 0.5


def blocking_keys(norm: Norm) -> tuple[set[str], set[str], set[str]]:
    """(exact, broad, role) keys. Exact: the whole subject. Broad: every proper suffix of the
    subject — "application log" also files under "log" — and identifier-like words, which find the
    NEAR matches the comparator can still block on. Role: the theme, which only pairs with claims
    whose *subject* it is ("MFA is required for VPN access" / "VPN access does not require MFA");
    two claims that merely share a theme are not paired by it."""
    exact, broad, role = set(), set(), set()
    # each word as the comparator matches it (``compare.folded``: "StrictModes" / "strictmode" are one subject to it),
    # or a bucket that told them apart would keep such a pair from a scan that pairs by subject only
    if norm.subject:
        words = [folded(w) for w in norm.subject.split()]
        exact.add(" ".join(words))
        broad.update(" ".join(words[i:]) for i in range(1, len(words)))
        broad.update("i:" + w for w in words if any(c in w for c in "_`-0123456789") and len(w) > 2)
    if norm.theme:
        role.add(" ".join(folded(w) for w in norm.theme.split()))
    return exact, broad, role


class CandidateIndex:
    """Inverted index over blocking keys plus an optional matrix of unit embeddings."""

    def __init__(self, max_bucket: int = 1000, max_exact_bucket: int = 20000):
        self._index: dict[str, set[str]] = defaultdict(set)
        self._role: dict[str, set[str]] = defaultdict(set)
        self._keys: dict[str, set[str]] = {}
        self.max_bucket = max_bucket
        self.max_exact_bucket = max_exact_bucket
        self._exact: set[str] = set()
        # unit vectors in a matrix that grows in place (capacity doubles; a removal moves the last
        # row into the hole), so a write never rebuilds it
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._mat: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, claim_id: str, norm: Norm, vec: np.ndarray | None = None) -> None:
        exact, broad, role = blocking_keys(norm)
        self._exact |= exact
        keys = exact | broad
        self._keys[claim_id] = keys | {"r:" + r for r in role}
        for k in keys:
            self._index[k].add(claim_id)
        for r in role:
            self._role[r].add(claim_id)
        if vec is not None:
            if claim_id in self._row:
                self._drop_vector(claim_id)
            n = len(self._ids)
            if self._mat is None:
                self._mat = np.zeros((64, len(vec)), dtype=np.float32)
            elif n == len(self._mat):
                self._mat = np.concatenate([self._mat, np.zeros_like(self._mat)])
            self._mat[n] = vec
            self._ids.append(claim_id)
            self._row[claim_id] = n

    def _drop_vector(self, claim_id: str) -> None:
        i = self._row.pop(claim_id)
        last = len(self._ids) - 1
        if i != last:
            moved = self._ids[last]
            self._mat[i] = self._mat[last]
            self._ids[i] = moved
            self._row[moved] = i
        self._ids.pop()

    @property
    def _matrix(self) -> np.ndarray:
        return self._mat[:len(self._ids)]

    def _cap(self, key: str) -> int:
        return self.max_exact_bucket if key in self._exact else self.max_bucket

    def remove(self, claim_id: str) -> None:
        for k in self._keys.pop(claim_id, ()):
            if k.startswith("r:"):
                self._role[k[2:]].discard(claim_id)
            else:
                self._index[k].discard(claim_id)
        if claim_id in self._row:
            self._drop_vector(claim_id)

    def blocked(self, norm: Norm, exclude: str | None = None) -> set[str]:
        out: set[str] = set()
        exact, broad, role = blocking_keys(norm)
        for k in exact | broad:
            bucket = self._index.get(k)
            if bucket and len(bucket) <= self._cap(k):
                out |= bucket
        for k in exact:                       # claims whose theme is my subject
            bucket = self._role.get(k)
            if bucket and len(bucket) <= self.max_exact_bucket:
                out |= bucket
        for r in role:                        # claims whose subject is my theme
            bucket = self._index.get(r)
            if bucket and r in self._exact and len(bucket) <= self.max_exact_bucket:
                out |= bucket
        out.discard(exclude)
        return out

    def neighbours(self, vec: np.ndarray, k: int, min_sim: float = NEIGHBOUR_MIN_SIMILARITY) -> list[str]:
        if not self._ids or k <= 0:
            return []
        # numpy's own loop, not BLAS: OpenBLAS ran this one product (10k × 384) on both cores in
        # 0.2 ms and then kept its threads spinning while the write's cross-encoder ran; einsum
        # takes 0.7 ms on one core. 10k-claim accurate writes: p50 46 → 38 ms, p95 96–100 → 75 ms.
        sims = np.einsum("ij,j->i", self._matrix, vec)
        top = np.argpartition(-sims, min(k, len(sims) - 1))[:k]
        return [self._ids[i] for i in top if sims[i] >= min_sim]

    def all_neighbour_pairs(self, k: int, min_sim: float = NEIGHBOUR_MIN_SIMILARITY,
                            chunk: int = 2048) -> set[tuple[str, str]]:
        """Each claim's k nearest neighbours, as unordered id pairs, in matrix chunks."""
        if not self._ids or k <= 0:
            return set()
        m = self._matrix
        pairs: set[tuple[str, str]] = set()
        for s in range(0, len(m), chunk):
            for i, j in neighbour_rows(m, s, min(s + chunk, len(m)), k, min_sim):
                a, b = self._ids[i], self._ids[j]
                pairs.add((a, b) if a < b else (b, a))
        return pairs

    def blocked_pairs(self) -> set[tuple[str, str]]:
        pairs: set[tuple[str, str]] = set()
        for k in set(self._index) | set(self._role):
            pairs |= key_pairs(self._index.get(k, ()), self._role.get(k, ()), k in self._exact,
                               self.max_bucket, self.max_exact_bucket)
        return pairs


def key_pairs(members, themed, exact: bool, max_bucket: int, max_exact_bucket: int) -> set[tuple[str, str]]:
    """The candidate pairs one blocking key makes: every pair of the claims filed under it (unless
    the bucket is too generic), and each claim whose *subject* it is with each claim whose theme it
    is. Shared by the index and the Ray engine's group-by, so both block the same pairs."""
    pairs: set[tuple[str, str]] = set()
    if 1 < len(members) <= (max_exact_bucket if exact else max_bucket):
        ids = sorted(members)
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                pairs.add((a, b))
    if exact and members and themed and len(members) * len(themed) <= max_exact_bucket * 50:
        for a in members:
            for b in themed:
                if a != b:
                    pairs.add((a, b) if a < b else (b, a))
    return pairs


def neighbour_rows(m: np.ndarray, start: int, end: int, k: int, min_sim: float) -> list[tuple[int, int]]:
    """The k nearest rows of ``m`` to each row in [start, end) with cosine ≥ ``min_sim``, as
    (row, neighbour) index pairs — one chunk of the all-pairs neighbour search, shared by the
    single-process scan and the Ray engine so both find the same pairs.

    Deterministic: similarities are compared at 1e-5 and ties go to the lower row, so claims with
    the same text (the same vector, up to float noise that differs between batchings) are chosen
    the same way by every engine and every run."""
    n = len(m)
    kk = min(k + 1, n)
    extra = min(n, kk + 16)               # float top-(k+17), then exact ranking among those
    floor = int(np.ceil(min_sim * 1e5 - 1e-6))
    out: list[tuple[int, int]] = []
    step = max(16, min(end - start, int(5e7 // max(1, n))))      # bound the chunk's memory
    for s in range(start, end, step):
        e = min(end, s + step)
        sims = m[s:e] @ m.T
        cand = _top_columns(sims, extra)
        q = np.rint(np.take_along_axis(sims, cand, axis=1) * 1e5).astype(np.int64)   # 1e-5 steps
        key = -q * (1 << 32) + cand                                # by similarity, then by row
        order = np.argsort(key, axis=1)[:, :kk]
        top = np.take_along_axis(cand, order, axis=1)
        topq = np.take_along_axis(q, order, axis=1)
        for r in range(e - s):
            i = s + r
            for j, qq in zip(top[r].tolist(), topq[r].tolist()):
                if j != i and qq >= floor:
                    out.append((i, j))
    return out


TORCH_TOPK_MIN = 20_000      # rows in the matrix from which torch's top-k pays for importing torch


def _top_columns(sims: np.ndarray, k: int) -> np.ndarray:
    """The columns of each row's k largest values, in no order. numpy's argpartition walks each
    100k-wide row on one thread (1.0 s per 500 rows at 100k claims; torch's top-k 0.07 s), so a
    big matrix uses torch where it is installed: the whole neighbour search of a 100k-claim scan
    took 170 s and takes 76 s (2-core AVX2 machine), with identical pairs. Either way the caller
    ranks the k again exactly."""
    if sims.shape[1] >= TORCH_TOPK_MIN:
        try:
            import torch
        except ImportError:
            torch = None
        if torch is not None:
            return torch.topk(torch.from_numpy(sims), k, dim=1, sorted=False).indices.numpy()
    return np.argpartition(-sims, k - 1, axis=1)[:, :k]
