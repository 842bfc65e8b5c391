"""A cross-encoder run in bf16 on a CPU with AMX, every pair in a tile of one fixed shape.

Why: AMX multiplies bf16 matrices two to three times faster than the CPU's fp32 units, but the
kernels a bf16 matrix product picks depend on the shape of the batch, and bf16's short mantissa
carries their different summation orders into the score: the same claim pair scored alone and in
a batch of 32 differed by up to 0.02 in p(contradiction) (session 20), where a guard must give a
pair the same score in a write, a compare and a scan. Measured here (session 21, oneDNN through
torch 2.13): with the rows and the padded length of a batch fixed, a pair's logits are bit for bit
the same whatever else is in its batch — the rows of a matrix product do not mix, and the masked
padding adds exact zeros — while batches of other row counts choose other kernels. So every call
is cut into tiles of ``rows`` pairs padded to a length bucket (a multiple of ``step`` tokens), and a
short last tile is filled with copies of its first pair: one pair alone and the same pair among
thousands see exactly the same arithmetic.
"""
from __future__ import annotations

import threading

import numpy as np

TILE_ROWS = 16       # the smallest tile measured as fast as big ones in bf16 (~670 claim pairs/s)
LENGTH_STEP = 16     # padding waste: a claim pair of 31 tokens runs as 32


def bucket(n_tokens: int, step: int, max_length: int) -> int:
    """The padded length a pair of ``n_tokens`` runs at."""
    return min(max_length, -(-n_tokens // step) * step)


class TiledModel:
    """A Hugging Face sequence classifier and its tokenizer, run in fixed-shape tiles."""

    def __init__(self, model, tokenizer, max_length: int, rows: int = TILE_ROWS, step: int = LENGTH_STEP):
        if rows < 1 or step < 1:
            raise ValueError(f"tile rows and length step must be positive, not {rows} and {step}")
        self.model, self.tokenizer = model, tokenizer
        self.max_length, self.rows, self.step = max_length, rows, step
        self.pad_id = int(getattr(tokenizer, "pad_token_id", None) or 0)
        # one call at a time: the tokenizer sets its truncation state per call (concurrent calls can
        # fail with "Already borrowed"), and one tile already keeps both cores busy
        self._lock = threading.Lock()

    def logits(self, pairs: list[tuple[str, str]], show_progress: bool = False) -> np.ndarray:
        """fp32 logits, one row per pair, in the order given."""
        with self._lock:
            return self._logits(pairs, show_progress)

    def _logits(self, pairs: list[tuple[str, str]], show_progress: bool) -> np.ndarray:
        import torch
        from tqdm import tqdm

        from guard.onnx_runtime import INPUTS, padded_feed
        if not pairs:
            return np.zeros((0, self.model.config.num_labels), dtype=np.float64)
        enc = self.tokenizer([p for p, _ in pairs], [h for _, h in pairs], truncation=True,
                             max_length=self.max_length)
        names = [k for k in INPUTS if k in enc]
        by_length: dict[int, list[int]] = {}
        for i, ids in enumerate(enc["input_ids"]):
            by_length.setdefault(bucket(len(ids), self.step, self.max_length), []).append(i)
        tiles = [(width, members[s:s + self.rows]) for width, members in sorted(by_length.items())
                 for s in range(0, len(members), self.rows)]
        out = np.zeros((len(pairs), self.model.config.num_labels), dtype=np.float64)
        with torch.inference_mode():
            for width, idx in tqdm(tiles, desc="nli", unit="tile", disable=not show_progress):
                filled = idx + [idx[0]] * (self.rows - len(idx))     # a short tile repeats its first pair
                feed = padded_feed([{k: enc[k][i] for k in names} for i in filled], width, self.pad_id)
                res = self.model(**{k: torch.from_numpy(v) for k, v in feed.items()}).logits
                out[idx] = res[:len(idx)].float().numpy()
        return out
