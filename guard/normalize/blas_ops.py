"""spaCy's neural components multiplying matrices through numpy's BLAS instead of thinc's BLIS.

Why: tok2vec was the normalizer's largest cost (half of spaCy's time on claims, ~60 % of it in
GEMM), and thinc's ``NumpyOps`` multiplies through its bundled BLIS, which on this project's
2-core AVX2 machine ran the tok2vec shapes (n × 288 by 288 × 288) at ~30 GFLOP/s where numpy's
OpenBLAS ran them at ~90 on one thread. thinc supports the switch itself: ``NumpyOps(use_blis=False)``
hands ``gemm`` to ``numpy.dot``. The parser's greedy step loop calls BLIS through ``cblas()`` and is
left as it is. The annotations are the same token by token (tested on claims, gold and MNLI
statements); a float sum in another order could in principle move an argmax, which is why the test
compares every tag, morph, lemma, dependency label and head.

Where: only in the normalizer pool's workers, each a process with a core to itself and BLAS held
to one thread there. In a process that shares its cores — a guarded write, where the cross-encoder
runs right after the normalizer — numpy's OpenBLAS woke a second thread for these shapes, which
then spun while ONNX Runtime worked: 10k-claim accurate writes went p95 146 → 170 ms, though one
statement alone normalized faster (3.3 → 2.7 ms). Setting OpenBLAS's threads around each call
instead was unreliable (threadpoolctl's change made from a non-main thread did not hold after the
process had set a limit), so writes keep thinc's BLIS.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:       # spaCy and thinc only through rules.import_spacy, which keeps torch out
    from spacy.language import Language


def use_numpy_blas(nlp: Language) -> Language:
    """Point every CPU ``NumpyOps`` node of the pipeline's models at numpy's GEMM, in place. A model
    on other ops (a GPU, a user's custom ops) keeps them."""
    from thinc.api import NumpyOps
    ops = NumpyOps(use_blis=False)
    for _, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is None or not hasattr(model, "walk"):
            continue
        for node in model.walk():
            if type(node.ops) is NumpyOps:
                node.ops = ops
    return nlp


def single_threaded_blas() -> None:
    """One BLAS thread for the rest of this process (a pool worker). threadpoolctl reaches a loaded
    OpenBLAS at run time, where an environment variable would come too late; numpy is imported
    first because threadpoolctl only reaches a library that is loaded (without it, a worker kept
    two BLAS threads and two workers ran 28 % slower)."""
    import numpy  # noqa: F401
    from threadpoolctl import threadpool_limits
    threadpool_limits(1, user_api="blas")
