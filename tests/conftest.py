"""Shared fixtures: the real spaCy normalizer and guards are loaded once per session."""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Each pytest-xdist worker (and every process it starts) gets its share of the cores for torch's and the BLAS
# libraries' thread pools. By default each took all of them, so two workers on 2 cores ran four busy-waiting
# OpenMP threads: the training tests cost 368 s of CPU and 225 s of wall time with the default, 203 s and 140 s with
# one thread each (session 80, tests/test_claim_pairs.py and tests/test_objectives.py in two workers). Set before
# anything imports torch; a value the caller set is kept.
if os.environ.get("PYTEST_XDIST_WORKER_COUNT", "").isdigit():
    os.environ.setdefault("OMP_NUM_THREADS",
                          str(max(1, (os.cpu_count() or 1) // int(os.environ["PYTEST_XDIST_WORKER_COUNT"]))))

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEV_SET = SHARED / "data" / "bench" / "claims_dev.jsonl"
NLI_DIR = SHARED / "data" / "nli"


def make_store(path: Path) -> Path:
    """An empty claim store at ``path``: the commands that read a store refuse a path with none."""
    from guard.store import ClaimStore
    ClaimStore(path).close()
    return path


@contextlib.contextmanager
def running_server(tmp_path, *global_args: str):
    """``guard serve`` in a subprocess on a free loopback port; yields its base URL once it answers."""
    import httpx
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GUARD_STORE": str(tmp_path / "s.sqlite"), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "guard.cli", *global_args, "serve", "--port", str(port)],
                            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                httpx.get(base + "/health", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None:
                    raise RuntimeError(proc.stderr.read().decode())
                time.sleep(0.25)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="session")
def normalizer():
    from guard.normalize.rules import RuleNormalizer
    return RuleNormalizer()


@pytest.fixture(scope="session")
def fast_guard(normalizer):
    from guard.pipeline import Guard, GuardConfig
    return Guard(GuardConfig(stages=("structural",)), normalizer=normalizer)


@pytest.fixture
def store(tmp_path, fast_guard):
    from guard.service import GuardService
    s = GuardService(tmp_path / "claims.sqlite", guard=fast_guard)
    yield s
    s.close()


@pytest.fixture
def shared_data():
    if not DEV_SET.exists():
        pytest.skip(f"../shared is absent ({DEV_SET} not found); CI always has it")
    return SHARED / "data"


def structural_verdict(normalizer, a: str, b: str, wa=None, wb=None):
    """How the structural compare judges two statements as ``normalizer`` reads them (no scope; each its validity
    window where given): one helper for the tests of the comparator's readings."""
    from guard.claims import Scope, Window
    from guard.compare import StructuralComparator
    na, nb = normalizer.normalize(a, Scope(), wa or Window()), normalizer.normalize(b, Scope(), wb or Window())
    return StructuralComparator().compare(na, a, nb, b)


@pytest.fixture(scope="session")
def normalizer_v2():
    from guard.normalize.rules_v2 import RuleNormalizerV2
    return RuleNormalizerV2()


@pytest.fixture(scope="session")
def gate_parts():
    """(a structural guard with normalizer v2, the real bi-encoder): what a learned gate's table is built with
    (``training.gate_data.build``); skips where the bi-encoder is not installed."""
    from guard.embed import Embedder
    from guard.pipeline import Guard, GuardConfig
    try:
        embedder = Embedder()
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"the bi-encoder is not installed: {exc}")
    return Guard(GuardConfig(normalizer="normalizer.rules.v2", stages=("structural",))), embedder
