"""The warm-up reaches the trainer as the same number of steps, without transformers 5's deprecation."""
import logging

import pytest

from training.train import warmup_args


def test_warmup_is_the_same_steps_without_a_deprecation_warning(tmp_path, caplog):
    from sentence_transformers.cross_encoder import CrossEncoderTrainingArguments
    with caplog.at_level(logging.WARNING):
        args = CrossEncoderTrainingArguments(output_dir=str(tmp_path), report_to="none", use_cpu=True,
                                             **warmup_args(0.1))
    assert args.get_warmup_steps(340) == 34 and args.get_warmup_steps(1001) == 101     # ceil(ratio × steps)
    assert not [r for r in caplog.records if "warmup_ratio" in r.getMessage()]
    assert CrossEncoderTrainingArguments(output_dir=str(tmp_path), report_to="none", use_cpu=True,
                                         **warmup_args(0.0)).get_warmup_steps(340) == 0


@pytest.mark.parametrize("ratio", [1.0, 1.5, -0.1])
def test_a_ratio_outside_0_1_is_refused(ratio):
    with pytest.raises(ValueError, match="warmup_ratio must be in"):
        warmup_args(ratio)
