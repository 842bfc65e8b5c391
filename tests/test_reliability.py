"""Data safety: other writers (threads, processes), ingest that never rewrites or resurrects,
hostile text, and a real server under concurrent clients."""
import json
import os
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from guard.claims import Claim, ClaimError, Status, comparison_text
from guard.service import GuardService

from conftest import ROOT


@pytest.fixture
def twin(store, fast_guard):
    """A second service on the same file: another writer the first one knows nothing about."""
    other = GuardService(store.path, guard=fast_guard)
    yield other
    other.close()


def test_another_writers_claims_are_checked_against(store, twin):
    assert store.remember("Backups run every 6 hours.").stored          # store's view is now loaded
    assert twin.remember("The cache TTL is 5 minutes.").stored
    res = store.remember("The cache TTL is 10 minutes.")
    assert not res.stored and res.decision.tier.value == "block"


def test_a_write_committed_while_the_models_ran_is_checked_against(store, twin, monkeypatch):
    """The decision is made outside the locks, then kept under the write lock only if nothing
    committed meanwhile: here another writer stores a conflicting claim during that first check."""
    assert store.remember("Backups run every 6 hours.").stored
    real, calls = store.guard.check, []

    def check_while_another_writes(claim, *a, **kw):      # (the twin shares this guard: count our claims)
        if claim.text != "The cache TTL is 5 minutes.":
            calls.append(claim.text)
            if claim.text == "The cache TTL is 10 minutes." and len(calls) == 1:
                assert twin.remember("The cache TTL is 5 minutes.").stored
        return real(claim, *a, **kw)

    monkeypatch.setattr(store.guard, "check", check_while_another_writes)
    res = store.remember("The cache TTL is 10 minutes.")
    assert len(calls) == 2 and not res.stored and res.decision.tier.value == "block"
    calls.clear()
    assert store.remember("Logs are kept for 30 days.").stored and len(calls) == 1     # nothing new: decided once


def test_another_writers_cancel_is_seen(store, twin):
    c = store.remember("The cache TTL is 5 minutes.").claim
    assert not store.remember("The cache TTL is 10 minutes.").stored
    twin.cancel(c.id, "moved to Redis defaults")
    assert store.remember("The cache TTL is 10 minutes.").stored


def test_a_separate_process_write_is_seen(store, tmp_path):
    store.remember("Backups run every 6 hours.")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--store", str(store.path), "--profile", "fast",
                        "remember", "The cache TTL is 5 minutes."], capture_output=True, text=True, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr
    assert not store.remember("The cache TTL is 10 minutes.").stored


def test_threads_racing_conflicting_writes_store_at_most_one(store):
    barrier = threading.Barrier(8)
    results = []

    def go(n):
        barrier.wait()
        results.append(store.remember(f"Prod deploys need {n + 1} approvals.").stored)

    ts = [threading.Thread(target=go, args=(i,)) for i in range(8)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    active = store.list()
    assert sum(results) == len(active) == 1


def test_ingest_keeps_every_version_and_never_resurrects(store):
    store.ingest([Claim.from_dict({"id": "ref-1", "text": "Backups run every 24 hours."})])
    store.ingest([Claim.from_dict({"id": "ref-1", "text": "Backups run every 12 hours."})])
    h = store.history("ref-1")
    assert h["claim"]["text"] == "Backups run every 12 hours."
    assert [r["text"] for r in h["revisions"]] == ["Backups run every 24 hours."]
    store.cancel("ref-1", "retired")
    with pytest.raises(ClaimError, match="does not reactivate"):
        store.ingest([Claim.from_dict({"id": "ref-1", "text": "Backups run every 12 hours."})])
    assert store.get("ref-1").status is Status.CANCELLED


def test_ingest_never_rewrites_a_guarded_claim(store):
    c = store.remember("The API gateway listens on port 8443.").claim
    with pytest.raises(ClaimError, match="supersede it"):
        store.ingest([Claim.from_dict({"id": c.id, "text": "The API gateway listens on port 9443."})])
    assert store.get(c.id).text == "The API gateway listens on port 8443."


def test_an_ingested_successor_retires_the_fact_it_supersedes(store):
    """A sync file's new fact that supersedes an older one left both active, so writes were still
    checked against the outdated fact: here "every 12 hours" was blocked by the superseded "every
    24 hours". The file's status of a stored fact was ignored too. Ingesting again changes nothing."""
    store.ingest([Claim.from_dict({"id": "ref-1", "text": "Backups run every 24 hours."}),
                  Claim.from_dict({"id": "ref-x", "text": "The docs site is built with MkDocs."})])
    batch = [Claim.from_dict({"id": "ref-2", "text": "Backups run every 12 hours.", "supersedes": "ref-1"}),
             Claim.from_dict({"id": "ref-x", "text": "The docs site is built with MkDocs.", "status": "cancelled"})]
    store.ingest(batch)
    assert store.get("ref-1").status is Status.SUPERSEDED and store.get("ref-x").status is Status.CANCELLED
    assert store.history("ref-1")["superseded_by"] == ["ref-2"]
    assert store.learn("Backups run every 12 hours.", source="ops runbook").stored     # not blocked by ref-1
    events = len(store.store.events())
    store.ingest(batch)
    assert len(store.store.events()) == events
    # one file with a whole chain: the older version is stored retired, and a rerun is accepted
    chain = [Claim.from_dict({"id": "tls-1", "text": "TLS 1.1 is allowed."}),
             Claim.from_dict({"id": "tls-2", "text": "TLS 1.1 is not allowed.", "supersedes": "tls-1"})]
    for _ in range(2):
        store.ingest(chain)
    assert [store.get(i).status for i in ("tls-1", "tls-2")] == [Status.SUPERSEDED, Status.ACTIVE]


def test_ingest_cannot_retire_a_guarded_claim(store):
    c = store.remember("The API gateway listens on port 8443.").claim
    with pytest.raises(ClaimError, match=f"{c.id} was stored through the guard; ingest cannot retire it"):
        store.ingest([Claim.from_dict({"id": "ref-9", "text": "The API gateway listens on port 9443.",
                                       "supersedes": c.id})])
    assert store.get(c.id).status is Status.ACTIVE and len(store.list()) == 1


@pytest.mark.parametrize("batch, msg", [
    ([{"id": "a", "text": "A is on.", "supersedes": "a"}], "supersedes itself"),
    ([{"id": "a", "text": "A is on.", "supersedes": "nope"}], "unknown claim"),
    ([{"id": "a", "text": "A is on.", "supersedes": "b"}, {"id": "b", "text": "B is on.", "supersedes": "a"}], "cycle"),
    ([{"id": "a", "text": "A is on."}, {"id": "a", "text": "A is off."}], "more than once"),
])
def test_ingest_refuses_bad_supersession_and_stores_nothing(store, batch, msg):
    before = len(store.list("all") if False else store.store.list(None))
    with pytest.raises(ClaimError, match=msg):
        store.ingest([Claim.from_dict(d) for d in batch])
    assert len(store.store.list(None)) == before


def test_ingesting_the_same_id_less_facts_again_changes_nothing(store, tmp_path):
    """Ingest upserts by id; an id-less fact got a random one, so each run of a sync job
    (`guard ingest facts.jsonl` nightly) stored every such fact once more. Its id is now derived
    from what it says; a line repeated word for word is one fact; one id with two contents is
    still refused."""
    facts = [{"text": "Backups run every 24 hours."}, {"text": "The docs site is built with MkDocs."},
             {"text": "Backups run every 24 hours.", "scope": {"env": "prod"}}]
    for _ in range(2):
        assert store.ingest([Claim.reference_from_dict(d) for d in facts + facts[:1]]) == 3
    rows = store.store.list(None)
    assert len(rows) == 3 and all(c.id.startswith("r_") for c in rows)
    assert len(store.store.events()) == 3                    # the second run: no insert, no update
    same_id = [{"id": "k", "text": "A is on."}, {"id": "k", "text": "A is on."}]
    assert store.ingest([Claim.reference_from_dict(d) for d in same_id]) == 1
    # the CLI and the HTTP service read files and bodies the same way
    f = tmp_path / "facts.jsonl"
    f.write_text("\n".join(json.dumps(d) for d in facts) + "\n")
    st = tmp_path / "cli.sqlite"
    for _ in range(2):
        r = subprocess.run([sys.executable, "-m", "guard.cli", "--store", str(st), "--profile", "fast", "ingest", str(f)],
                           capture_output=True, text=True, cwd=ROOT, check=False)
        assert r.returncode == 0 and "ingested 3 claims" in r.stdout, r.stderr
    from guard.store import ClaimStore
    assert ClaimStore(st).count() == 3


def test_http_ingest_of_id_less_facts_is_idempotent(tmp_path):
    from fastapi.testclient import TestClient

    from guard.pipeline import Guard, GuardConfig
    from guard.server import create_app
    svc = GuardService(tmp_path / "s.sqlite", guard=Guard(GuardConfig.profile("fast")))
    body = {"claims": [{"text": "Backups run every 24 hours."}, {"text": "Backups run every 24 hours."}]}
    with TestClient(create_app(svc, token="", warm=False)) as c:
        assert [c.post("/ingest", json=body).json() for _ in range(2)] == [{"ingested": 1}] * 2
        assert c.get("/claims").json()["total"] == 1
    svc.close()


def test_a_corrupt_cycle_cannot_hang_history(store):
    store.ingest([Claim.from_dict({"id": "a", "text": "A is on."}), Claim.from_dict({"id": "b", "text": "B is on."})])
    db = store.store.db
    db.execute("UPDATE claims SET supersedes='b' WHERE id='a'")
    db.execute("UPDATE claims SET supersedes='a' WHERE id='b'")
    h = store.history("a")                       # returns, bounded
    assert [c["id"] for c in h["supersedes_chain"]] == ["b"]


@pytest.mark.parametrize("sneaky", [
    "Deploys need one\u200b approval.",           # zero-width space
    "\u202eDeploys need one approval.",           # right-to-left override
    "D\u0435\u0440loys need one approval.",       # Cyrillic е and р
    "Ｄｅｐｌｏｙｓ need one approval.",               # full-width
])
def test_invisible_and_confusable_characters_do_not_bypass_the_guard(store, sneaky):
    assert store.remember("Deploys need two approvals.").stored
    res = store.remember(sneaky)
    assert not res.stored and res.decision.tier.value == "block"


@pytest.mark.parametrize("sneaky_env", [
    "ｐｒｏｄ",                    # full-width
    "pro\u200bd",                 # zero-width space
    "PROD ",                      # case, trailing space
    "pr\u043ed",                  # Cyrillic о among Latin letters
    "Production",                 # the environment's other name
])
def test_a_scope_written_differently_still_meets_the_claims_of_that_scope(store, sneaky_env):
    """Disjoint scopes coexist, so a scope value that only looked different stored a conflicting
    claim beside the rule it breaks (the text was folded, its scope was not)."""
    assert store.remember("The API listens on port 8443.", scope={"env": "prod"}).stored
    res = store.remember("The API listens on port 9000.", scope={"env": sneaky_env})
    assert not res.stored and res.decision.tier.value == "block"


def test_a_fact_stored_with_an_unfolded_scope_is_not_revised_by_the_same_ingest(store):
    store.ingest([Claim.from_dict({"id": "f", "text": "Backups run daily.", "scope": {"env": "prod"}})])
    store.store.db.execute("UPDATE claims SET env = 'pro' || char(8203) || 'd'")
    events = len(store.store.events())
    store.ingest([Claim.from_dict({"id": "f", "text": "Backups run daily.", "scope": {"env": "prod"}})])
    assert len(store.store.events()) == events and store.history("f")["revisions"] == []


def test_an_environment_named_in_the_text_meets_the_same_environment_in_a_scope_field(store):
    """The normalizer reads "in production" as env prod; a scope field "production" stayed
    "production", a disjoint scope, so these were clean (session 34)."""
    assert store.remember("The API listens on port 8443.", scope={"env": "production"}).stored
    assert store.list()[0].scope.env == "prod"
    for text in ("The API listens on port 9000 in production.", "The API listens on port 9000 in prod."):
        assert store.check(text).tier.value == "block", text
    assert store.check("The API listens on port 9000.", scope={"env": "staging"}).tier.value == "clean"


def test_scope_values_are_stored_folded_and_a_wholly_cyrillic_one_keeps_its_letters(store):
    c = store.remember("Backups run every 6 hours.", scope={"team": "data  platform\u200b", "tenant": "москва"}).claim
    got = store.get(c.id).scope
    assert (got.team, got.tenant) == ("data platform", "москва")
    with pytest.raises(ClaimError, match="scope.env has no visible characters"):
        store.remember("Backups run daily.", scope={"env": "\u200b\u2060"})


def test_a_scope_stored_unfolded_by_an_earlier_release_still_meets_its_claims(store):
    """Rows are never rewritten in place: a value stored before folding is folded as it is read."""
    assert store.remember("The API listens on port 8443.", scope={"env": "prod"}).stored
    store.store.db.execute("UPDATE claims SET env = 'Pro' || char(8203) || 'duction'")
    store.refresh()
    fresh = GuardService(store.path, guard=store.guard)
    try:
        assert fresh.list()[0].scope.env == "prod"
        res = fresh.remember("The API listens on port 9000.", scope={"env": "prod"})
        assert not res.stored and res.decision.tier.value == "block"
    finally:
        fresh.close()


def test_what_the_user_wrote_is_what_is_stored(store):
    c = store.remember("Caf\u00e9 hours are 9\u201317.").claim
    assert store.get(c.id).text == "Caf\u00e9 hours are 9\u201317."
    assert comparison_text("a\u200bb\u202e") == "ab"


@pytest.mark.parametrize("call, msg", [
    (lambda s: s.remember("ok text", scope={"env": "pr\udcffod"}), "scope.env is not valid UTF-8"),
    (lambda s: s.learn("ok text", source="run\udcffbook"), "source is not valid UTF-8"),
    (lambda s: s.force("ok text", reason="why\ud800"), "reason is not valid UTF-8"),
    (lambda s: s.ingest([Claim.from_dict({"id": "x\udcff", "text": "ok"})]), "id is not valid UTF-8"),
    (lambda s: s.remember("null\x00byte"), "control character U\\+0000"),
    (lambda s: s.remember("ok text", scope={"env": "bell\x07"}), "control character"),
])
def test_every_string_field_is_validated_like_the_text(store, call, msg):
    with pytest.raises(ClaimError, match=msg) as exc:
        call(store)
    str(exc.value).encode("utf-8")          # the message itself renders
    assert store.store.list(None) == []


# ---- the real server -------------------------------------------------------------------------
def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live(tmp_path):
    port = _free_port()
    path = tmp_path / "s.sqlite"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GUARD_TOKEN": ""}
    proc = subprocess.Popen([sys.executable, "-m", "guard.cli", "--store", str(path), "--profile", "fast", "serve",
                             "--port", str(port), "--token", "s3cret"], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(base + "/ready", timeout=1, headers={"Authorization": "Bearer s3cret"}).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode())
        time.sleep(0.25)
    yield base, path
    proc.terminate()
    proc.wait(10)


AUTH = {"Authorization": "Bearer s3cret"}


def test_many_clients_racing_conflicting_writes(live):
    base, path = live
    topics = [("The cache TTL is {} minutes.", ["5", "10", "15", "20"]),
              ("Prod deploys need {} approvals.", ["one", "two", "three", "four"])]
    out, errors = [], []

    def client(k):
        with httpx.Client(base_url=base, headers=AUTH, timeout=60) as c:
            for i in range(6):
                tmpl, vals = topics[(k + i) % 2]
                body = {"text": tmpl.format(vals[(k + i) % 4])} if i % 3 else {"text": f"Service {k}-{i} owns queue q{k}{i}."}
                r = c.post("/claims", json=body)
                out.append((r.status_code, r.json()))

    def cli_writer():
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        r = subprocess.run([sys.executable, "-m", "guard.cli", "--store", str(path), "--profile", "fast", "remember",
                            "Audit logs are retained for 365 days."], capture_output=True, text=True, cwd=ROOT, env=env)
        if r.returncode not in (0, 3):
            errors.append(r.stderr)

    ts = [threading.Thread(target=client, args=(k,)) for k in range(8)] + [threading.Thread(target=cli_writer)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert not errors
    assert all(code in (201, 200, 409) for code, _ in out), [c for c, _ in out if c not in (201, 200, 409)]
    listed = httpx.get(base + "/claims", params={"limit": 1000}, headers=AUTH).json()
    active = {c["id"] for c in listed["claims"]}
    stored = {b["claim"]["id"] for code, b in out if code == 201}
    assert stored <= active and listed["total"] == len(active)
    assert all(b["claim"] is None for code, b in out if code == 409)
    # a repeat of an active statement is a 200 naming it (nothing new stored)
    assert all(b["duplicate_of"] == b["claim"]["id"] and b["claim"]["id"] in active for code, b in out if code == 200)
    texts = [c["text"] for c in listed["claims"]]
    # an equal statement is stored once; two different values of one setting never both stand
    assert len(texts) == len(set(texts))
    assert len({t for t in texts if t.startswith("The cache TTL")}) == 1
    assert len({t for t in texts if t.startswith("Prod deploys need")}) == 1
    assert "Audit logs are retained for 365 days." in texts


def test_service_contract(live):
    base, _ = live
    assert httpx.post(base + "/claims", json={"text": "Backups run every 6 hours."}).status_code == 401
    assert httpx.get(base + "/health").json() == {"status": "ok"}
    with httpx.Client(base_url=base, headers=AUTH) as c:
        r = c.post("/claims", json={"text": "Debug logging is enabled.", "env": "prod"})
        assert r.status_code == 422 and "env" in r.json()["error"] and set(r.json()) == {"error", "details"}
        r = c.post("/claims", content=b'{"text": "ok", "scope": {"env": "pr\\udcffod"}}',
                   headers={"content-type": "application/json"})
        assert r.status_code == 422 and set(r.json()) == {"error", "details"}
        r = c.post("/claims", content=b'{"text": "x\\udcff y"}', headers={"content-type": "application/json"})
        assert r.status_code == 422 and "UTF-8" in r.json()["error"]
        first = c.post("/claims", json={"text": "The API gateway listens on port 8443."}).json()["claim"]["id"]
        r = c.post("/claims", json={"text": "The API gateway listens on port 9443."})
        assert r.status_code == 409
        actions = {o["action"]: o for o in r.json()["resolve"]}
        assert set(actions) == {"cancel", "supersede", "force"}
        sup = actions["supersede"]
        body = {**sup["body"], "reason": "port change"}
        assert c.post(sup["path"], json=body).status_code == 201
        assert c.get(f"/claims/{first}").json()["status"] == "superseded"
        assert c.get(f"/claims/{first}/history").status_code == 200
        assert c.get("/claims/c_nope").status_code == 404
        page = c.get("/claims", params={"status": "all", "limit": 1, "offset": 1}).json()
        assert len(page["claims"]) == 1 and page["total"] == 2
        assert c.post("/claims", content=b"x" * 2_000_001, headers={"content-type": "application/json"}).status_code == 413
        docs = c.get("/docs")
        assert docs.status_code == 200 and "/claims/{claim_id}/supersede" in docs.text and "cdn" not in docs.text.lower()
        spec = c.get("/openapi.json").json()
        assert {"201", "409", "422"} <= set(spec["paths"]["/claims"]["post"]["responses"])
        index = c.get("/").json()         # the service's address says where to go (it was a 404)
        assert index["docs"] == "/docs" and {"POST /claims", "GET /health", "POST /claims/{claim_id}/supersede"} \
            <= set(index["endpoints"]) and "GET /" not in index["endpoints"]
    assert httpx.get(base + "/").status_code == 401                      # behind the token, as /docs is


def test_refuses_to_listen_beyond_loopback_without_a_token(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GUARD_TOKEN": ""}
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--store", str(tmp_path / "s.sqlite"), "--profile", "fast",
                        "serve", "--host", "0.0.0.0"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert r.returncode == 2 and "without a token" in r.stderr


def test_more_endpoints(live):
    base, _ = live
    with httpx.Client(base_url=base, headers=AUTH, timeout=120) as c:
        r = c.post("/ingest", json={"claims": [{"id": "ref-1", "text": "The cache TTL is 5 minutes."},
                                               {"id": "ref-2", "text": "The cache TTL is 10 minutes."}]})
        assert r.status_code == 200 and r.json() == {"ingested": 2}
        r = c.post("/ingest", json={"claims": [{"id": "ref-3", "text": ""}]})
        assert r.status_code == 422 and r.json()["error"].startswith("claims[0]")
        r = c.post("/check", json={"statements": [{"text": "The cache TTL is 30 minutes."}, {"text": "Logs are JSON."}]})
        assert [d["tier"] for d in r.json()["decisions"]] == ["block", "clean"]
        assert c.get("/conflicts").status_code == 404
        r = c.post("/scan")
        assert r.status_code == 200 and r.json()["summary"]["block"] == 1
        assert c.get("/conflicts").json()["findings"][0]["tier"] == "block"


# ---- fuzzing the HTTP API: whatever the body, an answer that is not a 500 and not a traceback --
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                     lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids, max_size=3),
                     max_leaves=8)
_statement = st.fixed_dictionaries({"text": st.text(max_size=60)},
                                   optional={"scope": st.dictionaries(st.sampled_from(["env", "team", "tenant", "x"]),
                                                                      st.none() | st.text(max_size=10), max_size=3),
                                             "valid_from": st.text(max_size=12), "source": st.text(max_size=10),
                                             "reason": st.text(max_size=10)})
_bodies = st.one_of(
    _json,
    _statement,
    st.fixed_dictionaries({"statements": st.lists(_statement | _json, max_size=4)}),     # the batch shape
)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    """The app in-process (same code as the server) on a real SQLite file, fast profile."""
    from fastapi.testclient import TestClient

    from guard.pipeline import Guard, GuardConfig
    from guard.server import create_app
    svc = GuardService(tmp_path_factory.mktemp("fuzz") / "s.sqlite", guard=Guard(GuardConfig.profile("fast")))
    with TestClient(create_app(svc, token="", warm=False), raise_server_exceptions=False) as c:
        yield c
    svc.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/claims", "/check", "/claims/force", "/claims/learn", "/claims/x/supersede",
                             "/claims/x/cancel", "/ingest"]), body=_bodies)
def test_fuzzed_bodies_never_500(fuzz_client, path, body):
    r = fuzz_client.post(path, content=json.dumps(body, ensure_ascii=True))
    assert r.status_code in (200, 201, 404, 409, 422), (r.status_code, r.text)
    assert "Traceback" not in r.text
    if r.status_code in (404, 422):
        assert set(r.json()) == {"error", "details"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=80))
def test_fuzzed_raw_bytes_never_500(fuzz_client, raw):
    r = fuzz_client.post("/claims", content=raw, headers={"content-type": "application/json"})
    assert r.status_code in (201, 400, 409, 422), (r.status_code, r.text)
    assert set(r.json()) >= {"error"} and "Traceback" not in r.text


PARENT = """
import os, sys, time
from guard.claims import Scope, Window
from guard.normalize import pool
ex = pool.executor("normalizer.rules.v2", 2)
futs = [ex.submit(pool._run, [("The API listens on port 8443.", Scope(), Window())]) for _ in range(4)]
assert all(f.result()[1][0].subject for f in futs)      # (the build that read, the norms)
print(" ".join(str(p) for p in ex._processes), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "\\nState:\\tZ" not in f.read()       # a zombie has ended (its reaper may be slow)
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_normalizer_workers_end_when_their_parent_is_killed():
    """A scan stopped with SIGKILL cannot shut its normalizer pool down; its spawned workers used to
    wait on their queue for ever, holding spaCy. They now notice they were orphaned and exit."""
    import signal
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(p) for p in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.time() + 15
    while time.time() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers)


def test_a_repeated_write_stores_nothing_new(store):
    """An agent retrying a write after a timeout, or a script run twice, stored one copy per try."""
    first = store.remember("Backups run every 6 hours.", scope={"env": "prod"}).claim
    again = store.remember("Backups  run every 6 hours.", scope={"env": "Prod"})
    assert not again.stored and again.duplicate_of == first.id and again.claim.id == first.id
    assert again.to_dict()["duplicate_of"] == first.id and again.decision.tier.value == "clean"
    assert f"already stored as {first.id}" in " ".join(store.check("Backups run every 6 hours.", scope={"env": "prod"}).notes)
    # another scope, window or source is another statement
    assert store.remember("Backups run every 6 hours.").stored
    assert store.remember("Backups run every 6 hours.", scope={"env": "prod"}, window={"valid_from": "2027-01-01"}).stored
    learnt = store.learn("Backups run every 6 hours.", source="runbook", scope={"env": "prod"})
    assert learnt.stored and store.learn("Backups run every 6 hours.", source="runbook", scope={"env": "prod"}).duplicate_of
    # once the first is cancelled, saying it again stores it again
    store.cancel(first.id)
    assert store.remember("Backups run every 6 hours.", scope={"env": "prod"}).stored
    assert len(store.list()) == 4


def test_concurrent_identical_writes_store_one_claim(store, twin):
    barrier = threading.Barrier(6)
    results = []

    def go(svc):
        barrier.wait()
        results.append(svc.remember("Audit logs are retained for 365 days."))

    ts = [threading.Thread(target=go, args=(store if i % 2 else twin,)) for i in range(6)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert sum(r.stored for r in results) == 1 and len(store.list()) == 1
    assert {r.claim.id for r in results} == {store.list()[0].id}


def test_a_retried_supersede_answers_with_the_claim_it_made(store):
    """An agent that never got the answer to a supersede (a timeout) and sends it again was told the
    old claim "is superseded": an error for a change that had gone through."""
    old = store.remember("The API gateway listens on port 8443.", scope={"env": "prod"}).claim
    first = store.supersede(old.id, "The API gateway listens on port 9443.", reason="port change")
    again = store.supersede(old.id, "The API gateway listens on port 9443.", reason="port change (retry)")
    assert first.stored and not again.stored and again.duplicate_of == first.claim.id == again.claim.id
    with pytest.raises(ClaimError, match="is superseded"):
        store.supersede(old.id, "The API gateway listens on port 7443.", reason="another change")
    assert [c.id for c in store.list()] == [first.claim.id]


def test_the_same_facts_from_a_renamed_file_change_nothing(store):
    """A fact's source defaulted to the file's path, so a nightly sync from date-stamped export
    files "updated" every fact every night (a revision and an event each); a fact that names no
    source now keeps the one it is stored with."""
    facts = [{"id": "f1", "text": "Backups run daily."}, {"text": "The docs site is built with MkDocs."}]
    store.ingest([Claim.reference_from_dict(d) for d in facts], default_source="export-2026-11-27.jsonl")
    events = len(store.store.events())
    store.ingest([Claim.reference_from_dict(d) for d in facts], default_source="export-2026-11-28.jsonl")
    assert len(store.store.events()) == events and store.get("f1").source == "export-2026-11-27.jsonl"
    store.ingest([Claim.from_dict({**facts[0], "source": "wiki"})])           # a source named: an update
    assert store.get("f1").source == "wiki" and len(store.history("f1")["revisions"]) == 1
    store.ingest([Claim.from_dict(facts[0])])                                  # none named (HTTP): kept
    assert store.get("f1").source == "wiki" and len(store.history("f1")["revisions"]) == 1


def test_a_retried_force_stores_and_records_nothing_new(store):
    """A force sent again (its answer lost) stored a second copy and recorded its exceptions again;
    a remember of a statement that stands as a forced claim is that claim too."""
    assert store.remember("The cache TTL is 5 minutes.").stored
    forced = store.force("The cache TTL is 10 minutes.", reason="load test week")
    again = store.force("The cache TTL is 10 minutes.", reason="load test week")
    assert forced.stored and not again.stored and again.duplicate_of == forced.claim.id
    assert len(store.history(forced.claim.id)["exceptions"]) == 1
    other = store.force("The cache TTL is 10 minutes.", reason="another exception")      # another reason: recorded
    assert other.stored and other.claim.id != forced.claim.id
    assert store.remember("The cache TTL is 10 minutes.").duplicate_of == forced.claim.id
