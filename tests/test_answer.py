"""Answer-time gates: the design's cases with the real engine (spaCy, the shipped NLI model), the
CLI in a subprocess, the HTTP endpoints on a real uvicorn server, and a trace shared by processes."""
import json
import multiprocessing
import os
import subprocess
import sys

import pytest

from conftest import ROOT, running_server
from guard.answer import trace as tracing
from guard.answer.constraints import ConstraintGate, lock, verify_lock
from guard.answer.handoff import LocalAuditor, enforce, factual_sentences, parse
from guard.answer.intents import COMPARE, DRAFT, LOOKUP, SUMMARIZE, accept, plan, split


LOCKED = lock(["X rejects null keys.", "Only domain example.com is allowed."])
EVIDENCE = {"p1#1": "X is a constrained mapping.", "p2#1": "Y is unrelated to X. It describes a separate protocol."}


def output(claim, citations=("p1#1",), echo=None, chatter=""):
    return chatter + json.dumps({"claim": claim, "citations": list(citations),
                                 "constraints_echo": LOCKED["constraints"] if echo is None else echo})


@pytest.fixture(scope="module")
def gate():
    from guard.pipeline import Guard, GuardConfig
    return ConstraintGate(guard=Guard(GuardConfig()))


@pytest.fixture(scope="module")
def auditor():
    return LocalAuditor()


# ---- locked constraints -----------------------------------------------------------------------
def test_lock_is_order_and_whitespace_insensitive_and_tamper_evident():
    a = lock(["Only domain example.com is allowed.", "X  rejects null keys. "])
    assert a == LOCKED and len(a["hash"]) == 16
    with pytest.raises(ValueError, match="hash"):
        verify_lock({**LOCKED, "constraints": LOCKED["constraints"][:1]})
    with pytest.raises(ValueError):
        lock([])


@pytest.mark.parametrize("raw, verdict, reason", [
    (output("X supports null keys."), "REJECT", "constraint_contradiction"),
    (output("X is a constrained mapping.", echo=["X rejects null keys."]), "REJECT", "constraints_echo_mismatch"),
    (output("X is a constrained mapping.", citations=["p9#9"]), "REJECT", "citation_scope"),
    ("not in context", "REFUSAL", "not_in_context"),
    (output("Not in context."), "REFUSAL", "not_in_context"),
    (output("Please allow mail from gmail.com for the sales team."), "REJECT", "constraint_contradiction"),
    (output("X is a constrained mapping.", chatter="Sure! Here you go:\n"), "OK", None),
    (output("Mail from gmail.com is not allowed; only example.com is."), "OK", None),
    ("I think X is a mapping.", "REJECT", "no_json"),
    ('{"claim": "X is a mapping.", "citations": "p1#1", "constraints_echo": []}', "REJECT", "bad_schema"),
    ('{"claim": ', "REJECT", "no_json"),
])
def test_constraint_gate_cases(gate, raw, verdict, reason):
    v = gate.check(raw, LOCKED, ["p1#1", "p2#1"])
    assert (v.verdict, v.reason) == (verdict, reason), v.detail


def test_a_contradiction_names_the_constraint_and_the_sentence(gate):
    v = gate.check(output("X is a constrained mapping. X supports null keys."), LOCKED, ["p1#1"])
    assert v.reason == "constraint_contradiction"
    assert v.detail["constraint"] == "X rejects null keys." and v.detail["sentence"] == "X supports null keys."


def test_a_numeric_bound_is_checked_exactly(gate):
    locked = lock(["Log retention must be at most 30 days."])
    out = json.dumps({"claim": "We keep logs for 90 days.", "citations": [], "constraints_echo": locked["constraints"]})
    v = gate.check(out, locked, [])
    assert v.reason == "constraint_contradiction" and v.detail["checker"] == "numeric_bound"
    ok = json.dumps({"claim": "We keep logs for 14 days.", "citations": [], "constraints_echo": locked["constraints"]})
    assert gate.check(ok, locked, []).verdict == "OK"


def test_a_locked_range_is_checked_exactly(gate):
    locked = lock(["Log retention must be between 7 and 35 days."])
    out = json.dumps({"claim": "We keep logs for 90 days.", "citations": [], "constraints_echo": locked["constraints"]})
    v = gate.check(out, locked, [])
    assert v.reason == "constraint_contradiction" and v.detail["checker"] == "numeric_bound", v.detail
    assert v.detail["bound"] == f"{7 * 86400:g}..{35 * 86400:g} time"
    ok = json.dumps({"claim": "We keep logs for 14 days.", "citations": [], "constraints_echo": locked["constraints"]})
    assert gate.check(ok, locked, []).verdict == "OK"


def test_the_gate_fails_closed_when_its_checker_cannot_run(tmp_path):
    from guard.pipeline import Guard, GuardConfig
    g = ConstraintGate(guard=Guard(GuardConfig(nli_model=str(tmp_path / "no-model"))))
    v = g.check(output("X is a constrained mapping."), LOCKED, ["p1#1"])
    assert (v.verdict, v.reason) == ("REJECT", "checker_unavailable") and "NLI" in v.detail["error"]


def test_hostile_outputs_are_verdicts_not_exceptions(gate):
    for raw in [None, 42, "{" * 5000, "\x00\ud800", json.dumps({"claim": "x" * 30000, "citations": [], "constraints_echo": []}),
                json.dumps({"claim": ["a"], "citations": [], "constraints_echo": []})]:
        v = gate.check(raw, LOCKED, ["p1#1"])
        assert v.verdict == "REJECT" and v.reason in ("no_json", "bad_schema")


# ---- scholar / auditor ---------------------------------------------------------------------
def handoff(claim, citations, question="What is X?", auditor=None, allowed=("p1#1", "p2#1")):
    h = {"handoff_id": "ho_1", "question": question, "scope": {"allowed_ids": list(allowed)},
         "scholar": {"claim": claim, "citations": list(citations), "notes": None}}
    if auditor is not None:
        h["auditor"] = auditor
    return h


def test_local_auditor_accepts_a_supported_claim_and_retries_an_unsupported_one(auditor):
    a = auditor.audit("X is a constrained mapping.", ["p1#1"], EVIDENCE)
    assert a["verdict"] == "VALID" and a["citations"] == ["p1#1"]
    d = enforce(handoff("X is a constrained mapping.", ["p1#1"], auditor=a))
    assert d.decision == "ACCEPT"
    z = auditor.audit("Z is a caching layer.", ["p2#1"], EVIDENCE)
    assert z["verdict"] == "NOT_IN_CONTEXT" and z["unsupportive_citations"] == ["p2#1"]
    d = enforce(handoff("Z is a caching layer.", ["p2#1"], question="Explain Z.", auditor=z))
    assert d.decision == "RETRY" and "supports" in d.reason
    assert enforce(handoff("Z is a caching layer.", ["p2#1"], auditor=z), attempt=2, max_retries=2).decision == "REJECT"


def test_the_best_supporting_chunk_decides_and_an_idle_citation_is_flagged(auditor):
    evidence = {**EVIDENCE, "p3#1": "Y describes a separate protocol."}
    a = auditor.audit("X is a constrained mapping.", ["p1#1", "p3#1"], evidence)
    assert a["verdict"] == "VALID" and a["citations"] == ["p1#1"] and a["unsupportive_citations"] == ["p3#1"]


@pytest.mark.xfail(strict=True, reason="session 65's distilled default reads 'Y is unrelated to X. It describes a "
                   "separate protocol.' as support for 'X is a constrained mapping.' (entailment 0.54 against the "
                   "auditor's fitted 0.5; v2 gave 0.31 against its 0.65): a model error kept in view, not fitted away")
def test_a_chunk_that_only_names_the_claims_subject_is_no_support(auditor):
    a = auditor.audit("X is a constrained mapping.", ["p1#1", "p2#1"], EVIDENCE)
    assert a["verdict"] == "VALID" and a["unsupportive_citations"] == ["p2#1"]


def test_enforce_rejects_out_of_scope_citations_and_invalid_audits():
    ok = {"verdict": "VALID", "reason": "", "citations": ["p1#1"], "corrected_claim": None}
    assert enforce(handoff("X is a map.", ["p3#1"], auditor=ok)).reason.startswith("citation_scope")
    assert enforce(handoff("X is a map.", ["p1#1"], auditor={**ok, "citations": ["p9"]})).decision == "REJECT"
    bad = {**ok, "verdict": "INVALID", "reason": "p1#1 says otherwise"}
    assert enforce(handoff("X is a map.", ["p1#1"], auditor=bad)).decision == "REJECT"
    with pytest.raises(ValueError, match="auditor.verdict"):
        parse(handoff("X", ["p1#1"], auditor={**ok, "verdict": "PROBABLY"}))
    with pytest.raises(ValueError, match="scope"):
        parse({"handoff_id": "h", "question": "q", "scholar": {"claim": "c"}})


# ---- intent split and plans ------------------------------------------------------------------
def test_split_compare_then_draft():
    steps = split("Compare Policy A vs B with citations, then draft an email asking IT to switch our domain.")
    assert [(s.role, s.refs) for s in steps] == [(COMPARE, []), (DRAFT, [1])]


@pytest.mark.parametrize("request_, roles", [
    ("What are the pros and cons of Kafka?", [COMPARE]),
    ("Compare A and B.", [COMPARE]),
    ("What is X?", [LOOKUP]),
    ("Summarize the retention policy and draft a Slack message announcing it.", [SUMMARIZE, DRAFT]),
    ("1. Find the on-call policy 2. summarize it 3. write a reply to Bob", [LOOKUP, SUMMARIZE, DRAFT]),
    ("Which is taller, the Eiffel Tower or the Shard?", [COMPARE]),
])
def test_split_roles(request_, roles):
    assert [s.role for s in split(request_)] == roles


def test_split_rejects_bad_requests():
    for bad in ["", "   ", None, "x" * 6000]:
        with pytest.raises(ValueError):
            split(bad)


def _plan():
    return plan("Compare Policy A vs B with citations, then draft an email asking IT to switch our domain.",
                retrieve=lambda q: ["a#1", "b#1"])


def test_a_plan_is_accepted_only_whole(auditor):
    steps = _plan()
    compare, draft = steps
    assert compare.allowed_ids == ["a#1", "b#1"] and draft.echo == compare.handoff_id
    good = {1: {"claim": "Policy A allows remote work abroad for 30 days; Policy B allows 90 days.", "citations": ["a#1", "b#1"]},
            2: {"text": "Hi IT team, could you switch our mail domain to example.com? Thanks.", "handoff_id": compare.handoff_id}}
    assert accept(steps, good, auditor)["verdict"] == "ACCEPT"
    refused = {**good, 1: {"claim": "not in context", "citations": []}}
    r = accept(steps, refused, auditor)
    assert (r["verdict"], r["step"]) == ("REFUSAL", 1)           # the draft is refused with the compare
    assert accept(steps, {**good, 2: {**good[2], "handoff_id": "ho_wrong"}}, auditor)["reason"] == "handoff_mismatch"
    assert accept(steps, {**good, 2: {**good[2], "citations": ["a#1"]}}, auditor)["reason"] == "creative_citations"
    assert accept(steps, {**good, 1: {**good[1], "citations": ["z#9"]}}, auditor)["reason"] == "citation_scope"
    invented = {**good, 2: {"text": "Policy B costs $500 per month per employee.", "handoff_id": compare.handoff_id}}
    r = accept(steps, invented, auditor)
    assert r["reason"] == "new_fact" and r["steps"][2]["sentence"].startswith("Policy B costs")
    assert accept(steps, {**good, 2: "not json at all"}, auditor)["reason"] == "no_json"


def test_factual_sentences_skip_greetings_requests_and_questions():
    text = "Hi team, Could you switch our domain? Policy B allows 90 days abroad. Please confirm. Thanks."
    assert factual_sentences(text) == ["Policy B allows 90 days abroad."]


# ---- traces -------------------------------------------------------------------------------------
def _append_many(args):
    path, n, who = args
    for i in range(n):
        tracing.append(path, {"who": who, "i": i, "pad": "x" * 3000})


def test_trace_lines_from_several_processes_never_interleave(tmp_path):
    path = tmp_path / "trace.jsonl"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.map(_append_many, [(str(path), 50, w) for w in range(4)])
    lines = path.read_text().splitlines()
    assert len(lines) == 200 and all(json.loads(x)["pad"] == "x" * 3000 for x in lines)


def test_each_decision_writes_one_trace_line(gate, tmp_path):
    path = tmp_path / "t.jsonl"
    gate.check(output("X supports null keys."), LOCKED, ["p1#1"], trace_path=path)
    enforce(handoff("X is a map.", ["p1#1"], auditor={"verdict": "VALID", "citations": ["p1#1"]}), trace_path=path)
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    assert [r["gate"] for r in recs] == ["constraints", "handoff"]
    assert recs[0]["verdict"] == "REJECT" and recs[0]["checks"][-1]["check"] == "engine" and recs[0]["trace_id"]
    assert recs[1]["handoff_id"] == "ho_1" and recs[1]["ms"] >= 0


# ---- CLI and HTTP --------------------------------------------------------------------------------
def cli(*args, stdin=None):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "guard.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def test_cli_exit_codes_and_trace(tmp_path):
    f = tmp_path / "check.json"
    f.write_text(json.dumps({"constraints": LOCKED["constraints"], "retrieved_ids": ["p1#1"],
                             "output": output("X supports null keys.")}))
    trace = tmp_path / "trace.jsonl"
    r = cli("--profile", "fast", "answer", "check", str(f), "--trace", str(trace))
    assert r.returncode == 3 and json.loads(r.stdout)["reason"] == "constraint_contradiction"
    assert json.loads(trace.read_text())["verdict"] == "REJECT"
    h = tmp_path / "h.json"
    h.write_text(json.dumps({**handoff("Z is a caching layer.", ["p2#1"], question="Explain Z."), "evidence": EVIDENCE}))
    r = cli("answer", "audit", str(h))
    assert r.returncode == 4 and json.loads(r.stdout)["verdict"] == "RETRY"
    r = cli("answer", "split", "Compare A vs B, then draft a memo.")
    assert r.returncode == 0 and [s["role"] for s in json.loads(r.stdout)["steps"]] == ["COMPARE", "DRAFT"]
    r = cli("answer", "lock", "-", stdin='["b", "a"]')
    assert r.returncode == 0 and json.loads(r.stdout)["constraints"] == ["a", "b"]
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    r = cli("answer", "check", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not JSON" in r.stderr
    bad.write_text("[" * 100_000 + "]" * 100_000)         # was a RecursionError, exit 1
    r = cli("answer", "check", str(bad))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not JSON (nested too deeply)" in r.stderr


def test_http_answer_endpoints(tmp_path):
    import httpx
    with running_server(tmp_path, "--profile", "fast") as base:
        r = httpx.post(base + "/answer/check", json={"constraints": LOCKED["constraints"], "retrieved_ids": ["p1#1"],
                                                     "output": output("X supports null keys.")}, timeout=60)
        assert r.status_code == 200 and r.json()["reason"] == "constraint_contradiction"
        r = httpx.post(base + "/answer/split", json={"request": "Compare A vs B, then draft a memo."}, timeout=60)
        assert [s["role"] for s in r.json()["steps"]] == ["COMPARE", "DRAFT"]
        r = httpx.post(base + "/answer/audit", json={**handoff("X is a constrained mapping.", ["p1#1"]),
                                                     "evidence": EVIDENCE}, timeout=120)
        assert r.status_code == 200 and r.json()["verdict"] == "ACCEPT"
        r = httpx.post(base + "/answer/check", json={"retrieved_ids": [], "output": "x"}, timeout=60)
        assert r.status_code == 422 and "constraints" in r.json()["error"]


def test_cli_audit_runs_the_model_it_is_given_and_refuses_a_damaged_auditor_file(tmp_path):
    """`guard --nli-model M answer audit` ran the shipped model and its thresholds whatever M was (the
    server ran M): the CLI and the HTTP service answered the same handoff differently. And a damaged
    auditor.json ended the audit in "JSONDecodeError" (exit 1)."""
    import shutil
    model = tmp_path / "model"
    shutil.copytree(ROOT / "models" / "nli-minilm-l6-v2", model, ignore=shutil.ignore_patterns("*.png", "eval_*"))
    # this model's auditor asks for certainty no score reaches: the claim the shipped one accepts is retried
    (model / "auditor.json").write_text(json.dumps({"thresholds": {"entail": 1.0, "contradict": 0.5}, "fitted_on": "t"}))
    h = tmp_path / "h.json"
    h.write_text(json.dumps({**handoff("X is a constrained mapping.", ["p1#1"]), "evidence": EVIDENCE}))
    r = cli("--nli-model", str(model), "answer", "audit", str(h))
    assert r.returncode == 4 and json.loads(r.stdout)["verdict"] == "RETRY", r.stdout + r.stderr
    (model / "auditor.json").write_text('{"thresholds": {"entail": 0.')
    r = cli("--nli-model", str(model), "answer", "audit", str(h))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "auditor.json is damaged" in r.stderr, r.stderr
