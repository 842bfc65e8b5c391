"""Length-grouped training batches: every row once per epoch, little padding, resumable order."""
import json
import random

import pytest

pytest.importorskip("sentence_transformers", reason="training needs pip install claim-guard[ml]")

from training.length_batches import LengthGroupedBatchSampler  # noqa: E402


def _sampler(lengths, batch_size=8, drop_last=False, seed=0, window=50):
    return LengthGroupedBatchSampler(list(range(len(lengths))), batch_size=batch_size, drop_last=drop_last,
                                     seed=seed, lengths=lengths, window=window)


def _padded(batches, lengths):
    return sum(max(lengths[i] for i in b) * len(b) for b in batches)


def test_every_row_is_in_exactly_one_batch_per_epoch():
    lengths = [random.Random(1).randint(5, 128) for _ in range(1003)]
    s = _sampler(lengths, batch_size=16)
    for epoch in range(3):
        s.set_epoch(epoch)
        batches = list(s)
        assert sorted(i for b in batches for i in b) == list(range(1003))
        assert len(batches) == len(s) == 63
        assert sum(len(b) < 16 for b in batches) == 1          # only the data's last short batch


def test_drop_last_keeps_only_full_batches_and_len_agrees():
    lengths = [random.Random(2).randint(5, 128) for _ in range(1003)]
    s = _sampler(lengths, batch_size=16, drop_last=True)
    batches = list(s)
    assert all(len(b) == 16 for b in batches) and len(batches) == len(s) == 1003 // 16


def test_batches_hold_far_less_padding_than_random_batches():
    """The point of it: on skewed lengths (many short pairs, a long tail) the padded tokens drop
    close to the real ones, while random batches of the same rows carry several times more."""
    rng = random.Random(3)
    lengths = [min(128, int(rng.lognormvariate(3.4, 0.5))) for _ in range(6400)]
    grouped = list(_sampler(lengths, batch_size=64))
    order = list(range(6400))
    rng.shuffle(order)
    plain = [order[i:i + 64] for i in range(0, 6400, 64)]
    real = sum(lengths)
    assert _padded(grouped, lengths) < 1.15 * real < _padded(plain, lengths) / 1.5


def test_the_order_depends_on_seed_and_epoch_only_so_a_resumed_run_sees_the_same_batches():
    lengths = [random.Random(4).randint(5, 128) for _ in range(500)]
    a, b = _sampler(lengths, seed=7), _sampler(lengths, seed=7)
    a.set_epoch(1)
    b.set_epoch(1)
    assert list(a) == list(b)
    b.set_epoch(2)
    assert list(a) != list(b)
    assert list(_sampler(lengths, seed=8)) != list(_sampler(lengths, seed=7))


def test_batches_do_not_come_out_sorted_by_length():
    """Sorting happens inside windows only, and the batches are shuffled: a run must not see all its
    short pairs first (a length curriculum nobody asked for)."""
    lengths = list(range(1, 3201))
    firsts = [max(lengths[i] for i in b) for b in _sampler(lengths, batch_size=8, window=4)]
    assert firsts != sorted(firsts) and firsts != sorted(firsts, reverse=True)


def test_lengths_must_match_the_rows_and_sizes_must_be_positive():
    with pytest.raises(ValueError, match="one length per row: 3 rows, 2 lengths"):
        LengthGroupedBatchSampler([0, 1, 2], batch_size=2, drop_last=False, lengths=[1, 2])
    with pytest.raises(ValueError, match="no lengths"):
        LengthGroupedBatchSampler([0, 1, 2], batch_size=2, drop_last=False)
    with pytest.raises(ValueError, match="at least 1"):
        LengthGroupedBatchSampler([0, 1, 2], batch_size=2, drop_last=False, lengths=[1, 2, 3], window=0)


@pytest.mark.slow
def test_a_real_training_run_uses_length_grouped_batches(tmp_path, monkeypatch):
    """CrossEncoderTrainer through training.train with group_by_length: the sampler is the one the
    trainer iterates, each batch's lengths are close together, and the model trains and saves."""
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    from training.train import TrainConfig, train
    rng = random.Random(5)
    rows = []
    for i in range(48):
        n = rng.choice([2, 30])
        rows.append({"premise": " ".join(["word"] * n) + f" {i}.", "hypothesis": f"Item {i} is fine.",
                     "label": ["entailment", "neutral", "contradiction"][i % 3]})
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    seen = []
    real_iter = LengthGroupedBatchSampler.__iter__

    def spy(self):
        for b in real_iter(self):
            seen.append([int(self.lengths[i]) for i in b])
            yield b
    monkeypatch.setattr(LengthGroupedBatchSampler, "__iter__", spy)
    s = train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[str(data)], domain_pairs=False,
                          symmetric=False, max_steps=4, batch_size=8, group_by_length=True, save_steps=100))
    assert s["steps"] == 4 and (tmp_path / "m" / "model.safetensors").exists()
    assert len(seen) >= 4
    # two length groups (~8 and ~36 tokens): a sorted window never mixes them more than once
    assert sum(max(b) - min(b) > 10 for b in seen) <= 1


@pytest.mark.slow
def test_guard_train_groups_by_length_unless_asked_for_random_batches(tmp_path):
    """The CLI a user fine-tunes with: length grouping on by default (recorded in the summary), off
    with --random-batches."""
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    from typer.testing import CliRunner

    from guard.cli import app
    data = tmp_path / "pairs.jsonl"
    rows = [{"premise": "Backups run daily.", "hypothesis": "Backups run every day.", "label": "entailment"},
            {"premise": "The API listens on port 8443.", "hypothesis": "The API listens on port 9443.",
             "label": "contradiction"}] * 4
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for flag, expected in (([], True), (["--random-batches"], False)):
        out = tmp_path / f"m{int(expected)}"
        r = CliRunner().invoke(app, ["--quiet", "train", str(out), "--data", str(data), "--max-steps", "1",
                                     "--batch-size", "4", "--no-domain", *flag])
        assert r.exit_code == 0, r.output
        summary = json.loads((out / "training_summary.json").read_text())
        assert summary["config"]["group_by_length"] is expected and summary["steps"] == 1
        assert not (out / ".train.lock").exists()              # the run's lock goes with the run


def test_rows_taken_are_the_rows_of_the_first_batches():
    from training.length_batches import rows_taken
    lengths = [random.Random(i).randint(3, 90) for i in range(300)]
    first = []
    for k, b in enumerate(_sampler(lengths, batch_size=16, seed=7)):
        if k == 4:
            break
        first += b
    assert rows_taken(lengths, 16, 7, 4).tolist() == sorted(first)
    assert rows_taken(lengths, 16, 7, 0).tolist() == []
    with pytest.raises(ValueError, match="one epoch is 19 batches"):
        rows_taken(lengths, 16, 7, 20)


@pytest.mark.slow
def test_a_continued_run_trains_only_on_the_pairs_the_first_run_did_not_reach(tmp_path, monkeypatch):
    """A general stage cut short by max_steps, then continued with skip_batches (training.cv_nli's
    "general_more"): the two runs' pairs are disjoint and together are every pair."""
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    from training.train import TrainConfig, train
    rng = random.Random(3)
    rows = [{"premise": " ".join(["word"] * rng.choice([2, 9, 30])) + f" {i}.", "hypothesis": f"Item {i} is fine.",
             "label": ["entailment", "neutral", "contradiction"][i % 3]} for i in range(40)]
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    seen: list[str] = []
    real_iter = LengthGroupedBatchSampler.__iter__

    def spy(self):
        for b in real_iter(self):
            seen.extend(self.sampler[i]["premise"] for i in b)
            yield b
    monkeypatch.setattr(LengthGroupedBatchSampler, "__iter__", spy)
    common = dict(train_files=[str(data)], domain_pairs=False, symmetric=False, batch_size=8,
                  group_by_length=True, save_steps=100, save_fp16=False)
    first = train(TrainConfig(output_dir=str(tmp_path / "a"), max_steps=3, **common))
    took, seen[:] = list(seen[:24]), []
    more = train(TrainConfig(output_dir=str(tmp_path / "b"), from_checkpoint=str(tmp_path / "a"), skip_batches=3,
                             epochs=1, **common))
    assert first["steps"] == 3 and more["steps"] == 2 and more["pairs_total"] == 16
    assert len(set(took)) == 24 and not set(took) & set(seen)
    assert set(took) | set(seen) == {r["premise"] for r in rows}
    with pytest.raises(ValueError, match="set group_by_length too"):
        train(TrainConfig(output_dir=str(tmp_path / "c"), from_checkpoint=str(tmp_path / "a"), skip_batches=3,
                          **{**common, "group_by_length": False}))
