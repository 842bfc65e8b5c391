"""Speed and scale: guarded-write latency, scan wall time / memory / candidate recall, NLI throughput.

Run: ``guard bench speed [--sizes 1000,10000,100000] [--parts writes,scan,nli]`` or
``python -m benchmarks.speed``. Each scan runs in its own process so its peak memory is its own.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.report import bar_plot, loglog_plot, md_table, write

ROOT = Path(__file__).resolve().parents[1]
NLI_DIR = ROOT.parent / "shared" / "data" / "nli"


def _pct(xs: list[float]) -> dict:
    a = np.asarray(xs) * 1000
    return {"p50_ms": float(np.percentile(a, 50)), "p95_ms": float(np.percentile(a, 95)),
            "p99_ms": float(np.percentile(a, 99)), "n": len(xs)}


def _config(profile: str, nli_backend: str = "auto"):
    from guard.pipeline import GuardConfig
    cfg = GuardConfig.profile(profile)
    cfg.nli_backend = nli_backend
    return cfg


PROBE_SOURCE = "benchmark probe"     # see write_latency


def write_latency(n: int, profile: str, n_writes: int = 200, nli_model: str | None = None,
                  nli_backend: str = "auto") -> dict:
    """Guarded writes (remember) against a store of ``n`` active claims (``nli_model``: another
    cross-encoder for the accurate profile, with the gate fitted beside it; ``nli_backend``: what runs it)."""
    from benchmarks.synth import make_store
    from guard.pipeline import Guard
    from guard.service import GuardService
    claims, _ = make_store(n, seed=7)
    probes, _ = make_store(n_writes * 2, conflict_rate=0.2, seed=99)
    with tempfile.TemporaryDirectory() as d:
        cfg = _config(profile, nli_backend)
        cfg.nli_model = nli_model
        store = GuardService(Path(d) / "s.sqlite", guard=Guard(cfg))
        t = time.perf_counter()
        store.ingest(claims)
        store.refresh()
        setup = time.perf_counter() - t
        lat, tiers = [], {}
        for c in probes[:n_writes]:
            t = time.perf_counter()
            # a source of their own: 34 of the 200 probes repeat a stored claim word for word, and a
            # repeat is answered without the guard since session 34; this measures guarded writes
            res = store.remember(c.text, c.scope, c.window, source=PROBE_SOURCE)
            lat.append(time.perf_counter() - t)
            tiers[res.decision.tier.value] = tiers.get(res.decision.tier.value, 0) + 1
        store.close()
    return {"size": n, "profile": profile, "nli_backend": nli_backend, "setup_seconds": round(setup, 1), **_pct(lat),
            "tiers": tiers}


def store_open(n: int, opens: int = 2) -> dict:
    """Seconds to open an accurate store of ``n`` active claims with the models already loaded:
    the first open embeds every claim (one batch) and persists the vectors; later opens read them."""
    from benchmarks.synth import make_store
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    claims, _ = make_store(n, seed=7)
    guard = Guard(GuardConfig.profile("accurate"))
    _ = guard.nli_gate
    times = []
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.sqlite"
        GuardService(path, guard=Guard(GuardConfig.profile("fast"))).ingest(claims)
        for _k in range(opens):
            if guard.nli_gate is not None and guard.nli_gate.embedder is not None:
                guard.nli_gate.embedder._cache.clear()        # nothing carried over but what the store holds
            svc = GuardService(path, guard=guard)
            t = time.perf_counter()
            svc.refresh()
            times.append(round(time.perf_counter() - t, 2))
            svc.close()
    return {"size": n, "open_seconds": times}


def scan_one(n: int, profile: str, exhaustive: bool) -> dict:
    """One scan in this process (called in a subprocess by ``scan``)."""
    import resource

    from benchmarks.synth import make_store
    from guard.pipeline import Guard, GuardConfig
    from guard.scan import ScanConfig, Scanner
    claims, planted = make_store(n, seed=7)
    guard = Guard(GuardConfig.profile(profile))
    cfg = ScanConfig(exhaustive=exhaustive, progress=False)
    if profile != "accurate":
        cfg.neighbours = 0
    t = time.perf_counter()
    rep = Scanner(guard, cfg).scan(claims)
    wall = time.perf_counter() - t
    found = sorted({f"{f['existing_id']}|{f['incoming_id']}|{f['tier']}" for f in rep.findings})
    return {"size": n, "profile": profile, "exhaustive": exhaustive, "wall_seconds": round(wall, 2),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "pairs_compared": rep.pairs_compared, "stage_seconds": rep.stage_seconds,
            "block": sum(f["tier"] == "block" for f in rep.findings),
            "warn": sum(f["tier"] == "warn" for f in rep.findings), "findings": found}


def store_scans(n: int, writes: int = 100, list_scan: bool = True, nli_backend: str = "auto") -> dict:
    """``guard scan`` of a SQLite store against a scan of the same claims as a list, accurate profile:
    the store's first scan (norms and vectors already stored by its writes), the same scan again
    (NLI scores from the store), and again after ``writes`` guarded writes. Each scan gets a fresh
    Guard, as a fresh CLI process would (empty memory caches). ``list_scan=False`` leaves out the
    list scan (at 100k it is ~27 min on 2 cores). ``nli_backend``: what runs the cross-encoder."""
    from benchmarks.synth import make_store
    from guard.pipeline import Guard
    from guard.scan import ScanConfig, Scanner
    from guard.service import GuardService
    claims, _ = make_store(n, seed=7)
    probes, _ = make_store(writes * 2, conflict_rate=0.2, seed=99)
    cfg = ScanConfig(progress=False)              # the candidate search a user's scan runs
    key = lambda rep: {(f["existing_id"], f["incoming_id"], f["tier"]) for f in rep.findings}   # noqa: E731
    out: dict = {"size": n, "profile": "accurate", "nli_backend": nli_backend}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.sqlite"
        t = time.perf_counter()
        svc = GuardService(path, guard=Guard(_config("accurate", nli_backend)))
        svc.ingest(claims)
        svc.refresh()
        out["store_build_seconds"] = round(time.perf_counter() - t, 1)
        listed = None
        if list_scan:
            t = time.perf_counter()
            listed = Scanner(Guard(_config("accurate", nli_backend)), cfg).scan(claims)
            out["list_scan"] = {"seconds": round(time.perf_counter() - t, 1), "stages": listed.stage_seconds}
        for name in ("store_scan_first", "store_scan_again"):
            t = time.perf_counter()
            rep = Scanner(Guard(_config("accurate", nli_backend)), cfg).scan_store(path)
            out[name] = {"seconds": round(time.perf_counter() - t, 1), "stages": rep.stage_seconds}
            if listed is not None:
                what = "list_scan" if list_scan else "first_store_scan"
                out[name][f"same_findings_as_{what}"] = key(rep) == key(listed)
                out[name][f"findings_not_in_{what}"] = sorted(key(rep) - key(listed))[:20]
                out[name][f"{what}_findings_missing"] = sorted(key(listed) - key(rep))[:20]
            listed = listed or rep          # without a list scan the second store scan is checked against the first
        stored = sum(svc.remember(c.text, c.scope, c.window, source=PROBE_SOURCE).stored for c in probes[:writes])
        svc.close()
        t = time.perf_counter()
        rep = Scanner(Guard(_config("accurate", nli_backend)), cfg).scan_store(path)
        out["store_scan_after_writes"] = {"writes": writes, "stored": stored, "seconds": round(time.perf_counter() - t, 1),
                                          "stages": rep.stage_seconds, "claims": rep.claims}
    out["block"] = sum(f["tier"] == "block" for f in listed.findings)
    out["warn"] = sum(f["tier"] == "warn" for f in listed.findings)
    return out


def scan(n: int, profile: str, exhaustive: bool = False) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.speed", "--scan-one", str(n), profile] + (["--exhaustive"] if exhaustive else [])
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def growth_rows(report: dict) -> list[dict]:
    """Scan wall time and write p50 against store size, per profile, with the fitted exponent."""
    from benchmarks.metrics import growth_exponent
    rows = []
    for part, key, label in (("scan", "wall_seconds", "scan wall s"), ("writes", "p50_ms", "write p50 ms")):
        for prof in ("fast", "accurate"):
            pts = sorted((r["size"], r[key]) for r in report.get(part, []) if r["profile"] == prof
                         and not r.get("exhaustive"))
            k = growth_exponent([x for x, _ in pts], [y for _, y in pts]) if len(pts) > 1 else None
            if k is not None:
                rows.append({"what": f"{label}, {prof}", "sizes": ", ".join(str(x) for x, _ in pts), "k": round(k, 2),
                             "x": [x for x, _ in pts], "y": [y for _, y in pts]})
    return rows


def recall(fast: dict, full: dict) -> float:
    want = set(full["findings"])
    return len(want & set(fast["findings"])) / len(want) if want else 1.0


def claim_pair_throughput(runs: int = 3) -> dict:
    """torch fp32, ONNX Runtime fp32 (the default), int8, OpenVINO fp32 where it is installed, OpenVINO
    bf16 on a CPU with bf16 units and the bf16 tiles with AMX, on claims_dev's pairs in both directions (640
    claim-length pairs, batch 32): the median of ``runs`` timed passes each, the cache cleared
    between them. The backends take turns pass by pass, so a slow spell of a shared machine falls on
    all of them rather than on whichever ran then."""
    import importlib.util

    from guard.hardware import cpu_bf16_units
    from guard.nli import NLIScorer
    pairs = _claims_dev_both_ways()
    out = {}
    units, ov = cpu_bf16_units(), importlib.util.find_spec("openvino") is not None
    amx, bf16 = units == "AMX", units is not None
    backends = ([{"backend": "torch"}, {}, {"quantize": True}] + ([{"backend": "openvino"}] if ov else [])
                + ([{"backend": "bf16"}] if amx else []) + ([{"backend": "openvino-bf16"}] if bf16 and ov else []))
    scorers = [NLIScorer(**kw) for kw in backends]
    rates: dict[str, list[float]] = {sc.backend: [] for sc in scorers}
    for sc in scorers:
        sc.predict(pairs[:64])                        # warm-up
    for _ in range(runs):
        for sc in scorers:
            rates[sc.backend].append(_pairs_per_second(sc, pairs, 1, warm=False))
    for backend, r in rates.items():
        out[backend] = round(float(np.median(r)), 1)
    return out


def _claims_dev_both_ways() -> list[tuple[str, str]]:
    from training.claim_pairs import CLAIMS_DEV, read_rows
    pairs = [(r["existing"]["text"], r["incoming"]["text"]) for r in read_rows(CLAIMS_DEV)]
    return pairs + [(h, p) for p, h in pairs]


def _pairs_per_second(scorer, pairs: list[tuple[str, str]], runs: int, warm: bool = True) -> float:
    """Median rate of ``runs`` timed passes, the cache cleared before each, after one warm-up batch."""
    if warm:
        scorer.predict(pairs[:64])
    rates = []
    for _ in range(runs):
        scorer._cache.clear()
        t = time.perf_counter()
        scorer.predict(pairs)
        rates.append(len(pairs) / (time.perf_counter() - t))
    return round(float(np.median(rates)), 1)


def model_speed(models: dict[str, str], runs: int = 3, write_sizes: tuple[int, ...] = (10000,),
                n_writes: int = 200) -> dict:
    """Each cross-encoder's rate on claims_dev's pairs in both directions (ONNX Runtime fp32, the
    default backend; median of ``runs`` passes, cache cleared) and the accurate profile's write
    latency with it — the same measurements for a student and its teacher, on one machine."""
    from benchmarks.report import machine
    from guard.nli import NLIScorer
    pairs = _claims_dev_both_ways()
    cols = ["NLI pairs/s (claims_dev, both directions)"] + [f"write p50 / p95 ms at {n:,}" for n in write_sizes]
    rows = {}
    for label, path in models.items():
        sc = NLIScorer(path)
        row = [_pairs_per_second(sc, pairs, runs)]
        for n in write_sizes:
            w = write_latency(n, "accurate", n_writes, nli_model=path)
            row.append(f"{w['p50_ms']:.0f} / {w['p95_ms']:.0f}")
        rows[label] = row
    return {"columns": cols, "rows": rows, "backend": sc.backend, "machine": machine()}


def normalizer_throughput(n: int = 20000, processes: tuple[int, ...] = (1, 2), runs: int = 2) -> dict:
    """Statements per second of the default normalizer over ``n`` synthetic claims, in one process
    and in the pool (its worker start included), best of ``runs``."""
    from benchmarks.synth import make_store
    from guard.pipeline import Guard, GuardConfig
    claims, _ = make_store(n)
    g = Guard(GuardConfig(stages=("structural",)))
    g.normalize_claims(claims[:50])
    out = {}
    for p in processes:
        best = 0.0
        for _ in range(runs):
            t = time.perf_counter()
            g.normalize_claims(claims, processes=p)
            best = max(best, len(claims) / (time.perf_counter() - t))
        out[f"processes={p}"] = round(best, 1)
    return out


def nli_throughput(batch_sizes=(1, 8, 32, 64), n_pairs: int = 512, n_acc: int = 2000) -> dict:
    from guard.nli import NLIScorer
    rows = [json.loads(x) for x in (NLI_DIR / "mnli.dev_matched.jsonl").read_text().splitlines()[:max(n_pairs, n_acc)]]
    pairs = [(r["premise"], r["hypothesis"]) for r in rows]
    out = {}
    for quant in (False, True):
        name = NLIScorer(quantize=quant).backend        # int8: the static ONNX export when it exists
        res = {"pairs_per_second": {}}
        for bs in batch_sizes:
            sc = NLIScorer(quantize=quant, batch_size=bs)
            sc.predict(pairs[:8])
            sc._cache.clear()
            t = time.perf_counter()
            sc.predict(pairs[:n_pairs])
            res["pairs_per_second"][bs] = round(n_pairs / (time.perf_counter() - t), 1)
        sc = NLIScorer(quantize=quant, batch_size=64)
        pred = [max(p, key=p.get) for p in sc.predict(pairs[:n_acc])]
        res["mnli_dev_matched_accuracy"] = float(np.mean([p == r["label"] for p, r in zip(pred, rows[:n_acc])]))
        res["accuracy_pairs"] = n_acc
        out[name] = res
    return out


def main(sizes=(1000, 10000, 100000), parts=("writes", "scan", "nli"), out_dir: Path = ROOT / "results" / "speed",
         recall_sizes=(1000, 10000)) -> dict:
    report: dict = {"sizes": list(sizes)}
    md = ["## Speed and scale (synthetic stores, 1% planted conflicts; `benchmarks/synth.py`)", ""]
    if "writes" in parts:
        from guard.progress import bar
        runs = [(p, n) for p in ("fast", "accurate") for n in sizes if p == "fast" or n <= 10000]
        report["writes"] = [write_latency(n, p) for p, n in bar(runs, desc="write latency", unit="store")]
        md += ["### Guarded write latency (`remember`, 200 writes)", "",
               md_table(["profile", "active claims", "p50 ms", "p95 ms", "p99 ms", "store load s", "tiers"],
                        [[w["profile"], w["size"], w["p50_ms"], w["p95_ms"], w["p99_ms"], w["setup_seconds"],
                          json.dumps(w["tiers"])] for w in report["writes"]]), ""]
    if "scan" in parts:
        from guard.progress import bar
        scans = []
        for p, n in bar([(p, n) for p in ("fast", "accurate") for n in sizes], desc="scan", unit="store"):
            r = scan(n, p)
            if n in recall_sizes and p == "fast":   # exhaustive with NLI: every pair through the model
                full = scan(n, p, exhaustive=True)
                r["recall_vs_exhaustive"] = recall(r, full)
                r["exhaustive_wall_seconds"] = full["wall_seconds"]
            scans.append(r)
        for r in scans:
            r.pop("findings", None)
        report["scan"] = scans
        md += ["### `guard scan`", "",
               md_table(["profile", "claims", "wall s", "peak RSS MB", "pairs compared", "block", "warn",
                         "recall vs exhaustive", "exhaustive wall s", "stage seconds"],
                        [[r["profile"], r["size"], r["wall_seconds"], r["peak_rss_mb"], r["pairs_compared"], r["block"],
                          r["warn"], r.get("recall_vs_exhaustive"), r.get("exhaustive_wall_seconds"),
                          json.dumps(r["stage_seconds"])] for r in scans]), ""]
    if "nli" in parts:
        report["nli"] = nli_throughput()
        bss = list(next(iter(report["nli"].values()))["pairs_per_second"])
        md += ["### NLI cross-encoder throughput (pairs/s on MNLI dev pairs) and accuracy", "",
               md_table(["variant", *[f"batch {b}" for b in bss], "MNLI-m acc"],
                        [[k, *v["pairs_per_second"].values(), v["mnli_dev_matched_accuracy"]]
                         for k, v in report["nli"].items()]), ""]
    growth = growth_rows(report)
    if growth:
        report["growth_exponents"] = growth
        md += ["### Cost against store size (fitted exponent k in cost ∝ n^k; 1 = linear)", "",
               md_table(["what", "sizes", "k"], [[g["what"], g["sizes"], g["k"]] for g in growth]), ""]
    text = "\n".join(md)
    out = write(out_dir, "speed", report, text)
    if growth:
        loglog_plot(out / "cost_vs_size.png", {g["what"]: (g["x"], g["y"]) for g in growth},
                    "Cost against store size", "active claims", "seconds (scan) / ms (write p50)")
    if "scan" in parts:
        fast = [r for r in report["scan"] if r["profile"] == "fast"]
        bar_plot(out / "scan_wall.png", [str(r["size"]) for r in fast], {"fast": [r["wall_seconds"] for r in fast]},
                 "guard scan wall time", "seconds")
    if "nli" in parts:
        bar_plot(out / "nli_throughput.png", [str(b) for b in bss],
                 {k: list(v["pairs_per_second"].values()) for k, v in report["nli"].items()},
                 "NLI pairs per second by batch size", "pairs/s")
    print(text)
    return report


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--scan-one":
        print(json.dumps(scan_one(int(sys.argv[2]), sys.argv[3], "--exhaustive" in sys.argv)))
    elif len(sys.argv) > 1 and sys.argv[1] == "--store-scan":
        # python -m benchmarks.speed --store-scan 10000 OUT.json
        # python -m benchmarks.speed --store-scan 100000 OUT.json --no-list [--nli-backend bf16]
        backend = sys.argv[sys.argv.index("--nli-backend") + 1] if "--nli-backend" in sys.argv else "auto"
        rep = store_scans(int(sys.argv[2]), list_scan="--no-list" not in sys.argv, nli_backend=backend)
        rep["command"] = "python -m benchmarks.speed " + " ".join(sys.argv[1:])
        Path(sys.argv[3]).parent.mkdir(parents=True, exist_ok=True)
        Path(sys.argv[3]).write_text(json.dumps(rep, indent=2))
        print(json.dumps(rep, indent=2))
    elif len(sys.argv) > 1 and sys.argv[1] == "--models":
        # python -m benchmarks.speed --models teacher=models/a,student=models/b OUT.json
        models = dict(kv.split("=", 1) for kv in sys.argv[2].split(","))
        rep = model_speed(models)
        rep["note"] = (f"Measured on one machine ({rep['machine']}), {rep['backend']}: "
                       f"`python -m benchmarks.speed --models {sys.argv[2]} {sys.argv[3]}`; writes: the accurate "
                       "profile, 200 remembers against 10,000 synthetic active claims (`write_latency`).")
        Path(sys.argv[3]).write_text(json.dumps(rep, indent=2))
        print(json.dumps(rep, indent=2))
    else:
        import argparse
        ap = argparse.ArgumentParser()
        ap.add_argument("--sizes", default="1000,10000,100000")
        ap.add_argument("--parts", default="writes,scan,nli")
        a = ap.parse_args()
        main(tuple(int(x) for x in a.sizes.split(",")), tuple(a.parts.split(",")))
