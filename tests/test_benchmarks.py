"""Benchmark plumbing on tiny inputs: the commands run, write their files, and the baselines
behave as specified."""
import json
import subprocess
import sys

from benchmarks.stages import in_fit_split, lexical_score
from benchmarks.synth import make_store

from conftest import ROOT


def test_fit_and_eval_splits_are_disjoint_halves():
    rows = [{"id": f"dev-{i:04d}"} for i in range(1, 11)]
    fit = [r for r in rows if in_fit_split(r)]
    assert len(fit) == 5 and all(int(r["id"][-1]) % 2 == 1 for r in fit)


def test_lexical_baseline_needs_a_negation_or_number_difference():
    assert lexical_score("Logs are kept for 30 days.", "Logs are kept for 30 days.") == 0.0
    assert lexical_score("Logs are kept for 30 days.", "Logs are kept for 90 days.") > 0.3
    assert lexical_score("Force pushes are allowed.", "Force pushes are not allowed.") > 0.5


def test_synthetic_store_plants_conflicts_in_overlapping_scopes():
    claims, planted = make_store(500, conflict_rate=0.02)
    assert len(claims) == 500 and len(planted) == 10
    by = {c.id: c for c in claims}
    assert all(by[a].scope.overlaps(by[b].scope) and by[a].text != by[b].text for a, b in planted)


def test_bench_normalizers_command_writes_its_reports(tmp_path):
    r = subprocess.run([sys.executable, "-m", "guard.cli", "bench", "normalizers", "--out", str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "normalizers.json").read_text())
    res = rep["results"]["normalizer.rules.v1"]
    assert res["n"] >= 150 and 0 < res["exact_match"] <= 1
    assert rep["provenance"]["versions"]["spacy"]
    assert (tmp_path / "normalizers.md").read_text().startswith("## Normalizers")
    assert (tmp_path / "normalizers.png").stat().st_size > 1000


def test_bench_rejects_unknown_normalizer(tmp_path):
    r = subprocess.run([sys.executable, "-m", "guard.cli", "bench", "normalizers", "normalizer.nope.v1",
                        "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "unknown normalizer" in r.stderr


def test_write_latency_on_a_tiny_store():
    from benchmarks.speed import write_latency
    r = write_latency(100, "fast", n_writes=10)
    assert r["n"] == 10 and r["p50_ms"] > 0 and sum(r["tiers"].values()) == 10
