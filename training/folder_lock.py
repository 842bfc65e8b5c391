"""One process at a time in a training folder: a file lock taken without waiting.

Why: a training run resumes from what its folder holds (checkpoints, a tune's finished folds), so
a second run of the same command — a retried job, a second terminal — would take the first's
folder for its own unfinished run: two trainers writing one checkpoint folder, each deleting
files under the other. The second is refused at once instead of waiting, with a line that says
why. The lock is the operating system's (``filelock``), so a killed run's lock is free again and
its folder resumes.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from training.data import DataError


def hold(lock_file: Path, what: str):
    """The lock on ``lock_file``, taken now or refused (``DataError``); the caller releases it.
    ``what`` names the work for the refusal ("guard tune", "a training run")."""
    from filelock import FileLock, Timeout
    lock = FileLock(str(lock_file), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise DataError(f"another {what} is working in {lock_file.parent}; wait for it to finish") from None
    return lock


@contextlib.contextmanager
def held(lock_file: Path, what: str) -> Iterator[None]:
    """``hold`` for the block; the lock file is removed at the end (before the lock is let go, so no
    other process can be holding it then), so a finished model folder carries no stray file."""
    lock = hold(lock_file, what)
    try:
        yield
    finally:
        lock_file.unlink(missing_ok=True)
        lock.release()
