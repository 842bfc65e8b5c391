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
"""
from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from guard.nli.scorer import ONNX_EXPORT


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


def export(model_dir: str | Path, calibration: Path | None = None, n_calibration: int = 300,
           method: str = "minmax", general: list[Path] | None = None, n_general: int = 0) -> dict:
    if method not in _METHODS:
        raise ValueError(f"calibration method must be one of {', '.join(_METHODS)}, not {method!r}")
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
        ffn_down = [n.name for n in graph.node if n.op_type == "MatMul"
                    and any(len(dims.get(x, [])) == 2 and dims[x][0] > dims[x][1] for x in n.input)]

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
                        nodes_to_exclude=ffn_down, extra_options={"MatMulConstBOnly": True})
        tmp_out.replace(model_dir / ONNX_EXPORT)          # never a half-written model in place
    cal = f"{calibration.name}: {len(claim_pairs)} pairs, both directions"
    if general_pairs:
        cal += f"; {len(general_pairs)} general NLI pairs from " + ", ".join(Path(g).name for g in general)
    info = {"file": str(ONNX_EXPORT), "calibration": cal, "method": method,
            "kept_fp32": ffn_down, "seconds": round(time.time() - t0, 1),
            "format": f"ONNX Runtime static int8 (QOperator, per-channel weights, {_METHODS[method]} activations)"}
    (out_dir / "export.json").write_text(json.dumps(info, indent=2))
    return info


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", nargs="?", default="models/nli-minilm-l6-v2")
    ap.add_argument("--method", default="minmax", choices=sorted(_METHODS))
    a = ap.parse_args()
    print(json.dumps(export(a.model, method=a.method), indent=2))
