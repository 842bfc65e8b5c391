"""What the CPU can do natively, read from the kernel's flags.

Why here: both training (which precision a run trains in) and inference (whether the bf16 tile
backend may run) ask the same question, and the guard package must not import the training code.
"""
from __future__ import annotations

from pathlib import Path


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    """The CPU's feature flags as the kernel reports them; empty where there is no /proc/cpuinfo."""
    try:
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def cpu_has_bf16_matmul(flags: set[str] | None = None) -> bool:
    """AMX's bf16 tiles: the units measured to make bf16 faster than fp32 on a CPU here."""
    flags = cpu_flags() if flags is None else flags
    return "amx_bf16" in flags and "amx_tile" in flags


def cpu_has_bf16_instructions(flags: set[str] | None = None) -> bool:
    """Any native bf16 arithmetic: AMX, or AVX-512 BF16's dot products."""
    return cpu_bf16_units(flags) is not None


def cpu_bf16_units(flags: set[str] | None = None) -> str | None:
    """Which bf16 units the CPU has: "AMX", "AVX-512 BF16" or None.

    Why a name and not a yes/no: OpenVINO's bf16 kernels differ between the two (AMX tiles against
    AVX-512 BF16 dot products), so their scores differ in the last bits, and a store's NLI score
    cache must key them apart. Both were measured to give a pair the same bf16 score alone and in
    any batch (sessions 22 and 28)."""
    flags = cpu_flags() if flags is None else flags
    if cpu_has_bf16_matmul(flags):
        return "AMX"
    return "AVX-512 BF16" if "avx512_bf16" in flags else None
