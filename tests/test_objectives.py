"""The claim stage's other objectives (training/objectives.py): the bias model, the losses against
plain cross-entropy on the real v1 cross-encoder, freezing, and real training runs with each."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training.data import LABELS_3WAY, Pair

ROOT = Path(__file__).resolve().parents[1]
V1 = ROOT / "models" / "nli-minilm-l6"

CLAIMS = [
    Pair("The API listens on port 8443.", "The API listens on port 9443.", "contradiction", "claims"),
    Pair("Backups run daily.", "Backups run every day.", "entailment", "claims"),
    Pair("Logs rotate daily.", "The on-call rotation changes weekly.", "neutral", "claims"),
    Pair("Deploys must be approved by two reviewers.", "Deploys do not need approval.", "contradiction", "claims"),
    Pair("The RTO is 4 hours.", "The RPO is 1 hour.", "neutral", "claims:swapped"),
    Pair("Passwords must have 12 characters.", "Passwords need at least twelve characters.", "entailment", "claims"),
]


def needs_training_extra():
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")


def test_bias_features_see_overlap_numbers_and_negation():
    from training.objectives import bias_features
    same = bias_features("Backups run daily.", "Backups run daily.")
    assert same[0] == 1.0 and same[1] == 1.0 and same[10] == 0.0
    f = bias_features("The API listens on port 8443.", "The API does not listen on port 9443.")
    assert f[5] == 1.0 and f[6] == 1.0 and f[7] == 0.0        # numbers on both sides, and they differ
    assert f[8] == 0.0 and f[9] == 1.0 and f[10] == 1.0       # only the second is negated
    assert 0 < f[0] < 1


def test_the_bias_model_gives_log_probabilities_in_label_order_and_refuses_one_label():
    from training.objectives import LexicalBias, bias_table
    bias = LexicalBias().fit(CLAIMS)
    lp = bias.log_proba([(p.premise, p.hypothesis) for p in CLAIMS])
    assert lp.shape == (len(CLAIMS), len(LABELS_3WAY))
    assert np.allclose(np.exp(lp).sum(1), 1.0, atol=1e-4)
    assert 0 <= bias.training_accuracy_ <= 1
    table, _ = bias_table(CLAIMS + [Pair("A man sleeps.", "A man is awake.", "contradiction", "snli")])
    assert len(table) == len(CLAIMS) and ("A man sleeps.", "A man is awake.") not in table   # general pairs: uniform
    with pytest.raises(ValueError, match="two labels"):
        LexicalBias().fit([p for p in CLAIMS if p.label == "neutral"])
    with pytest.raises(ValueError, match="claim pairs"):
        bias_table([Pair("a", "b", "neutral", "snli")])


@pytest.mark.slow
def test_the_losses_against_plain_cross_entropy_on_the_real_cross_encoder():
    """PoE with a uniform bias is plain cross-entropy (a constant added to every log-probability);
    a bias that already explains the gold label lowers the loss; reweighting by 1 − p_bias(gold)
    with a uniform bias is plain cross-entropy too; label smoothing and the symmetric loss differ."""
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss

    from training.objectives import ClaimObjective
    model = CrossEncoder(str(V1), local_files_only=True, model_kwargs={"dtype": torch.float32})
    inputs = [[p.premise for p in CLAIMS], [p.hypothesis for p in CLAIMS]]
    ids = {v: k for k, v in model.config.id2label.items()}
    labels = torch.tensor([ids[p.label] for p in CLAIMS])
    with torch.no_grad():
        ce = CrossEntropyLoss(model)(inputs, labels).item()
        assert ClaimObjective(model, "poe", {})(inputs, labels).item() == pytest.approx(ce, abs=1e-5)
        assert ClaimObjective(model, "reweight", {})(inputs, labels).item() == pytest.approx(ce, abs=1e-5)
        knowing = {(p.premise, p.hypothesis): np.log(np.where(np.arange(3) == LABELS_3WAY.index(p.label), 0.98, 0.01))
                   for p in CLAIMS}
        assert ClaimObjective(model, "poe", knowing)(inputs, labels).item() < ce
        # a bias that knows every answer leaves almost no weight to learn from, but the loss stays finite
        assert np.isfinite(ClaimObjective(model, "reweight", knowing)(inputs, labels).item())
        assert ClaimObjective(model, "label-smoothing")(inputs, labels).item() != pytest.approx(ce, abs=1e-4)
        assert ClaimObjective(model, "symmetric")(inputs, labels).item() > 0


@pytest.mark.slow
@pytest.mark.parametrize("objective,freeze", [("poe", 0), ("symmetric", 0), ("ce", 2)])
def test_a_real_training_run_with_each_option(tmp_path, objective, freeze):
    """Two steps from v1 on claim pairs: the summary names the objective (and the bias model's fit),
    and frozen layers come out with their starting weights while the layers above them move."""
    needs_training_extra()
    from transformers import AutoModelForSequenceClassification

    from training.train import TrainConfig, train
    s = train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], from_checkpoint=str(V1),
                          domain_pairs=False, symmetric=False, max_steps=2, batch_size=3, save_steps=100,
                          device="cpu", precision="fp32", objective=objective, freeze_layers=freeze),
              extra=CLAIMS)
    assert s["steps"] == 2 and np.isfinite(s["train_loss"])
    if objective != "ce":
        assert s["objective"] == objective
    if objective == "poe":
        assert 0 <= s["bias_training_accuracy"] <= 1
    if freeze:
        assert s["frozen_tensors"] > 0
        before = dict(AutoModelForSequenceClassification.from_pretrained(str(V1)).named_parameters())
        after = dict(AutoModelForSequenceClassification.from_pretrained(str(tmp_path / "m")).named_parameters())
        for name, p in after.items():
            same = bool((p.detach().float() == before[name].detach().float()).all())
            if ".embeddings." in name or ".layer.0." in name or ".layer.1." in name:
                assert same, name
        assert not all(bool((after[n].detach().float() == before[n].detach().float()).all())
                       for n in after if ".layer.5." in n)
    summary = json.loads((tmp_path / "m" / "training_summary.json").read_text())
    assert summary["config"]["objective"] == objective and summary["config"]["freeze_layers"] == freeze


def test_an_unknown_objective_is_refused_before_anything_loads(tmp_path):
    from training.train import TrainConfig, train
    with pytest.raises(ValueError, match="objective 'focal' is none of ce, poe"):
        train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], objective="focal"))
    assert not (tmp_path / "m").exists()
