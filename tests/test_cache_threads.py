"""The score and embedding caches are shared by every request thread of the server; they must
stay correct when many threads read, fill and evict them at once (cachetools' caches are not
thread-safe on their own). Real models, a cache small enough to evict all the time."""
import random
import threading

import pytest


def hammer(fn, inputs, threads=8, rounds=30):
    errors = []

    def work(seed):
        rng = random.Random(seed)
        try:
            for _ in range(rounds):
                fn(rng.sample(inputs, 6))
        except Exception as exc:  # noqa: BLE001 — collected and asserted below
            errors.append(f"{type(exc).__name__}: {exc}")
    ts = [threading.Thread(target=work, args=(s,)) for s in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors


def test_nli_score_cache_under_threads():
    from guard.nli.scorer import ModelUnavailable, NLIScorer
    try:
        scorer = NLIScorer(cache_size=8)
    except ModelUnavailable as exc:
        pytest.skip(f"shipped NLI model not available: {exc}")
    pairs = [(f"Service {i} listens on port {8000 + i}.", f"Service {i} listens on port {9000 + i}.") for i in range(24)]
    want = {p: scorer.predict([p])[0] for p in pairs}
    errors = hammer(lambda ps: [scorer.predict(ps)], pairs)
    assert errors == []
    got = scorer.predict(pairs)
    assert all(abs(g["contradiction"] - want[p]["contradiction"]) < 1e-4 for g, p in zip(got, pairs))


def test_embedding_cache_under_threads():
    import numpy as np

    from guard.embed import Embedder
    emb = Embedder(cache_size=8)
    texts = [f"Backups of cluster {i} run every {i + 1} hours." for i in range(24)]
    want = emb.encode(texts)
    errors = hammer(lambda ts: emb.encode(ts), texts)
    assert errors == []
    assert np.allclose(emb.encode(texts), want, atol=1e-5)
