"""A store that cannot be written now — its disk full, read-only media or another user's file,
another process holding its lock — on real disks and real SQLite: one line that names the cause,
nothing written, reads still served, and the store whole once the cause is gone.

Before session 36 a write on a full disk ended in "OperationalError: cannot rollback - no
transaction is active" (the failed COMMIT had rolled back, and the explicit ROLLBACK's error hid
it), and a store on read-only media could not even be listed ("is not a claim store (unable to
open database file)")."""
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from conftest import ROOT, running_server

from guard.claims import Claim
from guard.service import GuardService
from guard.store import ClaimStore, StoreUnavailable


def guard(*args, store):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "GUARD_STORE": str(store)}
    return subprocess.run([sys.executable, "-m", "guard.cli", "--quiet", "--profile", "fast", *args], check=False,
                          capture_output=True, text=True, env=env, cwd=ROOT)


def one_line(r) -> str:
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Error" not in lines[0], r.stderr
    return lines[0]


@pytest.fixture
def disk(tmp_path):
    """A real small filesystem (tmpfs) the test can fill and remount read-only: needs root."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
                                           check=False, capture_output=True).returncode != 0:
        pytest.skip("a real full or read-only disk needs root and mount(8) (tmpfs)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)


def fill(folder, leave: int = 0) -> None:
    """Fill the filesystem of ``folder`` up to ``leave`` bytes free."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with open(folder / "filler", "wb") as fh, contextlib.suppress(OSError):
        fh.write(b"\0" * max(free - leave, 0))


def test_a_write_on_a_full_disk_says_so_and_stores_nothing(disk, tmp_path):
    s = disk / "s.sqlite"
    assert guard("remember", "The API listens on port 8443.", store=s).returncode == 0
    fill(disk)
    for args in (("remember", "Log retention for the audit service is 400 days in every region."),
                 ("force", "The API listens on port 9000.", "--reason", "migration")):
        r = guard(*args, store=s)
        assert r.returncode == 1, r.stderr
        line = one_line(r)
        assert " full" in line and "nothing was written" in line and str(s) in line
    facts = tmp_path / "facts.jsonl"
    facts.write_text("".join(json.dumps({"text": f"Service svc-{i} listens on port {1000 + i}."}) + "\n"
                             for i in range(300)))
    r = guard("ingest", str(facts), store=s)
    assert r.returncode == 1 and " full" in one_line(r)
    r = guard("list", store=s)                                   # reads go on, and nothing half-written
    assert r.returncode == 0 and r.stdout.count("[active]") == 1
    (disk / "filler").unlink()                                   # space again: the store is whole and writable
    assert guard("remember", "Log retention for the audit service is 400 days in every region.",
                 store=s).returncode == 0
    assert guard("list", store=s).stdout.count("[active]") == 2
    with sqlite3.connect(s) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_server_answers_507_on_a_full_disk_and_serves_reads(disk, tmp_path):
    s = disk / "s.sqlite"
    with running_server(tmp_path, "--profile", "fast", "--store", str(s)) as base:
        assert httpx.post(base + "/claims", json={"text": "The API listens on port 8443."}).status_code == 201
        fill(disk)
        r = httpx.post(base + "/claims", json={"text": "Log retention for the audit service is 400 days."})
        assert r.status_code == 507 and "is full" in r.json()["error"], r.text
        r = httpx.get(base + "/claims")
        assert r.status_code == 200 and r.json()["total"] == 1
        (disk / "filler").unlink()
        r = httpx.post(base + "/claims", json={"text": "Log retention for the audit service is 400 days."})
        assert r.status_code == 201, r.text


def test_a_store_on_read_only_media_is_read_and_not_written(disk, tmp_path):
    s = disk / "s.sqlite"
    assert guard("remember", "The API listens on port 8443.", store=s).returncode == 0
    claim_id = guard("list", "--json", store=s).stdout.split('"id": "')[1].split('"')[0]
    assert subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=False, capture_output=True).returncode == 0
    assert sorted(p.name for p in disk.iterdir()) == ["s.sqlite"]        # no journal: the writer closed it
    for args in (("list",), ("show", claim_id), ("history", claim_id)):
        r = guard(*args, store=s)
        assert r.returncode == 0 and claim_id in r.stdout, (args, r.stderr)
    r = guard("scan", str(s), "--out", str(tmp_path / "r.jsonl"), "--fail-on", "never", store=s)
    assert r.returncode == 0, r.stderr
    r = guard("check", "The API listens on port 9000.", store=s)     # a dry run reads: it still answers
    assert r.returncode == 3 and "BLOCKED" in r.stdout
    for args in (("remember", "Backups run nightly."), ("cancel", claim_id),
                 ("supersede", claim_id, "The API listens on port 9443.", "--reason", "moved")):
        r = guard(*args, store=s)
        assert r.returncode == 1 and "read-only" in one_line(r) and "nothing was written" in r.stderr, (args, r.stderr)
    r = guard("remember", "Backups run nightly.", store=disk / "new.sqlite")      # a store that cannot be made here
    assert r.returncode == 1 and "cannot create the store" in one_line(r)
    r = guard("list", store=disk / "new.sqlite")                  # nor is one made to be read
    assert r.returncode == 2 and "no store at" in one_line(r)
    assert sorted(p.name for p in disk.iterdir()) == ["s.sqlite"]


def test_the_server_serves_a_read_only_store_and_refuses_writes(disk, tmp_path):
    s = disk / "s.sqlite"
    assert guard("remember", "The API listens on port 8443.", store=s).returncode == 0
    assert subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=False, capture_output=True).returncode == 0
    with running_server(tmp_path, "--profile", "fast", "--store", str(s)) as base:
        assert httpx.get(base + "/claims").json()["total"] == 1
        r = httpx.post(base + "/claims", json={"text": "Backups run nightly."})
        assert r.status_code == 503 and "read-only" in r.json()["error"], r.text


def as_another_user(fn) -> str:
    """Run ``fn`` in a forked child as the unprivileged user ``nobody`` where this process is root
    (root writes any file), else here; what it returns, or its error, comes back as text."""
    if os.geteuid() != 0:
        return fn()
    import pwd
    nobody = pwd.getpwnam("nobody")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                         # the child: never returns into pytest
        os.close(r)
        try:
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            out = fn()
        except BaseException as exc:                     # noqa: BLE001 — reported to the parent
            out = f"{type(exc).__name__}: {exc}"
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as fh:
        out = fh.read()
    os.waitpid(pid, 0)
    return out


def test_another_users_store_is_read_without_leaving_files_beside_it(fast_guard):
    import shutil
    import tempfile
    top = Path(tempfile.mkdtemp(prefix="guard-theirs-", dir="/tmp"))     # a path the other user can reach
    folder = top / "theirs"
    try:
        top.chmod(0o755)
        folder.mkdir()
        svc = GuardService(folder / "s.sqlite", guard=fast_guard)
        svc.remember("The API listens on port 8443.")
        svc.close()
        (folder / "s.sqlite").chmod(0o444)
        folder.chmod(0o555)

        def read_then_write() -> str:
            st = ClaimStore(folder / "s.sqlite")
            seen = [c.text for c in st.list()]
            try:
                GuardService(st, guard=fast_guard).remember("Backups run nightly.")
                wrote = "stored"
            except StoreUnavailable as exc:
                wrote = f"{exc.kind}: {exc}"
            st.close()
            return json.dumps({"read_only": bool(st.read_only), "seen": seen, "write": wrote})

        out = json.loads(as_another_user(read_then_write))
        assert out["read_only"] and out["seen"] == ["The API listens on port 8443."], out
        assert out["write"].startswith("read-only: ") and "nothing was written" in out["write"], out
        assert sorted(p.name for p in folder.iterdir()) == ["s.sqlite"]        # no journal files of the reader's
    finally:
        folder.chmod(0o755)
        shutil.rmtree(top)


def test_a_full_store_refuses_in_the_write_not_after_it(tmp_path, fast_guard):
    """SQLite's own limit on a database's pages gives the real SQLITE_FULL on any machine: the
    write is refused as the disk-full one is, nothing of it stays (claim, event, view), and the
    same service writes again once there is room."""
    svc = GuardService(tmp_path / "s.sqlite", guard=fast_guard)
    try:
        assert svc.remember("The API listens on port 8443.").stored
        db = svc.store.db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")
        def note(i):
            return f"Runbook note {i}: " + " ".join(f"step{i}x{k}" for k in range(200)) + "."

        stored = 1
        for i in range(100):                          # until a write needs a page the limit refuses
            try:
                assert svc.remember(note(i)).stored
            except StoreUnavailable as exc:
                err = exc
                break
            stored += 1
        else:
            pytest.fail("the page limit never refused a write")
        assert err.kind == "full" and "is full: nothing was written" in str(err)
        assert len(svc.list()) == stored and note(i) not in {c.text for c in svc.list()}
        assert [e["action"] for e in svc.events()] == ["remember"] * stored
        assert not db.in_transaction
        db.execute(f"PRAGMA max_page_count = {pages * 100}")
        assert svc.remember(note(i)).stored and len(svc.list()) == stored + 1
        assert not svc.remember("The API listens on port 9000.").stored        # the view is right: still guarded
    finally:
        svc.close()


def test_a_lock_held_past_the_busy_timeout_is_said_and_nothing_stored(tmp_path, fast_guard, monkeypatch):
    import guard.store as store_module
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 300)
    path = tmp_path / "s.sqlite"
    svc = GuardService(path, guard=fast_guard)
    assert svc.remember("The API listens on port 8443.").stored
    hold = ("import sqlite3, sys, time\n"
            f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
            "db.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(30)")
    holder = subprocess.Popen([sys.executable, "-c", hold],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        t = time.monotonic()
        with pytest.raises(StoreUnavailable, match="locked") as err:
            svc.remember("Backups run nightly.")
        assert err.value.kind == "locked" and time.monotonic() - t < 10
        with pytest.raises(StoreUnavailable, match="locked"):
            svc.cancel(svc.list()[0].id)
    finally:
        holder.kill()
        holder.wait()
    assert svc.remember("Backups run nightly.").stored and len(svc.list()) == 2
    svc.close()


def test_every_connection_syncs_a_commit_before_it_is_reported(tmp_path):
    """synchronous=FULL in WAL mode: a write reported stored survives a power cut or an OS crash."""
    st = ClaimStore(tmp_path / "s.sqlite")
    try:
        assert st.db.execute("PRAGMA synchronous").fetchone()[0] == 2
        with st.transaction():
            st.insert(Claim(text="The API listens on port 8443."), None)
        assert st.count() == 1
    finally:
        st.close()


def test_a_report_on_a_full_or_read_only_disk_names_the_file_and_keeps_the_old_one(disk, tmp_path):
    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps({"text": f"Service svc-{i} listens on port {1000 + i}.",
                                          "scope": {"team": "core"}}) + "\n" for i in range(20)))
    html = disk / "r.html"
    html.write_text("the report before")
    fill(disk)
    r = guard("scan", str(claims), "--out", str(tmp_path / "r.jsonl"), "--html", str(html), "--fail-on", "never",
              store=tmp_path / "s.sqlite")
    assert r.returncode == 1 and one_line(r) == (f"error: cannot write {html}: no space left on device "
                                                 "(the file there before, if any, is unchanged)")
    assert html.read_text() == "the report before" and sorted(p.name for p in disk.iterdir()) == ["filler", "r.html"]
    (disk / "filler").unlink()
    assert subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=False, capture_output=True).returncode == 0
    r = guard("scan", str(claims), "--out", str(disk / "r.jsonl"), "--fail-on", "never", store=tmp_path / "s.sqlite")
    assert r.returncode == 1 and "read-only file system" in one_line(r)
