"""HTTP load: guarded writes through a real ``guard serve`` (uvicorn on 127.0.0.1) by 1, 8 and 32
concurrent clients against stores of 1k and 10k active claims, for each profile.

Run: ``guard bench load [--sizes 1000,10000] [--clients 1,8,32] [--profiles fast,accurate]`` or
``python -m benchmarks.load``. Reports throughput, p50/p95/p99 latency, and the data check that
matters: every 201 stored exactly once, every 409 stored never, every 200 (a repeat) naming a stored
claim, nothing else in the store.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.report import md_table, write
from benchmarks.speed import PROBE_SOURCE, _pct

ROOT = Path(__file__).resolve().parents[1]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_one(size: int, clients: int, profile: str, writes_per_client: int = 25) -> dict:
    import httpx

    from benchmarks.synth import make_store
    from guard.service import GuardService
    from guard.store import ClaimStore
    claims, _ = make_store(size, seed=7)
    probes, _ = make_store(clients * writes_per_client, conflict_rate=0.2, seed=99)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.sqlite"
        from guard.pipeline import Guard, GuardConfig
        GuardService(path, guard=Guard(GuardConfig.profile("fast"))).ingest(claims)
        port = _port()
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "GUARD_TOKEN": ""}
        proc = subprocess.Popen([sys.executable, "-m", "guard.cli", "--store", str(path), "--profile", profile,
                                 "--quiet", "serve", "--port", str(port)], env=env, cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        t0 = time.time()
        while True:
            try:
                if httpx.get(base + "/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.time() - t0 > 600:
                raise RuntimeError(f"server did not start: {proc.stderr.read().decode()[-500:]}")
            time.sleep(0.5)
        startup = time.time() - t0
        lat, results = [], []
        lock = threading.Lock()

        def client(k: int):
            with httpx.Client(base_url=base, timeout=600) as c:
                for p in probes[k * writes_per_client:(k + 1) * writes_per_client]:
                    t = time.perf_counter()
                    # a source of their own, as write_latency's: a probe that repeats a stored fact
                    # word for word would otherwise be answered without the guard (200, since session 34)
                    r = c.post("/claims", json={"text": p.text, "scope": p.scope.to_dict(), **p.window.to_dict(),
                                                "source": PROBE_SOURCE})
                    dt = time.perf_counter() - t
                    with lock:
                        lat.append(dt)
                        results.append((r.status_code, r.json()))

        t = time.perf_counter()
        ts = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
        [x.start() for x in ts]
        [x.join() for x in ts]
        wall = time.perf_counter() - t
        proc.terminate()
        proc.wait(30)
        store = ClaimStore(path)
        ids = [c.id for c in store.list(None)]
        store.close()
    stored = [b["claim"]["id"] for code, b in results if code == 201]
    codes: dict = {}
    for code, _ in results:
        codes[str(code)] = codes.get(str(code), 0) + 1
    return {"size": size, "clients": clients, "profile": profile, "writes": len(results),
            "writes_per_second": round(len(results) / wall, 1), "startup_seconds": round(startup, 1), **_pct(lat),
            "status_codes": codes,
            "lost_writes": len(set(stored) - set(ids)), "double_writes": len(stored) - len(set(stored)),
            "unexpected_rows": len(ids) - size - len(set(stored)),
            # a 200 is a repeat of an active statement: it must name a claim that is in the store
            "duplicates_not_in_store": sum(1 for code, b in results if code == 200 and b.get("duplicate_of") not in ids)}


def main(sizes=(1000, 10000), clients=(1, 8, 32), profiles=("fast", "accurate"),
         out_dir: Path = ROOT / "results" / "load") -> dict:
    rows = [run_one(s, c, p) for p in profiles for s in sizes for c in clients]
    table = [[r["profile"], r["size"], r["clients"], r["writes"], r["writes_per_second"], round(r["p50_ms"], 1),
              round(r["p95_ms"], 1), round(r["p99_ms"], 1), r["status_codes"], r["lost_writes"], r["double_writes"],
              r["unexpected_rows"], r["duplicates_not_in_store"]] for r in rows]
    md = "\n".join(["## HTTP load: guarded writes through `guard serve`", "",
                    md_table(["profile", "active claims", "clients", "writes", "writes/s", "p50 ms", "p95 ms", "p99 ms",
                              "status codes", "lost", "double", "unexpected rows", "200 not in store"], table)])
    write(out_dir, "load", {"runs": rows}, md)
    print(md)
    return {"runs": rows}


if __name__ == "__main__":
    main()
