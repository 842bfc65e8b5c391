"""Temperature scaling of the NLI model's 3-way probabilities (``calibration.json`` beside it).

Why: a fine-tuned cross-encoder is over-confident (it gives 1.00 to pairs it gets wrong), and
every consumer of its probabilities — the learned gate's features, the auditor's thresholds, a
user reading ``p(contradiction)`` — is better served by probabilities that mean what they say.
One scalar T, fitted on held-out pairs (``training.calibrate``), divides the logits; argmax is
unchanged, so accuracy is too. Stored predictions are rescaled by the same T (``rescale``), so a
gate fitted on files agrees with the scorer at write time.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

CALIBRATION_FILE = "calibration.json"


def load_temperature(model_dir: str | Path | None) -> float:
    """The fitted temperature of a model directory; 1.0 (no change) when it has none."""
    if model_dir is None:
        return 1.0
    f = Path(model_dir) / CALIBRATION_FILE
    if not f.is_file():
        return 1.0
    try:
        t = float(json.loads(f.read_text(encoding="utf-8"))["temperature"])
    except (ValueError, KeyError, TypeError) as exc:          # JSONDecodeError is a ValueError
        raise ValueError(f"{f}: no readable temperature ({type(exc).__name__}: {exc})") from None
    if not (0.05 <= t <= 20):
        raise ValueError(f"{f}: temperature {t} is outside 0.05–20")
    return t


def rescale(probs: dict[str, float], temperature: float) -> dict[str, float]:
    """softmax(log p / T) == softmax(logits / T): stored probabilities rescale exactly."""
    if temperature == 1.0:
        return probs
    logs = {k: math.log(max(v, 1e-12)) / temperature for k, v in probs.items()}
    top = max(logs.values())
    ex = {k: math.exp(v - top) for k, v in logs.items()}
    z = sum(ex.values())
    return {k: v / z for k, v in ex.items()}
