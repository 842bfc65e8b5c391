"""Progress bars for long commands: tqdm on a terminal, silent when stderr is not one or with
``--quiet`` (the CLI clears ``ENABLED``). One switch for the CLI, the benchmarks and training, so
a piped or quiet run never gets bars from a library underneath it."""
from __future__ import annotations

import sys
from typing import Iterable, Iterator, Sequence, TypeVar

T = TypeVar("T")
ENABLED = True


def shown() -> bool:
    return ENABLED and sys.stderr.isatty()


def bar(iterable: Iterable[T] | None = None, *, total: int | None = None, desc: str = "", unit: str = "it",
        leave: bool = False, enabled: bool = True):
    from tqdm import tqdm
    return tqdm(iterable, total=total, desc=desc, unit=unit, leave=leave, disable=not (enabled and shown()))


def chunks(seq: Sequence[T], size: int, desc: str, unit: str = "it") -> Iterator[Sequence[T]]:
    """``seq`` in slices of ``size`` (batch calls stay batched), the bar advancing per item. The last state
    is drawn before the bar closes: tqdm draws an update only 0.1 s after the one before, so a fast last
    slice never showed "60/60" (a test of the store's first embedding failed on it when the encode was quick)."""
    with bar(total=len(seq), desc=desc, unit=unit) as b:
        for s in range(0, len(seq), size):
            part = seq[s:s + size]
            yield part
            b.update(len(part))
        b.refresh()
