"""The real `guard` command in a subprocess: exit codes, messages, files."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def guard(*args, store=None, input=None):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    if store:
        env["GUARD_STORE"] = str(store)
    return subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", *args], capture_output=True,
                          text=True, env=env, input=input, cwd=ROOT)


def test_a_second_cancel_says_nothing_changed(tmp_path):
    st = tmp_path / "s.sqlite"
    cid = guard("remember", "Backups run every 6 hours.", store=st).stdout.split()[1]
    r = guard("cancel", cid, "--reason", "obsolete", store=st)
    assert (r.returncode, r.stdout) == (0, f"cancelled {cid}\n")
    r = guard("cancel", cid, store=st)
    assert (r.returncode, r.stdout) == (0, f"{cid} was already cancelled: nothing changed\n")


def test_remember_block_exit_codes(tmp_path):
    st = tmp_path / "s.sqlite"
    r = guard("remember", "X rejects null keys.", store=st)
    assert r.returncode == 0 and r.stdout.startswith("stored c_")
    r = guard("remember", "X supports null keys.", store=st)
    assert r.returncode == 3 and "BLOCKED" in r.stdout and "X rejects null keys." in r.stdout
    r = guard("check", "X supports null keys.", "--json", store=st)
    assert r.returncode == 3 and json.loads(r.stdout)["tier"] == "block"
    r = guard("list", "--json", store=st)
    assert [json.loads(x)["text"] for x in r.stdout.splitlines()] == ["X rejects null keys."]


@pytest.mark.parametrize("args, msg", [
    (("remember", "   "), "text is empty"),
    (("remember", "!!!"), "text has no words"),
    (("remember", " 123. "), "text has no words"),
    (("remember", "x", "--from", "2025-13-01"), "not a valid ISO date"),
    (("remember", "x", "--from", "2025-02-01", "--until", "2025-01-01"), "after valid_until"),
    (("cancel", "c_missing"), "no store at"),
    (("history", "c_missing"), "no store at"),
    (("supersede", "c_missing", "text", "--reason", "r"), "no store at"),
    (("force", "some text", "--reason", " "), "needs a reason"),
    (("scan", "does-not-exist.jsonl"), "no such file"),
    (("scan",), "no store at"),
    (("check",), "give the statement to check, or --file PATH"),
    (("check", "x", "--file", "new.jsonl"), "not both"),
    (("check", "--file", "new.jsonl", "--env", "prod"), "a file's claims carry their own scope"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, args, msg):
    r = guard(*args, store=tmp_path / "s.sqlite")
    assert r.returncode == 2, r.stderr
    assert msg in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_command_on_what_a_store_holds_refuses_a_store_that_is_not_there(tmp_path):
    """A mistyped --store (or `guard list` in the wrong folder) made a new, empty store file and answered as
    for an empty store: `check` said "clean" to anything, a CI gate that could not fail. Only the commands
    that store claims make a store; the others refuse in one line, before a model loads, and leave no file."""
    missing = tmp_path / "typo.sqlite"
    for args in (("check", "Backups run daily."), ("list",), ("show", "c_1"), ("history", "c_1"), ("cancel", "c_1"),
                 ("supersede", "c_1", "Backups run hourly.", "--reason", "r")):
        r = guard(*args, store=missing)
        assert r.returncode == 2 and r.stderr.startswith(f"error: no store at {missing}: "), (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and not missing.exists(), args
    st = tmp_path / "s.sqlite"
    assert guard("remember", "Backups run daily.", store=st).returncode == 0     # a write makes it
    assert guard("check", "Backups run daily.", store=st).returncode == 0
    for args in (("show", "c_missing"), ("history", "c_missing"), ("cancel", "c_missing"),
                 ("supersede", "c_missing", "text", "--reason", "r")):
        r = guard(*args, store=st)
        assert r.returncode == 2 and "unknown claim id: c_missing" in r.stderr, (args, r.stderr)


def test_usage_error_is_exit_2(tmp_path):
    r = guard("remember", store=tmp_path / "s.sqlite")
    assert r.returncode == 2


def test_non_utf8_argument_is_refused(tmp_path):
    env = {**os.environ, "GUARD_STORE": str(tmp_path / "s.sqlite")}
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", "remember", b"caf\xe9 rules".decode("latin-1").encode("latin-1")],
                       capture_output=True, env=env, cwd=ROOT)
    assert r.returncode == 2 and b"UTF-8" in r.stderr


def _pairs_file(path: Path):
    good = {"id": "p1", "existing": {"text": "Deploys must use a blue canary.", "scope": {"env": None}},
            "incoming": {"text": "Deploys must use a red canary.", "scope": {"env": None}}}
    lines = [json.dumps(good).encode(), b"{not json", json.dumps({"id": "p2", "existing": {"text": ""},
                                                                     "incoming": {"text": "a"}}).encode(),
             b"\xff\xfe bad bytes", json.dumps({**good, "id": "p3"}).encode(),
             b"[" * 100_000 + b"]" * 100_000]      # deeper than Python's parser: was a RecursionError, exit 1
    path.write_bytes(b"\n".join(lines) + b"\n")


def test_compare_skips_bad_lines_with_line_numbers(tmp_path):
    pf = tmp_path / "pairs.jsonl"
    _pairs_file(pf)
    out = tmp_path / "out.jsonl"
    r = guard("compare", str(pf), "--out", str(out), "--stages", "structural")
    assert r.returncode == 0, r.stderr
    assert ":2: malformed JSON" in r.stderr and ":3: text is empty" in r.stderr and ":4: not valid UTF-8" in r.stderr
    assert ":6: malformed JSON (nested too deeply)" in r.stderr
    assert ":2: malformed JSON (Expecting property name enclosed in double quotes at column 2)" in r.stderr
    assert "skipped 4 bad line(s)" in r.stderr
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["id"] for x in recs] == ["p1", "p3"]
    assert set(recs[0]) == {"id", "tier", "verdict", "stage", "confidence", "reason"}
    assert recs[0]["tier"] == "block" and recs[0]["verdict"] == "value_contradiction"


def test_compare_names_an_id_less_pair_by_its_line(tmp_path):
    pf = tmp_path / "pairs.jsonl"
    pair = {"existing": {"text": "Deploys must use a blue canary."}, "incoming": {"text": "Deploys must use a red canary."}}
    pf.write_text(json.dumps({**pair, "id": "p1"}) + "\n\n" + json.dumps(pair) + "\n")
    r = guard("compare", str(pf), "--stages", "structural")
    assert r.returncode == 0, r.stderr
    assert [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["p1", "line-3"]


def test_compare_rejects_unknown_stage(tmp_path):
    pf = tmp_path / "pairs.jsonl"
    _pairs_file(pf)
    r = guard("compare", str(pf), "--stages", "magic")
    assert r.returncode == 2 and "unknown stage" in r.stderr


@pytest.mark.parametrize("command", ["ingest", "compare", "scan"])
def test_a_file_with_no_readable_line_is_refused(tmp_path, command):
    """A binary file or another store given by mistake is the wrong file, not "0 done, all skipped"
    with exit 0; a store read as JSONL is named as one and left as it was."""
    st = tmp_path / "s.sqlite"
    assert guard("remember", "The API gateway listens on port 8443.", store=st).returncode == 0
    other = tmp_path / "other.sqlite"
    assert guard("remember", "Backups run every 6 hours.", store=other).returncode == 0
    binary = tmp_path / "blob.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n\x89PNG\r\n")
    r = guard(command, str(binary), store=st)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "no line could be read (2 bad; the first, line 1: not valid UTF-8)" in r.stderr
    if command != "scan":                  # scan reads a store as a store
        before = other.read_bytes()
        r = guard(command, str(other), store=st)
        assert r.returncode == 2 and "is a SQLite database, not a JSONL file" in r.stderr, r.stderr
        assert other.read_bytes() == before
    r = guard("list", store=st)
    assert r.stdout.count("\n") == 1                     # nothing was ingested


def test_scan_without_a_source_scans_the_store_every_other_command_works_on(tmp_path):
    """`guard -s team.sqlite scan` (or GUARD_STORE=… guard scan) scans that store, as `remember`, `list` and
    `ingest` work on it; it used to stop at "Missing argument 'source'"."""
    st = tmp_path / "team.sqlite"
    assert guard("ingest", str(ROOT / "examples" / "claims.jsonl"), store=st).returncode == 0
    reports = []
    for args, env_store in ((("scan", str(st)), None), (("scan",), st), (("--store", str(st), "scan"), None)):
        out = tmp_path / f"report{len(reports)}.jsonl"
        r = guard(*args, "--out", str(out), "--show", "0", store=env_store)
        assert r.returncode == 3 and "190 claims" in r.stdout and "12 block" in r.stdout, r.stderr
        reports.append(out.read_text())
    assert reports[0] == reports[1] == reports[2]
    r = guard("scan", store=tmp_path / "elsewhere.sqlite")           # nothing there: said, and nothing made
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no store at" in r.stderr and "elsewhere.sqlite" in r.stderr
    assert not (tmp_path / "elsewhere.sqlite").exists()


def test_check_a_file_of_claims_against_the_store_stores_nothing(tmp_path):
    """`guard check --file new.jsonl`: the claims a change adds, each checked against the store before any is
    written (a CI job's question); one decision a claim, exit 3 where any would be blocked, nothing stored."""
    st = tmp_path / "team.sqlite"
    assert guard("ingest", str(ROOT / "examples" / "claims.jsonl"), store=st).returncode == 0
    before = guard("list", "--status", "all", "--json", store=st).stdout
    new = tmp_path / "new.jsonl"
    new.write_text("\n".join(json.dumps(c) for c in (
        {"text": "Production deploys need one approval.", "scope": {"team": "platform"}},
        {"text": "The office plants are watered on Mondays."},
        {"text": "The API gateway listens on port 9443.", "valid_from": "2026-01-01"})) + "\n\n")
    r = guard("check", "--file", str(new), store=st)
    assert r.returncode == 3, r.stderr
    heads = [ln for ln in r.stdout.splitlines() if ln.startswith("new.jsonl:")]
    assert [h.split()[1] for h in heads] == ["BLOCK", "CLEAN", "BLOCK"] and "conflict with pla-001" in r.stdout
    assert "checked 3 claim(s)" in r.stderr and "2 block, 0 warn, 1 clean; nothing stored" in r.stderr
    r = guard("check", "-f", str(new), "--json", store=st)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 3 and [(x["line"], x["tier"]) for x in rows] == [(1, "block"), (2, "clean"), (3, "block")]
    assert rows[0]["conflicts"][0]["claim_id"] == "pla-001" and rows[1]["conflicts"] == []
    clean = tmp_path / "clean.jsonl"
    clean.write_text(json.dumps({"text": "The office plants are watered on Mondays."}) + "\n")
    assert guard("check", "--file", str(clean), store=st).returncode == 0
    assert guard("check", "--file", str(new), "--fail-on", "never", store=st).returncode == 0
    assert guard("list", "--status", "all", "--json", store=st).stdout == before          # nothing stored
    r = guard("check", "--file", str(new), store=tmp_path / "typo.sqlite")      # not a new empty store that all pass
    assert r.returncode == 2 and "no store at" in r.stderr and not (tmp_path / "typo.sqlite").exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"text": "Backups run nightly."}) + "\n" + json.dumps({"text": "x", "tier": 1}) + "\n")
    r = guard("check", "--file", str(bad), store=st)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "check refused: 1 bad line(s)" in r.stderr \
        and "bad.jsonl:2" in r.stderr, r.stderr


def test_a_file_of_claims_or_pairs_can_come_on_standard_input(tmp_path):
    """`… | guard check --file -` (and `ingest -`, `compare -`, `scan -`): a CI job pipes the claims it made instead of
    writing a file; before, "-" was a file name ("cannot read -")."""
    st = tmp_path / "team.sqlite"
    claims = (ROOT / "examples" / "claims.jsonl").read_text()
    r = guard("ingest", "-", store=st, input=claims)
    assert r.returncode == 0 and r.stdout == f"ingested {len(claims.strip().splitlines())} claims\n", r.stderr
    r = guard("ingest", "-", store=st, input=json.dumps({"id": "r-1", "text": "Backups run nightly."}) + "\n")
    assert r.returncode == 0 and json.loads(guard("show", "r-1", store=st).stdout)["claim"]["source"] == "stdin"
    new = "\n".join(json.dumps(c) for c in ({"text": "Production deploys need one approval.", "scope": {"team": "platform"}},
                                           {"text": "The office plants are watered on Mondays."})) + "\n"
    r = guard("check", "--file", "-", store=st, input=new)
    assert r.returncode == 3 and [ln.split()[:2] for ln in r.stdout.splitlines() if ln.startswith("<stdin>:")] == \
        [["<stdin>:1:", "BLOCK"], ["<stdin>:2:", "CLEAN"]], r.stdout + r.stderr
    r = guard("check", "-f", "-", store=st, input=new + "{bad\n")
    assert r.returncode == 2 and "<stdin>:3: malformed JSON" in r.stderr and r.stderr.count("\n") == 1
    r = guard("check", "-f", "-", store=st, input="")
    assert r.returncode == 2 and r.stderr == "error: <stdin> holds no claims\n"
    pair = {"id": "p1", "existing": {"text": "Deploys must use a blue canary."}, "incoming": {"text": "Deploys must use a red canary."}}
    r = guard("compare", "-", input=json.dumps(pair) + "\n")
    assert r.returncode == 0 and json.loads(r.stdout)["id"] == "p1", r.stderr
    piped, named = tmp_path / "piped.jsonl", tmp_path / "named.jsonl"
    r = guard("scan", "-", "--out", str(piped), "--fail-on", "never", input=claims)
    assert r.returncode == 0, r.stderr
    assert guard("scan", str(ROOT / "examples" / "claims.jsonl"), "--out", str(named), "--fail-on", "never").returncode == 0
    assert piped.read_bytes() == named.read_bytes() and piped.read_text().count('"tier": "block"') >= 12
    r = guard("scan", "-", "--out", str(piped), input="")
    assert r.returncode == 2 and r.stderr == "error: <stdin> holds no claims\n"


def test_remember_a_file_writes_each_claim_in_turn_as_separate_writes_would(tmp_path):
    """`guard remember --file F`: one process and one load of the models for a file of claims, each guarded
    against the store and the file's earlier claims, as `guard remember` once per claim would (that took a
    cold start per claim). A blocked claim is not stored and the rest go on; exit 3 if any was blocked."""
    lines = [{"text": "Production deploys need two approvals."},
             {"text": "The API listens on port 8443.", "source": "runbook.md"},
             {"text": "Production deploys need one approval."},                      # blocked by line 1
             {"text": "Backups run nightly.", "scope": {"env": "prod"}},
             {"text": "Backups run hourly.", "scope": {"env": "staging"}},             # another scope: stored
             {"id": "x-1", "text": "The API listens on port 8443.", "source": "runbook.md"}]   # line 2 again
    f = tmp_path / "new.jsonl"
    f.write_text("".join(json.dumps(x) + "\n" for x in lines))
    st = tmp_path / "s.sqlite"
    r = guard("remember", "--file", str(f), store=st)
    assert r.returncode == 3, r.stderr
    heads = [ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("new.jsonl:")]
    assert heads == ["STORED", "STORED", "BLOCKED", "STORED", "STORED", "ALREADY"], r.stdout
    assert "6 claim(s) of" in r.stderr and "4 stored, 1 blocked, 1 already stored" in r.stderr
    stored = [json.loads(x) for x in guard("list", "--json", store=st).stdout.splitlines()]
    assert [(c["text"], c["source"], c["scope"]["env"]) for c in stored] == [
        ("Production deploys need two approvals.", None, None), ("The API listens on port 8443.", "runbook.md", None),
        ("Backups run nightly.", None, "prod"), ("Backups run hourly.", None, "staging")]
    assert not any(c["id"] == "x-1" for c in stored)                   # the store names guarded claims
    # the same claims written one `guard remember` / `learn` at a time decide the same
    one = tmp_path / "one.sqlite"
    seq = []
    for x in lines:
        scope = [a for k, v in (x.get("scope") or {}).items() if v for a in (f"--{k}", v)]
        cmd = ("learn", x["text"], "--source", x["source"]) if x.get("source") else ("remember", x["text"])
        seq.append(json.loads(guard(*cmd, *scope, "--json", store=one).stdout))
    r = guard("remember", "-f", str(f), "--json", store=tmp_path / "again.sqlite")
    batch = [json.loads(x) for x in r.stdout.splitlines()]
    assert [b["line"] for b in batch] == [1, 2, 3, 4, 5, 6]
    assert [(b["stored"], b["tier"], [c["claim_text"] for c in b["conflicts"]]) for b in batch] == \
        [(q["stored"], q["tier"], [c["claim_text"] for c in q["conflicts"]]) for q in seq]
    # run again: nothing new stored (a run cut short is finished by running it again)
    r = guard("remember", "-f", str(f), store=st)
    assert r.returncode == 3 and "0 stored, 1 blocked, 5 already stored" in r.stderr, r.stderr
    assert len(guard("list", "--json", store=st).stdout.splitlines()) == 4


@pytest.mark.parametrize("body, msg", [
    ('{"text": "Backups run daily."}\n{bad\n', "new.jsonl:2: malformed JSON"),
    ('{"text": "Backups run daily."}\n{"text": "Deploys are frozen.", "status": "cancelled"}\n',
     "new.jsonl:2: remember --file reads scope, source, text, valid_from, valid_until, not 'status'"),
    ('{"text": "Backups run daily."}\n{"text": "Backups run daily.", "supersedes": "c_1"}\n', "not 'supersedes'"),
    ("\n\n", "holds no claims"),
])
def test_remember_a_file_with_a_bad_line_stores_nothing(tmp_path, body, msg):
    f = tmp_path / "new.jsonl"
    f.write_text(body)
    st = tmp_path / "s.sqlite"
    r = guard("remember", "--file", str(f), store=st)
    assert r.returncode == 2 and msg in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("error: remember refused, nothing stored: 1 bad line(s)") or "holds no" in msg
    assert not st.exists()


def test_remember_a_file_from_standard_input_and_its_usage_errors(tmp_path):
    st = tmp_path / "s.sqlite"
    r = guard("remember", "-f", "-", store=st, input='{"text": "Backups run daily."}\n')
    assert r.returncode == 0 and r.stdout.startswith("<stdin>:1: STORED c_"), r.stdout + r.stderr
    for args, msg in ((("remember",), "give the statement to remember, or --file PATH"),
                      (("remember", "x", "--file", "-"), "not both"),
                      (("remember", "--file", "-", "--env", "prod"), "a file's claims carry their own scope")):
        r = guard(*args, store=st, input="")
        assert r.returncode == 2 and msg in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)


def test_check_fails_on_the_tier_asked(tmp_path):
    """--fail-on block (default) | warn | never, as guard scan's: a CI job that treats a warning as a failure."""
    st = tmp_path / "s.sqlite"
    assert guard("remember", "MFA should be enabled on all accounts.", store=st).returncode == 0
    warn = "MFA should be disabled on all accounts."
    r = guard("check", warn, store=st)
    assert r.returncode == 0 and r.stdout.startswith("warn")
    assert guard("check", warn, "--fail-on", "warn", store=st).returncode == 3
    f = tmp_path / "new.jsonl"
    f.write_text(json.dumps({"text": warn}) + "\n")
    assert guard("check", "--file", str(f), store=st).returncode == 0
    assert guard("check", "--file", str(f), "--fail-on", "warn", store=st).returncode == 3
    assert guard("check", "MFA must be disabled on all accounts.", "--fail-on", "never", store=st).returncode == 0
    r = guard("check", warn, "--fail-on", "sometimes", store=st)
    assert r.returncode == 2 and "--fail-on must be block, warn or never" in r.stderr


def test_ingest_then_scan_store_and_csv(tmp_path):
    st = tmp_path / "s.sqlite"
    src = tmp_path / "claims.jsonl"
    src.write_text("\n".join([
        json.dumps({"id": "a", "text": "The API gateway listens on port 8443."}),
        json.dumps({"id": "b", "text": "The API gateway listens on port 9443."}),
        "garbage",
        json.dumps({"id": "c", "text": "Backups run every 6 hours.", "scope": {"env": "prod"}}),
        json.dumps({"id": "d", "text": "Backups run every 24 hours.", "scope": {"env": "dev"}}),
    ]) + "\n")
    r = guard("ingest", str(src), store=st)          # all or nothing: a bad line stores nothing
    assert r.returncode == 2 and "ingest refused, nothing stored: 1 bad line(s): " in r.stderr
    assert "claims.jsonl:3:" in r.stderr and "--skip-bad-lines" in r.stderr and r.stderr.count("\n") == 1
    assert guard("list", store=st).stdout == ""
    r = guard("ingest", str(src), "--skip-bad-lines", store=st)
    assert r.returncode == 0 and "ingested 4 claims; skipped 1 bad line(s)" in r.stdout
    out = tmp_path / "report.csv"
    r = guard("scan", str(st), "--out", str(out), "--neighbours", "0", store=st)
    assert r.returncode == 3, r.stderr          # a block found: scan gates CI
    assert "1 block" in r.stdout
    text = out.read_text()
    assert text.startswith("tier,existing_id,incoming_id") and "a,b" in text and ",c,d" not in text


def test_the_csv_report_does_not_hand_a_spreadsheet_formulas(tmp_path):
    """Claims come from teams and agents; a text a spreadsheet runs as a formula is written with a
    leading apostrophe in the CSV report, and kept as written in the JSONL one."""
    import csv
    st = tmp_path / "s.sqlite"
    src = tmp_path / "claims.jsonl"
    hostile = ['=HYPERLINK("http://x.example") The API gateway listens on port 8443.',
               "+The API gateway listens on port 9443.", "-The API gateway listens on port 7443.",
               "@The API gateway listens on port 6443."]
    src.write_text("\n".join(json.dumps({"id": f"h{i}", "text": t}) for i, t in enumerate(hostile)) + "\n")
    assert guard("ingest", str(src), store=st).returncode == 0
    out, raw = tmp_path / "r.csv", tmp_path / "r.jsonl"
    for o in (out, raw):
        r = guard("scan", str(st), "--out", str(o), "--neighbours", "0", "--fail-on", "never", store=st)
        assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(out.open(newline="")))
    cells = [row[c] for row in rows for c in ("existing", "incoming")]
    assert cells and all(c[0] == "'" and c[1:] in hostile for c in cells)
    kept = [json.loads(x) for x in raw.read_text().splitlines()]
    assert {f["existing"] for f in kept} | {f["incoming"] for f in kept} <= set(hostile)


def test_compare_shows_no_score_for_a_pair_settled_without_the_model(tmp_path):
    """Two facts about one named thing are clean without running the cross-encoder (the gate's
    ``settled_clean``): the record says so and carries no p_contradiction, rather than a made-up
    one; a pair the model did score keeps its score."""
    from guard.pipeline import Guard, GuardConfig
    if Guard(GuardConfig()).nli_gate is None:
        pytest.skip("the accurate profile's models are not installed")
    pf, out = tmp_path / "pairs.jsonl", tmp_path / "out.jsonl"
    rows = [{"id": "named", "existing": {"text": "The reports-service-0 runs 12 replicas."},
             "incoming": {"text": "The reports-service-0 uses Python 3.12."}},
            {"id": "prose", "existing": {"text": "Contractors must not have production database access."},
             "incoming": {"text": "Contractors on the data team can query the production database directly."}}]
    pf.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--quiet", "compare", str(pf), "--out", str(out)],
                       capture_output=True, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, cwd=ROOT,
                       check=False)
    assert r.returncode == 0, r.stderr
    named, prose = [json.loads(x) for x in out.read_text().splitlines()]
    assert (named["tier"], named["stage"]) == ("clean", "gate") and "p_contradiction" not in named
    assert "not consulted" in named["reason"] and "one named thing" in named["reason"]
    assert prose["stage"] == "gate" and 0 <= prose["p_contradiction"] <= 1
