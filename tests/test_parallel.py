"""training.parallel: a recipe's members as side-by-side processes, then its soups and files."""
import json

import pytest

from training.claim_pairs import read_rows


@pytest.fixture
def tiny(tmp_path, shared_data, monkeypatch):
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")[:16]
    (tmp_path / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    recipe = {"name": "par", "output": str(tmp_path / "par-model"), "base_model": None, "replay_files": [],
              "folds": 2, "epochs": 1, "batch_size": 8, "learning_rate": 3e-5, "max_length": 64, "seed": 1,
              "max_steps": 1}
    (tmp_path / "par.json").write_text(json.dumps(recipe))
    return tmp_path, rows


def test_members_run_as_processes_and_a_deadline_already_past_starts_none(tiny):
    from training.parallel import members, run
    tmp_path, rows = tiny
    recipe = json.loads((tmp_path / "par.json").read_text())
    assert members(recipe) == [(1, "fold0"), (1, "fold1"), (1, "final")]
    assert members({**recipe, "seeds": [3, 4], "folds": 1}) == [(3, "fold0"), (3, "final"), (4, "fold0"), (4, "final")]
    assert run([str(tmp_path / "par.json")], tmp_path / "late", tmp_path / "late-out", jobs=2, deadline=0) == {"par": False}
    assert not (tmp_path / "late-out").exists() and not list((tmp_path / "late" / "par").glob("oof_*"))


def test_a_member_that_fails_leaves_its_recipe_incomplete(tiny):
    """The members read claims_train from ../shared (the CLI has no other path): a recipe that names
    a missing replay file fails in every member, and the recipe is reported incomplete, not faked."""
    from training.parallel import run
    tmp_path, _ = tiny
    bad = {**json.loads((tmp_path / "par.json").read_text()), "name": "bad", "replay_files": ["no-such-file.jsonl"]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert run([str(tmp_path / "bad.json")], tmp_path / "w", tmp_path / "o", jobs=3) == {"bad": False}
    logs = sorted(p.name for p in (tmp_path / "w" / "bad").glob("log-*.txt"))
    assert logs == ["log-s1-final.txt", "log-s1-fold0.txt", "log-s1-fold1.txt"]
    assert "no-such-file" in (tmp_path / "w" / "bad" / "log-s1-fold0.txt").read_text()
    assert not (tmp_path / "o" / "oof_nli_bad.jsonl").exists()


def test_members_side_by_side_then_the_recipe_is_completed(tiny, shared_data):
    """Every member in its own process (two at a time), then the plain cv_nli run that finds them all
    done: one out-of-fold file over the training pairs in their order, the dev file's, the final model.
    The pairs are 16 of claims_train and 4 of claims_dev, handed to every member (--train, --dev)."""
    from training.parallel import run
    tmp_path, rows = tiny
    dev = read_rows(shared_data / "bench" / "claims_dev.jsonl")[:4]
    (tmp_path / "dev.jsonl").write_text("".join(json.dumps(r) + "\n" for r in dev))
    assert run([str(tmp_path / "par.json")], tmp_path / "w", tmp_path / "o", jobs=2,
               train=tmp_path / "train.jsonl", dev=tmp_path / "dev.jsonl") == {"par": True}
    oof = [json.loads(x)["id"] for x in (tmp_path / "o" / "oof_nli_par.jsonl").read_text().splitlines()]
    assert oof == [r["id"] for r in rows]
    assert [json.loads(x)["id"] for x in (tmp_path / "o" / "dev_nli_par.jsonl").read_text().splitlines()] == \
        [r["id"] for r in dev]
    assert (tmp_path / "par-model" / "model.safetensors").exists()
    assert all("done earlier, skipped" not in p.read_text() for p in (tmp_path / "w" / "par").glob("log-*.txt"))
    summary = json.loads((tmp_path / "par-model" / "training_summary.json").read_text())
    assert summary["pairs_total"] < 64                      # trained on the 16 pairs, not claims_train


def test_cv_nli_refuses_a_missing_pairs_file_in_one_line(tmp_path):
    import subprocess
    import sys
    (tmp_path / "r.json").write_text(json.dumps({"name": "r", "output": str(tmp_path / "m")}))
    r = subprocess.run([sys.executable, "-m", "training.cv_nli", str(tmp_path / "r.json"), "--train",
                        str(tmp_path / "none.jsonl")], capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 1 and r.stderr.strip() == f"error: no such file: {tmp_path / 'none.jsonl'}"
