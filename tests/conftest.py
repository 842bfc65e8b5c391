"""Shared fixtures: the real spaCy normalizer and guards are loaded once per session."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEV_SET = SHARED / "data" / "bench" / "claims_dev.jsonl"
NLI_DIR = SHARED / "data" / "nli"


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


@pytest.fixture(scope="session")
def normalizer_v2():
    from guard.normalize.rules_v2 import RuleNormalizerV2
    return RuleNormalizerV2()
