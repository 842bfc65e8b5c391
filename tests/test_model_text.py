"""What the NLI model and the bi-encoder read of a statement (guard.nli.model_text), and the whole default guard judging
a pair alike however the incoming statement's label and final mark are written — with the shipped model."""
import pytest

from guard.nli.model_text import model_text


@pytest.mark.parametrize("text, read", [
    ("Note: Postmortems must not assign blame to individuals.", "Postmortems must not assign blame to individuals."),
    ("IMPORTANT: deploys need two approvals", "deploys need two approvals."),
    ("Heads-up: the API listens on port 8443!", "the API listens on port 8443."),
    ("Note: Security: Deploys need two approvals", "Deploys need two approvals."),
    ("Deploys are frozen on Fridays!!", "Deploys are frozen on Fridays."),
    ("Traces are sampled at 1%", "Traces are sampled at 1%."),
    ("  The API listens on port 8443.  ", "The API listens on port 8443."),
    # said as written: a topic label names what the rule is about, a header's value is the statement, a closing
    # bracket or quote ends it, and a label before fewer than three words is not taken off
    ("Security: Pull requests need two approvals.", "Pull requests need two approvals."),
    ("Recommended: Rotate keys every 90 days.", "Recommended: Rotate keys every 90 days."),
    ("Ops suggestion: Cache the token for an hour.", "Ops suggestion: Cache the token for an hour."),
    ("LoginGraceTime: The server disconnects after 60 seconds.", "LoginGraceTime: The server disconnects after 60 seconds."),
    ("Billing: monthly", "Billing: monthly."),
    ("Retry-After: 30", "Retry-After: 30."),
    # a name in code without its backticks, a stray backtick kept
    ("Set the mode to `strict`", "Set the mode to strict."),
    ("PostgreSQL `max_connections` is set to 100.", "PostgreSQL max_connections is set to 100."),
    ("Use ``rst_literal`` here.", "Use rst_literal here."),
    ("Auth cookies are set with `httpOnly: true`.", "Auth cookies are set with httpOnly: true."),
    ("A ` alone stays.", "A ` alone stays."),
    ("Use TLS (1.2 or later)", "Use TLS (1.2 or later)"),
    ("Note: be careful", "Note: be careful."),
    # a rule's "shall" is its "must", in any case; a word that only starts so is left
    ("Postmortems shall not assign blame.", "Postmortems must not assign blame."),
    ("The client SHALL retry; it SHALL NOT loop.", "The client MUST retry; it MUST NOT loop."),
    ("Shall be signed by two officers.", "Must be signed by two officers."),
    ("You shan't push to main.", "You must not push to main."),
    ("Marshall owns the shallow clone job.", "Marshall owns the shallow clone job."),
    # and its "may not", but not a hedge's
    ("Postmortems may not assign blame.", "Postmortems must not assign blame."),
    ("You MAY NOT push to main; May not is fine too.", "You MUST NOT push to main; Must not is fine too."),
    ("The cache may not always be warm.", "The cache may not always be warm."),
    ("Results may not necessarily match.", "Results may not necessarily match."),
    ("Dismay nothing; may notify the owner.", "Dismay nothing; may notify the owner."),
    # a modal run into its "not", written out
    ("Postmortems mustn't assign blame.", "Postmortems must not assign blame."),
    ("You SHOULDN'T push; you needn’t ask.", "You SHOULD NOT push; you need not ask."),
    ("Mustn't deploy on Fridays.", "Must not deploy on Fridays."),
    ("Don't deploy on Fridays.", "Don't deploy on Fridays."),
    ("Coverage of 55 per cent is enough.", "Coverage of 55 percent is enough."),
    # when a decision holds, or how it is told, before it
    ("Going forward, all deploys need two approvals.", "All deploys need two approvals."),
    ("To be clear, postmortems are blameless.", "Postmortems are blameless."),
    ("Going forward is the plan.", "Going forward is the plan."),
    ("The per cent sign stays.", "The per cent sign stays."),
    ("Is this allowed?", "Is this allowed?"),
    ("", ""),
])
def test_the_models_read_what_the_statement_says(text, read):
    assert model_text(text) == read


def test_every_training_pair_reads_as_the_gate_was_fitted(shared_data):
    """The learned gate was fitted on out-of-fold NLI scores of claims_train's texts as written, by fold models that
    are not kept; ``model_text`` must leave every one of them as it is, or the scores a write gets would not be the
    scores it was fitted on — but for a rule's "shall", read as "must" since session 85: 23 statements, whose pairs'
    scores by the shipped model move by 0.006 on average (``model_text``'s docstring), and its "may not", read as
    "must not" since session 87: one statement."""
    import json
    import re
    changed, shall = [], 0
    for line in (shared_data / "bench" / "claims_train.jsonl").read_text().splitlines():
        r = json.loads(line)
        for t in (r["existing"]["text"].strip(), r["incoming"]["text"].strip()):
            read = re.sub(r"\bshall\b", lambda m: {"shall": "must", "Shall": "Must", "SHALL": "MUST"}[m.group(0)], t,
                          flags=re.IGNORECASE)
            read = re.sub(r"\bmay not\b", "must not", read)
            shall += read != t
            changed += [t] if model_text(t) != read else []
    assert changed == [] and shall == 24


@pytest.mark.slow
def test_claims_dev_scores_are_of_what_the_model_reads(shared_data):
    """claims_dev's stored scores (``guard bench stages`` reads them) are the shipped model's of each text as
    ``model_text`` gives it — the pairs with a name in backticks among them — so the bench judges claims_dev as a
    write would."""
    import json
    from pathlib import Path

    from guard.nli.scorer import SHIPPED_MODEL, NLIScorer
    from training.claim_pairs import read_rows
    project = Path(__file__).resolve().parents[1]
    rows = read_rows(shared_data / "bench" / "claims_dev.jsonl")
    coded = [r for r in rows if "`" in r["existing"]["text"] + r["incoming"]["text"]][:16]
    assert len(coded) == 16
    stored = {p["id"]: p for p in map(json.loads, (project / "results" / "claims-cv" /
                                                  f"dev_nli_{SHIPPED_MODEL}.jsonl").read_text().splitlines())}
    scorer = NLIScorer(project / "models" / SHIPPED_MODEL, quantize=False, calibrated=False)
    both = scorer.score_both([(model_text(r["existing"]["text"]), model_text(r["incoming"]["text"])) for r in coded])
    worst = max(abs(got[k] - stored[r["id"]][d][k])
                for r, pair in zip(coded, both) for d, got in zip(("forward", "backward"), pair) for k in got)
    assert worst < 1e-3


@pytest.fixture(scope="module")
def accurate():
    from guard.pipeline import Guard, GuardConfig
    g = Guard(GuardConfig())
    if g.nli_gate is None:
        pytest.skip("the shipped NLI model could not load: " + "; ".join(g.notes))
    return g


@pytest.mark.parametrize("existing, incoming", [
    ("Squash merging is the only allowed merge method for PRs.", "Squash merging is disabled for all PRs; use rebase merges only."),
    ("Postmortems are blameless and focus on systems, not people.", "Each postmortem identifies the individual at fault."),
    ("Logs are retained for 30 days.", "Logs are retained for 90 days."),
])
def test_a_note_s_label_and_final_mark_change_no_tier_nor_score(accurate, existing, incoming):
    """The pair judged as written, and with the incoming statement opened by "Note:" / "FYI:", ended by "!" or
    without its full stop: one tier and one p(contradiction) for all (before, "Note: " moved 20 of claims_dev's
    320 pairs from block to warn)."""
    from guard.claims import Claim
    forms = [incoming, "Note: " + incoming, "FYI: " + incoming, "Security: " + incoming, incoming[:-1] + "!",
             incoming[:-1]]
    judged = accurate.judge_pairs(accurate.pair_items([(Claim(text=existing), Claim(text=f)) for f in forms]))
    assert len({j.tier for j in judged}) == 1
    ps = [j.nli.p_contradiction if j.nli is not None else None for j in judged]
    assert all(p == pytest.approx(ps[0], abs=1e-6) if p is not None else ps[0] is None for p in ps)


def test_a_rule_s_shall_is_judged_as_its_must(accurate):
    """Written with "shall" for "must", the incoming rule gets the tier and score it gets with "must" (before, 13 of
    claims_dev's 48 pairs with a "must" changed tier so written, 11 of them up), and so it does opened "Going forward,"
    (22 of 256 pairs so written changed tier) and with "may not" for "must not" (3 of 11, two of them clean → block:
    this very pair was one)."""
    from guard.claims import Claim
    existing = "Postmortems are blameless and focus on systems, not people."
    forms = ["Postmortems must not assign blame to individuals.", "Postmortems shall not assign blame to individuals.",
             "Postmortems SHALL NOT assign blame to individuals.", "Postmortems shan't assign blame to individuals.",
             "Going forward, postmortems must not assign blame to individuals.",
             "Postmortems may not assign blame to individuals.", "Postmortems mustn't assign blame to individuals."]
    judged = accurate.judge_pairs(accurate.pair_items([(Claim(text=existing), Claim(text=f)) for f in forms]))
    assert len({j.tier for j in judged}) == 1
    ps = [j.nli.p_contradiction for j in judged if j.nli is not None]
    assert len(ps) in (0, len(forms)) and all(p == pytest.approx(ps[0], abs=1e-6) for p in ps)
