"""LoRA adapters (training/lora.py, guard/nli/adapters.py) and the base chunks that carry a larger
base to the lent GPU machine (training/base_chunks.py): a model shipped as an adapter must score what
the merged model it was trained as scores, and a base joined from chunks must be the base, bit for bit."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("peft")

SPEC = {"r": 4, "alpha": 8, "dropout": 0.0, "targets": ["query", "value", "intermediate.dense"]}
PAIRS = [("Prod deploys need two approvals.", "Production deploys need no approval."),
         ("The API listens on 8443.", "The API listens on port 8443."),
         ("Only example.com mail is allowed.", "The cafeteria opens at noon.")]


@pytest.fixture(scope="module")
def trained(tmp_path_factory, request):
    """A general stage and a claim stage that trains the same adapter further, a few steps each."""
    shared = Path(__file__).resolve().parents[2] / "shared" / "data" / "nli" / "snli.dev.jsonl"
    if not shared.exists():
        pytest.skip(f"../shared is absent ({shared} not found); CI always has it")
    from training.train import TrainConfig, train
    d = tmp_path_factory.mktemp("lora")
    common = {"train_files": [str(shared)], "limit": 48, "domain_pairs": False, "max_steps": 3, "batch_size": 16,
              "learning_rate": 2e-3, "lora": SPEC}
    g = train(TrainConfig(output_dir=str(d / "general"), save_fp16=False, **common))
    c = train(TrainConfig(output_dir=str(d / "claims"), from_checkpoint=str(d / "general"), seed=7, **common))
    return d, g, c


@pytest.mark.slow
def test_training_saves_adapter_beside_merged_model(trained):
    d, g, c = trained
    for stage, summary in (("general", g), ("claims", c)):
        assert (d / stage / "lora" / "adapter_model.safetensors").is_file()
        assert json.loads((d / stage / "lora" / "base.json").read_text()) == {"base": "package:all-minilm-l6-v2"}
        assert (d / stage / "model.safetensors").is_file()
        assert 0 < summary["lora"]["trainable_parameters"] < 1_000_000     # MiniLM has 22.7M
    # the claim stage trained the general stage's adapter further: its adapter differs from the start
    from safetensors.torch import load_file
    a, b = (load_file(str(d / s / "lora" / "adapter_model.safetensors")) for s in ("general", "claims"))
    assert a.keys() == b.keys()
    assert any(not (a[k] == b[k]).all() for k in a)


@pytest.fixture
def shipped(trained, tmp_path, monkeypatch):
    """The claim stage's folder as it ships: the adapter without the merged weights; an empty cache."""
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "shipped"
    shutil.copytree(trained[0] / "claims", folder, ignore=shutil.ignore_patterns("model.safetensors"))
    return folder


@pytest.mark.slow
def test_adapter_folder_scores_as_the_merged_model(trained, shipped, tmp_path):
    from guard.nli.scorer import NLIScorer
    merged = NLIScorer(trained[0] / "claims", backend="torch", calibrated=False).predict(PAIRS)
    rebuilt = NLIScorer(shipped, backend="torch", calibrated=False)
    assert Path(rebuilt.path).parent == tmp_path / "cache" / "adapters"
    for m, r in zip(merged, rebuilt.predict(PAIRS)):
        assert all(abs(m[k] - r[k]) < 2e-3 for k in m), (m, r)
    # built once: a second load reads the same copy and rebuilds nothing
    stamp = (Path(rebuilt.path) / "model.safetensors").stat().st_mtime_ns
    again = NLIScorer(shipped, backend="torch", calibrated=False)
    assert again.path == rebuilt.path
    assert (Path(again.path) / "model.safetensors").stat().st_mtime_ns == stamp
    assert [p.name for p in (tmp_path / "cache" / "adapters").iterdir()] == [Path(rebuilt.path).name]


@pytest.mark.slow
def test_refitted_gate_is_read_not_a_stale_copy(shipped, tmp_path):
    """The rebuilt copy carries the folder's gate and calibration: changing one makes a new copy (and
    drops the old one), so the guard never reads a gate the folder no longer holds."""
    from guard.nli.scorer import NLIScorer
    first = Path(NLIScorer(shipped, backend="torch").path)
    (shipped / "learned_gate.json").write_text('{"refitted": true}')
    second = Path(NLIScorer(shipped, backend="torch").path)
    assert second != first and not first.exists()
    assert (second / "learned_gate.json").read_text() == '{"refitted": true}'
    assert [p.name for p in (tmp_path / "cache" / "adapters").iterdir()] == [second.name]


@pytest.mark.slow
def test_damaged_adapter_folder_is_one_line(shipped):
    from guard.nli.scorer import ModelUnavailable, NLIScorer
    (shipped / "lora" / "base.json").write_text('{"base": "package:no-such-base"}')
    with pytest.raises(ModelUnavailable, match="no-such-base") as err:
        NLIScorer(shipped, backend="torch")
    assert "\n" not in str(err.value)


def test_lora_block_refused_before_training():
    from training.lora import check_spec
    with pytest.raises(ValueError, match="unknown keys"):
        check_spec({"r": 4, "targets": ["q"], "rank": 4})
    with pytest.raises(ValueError, match="targets"):
        check_spec({"r": 4})
    # a full model cannot be trained further as an adapter: refused before any data or model loads
    from guard.nli.scorer import default_model_path
    from training.train import TrainConfig, train
    with pytest.raises(ValueError, match="is a full model, not an adapter folder"):
        train(TrainConfig(output_dir="/nonexistent/never-written", train_files=["/nonexistent.jsonl"],
                          from_checkpoint=str(default_model_path()), lora=SPEC))


def test_base_chunks_join_to_the_same_weights(tmp_path, monkeypatch):
    import torch
    from safetensors.torch import load_file, save_file

    from training import base_chunks
    base = tmp_path / "base"
    base.mkdir()
    tensors = {"encoder.w": torch.randn(64, 32), "pooler.dense.weight": torch.randn(8, 8),
               "embeddings.position_ids": torch.arange(10)}
    save_file(tensors, str(base / "model.safetensors"))
    (base / "config.json").write_text('{"model_type": "mpnet"}')
    chunks = [tmp_path / f".mp{k}" for k in (1, 2, 3)]
    sizes = base_chunks.split(str(base), tmp_path / "small", chunks, sizes=[1000, 1000])
    assert sizes[:2] == [1000, 1000] and sizes[2] > 0
    target = tmp_path / "joined"
    base_chunks.join(tmp_path / "small", target, chunks)
    got = load_file(str(target / "model.safetensors"))
    assert set(got) == {"encoder.w", "embeddings.position_ids"}          # the unused pooler stays behind
    assert got["encoder.w"].dtype == torch.float16 and got["embeddings.position_ids"].dtype == torch.int64
    assert torch.equal(got["encoder.w"], tensors["encoder.w"].half())
    assert (target / "config.json").read_text() == '{"model_type": "mpnet"}'
    # a chunk that did not arrive whole is refused, and no model file is left behind
    (chunks[1] / "weights.part01").write_bytes(b"\x00" * 1000)
    with pytest.raises(SystemExit, match="do not match"):
        base_chunks.join(tmp_path / "small", tmp_path / "bad", chunks)
    assert not (tmp_path / "bad" / "model.safetensors").exists()
