"""Temperature scaling of the NLI model, the training data rules that keep evaluation honest, and
the lazy package imports that let the scorer run on a machine without spaCy."""
import json
import subprocess
import sys

import numpy as np
import pytest

from guard.nli.calibration import CALIBRATION_FILE, load_temperature, rescale


def test_rescaling_stored_probabilities_equals_scaling_the_logits():
    logits = np.array([2.5, -1.0, 0.3])
    p = np.exp(logits) / np.exp(logits).sum()
    for t in (0.5, 1.0, 2.8):
        want = np.exp(logits / t) / np.exp(logits / t).sum()
        got = rescale(dict(zip("abc", p)), t)
        assert np.allclose([got[k] for k in "abc"], want, atol=1e-9)
    hot = rescale({"a": 1.0, "b": 0.0, "c": 0.0}, 2.0)        # a zero probability stays finite
    assert hot["a"] > 0.99 and all(np.isfinite(list(hot.values())))


def test_a_temperature_outside_its_range_is_refused_with_the_file_named(tmp_path):
    assert load_temperature(tmp_path) == 1.0 and load_temperature(None) == 1.0
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps({"temperature": 0.0}))
    with pytest.raises(ValueError, match="calibration.json.*outside"):
        load_temperature(tmp_path)


@pytest.mark.parametrize("content", ["{not json", '{"t": 2}', '{"temperature": "hot"}', '{"temperature": 99}'])
def test_a_damaged_calibration_file_makes_the_model_unavailable_with_one_line(tmp_path, content):
    """A model folder whose calibration.json is damaged is refused like any unloadable model (the
    accurate profile then refuses to run, exit 2), never a traceback and never silently uncalibrated."""
    import shutil

    from guard.nli.scorer import ModelUnavailable, NLIScorer, default_model_path
    model = tmp_path / "m"
    shutil.copytree(default_model_path(), model)
    (model / CALIBRATION_FILE).write_text(content)
    with pytest.raises(ModelUnavailable, match="calibration.json") as err:
        NLIScorer(model)
    assert "\n" not in str(err.value)
    from conftest import make_store
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--nli-model", str(model), "--store", str(make_store(tmp_path / "s.sqlite")),
                        "check", "Deploys need two approvals."], capture_output=True, text=True,
                       cwd=str(__import__("pathlib").Path(__file__).parents[1]))
    assert r.returncode == 2 and "calibration.json" in r.stderr and "Traceback" not in r.stderr


def test_fitting_recovers_a_known_temperature():
    from training.calibrate import fit_temperature, reliability
    rng = np.random.default_rng(0)
    true_t = 2.5
    logits = rng.normal(0, 3, size=(4000, 3))
    p = np.exp(logits / true_t)
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(3, p=row) for row in p])          # labels drawn from the calibrated model
    assert abs(fit_temperature(logits, y) - true_t) < 0.25
    rel = reliability(p, y)
    assert rel["ece"] < 0.05 and sum(b["n"] for b in rel["bins"]) == 4000


def test_the_shipped_scorer_applies_its_temperature_and_keeps_the_argmax():
    from guard.nli.scorer import NLIScorer, default_model_path
    if load_temperature(default_model_path()) == 1.0:
        pytest.skip("the shipped model has no calibration.json")
    pairs = [("Deploys need two approvals.", "Deploys need no approval."),
             ("The API listens on 8443.", "The API listens on port 8443.")]
    cal, raw = NLIScorer(), NLIScorer(calibrated=False)
    for a, b in zip(cal.predict(pairs), raw.predict(pairs)):
        assert max(a, key=a.get) == max(b, key=b.get)
        assert max(a.values()) < max(b.values())               # T > 1 softens an over-confident model


def test_duplicates_and_evaluation_pairs_never_reach_training(tmp_path):
    from training.data import Pair, drop_overlap
    ev = {("a cat sleeps.", "an animal rests."), ("an animal rests.", "a cat sleeps.")}
    pairs = [Pair("A cat  sleeps.", "An animal rests.", "entailment", "x"),     # an eval pair, respelt
             Pair("Dogs bark.", "Animals are loud.", "neutral", "x"),
             Pair("dogs bark.", "animals are loud.", "neutral", "y"),           # duplicate
             Pair("Dogs bark.", "Animals are loud.", "entailment", "z")]        # same text, other label: kept
    kept, dropped = drop_overlap(pairs, ev)
    assert [p.source for p in kept] == ["x", "z"]
    assert dropped == {"duplicate": 1, "in_eval_files": 1}


def test_the_scorer_imports_without_the_pipeline_or_spacy():
    """A training machine may lack spaCy: the scorer and the training data code must import alone."""
    code = ("import sys, guard.nli.scorer, guard.nli.calibration, training.data; "
            "bad = [m for m in sys.modules if m.startswith(('spacy', 'guard.pipeline', 'guard.normalize'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(__import__("pathlib").Path(__file__).parents[1]))
    assert r.returncode == 0, r.stdout + r.stderr
    import guard
    assert guard.Guard.__name__ == "Guard"
    with pytest.raises(AttributeError, match="no attribute"):
        guard.NoSuchThing
