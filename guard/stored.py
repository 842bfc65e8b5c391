"""What a claim store already holds for its active claims: each claim's norm (read by the
normalizer running now) and its bi-encoder vector (made by the embedder running now).

Why a module of its own: the service that guards writes and a scan of the same store both need a
norm and a vector per active claim, read where the store keeps a current one and computed only
where it does not. Both must get the same answer — a write and a scan of one store that saw
different vectors or norms could disagree on a pair — and neither should redo spaCy or the
bi-encoder for claims the store already read (10k claims: ~7 s of normalising, ~18 s of embedding).
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import numpy as np

from guard.claims import Claim, Norm, read_digest
from guard.normalize.base import is_provisional
from guard.store import ClaimStore, parse_norm

if TYPE_CHECKING:
    import sqlite3

    from guard.embed import Embedder
    from guard.pipeline import Guard


def stored_norms(store: ClaimStore, rows: "list[sqlite3.Row]", guard: "Guard",
                 processes: int = 1) -> list[tuple[Claim, Norm]]:
    """Each row's claim with a norm the running normalizer build read: the one stored with the
    claim, else the store's norm cache; the rest (another normalizer's, an older build's) are read
    again — in worker processes when many — and cached, so the next open finds them."""
    build = guard.normalizer.build
    claims = [ClaimStore.row_claim(r) for r in rows]
    norms = [_usable(ClaimStore.row_norm(r, build)) for r in rows]
    stale = [i for i, n in enumerate(norms) if n is None]
    if not stale:
        return list(zip(claims, norms))
    keys = {i: norm_key(claims[i]) for i in stale}
    cached = store.norms([claims[i].id for i in stale], build)
    for i in stale:
        got = cached.get(claims[i].id)
        if got and got[0] == keys[i]:
            norms[i] = _usable(parse_norm(got[1], build))
    todo = [i for i in stale if norms[i] is None]
    if todo:
        for i, n in zip(todo, guard.normalize_claims([claims[i] for i in todo], processes=processes)):
            norms[i] = n
        store.put_norms(build, [(claims[i].id, keys[i], norms[i]) for i in todo if not is_provisional(norms[i])])
    return list(zip(claims, norms))


def _usable(norm: Norm | None) -> Norm | None:
    """A stored norm to reuse; None for one to read again (see ``is_provisional``)."""
    return None if norm is None or is_provisional(norm) else norm


def norm_key(claim: Claim) -> str:
    """What a norm was read from: the text, scope and window (an ingest may change any of them)."""
    return read_digest(claim)[:16]


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


SUBJECT = "subject"      # the embedding cache's key for a claim's subject vector (beside its text's)


def stored_vectors(store: ClaimStore, claims: list[Claim], embedder: "Embedder",
                   texts: list[str] | None = None, kind: str = "") -> list[np.ndarray]:
    """Vectors read from the store's embedding cache where the text is unchanged; the rest encoded
    in one batch and cached back (best effort: a read-only or busy store just misses). Stored as
    float16 and always used at that precision, so a reopened store sees what the first open saw.
    ``texts``/``kind``: another text of each claim (its subject), kept under the claim's id and
    ``<model>|<kind>``."""
    if not claims:
        return []
    model = embedder.cache_key + (f"|{kind}" if kind else "")
    texts = [c.text for c in claims] if texts is None else texts
    hashes = [text_hash(t) for t in texts]
    cached = store.embeddings([c.id for c in claims], model)
    out: list = [None] * len(claims)
    todo = []
    for i, (c, h) in enumerate(zip(claims, hashes)):
        got = cached.get(c.id)
        v = _vector(got[1], embedder.dimension) if got and got[0] == h else None
        if v is not None:
            out[i] = v
        else:
            todo.append(i)
    if todo:
        half = _encode(embedder, [texts[i] for i in todo], kind).astype(np.float16)
        for i, v in zip(todo, half):
            out[i] = v.astype(np.float32)
        store.put_embeddings([(claims[i].id, model, hashes[i], v.tobytes()) for i, v in zip(todo, half)],
                             replaces=(embedder.name, kind))
    return out


SHOW_PROGRESS_FROM = 2000      # texts to encode before a bar is worth showing


def _encode(embedder: "Embedder", texts: list[str], kind: str) -> np.ndarray:
    """The texts' vectors, with a progress bar on a terminal when there are many. Why: the first guarded
    write into a store of ingested facts (ingest stores no vectors) encodes every claim and subject — 45 s
    for 20,000 here, some four minutes for 100,000 at that rate — and said nothing while it did, as if it had
    hung."""
    if len(texts) < SHOW_PROGRESS_FROM:
        return embedder.encode(texts)
    from guard.progress import chunks
    what = "subjects" if kind == SUBJECT else "claims"
    parts = [embedder.encode(list(part)) for part in
             chunks(texts, 1024, f"embedding the store's {what} (once; kept in the store)", unit=what[:-1])]
    return np.concatenate(parts)


def prime_subjects(store: ClaimStore, pairs: list[tuple[Claim, Norm]], embedder: "Embedder") -> int:
    """Hand the embedder the vectors of these claims' subjects, from the store's embedding cache
    (encoded and cached back where missing). Why: the learned gate compares the two subjects of
    every pair it sees; without stored subject vectors a write encoded its neighbours' subjects
    (up to ~12 ms of a 60 ms write at 10k claims) and every scan of a store encoded them all again
    (~6 s of a 21 s repeat scan at 10k)."""
    have = [(c, n.subject) for c, n in pairs if n is not None and n.subject]
    if not have:
        return 0
    subjects = [s for _, s in have]
    embedder.prime(subjects, stored_vectors(store, [c for c, _ in have], embedder, subjects, SUBJECT))
    return len(have)


def _vector(blob, dimension: int) -> np.ndarray | None:
    """A stored vector, or None for a damaged row (wrong length, not finite): a cache miss, never a
    failed open or scan."""
    if not isinstance(blob, bytes) or len(blob) != 2 * dimension:
        return None
    v = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
    return v if np.isfinite(v).all() else None
