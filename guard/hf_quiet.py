"""transformers' load report and weight-loading bars, held back while a model is loaded for a one-time
job (an ONNX export, an adapter merge): a command's output stays its own summary lines, ``--quiet``
stays quiet, and the caller's own settings come back afterwards."""
from __future__ import annotations

from contextlib import contextmanager


@contextmanager
def quiet_transformers():
    from transformers.utils import logging as hf_logging
    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()
