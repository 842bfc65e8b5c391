"""Weight averaging over the tail of a training run (training/weight_averaging.py): the running mean
is the mean of the weights the run passed through, it survives a resume from a checkpoint, and a
real training run of the cross-encoder saves it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from transformers import TrainerControl, TrainerState, TrainingArguments

from training.weight_averaging import AVERAGE_FILE, WeightAverage, check_average_from

ROOT = Path(__file__).resolve().parents[1]
V1 = ROOT / "models" / "nli-minilm-l6"


def _steps(model, cb, args, state, start, stop):
    """Steps start+1 … stop: each sets every trainable weight to a value fixed by the step alone (so an
    interrupted and an unbroken run pass through the same weights), then the callback runs."""
    seen = []
    for step in range(start + 1, stop + 1):
        with torch.no_grad():
            for n, p in model.named_parameters():
                if p.requires_grad:
                    wave = torch.sin(torch.arange(p.numel(), dtype=p.dtype) * (step + 0.5)).reshape(p.shape)
                    p.copy_(float(step) + wave)
        seen.append({n: p.detach().clone() for n, p in model.named_parameters()})
        state.global_step = step
        cb.on_step_end(args, state, TrainerControl())
    return seen


def test_the_mean_covers_exactly_the_steps_after_the_start_fraction(tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Linear(3, 2))
    model[0].bias.requires_grad = False                      # a frozen tensor is left as it is
    frozen = model[0].bias.detach().clone()
    args = TrainingArguments(output_dir=str(tmp_path), report_to="none", use_cpu=True)
    state = TrainerState(max_steps=10)
    cb = WeightAverage(model, 0.6)
    seen = _steps(model, cb, args, state, 0, 10)
    assert cb.apply() == 4                                   # steps 7, 8, 9, 10
    for n, p in model.named_parameters():
        if n == "0.bias":
            assert torch.equal(p, frozen)
            continue
        want = torch.stack([s[n] for s in seen[6:]]).mean(0)
        assert torch.allclose(p, want, atol=1e-6), n


def test_the_mean_goes_on_after_a_resume_from_a_checkpoint(tmp_path):
    """Interrupted after step 6 (saved there), resumed: the mean is the same as an unbroken run's."""
    torch.manual_seed(1)
    make = lambda: torch.nn.Linear(5, 3)
    args = TrainingArguments(output_dir=str(tmp_path), report_to="none", use_cpu=True)

    unbroken = make()
    cb = WeightAverage(unbroken, 0.3)
    _steps(unbroken, cb, args, TrainerState(max_steps=10), 0, 10)
    cb.apply()

    first = make()
    cb1 = WeightAverage(first, 0.3)
    state = TrainerState(max_steps=10)
    _steps(first, cb1, args, state, 0, 6)
    (tmp_path / "checkpoint-6").mkdir()
    cb1.on_save(args, state, TrainerControl())
    assert (tmp_path / "checkpoint-6" / AVERAGE_FILE).exists()

    resumed = make()                                         # a new process: a new callback, no mean
    cb2 = WeightAverage(resumed, 0.3)
    _steps(resumed, cb2, args, TrainerState(max_steps=10, global_step=6), 6, 10)
    assert cb2.apply() == cb.count == 7                      # steps 4 … 10
    for (n, p), (_, q) in zip(resumed.named_parameters(), unbroken.named_parameters()):
        assert torch.allclose(p, q, atol=1e-6), n


def test_a_mean_saved_at_another_step_is_not_taken_up(tmp_path):
    model = torch.nn.Linear(2, 2)
    args = TrainingArguments(output_dir=str(tmp_path), report_to="none", use_cpu=True)
    (tmp_path / "checkpoint-6").mkdir()
    torch.save({"step": 5, "count": 3, "mean": {n: torch.zeros_like(p) for n, p in model.named_parameters()}},
               tmp_path / "checkpoint-6" / AVERAGE_FILE)
    cb = WeightAverage(model, 0.1)
    _steps(model, cb, args, TrainerState(max_steps=10, global_step=6), 6, 8)
    assert cb.count == 2


@pytest.mark.parametrize("bad", [1.0, 1.5, -0.1])
def test_a_fraction_outside_the_run_is_refused_before_anything_loads(tmp_path, bad):
    from training.train import TrainConfig, train
    with pytest.raises(ValueError, match=f"average_from {bad} must be in"):
        train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], average_from=bad))
    assert not (tmp_path / "m").exists()
    check_average_from(0.0)


def test_an_unknown_lr_schedule_is_refused_before_anything_loads(tmp_path):
    from training.train import TrainConfig, train
    with pytest.raises(ValueError, match="lr_schedule 'cyclic' is not a transformers scheduler"):
        train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], lr_schedule="cyclic"))
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_a_real_training_run_saves_the_average(tmp_path):
    """Four steps from v1 on claim pairs at a constant rate, averaged from half-way: two steps
    averaged, and the saved weights are not the last step's (the same run without averaging, same
    seed, ends there); the card says so."""
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    from transformers import AutoModelForSequenceClassification

    from tests.test_objectives import CLAIMS
    from training.train import TrainConfig, train

    def run(folder, avg, schedule="linear"):
        return train(TrainConfig(output_dir=str(tmp_path / folder), train_files=[], from_checkpoint=str(V1),
                                 domain_pairs=False, symmetric=False, max_steps=4, batch_size=3, save_steps=100,
                                 device="cpu", precision="fp32", average_from=avg, save_fp16=False,
                                 lr_schedule=schedule), extra=CLAIMS)
    s = run("avg", 0.5, "constant_with_warmup")
    plain = run("plain", 0.0, "constant_with_warmup")
    assert s["averaged_steps"] == 2 and "averaged_steps" not in plain
    cfg = json.loads((tmp_path / "avg" / "training_summary.json").read_text())["config"]
    assert cfg["average_from"] == 0.5 and cfg["lr_schedule"] == "constant_with_warmup"
    a = dict(AutoModelForSequenceClassification.from_pretrained(str(tmp_path / "avg")).named_parameters())
    b = dict(AutoModelForSequenceClassification.from_pretrained(str(tmp_path / "plain")).named_parameters())
    v1 = dict(AutoModelForSequenceClassification.from_pretrained(str(V1)).named_parameters())
    moved = [n for n in a if not torch.equal(a[n].float(), b[n].float())]
    assert moved and all(torch.isfinite(a[n]).all() for n in a)
    # four small steps from v1: the mean of steps 3 and 4 stays nearer the end than the start is
    n = moved[0]
    assert (a[n].float() - b[n].float()).norm() < (v1[n].float() - b[n].float()).norm()
    from training.card import write_card
    write_card(tmp_path / "avg", {"files": {}})
    assert "weights averaged over the last 50% of the steps (2)" in (tmp_path / "avg" / "README.md").read_text()


def test_a_recipe_names_the_schedule_and_the_averaging_and_the_shipped_recipe_keeps_neither():
    """The claim stage of a recipe (training/cv_nli.py) passes both on; the shipped v2 recipe, which
    has neither key, trains as it always did (linear decay, no averaging)."""
    from training.cv_nli import _train_cfg
    shipped = json.loads((ROOT / "training" / "recipes" / "nli-minilm-l6-v2.json").read_text())
    cfg = _train_cfg(shipped, Path("unused"))
    assert (cfg.lr_schedule, cfg.average_from) == ("linear", 0.0)
    cfg = _train_cfg({**shipped, "lr_schedule": "constant_with_warmup", "average_from": 0.5}, Path("unused"))
    assert (cfg.lr_schedule, cfg.average_from) == ("constant_with_warmup", 0.5)
