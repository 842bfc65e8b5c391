"""spaCy's models multiplying through numpy's BLAS annotate exactly as with thinc's BLIS (every
tag, morph, lemma, dependency label and head); only the pool's workers use it, on one BLAS thread."""
import os
import subprocess
import sys

import pytest

ODD = ["", " ", "x" * 400, "DO NOT deploy on Fridays!!!", "Ünïcödé façade — naïve café’s “quotes”.",
       " ".join(["word"] * 300), "a.b.c 1.2.3 $5/week 10:00 am (see §4.2)"]


def _annotations(doc):
    return [(t.text, t.pos_, t.tag_, str(t.morph), t.lemma_, t.dep_, t.head.i) for t in doc]


@pytest.fixture(scope="module")
def pipelines():
    from guard.normalize.rules import SPACY_MODEL, import_spacy
    spacy = import_spacy()
    return spacy.load(SPACY_MODEL, disable=["ner"]), spacy.load(SPACY_MODEL, disable=["ner"])


def test_numpy_gemm_annotates_like_blis(pipelines, shared_data):
    from thinc.api import NumpyOps

    from guard.normalize.blas_ops import use_numpy_blas
    from training.claim_pairs import read_rows
    plain, fast = pipelines
    use_numpy_blas(fast)
    ops = {type(n.ops).__name__ + str(getattr(n.ops, "use_blis", "")) for _, p in fast.pipeline
           if getattr(p, "model", None) is not None for n in p.model.walk()}
    assert ops == {"NumpyOpsFalse"}
    assert all(n.ops.use_blis for _, p in plain.pipeline if getattr(p, "model", None) is not None
               for n in p.model.walk() if isinstance(n.ops, NumpyOps))
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")[:150]
    texts = list(dict.fromkeys(t for r in rows for t in (r["existing"]["text"], r["incoming"]["text"]))) + ODD
    for batch in (1, 64):
        for a, b in zip(plain.pipe(texts, batch_size=batch), fast.pipe(texts, batch_size=batch)):
            assert _annotations(a) == _annotations(b), a.text


def test_only_the_pool_workers_normalizer_uses_numpy_gemm():
    from guard.normalize.base import get_normalizer
    blis = get_normalizer("normalizer.rules.v2").nlp.get_pipe("tok2vec").model
    numpy_gemm = get_normalizer("normalizer.rules.v2", gemm="numpy").nlp.get_pipe("tok2vec").model
    assert all(n.ops.use_blis for n in blis.walk())
    assert not any(n.ops.use_blis for n in numpy_gemm.walk())
    with pytest.raises(ValueError, match="gemm must be"):
        get_normalizer("normalizer.rules.v1", gemm="mkl")


def test_a_pool_worker_runs_blas_on_one_thread():
    code = ("from guard.normalize.pool import _init; _init('normalizer.rules.v2'); import sys;"
            "from threadpoolctl import threadpool_info;"
            "print(sorted({i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'}), 'torch' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}     # the worker's own setting, not the tests'
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.split() == ["[1]", "False"]          # and no torch: a worker starts in ~1 s, not ~3
