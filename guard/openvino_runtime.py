"""The cross-encoder run by OpenVINO from the same ONNX file ONNX Runtime runs.

Why: on this project's 2-core Xeon, OpenVINO's CPU plugin runs the model's fp32 graph ~17 %
faster than ONNX Runtime (328 against 281 claim pairs/s, scores equal to ~1e-6) and, where the CPU
has AMX, in bf16 at ~3–4x ONNX Runtime fp32 (raw calls 1,050–1,240 pairs/s, through the scorer
856–1,008; claims_dev's 640 directed pairs, session 22), with small calls cheaper too (4 pairs:
7.7 ms bf16, 16 ms fp32, 24 ms in ONNX Runtime).

What makes bf16 usable in a guard: a pair must get the same score in a write, a compare and a scan.
Measured here (session 22, OpenVINO 2026.4): a pair's bf16 logits do not depend on how many rows
its batch has or what they hold (1 to 128 rows: bit for bit the same), only on the batch's padded
length — lengths that are multiples of 16 tokens all give the same logits, other lengths differ by
up to ~3e-4 in p. So bf16 batches are padded to a multiple of 16 tokens (``guard.nli.tiles.bucket``),
and no row padding is needed: a write's three pairs run as three rows, not a 16-row tile.

The same holds on a CPU with AVX-512 BF16 and no AMX (session 28, AMD Zen 4, 2 cores): 13,769
batched scores of claims_dev pairs in 200 random batches of 2–128 rows equal each pair alone bit for
bit; there bf16 runs at ~1.75x ONNX Runtime fp32 (392.7 against 223.5 claim pairs/s, median of five
passes; results/speed-zen4/session28.json).
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np

from guard.onnx_runtime import OrtModel

PRECISIONS = ("fp32", "bf16")
LENGTH_STEP = 16


class OpenVinoUnavailable(RuntimeError):
    """OpenVINO is not installed, or cannot run the model here."""


def core():
    try:
        import openvino as ov
    except ImportError:
        raise OpenVinoUnavailable("OpenVINO is not installed (pip install 'claim-guard[openvino]')") from None
    return ov.Core()


class OvModel(OrtModel):
    """OrtModel's tokenising, batching and ONNX export, with OpenVINO compiling and running the graph."""

    def __init__(self, model_dir: str | Path, kind: str, max_length: int, batch_size: int = 32,
                 precision: str = "fp32"):
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
        self.precision = precision
        # one inference at a time: an infer request is not safe to share between threads, and one
        # request already keeps both cores busy
        self._lock = threading.Lock()
        super().__init__(model_dir, kind, max_length, batch_size=batch_size)

    def _open(self, onnx_file: Path) -> None:
        c = core()
        compiled = c.compile_model(c.read_model(str(onnx_file)), "CPU", {
            "INFERENCE_PRECISION_HINT": "bf16" if self.precision == "bf16" else "f32",
            "INFERENCE_NUM_THREADS": min(2, os.cpu_count() or 1),
            "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1})
        self.input_names = [i.get_any_name() for i in compiled.inputs]
        self._request = compiled.create_infer_request()

    def _infer(self, feed: dict[str, np.ndarray]) -> np.ndarray:
        with self._lock:
            out = self._request.infer(feed)
            return np.array(out[0])         # a copy: the request reuses its output buffer

    def _width(self, longest: int) -> int:
        if self.precision != "bf16":
            return longest
        from guard.nli.tiles import bucket
        return bucket(longest, LENGTH_STEP, self.max_length)
