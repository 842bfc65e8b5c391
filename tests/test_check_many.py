"""Many statements checked at once (`guard check --file`, HTTP `POST /check` with a batch) decide as each
checked alone: the real spaCy normalizer, the shipped cross-encoder and its learned gate, a real SQLite
store."""
import pytest

from guard.claims import ClaimError
from guard.pipeline import Guard, GuardConfig
from guard.service import GuardService

STORED = [
    ("Production deploys must be approved by two reviewers.", {}),
    ("The API listens on port 8443.", {}),
    ("Contractors must not have production database access.", {}),
    ("Secrets are stored in Vault.", {}),
    ("Raw event data is kept for 90 days.", {}),
    ("If you travel for a customer visit, the company pays for your hotel.", {}),
    ("Verbose tracing is on in staging.", {"env": "staging"}),
    ("Releases are paused during the holiday freeze.", {}),
    ("The on-call stipend is $300 per week.", {}),
    ("Backups run every 6 hours.", {}),
]
INCOMING = [
    ("Production deploys must not require approval.", None, None),
    ("The API listens on port 9443.", None, None),
    ("Contractors on the data team can query the production database directly.", None, None),
    ("Secrets are stored in AWS Secrets Manager.", None, None),
    ("Hotel stays on customer trips are never reimbursed, even when sales asks you to go.", None, None),
    ("Verbose tracing is off in production.", {"env": "production"}, None),
    ("Releases are permitted during the holiday freeze.", None, None),
    ("On-call engineers get $250/week for carrying the pager.", None, None),
    ("Logs are shipped as JSON.", None, None),
    ("The API listens on port 8443.", None, None),                 # said already: a write would store nothing
    ("Backups run every 12 hours.", None, {"valid_from": "2031-01-01"}),
]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    g = Guard(GuardConfig())
    if g.nli_gate is None:
        pytest.skip("the shipped NLI model could not load: " + "; ".join(g.notes))
    svc = GuardService(tmp_path_factory.mktemp("batch") / "s.sqlite", guard=g)
    for text, scope in STORED:
        assert svc.remember(text, scope).stored
    yield svc
    svc.close()


def _seen(d):
    """A decision as a user sees it. The probability to 9 places: a batch pads its pairs to another
    length than a pair alone, and the fp32 sums then differ in their last bits (3e-16 seen with the
    distilled default of session 65); the speed issue asks |dp| < 1e-3."""
    return (d.tier.value, list(d.notes),
            [(j.claim_id, j.tier.value, j.stage, j.verdict.kind.value, j.reason,
              None if j.nli is None else round(j.nli.p_contradiction, 9)) for j in d.conflicts])


def test_a_batch_decides_each_statement_as_it_is_decided_alone(service):
    alone = [service.check(*s) for s in INCOMING]
    together = service.check_many(INCOMING)
    assert [_seen(d) for d in together] == [_seen(d) for d in alone]
    backwards = service.check_many(INCOMING[::-1])[::-1]     # other neighbours in the models' batches
    assert [_seen(d) for d in backwards] == [_seen(d) for d in alone]
    # the batch is worth checking: both stages decide some of it, and some of it is clean
    stages = {j.stage for d in together for j in d.conflicts if j.tier.value == "block"}
    assert {"structural", "gate"} <= stages, stages
    assert {"block", "clean"} <= {d.tier.value for d in together}
    assert any("already stored as" in n for n in together[INCOMING.index(("The API listens on port 8443.", None, None))].notes)


def test_pairs_judged_in_several_calls_decide_the_same(service, monkeypatch):
    """A batch's pairs go to the stages in bounded calls; a statement whose pairs fall in two calls keeps
    them all."""
    import guard.pipeline
    alone = [_seen(service.check(*s)) for s in INCOMING]
    monkeypatch.setattr(guard.pipeline, "PAIRS_PER_CALL", 3)
    assert [_seen(d) for d in service.check_many(INCOMING)] == alone


def test_a_bad_statement_refuses_the_whole_batch(service):
    before = service.store.count("active")
    with pytest.raises(ClaimError, match=r"^statements\[1\]: text is empty"):
        service.check_many([("Backups run daily.", None, None), ("   ", None, None)])
    with pytest.raises(ClaimError, match="^text is empty"):
        service.check("   ")
    with pytest.raises(ClaimError):
        service.check_many([("Backups run daily.", None, {"valid_from": "2025-13-01"})])
    assert service.store.count("active") == before
    assert service.check_many([]) == []
