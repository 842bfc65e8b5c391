"""The ONNX copies' cache stays bounded: the least recently used copies go first, the copy just
made and copies in use stay, and a copy pruned by another process is made again when asked for."""
import os
import time

import pytest

from guard.onnx_runtime import cache_budget_bytes, prune_exports


def _copy(folder, name, size, age):
    f = folder / name
    f.write_bytes(b"x" * size)
    t = time.time() - age
    os.utime(f, (t, t))
    return f


def test_the_least_recently_used_copies_go_until_the_rest_fit(tmp_path):
    old = _copy(tmp_path, "cross-encoder-old.onnx", 400, age=300)
    mid = _copy(tmp_path, "bi-encoder-mid.onnx", 400, age=200)
    new = _copy(tmp_path, "cross-encoder-new.onnx", 400, age=100)
    other = _copy(tmp_path, "notes.txt", 5000, age=1000)            # not a copy: never touched
    assert prune_exports(tmp_path, budget=900) == [old]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mid.name, new.name, other.name])
    assert prune_exports(tmp_path, budget=0, keep=mid) == [new]       # the kept one stays even over budget
    assert mid.exists() and prune_exports(tmp_path, budget=10_000) == []


def test_the_budget_comes_from_the_environment_and_a_bad_value_is_not_fatal(monkeypatch):
    monkeypatch.setenv("GUARD_CACHE_MAX_MB", "1.5")
    assert cache_budget_bytes() == int(1.5 * 1024 * 1024)
    monkeypatch.setenv("GUARD_CACHE_MAX_MB", "lots")
    assert cache_budget_bytes() == 2048 * 1024 * 1024
    monkeypatch.delenv("GUARD_CACHE_MAX_MB")
    assert cache_budget_bytes() == 2048 * 1024 * 1024


@pytest.mark.slow
def test_a_new_export_prunes_old_copies_and_a_pruned_copy_is_made_again(tmp_path, monkeypatch):
    from guard.nli.scorer import default_model_path
    from guard.onnx_runtime import OrtModel, export_path
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("GUARD_CACHE_MAX_MB", "100")                  # room for one ~90 MB copy
    folder = tmp_path / "cache" / "onnx"
    folder.mkdir(parents=True)
    stale = [_copy(folder, f"cross-encoder-stale{i}.onnx", 20 * 1024 * 1024, age=1000 + i) for i in range(3)]
    import guard.safe_output as so
    synced, real_fsync = [], os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(so.os, "fsync", fsync)
    m = OrtModel(default_model_path(), "cross-encoder", 128)
    assert m.onnx_file == export_path(default_model_path(), "cross-encoder") and m.onnx_file.is_file()
    # the export's bytes reached the disk before it was renamed into place, and the rename after
    assert [p.endswith(".onnx.tmp") for p in synced] == [True, False] and synced[1] == str(folder)
    monkeypatch.setattr(so.os, "fsync", real_fsync)
    assert not any(f.exists() for f in stale)
    before = m.run([("Backups run daily.", "Backups never run.")])[0]
    m.onnx_file.unlink()                                             # as another process's pruning would
    again = OrtModel(default_model_path(), "cross-encoder", 128)
    assert again.onnx_file.is_file()
    assert abs(again.run([("Backups run daily.", "Backups never run.")])[0] - before).max() < 1e-5
    assert m.run([("Backups run daily.", "Backups never run.")])[0].tolist() == before.tolist()   # still open
    # a copy cut short (a crash before the file reached the disk) is made again, not left to send every
    # later run to torch for good
    again.onnx_file.write_bytes(again.onnx_file.read_bytes()[:1000])
    mended = OrtModel.load(default_model_path(), "cross-encoder", 128)
    assert mended is not None and mended.onnx_file.stat().st_size > 1_000_000
    assert abs(mended.run([("Backups run daily.", "Backups never run.")])[0] - before).max() < 1e-5


@pytest.mark.slow
def test_a_first_run_that_exports_the_models_stays_quiet(tmp_path):
    """A fresh machine's first command exports both models to ONNX; transformers' weight-loading bars
    ("Loading weights: 100%|…") are not the command's output, and --quiet prints nothing but errors."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": "p1", "existing": {"text": "Backups run daily."},
                                 "incoming": {"text": "Backups never run."}}) + "\n")
    env = {**os.environ, "GUARD_CACHE_DIR": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"}
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--quiet", "compare", str(pairs), "-o",
                        str(tmp_path / "out.jsonl")], capture_output=True, text=True, env=env, check=False,
                       cwd=Path(__file__).resolve().parents[1])
    assert r.returncode == 0, r.stderr
    exported = sorted(p.name.split("-")[0] for p in (tmp_path / "cache" / "onnx").glob("*.onnx"))
    assert exported == ["bi", "cross"]                        # both were exported by this run
    assert "Loading weights" not in r.stderr and "it/s" not in r.stderr, r.stderr
    assert json.loads((tmp_path / "out.jsonl").read_text())["id"] == "p1"
