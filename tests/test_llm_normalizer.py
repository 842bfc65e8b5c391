"""The LLM normalizer against a real chat-completions server on 127.0.0.1 (tests/fake_llm.py):
schema-checked answers, failing open on every kind of bad answer, retries, the response-format
fallback, the cache, the concurrency cap, the hybrid, and a write that goes on when the model fails."""
import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("httpx", reason="the LLM normalizer needs httpx (pip install claim-guard[llm])")

from guard.claims import Modality, Scope, StateVerb, SubjectKind, Window  # noqa: E402
from guard.json_text import NoJSONObject, first_json_object  # noqa: E402
from guard.normalize import SafeNormalizer, get_normalizer  # noqa: E402
from guard.normalize.llm import HybridNormalizer, LLMNormalizer  # noqa: E402
from tests.fake_llm import FakeLLM  # noqa: E402

PORT = "The API listens on port 8443."
ANSWERS = {
    PORT: {"modality": "must", "subject": "the API", "object": "listen", "value": "port 8443", "attribute": "port",
           "theme": None, "subject_kind": "PRESENT", "exclusive": False, "qualifiers": []},
    "It must be turned on.": {"modality": "must", "subject": "feature flag", "object": "enable", "value": None,
                              "attribute": None, "theme": None, "subject_kind": "PRESENT", "exclusive": False,
                              "qualifiers": []},
}


def norm_with(fake, text, **cfg):
    n = LLMNormalizer(base_url=fake.base_url, model="fake", **{"timeout_s": 2, "backoff_s": 0.01, **cfg})
    return n, n.normalize(text, Scope(), Window())


@pytest.fixture
def fake():
    with FakeLLM(answers=ANSWERS, slow_s=1.5) as f:
        yield f


def test_a_good_answer_becomes_a_grounded_typed_norm(fake):
    n, norm = norm_with(fake, PORT, api_key="sk-test")
    assert norm.modality is Modality.MUST and norm.object is StateVerb.LISTEN
    assert norm.subject == "api"                       # article dropped, lowercase
    assert norm.value == "8443" and norm.value_kind == "port" and norm.attribute == "port"   # the rules' surface
    assert norm.normalizer == "normalizer.llm.v1" and norm.error is None
    req = fake.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer sk-test"
    assert req["body"]["response_format"]["type"] == "json_schema"
    schema = req["body"]["response_format"]["json_schema"]["schema"]
    assert "must_not" in schema["properties"]["modality"]["enum"]
    assert n.model == "fake-norm-1"                   # the model that answered, as the server names it


def test_chatter_around_the_json_is_tolerated(fake):
    _, norm = norm_with(fake, "Deploys are frozen on Fridays. [chatter]")
    assert not norm.is_unknown and norm.subject == "thing"


@pytest.mark.parametrize("cue, reason", [
    ("[malformed]", "malformed JSON"), ("[badenum]", "modality"), ("[refuse]", "refused"),
    ("[html]", "not a chat completion"), ("[error]", "HTTP 500"), ("[huge]", "subject"),
])
def test_a_bad_answer_fails_open_with_its_reason(fake, cue, reason):
    from guard.normalize.base import is_provisional
    _, norm = norm_with(fake, f"Releases are paused. {cue}", max_retries=1)
    assert norm.is_unknown and reason in norm.error and "llm: " in norm.error
    # an endpoint that could not answer may answer later; a bad answer to this statement will not
    assert is_provisional(norm) is (cue == "[error]")


def test_a_value_the_model_invented_is_dropped(fake):
    _, norm = norm_with(fake, "Deploys need approval. [invent]")
    assert not norm.is_unknown and norm.value is None and norm.bound is None


def test_transient_errors_are_retried_with_backoff(fake):
    _, norm = norm_with(fake, "Backups run nightly. [flaky]", max_retries=2)
    assert not norm.is_unknown
    assert len(fake.requests) == 3                    # 503, 503, 200
    fake.requests.clear()
    _, norm = norm_with(fake, "Backups run hourly. [error]", max_retries=2)
    assert norm.is_unknown and "3 attempts" in norm.error and len(fake.requests) == 3


def test_a_slow_endpoint_times_out_within_the_limit(fake):
    t = time.perf_counter()
    _, norm = norm_with(fake, "Caches expire daily. [slow]", timeout_s=0.3, max_retries=1)
    assert norm.is_unknown and "timed out" in norm.error
    assert time.perf_counter() - t < 1.5             # two attempts of 0.3 s and a short backoff


def test_an_answer_sent_a_byte_at_a_time_still_ends_within_the_limit():
    """httpx's timeout bounds each read, not the answer: a 0.5 s timeout on an answer trickled a byte
    every 0.05 s (~400 bytes) took about 20 s; now the attempt ends at its limit (plus one read's)."""
    with FakeLLM(answers=ANSWERS, trickle_s=0.05) as fake:
        t = time.perf_counter()
        _, norm = norm_with(fake, "Caches expire daily. [trickle]", timeout_s=0.5, max_retries=0)
        took = time.perf_counter() - t
        assert norm.is_unknown and "timed out" in norm.error
        assert took < 2.0, took


def test_an_endless_answer_is_cut_off_and_fails_open():
    with FakeLLM(answers=ANSWERS) as fake:
        _, norm = norm_with(fake, "Caches expire daily. [flood]", timeout_s=10, max_retries=2)
        assert norm.is_unknown and "over 1 MiB" in norm.error
        assert len(fake.requests) == 1                    # a bad answer, not an outage: not retried
        time.sleep(0.2)
        assert fake.bytes_sent < 64 * 2**20               # the client hung up; the server did not fill our memory


def test_a_compressed_answer_is_read(fake):
    """The whole-answer read (above) once handed gzip-decoded bytes back under their gzip header, and
    every compressed answer failed to decode: the answer is read exactly once."""
    n, norm = norm_with(fake, PORT + " [gzip]")
    assert not norm.is_unknown and n.client.usage["requests"] == 1


def test_odd_token_counts_cost_nothing_and_a_message_that_is_not_an_object_is_a_bad_answer(fake):
    n, norm = norm_with(fake, "The API listens on port 8443. [oddusage]")
    assert not norm.is_unknown and n.client.usage["requests"] == 1
    fake.requests.clear()
    # in a batch: one bad answer costs its own statement only, and nobody is asked twice
    norms = SafeNormalizer(n).normalize_many([("Caches expire daily. [badmessage]", Scope(), Window()),
                                              ("Logs are kept. [oddusage]", Scope(), Window())])
    assert norms[0].is_unknown and "not a chat completion" in norms[0].error
    assert not norms[1].is_unknown and len(fake.requests) == 2


def test_a_server_without_json_schema_gets_plain_json():
    with FakeLLM(answers=ANSWERS, schema_supported=False) as fake:
        n, norm = norm_with(fake, PORT)
        assert not norm.is_unknown and norm.value == "8443"
        assert [r["body"].get("response_format", {}).get("type") for r in fake.requests] == ["json_schema", "json_object"]
        n.normalize("Another statement.", Scope(), Window())
        assert fake.requests[-1]["body"]["response_format"]["type"] == "json_object"   # remembered


def test_answers_are_cached_by_text_and_failures_are_not(fake):
    n, _ = norm_with(fake, PORT, cooldown_s=0)
    n.normalize_many([(PORT, Scope(env="prod"), Window()), (PORT, Scope(), Window())])
    assert len(fake.requests) == 1
    again = n.normalize(PORT, Scope(env="dev"), Window())
    assert again.scope.env == "dev"                   # the cached reading takes the caller's scope
    n.normalize("Flaky one. [error]", Scope(), Window())
    n.normalize("Flaky one. [error]", Scope(), Window())
    assert len(fake.requests) == 1 + 2 * 3           # each write asks again (3 attempts each)


def test_an_endpoint_found_down_is_not_asked_again_until_the_cooldown_ends(fake):
    """Opening a store whose claims were written during an outage asks again for each of them; a
    down endpoint must cost one wait, not one per claim."""
    fake.mode = "[error]"
    n = LLMNormalizer(base_url=fake.base_url, model="fake", timeout_s=2, backoff_s=0.01, max_retries=1,
                      concurrency=1, cooldown_s=0.6)
    t = time.perf_counter()
    norms = n.normalize_many([(f"Statement {i} must hold.", Scope(), Window()) for i in range(12)])
    assert len(fake.requests) == 2 and time.perf_counter() - t < 1.5      # one statement's two attempts
    assert all(x.is_unknown and "not asked again" in x.error for x in norms[1:])
    time.sleep(0.7)
    fake.mode = ""
    assert not n.normalize("Statement 1 must hold.", Scope(), Window()).is_unknown
    assert len(fake.requests) == 3


def test_a_claim_written_during_an_outage_is_read_again_when_the_endpoint_is_back(tmp_path):
    """Its norm was kept as unknown for good: structure never again saw the claim, and a conflicting
    write went in. Now a store reads it again on the next open, and keeps the reading."""
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    answers = {t: {"modality": "must", "subject": "the API", "object": "listen", "value": f"port {p}",
                   "attribute": "port", "theme": None, "subject_kind": "PRESENT", "exclusive": False, "qualifiers": []}
               for t, p in ((PORT, 8443), ("The API listens on port 9443.", 9443))}

    def opened(fake):
        cfg = GuardConfig(normalizer="normalizer.llm.v1", stages=("structural",), use_embedder=False,
                          normalizer_config={"base_url": fake.base_url, "model": "fake", "max_retries": 0})
        return GuardService(tmp_path / "s.sqlite", guard=Guard(cfg))

    with FakeLLM(answers=answers) as fake:
        fake.mode = "[error]"                                    # the endpoint is down
        svc = opened(fake)
        assert svc.remember(PORT).stored
        svc.close()
        fake.mode = ""                                           # and back
        svc = opened(fake)
        res = svc.remember("The API listens on port 9443.")
        svc.close()
        assert not res.stored and "8443" in res.decision.reasons[0]
        asked = lambda: sum(PORT in json.dumps(q["body"]) for q in fake.requests)
        assert asked() == 2
        svc = opened(fake)                                       # the new reading was kept
        svc.refresh()
        svc.close()
        assert asked() == 2


def test_a_batch_runs_concurrently_within_the_cap():
    with FakeLLM(delay_s=0.15) as fake:
        n = LLMNormalizer(base_url=fake.base_url, model="fake", concurrency=3)
        t = time.perf_counter()
        norms = n.normalize_many([(f"Statement number {i} holds.", Scope(), Window()) for i in range(12)])
        took = time.perf_counter() - t
        assert all(not x.is_unknown for x in norms)
        assert 1 < fake.max_in_flight <= 3
        assert took < 12 * 0.15                        # not one at a time


def test_hybrid_asks_the_model_only_where_the_rules_have_no_clear_subject(fake):
    h = HybridNormalizer(base_url=fake.base_url, model="fake")
    norms = h.normalize_many([(PORT, Scope(), Window()), ("It must be turned on.", Scope(), Window())])
    assert len(fake.requests) == 1 and "It must be turned on." in json.dumps(fake.requests[0]["body"])
    assert norms[0].normalizer == "normalizer.hybrid.v1" and norms[0].subject
    assert norms[1].normalizer == "normalizer.hybrid.v1+llm" and norms[1].subject == "feature flag"
    # who may act is the parse's reading, kept where the model reads the rest
    nobody = h.normalize("Nobody may change it.", Scope(), Window())   # the rules find no subject (a pronoun)
    assert nobody.normalizer.endswith("+llm") and nobody.permission.actor == "anyone" and not nobody.permission.allowed
    # the model failing leaves the rules' reading in place
    fake.mode = "[error]"
    rules_only = h.normalize("This is required.", Scope(), Window())
    assert not rules_only.normalizer.endswith("+llm") and rules_only.subject_kind is not SubjectKind.PRESENT


def test_no_endpoint_is_a_clear_error(monkeypatch):
    for k in ("GUARD_LLM_BASE_URL", "GUARD_LLM_MODEL"):
        monkeypatch.delenv(k, raising=False)
    with pytest.raises(ValueError, match="GUARD_LLM_BASE_URL"):
        get_normalizer("llm")
    monkeypatch.setenv("GUARD_LLM_BASE_URL", "ftp://x")
    monkeypatch.setenv("GUARD_LLM_MODEL", "m")
    with pytest.raises(ValueError, match="http"):
        get_normalizer("normalizer.llm.v1")


def test_endpoint_from_the_environment(fake, monkeypatch):
    monkeypatch.setenv("GUARD_LLM_BASE_URL", fake.base_url)
    monkeypatch.setenv("GUARD_LLM_MODEL", "fake")
    norm = SafeNormalizer(get_normalizer("llm")).normalize(PORT, Scope(), Window())
    assert norm.value == "8443" and fake.requests[0]["body"]["model"] == "fake"


def test_a_write_goes_on_when_the_model_fails(tmp_path, fake):
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    cfg = GuardConfig(normalizer="normalizer.llm.v1", stages=("structural",), use_embedder=False,
                      normalizer_config={"base_url": fake.base_url, "model": "fake", "max_retries": 0})
    svc = GuardService(tmp_path / "s.sqlite", guard=Guard(cfg))
    res = svc.remember("Releases are paused during the freeze. [error]")
    assert res.stored
    assert any("normalizer failed" in n and "HTTP 500" in n for n in res.decision.notes)
    assert [c.text for c in svc.list()] == ["Releases are paused during the freeze. [error]"]


def test_a_store_does_not_ask_the_model_again_for_claims_it_read(tmp_path, fake):
    """Each CLI write is a fresh process that opens the store: the hybrid's model-read norms
    ("normalizer.hybrid.v1+llm") were taken for another normalizer's and read again on every open —
    one request per such claim per write. Each open below is a new guard with empty caches."""
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService

    def opened(model="fake"):
        cfg = GuardConfig(normalizer="normalizer.hybrid.v1", stages=("structural",), use_embedder=False,
                          normalizer_config={"base_url": fake.base_url, "model": model})
        return GuardService(tmp_path / "s.sqlite", guard=Guard(cfg))

    about = lambda: sum("turned on" in json.dumps(q["body"]) for q in fake.requests)
    svc = opened()
    assert svc.remember("It must be turned on.").stored and about() == 1
    svc.close()
    for k in range(3):
        svc = opened()
        assert svc.remember(f"Backups run every {k + 2} hours.").stored is (k == 0)
        svc.close()
    assert about() == 1
    svc = opened(model="another")                  # another model reads the store once, itself
    svc.refresh()
    svc.close()
    svc = opened(model="another")
    svc.refresh()
    svc.close()
    assert about() == 2


def test_cli_without_an_endpoint_says_so_in_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    from conftest import make_store
    p = subprocess.run([sys.executable, "-m", "guard.cli", "--store", str(make_store(tmp_path / "s.sqlite")), "--profile",
                        "fast", "--normalizer", "llm", "check", "Deploys need approval."],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().count("\n") == 0 and "GUARD_LLM_BASE_URL" in p.stderr


def test_first_json_object():
    assert first_json_object('noise {"a": {"b": 1}} tail {"c": 2}') == {"a": {"b": 1}}
    assert first_json_object('[1, 2] then {"x": 1}') == {"x": 1}
    with pytest.raises(NoJSONObject, match="malformed"):
        first_json_object('{"a": ')
    with pytest.raises(NoJSONObject, match="no JSON object"):
        first_json_object("just words")


def test_bench_normalizers_reports_the_llm_rows(tmp_path, fake, monkeypatch):
    from benchmarks.normalizers import default_names, main
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(json.dumps(r) for r in [
        {"text": PORT, "scope": {}, "gold": {"modality": "must", "subject": "api", "object": "listen", "value": "8443",
                                             "scope": {}, "subject_kind": "PRESENT"}},
        {"text": "It must be turned on.", "scope": {}, "gold": {"modality": "must", "subject": "feature flag",
                                                                "object": "enable", "value": None, "scope": {},
                                                                "subject_kind": "PRESENT"}},
    ]) + "\n")
    monkeypatch.setenv("GUARD_LLM_BASE_URL", fake.base_url)
    monkeypatch.setenv("GUARD_LLM_MODEL", "fake")
    assert default_names()[-2:] == ["normalizer.llm.v1", "normalizer.hybrid.v1"]
    res = main(["normalizer.llm.v1", "normalizer.hybrid.v1"], golds=[gold], out_dir=tmp_path / "out")["gold.jsonl"]
    llm = res["normalizer.llm.v1"]
    assert llm["exact_match"] == 1.0 and llm["llm"]["model"] == "fake-norm-1" and llm["llm"]["requests"] == 2
    assert res["normalizer.hybrid.v1"]["llm"]["requests"] == 1          # only the vague statement went out
    md = (tmp_path / "out" / "normalizers.md").read_text()
    assert "model that answered" in md and "fake-norm-1" in md


def test_a_models_norm_reads_variants_as_the_rules_do():
    """The LLM normalizer filled ``Norm.variants`` from plan/region names only, while the rules also
    read product versions ("Python 3.11"): one helper for both now."""
    from guard.normalize.llm import to_norm
    from guard.normalize.rules_v2 import text_variants
    text = "Python 3.11 on the Free plan is supported until October 2027."
    answer = {"modality": "must", "subject": "Python", "object": "other", "value": "October 2027",
              "attribute": "end of support date", "theme": None, "subject_kind": "PRESENT", "exclusive": False,
              "qualifiers": []}
    norm = to_norm(answer, text, Scope(), Window(), "normalizer.llm.v1")
    assert set(norm.variants) == {("python version", "3.11"), ("plan", "free")} == set(text_variants(text, norm))
