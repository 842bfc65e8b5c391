import json
import sqlite3

import pytest

from guard.claims import ClaimError
from guard.judge import Tier
from guard.pipeline import Guard, GuardConfig
from guard.service import GuardService
from guard.store import ClaimStore, UnknownClaim


def rows(store):
    return store.store.db.execute("SELECT COUNT(*) FROM claims").fetchone()[0], \
        store.store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def test_rejects_vs_supports_blocks_and_stores_nothing(store):
    assert store.remember("X rejects null keys.").stored
    before = rows(store)
    res = store.remember("X supports null keys.")
    assert not res.stored and res.decision.tier is Tier.BLOCK
    assert res.decision.conflicts[0].claim_text == "X rejects null keys."
    assert rows(store) == before


def test_value_conflict_blocks(store):
    store.remember("Deploys must use a blue canary.")
    res = store.remember("Deploys must use a red canary.")
    assert not res.stored and res.decision.conflicts[0].verdict.kind.value == "value_contradiction"


def test_same_rule_in_prod_and_dev_coexists(store):
    assert store.remember("Debug logging is enabled.", {"env": "dev"}).stored
    res = store.remember("Debug logging is disabled.", {"env": "prod"})
    assert res.stored and res.decision.tier is Tier.CLEAN


def test_non_overlapping_windows_coexist(store):
    assert store.remember("Pull requests require 1 approval.", window={"valid_until": "2024-12-31"}).stored
    assert store.remember("Pull requests require 2 approvals.", window={"valid_from": "2025-01-01"}).stored


def test_no_subject_is_incomparable_and_stores(store):
    store.remember("Privileged containers are not allowed.")
    res = store.remember("Be careful.")
    assert res.stored and res.decision.tier is Tier.CLEAN


class Exploding:
    name = "exploding"

    def normalize(self, text, scope, window):
        raise RuntimeError("normalizer down")


def test_a_raising_normalizer_still_stores_ungated(tmp_path, store):
    store.remember("X rejects null keys.")
    g = Guard(GuardConfig(stages=("structural",)), normalizer=Exploding())
    s2 = GuardService(store.path, guard=g)
    res = s2.remember("X supports null keys.")
    assert res.stored and res.decision.tier is Tier.CLEAN
    assert any("normalizer failed" in n for n in res.decision.notes)


def test_force_records_the_exception(store):
    old = store.remember("MFA is required for VPN access.").claim
    with pytest.raises(ClaimError, match="reason"):
        store.force("MFA is optional for VPN access.", "")
    res = store.force("MFA is optional for VPN access.", "contractor pilot, approved by CISO")
    assert res.stored and res.decision.tier is Tier.BLOCK
    h = store.history(res.claim.id)
    assert h["exceptions"][0]["reason"] == "contractor pilot, approved by CISO"
    assert h["exceptions"][0]["conflicts"][0]["claim_id"] == old.id
    assert [e["action"] for e in h["events"]] == ["force", "exception"]


def test_supersede_keeps_history(store):
    old = store.remember("The API gateway listens on port 8443.").claim
    assert not store.remember("The API gateway listens on port 9443.").stored
    res = store.supersede(old.id, "The API gateway listens on port 9443.", reason="port change, ticket 42")
    assert res.stored
    assert store.get(old.id).status.value == "superseded"
    assert [c.id for c in store.list()] == [res.claim.id]
    h = store.history(res.claim.id)
    assert h["supersedes_chain"][0]["id"] == old.id
    assert {"supersede", "superseded"} <= {e["action"] for e in h["events"]}
    with pytest.raises(ClaimError, match="superseded"):
        store.supersede(old.id, "anything", reason="again")


def test_supersede_is_still_guarded_against_other_claims(store):
    a = store.remember("The API gateway listens on port 8443.").claim
    store.remember("Debug logging is disabled.")
    res = store.supersede(a.id, "Debug logging is enabled.", reason="oops")
    assert not res.stored and store.get(a.id).status.value == "active"


def test_cancel_and_unknown_ids(store):
    c = store.remember("Backups run every 6 hours.").claim
    assert store.cancel(c.id, "obsolete").status.value == "cancelled"
    assert store.remember("Backups run every 24 hours.").stored
    with pytest.raises(UnknownClaim, match="unknown claim id"):
        store.cancel("c_nope")
    with pytest.raises(UnknownClaim):
        store.supersede("c_nope", "x", reason="r")
    # a retried cancel (its answer lost to a timeout) is answered as done, and records nothing more
    events = len(store.events())
    again, now = store.cancel_once(c.id, "obsolete")
    assert again.id == c.id and again.status.value == "cancelled" and not now
    assert store.cancel(c.id).status.value == "cancelled" and len(store.events()) == events


def test_cancel_of_a_superseded_claim_names_what_stands_in_its_place(store):
    a = store.remember("Backups run every 6 hours.").claim
    b = store.supersede(a.id, "Backups run every 12 hours.", reason="cost").claim
    c = store.supersede(b.id, "Backups run every 24 hours.", reason="cost again").claim
    for old in (a.id, b.id):
        with pytest.raises(ClaimError, match=f"claim {old} is superseded; {c.id} stands in its place: cancel that"):
            store.cancel(old)
    assert store.get(c.id).status.value == "active"
    store.cancel(c.id)
    with pytest.raises(ClaimError, match=f"claim {a.id} is superseded$"):
        store.cancel(a.id)


def test_learn_records_source_and_ingest_is_unguarded(store):
    with pytest.raises(ClaimError, match="source"):
        store.learn("Backups run every 6 hours.", source=" ")
    res = store.learn("Backups run every 6 hours.", source="runbook.md")
    assert res.claim.source == "runbook.md"
    from guard.claims import Claim
    n = store.ingest([Claim.from_dict({"id": "ref-1", "text": "Backups run every 24 hours."})])
    assert n == 1 and store.get("ref-1").status.value == "active"
    store.ingest([Claim.from_dict({"id": "ref-1", "text": "Backups run every 12 hours."})])
    assert store.get("ref-1").text == "Backups run every 12 hours."
    assert [e["action"] for e in store.events()][-2:] == ["ingest", "ingest-update"]
    assert [r["text"] for r in store.history("ref-1")["revisions"]] == ["Backups run every 24 hours."]


@pytest.mark.parametrize("call, msg", [
    (lambda s: s.remember(""), "empty"),
    (lambda s: s.remember("x" * 5000), "limit"),
    (lambda s: s.remember("ok text", window={"valid_from": "2025-02-30"}), "valid ISO date"),
    (lambda s: s.remember("ok text", window={"valid_from": "2025-02-01", "valid_until": "2025-01-01"}), "after"),
    (lambda s: s.remember("ok text", scope={"planet": "mars"}), "unknown scope key"),
    (lambda s: s.remember("caf\udce9 is open"), "UTF-8"),
])
def test_bad_input_stores_nothing(store, call, msg):
    before = rows(store)
    with pytest.raises(ClaimError, match=msg):
        call(store)
    assert rows(store) == before


def test_wal_and_every_write_leaves_an_event(store):
    assert store.store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.remember("Backups run every 6 hours.")
    c = store.remember("Audit logs are retained for 365 days.").claim
    store.cancel(c.id)
    assert [e["action"] for e in store.events()] == ["remember", "remember", "cancel"]


def test_not_a_store_is_a_clear_error(tmp_path):
    p = tmp_path / "junk.sqlite"
    p.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ClaimError, match="not a claim store"):
        ClaimStore(p)


def test_a_store_in_a_folder_that_does_not_exist_is_named_so(tmp_path):
    with pytest.raises(ClaimError, match="the folder .*nowhere does not exist"):
        ClaimStore(tmp_path / "nowhere" / "s.sqlite")          # SQLite said "unable to open database file"
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(ClaimError, match="is a folder, not a file"):
        ClaimStore(tmp_path)                                   # SQLite said "disk I/O error"


def _foreign(path, ddl, insert):
    db = sqlite3.connect(path)
    db.execute(ddl)
    db.execute(insert)
    db.commit()
    db.close()


@pytest.mark.parametrize("ddl, insert", [
    ("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO users (name) VALUES ('ada')"),
    # an insurance app's claims: same table name, other columns (was "OperationalError: no such column")
    ("CREATE TABLE claims (id INTEGER PRIMARY KEY, amount REAL, status TEXT)",
     "INSERT INTO claims (amount, status) VALUES (12.5, 'open')"),
])
def test_another_applications_database_is_refused_before_anything_is_written(tmp_path, fast_guard, ddl, insert):
    """A mistyped --store used to get seven tables, a claim and WAL mode written into it."""
    other = tmp_path / "app.db"
    _foreign(other, ddl, insert)
    before = other.read_bytes()
    with pytest.raises(ClaimError, match="another application .* nothing was written to it"):
        GuardService(other, guard=fast_guard).remember("Backups run daily.")
    assert other.read_bytes() == before and not (tmp_path / "app.db-wal").exists()


def test_a_store_of_an_earlier_release_is_adopted_and_stamped(tmp_path, fast_guard):
    """Stores written before the application id carry none: recognised by their tables."""
    from guard.store import APPLICATION_ID, SCHEMA
    old = tmp_path / "old.sqlite"
    db = sqlite3.connect(old)
    db.executescript(SCHEMA)
    db.close()
    svc = GuardService(old, guard=fast_guard)
    assert svc.remember("Backups run daily.").stored
    svc.close()
    assert sqlite3.connect(old).execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    db = sqlite3.connect(old)
    db.execute("PRAGMA application_id = 1234")          # another program's id on a file of our tables
    db.close()
    with pytest.raises(ClaimError, match=r"another application \(application id 0x4d2\)"):
        ClaimStore(old)


@pytest.mark.parametrize("damage, words", [
    ("valid_from='garbage'", "valid_from is not a valid ISO date"),
    ("valid_from='2021-01-01', valid_until='2020-01-01'", "is after valid_until"),
    ("env=x'ff'", "must be str, not bytes"),
    ("text=x'00ff'", "its text is bytes"),
])
def test_a_damaged_row_is_named_and_can_be_withdrawn(store, damage, words):
    """A row edited by hand or by another tool stopped every write, list and scan of the store with
    the bare field error ("valid_from is not a valid ISO date …: 'garbage'"), naming no claim in a store
    of thousands; now the error names the claim and the way out, the write stores nothing (the guard
    cannot check against what it cannot read), and a cancel of that claim works."""
    from guard.store import DamagedRow
    bad = store.remember("Backups run every 6 hours.").claim.id
    db = sqlite3.connect(store.path)
    db.execute(f"UPDATE claims SET {damage} WHERE id=?", (bad,))
    db.commit()
    with pytest.raises(DamagedRow, match=f"claim {bad} in the store cannot be read .*{words}.*guard cancel {bad}"):
        store.remember("Backups run every 12 hours.")
    assert store.store.count() == 1
    with pytest.raises(DamagedRow, match=bad):
        store.list()
    assert store.cancel(bad, "damaged").status.value == "cancelled"
    assert store.remember("Backups run every 12 hours.").stored
    assert [c.id == bad for c in store.list(status=None)] == [True, False]   # history, as far as it reads


def test_the_server_answers_a_damaged_row_as_its_own_error_not_bad_input(tmp_path):
    """422 told an agent its statement was bad input; the row is the store's state, for the operator."""
    from fastapi.testclient import TestClient

    from guard.server import create_app
    svc = GuardService(tmp_path / "s.sqlite", guard=Guard(GuardConfig.profile("fast")))
    bad = svc.remember("Backups run every 6 hours.").claim.id
    svc.close()
    db = sqlite3.connect(tmp_path / "s.sqlite")
    db.execute("UPDATE claims SET valid_from='garbage' WHERE id=?", (bad,))
    db.commit()
    svc = GuardService(tmp_path / "s.sqlite", guard=Guard(GuardConfig.profile("fast")))
    with TestClient(create_app(svc, token="", warm=False), raise_server_exceptions=False) as c:
        r = c.post("/claims", json={"text": "Backups run every 12 hours."})
        assert r.status_code == 500 and bad in r.json()["error"] and "guard cancel" in r.json()["error"]
        assert c.post(f"/claims/{bad}/cancel").status_code == 200
        assert c.post("/claims", json={"text": "Backups run every 12 hours."}).status_code == 201
    svc.close()


# ---- windows that have ended ------------------------------------------------------------------
# A claim without a start date holds from the day it was written; one whose window has ended is no
# conflict for what is written after it (it used to block every later claim it disagreed with).

def _day(offset: int) -> str:
    import datetime as dt
    return (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=offset)).isoformat()


def test_a_claim_whose_window_has_ended_no_longer_blocks(store):
    assert store.remember("Deploys to production are forbidden.", window={"valid_until": _day(-1)}).stored
    assert store.check("Deploys to production are allowed.").tier is Tier.CLEAN
    res = store.remember("Deploys to production are allowed.")
    assert res.stored and res.decision.tier is Tier.CLEAN
    # what was stored is the claim as written: no start date added to it
    assert store.get(res.claim.id).window.valid_from is None


def test_a_claim_still_in_force_blocks(store):
    assert store.remember("Deploys to production are forbidden.", window={"valid_until": _day(0)}).stored
    res = store.remember("Deploys to production are allowed.")
    assert not res.stored and res.decision.conflicts[0].verdict.kind.value == "contradiction"


def test_a_claim_dated_into_an_ended_window_still_conflicts(store):
    assert store.remember("Deploys to production are forbidden.", window={"valid_until": _day(-1)}).stored
    assert not store.remember("Deploys to production are allowed.", window={"valid_from": _day(-30)}).stored


def test_a_window_less_claim_holds_from_the_day_it_was_written(store):
    from guard.claims import Claim
    store.ingest([Claim("Deploys to production are forbidden.", id="freeze", created_at="2025-06-01T09:00:00+00:00")])
    before = store.remember("Deploys to production are allowed.", window={"valid_until": "2025-05-31"})
    assert before.stored and before.decision.tier is Tier.CLEAN
    assert not store.remember("Deploys to production are allowed.", window={"valid_until": "2025-06-01"}).stored


def test_in_force_windows(store):
    from guard.claims import Claim, Window
    w = Window.parse(None, "2025-03-01")
    at = "2025-06-01T09:00:00+00:00"
    assert Claim("x", created_at=at).in_force() == Window.parse("2025-06-01", None)
    assert Claim("x", window=Window.parse(None, "2025-09-01"), created_at=at).in_force() == \
        Window.parse("2025-06-01", "2025-09-01")
    assert Claim("x", window=w, created_at=at).in_force() == w               # a statement about the past
    assert Claim("x", window=Window.parse("2020-01-01", None), created_at=at).in_force().valid_from.year == 2020
    assert Claim("x", created_at="last spring").in_force() == Window()        # not a date: as given
    assert Claim("x", created_at="2025-13-45T00:00:00").in_force() == Window()


def test_a_store_scan_reads_ended_windows_as_writes_do(store, fast_guard, tmp_path):
    from guard.scan import ScanConfig, Scanner
    assert store.remember("Deploys to production are forbidden.", window={"valid_until": _day(-1)}).stored
    assert store.remember("Deploys to production are allowed.").stored
    scanner = Scanner(fast_guard, ScanConfig(neighbours=0, progress=False, processes=1))
    assert scanner.scan_store(store.path).findings == []
    # the same claims as a list keep the windows they give: a pair in a file is scored as written
    listed = scanner.scan(store.list())
    assert [f["tier"] for f in listed.findings] == ["block"]
