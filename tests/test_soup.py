"""training.soup: the mean of fine-tunes' weights, and the checks that it averages like with like."""
import json

import pytest

torch = pytest.importorskip("torch")
from safetensors.torch import load_file, save_file  # noqa: E402

from training.soup import average  # noqa: E402


def member(path, weight, config=None, tokenizer="tok"):
    path.mkdir(parents=True)
    save_file({"w": torch.full((2, 3), weight, dtype=torch.float16), "b": torch.zeros(3, dtype=torch.float16)},
              str(path / "model.safetensors"))
    (path / "config.json").write_text(json.dumps(config or {"id2label": {"0": "contradiction"}, "dtype": "float16"}))
    (path / "tokenizer.json").write_text(json.dumps({"vocab": tokenizer}))
    (path / "training_summary.json").write_text("{}")
    return path


def test_the_soup_is_the_mean_saved_whole_with_the_first_members_files(tmp_path):
    a, b, c = (member(tmp_path / n, w) for n, w in (("a", 1.0), ("b", 2.0), ("c", 6.0)))
    out = average([a, b, c], tmp_path / "soup")
    got = load_file(str(out / "model.safetensors"))
    assert got["w"].dtype == torch.float16 and torch.allclose(got["w"].float(), torch.full((2, 3), 3.0))
    assert (out / "config.json").read_text() == (a / "config.json").read_text()
    assert not (out / "training_summary.json").exists()          # a soup was not trained: its maker says how
    assert json.loads((out / "soup.json").read_text())["members"] == [str(a), str(b), str(c)]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []    # nothing half-written left
    again = average([a, a], out)                                  # replacing a soup in place
    assert torch.allclose(load_file(str(again / "model.safetensors"))["w"].float(), torch.full((2, 3), 1.0))


def test_a_saved_dtype_is_not_a_difference_but_labels_tokenizers_and_tensors_are(tmp_path):
    a = member(tmp_path / "a", 1.0)
    fp32 = member(tmp_path / "fp32", 3.0, config={"id2label": {"0": "contradiction"}, "dtype": "float32"})
    assert load_file(str(average([a, fp32], tmp_path / "s") / "model.safetensors"))["w"][0, 0] == 2.0
    other = member(tmp_path / "labels", 1.0, config={"id2label": {"0": "entailment"}})
    with pytest.raises(ValueError, match="differ in config.json"):
        average([a, other], tmp_path / "s2")
    tok = member(tmp_path / "tok", 1.0, tokenizer="other")
    with pytest.raises(ValueError, match="differ in tokenizer.json"):
        average([a, tok], tmp_path / "s3")
    odd = member(tmp_path / "odd", 1.0)
    save_file({"w": torch.ones(3, 2, dtype=torch.float16), "b": torch.zeros(3, dtype=torch.float16)},
              str(odd / "model.safetensors"))
    with pytest.raises(ValueError, match="has shape"):
        average([a, odd], tmp_path / "s4")
    with pytest.raises(ValueError, match="no model.safetensors"):
        average([a, tmp_path], tmp_path / "s5")
    assert not (tmp_path / "s2").exists() and not (tmp_path / "s4").exists()


def test_integer_buffers_are_kept_not_averaged_and_must_agree(tmp_path):
    """A checkpoint may hold integer buffers (BERT's position ids): they are not weights, so the soup
    keeps them as they are (never cast to float16) and refuses members whose buffers differ."""
    def with_ids(path, weight, ids):
        m = member(path, weight)
        t = load_file(str(m / "model.safetensors"))
        save_file({**t, "position_ids": ids}, str(m / "model.safetensors"))
        return m
    a = with_ids(tmp_path / "a", 1.0, torch.arange(4).unsqueeze(0))
    b = with_ids(tmp_path / "b", 3.0, torch.arange(4).unsqueeze(0))
    got = load_file(str(average([a, b], tmp_path / "s") / "model.safetensors"))
    assert got["position_ids"].dtype == torch.int64 and got["position_ids"].tolist() == [[0, 1, 2, 3]]
    assert torch.allclose(got["w"].float(), torch.full((2, 3), 2.0))
    c = with_ids(tmp_path / "c", 1.0, torch.arange(1, 5).unsqueeze(0))
    with pytest.raises(ValueError, match="integer tensor position_ids differs"):
        average([a, c], tmp_path / "s2")
