"""Opening a store re-embeds nothing: vectors persist with the claims, keyed by model and text, and
the neighbour matrix grows in place. The real bi-encoder and a real SQLite file."""
import random
import sqlite3

import numpy as np
import pytest

from guard.candidates import CandidateIndex
from guard.claims import Claim, Norm
from guard.pipeline import Guard, GuardConfig
from guard.service import GuardService


def test_the_matrix_grows_and_shrinks_in_place_and_answers_like_brute_force():
    rng = np.random.default_rng(0)
    idx, ref = CandidateIndex(), {}
    norm = Norm.unknown()
    for step in range(600):
        if ref and rng.random() < 0.3:
            cid = random.Random(step).choice(sorted(ref))
            idx.remove(cid)
            del ref[cid]
        else:
            v = rng.normal(size=16).astype(np.float32)
            v /= np.linalg.norm(v)
            cid = f"c{step}"
            idx.add(cid, norm, v)
            ref[cid] = v
    q = rng.normal(size=16).astype(np.float32)
    q /= np.linalg.norm(q)
    ids = sorted(ref)
    sims = np.stack([ref[i] for i in ids]) @ q
    want = {ids[i] for i in np.argsort(-sims)[:5] if sims[i] >= 0.0}
    assert set(idx.neighbours(q, 5, min_sim=0.0)) == want
    assert len(idx._ids) == len(ref) and set(idx._ids) == set(ref)


@pytest.fixture(scope="module")
def guard():
    g = Guard(GuardConfig())
    if g.nli_gate is None or g.nli_gate.embedder is None:
        pytest.skip("the accurate profile's models are not installed")
    return g


def test_a_reopened_store_embeds_nothing_and_finds_the_same_candidates(tmp_path, guard, monkeypatch):
    path = tmp_path / "s.sqlite"
    texts = [f"The {w}-api listens on port {8000 + i}." for i, w in enumerate(["billing", "search", "auth", "orders"])]
    svc = GuardService(path, guard=guard)
    svc.ingest([Claim(text=t) for t in texts])
    probe = Claim(text="The search API listens on port 9443.")
    norm = guard.normalize(probe.text)
    first = [c.id for c, _ in svc.candidates(norm, probe)]
    svc.close()
    db = sqlite3.connect(path)
    rows = db.execute("SELECT COUNT(*), MIN(length(vec)) FROM embeddings WHERE model NOT LIKE '%|subject'").fetchone()
    assert rows[0] == 4 and rows[1] == 384 * 2                      # float16, one row per active claim
    subjects = db.execute("SELECT COUNT(*), MIN(length(vec)) FROM embeddings WHERE model LIKE '%|subject'").fetchone()
    assert subjects == (4, 384 * 2)                                 # and one per claim's subject
    db.close()
    calls = []
    real = guard.nli_gate.embedder.encode
    monkeypatch.setattr(guard.nli_gate.embedder, "encode", lambda texts, **kw: calls.append(list(texts)) or real(texts, **kw))
    again = GuardService(path, guard=guard)
    assert [c.id for c, _ in again.candidates(norm, probe)] == first
    assert all(probe.text in batch for batch in calls)               # only the probe was embedded
    again.close()


def test_a_reopened_store_hands_the_gate_its_subject_vectors(tmp_path, guard, monkeypatch):
    """A fresh process (empty caches) opening a store runs the bi-encoder on nothing: the claims'
    vectors and their subjects' vectors (which the gate's subject similarities need) come from
    the store, at the numbers encoding gives."""
    path = tmp_path / "s.sqlite"
    texts = ["The billing-api listens on port 8000.", "Deploys to prod need two approvals.", "Logs are kept 30 days."]
    svc = GuardService(path, guard=guard)
    svc.ingest([Claim(text=t) for t in texts])
    svc.refresh()
    subjects = [n.subject for n in svc._norms.values() if n.subject]
    svc.close()
    assert len(subjects) == 3
    fresh = Guard(GuardConfig())
    emb = fresh.nli_gate.embedder
    runs = []
    real = emb._ort.run
    monkeypatch.setattr(emb._ort, "run", lambda inputs, *a, **kw: runs.append(list(inputs)) or real(inputs, *a, **kw))
    again = GuardService(path, guard=fresh)
    again.refresh()
    assert runs == []                                                # nothing encoded on open
    assert all(s in emb._cache for s in subjects)
    got = emb.encode(subjects)
    assert runs == []                                                # the gate's subject vectors: cached
    monkeypatch.setattr(emb, "_cache", type(emb._cache)(maxsize=10))
    assert np.array_equal(got, emb.encode(subjects)) and runs == [subjects]   # encoded now: the same numbers
    again.close()


def test_a_changed_text_is_re_embedded(tmp_path, guard):
    path = tmp_path / "s.sqlite"
    svc = GuardService(path, guard=guard)
    svc.ingest([Claim(text="Backups run nightly.", id="fact-1")])
    svc.refresh()
    old = sqlite3.connect(path).execute("SELECT text_hash FROM embeddings WHERE claim_id='fact-1'").fetchone()[0]
    svc.ingest([Claim(text="Backups run every six hours.", id="fact-1")])
    svc.refresh()
    svc.close()
    fresh = GuardService(path, guard=guard)
    fresh.refresh()
    new = sqlite3.connect(path).execute("SELECT text_hash FROM embeddings WHERE claim_id='fact-1'").fetchone()[0]
    assert new != old
    fresh.close()


def test_the_cache_write_gives_way_to_a_writer(tmp_path):
    from guard.store import ClaimStore
    store = ClaimStore(tmp_path / "s.sqlite")
    other = sqlite3.connect(tmp_path / "s.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")                                 # another process holds the write lock
    try:
        assert store.put_embeddings([("c1", "m", "h", b"\x00\x00")]) is False
    finally:
        other.execute("ROLLBACK")
    assert store.put_embeddings([("c1", "m", "h", b"\x00\x00")]) is True
    assert store.embeddings(["c1", "c2"], "m") == {"c1": ("h", b"\x00\x00")}


def test_priming_more_vectors_than_the_cache_holds_keeps_them_all(guard):
    """A store's claims and subjects are primed for the gate; a cache smaller than the store must
    grow to hold them rather than evict the first half while priming the second."""
    from guard.embed import Embedder
    e = Embedder(cache_size=4)
    texts = [f"setting {i} is on" for i in range(10)]
    vecs = [np.full(e.dimension, i / 10, dtype=np.float32) for i in range(10)]
    e.prime(texts[:3], vecs[:3])
    e.prime(texts, vecs)
    assert all(t in e._cache for t in texts)
    got = e.encode(texts)
    assert got.dtype == np.float32 and np.array_equal(got[7], vecs[7].astype(np.float16).astype(np.float32))


def test_vectors_of_other_weights_in_a_same_named_folder_are_not_read_back(tmp_path):
    """Stored vectors were keyed by the bi-encoder folder's name and dimension: another model in a
    folder of the same name (a fine-tuned copy, a newer package) read the first one's vectors back.
    The key now carries the weights' digest, and a claim keeps one vector per kind and model name
    (an upgrade's and the old bare-name rows go)."""
    import shutil

    from safetensors.torch import load_file, save_file

    from guard.embed import Embedder, default_embedder_path
    from guard.store import ClaimStore
    from guard.stored import stored_vectors
    src = default_embedder_path()
    a, b = tmp_path / "a" / "all-MiniLM-L6-v2", tmp_path / "b" / "all-MiniLM-L6-v2"
    for d in (a, b):
        shutil.copytree(src, d, ignore=shutil.ignore_patterns("onnx", "*.onnx"))
    w = load_file(str(b / "model.safetensors"))
    k = next(k for k in w if "layer.2.attention.self.query.weight" in k)
    w[k] = w[k] * 0.5
    save_file(w, str(b / "model.safetensors"), metadata={"format": "pt"})
    ea, eb = Embedder(str(a)), Embedder(str(b))
    assert ea.name == eb.name and ea.cache_key != eb.cache_key
    store = ClaimStore(tmp_path / "s.sqlite")
    claims = [Claim(text="Backups run nightly.", id="c1"), Claim(text="The API listens on port 8443.", id="c2")]
    store.put_embeddings([("c1", ea.name, "stale", b"\x00" * 768)])       # a row from before weights were digested
    va = stored_vectors(store, claims, ea)
    vb = stored_vectors(store, claims, eb)
    assert np.array_equal(np.stack(vb), eb.encode([c.text for c in claims]))
    assert not np.allclose(np.stack(va), np.stack(vb), atol=1e-3)
    models = store.db.execute("SELECT claim_id, model FROM embeddings ORDER BY claim_id").fetchall()
    assert [tuple(r) for r in models] == [("c1", eb.cache_key), ("c2", eb.cache_key)]
    store.close()


def test_a_vector_and_the_pruning_of_its_predecessor_commit_in_one_transaction(tmp_path):
    """The new vector and the removal of the claim's older same-named vector ran in two transactions:
    a reader between them saw both, and a busy store could keep the insert and skip the pruning."""
    from guard.store import ClaimStore
    store = ClaimStore(tmp_path / "s.sqlite")
    store.put_embeddings([("c1", "mini", "h0", b"\x00\x00")])             # a bare-name row from before digests
    seen: list[str] = []
    store.db.set_trace_callback(seen.append)
    assert store.put_embeddings([("c1", "mini@abc", "h1", b"\x01\x00")], replaces=("mini", "")) is True
    store.db.set_trace_callback(None)
    verbs = [s.split()[0].upper() for s in seen if not s.upper().startswith("PRAGMA")]
    assert verbs.count("BEGIN") == 1 and verbs.count("COMMIT") == 1
    assert verbs.index("BEGIN") < verbs.index("INSERT") < verbs.index("DELETE") < verbs.index("COMMIT")
    rows = store.db.execute("SELECT model FROM embeddings WHERE claim_id='c1'").fetchall()
    assert [r[0] for r in rows] == ["mini@abc"]
    store.close()


def test_embedding_a_store_of_ingested_facts_shows_its_progress(tmp_path, guard, monkeypatch, capsys):
    """The first guarded write into a store of ingested facts encodes every claim and its subject (45 s for
    20,000 here) and said nothing while it did. On a terminal it now shows a bar for each; the vectors are
    the ones encoded in one call (to float16, as stored)."""
    from guard import progress, stored
    monkeypatch.setattr(progress, "shown", lambda: True)
    monkeypatch.setattr(stored, "SHOW_PROGRESS_FROM", 20)
    texts = [f"The svc-{i}-api listens on port {8000 + i}." for i in range(60)]
    svc = GuardService(tmp_path / "s.sqlite", guard=guard)
    svc.ingest([Claim(text=t) for t in texts])
    capsys.readouterr()
    probe = Claim(text="The svc-3-api listens on port 9443.")
    assert any(c.text == texts[3] for c, _ in svc.candidates(guard.normalize(probe.text), probe))
    err = capsys.readouterr().err
    assert "embedding the store's claims (once; kept in the store)" in err and "60/60" in err, err
    assert "embedding the store's subjects" in err
    kept = stored.stored_vectors(svc.store, svc.list(), guard.nli_gate.embedder)     # read back from the store
    guard.nli_gate.embedder._cache.clear()                       # encoded afresh, in one call
    fresh = guard.nli_gate.embedder.encode([c.text for c in svc.list()])
    assert np.abs(np.stack(kept) - fresh).max() < 2e-3
    svc.close()


def test_a_guarding_service_embeds_ingested_facts_in_the_ingest_not_the_next_write(tmp_path, guard, monkeypatch):
    """The HTTP server's view is loaded at start-up; a POST /ingest of 5,000 facts left their embedding to the
    next POST /claims, which took 24 s — past an agent's timeout. The ingest now takes them into the view."""
    svc = GuardService(tmp_path / "s.sqlite", guard=guard)
    svc.refresh()                                                   # as the server does before /ready
    svc.ingest([Claim(text=f"The svc-{i}-api listens on port {8000 + i}.") for i in range(30)])
    calls = []
    real = guard.nli_gate.embedder.encode
    monkeypatch.setattr(guard.nli_gate.embedder, "encode", lambda texts, **kw: calls.append(list(texts)) or real(texts, **kw))
    res = svc.remember("The svc-3-api listens on port 9443.")
    assert not res.stored and res.decision.conflicts[0].claim_text == "The svc-3-api listens on port 8003."
    assert all("svc-3-api listens on port 8003" not in t for batch in calls for t in batch)    # embedded already
    svc.close()
    cold = GuardService(tmp_path / "t.sqlite", guard=Guard(GuardConfig(stages=("structural",))))   # `guard ingest`
    assert cold.ingest([Claim(text="Backups run daily.")]) == 1 and cold._index is None                # no view made
    cold.close()


def test_a_progress_bar_draws_its_last_state_however_fast_the_work(monkeypatch, capsys):
    """tqdm draws an update only 0.1 s after the one before, so a bar over work quicker than that closed without
    ever showing "60/60" — the store-embedding test above failed on it in one CI run out of three."""
    from guard import progress
    monkeypatch.setattr(progress, "shown", lambda: True)
    assert [len(p) for p in progress.chunks(list(range(60)), 25, "quick work", unit="item")] == [25, 25, 10]
    assert "60/60" in capsys.readouterr().err
