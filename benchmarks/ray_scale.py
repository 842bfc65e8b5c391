"""The local engine against the Ray engine on synthetic stores: wall time, peak memory, findings equal.

Run: ``python -m benchmarks.ray_scale [--sizes 10000,100000] [--profile fast]`` (not a test: 100k
claims take minutes). Each engine runs in its own process; peak memory is the sum of the resident
sets of that process and its children (Ray's raylet, object store and workers), sampled every 0.5 s.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.report import md_table, write

ROOT = Path(__file__).resolve().parents[1]


def one(n: int, engine: str, profile: str, out: str, neighbours: int = 5) -> None:
    """In a child process: build the store, scan it, write findings and timings as JSON."""
    from benchmarks.synth import make_store
    from guard.pipeline import Guard, GuardConfig
    from guard.scan import ScanConfig, Scanner
    claims, _ = make_store(n, seed=7)
    cfg = GuardConfig.profile(profile)
    t = time.perf_counter()
    if engine == "ray":
        from guard.scan_ray import RayScanner
        rep = RayScanner(cfg, ScanConfig(progress=False, neighbours=neighbours)).scan(claims)
    else:
        rep = Scanner(Guard(cfg), ScanConfig(progress=False, neighbours=neighbours)).scan(claims)
    wall = time.perf_counter() - t
    keys = sorted(json.dumps([f["tier"], f["existing_id"], f["incoming_id"], f["reason"]]) for f in rep.findings)
    Path(out).write_text(json.dumps({"wall_seconds": round(wall, 1), "pairs": rep.pairs_compared,
                                     "findings": len(rep.findings), "stage_seconds": rep.stage_seconds,
                                     "findings_sha1": hashlib.sha1("\n".join(keys).encode()).hexdigest()}))


def _tree_rss(pid: int) -> int:
    import psutil
    try:
        p = psutil.Process(pid)
        procs = [p] + p.children(recursive=True)
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for q in procs:
        try:
            total += q.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def run(n: int, engine: str, profile: str, neighbours: int = 5) -> dict:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "r.json"
        proc = subprocess.Popen([sys.executable, "-c", f"from benchmarks.ray_scale import one; "
                                 f"one({n}, {engine!r}, {profile!r}, {str(out)!r}, {neighbours})"], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak = [0]

        def sample():
            while proc.poll() is None:
                peak[0] = max(peak[0], _tree_rss(proc.pid))
                time.sleep(0.5)
        th = threading.Thread(target=sample, daemon=True)
        th.start()
        _, err = proc.communicate()
        th.join()
        if proc.returncode != 0:
            raise RuntimeError(err.decode()[-2000:])
        res = json.loads(out.read_text())
    return {"size": n, "engine": engine, "profile": profile, "neighbours": neighbours,
            "peak_rss_mb": round(peak[0] / 2**20), **res}


def main(sizes=(10000, 100000), profile: str = "fast", out_dir: Path = ROOT / "results" / "ray-scale",
         neighbours: int = 5) -> dict:
    rows = []
    for n in sizes:
        for engine in ("local", "ray"):
            r = run(n, engine, profile, neighbours)
            rows.append(r)
            print(json.dumps(r), flush=True)
    for n in sizes:
        a, b = [r for r in rows if r["size"] == n]
        b["findings_equal_to_local"] = a["findings_sha1"] == b["findings_sha1"]
    md = "\n".join([f"## Local engine vs Ray engine ({profile} profile, {neighbours} bi-encoder neighbours per claim, "
                    "synthetic stores)", "",
                    md_table(["claims", "engine", "wall s", "peak RSS MB", "candidate pairs", "findings", "equal to local"],
                             [[r["size"], r["engine"], r["wall_seconds"], r["peak_rss_mb"], r["pairs"], r["findings"],
                               r.get("findings_equal_to_local", "–")] for r in rows]), ""])
    write(out_dir, "ray_scale", {"rows": rows}, md)
    print(md)
    return {"rows": rows}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--profile", default="fast")
    ap.add_argument("--neighbours", type=int, default=5, help="0 = blocking only (what 1M claims allow on 2 cores)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "ray-scale")
    a = ap.parse_args()
    main(tuple(int(x) for x in a.sizes.split(",")), a.profile, a.out, a.neighbours)
