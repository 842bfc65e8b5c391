"""The opt-in bf16 backend (``--nli-backend bf16``): fixed-shape tiles make a pair's score the same
whatever else is in its batch. The tiling itself is checked in fp32 on any machine; the bf16 runs
need a CPU with AMX and are skipped, saying so, elsewhere."""
import subprocess
import sys

import numpy as np
import pytest

from guard.hardware import cpu_has_bf16_matmul

AMX = pytest.mark.skipif(not cpu_has_bf16_matmul(), reason="the bf16 backend needs a CPU with AMX (amx_bf16, amx_tile)")

# claim-length pairs of different token lengths, one truncated at the model's 128 tokens, a
# duplicate, empty and non-ASCII text: companions that must not move each other's scores
PAIRS = [
    ("Production deploys must be approved by two reviewers.", "Production deploys must not require approval."),
    ("The cache listens on port 6379.", "The cache does not listen on port 6380."),
    ("Secrets are stored in Vault.", "Secrets are stored in AWS Secrets Manager."),
    ("If you travel for a customer visit, the company pays for your hotel.",
     "Hotel stays on customer trips are never reimbursed, even when sales asks you to go."),
    ("Backups run nightly " + "and are kept offsite " * 40 + ".", "Backups are never kept offsite."),
    ("Secrets are stored in Vault.", "Secrets are stored in AWS Secrets Manager."),
    ("", "Der Cache läuft auf Port 6379 — 日本語のテキスト."),
    ("The on-call stipend is $300 per week.", "On-call engineers get $250/week for carrying the pager."),
]


def test_a_length_bucket_rounds_up_to_its_step_and_stops_at_the_limit():
    from guard.nli.tiles import bucket
    assert [bucket(n, 16, 128) for n in (1, 16, 17, 31, 32, 127, 128, 300)] == [16, 16, 32, 32, 32, 128, 128, 128]
    assert bucket(9, 8, 20) == 16 and bucket(19, 8, 20) == 20


@pytest.fixture(scope="module")
def fp32_model():
    from guard.nli import NLIScorer
    return NLIScorer(backend="torch", calibrated=False)


def test_tiles_give_torch_fp32_logits_in_the_order_asked_alone_or_together(fp32_model):
    from guard.nli.tiles import TiledModel
    ce = fp32_model.model
    tiled = TiledModel(ce.model, ce.tokenizer, fp32_model.max_length, rows=4, step=16)
    together = tiled.logits(PAIRS)
    plain = fp32_model._logits(PAIRS)
    assert together.shape == (len(PAIRS), 3)
    assert np.abs(together - plain).max() < 1e-3          # padding to the bucket is masked out
    assert np.array_equal(together[2], together[5])       # the duplicate
    alone = np.stack([tiled.logits([p])[0] for p in PAIRS])
    assert np.array_equal(alone, together)                # fixed tiles: the same arithmetic either way
    assert tiled.logits([]).shape == (0, 3)
    with pytest.raises(ValueError, match="positive"):
        TiledModel(ce.model, ce.tokenizer, 128, rows=0)


def test_without_amx_the_bf16_backend_is_refused_in_one_line(monkeypatch):
    import guard.hardware
    from guard.nli import ModelUnavailable, NLIScorer
    monkeypatch.setattr(guard.hardware, "cpu_flags", lambda *a, **k: {"avx2", "avx512_vnni"})
    with pytest.raises(ModelUnavailable, match="AMX") as err:
        NLIScorer(backend="bf16")
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="unquantised"):
        NLIScorer(backend="bf16", quantize=True)


def test_an_unknown_or_impossible_backend_is_a_usage_error_from_the_cli(tmp_path):
    for args, msg in ((["--nli-backend", "fp16"], "unknown NLI backend 'fp16'"),
                      (["--nli-backend", "bf16", "--quantize"], "exclude each other")):
        r = subprocess.run([sys.executable, "-m", "guard.cli", "--store", str(tmp_path / "s.sqlite"), *args,
                            "check", "Backups run daily."], capture_output=True, text=True, timeout=120, check=False)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert msg in r.stderr and r.stderr.startswith("error: ")


@AMX
def test_a_pairs_bf16_score_is_the_same_alone_and_in_any_batch():
    from guard.nli import NLIScorer
    sc = NLIScorer(backend="bf16")
    assert sc.backend == "torch bf16 tiles (AMX)"
    rng = np.random.default_rng(0)
    crowd = PAIRS * 6
    mixed = [crowd[i] for i in rng.permutation(len(crowd))]
    together = {p: r for p, r in zip(mixed, sc.predict(mixed))}
    for pair in PAIRS:
        sc._cache.clear()
        [alone] = sc.predict([pair])
        assert max(abs(alone[k] - together[pair][k]) for k in alone) < 1e-6, pair
    # and the pairs' scores stay close to fp32's (the gate was fitted on fp32)
    fp32 = NLIScorer(backend="torch").predict(PAIRS)
    assert sc.model is None                       # loaded through transformers alone
    sc._cache.clear()
    for a, b in zip(sc.predict(PAIRS), fp32):
        assert max(a, key=a.get) == max(b, key=b.get) and abs(a["contradiction"] - b["contradiction"]) < 0.05


def issue_examples_keep_their_tiers(backend: str, label: str) -> None:
    """The accuracy issue's 13 design examples through a default guard whose cross-encoder runs
    on ``backend``: every tier as with fp32."""
    from guard.claims import Claim
    from guard.pipeline import Guard, GuardConfig
    from tests.test_issue_examples import EXAMPLES
    g = Guard(GuardConfig(nli_backend=backend))
    assert g.nli_gate.scorer.backend == label
    js = g.judge_pairs(g.pair_items([(Claim(text=a), Claim(text=b)) for a, b, _ in EXAMPLES]))
    assert [j.tier.value for j in js] == [t for _, _, t in EXAMPLES]


@AMX
def test_the_issue_examples_keep_their_tiers_under_the_bf16_backend():
    issue_examples_keep_their_tiers("bf16", "torch bf16 tiles (AMX)")


@AMX
def test_a_small_call_scores_both_directions_in_one_tile_with_the_same_decisions(monkeypatch):
    """A write's few pairs fill part of one tile, so the gate asks for the second direction in the
    first call; the decisions and scores are those of the two-call path."""
    from guard.claims import Claim
    from guard.nli.scorer import NLIScorer
    from guard.pipeline import Guard, GuardConfig
    from tests.test_issue_examples import EXAMPLES
    items = [(Claim(text=a), Claim(text=b)) for a, b, _ in EXAMPLES[:6]]

    def judged(tile_rows):
        monkeypatch.setattr(NLIScorer, "tile_rows", property(lambda self: tile_rows))
        g = Guard(GuardConfig(nli_backend="bf16"))
        calls = []
        real = g.nli_gate.scorer._logits
        monkeypatch.setattr(g.nli_gate.scorer, "_logits", lambda pairs, *a: calls.append(len(pairs)) or real(pairs, *a))
        js = g.judge_pairs(g.pair_items(items))
        return [(j.tier.value, j.reason) for j in js], calls

    one, calls_one = judged(16)
    two, calls_two = judged(None)
    assert one == two
    assert len(calls_one) == 1 and len(calls_two) == 2


def test_threads_sharing_one_tiled_model_get_the_scores_a_single_caller_gets(fp32_model):
    """The server's threads share one scorer: eight callers at once, each with its own mix."""
    from guard.nli.tiles import TiledModel
    ce = fp32_model.model
    tiled = TiledModel(ce.model, ce.tokenizer, fp32_model.max_length, rows=4, step=16)
    threads_get_a_single_callers_scores(tiled.logits, tolerance=0.0)


def threads_get_a_single_callers_scores(logits, tolerance: float) -> None:
    """Sixteen mixes of PAIRS scored by eight threads at once through ``logits`` give each pair the
    single caller's logits (within ``tolerance``; 0 = bit for bit)."""
    from concurrent.futures import ThreadPoolExecutor
    expected = logits(PAIRS)
    rng = np.random.default_rng(1)
    orders = [rng.permutation(len(PAIRS)) for _ in range(16)]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda o: logits([PAIRS[i] for i in o]), orders))
    for o, g in zip(orders, got):
        assert np.abs(g - expected[o]).max() <= tolerance
