"""Which arithmetic a training run uses: bf16 mixed precision where the hardware runs it natively.

Why: CPU training is the path that always works here, and a CPU with AMX (Intel Sapphire Rapids
and later) multiplies bf16 matrices in hardware — a length-grouped step of 64 general NLI pairs took
1.38 s in fp32 and 0.86 s in bf16 on such a 2-core machine, with the same loss and, on the claim stage,
the same out-of-fold AUC (session 20; README, "The NLI models"). Without AMX it was not measured —
some CPUs have AVX-512 BF16 dot products, others would emulate bf16 — so "auto" keeps fp32 there and
"bf16" is allowed only where the CPU has one of the two. Mixed precision keeps the master weights
fp32 (the trainer's autocast), so a saved model is the same kind of file either way. Inference in
bf16 is a separate, opt-in backend (``guard.nli.tiles``): a bf16 score depends on the shapes of the
batch it was computed in, so it runs every pair in tiles of one fixed shape.
"""
from __future__ import annotations

from guard.hardware import cpu_flags, cpu_has_bf16_instructions, cpu_has_bf16_matmul

__all__ = ["PRECISIONS", "PrecisionError", "choose", "cpu_flags", "cpu_has_bf16_instructions", "cpu_has_bf16_matmul"]

PRECISIONS = ("auto", "fp32", "bf16")


class PrecisionError(ValueError):
    """A precision that is unknown, or that this hardware cannot train in."""


def choose(precision: str, gpu: bool, flags: set[str] | None = None) -> str:
    """The precision a run trains in: "fp32" or "bf16". ``precision`` "auto" picks bf16 on a CUDA
    GPU that supports it and on a CPU with AMX, fp32 elsewhere; "fp32" / "bf16" are taken as given,
    but bf16 on hardware with no bf16 arithmetic at all is refused in one line rather than emulated."""
    if precision not in PRECISIONS:
        raise PrecisionError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    if gpu:
        import torch
        native = able = torch.cuda.is_bf16_supported()
    else:
        native, able = cpu_has_bf16_matmul(flags), cpu_has_bf16_instructions(flags)
    if precision == "auto":
        return "bf16" if native else "fp32"
    if precision == "bf16" and not able:
        where = "this GPU" if gpu else "this CPU (neither AMX nor AVX-512 BF16)"
        raise PrecisionError(f"bf16 training needs hardware that runs it natively; {where} does not")
    return precision
