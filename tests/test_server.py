"""The HTTP app on a real uvicorn server on 127.0.0.1."""
import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from conftest import ROOT


@pytest.fixture
def server(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GUARD_STORE": str(tmp_path / "s.sqlite"), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "guard.cli", "--profile", "fast", "serve", "--port", str(port)],
                            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            httpx.get(base + "/claims", timeout=1)
            break
        except httpx.HTTPError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode())
            time.sleep(0.25)
    yield base
    proc.terminate()
    proc.wait(10)


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


def test_bad_input_is_422_and_unknown_id_404(server):
    r = httpx.post(server + "/claims", json={"text": "  "})
    assert r.status_code == 422 and "empty" in r.json()["error"]
    r = httpx.post(server + "/claims", json={"text": "ok", "scope": {"planet": "mars"}})
    assert r.status_code == 422 and "unknown scope key" in r.json()["error"]
    assert httpx.get(server + "/claims/c_nope").status_code == 404
