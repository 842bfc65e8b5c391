"""Stage 3: the gate's logic with a stub scorer, the scorer's loading, and the shipped model."""
import json
import re
import shutil
from pathlib import Path

import pytest

from guard.claims import Claim, Scope, Window
from guard.judge import Tier
from guard.nli import GateConfig, ModelUnavailable, NLIGate, NLIScorer
from guard.pipeline import Guard, GuardConfig

from conftest import ROOT

SHIPPED = ROOT / "models" / "nli-minilm-l6"


class StubScorer:
    """Says 'contradiction' with a fixed probability for every pair."""

    def __init__(self, p):
        self.p = p
        self.calls = 0

    def score_both(self, pairs):
        self.calls += len(pairs)
        d = {"contradiction": self.p, "entailment": (1 - self.p) / 2, "neutral": (1 - self.p) / 2}
        return [(d, d) for _ in pairs]


def items(normalizer, a, b):
    na = normalizer.normalize(a, Scope(), Window())
    nb = normalizer.normalize(b, Scope(), Window())
    return [(na, a, nb, b)]


def test_gate_refuses_to_block_an_unrelated_pair(normalizer):
    gate = NLIGate(StubScorer(0.99), GateConfig())
    [r] = gate.assess(items(normalizer, "Logs rotate daily.", "The on-call rotation changes weekly."))
    assert r.action == "warn" and not r.gates["subject"]
    assert "capped at warn" in r.reason


def test_gate_blocks_only_when_all_gates_pass(normalizer):
    gate = NLIGate(StubScorer(0.99), GateConfig())
    [r] = gate.assess(items(normalizer, "The master branch is always deployable.",
                            "The master branch is not deployable between releases."))
    assert r.gates["subject"] and r.gates["polarity"] and r.gates["overlap"]
    assert r.action == "block"
    [r] = gate.assess(items(normalizer, "The master branch is always deployable.",
                            "The master branch is deployable after every merge."))
    assert not r.gates["polarity"] and r.action == "warn"
    [r] = NLIGate(StubScorer(0.3), GateConfig()).assess(items(normalizer, "The master branch is always deployable.",
                                                              "The master branch is not deployable."))
    assert r.action == "none"


def test_ungated_nli_blocks_anything_it_believes(normalizer):
    gate = NLIGate(StubScorer(0.99), GateConfig(), gated=False)
    [r] = gate.assess(items(normalizer, "Logs rotate daily.", "The on-call rotation changes weekly."))
    assert r.action == "block"


def test_nli_runs_only_on_low_confidence_pairs(normalizer):
    stub = StubScorer(0.99)
    g = Guard(GuardConfig(), normalizer=normalizer, nli_gate=NLIGate(stub, GateConfig()))
    res = g.compare_claims([
        (Claim("X rejects null keys."), Claim("X supports null keys.")),              # HIGH: structural
        (Claim("Logs are on.", scope=Scope(env="dev")), Claim("Logs are off.", scope=Scope(env="prod"))),  # coexist
        (Claim("The master branch is always deployable."), Claim("Master is broken between releases.")),
    ])
    assert [j.stage for j in res[:2]] == ["structural", "none"]
    assert stub.calls == 1 and res[2].nli is not None


def test_missing_model_degrades_to_structural_with_a_note(normalizer, tmp_path):
    g = Guard(GuardConfig(nli_model=str(tmp_path / "no-model-here")), normalizer=normalizer)
    res = g.compare_claims([(Claim("X rejects null keys."), Claim("X supports null keys."))])
    assert res[0].tier is Tier.BLOCK
    assert len(g.notes) == 1 and "NLI stage unavailable" in g.notes[0]
    g.compare_claims([(Claim("a b c"), Claim("a b d"))])
    assert len(g.notes) == 1   # said once


def test_scorer_refuses_garbage_directory(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelUnavailable):
        NLIScorer(tmp_path)


def needs_training_extra():
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    """A few training steps on a handful of pairs: a real CrossEncoderTrainer run."""
    needs_training_extra()
    from training.train import TrainConfig, train
    out = tmp_path_factory.mktemp("tiny-nli")
    data = out / "pairs.jsonl"
    rows = [{"premise": "The API listens on port 8443.", "hypothesis": "The API listens on port 9443.", "label": "contradiction"},
            {"premise": "Backups run daily.", "hypothesis": "Backups run every day.", "label": "entailment"},
            {"premise": "Logs rotate daily.", "hypothesis": "The on-call rotation changes weekly.", "label": "neutral"}] * 4
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary = train(TrainConfig(output_dir=str(out / "model"), train_files=[str(data)], domain_pairs=False,
                                max_steps=3, batch_size=4, limit=12))
    return out / "model", summary


@pytest.mark.slow
def test_tiny_training_run_saves_a_loadable_model(tiny_model):
    path, summary = tiny_model
    assert summary["steps"] == 3 and summary["pairs_total"] > 0
    scorer = NLIScorer(path)
    [p] = scorer.predict([("a", "b")])
    assert set(p) == {"contradiction", "entailment", "neutral"} and abs(sum(p.values()) - 1) < 1e-5


@pytest.mark.slow
def test_label_order_comes_from_the_config(tiny_model, tmp_path):
    path, _ = tiny_model
    flipped = tmp_path / "flipped"
    shutil.copytree(path, flipped)
    cfg = json.loads((flipped / "config.json").read_text())
    cfg["id2label"] = {"0": "entailment", "1": "neutral", "2": "contradiction"}
    cfg["label2id"] = {v: int(k) for k, v in cfg["id2label"].items()}
    (flipped / "config.json").write_text(json.dumps(cfg))
    a, b = NLIScorer(path), NLIScorer(flipped)
    assert a.labels == ["contradiction", "entailment", "neutral"]
    assert b.labels == ["entailment", "neutral", "contradiction"]
    pa, pb = a.predict([("x", "y")])[0], b.predict([("x", "y")])[0]
    # same logits, different names: index 0 is contradiction in one and entailment in the other
    assert pa["contradiction"] == pytest.approx(pb["entailment"], abs=1e-4)


def test_two_way_files_are_never_silently_mixed(tmp_path):
    from training.data import DataError, load_pairs
    f = tmp_path / "rte.train.jsonl"
    f.write_text(json.dumps({"premise": "a", "hypothesis": "b", "label": "not_entailment"}) + "\n")
    with pytest.raises(DataError, match="2-way"):
        load_pairs(f)
    pairs = load_pairs(f, map_2way={"not_entailment": "neutral"})
    assert pairs[0].label == "neutral"


@pytest.mark.parametrize("lines, msg", [
    (['{"existing": {"text": "a"}, "incoming": {"text": "b"}, "label": "compatible"}',
      '{"existing": {"text": "a"}, "label": "compatible"}'], ":2: a claim pair needs 'incoming' as an object"),
    (['{"existing": {"text": "a"}, "incoming": {"text": 5}, "label": "compatible"}'], ":1: a claim pair needs 'incoming'"),
    (['{"existing": "a", "incoming": "b", "label": "compatible"}'], ":1: a claim pair needs 'existing' as an object"),
])
def test_a_bad_claim_pair_row_is_refused_naming_it(tmp_path, lines, msg):
    """`guard train --data` / `guard tune --replay` on such rows ended with KeyError or TypeError, or trained
    on a number as a statement."""
    from training.data import DataError, load_pairs
    f = tmp_path / "pairs.jsonl"
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=re.escape(msg)):
        load_pairs(f)


def test_eval_nli_on_claim_pairs_says_what_it_reads(tmp_path):
    import subprocess
    import sys
    f = tmp_path / "pairs.jsonl"
    f.write_text(json.dumps({"existing": {"text": "a b"}, "incoming": {"text": "c d"}, "label": "compatible"}) + "\n")
    r = subprocess.run([sys.executable, "-m", "guard.cli", "eval-nli", "models/nli-minilm-l6-v2", str(f)],
                       capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "row 1 is a claim pair" in r.stderr \
        and "guard compare" in r.stderr, r.stderr[-300:]


@pytest.mark.parametrize("line, msg", [
    ('{"premise": 5, "hypothesis": "b", "label": "neutral"}', "row 1: 'premise' must be a string"),
    ('{"premise": "a", "label": "neutral"}', "row 1: 'hypothesis' must be a string"),
    ('{"premise": "a", "hypothesis": "b", "label": "maybe"}', "row 1: label 'maybe' is not one of"),
    ('["a", "b", "neutral"]', ":1: a row must be a JSON object, not list"),
    ("[" * 100_000 + "]" * 100_000, ":1: not valid JSON (nested too deeply)"),
    ('{"premise": "a\tb"', ":1: not valid JSON (Invalid control character at column 15)"),
])
def test_a_bad_nli_row_is_refused_naming_it(tmp_path, line, msg):
    """These ended `guard eval-nli` with "error: TypeError: TextInputSequence must be str" or a
    RecursionError (exit 1), or scored a label outside the set; `guard train --data` likewise."""
    import subprocess
    import sys

    from training.data import DataError, load_pairs
    from training.evaluate import evaluate_files
    f = tmp_path / "mine.jsonl"
    f.write_text(line + "\n")
    with pytest.raises(DataError, match=re.escape(msg)):
        load_pairs(f)
    with pytest.raises(DataError, match=re.escape(msg)):
        evaluate_files("unused", [str(f)], scorer=object())
    r = subprocess.run([sys.executable, "-m", "guard.cli", "eval-nli", "models/nli-minilm-l6-v2", str(f)],
                       capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and msg in r.stderr, r.stderr[-300:]


def test_eval_splits_are_never_trained_on(tmp_path):
    from training.data import DataError, load_pairs
    f = tmp_path / "mnli.dev_matched.jsonl"
    f.write_text(json.dumps({"premise": "a", "hypothesis": "b", "label": "neutral"}) + "\n")
    with pytest.raises(DataError, match="evaluation split"):
        load_pairs(f)


def test_claim_pairs_map_to_nli_labels(tmp_path):
    from training.data import load_pairs
    f = tmp_path / "mine.jsonl"
    f.write_text(json.dumps({"existing": {"text": "a"}, "incoming": {"text": "b"}, "label": "tension"}) + "\n")
    assert load_pairs(f)[0].label == "neutral"


@pytest.mark.slow
@pytest.mark.skipif(not SHIPPED.exists(), reason="no shipped model in models/ yet")
def test_shipped_model_end_to_end(normalizer):
    g = Guard(GuardConfig(), normalizer=normalizer)
    assert g.nli_gate is not None, g.notes
    res = g.compare_claims([
        (Claim("Logs rotate daily."), Claim("The on-call rotation changes weekly.")),
        (Claim("All data stores are in private subnets."), Claim("The orders database sits in a public subnet.")),
    ])
    assert res[0].tier is not Tier.BLOCK
    nli = res[1].nli                                   # structure left this pair to stage 3
    assert nli is not None and set(nli.p_forward) == {"contradiction", "entailment", "neutral"}
    backward = nli.p_backward or nli.p_forward          # not scored where the forward p(contradiction) < 0.5
    assert abs(sum(nli.p_forward.values()) - 1) < 1e-3 and abs(sum(backward.values()) - 1) < 1e-3
    # the shipped model comes with its learned gate: p_contradiction is the gate's, the NLI's is evidence
    assert nli.learned and res[1].stage in ("gate", "structural")
    # the gate reads the scores at the temperature it was fitted at (raw), the decision shows the scorer's
    from guard.nli.calibration import rescale
    ratio = (g.nli_gate.gate.nli_temperature or g.nli_gate.scorer.temperature) / g.nli_gate.scorer.temperature
    assert nli.gates["nli_temperature"] == g.nli_gate.gate.nli_temperature == 1.0
    assert nli.gates["pc_max"] == pytest.approx(max(rescale(nli.p_forward, ratio)["contradiction"],
                                                    rescale(backward, ratio)["contradiction"]), abs=1e-3)
    assert nli.p_contradiction == pytest.approx(nli.gates["p_gate"]["contradiction"], abs=1e-3)
    v1 = Guard(GuardConfig(nli_model=str(SHIPPED), gate="thresholds"), normalizer=normalizer)
    old = v1.compare_claims([(Claim("All data stores are in private subnets."),
                              Claim("The orders database sits in a public subnet."))])[0].nli
    assert old is not None and not old.learned and {"subject", "polarity", "overlap"} <= set(old.gates)


@pytest.mark.slow
def test_training_continues_from_a_shipped_fp16_checkpoint_in_fp32(tiny_model, tmp_path, monkeypatch):
    """Shipped checkpoints are fp16; continued training must upcast or it collapses on CPU."""
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder

    from training.train import TrainConfig, train
    path, _ = tiny_model
    assert json.loads((path / "config.json").read_text()).get("dtype", "float16") == "float16"
    seen = {}
    real_init = CrossEncoder.__init__

    def spy(self, *a, **kw):
        real_init(self, *a, **kw)
        seen["dtype"] = next(self.parameters()).dtype
    monkeypatch.setattr(CrossEncoder, "__init__", spy)
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"premise": "a b", "hypothesis": "a c", "label": "neutral"}) + "\n")
    s = train(TrainConfig(output_dir=str(tmp_path / "m2"), train_files=[str(data)], from_checkpoint=str(path),
                          domain_pairs=False, max_steps=1, batch_size=2))
    assert seen["dtype"] == torch.float32 and s["steps"] == 1


@pytest.mark.slow
def test_an_interrupted_training_run_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    """The run dies after its step-2 checkpoint (here: while converting the final model); the rerun
    starts from step 2, not from scratch."""
    needs_training_extra()
    import torch

    from training.train import TrainConfig, train
    data = tmp_path / "pairs.jsonl"
    rows = [{"premise": "Backups run daily.", "hypothesis": "Backups run every day.", "label": "entailment"},
            {"premise": "The API listens on port 8443.", "hypothesis": "The API listens on port 9443.",
             "label": "contradiction"}] * 8
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg = TrainConfig(output_dir=str(tmp_path / "m"), train_files=[str(data)], domain_pairs=False, max_steps=2,
                      batch_size=4, save_steps=2)

    def crash(*a, **k):
        raise RuntimeError("power cut")
    monkeypatch.setattr(torch.nn.Module, "half", crash)
    with pytest.raises(RuntimeError, match="power cut"):
        train(cfg)
    assert (tmp_path / "m" / "_checkpoints" / "checkpoint-2").is_dir()
    monkeypatch.undo()
    cfg.max_steps = 4
    resumed = []
    import transformers
    orig = transformers.Trainer.train

    def spy(self, *a, **k):
        resumed.append(k.get("resume_from_checkpoint"))
        return orig(self, *a, **k)
    monkeypatch.setattr(transformers.Trainer, "train", spy)
    s = train(cfg)
    assert resumed == [True] and s["steps"] == 4
    assert not (tmp_path / "m" / "_checkpoints").exists() and (tmp_path / "m" / "model.safetensors").exists()


@pytest.mark.slow
@pytest.mark.parametrize("quantize", [False, True])
def test_a_pairs_score_does_not_depend_on_its_batch(quantize):
    """The same pair scored alone and among others gets the same probabilities (|dp| < 1e-3), in
    fp32 and with dynamic int8, so a write, a check and a scan never disagree on one pair."""
    from guard.nli.scorer import ModelUnavailable, NLIScorer
    try:
        alone, batched = NLIScorer(quantize=quantize), NLIScorer(quantize=quantize)
    except ModelUnavailable as exc:
        pytest.skip(f"shipped NLI model not available: {exc}")
    pair = ("Production deploys must be approved by two reviewers.", "Production deploys need one approval.")
    others = [(f"Service {i} listens on port {8000 + i} in every region we run.", "It is short.") for i in range(40)]
    a = alone.predict([pair])[0]
    b = batched.predict(others[:20] + [pair] + others[20:])[20]
    assert max(abs(a[k] - b[k]) for k in a) < 1e-3


def test_a_staged_recipe_trains_each_stage_from_the_last_and_skips_finished_ones(tmp_path, shared_data):
    """``python -m training.train --recipe``: the shipped v1 model's recipe format, end to end on a
    tiny sample; the final stage continues from the first, and a rerun trains nothing."""
    needs_training_extra()
    from training.train import run_recipe
    stage = {"train_files": ["mnli.train.jsonl"], "sample": {"mnli.train.jsonl": 16}, "domain_pairs": False,
             "epochs": 1.0, "batch_size": 8, "learning_rate": 3e-5, "max_length": 64, "seed": 1, "max_steps": 1}
    recipe = tmp_path / "r.json"
    recipe.write_text(json.dumps({"name": "tiny", "output": str(tmp_path / "model"), "stages": [stage, stage]}))
    done = run_recipe(recipe, work=tmp_path / "work")
    assert set(done) == {"stage1", "stage2"}
    final = json.loads((tmp_path / "model" / "training_summary.json").read_text())
    assert final["config"]["from_checkpoint"] == str(tmp_path / "work" / "stage1") and "hardware" in final
    assert run_recipe(recipe, work=tmp_path / "work") == {}


@pytest.mark.slow
@pytest.mark.skipif(not SHIPPED.exists(), reason="no shipped model in models/ yet")
def test_the_second_direction_is_scored_only_where_the_first_finds_a_contradiction(normalizer):
    """The shipped gate scores incoming → existing only where existing → incoming gives
    p(contradiction) ≥ its ``backward_below``; a pair's decision is the same alone or among others."""
    g = Guard(GuardConfig(), normalizer=normalizer)
    gate = g.nli_gate
    below = gate.gate.backward_below
    assert below == 0.5
    scored: list = []
    real = gate.scorer._logits

    def counting(pairs, *a, **kw):
        scored.extend(pairs)
        return real(pairs, *a, **kw)
    gate.scorer._logits = counting
    pairs = [(Claim("All data stores are in private subnets."), Claim("The orders database sits in a public subnet.")),
             (Claim("Secrets are stored in Vault."), Claim("Secrets are stored in AWS Secrets Manager.")),
             (Claim("The cache keeps entries for ten minutes."), Claim("The cache is written in Rust.")),
             (Claim("Deploys happen on Tuesdays."), Claim("Releases are tagged by the release manager."))]
    together = g.compare_claims(pairs)
    gated = [(p, r.nli) for p, r in zip(pairs, together) if r.nli is not None]
    assert gated, "structure decided every pair: the test needs pairs for the gate"
    for (a, b), nli in gated:
        if nli.p_forward["contradiction"] < below:
            assert nli.p_backward is None and (b.text, a.text) not in scored
        else:
            assert nli.p_backward is not None and (b.text, a.text) in scored
    assert any(n.p_backward is None for _, n in gated), "no pair skipped the second direction"
    for p, r in zip(pairs, together):
        g.nli_gate.scorer._cache.clear()
        [alone] = g.compare_claims([p])
        assert (alone.tier, alone.reason) == (r.tier, r.reason)
        if r.nli is not None:
            assert alone.nli.p_contradiction == pytest.approx(r.nli.p_contradiction, abs=1e-6)
