"""The Ray Data engine gives the same findings as the single-process scan, on a local Ray cluster.

One Ray start per module (a few seconds); the structural profile on ~2,000 claims (the CI-sized
store the issue asks for) and the accurate profile on a smaller one, plus the CLI path with a
Parquet report, joining the module's cluster by its address."""
import subprocess
import sys

import pytest

from conftest import ROOT

ray = pytest.importorskip("ray", reason="the Ray engine needs pip install claim-guard[ray]")

from benchmarks.synth import make_store  # noqa: E402
from guard.pipeline import Guard, GuardConfig  # noqa: E402
from guard.scan import ScanConfig, Scanner  # noqa: E402
from guard.scan_ray import RayScanner  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    import logging
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


def same(profile: str, n: int, seed: int):
    claims, planted = make_store(n, seed=seed)
    cfg = GuardConfig.profile(profile)
    local = Scanner(Guard(cfg), ScanConfig(progress=False)).scan(claims)
    dist = RayScanner(cfg, ScanConfig(progress=False)).scan(claims)
    key = lambda f: (f["tier"], f["existing_id"], f["incoming_id"], f["stage"], f["reason"])  # noqa: E731
    return local, dist, [key(f) for f in local.findings], [key(f) for f in dist.findings], planted


def test_both_engines_find_the_same_on_2000_claims():
    local, dist, a, b, _ = same("fast", 2000, seed=5)
    assert local.pairs_compared == dist.pairs_compared > 0
    assert a == b and len(a) > 10


@pytest.mark.slow
def test_both_engines_find_the_same_with_the_nli_gate():
    _, _, a, b, _ = same("accurate", 400, seed=11)
    assert a == b and a


def test_cli_ray_engine_writes_parquet(tmp_path, fast_guard):
    """A store scanned by the Ray engine: its recorded exceptions mark their findings as the local
    engine's do, and the Parquet report carries them."""
    from guard.claims import Claim
    from guard.service import GuardService
    pq = pytest.importorskip("pyarrow.parquet")
    claims, _ = make_store(300, seed=3)
    src = tmp_path / "claims.sqlite"
    svc = GuardService(src, guard=fast_guard)
    svc.ingest(claims + [Claim.from_dict({"id": "port", "text": "The edge proxy listens on port 8443."})])
    forced = svc.force("The edge proxy listens on port 9443.", reason="cut-over week").claim
    svc.close()
    out = tmp_path / "report.parquet"
    # the CLI joins this module's cluster (--ray-address), as a job joins a running one
    address = ray.get_runtime_context().gcs_address
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", "scan", str(src), "--engine", "ray",
                        "--ray-address", address, "--out", str(out), "--fail-on", "never"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    table = pq.read_table(out)
    assert table.num_rows > 1 and {"tier", "existing_id", "incoming_id", "reason", "excepted"} <= set(table.column_names)
    rows = table.to_pylist()
    marked = [x for x in rows if x["excepted"]]
    assert [(x["existing_id"], x["incoming_id"]) for x in marked] == [("port", forced.id)]
    assert marked[0]["excepted"].startswith(f"{forced.id} forced (") and marked[0]["excepted"].endswith("cut-over week")
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", "scan", str(src), "--engine", "spark"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and "--engine must be local or ray" in r.stderr
