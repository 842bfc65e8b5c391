"""The HTTP app on a real uvicorn server on 127.0.0.1."""
import httpx
import pytest

from conftest import running_server


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path, "--profile", "fast") as base:
        yield base


def test_block_is_409_with_conflicts(server):
    r = httpx.post(server + "/claims", json={"text": "X rejects null keys."})
    assert r.status_code == 201
    first = r.json()["claim"]["id"]
    r = httpx.post(server + "/claims", json={"text": "X supports null keys."})
    assert r.status_code == 409
    body = r.json()
    assert body["stored"] is False and body["conflicts"][0]["claim_id"] == first and body["reasons"]
    assert len(httpx.get(server + "/claims").json()["claims"]) == 1
    r = httpx.post(server + f"/claims/{first}/supersede", json={"text": "X supports null keys.", "reason": "v2"})
    assert r.status_code == 201
    assert httpx.get(server + f"/claims/{first}").json()["status"] == "superseded"
    assert httpx.get(server + f"/claims/{first}/history").json()["claim"]["status"] == "superseded"


def test_a_retried_cancel_is_answered_as_done(server):
    """An agent whose cancel timed out retries it: the second answer was 409 "is already cancelled"
    for a change that had gone through."""
    first = httpx.post(server + "/claims", json={"text": "Backups run every 6 hours."}).json()["claim"]["id"]
    for _ in range(2):
        r = httpx.post(server + f"/claims/{first}/cancel", json={"reason": "moved to the new runbook"})
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
    history = httpx.get(server + f"/claims/{first}/history").json()
    assert [e["action"] for e in history["events"]].count("cancel") == 1
    old = httpx.post(server + "/claims", json={"text": "Logs are kept for 30 days."}).json()["claim"]["id"]
    new = httpx.post(server + f"/claims/{old}/supersede",
                     json={"text": "Logs are kept for 90 days.", "reason": "audit"}).json()["claim"]["id"]
    r = httpx.post(server + f"/claims/{old}/cancel", json={})
    assert r.status_code == 409 and f"{new} stands in its place" in r.json()["error"]


def test_bad_input_is_422_and_unknown_id_404(server):
    r = httpx.post(server + "/claims", json={"text": "  "})
    assert r.status_code == 422 and "empty" in r.json()["error"]
    r = httpx.post(server + "/claims", json={"text": "ok", "scope": {"planet": "mars"}})
    assert r.status_code == 422 and "unknown scope key" in r.json()["error"]
    assert httpx.get(server + "/claims/c_nope").status_code == 404
    # a body that is not an object names the body, not an empty field (": Input should be …")
    for body in ([], "text", 5):
        r = httpx.post(server + "/claims", json=body)
        assert r.status_code == 422 and r.json()["error"].startswith("body: "), r.text
    # an unknown id is the caller's text: a 20,000-character one came back whole in the 404
    for path in ("/claims/" + "x" * 20_000, "/claims/" + "y" * 20_000 + "/history"):
        r = httpx.get(server + path)
        assert r.status_code == 404 and len(r.text) < 300 and "20000 characters" in r.json()["error"], r.text[:200]
    r = httpx.post(server + "/claims/" + "z" * 20_000 + "/cancel", json={})
    assert r.status_code == 404 and len(r.text) < 300, r.text[:200]


def test_a_chunked_body_over_the_limit_is_refused_as_it_arrives(server):
    """The 1 MB limit read only Content-Length: a chunked body declares none, and the whole of it was
    read into memory and served (here 1.2 MB of blanks before a valid statement: stored, 201)."""
    def body(blanks: int):
        for _ in range(blanks // 65536):
            yield b" " * 65536
        yield b'{"text": "Backups run every 6 hours."}'

    json_type = {"content-type": "application/json"}
    r = httpx.post(server + "/claims", content=body(1_200_000), headers=json_type, timeout=60)
    assert r.status_code == 413 and r.json()["error"] == "request body over 1000000 bytes"
    assert httpx.get(server + "/claims").json()["total"] == 0
    r = httpx.post(server + "/claims", content=body(131_072), headers=json_type, timeout=60)   # chunked, under
    assert r.status_code == 201
    assert httpx.get(server + "/claims").json()["total"] == 1


def test_a_check_batch_is_bounded(server):
    """A batch check holds a worker thread for its whole run (~30 ms a statement): 1 MB of short
    statements was half an hour of one request."""
    many = {"statements": [{"text": f"Service {i} owns queue q{i}."} for i in range(1001)]}
    r = httpx.post(server + "/check", json=many, timeout=60)
    assert r.status_code == 422 and "1000" in r.json()["error"], r.json()
    r = httpx.post(server + "/check", json={"statements": []}, timeout=60)
    assert r.status_code == 422
    r = httpx.post(server + "/check", json={"statements": [{"text": "Backups run daily."}]}, timeout=60)
    assert r.status_code == 200 and [d["tier"] for d in r.json()["decisions"]] == ["clean"]
    r = httpx.post(server + "/check", json={"statements": [{"text": "Backups run daily."}, {"text": "!!!"}]}, timeout=60)
    assert r.status_code == 422 and r.json()["error"] == "statements[1]: text has no words", r.json()


def test_a_batch_of_writes_is_written_in_turn(server):
    """`POST /claims` with `{"statements": [...]}`: an agent's claims from one turn in one request, each written
    as its own POST would write it — guarded against the store and the batch's earlier claims, a blocked one
    not stored (with its ways out) and the rest going on; a bad one refuses them all before any is written."""
    batch = [{"text": "Production deploys need two approvals."},
             {"text": "Production deploys need one approval."},                     # blocked by the first
             {"text": "Backups run nightly.", "source": "runbook.md"},             # a learn
             {"text": "Production deploys need two approvals."}]                    # the first again
    r = httpx.post(server + "/claims", json={"statements": batch}, timeout=60)
    assert r.status_code == 200, r.text
    res = r.json()["results"]
    assert [(x["stored"], x["tier"]) for x in res] == [(True, "clean"), (False, "block"), (True, "clean"),
                                                      (False, "clean")]
    first = res[0]["claim"]["id"]
    assert res[1]["conflicts"][0]["claim_id"] == first and {a["action"] for a in res[1]["resolve"]} == \
        {"cancel", "supersede", "force"}
    assert res[2]["claim"]["source"] == "runbook.md" and res[3]["duplicate_of"] == first
    events = httpx.get(server + f"/claims/{res[2]['claim']['id']}/history").json()["events"]
    assert [e["action"] for e in events] == ["learn"]
    assert httpx.get(server + "/claims").json()["total"] == 2
    r = httpx.post(server + "/claims", json={"statements": [{"text": "Logs are JSON."}, {"text": "   "}]}, timeout=60)
    assert r.status_code == 422 and r.json()["error"] == "statements[1]: text is empty", r.json()
    r = httpx.post(server + "/claims", json={"statements": [{"text": "Logs are JSON.", "source": " "}]}, timeout=60)
    assert r.status_code == 422 and r.json()["error"].startswith("statements[0]: learn needs the source"), r.json()
    assert httpx.get(server + "/claims").json()["total"] == 2                     # nothing of either stored
