"""Training precision: bf16 mixed precision only where the hardware runs it natively, said in the
summary, refused in one line where it cannot run, and no autocast left on the model afterwards."""
import json
import logging

import pytest

from training.precision import PrecisionError, choose, cpu_flags, cpu_has_bf16_matmul

AMX = {"avx512f", "amx_tile", "amx_bf16", "amx_int8"}


def test_auto_picks_bf16_only_on_a_cpu_with_amx_bf16():
    assert choose("auto", gpu=False, flags=AMX) == "bf16"
    assert choose("auto", gpu=False, flags={"avx2", "avx512f", "avx512_bf16"}) == "fp32"   # not measured
    assert choose("auto", gpu=False, flags=set()) == "fp32"
    assert choose("fp32", gpu=False, flags=AMX) == "fp32"
    assert choose("bf16", gpu=False, flags=AMX) == "bf16"
    assert choose("bf16", gpu=False, flags={"avx512f", "avx512_bf16"}) == "bf16"   # asked for: native dot products


def test_bf16_without_the_hardware_and_unknown_precisions_are_refused_in_one_line():
    with pytest.raises(PrecisionError, match="neither AMX nor AVX-512 BF16"):
        choose("bf16", gpu=False, flags={"avx2", "avx512f"})
    with pytest.raises(PrecisionError, match="one of auto, fp32, bf16, not 'fp16'"):
        choose("fp16", gpu=False, flags=AMX)


def test_cpu_flags_are_read_from_cpuinfo_and_a_missing_file_means_none(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: Some CPU\nflags\t\t: fpu sse2 avx2 amx_bf16 amx_tile\n\n"
                    "processor\t: 1\nflags\t\t: fpu sse2 avx2 amx_bf16 amx_tile\n")
    assert {"avx2", "amx_bf16", "amx_tile"} <= cpu_flags(info)
    assert cpu_has_bf16_matmul(cpu_flags(info))
    assert cpu_flags(tmp_path / "absent") == set()
    assert not cpu_has_bf16_matmul(set())


def test_the_bf16_units_are_named_amx_first():
    from guard.hardware import cpu_bf16_units
    assert cpu_bf16_units({"avx512_bf16", "amx_bf16", "amx_tile"}) == "AMX"
    assert cpu_bf16_units({"avx512f", "avx512_bf16"}) == "AVX-512 BF16"
    assert cpu_bf16_units({"avx512f", "amx_tile"}) is None           # tiles without bf16 arithmetic
    assert cpu_bf16_units(set()) is None


def _pairs(tmp_path):
    rows = [{"premise": "Backups run daily.", "hypothesis": "Backups run every day.", "label": "entailment"},
            {"premise": "The API listens on port 8443.", "hypothesis": "The API listens on port 9443.",
             "label": "contradiction"},
            {"premise": "Deploys need two approvals.", "hypothesis": "The cache holds 4 GB.", "label": "neutral"}] * 4
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data


@pytest.mark.slow
@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_a_real_training_run_in_each_precision_saves_a_plain_model(tmp_path, precision, caplog):
    """The summary says which arithmetic ran; the saved model scores like any other; and the model
    card written with it computed its usage example — under a leftover autocast that example fails
    ("mixed dtype"), which is how a bf16 run's model looked before the trainer's wrapper was undone."""
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    if precision == "bf16" and not cpu_has_bf16_matmul():
        pytest.skip("this CPU has no AMX bf16 units: auto trains in fp32 here, and bf16 was measured only with AMX")
    import numpy as np

    from guard.nli import NLIScorer
    from training.train import TrainConfig, train
    caplog.set_level(logging.WARNING)
    s = train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[str(_pairs(tmp_path))], domain_pairs=False,
                          symmetric=False, max_steps=3, batch_size=4, save_steps=100, device="cpu",
                          precision=precision))
    assert s["steps"] == 3 and s["precision"] == precision
    assert not [r for r in caplog.records if "usage snippet" in r.getMessage()]
    [p] = NLIScorer(str(tmp_path / "m"), backend="torch").predict([("Backups run daily.", "Backups never run.")])
    assert set(p) == {"contradiction", "entailment", "neutral"}
    assert np.all(np.isfinite(list(p.values()))) and abs(sum(p.values()) - 1.0) < 1e-4


@pytest.mark.slow
def test_guard_train_refuses_an_unknown_precision_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from guard.cli import app
    r = CliRunner().invoke(app, ["--quiet", "train", str(tmp_path / "m"), "--data", str(_pairs(tmp_path)),
                                 "--max-steps", "1", "--precision", "fp8"])
    assert r.exit_code == 2
    assert "precision must be one of auto, fp32, bf16, not 'fp8'" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "m").exists()
