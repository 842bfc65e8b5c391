"""NLI scores persist in the claim store: a later write in a fresh process (here: a fresh Guard)
does not score again a pair an earlier write scored, and gets the same decision. The real
cross-encoder and a real SQLite file."""
import sqlite3

import numpy as np
import pytest

from guard.nli.score_cache import StoreScoreCache
from guard.pipeline import Guard, GuardConfig
from guard.service import GuardService
from guard.store import ClaimStore

EXISTING = "Contractors must not have production database access."
INCOMING = "Contractors on the data team can query the production database directly."


def fresh_guard() -> Guard:
    g = Guard(GuardConfig())
    if g.nli_gate is None:
        pytest.skip("the accurate profile's NLI model is not installed")
    return g


def count_model_calls(guard, monkeypatch) -> list:
    calls = []
    scorer = guard.nli_gate.scorer
    real = scorer._logits
    monkeypatch.setattr(scorer, "_logits", lambda pairs, *a: calls.append(len(pairs)) or real(pairs, *a))
    return calls


def test_a_second_process_reuses_the_stored_scores_and_decides_the_same(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite"
    first = GuardService(path, guard=fresh_guard())
    assert first.remember(EXISTING).stored
    d1 = first.check(INCOMING)
    first.close()
    n = sqlite3.connect(path).execute("SELECT COUNT(*), COUNT(DISTINCT model) FROM nli_scores").fetchone()
    assert n[0] >= 2 and n[1] == 1            # both directions, one model fingerprint

    g2 = fresh_guard()
    second = GuardService(path, guard=g2)
    calls = count_model_calls(g2, monkeypatch)
    d2 = second.check(INCOMING)
    assert calls == []                         # nothing scored again
    assert d2.tier == d1.tier
    p1 = [j.nli.p_contradiction for j in d1.judgements if j.nli]
    p2 = [j.nli.p_contradiction for j in d2.judgements if j.nli]
    assert p1 and np.allclose(p1, p2, atol=1e-5)
    second.close()


def test_damaged_rows_and_another_backend_are_misses(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite"
    g = fresh_guard()
    svc = GuardService(path, guard=g)
    svc.remember(EXISTING)
    svc.check(INCOMING)
    svc.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE nli_scores SET logits = ?", (np.array([np.nan, 1, 2], dtype=np.float32).tobytes(),))
    db.commit()
    g2 = fresh_guard()
    svc2 = GuardService(path, guard=g2)
    calls = count_model_calls(g2, monkeypatch)
    d = svc2.check(INCOMING)
    assert calls and all(np.isfinite(j.nli.p_contradiction) for j in d.judgements if j.nli)
    fp = g2.nli_gate.scorer.fingerprint
    g2.nli_gate.scorer.backend, g2.nli_gate.scorer._fingerprint = "another backend", None
    assert g2.nli_gate.scorer.fingerprint != fp
    svc2.close()


@pytest.mark.parametrize("blob", [b"\x01", b"\x00" * 5, np.array([1, 2], dtype=np.float32).tobytes(), b""],
                         ids=["one-byte", "five-bytes", "two-logits", "empty"])
def test_rows_that_are_not_whole_logits_are_misses(tmp_path, monkeypatch, blob):
    """A row of a byte count that is not whole float32s ended every write of the pair in "ValueError:
    buffer size must be a multiple of element size" (exit 1), and one of another length was taken as
    logits of that length; both are misses now, scored again."""
    path = tmp_path / "s.sqlite"
    svc = GuardService(path, guard=fresh_guard())
    svc.remember(EXISTING)
    want = svc.check(INCOMING)
    svc.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE nli_scores SET logits = ?", (blob,))
    db.commit()
    g2 = fresh_guard()
    svc2 = GuardService(path, guard=g2)
    calls = count_model_calls(g2, monkeypatch)
    d = svc2.check(INCOMING)
    assert calls and d.tier == want.tier
    svc2.close()


def test_the_cache_is_bounded_and_gives_way_to_a_writer(tmp_path):
    store = ClaimStore(tmp_path / "s.sqlite")
    rows = [("m", f"k{i}", np.zeros(3, np.float32).tobytes()) for i in range(50)]
    assert store.put_nli_logits(rows, limit=20)
    assert store.db.execute("SELECT COUNT(*) FROM nli_scores").fetchone()[0] == 20
    cache = StoreScoreCache(store)
    assert set(cache.get("m", [f"k{i}" for i in range(50)])) == {f"k{i}" for i in range(30, 50)}   # newest kept
    other = sqlite3.connect(tmp_path / "s.sqlite", isolation_level=None, timeout=0.1)
    other.execute("BEGIN IMMEDIATE")           # another process holds the write lock
    store.db.execute("PRAGMA busy_timeout = 100")
    assert store.put_nli_logits([("m", "late", np.zeros(3, np.float32).tobytes())]) is False   # skipped, no error
    other.execute("ROLLBACK")
    cache.put("m", {"later": np.ones(3)})
    assert np.allclose(cache.get("m", ["later"])["later"], 1.0)
    store.close()
