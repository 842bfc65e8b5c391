"""Export the NLI cross-encoder to ONNX and quantise it to static int8 for ONNX Runtime.

Run: ``python -m training.export_onnx models/nli-minilm-l6-v2`` (needs ``onnx``, in
``claim-guard[ml]``). Writes ``onnx/model_qint8.onnx`` and ``onnx/export.json`` (what it was
calibrated on) in the model folder; ``NLIScorer(quantize=True)`` then uses it.

Why static: torch's dynamic int8 (and ORT's) choose activation scales per batch, so a pair's score
depends on the pairs beside it; static scales are fixed at calibration, so a pair scores the same
alone and in any batch, and batches stay possible. Why the FFN down-projections stay fp32: their
inputs (after GELU) have outliers that one static scale cannot hold — quantising them took argmax
agreement with fp32 on claims_dev pairs from 0.98 to 0.91. Calibration pairs are claims_train pairs
(both directions): the distribution the model is scored on.

Calibration choices, measured on v2 (session 8; selection on lingnli.dev and cad_snli_original.dev,
1,000 each, Δ accuracy points against fp32, and argmax agreement with fp32 on 600 claims_train
pairs): MinMax on claim pairs (the default) −0.6 / −0.5, agreement 0.992; Percentile −0.5 / −1.0,
0.988; Entropy −0.3 / −2.0, 0.990; MinMax with 300 general pairs added −0.4 / −1.0, 0.997;
Percentile with them −0.3 / −2.5, 0.985. ``--method`` and ``general`` keep the others at hand.

Why the embedding lookups stay fp32 too (session 9; selection on the first 3,000 pairs of
lingnli.dev and snli.dev, Δ points against fp32): FFN down-projections only −0.60 / −0.97; with the
embeddings +0.13 on snli.dev (lingnli −0.60); with the pooler and classifier as well −0.53 / +0.03,
which is within noise of the embeddings alone. Then, once, on the full target files: MNLI-m
0.7001 → 0.6976 (−0.24), SNLI test 0.8221 → 0.8197 (−0.24), where the FFN-only export gave +0.13 /
−0.56. A lookup costs no arithmetic, so keeping it costs no speed. ``--keep-fp32`` picks the groups.
"""
from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from guard.nli.scorer import ONNX_EXPORT
from guard.safe_output import durable_replace


def _calibration_pairs(path: Path, n: int, seed: int = 0) -> list[tuple[str, str]]:
    from training.claim_pairs import read_rows
    rows = read_rows(path)
    random.Random(seed).shuffle(rows)
    half = rows[: n // 2]
    return ([(r["existing"]["text"], r["incoming"]["text"]) for r in half]
            + [(r["incoming"]["text"], r["existing"]["text"]) for r in rows[n // 2: n]])


def _general_pairs(files: list[Path], n: int, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` premise/hypothesis pairs spread over general NLI files (seeded)."""
    from training.claim_pairs import read_rows
    out: list[tuple[str, str]] = []
    for i, f in enumerate(files):
        rows = read_rows(f)
        random.Random(seed + i).shuffle(rows)
        out += [(r["premise"], r["hypothesis"]) for r in rows[: n // len(files)]]
    return out


_METHODS = {"minmax": "MinMax", "percentile": "Percentile", "entropy": "Entropy"}


def _weight(n, dims) -> list[int]:
    return next((dims[x] for x in n.input if len(dims.get(x, [])) == 2), [])


# Node groups that can stay fp32. The FFN down-projections (a 2-D weight taller than wide) always
# did; the others are there to measure: the embedding lookups cost nothing to keep, the pooler and
# classifier are two small matrices at the very end.
FP32_GROUPS = {
    "ffn_down": lambda n, dims: n.op_type == "MatMul" and len(w := _weight(n, dims)) == 2 and w[0] > w[1],
    "embeddings": lambda n, dims: n.op_type == "Gather" and bool(_weight(n, dims)),
    "head": lambda n, dims: n.op_type == "Gemm",
}
KEEP_FP32 = ("ffn_down", "embeddings")


def export(model_dir: str | Path, calibration: Path | None = None, n_calibration: int = 300,
           method: str = "minmax", general: list[Path] | None = None, n_general: int = 0,
           keep_fp32: tuple[str, ...] = KEEP_FP32) -> dict:
    """``keep_fp32``: groups of nodes left unquantised (``FP32_GROUPS``)."""
    if method not in _METHODS:
        raise ValueError(f"calibration method must be one of {', '.join(_METHODS)}, not {method!r}")
    unknown = sorted(set(keep_fp32) - set(FP32_GROUPS))
    if unknown:
        raise ValueError(f"unknown fp32 group {unknown[0]!r} (known: {', '.join(FP32_GROUPS)})")
    import numpy as np
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process
    from transformers import AutoTokenizer

    from guard.onnx_runtime import INPUTS, export as export_fp32
    from training.claim_pairs import CLAIMS_TRAIN
    model_dir = Path(model_dir)
    calibration = calibration or CLAIMS_TRAIN
    t0 = time.time()
    tok = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    claim_pairs = _calibration_pairs(calibration, n_calibration)
    general_pairs = _general_pairs(general, n_general) if general and n_general else []
    pairs = claim_pairs + general_pairs
    out_dir = model_dir / ONNX_EXPORT.parent
    out_dir.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32, pre = Path(tmp) / "fp32.onnx", Path(tmp) / "pre.onnx"
        export_fp32(model_dir, "cross-encoder", fp32)          # the same fp32 graph the default backend runs
        quant_pre_process(str(fp32), str(pre), skip_symbolic_shape=True)
        import onnx
        graph = onnx.load(str(pre)).graph
        dims = {i.name: list(i.dims) for i in graph.initializer}
        kept = [n.name for n in graph.node if any(FP32_GROUPS[g](n, dims) for g in keep_fp32)]

        class Reader(CalibrationDataReader):
            def __init__(self):
                self.it = iter(pairs)

            def get_next(self):
                p = next(self.it, None)
                if p is None:
                    return None
                # histogram methods stack every batch's activations: they need one shape
                e = tok([p[0]], [p[1]], truncation=True, max_length=128, return_tensors="np",
                        padding="max_length" if method != "minmax" else False)
                return {k: e[k].astype(np.int64) for k in INPUTS}

        tmp_out = out_dir / (ONNX_EXPORT.name + ".tmp")
        quantize_static(str(pre), str(tmp_out), Reader(), quant_format=QuantFormat.QOperator, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=getattr(CalibrationMethod, _METHODS[method]), op_types_to_quantize=["MatMul", "Gemm", "Gather"],
                        nodes_to_exclude=kept, extra_options={"MatMulConstBOnly": True})
        durable_replace(tmp_out, model_dir / ONNX_EXPORT)          # never a half-written model in place
    cal = f"{calibration.name}: {len(claim_pairs)} pairs, both directions"
    if general_pairs:
        cal += f"; {len(general_pairs)} general NLI pairs from " + ", ".join(Path(g).name for g in general)
    from guard.onnx_runtime import file_fingerprint, weights_file
    weights = weights_file(model_dir)
    info = {"file": str(ONNX_EXPORT), "calibration": cal, "method": method,
            # what the guard checks before it runs this export (guard.nli.scorer.stale_export)
            "weights": {"file": weights.name, "fingerprint": file_fingerprint(weights)} if weights else None,
            "kept_fp32_groups": list(keep_fp32), "kept_fp32": kept, "seconds": round(time.time() - t0, 1),
            "format": f"ONNX Runtime static int8 (QOperator, per-channel weights, {_METHODS[method]} activations)"}
    (out_dir / "export.json").write_text(json.dumps(info, indent=2))
    return info


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", nargs="?", default="models/nli-minilm-l6-v2")
    ap.add_argument("--method", default="minmax", choices=sorted(_METHODS))
    ap.add_argument("--keep-fp32", default=",".join(KEEP_FP32),
                    help=f"comma-separated node groups left fp32 (of {', '.join(FP32_GROUPS)})")
    a = ap.parse_args()
    keep = tuple(g for g in a.keep_fp32.split(",") if g)
    try:
        print(json.dumps(export(a.model, method=a.method, keep_fp32=keep), indent=2))
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
