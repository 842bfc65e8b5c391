"""``guard scan --engine ray``: the same scan on Ray Data, for claim stores that outgrow one machine.

Why Ray Data rather than a home-made pool: it schedules stateful workers (each actor loads spaCy,
the bi-encoder or the cross-encoder once and keeps it), streams batches between stages, spills
to disk under memory pressure, and runs unchanged on a laptop (``ray.init()`` starts a local
cluster) or a real cluster (``--ray-address``).

The stages and what runs where:
1. normalize — ``map_batches`` over ``NormalizeBatch`` actors (spaCy once per actor);
2. embed — ``map_batches`` over ``EmbedBatch`` actors (the bi-encoder once per actor);
3. candidates — one row per (blocking key, claim), ``groupby(key).map_groups`` makes each key's
   pairs with the very function the single-process index uses (``candidates.key_pairs``), and the
   bi-encoder neighbours are Ray tasks over chunks of the vector matrix (``neighbour_rows``);
4. judge — ``map_batches`` over ``JudgeBatch`` actors holding the structural comparator, the
   cross-encoder and the learned gate; only findings come back.
Both engines share every deciding function, so they give the same findings on the same store
(tested on 2,000 claims).
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict

import numpy as np

from guard.candidates import blocking_keys, key_pairs, neighbour_rows
from guard.claims import Claim, Norm
from guard.scan import ScanConfig, ScanReport, _finding


def _guard(config: dict):
    from guard.pipeline import Guard, GuardConfig
    return Guard(GuardConfig(**config))


class NormalizeBatch:
    def __init__(self, config: dict):
        self.guard = _guard({**config, "stages": ("structural",)})

    def __call__(self, batch: dict) -> dict:
        claims = [Claim.from_dict(json.loads(c)) for c in batch["claim"]]
        norms = self.guard.normalize_claims(claims)
        return {"i": batch["i"], "norm": [json.dumps(n.to_dict()) for n in norms]}


class EmbedBatch:
    def __init__(self, embedder: str | None):
        from guard.embed import Embedder
        self.embedder = Embedder(embedder)

    def __call__(self, batch: dict) -> dict:
        return {"i": batch["i"], "vec": list(self.embedder.encode(list(batch["text"])))}


class JudgeBatch:
    def __init__(self, config: dict, claims_ref, norms_ref):
        import ray
        self.guard = _guard(config)
        self.claims = ray.get(claims_ref)
        self.norms = ray.get(norms_ref)

    def __call__(self, batch: dict) -> dict:
        pairs = list(zip(batch["a"].tolist(), batch["b"].tolist()))
        items = [(self.claims[i], self.norms[i], self.claims[j], self.norms[j]) for i, j in pairs]
        found = []
        for k, pj in self.guard.flagged(items):
            i, j = pairs[k]
            found.append(json.dumps(_finding(self.claims[i], self.claims[j], pj, self.norms[i], self.norms[j])))
        return {"finding": found}


def _keys(row: dict) -> list[dict]:
    """One row per blocking key of a claim: "m" files the claim under the key, "t" marks its theme."""
    norm = Norm.from_dict(json.loads(row["norm"]))
    exact, broad, role = blocking_keys(norm)
    out = [{"key": k, "kind": "x", "id": row["id"]} for k in exact]
    out += [{"key": k, "kind": "b", "id": row["id"]} for k in broad - exact]
    out += [{"key": k, "kind": "t", "id": row["id"]} for k in role]
    return out


def key_pair_rows(group: dict, max_bucket: int, max_exact_bucket: int) -> dict:
    """Per blocking key: the pairs ``key_pairs`` makes, with the caps of the single-process index. A key
    is exact when any claim files it as exact, and every row of a key is in its group: the group knows
    (no store-wide pass over the keys first)."""
    kinds, ids = group["kind"].tolist(), group["id"].tolist()
    members = sorted({i for i, k in zip(ids, kinds) if k in ("x", "b")})
    themed = sorted({i for i, k in zip(ids, kinds) if k == "t"})
    pairs = key_pairs(members, themed, "x" in kinds, max_bucket, max_exact_bucket)
    return {"a": np.array([a for a, _ in pairs], dtype=object), "b": np.array([b for _, b in pairs], dtype=object)}


class RayScanner:
    """``scan(claims) -> ScanReport`` on Ray Data; same report as ``guard.scan.Scanner``."""

    def __init__(self, guard_config, config: ScanConfig | None = None, address: str | None = None,
                 actors: int | None = None):
        self.guard_config = guard_config
        self.config = config or ScanConfig()
        self.address = address
        self.actors = actors

    def _init(self):
        import logging

        import ray
        if not ray.is_initialized():
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR, configure_logging=False)
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = self.config.bars
        ctx.verbose_progress = False
        return ray

    def scan(self, claims: list[Claim], skipped: list[str] | None = None) -> ScanReport:
        from guard.claims import ClaimError
        ray = self._init()
        t0 = time.perf_counter()
        ids = [c.id for c in claims]
        if len(set(ids)) != len(ids):
            raise ClaimError("claim ids must be unique within a scan")
        cfg, n = self.config, len(claims)
        gcfg = asdict(self.guard_config)
        # one CPU stays free for Ray Data's own tasks (reads, shuffles); a 2-core machine runs one actor per stage
        cpus = int(ray.cluster_resources().get("CPU", 1))
        actors = self.actors or max(1, min(4, cpus - 1))
        # blocks (and shuffle partitions) sized to the store: Ray Data's default of 200 makes 10-claim
        # blocks of a 2,000-claim store, and their scheduling cost more than the work (the blocking stage
        # 27 s -> 12 s on 2 cores); a large store still gets 200
        parts = max(cpus, min(200, n // 500))
        timings: dict = {}

        t = time.perf_counter()
        ds = ray.data.from_items([{"i": i, "claim": json.dumps(c.to_dict())} for i, c in enumerate(claims)],
                                 override_num_blocks=parts)
        normed = ds.map_batches(NormalizeBatch, fn_constructor_kwargs={"config": gcfg}, batch_size=512,
                                concurrency=actors, batch_format="numpy").take_all()
        norms: list = [None] * n
        for r in normed:
            norms[int(r["i"])] = Norm.from_dict(json.loads(r["norm"]))
        timings["normalize"] = round(time.perf_counter() - t, 2)

        if cfg.exhaustive:
            pos_pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        else:
            t = time.perf_counter()
            rows = ray.data.from_items([{"id": c.id, "norm": json.dumps(nm.to_dict())} for c, nm in zip(claims, norms)],
                                       override_num_blocks=parts)
            # plain tasks, not actors: on a small machine actors holding every CPU would starve the shuffle
            pairs_ds = rows.flat_map(_keys).groupby("key", num_partitions=parts).map_groups(
                key_pair_rows, fn_kwargs={"max_bucket": cfg.max_bucket, "max_exact_bucket": 20000},
                batch_format="numpy")
            pos = {c.id: i for i, c in enumerate(claims)}
            pairs = set()
            for r in pairs_ds.iter_rows():      # the earlier claim plays "existing", as in the default engine
                i, j = pos[r["a"]], pos[r["b"]]
                pairs.add((i, j) if i < j else (j, i))
            timings["block"] = round(time.perf_counter() - t, 2)
            if cfg.neighbours > 0:
                t = time.perf_counter()
                vec_rows = ray.data.from_items([{"i": i, "text": c.text} for i, c in enumerate(claims)],
                                              override_num_blocks=parts).map_batches(
                    EmbedBatch, fn_constructor_kwargs={"embedder": self.guard_config.embedder}, batch_size=256,
                    concurrency=actors, batch_format="numpy").take_all()
                m = np.zeros((n, len(vec_rows[0]["vec"])), dtype=np.float32)
                for r in vec_rows:
                    m[int(r["i"])] = r["vec"]
                timings["embed"] = round(time.perf_counter() - t, 2)
                t = time.perf_counter()
                m_ref = ray.put(m)
                chunk = 2048
                task = ray.remote(lambda mm, s, e: neighbour_rows(mm, s, e, cfg.neighbours, cfg.min_similarity))
                for part in ray.get([task.remote(m_ref, s, min(s + chunk, n)) for s in range(0, n, chunk)]):
                    pairs |= {(i, j) if i < j else (j, i) for i, j in part}
                timings["neighbours"] = round(time.perf_counter() - t, 2)
            pos_pairs = sorted(pairs)

        t = time.perf_counter()
        findings: list[dict] = []
        if pos_pairs:
            pairs_arr = np.array(pos_pairs, dtype=np.int64)
            pds = ray.data.from_numpy(pairs_arr).map_batches(lambda b: {"a": b["data"][:, 0], "b": b["data"][:, 1]},
                                                             batch_format="numpy")
            out = pds.map_batches(JudgeBatch, fn_constructor_kwargs={"config": gcfg, "claims_ref": ray.put(claims),
                                                                     "norms_ref": ray.put(norms)},
                                  batch_size=cfg.batch_size, concurrency=actors, batch_format="numpy")
            findings = [json.loads(r["finding"]) for r in out.iter_rows()]
        timings["judge"] = round(time.perf_counter() - t, 2)
        findings.sort(key=lambda f: (f["tier"] != "block", f["existing_id"], f["incoming_id"]))
        return ScanReport(n, len(pos_pairs), findings, time.perf_counter() - t0, skipped or [], timings,
                          [f"engine: ray ({actors} actor(s) per stage)"])
