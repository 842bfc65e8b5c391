"""The default CPU backend: both models in ONNX Runtime fp32, exported once from their own
weights. Same scores as torch, no torch import on a CLI write, a stale or impossible export
never used, concurrent first uses safe. Real models, real subprocesses."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from guard.onnx_runtime import OrtModel, export_path

pytestmark = pytest.mark.slow
PAIRS = [("Contractors must not have production database access.",
          "Contractors on the data team can query the production database directly."),
         ("The cache listens on port 6379.", "The cache does not listen on port 6380."),
         ("X preserves ordering and rejects null keys.", "X preserves ordering."),
         ("Secrets are stored in Vault.", "Secrets are stored in AWS Secrets Manager, " * 30)]   # truncated


def test_scores_and_vectors_match_torch():
    from guard.embed import Embedder
    from guard.nli.scorer import NLIScorer
    ort, torch_ = NLIScorer(), NLIScorer(backend="torch")
    assert ort.backend == "onnxruntime fp32" and torch_.backend == "torch fp32"
    for a, b in zip(ort.score_both(PAIRS), torch_.score_both(PAIRS)):
        for d1, d2 in zip(a, b):
            assert max(abs(d1[k] - d2[k]) for k in d1) < 1e-4
    e = Embedder()
    assert e.backend == "onnxruntime fp32"
    os.environ["GUARD_BACKEND"] = "torch"
    try:
        t = Embedder()
    finally:
        del os.environ["GUARD_BACKEND"]
    assert t.backend == "torch fp32" and e.name == t.name        # stored vectors stay valid across backends
    texts = [x for p in PAIRS for x in p]
    assert np.abs(e.encode(texts) - t.encode(texts)).max() < 1e-4


def test_a_cli_write_imports_no_torch(tmp_path):
    from guard.embed import Embedder
    from guard.nli.scorer import NLIScorer
    assert NLIScorer()._ort is not None and Embedder()._ort is not None     # exported once, here if not before
    code = ("import sys; from guard.service import GuardService; s = GuardService(sys.argv[1]); "
            "s.remember('The API listens on port 8443.'); s.check('The API must not listen on port 8443.'); "
            "assert s.guard.nli_gate is not None; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('torch', 'sentence_transformers', 'transformers')))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "s.sqlite")], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_an_export_is_keyed_by_the_weights_and_made_once_under_concurrency(tmp_path):
    from guard.nli.scorer import default_model_path
    model = tmp_path / "m"
    shutil.copytree(default_model_path(), model, ignore=shutil.ignore_patterns("onnx"))
    env = {**os.environ, "GUARD_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import sys; from guard.onnx_runtime import OrtModel; "
            "m = OrtModel(sys.argv[1], 'cross-encoder', 128); print(m.onnx_file, m.run([('a b', 'c')])[0].shape)")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(model)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e[-1500:] for _, e in outs]
    files = {o.split()[0] for o, _ in outs}
    assert len(files) == 1 and all("(3,)" in o for o, _ in outs)
    left = sorted(x.name for x in (tmp_path / "cache" / "onnx").iterdir())
    assert left == [Path(files.pop()).name]                      # no temporary files left behind
    os.environ["GUARD_CACHE_DIR"] = str(tmp_path / "cache")
    try:
        before = export_path(model, "cross-encoder")
        data = bytearray((model / "model.safetensors").read_bytes())
        data[-10:] = b"\x00" * 10                                   # retrained weights: another fingerprint
        (model / "model.safetensors").write_bytes(bytes(data))
        assert export_path(model, "cross-encoder") != before
    finally:
        del os.environ["GUARD_CACHE_DIR"]


def test_models_differing_in_a_middle_layer_get_their_own_export_and_scores(tmp_path, monkeypatch):
    """The fingerprint read only the file's two ends; safetensors sorts tensors by name, so a model
    with another encoder layer but the same embeddings and head ran the first model's cached
    export and read its scores from a store."""
    from safetensors.torch import load_file, save_file

    import guard.onnx_runtime as ort_mod
    from guard.nli.scorer import NLIScorer, default_model_path
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(ort_mod, "_FINGERPRINTS", None)
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        shutil.copytree(default_model_path(), d, ignore=shutil.ignore_patterns("onnx"))
    weights = load_file(str(b / "model.safetensors"))
    name = next(k for k in weights if "layer.2.attention.self.query.weight" in k)
    weights[name] = weights[name] * 0.0                         # another model, same ends of the file
    save_file(weights, str(b / "model.safetensors"), metadata={"format": "pt"})
    assert (a / "model.safetensors").stat().st_size == (b / "model.safetensors").stat().st_size
    assert export_path(a, "cross-encoder") != export_path(b, "cross-encoder")
    sa, sb = NLIScorer(str(a)), NLIScorer(str(b))
    assert sa.fingerprint != sb.fingerprint                        # a store's NLI cache keeps them apart
    pa, pb = sa.predict(PAIRS[:2]), sb.predict(PAIRS[:2])
    assert max(abs(x[k] - y[k]) for x, y in zip(pa, pb) for k in x) > 1e-3
    # each digest is remembered by the file's state: a later process reads it back, and a file
    # rewritten in place (same size) is hashed again
    remembered = ort_mod.read_json(tmp_path / "cache" / "fingerprints.json")
    assert sorted(remembered.values()) == sorted({export_path(a, "cross-encoder").stem.split("-", 2)[-1],
                                                  export_path(b, "cross-encoder").stem.split("-", 2)[-1]})
    before = export_path(a, "cross-encoder")
    shutil.copyfile(b / "model.safetensors", a / "model.safetensors")
    assert export_path(a, "cross-encoder") == export_path(b, "cross-encoder") != before


def test_no_export_possible_falls_back_to_torch(tmp_path, caplog):
    from guard.nli.scorer import NLIScorer, default_model_path
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the cache folder should be")
    os.environ["GUARD_CACHE_DIR"] = str(blocked)
    try:
        assert OrtModel.load(default_model_path(), "cross-encoder", 128) is None
        s = NLIScorer()
    finally:
        del os.environ["GUARD_CACHE_DIR"]
    assert s.backend == "torch fp32" and "ONNX Runtime unavailable" in caplog.text
    assert s.predict(PAIRS[:1])[0]["contradiction"] > 0.5


def test_both_sessions_let_their_threads_sleep_between_runs():
    """A write runs the cross-encoder and then the bi-encoder; a session whose threads spin after a
    run holds the cores the next step needs (write latency, README: session 9)."""
    from guard.embed import Embedder
    from guard.nli.scorer import NLIScorer
    for model in (NLIScorer()._ort, Embedder()._ort):
        opts = model.session.get_session_options()
        assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
        assert opts.intra_op_num_threads == min(2, os.cpu_count() or 1)


def test_a_model_without_segment_ids_exports_and_matches_torch(tmp_path):
    """MPNet (the larger base) takes no token_type_ids and pads with id 1: its export used to fail
    (the scorer fell back to torch) — now it runs in ONNX Runtime with torch's scores."""
    import torch
    from transformers import MPNetConfig, MPNetForSequenceClassification

    from guard.nli.scorer import NLIScorer, default_model_path
    torch.manual_seed(0)
    cfg = MPNetConfig(vocab_size=30527, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                      intermediate_size=64, max_position_embeddings=514, pad_token_id=1, num_labels=3,
                      id2label={0: "contradiction", 1: "entailment", 2: "neutral"},
                      label2id={"contradiction": 0, "entailment": 1, "neutral": 2})
    model_dir = tmp_path / "tiny-mpnet"
    MPNetForSequenceClassification(cfg).eval().save_pretrained(model_dir)
    for f in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(Path(default_model_path()) / f, model_dir / f)
    os.environ["GUARD_CACHE_DIR"] = str(tmp_path / "cache")
    try:
        ort = NLIScorer(model_dir, calibrated=False)
    finally:
        del os.environ["GUARD_CACHE_DIR"]
    assert ort.backend == "onnxruntime fp32"
    assert [i.name for i in ort._ort.session.get_inputs()] == ["input_ids", "attention_mask"]
    torch_ = NLIScorer(model_dir, calibrated=False, backend="torch")
    batch = ort.score_both(PAIRS)
    for a, b in zip(batch, torch_.score_both(PAIRS)):
        for d1, d2 in zip(a, b):
            assert max(abs(d1[k] - d2[k]) for k in d1) < 1e-4
    alone = ort.score_both(PAIRS[2:3])[0]                     # padded in a batch = scored alone
    assert max(abs(alone[0][k] - batch[2][0][k]) for k in alone[0]) < 1e-5
