"""A stored norm is reused only under the normalizer build that read it (``guard.normalize.build``).

Before, a store kept whatever reading the release that wrote a claim gave it, and every later
release reused it because the normalizer's *name* had not changed: after an upgrade "`page`
defaults to 0" (read by the previous rules.v2 as subject "default") let "`page` defaults to 1" in,
which a fresh store blocks. Real spaCy, real SQLite files."""
import hashlib
import json
import sqlite3

import pytest

from guard.claims import Claim, Norm, Scope, Window
from guard.pipeline import Guard, GuardConfig
from guard.service import GuardService
from guard.store import ClaimStore
from guard.stored import norm_key, stored_norms

PAGE_0 = "`page` defaults to 0 when it is not specified."
PAGE_1 = "`page` defaults to 1 when it is not specified."
# how the release before commit bc12b14 read PAGE_0 ("defaults" was not yet the verb): checked
# against that commit's rules.v2 in a worktree
OLD_READING = {"subject": "default", "object": "other",
               "values": [["literal", "page", None], ["number", "0", {"op": "eq", "number": 0.0, "unit": ""}]]}


@pytest.fixture(scope="module")
def v2_guard(normalizer_v2):
    return Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2)


def counting(monkeypatch, guard) -> list:
    seen: list = []
    real = guard.normalize_claims
    monkeypatch.setattr(guard, "normalize_claims", lambda cs, **kw: seen.append([c.id for c in cs]) or real(cs, **kw))
    return seen


def as_older_release(path, claim_id: str, stamp: str | None) -> None:
    """Rewrite a claim's stored norm as an older release left it: its reading, and no build stamp
    (every store written before builds were recorded) or another build's."""
    db = sqlite3.connect(path)
    norm = json.loads(db.execute("SELECT norm FROM claims WHERE id=?", (claim_id,)).fetchone()[0])
    norm = {**norm, **OLD_READING}
    norm.pop("build", None)
    if stamp:
        norm["build"] = stamp
    db.execute("UPDATE claims SET norm=? WHERE id=?", (json.dumps(norm), claim_id))
    db.commit()
    db.close()


def older_store(tmp_path, guard):
    """A store holding PAGE_0 as reference fact "r1", read as an older release read it."""
    path = tmp_path / "s.sqlite"
    svc = GuardService(path, guard=guard)
    svc.ingest([Claim(text=PAGE_0, id="r1")])
    svc.close()
    as_older_release(path, "r1", None)
    return path


def claims_digest(path) -> str:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT * FROM claims ORDER BY id").fetchall()
    db.close()
    return hashlib.sha1(repr(rows).encode()).hexdigest()


def test_builds_name_the_normalizer_and_change_with_its_code(normalizer, normalizer_v2, v2_guard, monkeypatch):
    from guard.normalize import build
    assert normalizer.build.startswith("normalizer.rules.v1@") and normalizer_v2.build.startswith("normalizer.rules.v2@")
    assert normalizer.build != normalizer_v2.build
    assert v2_guard.normalizer.build == normalizer_v2.build          # the fail-open wrapper passes it on
    same = build.build_id("normalizer.rules.v2", "en", "core_web_sm", "3.8.0")
    assert same == build.build_id("normalizer.rules.v2", "en", "core_web_sm", "3.8.0")
    assert same != build.build_id("normalizer.rules.v2", "en", "core_web_sm", "3.8.1")   # another spaCy model
    monkeypatch.setattr(build, "code_digest", lambda: "edited")
    assert same != build.build_id("normalizer.rules.v2", "en", "core_web_sm", "3.8.0")   # other rules


def test_the_code_digest_covers_the_normalizers_sources():
    from guard.normalize import build
    names = {p.name for pattern in build._SOURCES for p in build._PACKAGE.glob(pattern)}
    assert {"rules.py", "rules_v2.py", "lexicon.py", "typed_values.py", "values.py", "llm.py", "claims.py"} <= names
    assert len(build.code_digest()) == 40


def test_a_write_stamps_its_norm_with_the_build(tmp_path, v2_guard):
    svc = GuardService(tmp_path / "s.sqlite", guard=v2_guard)
    c = svc.remember(PAGE_0).claim
    svc.close()
    row = ClaimStore(tmp_path / "s.sqlite").row(c.id)
    assert json.loads(row["norm"])["build"] == v2_guard.normalizer.build
    assert ClaimStore.row_norm(row, v2_guard.normalizer.build).subject == "page"
    assert ClaimStore.row_norm(row, "normalizer.rules.v2@000000000000") is None


@pytest.mark.parametrize("stamp", [None, "normalizer.rules.v2@000000000000"], ids=["unstamped", "older-build"])
def test_an_upgraded_store_reads_its_claims_again_once_and_blocks_what_a_fresh_store_blocks(
        tmp_path, v2_guard, monkeypatch, stamp):
    path = tmp_path / "s.sqlite"
    svc = GuardService(path, guard=v2_guard)
    first = svc.remember(PAGE_0).claim
    svc.close()
    as_older_release(path, first.id, stamp)
    before = claims_digest(path)

    seen = counting(monkeypatch, v2_guard)
    svc = GuardService(path, guard=v2_guard)                 # the new release opens the store
    res = svc.remember(PAGE_1)
    svc.close()
    assert not res.stored and res.decision.tier.value == "block"      # as in a fresh store
    assert "'page' is 0 in one claim and 1 in the other" in res.decision.reasons[0]
    assert seen == [[first.id]]                              # read again, once
    assert claims_digest(path) == before                     # the claim's own row is history: untouched
    db = sqlite3.connect(path)
    assert db.execute("SELECT claim_id, build FROM norms").fetchall() == [(first.id, v2_guard.normalizer.build)]
    db.close()

    svc = GuardService(path, guard=v2_guard)                 # the next open finds the cached reading
    assert not svc.remember(PAGE_1).stored
    svc.close()
    assert seen == [[first.id]]


def test_two_normalizers_keep_their_own_readings_of_one_store(tmp_path, fast_guard, v2_guard, monkeypatch):
    from guard.scan import ScanConfig, Scanner
    path = tmp_path / "s.sqlite"
    texts = ["Backups run every 6 hours.", "Backups run every 24 hours.", PAGE_0]
    svc = GuardService(path, guard=v2_guard)
    svc.ingest([Claim(text=t, id=f"c{i}") for i, t in enumerate(texts)])
    svc.close()
    cfg = ScanConfig(neighbours=0, progress=False, processes=1)
    seen_v1, seen_v2 = counting(monkeypatch, fast_guard), counting(monkeypatch, v2_guard)
    for _ in range(2):
        for g in (fast_guard, v2_guard):
            rep = Scanner(g, cfg).scan_store(path)
            assert ("c0", "c1", "block") in {(f["existing_id"], f["incoming_id"], f["tier"]) for f in rep.findings}
    assert seen_v1 == [["c0", "c1", "c2"]]                  # v1 read the store once, v2 never (it wrote it)
    assert seen_v2 == []


def test_an_upgrade_replaces_its_predecessors_cached_readings(tmp_path):
    store = ClaimStore(tmp_path / "s.sqlite")
    n = Norm.unknown(Scope(), Window())
    assert store.put_norms("normalizer.rules.v2@aaa", [("c1", "k", n), ("c2", "k", n)])
    assert store.put_norms("normalizer.rules.v1@aaa", [("c1", "k", n)])
    assert store.put_norms("normalizer.rules.v2@bbb", [("c1", "k", n)])
    rows = sorted(store.db.execute("SELECT claim_id, build FROM norms").fetchall(), key=tuple)
    assert [tuple(r) for r in rows] == [("c1", "normalizer.rules.v1@aaa"), ("c1", "normalizer.rules.v2@bbb")]
    store.close()


def test_a_cached_reading_of_other_words_or_scope_is_not_reused(tmp_path, v2_guard, monkeypatch):
    """An older release may revise a claim (ingest) after the new one cached its reading: the cache
    is keyed by what was read, so the revised claim is read again."""
    store = ClaimStore(older_store(tmp_path, v2_guard))
    seen = counting(monkeypatch, v2_guard)
    stored_norms(store, store.active_rows(), v2_guard)
    moved = Claim(text=PAGE_0, id="r1", scope=Scope(env="prod"))
    assert norm_key(moved) != norm_key(store.get("r1"))
    with store.transaction():
        store.revise(moved, None, build="normalizer.rules.v2@000000000000")
    pairs = stored_norms(store, store.active_rows(), v2_guard)
    assert seen == [["r1"], ["r1"]] and pairs[0][1].scope == Scope(env="prod")
    store.close()


def test_a_read_only_store_still_opens_and_reads_its_claims(tmp_path, v2_guard):
    ro = ClaimStore(older_store(tmp_path, v2_guard))
    ro.db.execute("PRAGMA query_only=ON")                      # every write fails, as on read-only media
    pairs = stored_norms(ro, ro.active_rows(), v2_guard)
    assert pairs[0][1].subject == "page"
    assert not ro.put_norms(v2_guard.normalizer.build, [("r1", "k", pairs[0][1])])
    ro.close()


def test_pool_workers_reading_with_another_build_are_not_trusted(normalizer_v2, caplog):
    """A scan normalises big batches in worker processes, which build the normalizer by name; a
    guard whose normalizer was built otherwise would have cached the workers' readings under its
    own build. The workers now say which build read, and another build means normalising here."""
    import logging
    g = Guard(GuardConfig(stages=("structural",)), normalizer=normalizer_v2)
    claims = [Claim(text=f"The svc-{i} listens on port {8000 + i}.", id=f"c{i}") for i in range(24)]
    here = [g.normalizer.normalize(c.text, c.scope, c.window) for c in claims]
    with caplog.at_level(logging.WARNING, logger="guard.pipeline"):
        assert g.normalize_claims(claims, processes=2, min_pool=10) == here
        assert "pool failed" not in caplog.text                    # the same build: the pool's readings
        g.normalizer.build = "normalizer.rules.v2@customised"      # e.g. another spaCy model given by hand
        assert g.normalize_claims(claims, processes=2, min_pool=10) == here
    assert "the pool's workers read with normalizer.rules.v2@" in caplog.text


def test_an_ingested_facts_id_and_its_norm_key_digest_the_same_reading():
    """Both say "the same claim" by text, scope and window; they were two hand-written digests that
    differed on non-ASCII text. Ingested ids must not move: the id is pinned here."""
    from guard.claims import read_digest, reference_id
    c = Claim(text="Der Cache läuft auf Port 6379.", scope=Scope(env="prod"))
    assert reference_id(c) == "r_" + read_digest(c)[:12] and norm_key(c) == read_digest(c)[:16]
    assert reference_id(c) == "r_3a529176b563"
    assert norm_key(Claim(text=c.text, scope=Scope(env="dev"))) != norm_key(c)
