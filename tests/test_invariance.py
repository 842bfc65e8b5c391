"""Meaning-preserving rewrites (benchmarks.rewrites) and the invariance benchmark that normalises each statement
beside its rewrites (benchmarks.invariance, `guard bench invariance`), with the real spaCy model."""
import json
import subprocess
import sys

import pytest

from benchmarks.invariance import evaluate
from benchmarks.rewrites import FAMILIES, rewrites

# statements session 66 found read unlike their own rewrites; v2 reads each alike now
FIXED = [
    "The item cannot exceed 2 MB.",
    "Pull requests must be reviewed by two engineers before merging.",
    "A standard week is 35 hours, Monday to Friday, not counting lunch.",
    "Releases are an append-only ledger and a release cannot be mutated once it is created.",
    "Invoices must be at least $100.",
    "Updates should be delivered at least every 20 minutes.",
    "We pin the chart to 1.4.0.",
]


def test_each_family_rewrites_only_what_it_names():
    got = dict(rewrites("Builds must not take more than 5 minutes and at least 2 reviewers approve."))
    assert got["contraction"] == "Builds mustn't take more than 5 minutes and at least 2 reviewers approve."
    assert got["digits -> words"] == "Builds must not take more than five minutes and at least two reviewers approve."
    assert got["no full stop"].endswith("approve")
    assert got["must -> shall"].startswith("Builds shall not")
    assert got["at least -> no less than"].endswith("no less than 2 reviewers approve.")
    assert got["at least -> or more"].endswith("and 2 or more reviewers approve.")
    assert dict(rewrites("Uploads are at most 10 MB."))["at most -> or less"] == "Uploads are 10 MB or less."
    spelled = dict(rewrites("Backups run every week at 14:00, cost $1,000.50 per month and end 2026-04-30."))
    assert (spelled["every period -> adverb"], spelled["24h clock -> am/pm"]) == (
        "Backups run weekly at 14:00, cost $1,000.50 per month and end 2026-04-30.",
        "Backups run every week at 2 pm, cost $1,000.50 per month and end 2026-04-30.")
    assert spelled["$ -> USD"] == "Backups run every week at 14:00, cost 1,000.50 USD per month and end 2026-04-30."
    assert spelled["ISO date -> written"].endswith("and end April 30, 2026.")
    assert dict(rewrites("It ends on April 30, 2026."))["written date -> ISO"] == "It ends on 2026-04-30."
    assert dict(rewrites("Logs must be at least 30 days old and SSH must be disabled."))["be disabled -> not be enabled"] \
        == "Logs must be at least 30 days old and SSH must not be enabled."
    assert "$ -> USD" not in dict(rewrites("Storage costs $0.08/GB.")) and "24h clock -> am/pm" not in dict(
        rewrites("Book until 5:00 PM ET."))
    assert got["minutes -> mins"] == "Builds must not take more than 5 mins and at least 2 reviewers approve."
    assert set(got) <= set(FAMILIES)
    got = dict(rewrites("Do not keep more than 48 hours or 120 minutes of 5 GB logs at 10,000 requests per minute."))
    assert got["do not -> never"].startswith("Never keep")
    assert got["hours -> days"].startswith("Do not keep more than 2 days or")
    assert "or 2 hours of" in got["minutes -> hours"]
    assert "of 5 gigabytes logs at" in got["GB -> gigabytes"]
    assert got["10,000 -> 10000"].endswith("at 10000 requests per minute.")
    assert got["per -> /"].endswith("at 10,000 requests/minute.")
    assert "hours -> days" not in dict(rewrites("Keep 36 hours of logs."))       # no whole number of days
    # names, versions, amounts and times are no counts
    assert "digits -> words" not in dict(rewrites("Windows 11 laptops run v2 at $5 from 10:30 on Vue 2.7 laptops."))
    assert rewrites("") == [] and rewrites("ok") == []
    got = dict(rewrites("Amazon SNS doesn't retry a failed delivery."))
    assert got["list item"] == "- Amazon SNS doesn't retry a failed delivery."
    assert got["bold modal"] == "Amazon SNS **doesn't** retry a failed delivery."
    assert got["typographic apostrophe"] == "Amazon SNS doesn\u2019t retry a failed delivery."
    assert got["footnote marker"] == "Amazon SNS doesn't retry a failed delivery.[1]"
    assert dict(rewrites("In production, the API listens on 8443."))["opening phrase comma off"] \
        == "In production the API listens on 8443."
    assert dict(rewrites("When the build fails, the deploy stops."))["opening clause comma off"] \
        == "When the build fails the deploy stops."
    assert dict(rewrites("Paid leave is 26 weeks."))["lower-case first letter"] == "paid leave is 26 weeks."
    got = dict(rewrites("Paid leave is 26 weeks."))
    assert (got["bracket tag"], got["short label"], got["trailing icon"], got["quoted"], got["list item stop"]) == (
        "[Security] Paid leave is 26 weeks.", "Security: Paid leave is 26 weeks.", "Paid leave is 26 weeks. \u2705",
        '"Paid leave is 26 weeks."', "Paid leave is 26 weeks;")
    assert dict(rewrites("Use a read-only root filesystem."))["hyphen -> space"] == "Use a read only root filesystem."
    assert "hyphen -> space" not in dict(rewrites("Use `read-only` on kv-payments-prod and us-east-1."))
    assert "hyphen -> space" not in dict(rewrites("Post in #admins-github first."))     # a channel's name, not a compound
    assert "lower-case first letter" not in dict(rewrites("SLAs are 99.9%.")) | dict(rewrites("gc.auto is 6700."))
    got = dict(rewrites("The = operator (or no operator) allows one version (no ranges)."))
    assert got["parentheses -> dashes"] == "The = operator \u2014 or no operator \u2014 allows one version (no ranges)."
    assert got["last parentheses -> dash"] == "The = operator (or no operator) allows one version \u2014 no ranges."
    # a quantity, and a date's own comma, are no opening phrase
    for text in ("At least 2, maybe 3, reviewers approve.", "On July 1, 2023, CAs must stop."):
        assert not any(f.startswith("opening") for f, _ in rewrites(text))
    # a rule's modal said with a phrase, agreeing with a plain subject; a subject with a preposition in it is left
    got = dict(rewrites("Contractors must not have production database access."))
    assert got["must not -> are not allowed to"] == "Contractors are not allowed to have production database access."
    assert got["must not -> cannot"] == "Contractors cannot have production database access."
    got = dict(rewrites("The service must restart after 3 failures."))
    assert (got["must -> are required to"], got["must -> need to"]) == (
        "The service is required to restart after 3 failures.", "The service needs to restart after 3 failures.")
    assert dict(rewrites("Maintainers may push to main."))["may -> are allowed to"] == "Maintainers are allowed to push to main."
    assert not {f for f, _ in rewrites("Changes to main must be reviewed.")} & {"must -> are required to", "must -> need to"}


def test_a_state_is_rewritten_as_what_people_did_only_where_the_statement_opens_with_it():
    from benchmarks.rewrites import STATE_REPORT, WORDING_FAMILIES

    def said(text: str) -> str | None:
        return dict(rewrites(text)).get(STATE_REPORT)

    assert said("Debug logging is disabled in production.") == "We disabled debug logging in production."
    assert said("The health UI endpoint is enabled.") == "We enabled the health UI endpoint."
    assert said("TLS session tickets are turned off (`ssl_session_tickets off`).") \
        == "We turned off TLS session tickets (`ssl_session_tickets off`)."
    assert said("Telemetry is turned off by default.") == "We turned off telemetry by default."
    assert said("Cloud Storage soft delete is enabled.") == "We enabled Cloud Storage soft delete."    # a name's capitals
    for text in ("If MFA is enabled, passwords shorter than 8 characters are weak.",      # a condition
                 "The account is disabled by the IdP.",                                   # said by whom
                 "Soft delete is enabled by default on all buckets and has a retention of seven days.",
                 "Debug logging must be disabled."):                                      # a rule's modal
        assert said(text) is None, text
    assert STATE_REPORT not in WORDING_FAMILIES      # what the models are shown as a rule's wording is unchanged


def test_v2_reads_a_state_as_what_people_did_to_it():
    """The people's report of a state: v2 read "We disabled zone_reclaim_mode by default." as disabled only from session
    91 (it was an obligation of nothing), and "We enabled debug logging …" as about "debug", the gerund taken for a
    verb of its own."""
    statements = ["Debug logging is enabled in development.", "zone_reclaim_mode is disabled by default.",
                  "Application logging is switched off entirely for the load-test runs in the CI environment.",
                  "TLS session tickets are turned off (`ssl_session_tickets off`).", "The health UI endpoint is disabled."]
    r = evaluate("normalizer.rules.v2", statements)["by_family"]["state -> people's report"]
    assert r["rewrites"] == len(statements)
    assert (r["conflict"], r["subject"], r["modality"]) == (0, 0, 0), r


def test_a_rewrite_that_changes_the_reading_is_counted():
    """The benchmark can fail: v1 reads "no less than $100" as at most $100 under a prohibition."""
    r = evaluate("normalizer.rules.v1", ["Invoices must be at least $100."])
    assert r["by_family"]["at least -> no less than"]["conflict"] == 1
    [example] = r["conflict_examples"]["at least -> no less than"]
    assert example["rewrite"] == "Invoices must be no less than $100."


def test_v2_reads_the_statements_fixed_in_session_66_like_their_rewrites():
    r = evaluate("normalizer.rules.v2", FIXED)
    assert r["total"]["rewrites"] >= 15
    # every family but the one below, whose single rewrite of these statements v2 still misreads
    fams = [v for f, v in r["by_family"].items() if f != "hyphen -> space"]
    assert {k: sum(v[k] for v in fams) for k in ("conflict", "modality", "bound")} == {"conflict": 0, "modality": 0, "bound": 0}


def test_v2_reads_a_compound_adjective_without_its_hyphen_alike():
    """A strict xfail until session 80: the small model parsed "an append only ledger" as "append" and an "only
    ledger" that cannot be mutated; ``open_compounds`` reads the hyphen back."""
    r = evaluate("normalizer.rules.v2", ["Releases are an append-only ledger and a release cannot be mutated once it is created."])
    assert r["by_family"]["hyphen -> space"]["modality"] == 0


def test_the_command_writes_its_report(tmp_path):
    out = tmp_path / "inv"
    p = subprocess.run([sys.executable, "-m", "guard.cli", "--quiet", "bench", "invariance", "normalizer.rules.v2",
                        "--limit", "5", "--out", str(out)], capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0, p.stderr[-800:]
    report = json.loads((out / "invariance.json").read_text())
    assert report["normalizers"] == ["normalizer.rules.v2"]
    assert report["results"]["normalizer.rules.v2"]["statements"] == 5
    assert "Meaning-preserving rewrites" in (out / "invariance.md").read_text()


@pytest.mark.parametrize("args", [["no.such.normalizer"], ["--limit", "0"]])
def test_bad_arguments_get_one_line(tmp_path, args):
    p = subprocess.run([sys.executable, "-m", "guard.cli", "bench", "invariance", *args, "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "invariance.json").exists()
