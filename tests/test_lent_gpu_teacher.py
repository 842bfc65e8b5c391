"""training/lent_gpu.sh with a teacher (TEACHER=, session 65) and a second call on the warm machine
(RESUME=1), run for real on this CPU with tiny recipes. A file of its own: the test workers (``--dist
loadfile``) take whole files, so it can run beside the other lent-GPU tests rather than after them."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile

from test_lent_gpu_script import ROOT, _payload


def test_a_teacher_runs_beside_the_general_stage_and_its_students_distil_from_its_folds(tmp_path, shared_data):
    """TEACHER=recipe (session 65): the teacher's members score the rows they trained on into the copy's
    results/claims-cv/, the student's members distil fold by fold from them once the teacher is through,
    and the teacher's files come back with the results."""
    src, out, work = tmp_path / "src", tmp_path / "out", tmp_path / "w"
    src.mkdir()
    _payload(src, shared_data)
    recipe = json.loads((src / "tiny.json").read_text())
    teacher = {**recipe, "name": "tinyteacher", "output": "models/tinyteacher", "score_training_rows": True,
               "score_document_pairs": 1}
    (src / "teacher.json").write_text(json.dumps(teacher))
    (src / "tiny.json").write_text(json.dumps({
        **recipe, "objective": "distill", "distill_alpha": 0.5, "distill_temperature": 2.0,
        "teacher_scores": "results/claims-cv/insample_nli_tinyteacher_{part}.jsonl"}))
    base = src / "elsewhere"                      # the base carried by a call of its own (MINILM_BASE)
    (src / ".dev" / "base").rename(base)
    env = {**os.environ, "OUT": str(out), "W": str(work), "PY": sys.executable, "RECIPES": "tiny.json",
           "TEACHER": "teacher.json", "TEACHER_JOBS": "1", "MINILM_BASE": str(base), "JOBS": "2",
           "DEADLINE": "600", "LIMIT": "900", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(["bash", str(ROOT / "training" / "lent_gpu.sh")], check=False, cwd=src, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "teacher done at" in done.stdout and "all done at" in done.stdout
    with tarfile.open(out / "results.tar.gz") as tar:
        names = set(tar.getnames())
        student = json.loads(tar.extractfile("send/training_summary.json").read())
    parts = ("fold0", "fold1", "final")
    assert {f"main/results/claims-cv/insample_nli_tinyteacher_{p}.jsonl" for p in parts} <= names
    assert {f"main/results/claims-cv/docpairs_nli_tinyteacher_{p}.jsonl" for p in parts} <= names
    assert {"out/oof_nli_tiny.jsonl", "out/dev_nli_tiny.jsonl", "out/teacher.log"} <= names
    # what came back is the student's final model, which distilled from the teacher's final member
    assert student["recipe"]["objective"] == "distill"
    assert student["config"]["teacher_scores"].endswith("insample_nli_tinyteacher_final.jsonl")
    # RESUME=1 (a second call on the still-warm machine): no set-up, teacher or general stage again; the
    # members it lacks are trained, the finished ones skipped, and the final model is sent back whole
    (work / "runs" / "tiny" / "oof_fold1.jsonl").unlink()
    shutil.rmtree(work / "main" / "models" / "tiny")
    general = work / "runs" / "tiny" / "general" / "training_summary.json"
    before = general.stat().st_mtime
    fold0 = work / "runs" / "tiny" / "oof_fold0.jsonl"
    fold0_before = fold0.stat().st_mtime
    shutil.rmtree(out)
    again = subprocess.run(["bash", str(ROOT / "training" / "lent_gpu.sh")], check=False, cwd=src,
                           env={**env, "RESUME": "1"}, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    assert "teacher done at" not in again.stdout and "general done at" not in again.stdout
    assert general.stat().st_mtime == before and fold0.stat().st_mtime == fold0_before    # finished: skipped
    log = (work / "out" / "parallel.log").read_text()
    assert "tiny seed 42 fold1: done" in log and "tiny seed 42 final: done" in log
    assert (work / "runs" / "tiny" / "oof_fold1.jsonl").exists() and sorted(out.glob("model.part-*"))
