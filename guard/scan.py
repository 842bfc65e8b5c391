"""Scoring a whole claim store: candidate pairs by blocking + neighbours, then the stages in batch.

The report keeps every non-clean pair with its reasons and, where NLI ran, the raw scores in
both directions, so thresholds can be re-applied later without re-running inference.
"""
from __future__ import annotations

import csv
import itertools
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from guard.candidates import NEIGHBOURS, NEIGHBOUR_MIN_SIMILARITY, CandidateIndex
from guard.claims import Claim, ClaimError, Norm, comparison_text, in_force
from guard.jsonl import piped, read_jsonl
from guard.judge import PairJudgement
from guard.normalize.pool import default_processes
from guard.pipeline import Guard

if TYPE_CHECKING:
    from guard.store import ClaimStore


@dataclass
class ScanConfig:
    neighbours: int = NEIGHBOURS      # bi-encoder neighbours per claim (0: blocking only)
    min_similarity: float = NEIGHBOUR_MIN_SIMILARITY   # their cosine floor (both as a write's)
    max_bucket: int = 1000            # broad blocking keys shared by more claims than this are too generic
    exhaustive: bool = False          # all N² pairs — for measuring candidate recall only
    # pairs judged per call: ~1 % of a scan's pairs go to NLI, and 2,048 left ~20 per model call,
    # each paying the call's fixed cost and a ragged last batch (10k accurate scan, 2-core AVX2:
    # 2,048 → 221 s, 16,384 → 185 s; 32,768 with scope-disjoint pairs skipped → 136 s)
    batch_size: int = 32768
    progress: bool = True
    processes: int = field(default_factory=default_processes)   # normalizer workers for big scans

    @property
    def bars(self) -> bool:
        """Progress bars only where someone watches: asked for, and stderr is a terminal."""
        return self.progress and sys.stderr.isatty()


@dataclass
class ScanReport:
    claims: int
    pairs_compared: int
    findings: list[dict]
    seconds: float
    skipped: list[str] = field(default_factory=list)
    stage_seconds: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def summary(self) -> dict:
        """``block``/``warn``: every finding; ``excepted``: those a recorded forced exception covers
        (counted in their tier too, but no reason to fail a CI gate — see ``open_findings``)."""
        tiers = {"block": 0, "warn": 0}
        for f in self.findings:
            tiers[f["tier"]] += 1
        n = self.claims
        return {"claims": n, "pairs_compared": self.pairs_compared, "all_pairs": n * (n - 1) // 2,
                "block": tiers["block"], "warn": tiers["warn"],
                "excepted": sum(1 for f in self.findings if "excepted" in f), "skipped_lines": len(self.skipped),
                "seconds": round(self.seconds, 2), "stage_seconds": self.stage_seconds, "notes": self.notes}

    @property
    def open_findings(self) -> list[dict]:
        return [f for f in self.findings if "excepted" not in f]


def is_store(path: str | Path) -> bool:
    """A SQLite file, told by its header rather than its name — and then it must be a claim store:
    another program's database is refused in one line, before anything opens it for writing (a
    claim store's schema would otherwise be created inside it)."""
    with Path(path).open("rb") as fh:
        if not fh.read(16).startswith(b"SQLite format 3"):
            return False
    from guard.store import check_is_claim_store
    check_is_claim_store(Path(path))
    return True


def load_claims(source: str | Path) -> tuple[list[Claim], list[str]]:
    """Claims from a JSONL file or the active claims of a SQLite store."""
    p = Path(source)
    from_stdin = piped(source)           # JSONL on standard input
    if not from_stdin and not p.exists():
        raise ClaimError(f"no such file: {p}")
    if not from_stdin and is_store(p):
        from guard.store import ClaimStore
        store = ClaimStore(p)
        try:
            return store.list("active"), []
        finally:
            store.close()
    rows, errors = read_jsonl(p, lambda d: (Claim.from_dict(d), d.get("id") is None))
    # an id-less line is named by its line number, so two scans of one file report the same ids
    # (they were random: reports could not be compared run to run, nor traced back to the file)
    taken = {c.id for _, (c, unnamed) in rows if not unnamed}
    claims = []
    for lineno, (c, unnamed) in rows:
        if unnamed:
            c.id = _line_id(lineno, taken)
            taken.add(c.id)
        claims.append(c)
    return claims, errors


def _line_id(lineno: int, taken: set[str]) -> str:
    """``line-7``, or ``line-7-2``, ``line-7-3`` … where the file's own ids hold it. Found one at a
    time: the candidates were once spelled out a million to a line, 0.7 s each (a 20-line file took 14 s
    to load, 10,000 lines two hours)."""
    name, k = f"line-{lineno}", 2
    while name in taken:
        name, k = f"line-{lineno}-{k}", k + 1
    return name


class Scanner:
    """``scan(claims) -> ScanReport``."""

    def __init__(self, guard: Guard, config: ScanConfig | None = None):
        self.guard = guard
        self.config = config or ScanConfig()

    def embedder(self):
        """The gate's bi-encoder when the profile has one, so a scan and the gate share vectors."""
        from guard.embed import Embedder
        gate = self.guard.nli_gate
        return gate.embedder if gate is not None and gate.embedder is not None else Embedder()

    def candidate_pairs(self, claims: list[Claim], norms, timings: dict, vectors=None):
        """(iterable of index pairs, how many). Exhaustive mode yields lazily: 10k claims are 50M pairs.
        ``vectors``: the claims' bi-encoder vectors where the caller already has them (a store's)."""
        cfg = self.config
        n = len(claims)
        if cfg.exhaustive:
            return ((i, j) for i in range(n) for j in range(i + 1, n)), n * (n - 1) // 2
        pos = {c.id: i for i, c in enumerate(claims)}
        index = CandidateIndex(max_bucket=cfg.max_bucket)
        vecs = None
        if cfg.neighbours > 0:
            vecs = vectors
            if vecs is None:
                t = time.perf_counter()
                vecs = self.embedder().encode([c.text for c in claims], show_progress=cfg.bars)
                timings["embed"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        for i, (c, nm) in enumerate(zip(claims, norms)):
            index.add(c.id, nm, vecs[i] if vecs is not None else None)
        pairs = index.blocked_pairs()
        if vecs is not None:
            pairs |= index.all_neighbour_pairs(cfg.neighbours, cfg.min_similarity)
        timings["candidates"] = round(time.perf_counter() - t, 2)
        out = sorted((pos[a], pos[b]) if pos[a] < pos[b] else (pos[b], pos[a]) for a, b in pairs)
        return out, len(out)

    def scan_store(self, source: str | Path | ClaimStore) -> ScanReport:
        """Scan a claim store's active claims with what the store already holds: the norms its writes
        stored (by the normalizer running now), the vectors it cached, and its NLI scores — a store
        scanned again, or built by guarded writes, pays only for what changed. Scores this scan makes
        go into the store's cache (best effort, like a ``check``'s), so the next scan and the next
        write find them; the claims themselves are only read. ``source``: a path, or an open store
        (the server's), which is left open."""
        from guard.nli.score_cache import StoreScoreCache
        from guard.store import ClaimStore
        from guard.stored import prime_subjects, stored_norms, stored_vectors
        t = time.perf_counter()
        store = source if isinstance(source, ClaimStore) else ClaimStore(source)
        previous = self.guard.score_cache
        try:
            pairs = stored_norms(store, store.active_rows(), self.guard, processes=self.config.processes)
            claims, norms = [c for c, _ in pairs], [n for _, n in pairs]
            vectors = None
            if self.config.neighbours > 0 and not self.config.exhaustive:
                embedder = self.embedder()
                vectors = stored_vectors(store, claims, embedder)
                # the gate's text similarities read the same vectors (where the text it compares is
                # the claim's text), instead of encoding every claim again
                same = [i for i, c in enumerate(claims) if comparison_text(c.text) == c.text]
                embedder.prime([claims[i].text for i in same], [vectors[i] for i in same])
            gate = self.guard.nli_gate
            if gate is not None and getattr(gate, "embedder", None) is not None:
                prime_subjects(store, pairs, gate.embedder)     # and its subject similarities, theirs
            loaded = round(time.perf_counter() - t, 2)
            if getattr(previous, "store", None) is not store:
                self.guard.use_score_cache(StoreScoreCache(store))
            # each claim over the window it holds in the store, as a write compares it (a file's claims
            # keep the windows they give)
            report = self.scan(claims, norms=[in_force(c, n) for c, n in zip(claims, norms)], vectors=vectors)
            mark_excepted(report, store)
        finally:
            if self.guard.score_cache is not previous:
                self.guard.use_score_cache(previous)
            if store is not source:
                store.close()
        report.stage_seconds = {"load": loaded, **report.stage_seconds}
        report.seconds += loaded
        return report

    def scan(self, claims: list[Claim], skipped: list[str] | None = None, norms: list[Norm] | None = None,
             vectors=None) -> ScanReport:
        """``norms`` and ``vectors``, aligned with ``claims``: what the caller already has (a store's)."""
        t0 = time.perf_counter()
        ids = [c.id for c in claims]
        if len(set(ids)) != len(ids):
            seen: set[str] = set()
            twice = sorted({i for i in ids if i in seen or seen.add(i)})
            raise ClaimError(f"claim ids must be unique within a scan; listed more than once: "
                             f"{', '.join(map(ascii, twice[:5]))}" + (f" (+{len(twice) - 5} more)" if len(twice) > 5 else ""))
        if any(x is not None and len(x) != len(claims) for x in (norms, vectors)):
            raise ValueError("norms and vectors must be given for every claim")
        timings: dict = {}
        if norms is None:
            t = time.perf_counter()
            norms = self.guard.normalize_claims(claims, processes=self.config.processes)
            timings["normalize"] = round(time.perf_counter() - t, 2)
        pairs, n_pairs = self.candidate_pairs(claims, norms, timings, vectors)
        findings: list[dict] = []
        t = time.perf_counter()
        bs = self.config.batch_size
        it = iter(pairs)
        scopes = ScopeCodes(norms) if "structural" in self.guard.config.stages else None
        with tqdm(total=n_pairs, desc="scan", unit="pair",
                  disable=not self.config.bars) as bar:
            while chunk := list(itertools.islice(it, bs)):
                # pairs in disjoint scopes coexist (clean): dropped here in one array operation, not
                # one Python call per pair (most candidate pairs of a multi-team store: 97 % at 10k)
                kept = scopes.overlapping(chunk) if scopes is not None else chunk
                # the earlier claim plays "existing", the later one "incoming"
                items = [(claims[i], norms[i], claims[j], norms[j]) for i, j in kept]
                for k, pj in self.guard.flagged(items):
                    i, j = kept[k]
                    findings.append(_finding(claims[i], claims[j], pj, norms[i], norms[j]))
                bar.update(len(chunk))
        timings["judge"] = round(time.perf_counter() - t, 2)
        findings.sort(key=lambda f: (f["tier"] != "block", f["existing_id"], f["incoming_id"]))
        return ScanReport(len(claims), n_pairs, findings, time.perf_counter() - t0, skipped or [],
                          timings, list(self.guard.notes))


def mark_excepted(report: ScanReport, store: ClaimStore) -> int:
    """Mark the findings a recorded exception covers: the pair of a forced claim and a claim it was
    forced over, while the overridden one still says what it said then. Why: ``force`` is one of
    the three documented ways to resolve a block, yet a scan reported the pair as an open block
    forever, so a CI job gating on ``guard scan --fail-on block`` could never pass again. The tier
    stays what the guard decides; the finding says who forced it and why, and sorts last."""
    pairs = store.excepted_pairs()
    n = 0
    for f in report.findings:
        e = pairs.get(frozenset((f["existing_id"], f["incoming_id"])))
        if e is None:
            continue
        now = f["existing"] if f["existing_id"] == e["overrides"] else f["incoming"]
        if e["overridden_text"] is not None and now != e["overridden_text"]:
            continue           # the overridden claim was revised since: a new conflict
        f["excepted"] = {"by": e["by"], "reason": e["reason"], "at": e["at"]}
        n += 1
    report.findings.sort(key=lambda f: ("excepted" in f, f["tier"] != "block", f["existing_id"], f["incoming_id"]))
    return n


class ScopeCodes:
    """The claims' scopes as small integers (0 = unset), so a chunk of candidate pairs is split into
    disjoint and overlapping ones by numpy: the same answer as ``pipeline.scopes_disjoint`` (an
    unknown norm is never disjoint; unset dimensions apply everywhere), without building a Python
    tuple and a call per pair."""

    def __init__(self, norms: list[Norm]):
        import numpy as np
        ids: dict = {}
        self.codes = np.zeros((len(norms), 3), dtype=np.int32)
        self.unknown = np.zeros(len(norms), dtype=bool)
        for i, n in enumerate(norms):
            if n.is_unknown:
                self.unknown[i] = True
                continue
            for d, v in enumerate((n.scope.env, n.scope.team, n.scope.tenant)):
                if v is not None:
                    self.codes[i, d] = ids.setdefault((d, v), len(ids) + 1)

    def overlapping(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        import numpy as np
        if not pairs:
            return pairs
        ij = np.asarray(pairs, dtype=np.int64)
        a, b = self.codes[ij[:, 0]], self.codes[ij[:, 1]]
        disjoint = ((a != 0) & (b != 0) & (a != b)).any(axis=1) & ~self.unknown[ij[:, 0]] & ~self.unknown[ij[:, 1]]
        return [pairs[k] for k in np.flatnonzero(~disjoint)]


def _finding(a: Claim, b: Claim, pj: PairJudgement, na: Norm, nb: Norm) -> dict:
    d = pj.to_dict()
    out = {"tier": d["tier"], "existing_id": a.id, "incoming_id": b.id, "existing": a.text, "incoming": b.text,
           "verdict": d["verdict"], "confidence": d["confidence"], "stage": d["stage"], "reason": d["reason"],
           "subject": nb.subject or na.subject,
           "existing_scope": a.scope.to_dict(), "incoming_scope": b.scope.to_dict(),
           "existing_window": a.window.to_dict(), "incoming_window": b.window.to_dict()}
    if "nli" in d:
        out["nli"] = d["nli"]
    return out


def excepted_text(f: dict) -> str:
    """A finding's recorded exception in words (report cells, the CLI): who forced it, when, why."""
    e = f.get("excepted")
    return f"{e['by']} forced ({e['at']}): {e['reason']}" if e else ""


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP's CSV
    injection advice). Why: claims come from teams and agents, and a report is opened in Excel or
    Sheets — "=HYPERLINK(…)" stored as a claim ran as a formula there. Only the CSV report: the
    JSONL and Parquet reports keep the text as written."""
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA_START) else value


def write_report(report: ScanReport, out: str | Path, fmt: str) -> Path:
    """Written beside ``out`` and renamed over it when complete (``safe_output.atomic_write``)."""
    from guard.safe_output import atomic_write
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "jsonl":
        with atomic_write(out) as fh:
            for f in report.findings:
                fh.write(json.dumps(f, ensure_ascii=False) + "\n")
    elif fmt == "csv":
        cols = ["tier", "existing_id", "incoming_id", "verdict", "confidence", "stage", "reason", "existing",
                "incoming", "p_contradiction", "excepted"]
        with atomic_write(out, newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=cols, extrasaction="ignore")
            w.writeheader()
            for f in report.findings:
                w.writerow({**{k: csv_cell(v) for k, v in f.items()},
                            "p_contradiction": f.get("nli", {}).get("p_contradiction", ""),
                            "excepted": csv_cell(excepted_text(f))})
    elif fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ClaimError("parquet reports need pyarrow: pip install claim-guard[ray]") from None
        cols = ["tier", "existing_id", "incoming_id", "verdict", "confidence", "stage", "reason", "subject",
                "existing", "incoming"]
        table = {c: [f.get(c) for f in report.findings] for c in cols}
        table["p_contradiction"] = [f.get("nli", {}).get("p_contradiction") for f in report.findings]
        table["excepted"] = [excepted_text(f) or None for f in report.findings]
        for side in ("existing", "incoming"):       # nested parts as JSON text: one flat, typed table
            for part in ("scope", "window"):
                table[f"{side}_{part}"] = [json.dumps(f.get(f"{side}_{part}")) for f in report.findings]
        with atomic_write(out, binary=True) as fh:
            pq.write_table(pa.table(table), fh)
    else:
        raise ClaimError(f"unknown report format {fmt!r} (jsonl, csv, parquet)")
    return out
