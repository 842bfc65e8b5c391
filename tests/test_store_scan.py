"""Scanning a claim store reuses what the store holds — the norms its writes stored, its cached
vectors and NLI scores — and finds what a scan of the same claims as a list finds. Real spaCy,
the real cross-encoder and bi-encoder, real SQLite files."""
import hashlib
import json
import sqlite3
import subprocess
import sys

import pytest

from guard.pipeline import Guard, GuardConfig
from guard.scan import ScanConfig, Scanner, load_claims
from guard.service import GuardService

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "claims.jsonl"


def accurate_guard() -> Guard:
    g = Guard(GuardConfig())
    if g.nli_gate is None or g.nli_gate.embedder is None:
        pytest.skip("the accurate profile's models are not installed")
    return g


@pytest.fixture(scope="module")
def example_store(tmp_path_factory):
    """The example store ingested through the service (norms stored, vectors cached on open)."""
    path = tmp_path_factory.mktemp("store") / "s.sqlite"
    claims, _ = load_claims(EXAMPLES)
    svc = GuardService(path, guard=accurate_guard())
    svc.ingest(claims)
    svc.refresh()
    svc.close()
    return path, claims


def key(report) -> set:
    return {(f["existing_id"], f["incoming_id"], f["tier"]) for f in report.findings}


def claims_digest(path) -> str:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT * FROM claims ORDER BY id").fetchall()
    db.close()
    return hashlib.sha1(repr(rows).encode()).hexdigest()


def test_a_store_scan_finds_what_a_list_scan_finds_and_reads_again_nothing(example_store, monkeypatch):
    path, claims = example_store
    cfg = ScanConfig(neighbours=5, progress=False, processes=1)
    listed = Scanner(accurate_guard(), cfg).scan(claims)
    assert any(f["tier"] == "block" for f in listed.findings)

    g = accurate_guard()                                   # a fresh process's guard: empty memory caches
    normalised, embedded, scored = [], [], []
    real_norm, real_enc, real_logits = g.normalize_claims, g.nli_gate.embedder.encode, g.nli_gate.scorer._logits
    monkeypatch.setattr(g, "normalize_claims", lambda cs, **kw: normalised.append(len(cs)) or real_norm(cs, **kw))
    monkeypatch.setattr(g.nli_gate.embedder, "encode", lambda ts, **kw: embedded.append(list(ts)) or real_enc(ts, **kw))
    monkeypatch.setattr(g.nli_gate.scorer, "_logits", lambda ps, *a: scored.append(len(ps)) or real_logits(ps, *a))
    before = claims_digest(path)
    first = Scanner(g, cfg).scan_store(path)
    assert key(first) == key(listed)
    # the gate's text similarities came from the store's vectors, which are the numbers encode gives
    p = lambda rep: {(f["existing_id"], f["incoming_id"]): f["nli"]["p_contradiction"] for f in rep.findings if "nli" in f}  # noqa: E731
    assert p(listed) and p(listed) == p(first)
    assert normalised == []                                # every norm was the store's
    texts = {c.text for c in claims}
    assert not any(set(batch) >= texts for batch in embedded)     # the claims were not embedded again
    assert sum(scored) > 0 and "load" in first.stage_seconds
    n_scores = sqlite3.connect(path).execute("SELECT COUNT(*) FROM nli_scores").fetchone()[0]
    assert n_scores >= sum(scored)                          # the scan's scores went into the store

    g2 = accurate_guard()
    calls = []
    real2 = g2.nli_gate.scorer._logits
    monkeypatch.setattr(g2.nli_gate.scorer, "_logits", lambda ps, *a: calls.append(len(ps)) or real2(ps, *a))
    bi = []
    real_run = g2.nli_gate.embedder._ort.run
    monkeypatch.setattr(g2.nli_gate.embedder._ort, "run", lambda xs, *a, **kw: bi.extend(xs) or real_run(xs, *a, **kw))
    again = Scanner(g2, cfg).scan_store(path)
    assert calls == []                                     # every NLI score came from the store
    # and every vector, the subjects' too: what is encoded again is only the predicates (each text
    # without its subject) of the pairs the gate would block, which its predicate floor reads
    gated = [f for f in again.findings if f.get("nli") and (f["tier"] == "block" or "predicate floor" in f["reason"])]
    assert not set(bi) & texts and len(bi) <= 2 * len(gated)
    assert key(again) == key(listed)
    assert [f.get("nli", {}).get("p_contradiction") for f in again.findings] == \
           [f.get("nli", {}).get("p_contradiction") for f in first.findings]
    assert claims_digest(path) == before                   # the claims were only read
    assert g2.score_cache is None                          # the store's cache is detached after the scan


@pytest.mark.parametrize("stamp", [{"normalizer": "normalizer.elsewhere.v0", "build": "normalizer.elsewhere.v0@1"},
                                   {"build": "normalizer.rules.v1@000000000000"}], ids=["other-normalizer", "other-build"])
def test_a_norm_of_another_normalizer_is_read_again(tmp_path, fast_guard, monkeypatch, stamp):
    path = tmp_path / "s.sqlite"
    texts = ["Backups run every 6 hours.", "Backups run every 24 hours.", "The docs site is built with MkDocs."]
    from guard.claims import Claim
    svc = GuardService(path, guard=fast_guard)
    svc.ingest([Claim(text=t, id=f"c{i}") for i, t in enumerate(texts)])
    svc.close()
    db = sqlite3.connect(path)
    norm = json.loads(db.execute("SELECT norm FROM claims WHERE id='c1'").fetchone()[0])
    db.execute("UPDATE claims SET norm=? WHERE id='c1'", (json.dumps({**norm, **stamp}),))
    db.commit()
    db.close()
    seen = []
    real = fast_guard.normalize_claims
    monkeypatch.setattr(fast_guard, "normalize_claims", lambda cs, **kw: seen.append([c.id for c in cs]) or real(cs, **kw))
    rep = Scanner(fast_guard, ScanConfig(neighbours=0, progress=False, processes=1)).scan_store(path)
    assert seen == [["c1"]]
    assert {(f["existing_id"], f["incoming_id"], f["tier"]) for f in rep.findings} == {("c0", "c1", "block")}


def test_the_cli_scans_a_store_twice_with_the_same_report_and_refuses_an_empty_one(example_store, tmp_path):
    path, _ = example_store
    env_run = lambda *args: subprocess.run([sys.executable, "-m", "guard.cli", "--quiet", *args],  # noqa: E731
                                           cwd=ROOT, capture_output=True, text=True,
                                           env={**__import__("os").environ, "HF_HUB_OFFLINE": "1"})
    outs = []
    for k in range(2):
        out = tmp_path / f"r{k}.jsonl"
        r = env_run("scan", str(path), "--out", str(out), "--fail-on", "never")
        assert r.returncode == 0, r.stderr[-800:]
        outs.append([(d["existing_id"], d["incoming_id"], d["tier"]) for d in map(json.loads, out.read_text().splitlines())])
    assert outs[0] == outs[1] and outs[0]
    empty = tmp_path / "empty.sqlite"
    from guard.store import ClaimStore
    ClaimStore(empty).close()
    r = env_run("scan", str(empty), "--out", str(tmp_path / "e.jsonl"))
    assert r.returncode != 0 and "holds no claims" in r.stderr and "Traceback" not in r.stderr


def test_a_scan_of_an_open_store_leaves_it_open_with_its_own_score_cache(tmp_path):
    """What the server's POST /scan does: scan the service's own store, then go on writing."""
    g = accurate_guard()
    svc = GuardService(tmp_path / "s.sqlite", guard=g)
    assert svc.remember("Prod deploys need two approvals.").stored
    cache = g.score_cache
    assert getattr(cache, "store", None) is svc.store
    rep = Scanner(g, ScanConfig(neighbours=5, progress=False, processes=1)).scan_store(svc.store)
    assert rep.claims == 1 and g.score_cache is cache
    assert not svc.remember("Prod deploys need one approval.").stored           # still guarded, still open
    assert svc.remember("The docs site is built with MkDocs.").stored
    svc.close()


def test_damaged_cached_vectors_are_misses(example_store):
    """A truncated or non-finite vector in the store's embedding cache is computed again, never a
    failed scan; the findings stay those of the list scan."""
    import shutil
    path, claims = example_store
    copy = path.parent / "damaged.sqlite"
    shutil.copy(path, copy)
    db = sqlite3.connect(copy)
    ids = [r[0] for r in db.execute("SELECT claim_id FROM embeddings ORDER BY claim_id LIMIT 2")]
    db.execute("UPDATE embeddings SET vec=? WHERE claim_id=?", (b"\x00\x01\x02", ids[0]))
    db.execute("UPDATE embeddings SET vec=? WHERE claim_id=?", (b"\x00\x7c" * 384, ids[1]))     # float16 inf
    db.commit()
    db.close()
    cfg = ScanConfig(neighbours=5, progress=False, processes=1)
    rep = Scanner(accurate_guard(), cfg).scan_store(copy)
    assert key(rep) == key(Scanner(accurate_guard(), cfg).scan_store(path))
    db = sqlite3.connect(copy)
    assert all(len(v) == 768 for (v,) in db.execute("SELECT vec FROM embeddings WHERE claim_id IN (?, ?)", ids))
    db.close()


def test_an_encoded_vector_is_the_one_a_store_gives_back():
    """One precision everywhere: what ``encode`` returns survives the store's float16 unchanged, so a
    write, a list scan and a store scan see the same numbers."""
    import numpy as np
    emb = accurate_guard().nli_gate.embedder
    v = emb.encode(["Backups run every 6 hours.", "The docs site is built with MkDocs."])
    assert v.dtype == np.float32 and np.array_equal(v, v.astype(np.float16).astype(np.float32))
    assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=2e-3)


def test_a_sqlite_file_that_is_not_a_claim_store_is_refused_and_left_untouched(tmp_path):
    other = tmp_path / "app.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO users (name) VALUES ('ada')")
    db.commit()
    db.close()
    before = other.read_bytes()
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", "scan", str(other), "--out",
                        str(tmp_path / "r.jsonl")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "not a claim store" in r.stderr and "Traceback" not in r.stderr
    assert other.read_bytes() == before
    with pytest.raises(Exception, match="not a claim store"):
        load_claims(other)


def test_a_recorded_exception_is_reported_and_does_not_fail_the_gate(tmp_path, fast_guard):
    """force is a documented way to resolve a block, but the scan reported the forced pair as an
    open block for good, so `guard scan --fail-on block` in CI could never pass again. The finding
    stays (its tier is the guard's), marked with who forced it and why; once the overridden fact
    is revised to say something else, the exception no longer covers it."""
    from guard.claims import Claim
    path = tmp_path / "s.sqlite"
    svc = GuardService(path, guard=fast_guard)
    svc.ingest([Claim.from_dict({"id": "port", "text": "The API listens on port 8443."})])
    forced = svc.force("The API listens on port 9000.", reason="migration window").claim
    assert svc.remember("Backups run every 6 hours.").stored
    svc.close()

    def scan():
        r = subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", "scan", str(path),
                            "--out", str(tmp_path / "r.jsonl"), "--fail-on", "block"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
        return r, [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]

    r, found = scan()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 block, 0 warn (1 of them excepted by a forced write)" in r.stdout
    assert [(f["tier"], f["excepted"]["by"], f["excepted"]["reason"]) for f in found] == \
        [("block", forced.id, "migration window")]
    report = Scanner(fast_guard, ScanConfig(progress=False)).scan_store(path)
    assert report.summary["excepted"] == 1 and report.open_findings == []
    import csv

    from guard.scan import write_report
    with write_report(report, tmp_path / "r.csv", "csv").open() as fh:
        [row] = list(csv.DictReader(fh))
    assert row["excepted"].startswith(f"{forced.id} forced (") and row["excepted"].endswith("): migration window")

    svc = GuardService(path, guard=fast_guard)
    svc.ingest([Claim.from_dict({"id": "port", "text": "The API listens on port 8444."})])
    svc.close()
    r, found = scan()
    assert r.returncode == 3 and [("excepted" in f) for f in found] == [False]
