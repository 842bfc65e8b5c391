import json

import pytest

from guard.claims import Claim
from guard.scan import ScanConfig, Scanner, load_claims, write_report

from conftest import ROOT


def test_scan_of_the_example_store_finds_the_planted_conflicts(fast_guard, tmp_path):
    claims, skipped = load_claims(ROOT / "examples" / "claims.jsonl")
    assert len(claims) >= 180 and not skipped
    rep = Scanner(fast_guard, ScanConfig(neighbours=0, progress=False)).scan(claims)
    planted = {c.id for c in claims if (c.source or "").startswith("conflict:")}
    flagged = {f["incoming_id"] for f in rep.findings if f["tier"] == "block"} | \
              {f["existing_id"] for f in rep.findings if f["tier"] == "block"}
    assert len(planted & flagged) >= 0.8 * len(planted)
    disjoint = {c.id for c in claims if (c.source or "").startswith("disjoint:")}
    assert not disjoint & flagged
    assert rep.pairs_compared < len(claims) * (len(claims) - 1) // 2 / 10   # not N²
    out = write_report(rep, tmp_path / "r.jsonl", "jsonl")
    assert len(out.read_text().splitlines()) == len(rep.findings)


def test_blocking_matches_exhaustive_on_a_small_store(fast_guard):
    texts = ["Backups run every 6 hours.", "Backups run every 24 hours.", "Audit logs are retained for 365 days.",
             "Audit logs are retained for 30 days.", "Privileged containers are not allowed.",
             "Privileged containers are allowed.", "The docs site is built with MkDocs."]
    claims = [Claim(text=t, id=f"c{i}") for i, t in enumerate(texts)]
    key = lambda r: {(f["existing_id"], f["incoming_id"], f["tier"]) for f in r.findings}
    fast = Scanner(fast_guard, ScanConfig(neighbours=0, progress=False)).scan(claims)
    full = Scanner(fast_guard, ScanConfig(exhaustive=True, progress=False)).scan(claims)
    assert key(fast) == key(full) and len(key(full)) == 3


def test_a_normalizer_pool_gives_the_same_norms_as_one_process(fast_guard):
    """Two spawned whole-normalizer workers (what a big scan uses), repeated statements normalised
    once: every norm equal to the single-process one, in order."""
    from benchmarks.synth import make_store
    claims, _ = make_store(300, seed=3)
    claims = claims + claims[:50]                                   # restatements: deduplicated
    one = fast_guard.normalize_claims(claims)
    pooled = fast_guard.normalize_claims(claims, processes=2, min_pool=1)
    assert len(pooled) == len(claims)
    assert [repr(n) for n in pooled] == [repr(n) for n in one]


SCRIPT_WITHOUT_MAIN_GUARD = """
import pathlib, sys
with pathlib.Path(sys.argv[1]).open("a") as f:      # a side effect before the guard is called
    f.write("ran\\n")
from guard.claims import Claim
from guard.pipeline import Guard, GuardConfig
g = Guard(GuardConfig(stages=("structural",)))
norms = g.normalize_claims([Claim(text=f"Service number{i} listens on port {8000 + i}.") for i in range(60)],
                           processes=2, min_pool=10)
print(len(norms), norms[5].value, sys.modules["__main__"].__spec__ is None)
"""


@pytest.mark.parametrize("as_module", [False, True])
def test_a_script_without_a_main_guard_runs_once_when_the_pool_starts(tmp_path, as_module):
    """Spawned workers import the parent's ``__main__``: a script calling the guard at its top level
    (no ``if __name__ == "__main__":``) ran again in each worker — its file written three times, each
    worker's own pool failing. Real processes: the script, then its two workers."""
    import os
    import subprocess
    import sys
    (tmp_path / "unguarded.py").write_text(SCRIPT_WITHOUT_MAIN_GUARD)
    marker = tmp_path / "ran.txt"
    cmd = [sys.executable, "-m", "unguarded", str(marker)] if as_module else [sys.executable, "unguarded.py", str(marker)]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
                       env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert r.returncode == 0, r.stderr[-800:]
    assert marker.read_text() == "ran\n"
    assert r.stdout.split() == ["60", "8005", "False" if as_module else "True"]   # __main__ restored after
    assert "pool failed" not in r.stderr, r.stderr[-800:]


def test_the_pool_is_not_used_for_small_batches_or_llm_normalizers(fast_guard, monkeypatch):
    import guard.normalize.pool as pool
    called = []
    monkeypatch.setattr(pool, "normalize_in_pool", lambda *a, **k: called.append(1) or [])
    from benchmarks.synth import make_store
    claims, _ = make_store(50, seed=1)
    assert len(fast_guard.normalize_claims(claims, processes=2)) == 50 and not called     # under min_pool
    assert not pool.poolable("normalizer.llm.v1") and pool.poolable("normalizer.rules.v2")


def test_a_big_ingest_normalises_in_workers_and_reports_progress(fast_guard, tmp_path):
    """≥ 2,000 reference facts: normalised by the pool (same norms as one process), progress adds
    up to the batch, and the duplicate-id check stays linear (it was O(n²): 9 minutes at 100k)."""
    from benchmarks.synth import make_store
    from guard.claims import ClaimError
    from guard.service import POOL_MIN, GuardService
    claims, _ = make_store(POOL_MIN + 200, seed=3)
    svc = GuardService(tmp_path / "s.sqlite", guard=fast_guard)
    seen = []
    assert svc.ingest(claims, progress=seen.append) == len(claims)
    assert sum(seen) == len(claims) and len(seen) > 1
    rows = {r["id"]: svc.store.row_norm(r) for r in svc.store.active_rows()}
    sample = claims[::97]
    assert [repr(rows[c.id]) for c in sample] == [repr(n) for n in fast_guard.normalize_claims(sample)]
    from dataclasses import replace
    with pytest.raises(ClaimError, match="more than once with different content"):
        svc.ingest(claims[:5] + [replace(claims[0], text="Something else entirely.")])
    svc.close()


def test_a_name_cased_two_ways_is_one_bucket(fast_guard):
    """The comparator reads "StrictModes" and "strictmodes" as one subject; a scan that pairs by subject alone (no
    neighbours) must pair them too, or the block a write would give is never found."""
    texts = ["StrictModes must be enabled on every host.", "strictmodes must not be enabled on any host.",
             "The docs site is built with MkDocs."]
    claims = [Claim(text=t, id=f"c{i}") for i, t in enumerate(texts)]
    rep = Scanner(fast_guard, ScanConfig(neighbours=0, progress=False)).scan(claims)
    assert {(f["existing_id"], f["incoming_id"], f["tier"]) for f in rep.findings} == {("c0", "c1", "block")}


def test_a_paraphrased_contradiction_is_a_candidate_pair(fast_guard):
    """Two statements of one conflict in other words share no subject word and are only ~0.53–0.55
    alike to the bi-encoder; the scan's old neighbour floor (cosine ≥ 0.6) never paired them, so no
    stage could see them, while a write of either would have been checked against the other. The
    default candidate search (the write's) pairs them, among unrelated statements."""
    from guard.embed import Embedder
    texts = ["Laptops must use full-disk encryption.", "Unencrypted MacBooks are fine for the design team.",
             "Backups are kept for 30 days.", "We delete snapshots after a week.",
             "Customer data never leaves the EU.", "The cache listens on port 6379.",
             "Expense reports are due by the fifth of each month.", "Interns may not deploy to production."]
    claims = [Claim(text=t, id=f"c{i}") for i, t in enumerate(texts)]
    norms, vecs = fast_guard.normalize_claims(claims), Embedder().encode(texts)
    assert 0.5 <= float(vecs[0] @ vecs[1]) < 0.6 and 0.5 <= float(vecs[2] @ vecs[3]) < 0.6
    pairs, _ = Scanner(fast_guard, ScanConfig(progress=False)).candidate_pairs(claims, norms, {}, vecs)
    assert {(0, 1), (2, 3)} <= set(pairs)
    old, _ = Scanner(fast_guard, ScanConfig(neighbours=5, min_similarity=0.6, progress=False)).candidate_pairs(
        claims, norms, {}, vecs)
    assert not {(0, 1), (2, 3)} & set(old)


def test_a_scan_pairs_every_candidate_a_write_would_check(fast_guard):
    """For each claim of a store, what a write of it would be compared with (blocking keys and the
    bi-encoder neighbours, at the service's setting) is among the scan's candidate pairs: a scan
    does not miss what the guard checks at write time."""
    from guard.candidates import NEIGHBOURS, NEIGHBOUR_MIN_SIMILARITY, CandidateIndex
    from guard.embed import Embedder
    claims, _ = load_claims(ROOT / "examples" / "claims.jsonl")
    claims = claims[:80]
    norms, vecs = fast_guard.normalize_claims(claims), Embedder().encode([c.text for c in claims])
    pairs, _ = Scanner(fast_guard, ScanConfig(progress=False)).candidate_pairs(claims, norms, {}, vecs)
    scanned, total = set(pairs), 0
    for i, c in enumerate(claims):
        index = CandidateIndex()
        for j, (o, n) in enumerate(zip(claims, norms)):
            if j != i:
                index.add(o.id, n, vecs[j])
        pos = {o.id: j for j, o in enumerate(claims)}
        wanted = index.blocked(norms[i]) | set(index.neighbours(vecs[i], NEIGHBOURS, NEIGHBOUR_MIN_SIMILARITY))
        assert all((min(i, pos[w]), max(i, pos[w])) in scanned for w in wanted), c.text
        total += len(wanted)
    assert total > 20                   # the store's claims do have candidates to check


def test_a_synthetic_store_keeps_its_order_whatever_the_clock(fast_guard, tmp_path):
    """A store lists claims by created_at, then insertion, and a scan lets the earlier claim play
    "existing". Synthetic claims used to take their stamp from the clock, so the shuffled-in planted
    conflicts landed ahead of or behind others by where the second boundaries fell, and two builds
    of one 100k store scanned with different pair directions. Two lists made a second apart must be
    the same claims, and a real store must list them in the list's order."""
    import time
    from benchmarks.synth import make_store
    from guard.service import GuardService
    first, _ = make_store(120, seed=5)
    time.sleep(1.05)
    again, _ = make_store(120, seed=5)
    assert [c.to_dict() for c in first] == [c.to_dict() for c in again]
    svc = GuardService(tmp_path / "s.sqlite", guard=fast_guard)
    svc.ingest(first)
    assert [r["id"] for r in svc.store.active_rows()] == [c.id for c in first]
    svc.close()


def test_skipping_disjoint_scopes_changes_no_finding(fast_guard, monkeypatch):
    """A scan does not build verdicts for pairs whose scopes are disjoint (the comparator's first
    answer is coexist); judging every pair instead gives the very same findings."""
    import guard.pipeline as pipeline
    from benchmarks.synth import make_store
    claims, _ = make_store(400)
    assert len({c.scope.env for c in claims}) > 1 or len({c.scope.team for c in claims}) > 1
    key = lambda r: sorted((f["existing_id"], f["incoming_id"], f["tier"], f["reason"]) for f in r.findings)
    cfg = ScanConfig(neighbours=0, progress=False, batch_size=97)     # several chunks
    skipped = Scanner(fast_guard, cfg).scan(claims)
    monkeypatch.setattr(pipeline, "scopes_disjoint", lambda a, b: False)
    judged_all = Scanner(fast_guard, cfg).scan(claims)
    assert key(skipped) == key(judged_all) and skipped.findings
    assert skipped.pairs_compared == judged_all.pairs_compared


def test_torch_top_k_picks_the_same_neighbours_as_numpy(monkeypatch):
    """The big-matrix path (torch's top-k) and numpy's argpartition give the same neighbour pairs,
    duplicates (equal vectors) included."""
    pytest.importorskip("torch")
    import numpy as np

    import guard.candidates as cand
    rng = np.random.default_rng(3)
    m = rng.normal(size=(600, 16)).astype(np.float32)
    m[300:320] = m[5]                                  # a block of exact duplicates
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    monkeypatch.setattr(cand, "TORCH_TOPK_MIN", 10 ** 9)
    by_numpy = cand.neighbour_rows(m, 0, len(m), 5, 0.1)
    monkeypatch.setattr(cand, "TORCH_TOPK_MIN", 1)
    by_torch = cand.neighbour_rows(m, 0, len(m), 5, 0.1)
    assert sorted(by_numpy) == sorted(by_torch) and len(by_numpy) > 1000


def test_a_write_skips_scope_disjoint_candidates_without_changing_its_decision(fast_guard, monkeypatch):
    import guard.pipeline as pipeline
    from benchmarks.synth import make_store
    stored, _ = make_store(300)
    probes, _ = make_store(60, conflict_rate=0.3, seed=99)
    norms = fast_guard.normalize_claims(stored)
    cands = list(zip(stored, norms))

    def decide():
        return [(d.tier, sorted(j.claim_id or "" for j in d.conflicts)) for d in
                (fast_guard.check(p, cands) for p in probes)]
    skipping = decide()
    monkeypatch.setattr(pipeline, "scopes_disjoint", lambda a, b: False)
    assert decide() == skipping and any(t.value == "block" for t, _ in skipping)


def test_scope_codes_split_pairs_exactly_as_the_pairwise_check():
    """The scan drops scope-disjoint candidate pairs with one array operation per chunk; it must drop
    exactly the pairs ``scopes_disjoint`` calls disjoint (unset dimensions apply everywhere, an
    unknown norm is never disjoint), over random scopes of three dimensions."""
    import random

    from guard.claims import Modality, Norm, Scope
    from guard.pipeline import scopes_disjoint
    from guard.scan import ScopeCodes
    rnd = random.Random(0)
    vals = [None, "prod", "staging", "payments", "search", "acme"]
    norms = []
    for _ in range(300):
        scope = Scope(env=rnd.choice(vals), team=rnd.choice(vals), tenant=rnd.choice(vals))
        norms.append(Norm.unknown(scope) if rnd.random() < 0.1 else Norm(Modality.MUST, "x", scope=scope))
    pairs = [(i, j) for i in range(300) for j in range(i + 1, 300) if rnd.random() < 0.2]
    kept = ScopeCodes(norms).overlapping(pairs)
    assert kept == [(i, j) for i, j in pairs if not scopes_disjoint(norms[i], norms[j])]
    assert 0 < len(kept) < len(pairs) and ScopeCodes(norms).overlapping([]) == []


def test_id_less_lines_of_a_file_are_named_by_their_line(tmp_path):
    """Their ids were random, so two scans of one file reported different ids: reports could not
    be compared run to run, nor a finding traced back to its line. An explicit id wins."""
    from guard.scan import load_claims
    f = tmp_path / "c.jsonl"
    f.write_text('{"text": "The API listens on port 8443."}\n\n{"id": "line-3", "text": "A is on."}\n'
                 '{"text": "The API listens on port 9443."}\nnot json\n{"text": "The API listens on port 9443."}\n')
    runs = [load_claims(f) for _ in range(2)]
    assert [c.id for c in runs[0][0]] == [c.id for c in runs[1][0]] == ["line-1", "line-3", "line-4", "line-6"]
    assert len(runs[0][1]) == 1                                  # the bad line, reported
    g = tmp_path / "d.jsonl"
    g.write_text('{"id": "line-2", "text": "A is on."}\n{"text": "B is on."}\n')
    assert [c.id for c in load_claims(g)[0]] == ["line-2", "line-2-2"]
    h = tmp_path / "e.jsonl"
    h.write_text('{"id": "line-3", "text": "A is on."}\n{"id": "line-3-2", "text": "B is on."}\n'
                 '{"text": "C is on."}\n')
    assert [c.id for c in load_claims(h)[0]] == ["line-3", "line-3-2", "line-3-3"]


def test_a_big_file_of_id_less_lines_loads(tmp_path):
    """Each id-less line's candidate names were spelled out a million at a time (0.7 s a line): a scan of
    10,000 such lines spent two hours reading its file."""
    from guard.scan import load_claims
    f = tmp_path / "big.jsonl"
    f.write_text("".join(f'{{"text": "Service svc-{i} listens on port {1000 + i}."}}\n' for i in range(10_000)))
    claims, errors = load_claims(f)
    assert not errors and [c.id for c in claims[:2]] == ["line-1", "line-2"] and claims[-1].id == "line-10000"


def test_a_scan_of_repeated_ids_names_them(fast_guard):
    from guard.claims import ClaimError
    claims = [Claim(text=t, id=i) for t, i in [("Backups run daily.", "a"), ("Backups run weekly.", "a"),
                                                ("Logs are JSON.", "b"), ("Logs are text.", "b"), ("X is on.", "c")]]
    with pytest.raises(ClaimError, match=r"listed more than once: 'a', 'b'$"):
        Scanner(fast_guard, ScanConfig(progress=False)).scan(claims)
