"""Normalising a big batch (a scan, a batch check) in whole-normalizer worker processes.

Why whole normalizers: spaCy's own ``n_process`` parses in workers but pickles every Doc back and
runs the rule code in the parent, which gained nothing here; two processes that each run spaCy
*and* the rules on half the statements give ~1.8x on 2 cores with byte-identical norms. Repeated
statements (stores restate settings per team and env) are normalised once. Only the rule
normalizers go to the pool: they are deterministic and CPU-bound; an LLM normalizer is network-bound
and has its own concurrency.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from guard.claims import Norm, Scope, Window

log = logging.getLogger(__name__)
_WORKER = None


def _init(name: str, parent: int | None = None, config: dict | None = None) -> None:
    global _WORKER
    from guard.normalize.base import SafeNormalizer, get_normalizer
    from guard.normalize.blas_ops import single_threaded_blas
    if parent is not None:
        exit_with_parent(parent)
    single_threaded_blas()            # a worker per core: numpy's GEMM on this worker's core only
    _WORKER = SafeNormalizer(get_normalizer(name, **{**(config or {}), "gemm": "numpy"}))


def exit_with_parent(parent: int, every: float = 0.5) -> None:
    """End this worker when the process that started it is gone. Why: a parent killed outright
    (SIGKILL, or SIGTERM to it alone — a job runner stopping ``guard scan``) cannot shut its pool
    down, and a spawned worker then waits on its queue for ever, holding spaCy (~190 MB each; two
    such workers were found alive half an hour after their scan was stopped). Reparented means
    orphaned."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def executor(name: str, processes: int, config: dict | None = None) -> ProcessPoolExecutor:
    """``processes`` spawned whole-normalizer workers (built with ``config``, as the caller's
    normalizer was) that end with this process."""
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"), initializer=_init,
                               initargs=(name, os.getpid(), config))


class OtherBuild(RuntimeError):
    """The workers read statements with another normalizer build than the caller's."""


def _run(items: list[tuple[str, Scope, Window]]) -> tuple[str, list[Norm]]:
    return _WORKER.build, _WORKER.normalize_many(items)


def poolable(name: str) -> bool:
    return name.startswith("normalizer.rules.")


def normalize_in_pool(name: str, items: list[tuple[str, Scope, Window]], processes: int,
                      progress=None, config: dict | None = None, build: str | None = None) -> list[Norm]:
    """The norms of ``items`` in order, computed once per distinct (text, scope, window) by
    ``processes`` spawned workers. Spawned, not forked: the parent may hold torch's thread pool.
    ``progress(n)`` hears of each finished slice (repeated statements counted at the end).

    ``build``: the caller's normalizer build (``guard.normalize.build``); workers that read with
    another (the caller's normalizer was built with settings ``config`` does not carry, or is not
    the registered one) raise ``OtherBuild`` instead of returning readings the caller's own
    normalizer would not give — a store caches the norms under the caller's build."""
    keys = [(t, repr(s), repr(w)) for t, s, w in items]
    first: dict = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    unique = [items[i] for i in first.values()]
    n_chunks = max(processes * 4, len(unique) // 4000)    # slices small enough that both workers stay busy
    size = max(1, -(-len(unique) // n_chunks))
    chunks = [unique[s:s + size] for s in range(0, len(unique), size)]
    with executor(name, processes, config) as ex:
        norms = []
        with main_module_hidden():          # the workers start here, on the first submit
            parts = ex.map(_run, chunks)
        for read_by, part in parts:
            if build is not None and read_by != build:
                raise OtherBuild(f"the pool's workers read with {read_by}, this process with {build}")
            norms += part
            if progress:
                progress(len(part))
    if progress and len(items) > len(unique):
        progress(len(items) - len(unique))
    by_key = dict(zip(first, norms))
    return [by_key[k] for k in keys]


@contextmanager
def main_module_hidden():
    """Start spawned workers without the caller's main module. A spawned process imports the parent's
    ``__main__`` (by its file, or by its name under ``python -m``) before it runs anything, so a script
    that calls the guard at its top level, without ``if __name__ == "__main__":``, ran once more in
    each worker: every write or file it made before the call was made three times, and each worker's
    own pool then failed. The workers need nothing from it: they are sent this module's functions
    and plain data."""
    main = sys.modules.get("__main__")
    saved = {k: main.__dict__[k] for k in ("__file__", "__spec__") if main is not None and k in main.__dict__}
    if main is not None:
        main.__dict__.pop("__file__", None)
        if "__spec__" in saved:
            main.__spec__ = None
    try:
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)


def default_processes() -> int:
    return max(1, min(2, os.cpu_count() or 1))
