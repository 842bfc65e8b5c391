"""The student distillation recipe (training.distill): real layers cut from the shipped model, the
real loss, a real (tiny) CrossEncoderTrainer run, and the teacher's scores resumed after a stop."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
TEACHER = ROOT / "models" / "nli-minilm-l6-v2"


def needs_training_extra():
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")


def test_the_loss_is_zero_when_the_student_matches_the_teacher_and_pulls_towards_it():
    import torch
    from training.distill import DistillationLoss
    loss = DistillationLoss(model=None, temperature=2.0, alpha=0.0)
    teacher = torch.tensor([[2.0, -1.0, 0.5], [0.0, 3.0, -2.0]])
    target = torch.cat([teacher, torch.tensor([[-1.0], [-1.0]])], dim=1)      # no gold labels
    assert loss.from_logits(teacher.clone(), target).item() == pytest.approx(0.0, abs=1e-6)
    student = torch.zeros(2, 3, requires_grad=True)
    loss.from_logits(student, target).backward()
    # gradient descent raises the logits the teacher favours: the gradient there is negative
    assert student.grad[0, 0] < 0 and student.grad[1, 1] < 0
    # a gold label adds cross-entropy; a pair without one ("-1") adds nothing
    mixed = DistillationLoss(model=None, temperature=2.0, alpha=0.5)
    gold = torch.cat([teacher, torch.tensor([[2.0], [-1.0]])], dim=1)
    assert mixed.from_logits(teacher.clone(), gold).item() > 0
    assert mixed.from_logits(teacher.clone(), target).item() == pytest.approx(0.0, abs=1e-6)


@pytest.mark.slow
def test_a_student_keeps_only_the_chosen_layers_and_bad_choices_fail_in_one_line(tmp_path):
    from training.distill import student_from_teacher
    out = student_from_teacher(TEACHER, [0, 5], tmp_path / "s")
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["num_hidden_layers"] == 2 and cfg["id2label"]["0"].lower() == "contradiction"
    for bad in ([], [6], [3, 1], [1, 1]):
        with pytest.raises(ValueError, match="layers must be increasing indices"):
            student_from_teacher(TEACHER, bad, tmp_path / "bad")


@pytest.mark.slow
def test_teacher_scores_resume_where_an_interrupted_run_stopped(tmp_path):
    from training.data import Pair
    from training.distill import teacher_logits
    pairs = [Pair(f"The service listens on port {8000 + i}.", f"The service listens on port {9000 + i}.", "", "t")
             for i in range(10)]
    whole = teacher_logits(TEACHER, pairs, tmp_path / "a.npy", chunk=4)
    partial = teacher_logits(TEACHER, pairs[:4], tmp_path / "b.npy", chunk=4)     # the run stopped after a chunk
    assert np.load(tmp_path / "b.npy").shape == (4, 3)
    resumed = teacher_logits(TEACHER, pairs, tmp_path / "b.npy", chunk=4)
    assert resumed.shape == (10, 3) and np.allclose(resumed[:4], partial)
    assert np.allclose(resumed, whole, atol=1e-5)
    p = np.exp(whole)
    assert np.allclose(p.sum(axis=1), 1, atol=1e-4)          # log-probabilities of the teacher


@pytest.mark.slow
def test_a_tiny_distillation_run_saves_a_smaller_loadable_student(tmp_path):
    """Domain templates only (no shared data needed), two steps: the student loads in the guard's
    scorer with the teacher's labels, its summary says what it learned from, and the work folder
    (teacher scores, checkpoints) is gone once it finished."""
    needs_training_extra()
    from guard.nli import NLIScorer
    from training.distill import DistillConfig, distill
    out = tmp_path / "student"
    summary = distill(DistillConfig(output_dir=str(out), teacher=str(TEACHER), layers=[0], train_files=[],
                                    limit=24, max_steps=2, batch_size=8, save_steps=1))
    assert summary["steps"] == 2 and summary["pairs_total"] == 24
    assert summary["pairs_with_gold_label"] < 24          # swapped non-contradictions carry no gold label
    assert json.loads((out / "config.json").read_text())["num_hidden_layers"] == 1
    assert not (tmp_path / "_student_work").exists()
    scorer = NLIScorer(out)
    [p] = scorer.predict([("Deploys need two approvals.", "Deploys need no approval.")])
    assert scorer.labels == ["contradiction", "entailment", "neutral"] and abs(sum(p.values()) - 1) < 1e-5


def test_work_left_by_a_different_run_is_never_resumed(tmp_path):
    """Teacher scores and checkpoints belong to one recipe and one list of pairs: the same run
    resumes them, a changed one starts over (stale scores would be silently wrong)."""
    from training.data import Pair
    from training.distill import DistillConfig, _fresh_work_dir
    work = tmp_path / "_s_work"
    cfg = DistillConfig(output_dir=str(tmp_path / "s"))
    pairs = [Pair("a", "b", "neutral", "t")]
    _fresh_work_dir(work, cfg, pairs)
    (work / "teacher_logits.npy").write_bytes(b"x")
    _fresh_work_dir(work, cfg, pairs)
    assert (work / "teacher_logits.npy").exists()
    _fresh_work_dir(work, cfg, pairs + [Pair("c", "d", "neutral", "t")])
    assert not (work / "teacher_logits.npy").exists()
    (work / "teacher_logits.npy").write_bytes(b"x")
    _fresh_work_dir(work, DistillConfig(output_dir=str(tmp_path / "s"), temperature=1.0), pairs + [Pair("c", "d", "neutral", "t")])
    assert not (work / "teacher_logits.npy").exists()


@pytest.mark.slow
def test_the_shipped_student_runs_the_guard_with_its_own_calibration_and_gate():
    """The opt-in student end to end: its own learned gate and temperature (not the teacher's), the
    pair the accuracy issue names as NLI's to catch reaches the gate and is flagged, a restated
    conjunct stays clean, and a pair scores the same alone and in a batch."""
    from guard.claims import Claim
    from guard.nli.learned_gate import GATE_FILE
    from guard.pipeline import Guard, GuardConfig
    student = ROOT / "models" / "nli-minilm-l3-v2"
    if not (student / "model.safetensors").exists():
        pytest.skip("the student is not in this checkout")
    guard = Guard(GuardConfig(nli_model=str(student)))
    gate = guard.nli_gate
    assert Path(gate.scorer.path) == student
    assert gate.gate.block_threshold_ == json.loads((student / GATE_FILE).read_text())["block_threshold"]
    assert gate.scorer.temperature == pytest.approx(json.loads((student / "calibration.json").read_text())["temperature"])
    pairs = [("Contractors must not have production database access.",
              "Contractors on the data team can query the production database directly."),
             ("X preserves ordering and rejects null keys.", "X preserves ordering.")]
    out = guard.compare_claims([(Claim(text=a), Claim(text=b)) for a, b in pairs])
    assert out[0].tier.value in ("warn", "block") and out[0].nli is not None
    assert out[1].tier.value == "clean"
    alone = gate.scorer.predict([pairs[0]])[0]["contradiction"]
    gate.scorer._cache.clear()
    batched = gate.scorer.predict([pairs[1], pairs[0], ("a", "b")])[1]["contradiction"]
    assert abs(alone - batched) < 1e-3


@pytest.mark.slow
def test_the_students_card_is_rebuilt_from_what_ships_with_it(tmp_path, shared_data):
    """The card comes from the shipped files alone (no runs/ folder in a clean checkout): both
    stages, the speed table, teacher and student side by side, and the caveat on its CV figures."""
    from training.card import distilled_card
    recipe = ROOT / "training" / "recipes" / "nli-minilm-l3-v2.json"
    if not (ROOT / "models" / "nli-minilm-l3-v2" / "training_summary_stage1.json").exists():
        pytest.skip("the student is not in this checkout")
    card = distilled_card(recipe, out=tmp_path / "card.md").read_text()
    for part in ("**Stage 1, distillation.**", "**Stage 2, claim pairs**", "## Speed", "| teacher |",
                 "| `nli-minilm-l6-v2` |", "| `nli-minilm-l3-v2` |", "not clean out-of-fold figures",
                 "## The learned gate fitted for this model"):
        assert part in card, part
    assert card == (ROOT / "models" / "nli-minilm-l3-v2" / "README.md").read_text()    # the shipped card is current
