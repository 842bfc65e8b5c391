"""Dense weight averaging over the tail of a training run (SWA / SWAD).

Why: the claim stage fits claims_train's documents out of fold but carries less of it to new
documents (claims_dev), and the remedies measured so far that keep more of the general model
(WiSE-FT, frozen layers, same-document neutrals) buy dev by giving up the claim fit. Averaging the
weights a run passes through late in training (Izmailov et al., 2018, "stochastic weight
averaging"; Cha et al., 2021, "SWAD", dense per-step averaging for domain generalisation) keeps
the claim fit and lands in a flatter region of the loss, which is what carries to data of another
distribution. It costs one extra copy of the weights and an add per step.

``TrainConfig.average_from`` f (0 < f < 1): every optimiser step from fraction f of the run to its
end adds the trainable weights to a running mean, and the model saved is that mean. The mean is
saved with each checkpoint, so a resumed run goes on with it instead of starting a new one.
"""
from __future__ import annotations

from pathlib import Path

import torch
from transformers import TrainerCallback

AVERAGE_FILE = "weight_average.pt"


def check_average_from(f: float) -> None:
    """Refuse a fraction that averages nothing or everything from the random start, in one line."""
    if not 0.0 <= f < 1.0:
        raise ValueError(f"average_from {f} must be in [0, 1): the fraction of the run after which steps are averaged")


class WeightAverage(TrainerCallback):
    """A uniform running mean of the trainable weights after each step from ``start_fraction`` of the
    run on; ``apply`` writes it into the model at the end."""

    def __init__(self, model: torch.nn.Module, start_fraction: float):
        check_average_from(start_fraction)
        self.start_fraction = start_fraction
        self.params = {n: p for n, p in model.named_parameters() if p.requires_grad}   # the same tensors all run
        self.mean: dict[str, torch.Tensor] | None = None
        self.count = 0
        self.last_step = -1

    def _start_step(self, state) -> int:
        return int(state.max_steps * self.start_fraction)

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step <= self._start_step(state):
            return
        if self.mean is None:
            self._resume(args, state)
        with torch.no_grad():
            if self.mean is None:
                self.mean = {n: p.detach().float().clone() for n, p in self.params.items()}
                self.count = 1
            else:
                self.count += 1
                for n, p in self.params.items():     # mean_k = mean_{k-1} + (w - mean_{k-1}) / k
                    self.mean[n].add_(p.detach().float() - self.mean[n], alpha=1.0 / self.count)
        self.last_step = state.global_step

    def _resume(self, args, state) -> None:
        """Take up the mean saved with the checkpoint this run resumed from, if it is that step's."""
        ckpt = Path(args.output_dir) / f"checkpoint-{state.global_step - 1}" / AVERAGE_FILE
        if ckpt.exists():
            saved = torch.load(ckpt, map_location="cpu")
            if saved["step"] == state.global_step - 1 and set(saved["mean"]) == set(self.params):
                self.mean, self.count = saved["mean"], saved["count"]

    def on_save(self, args, state, control, **kwargs):
        if self.mean is not None:
            folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            if folder.is_dir():
                torch.save({"step": self.last_step, "count": self.count, "mean": self.mean}, folder / AVERAGE_FILE)

    def apply(self) -> int:
        """Write the mean into the model; returns how many steps it averaged (0: none, model unchanged)."""
        if self.mean is None:
            return 0
        with torch.no_grad():
            for n, p in self.params.items():
                p.copy_(self.mean[n].to(p.dtype))
        return self.count
