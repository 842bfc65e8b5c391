"""WiSE-FT interpolation of two shipped cross-encoders: the ends are the models, the middle is the
mean of their weights, and a failed merge leaves the target as it was."""
import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("mergekit", reason="interpolating models needs pip install claim-guard[train]")

ROOT = Path(__file__).resolve().parents[1]
V1, V2 = ROOT / "models" / "nli-minilm-l6", ROOT / "models" / "nli-minilm-l6-v2"
PAIRS = [("The API listens on port 8443.", "The API listens on port 9443."),
         ("Backups run daily.", "Backups run every day.")]


def _weights(path):
    from safetensors.torch import load_file
    return {k: v.float() for k, v in load_file(str(Path(path) / "model.safetensors")).items()}


@pytest.mark.slow
def test_the_ends_are_the_two_models_and_the_middle_is_the_mean_of_their_weights(tmp_path):
    from training.interpolate import interpolate
    a, b = _weights(V1), _weights(V2)
    for w, want in ((0.0, a), (1.0, b)):
        got = _weights(interpolate(V1, V2, w, tmp_path / f"w{w}", fp16=False))
        assert max(float((got[k] - want[k]).abs().max()) for k in want) < 1e-6
    mid = _weights(interpolate(V1, V2, 0.5, tmp_path / "mid", fp16=False))
    assert max(float((mid[k] - (a[k] + b[k]) / 2).abs().max()) for k in a) < 1e-6
    from guard.nli.scorer import NLIScorer
    p = NLIScorer(tmp_path / "mid", calibrated=False).predict(PAIRS)
    assert all(abs(sum(x.values()) - 1) < 1e-5 for x in p)


@pytest.mark.slow
def test_merging_into_the_tuned_folder_replaces_it_whole_and_keeps_its_training_summary(tmp_path):
    from training.interpolate import interpolate
    tuned = tmp_path / "tuned"
    shutil.copytree(V2, tuned)
    (tuned / "training_summary.json").write_text(json.dumps({"steps": 7}))
    interpolate(V1, tuned, 0.5, tuned)
    assert json.loads((tuned / "training_summary.json").read_text()) == {"steps": 7}
    assert not list(tmp_path.glob(".*"))                    # no half-written or replaced copy left behind
    got = _weights(tuned)
    a, b = _weights(V1), _weights(V2)
    k = next(iter(a))
    assert float((got[k] - (a[k] + b[k]) / 2).abs().max()) < 2e-3      # stored fp16


def test_a_weight_outside_0_1_is_refused_in_one_line(tmp_path):
    from training.interpolate import interpolate
    with pytest.raises(ValueError, match="within 0–1, not 1.5"):
        interpolate(V1, V2, 1.5, tmp_path / "x")
    assert not (tmp_path / "x").exists()
