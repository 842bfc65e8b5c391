"""The static int8 ONNX Runtime backend (``--quantize`` once ``training.export_onnx`` has run):
deterministic whatever the batch, close to fp32, and refused in one line when damaged."""
import importlib.util
import json
import shutil

import numpy as np
import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    if importlib.util.find_spec("onnx") is None:
        pytest.skip("the export needs onnx: pip install claim-guard[ml]")
    from guard.nli.scorer import default_model_path
    from training.claim_pairs import CLAIMS_TRAIN
    if not CLAIMS_TRAIN.exists():
        pytest.skip(f"../shared is absent ({CLAIMS_TRAIN} not found); CI always has it")
    from training.export_onnx import export
    model = tmp_path_factory.mktemp("onnx") / "m"
    shutil.copytree(default_model_path(), model, ignore=shutil.ignore_patterns("onnx"))
    info = export(model, n_calibration=60)
    assert (model / "onnx" / "model_qint8.onnx").is_file()
    assert info["kept_fp32_groups"] == ["ffn_down", "embeddings"]
    assert len(info["kept_fp32"]) == 6 + 3           # six FFN down-projections, word/position/type lookups
    assert sum("embeddings" in n and n.endswith("Gather") for n in info["kept_fp32"]) == 3
    assert json.loads((model / "onnx" / "export.json").read_text())["calibration"].startswith("claims_train")
    return model


def _pairs(n=48):
    from training.claim_pairs import CLAIMS_DEV, read_rows
    rows = read_rows(CLAIMS_DEV)[:n]
    return [(r["existing"]["text"], r["incoming"]["text"]) for r in rows]


def test_a_pair_scores_the_same_alone_and_in_any_batch(exported):
    from guard.nli.scorer import NLIScorer
    pairs = _pairs()
    batched = NLIScorer(exported, quantize=True)
    assert batched.backend == "onnxruntime static int8"
    together = batched.predict(pairs)
    alone = NLIScorer(exported, quantize=True, batch_size=1)
    reversed_batch = NLIScorer(exported, quantize=True).predict(pairs[::-1])[::-1]
    for p, a, r in zip(pairs, together, reversed_batch):
        one = alone.predict([p])[0]
        assert max(abs(one[k] - a[k]) for k in a) < 1e-6 and max(abs(r[k] - a[k]) for k in a) < 1e-6


def test_static_int8_stays_close_to_fp32(exported):
    from guard.nli.scorer import NLIScorer
    pairs = _pairs()
    q = NLIScorer(exported, quantize=True).predict(pairs)
    f = NLIScorer(exported).predict(pairs)
    agree = np.mean([max(a, key=a.get) == max(b, key=b.get) for a, b in zip(q, f)])
    drift = np.mean([abs(a["contradiction"] - b["contradiction"]) for a, b in zip(q, f)])
    assert agree >= 0.9 and drift < 0.06


def test_a_damaged_export_is_refused_in_one_line(exported, tmp_path):
    from guard.nli.scorer import ModelUnavailable, NLIScorer
    broken = tmp_path / "m"
    shutil.copytree(exported, broken)
    (broken / "onnx" / "model_qint8.onnx").write_bytes(b"not an onnx graph")
    with pytest.raises(ModelUnavailable, match="model_qint8.onnx") as err:
        NLIScorer(broken, quantize=True)
    assert "\n" not in str(err.value)


def test_an_export_of_other_weights_is_refused_in_one_line(exported, tmp_path):
    """The int8 graph beside the weights it was made from: weights replaced later (a copied-in
    fine-tune) kept running the old model's graph under the new name."""
    from safetensors.torch import load_file, save_file

    from guard.nli.scorer import ModelUnavailable, NLIScorer
    info = json.loads((exported / "onnx" / "export.json").read_text())
    assert info["weights"]["file"] == "model.safetensors" and len(info["weights"]["fingerprint"]) == 20
    moved = tmp_path / "moved"
    shutil.copytree(exported, moved)
    w = load_file(str(moved / "model.safetensors"))
    k = next(k for k in w if "layer.2.attention.self.query.weight" in k)
    w[k] = w[k] * 0.5
    save_file(w, str(moved / "model.safetensors"), metadata={"format": "pt"})
    with pytest.raises(ModelUnavailable, match="made from other weights than this folder's model.safetensors") as err:
        NLIScorer(moved, quantize=True)
    assert "\n" not in str(err.value) and "training.export_onnx" in str(err.value)
    old = tmp_path / "old"
    shutil.copytree(exported, old)
    (old / "onnx" / "export.json").write_text(json.dumps({k: v for k, v in info.items() if k != "weights"}))
    with pytest.raises(ModelUnavailable, match="does not record the weights it was made from"):
        NLIScorer(old, quantize=True)


def test_an_unknown_calibration_method_is_refused_before_any_work(tmp_path):
    from training.export_onnx import export
    with pytest.raises(ValueError, match="minmax, percentile, entropy"):
        export(tmp_path / "no-model", method="kl")


def test_an_unknown_fp32_group_is_refused_before_any_work(tmp_path):
    from training.export_onnx import export
    with pytest.raises(ValueError, match="unknown fp32 group 'attention'.*ffn_down, embeddings, head"):
        export(tmp_path / "no-model", keep_fp32=("ffn_down", "attention"))


def test_histogram_calibration_with_general_pairs_exports_a_deterministic_model(exported, tmp_path):
    """Percentile needs one activation shape across calibration batches (padded to max length)."""
    from guard.nli.scorer import NLIScorer
    from training.claim_pairs import SHARED_BENCH
    from training.export_onnx import export
    model = tmp_path / "m"
    shutil.copytree(exported, model)
    info = export(model, n_calibration=10, method="percentile",
                  general=[SHARED_BENCH.parent / "nli" / "snli.dev.jsonl"], n_general=10)
    assert info["method"] == "percentile" and "10 general NLI pairs from snli.dev.jsonl" in info["calibration"]
    pairs = _pairs(8)
    together = NLIScorer(model, quantize=True).predict(pairs)
    alone = NLIScorer(model, quantize=True, batch_size=1)
    for p, a in zip(pairs, together):
        one = alone.predict([p])[0]
        assert max(abs(one[k] - a[k]) for k in a) < 1e-6
