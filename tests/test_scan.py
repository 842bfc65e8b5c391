import json

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
