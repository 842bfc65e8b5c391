"""A command's output never costs its input: the real `guard` command refusing output paths that
would destroy a claims file, a store or another output, and reports written whole or not at all."""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from guard.claims import ClaimError
from guard.safe_output import atomic_write, check_outputs

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "claims.jsonl"


def guard(*args, store=None, cwd=None):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    if store:
        env["GUARD_STORE"] = str(store)
    return subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", *map(str, args)],
                          check=False, capture_output=True, text=True, env=env, cwd=cwd or ROOT)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(r, *words):
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    for w in words:
        assert w in r.stderr, r.stderr


@pytest.fixture(scope="module")
def ingested(tmp_path_factory) -> Path:
    """The example claims ingested once by the real command; each test gets its own copy of the file."""
    store = tmp_path_factory.mktemp("ingested") / "team.sqlite"
    assert guard("ingest", EXAMPLE, store=store).returncode == 0
    assert not Path(f"{store}-wal").exists() or Path(f"{store}-wal").stat().st_size == 0
    return store


@pytest.fixture()
def work(tmp_path, ingested):
    claims = tmp_path / "claims.jsonl"
    shutil.copy(EXAMPLE, claims)
    store = tmp_path / "team.sqlite"
    shutil.copy(ingested, store)
    return tmp_path, claims, store


def active(store: Path) -> int:
    r = guard("list", "--json", store=store)
    assert r.returncode == 0, r.stderr
    return len(r.stdout.splitlines())


@pytest.mark.parametrize("args, words", [
    (("scan", "{claims}", "--out", "{claims}"), ("--out", "the claims file scanned")),
    (("scan", "{claims}", "-o", "r.jsonl", "--html", "{claims}"), ("--html", "the claims file scanned")),
    (("scan", "{claims}", "-o", "./sub/../claims.jsonl"), ("the claims file scanned",)),
    (("scan", "{claims}", "-o", "{link}"), ("the claims file scanned",)),
    (("scan", "{claims}", "-o", "{hard}"), ("the claims file scanned",)),
    (("scan", "{claims}", "-o", "r.jsonl", "--html", "r.jsonl"), ("--out and --html name the same file",)),
    (("scan", "{claims}", "-o", "{store}"), ("SQLite database",)),
    (("compare", "{claims}", "--out", "{claims}"), ("the pairs file",)),
    (("eval-nli", "no-such-model", "{claims}", "--out", "{claims}"), ("the data file claims.jsonl",)),
    (("answer", "split", "Deploy and then roll back.", "--trace", "{store}"), ("--trace", "SQLite database")),
    (("answer", "audit", "{claims}", "--trace", "{claims}"), ("--trace", "the request file")),
])
def test_an_output_naming_the_input_is_refused_and_the_input_kept(work, args, words):
    tmp, claims, store = work
    (tmp / "sub").mkdir()
    (tmp / "link.jsonl").symlink_to(claims)
    os.link(claims, tmp / "hard.jsonl")
    before, n = digest(claims), active(store)
    fill = {"claims": claims, "store": store, "link": tmp / "link.jsonl", "hard": tmp / "hard.jsonl"}
    r = guard(*[a.format(**fill) for a in args], store=store, cwd=tmp)
    refused(r, *words)
    assert digest(claims) == before and active(store) == n
    assert not (tmp / "r.jsonl").exists() and not list(tmp.glob(".*.tmp"))


@pytest.mark.parametrize("target, words", [("{store}", ("the store scanned",)),
                                           ("{store}-wal", ("the store scanned's wal file",)),
                                           ("{store}-journal", ("the store scanned's journal file",))])
def test_a_store_is_never_replaced_by_its_report(work, target, words):
    tmp, _, store = work
    before, n = digest(store), active(store)
    for flag in ("--out", "--html"):
        args = ["scan", store, "--fail-on", "never"] + (["--out", target.format(store=store)] if flag == "--out"
                                                        else ["--out", tmp / "r.jsonl", "--html", target.format(store=store)])
        refused(guard(*args, store=store), flag, *words)
    assert digest(store) == before and active(store) == n


def test_a_report_still_replaces_an_earlier_report(work):
    tmp, _, store = work
    out, page = tmp / "report.jsonl", tmp / "report.html"
    out.write_text("an earlier report\n")
    os.chmod(out, 0o640)
    r = guard("scan", store, "--out", out, "--html", page, "--fail-on", "never", store=store)
    assert r.returncode == 0, r.stderr
    findings = [json.loads(x) for x in out.read_text().splitlines()]
    assert findings and all("tier" in f for f in findings)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640                 # the file's permissions stay its own
    assert page.read_text().startswith("<!DOCTYPE html") or "<html" in page.read_text()
    assert not list(tmp.glob(".*.tmp"))


def test_training_into_a_model_folder_is_refused_before_any_work(tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    for name in ("config.json", "model.safetensors", "learned_gate.json"):
        (model / name).write_text(name)
    before = {p.name: digest(p) for p in model.iterdir()}
    refused(guard("train", model, "--from", model), "is the model trained from")
    refused(guard("train", model), "already holds a model", "model.safetensors")
    refused(guard("train", tmp_path / "model" / "config.json"), "is a file")
    r = subprocess.run([sys.executable, "-m", "training.train", str(model), "--max-steps", "1"],
                       check=False, capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "already holds a model" in r.stderr and "Traceback" not in r.stderr
    assert {p.name: digest(p) for p in model.iterdir()} == before


@pytest.mark.parametrize("setting, words", [
    ({"epochs": 0}, "--epochs must be above 0"), ({"epochs": -1}, "--epochs must be above 0"),
    ({"epochs": float("nan")}, "finite"), ({"learning_rate": -1}, "--lr must be between 0 and 1"),
    ({"learning_rate": float("inf")}, "finite"), ({"batch_size": 0}, "--batch-size must be at least 1"),
    ({"limit": -5}, "--limit must be at least 1"), ({"max_length": 4}, "max_length must be 16-512"),
    ({"repeat": {"pairs.jsonl": 0}}, "repeat and sample counts"),
])
def test_settings_that_would_train_nothing_or_something_else_are_refused_before_any_work(tmp_path, setting, words):
    """`guard train OUT --epochs 0` saved a model whose classifier head was never trained (random weights
    the guard would gate writes with); `--limit -5` trained on all but five pairs; `--lr -1` failed only
    after the model had loaded."""
    from training.data import DataError
    from training.train import TrainConfig, train
    out = tmp_path / "new" / "model"
    with pytest.raises(DataError, match=words.replace("-", "\\-").replace(".", "\\.")):
        train(TrainConfig(output_dir=str(out), train_files=[], **setting))
    assert not (tmp_path / "new").exists()


def test_the_cli_refuses_a_run_that_would_train_nothing_in_one_line(tmp_path):
    out = tmp_path / "model"
    refused(guard("train", out, "--epochs", "0"), "--epochs must be above 0")
    refused(guard("train", out, "--limit", "-5"), "--limit must be at least 1")
    assert not out.exists()


def test_a_second_training_run_into_one_folder_is_refused_at_once(tmp_path):
    """A run in progress holds its output folder (training.folder_lock); another run of the same command
    would take the first's checkpoints for its own, so it is refused in one line and touches nothing."""
    pytest.importorskip("filelock")
    from filelock import FileLock
    out = tmp_path / "model"
    (out / "_checkpoints").mkdir(parents=True)
    (out / "_checkpoints" / "trainer_state.json").write_text("{}")
    lock = FileLock(str(out / ".train.lock"), timeout=0)
    lock.acquire()                                  # the run in progress
    try:
        data = tmp_path / "pairs.jsonl"
        data.write_text(json.dumps({"premise": "A runs.", "hypothesis": "A stops.", "label": "contradiction"}) + "\n")
        before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
        refused(guard("train", out, "--data", data, "--max-steps", "1"), "another training run is working in")
        assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before
    finally:
        lock.release()


def test_check_outputs_names_each_problem(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text("{}\n")
    check_outputs({"--out": tmp_path / "new.jsonl", "--html": None}, {"the input": inp})     # fine
    with pytest.raises(ClaimError, match="it is a folder"):
        check_outputs({"--out": tmp_path}, {})
    with pytest.raises(ClaimError, match="no such folder"):
        check_outputs({"--out": tmp_path / "nope" / "r.jsonl"}, {})
    with pytest.raises(ClaimError, match="is the input"):
        check_outputs({"--out": inp}, {"the input": inp})


def test_a_failed_write_leaves_the_previous_file_whole(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("old\n")
    with pytest.raises(TypeError), atomic_write(path) as fh:
        fh.write("new line\n")
        fh.write(json.dumps({"x": object()}))            # fails half way through the report
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.jsonl"]


def test_a_failed_scan_report_leaves_the_previous_report_whole(tmp_path):
    from guard.scan import ScanReport, write_report
    path = tmp_path / "r.csv"
    path.write_text("old report\n")
    rep = ScanReport(claims=2, pairs_compared=1, seconds=0.0,
                     findings=[{"tier": "block", "existing_id": "a", "incoming_id": "b"}, {"tier": "block", "nli": None}])
    with pytest.raises(AttributeError):                     # the second finding's nli is not a mapping
        write_report(rep, path, "csv")
    assert path.read_text() == "old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]


def test_a_new_file_gets_the_usual_permissions(tmp_path):
    old = os.umask(0o027)
    try:
        with atomic_write(tmp_path / "new.json") as fh:
            fh.write("{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


def test_streams_are_written_into_and_symlinks_kept(work):
    """`--out /dev/stdout` and a FIFO are written into, never renamed over; a symlinked report
    stays a symlink and the file it names gets the report."""
    import threading
    tmp, claims, _ = work
    r = guard("scan", claims, "--out", "/dev/stdout", "--fail-on", "never")
    assert r.returncode == 0 and json.loads(r.stdout.splitlines()[0])["tier"] == "block"
    fifo = tmp / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    r = guard("scan", claims, "--out", fifo, "--fail-on", "never")
    reader.join(timeout=60)
    assert r.returncode == 0 and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and all(json.loads(x)["tier"] for x in got[0].splitlines())
    (tmp / "link.jsonl").symlink_to("target.jsonl")
    r = guard("scan", claims, "--out", tmp / "link.jsonl", "--fail-on", "never")
    assert r.returncode == 0 and (tmp / "link.jsonl").is_symlink()
    assert json.loads((tmp / "target.jsonl").read_text().splitlines()[0])["tier"] == "block"


def test_durable_replace_syncs_the_file_then_the_rename(tmp_path, monkeypatch):
    """A model export renamed into place without a sync could read back empty after a power cut (the
    rename reaching the disk before the bytes it names). The file's bytes are synced before the rename,
    the folder after it."""
    import guard.safe_output as so
    order, real_fsync, real_replace = [], os.fsync, os.replace

    def fsync(fd):
        order.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(a, b):
        order.append(("replace", str(a)))
        real_replace(a, b)

    monkeypatch.setattr(so.os, "fsync", fsync)
    monkeypatch.setattr(so.os, "replace", replace)
    (tmp_path / "model.onnx").write_bytes(b"old")
    tmp = tmp_path / "model.onnx.tmp"
    tmp.write_bytes(b"new weights")
    so.durable_replace(tmp, tmp_path / "model.onnx")
    assert (tmp_path / "model.onnx").read_bytes() == b"new weights" and not tmp.exists()
    assert order == [("fsync", str(tmp)), ("replace", str(tmp)), ("fsync", str(tmp_path))]

