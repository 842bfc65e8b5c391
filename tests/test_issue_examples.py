"""The accuracy issue's own examples through the default guard (real spaCy, real cross-encoder):
each must land on the tier the issue asks for. They were written by the issue's author, not drawn
from the benchmark sets, so they check the design cases without tuning to benchmark items."""
import pytest

EXAMPLES = [
    ("Out of the box, the scheduler retries a failed job three times.",
     "By default the scheduler retries failed jobs five times before giving up.", "block"),
    ("The default value of max_connections is 151.", "MySQL ships with max_connections set to 100.", "block"),
    ("The on-call stipend is $300 per week.", "On-call engineers get $250/week for carrying the pager.", "block"),
    ("Node 18 reached end of life on 2025-04-30.", "Node 18 is supported until April 2026.", "block"),
    ("Contractors must not have production database access.",
     "Contractors on the data team can query the production database directly.", "block"),
    ("If you travel for a customer visit, the company pays for your hotel.",
     "Hotel stays on customer trips are never reimbursed, even when sales asks you to go.", "block"),
    ("Production deploys must be approved by two reviewers.", "Production deploys must not require approval.", "block"),
    ("Secrets are stored in Vault.", "Secrets are stored in AWS Secrets Manager.", "block"),
    ("Releases are paused during the holiday freeze.", "Releases are permitted during the holiday freeze.", "block"),
    ("Database migrations must be reviewed by a DBA.", "Database migrations never need a DBA review.", "block"),
    ("The cache listens on port 6379.", "The cache does not listen on port 6380.", "clean"),
    ("Verbose tracing is on in staging.", "Verbose tracing is off in production.", "clean"),
    ("X preserves ordering and rejects null keys.", "X preserves ordering.", "clean"),
]


def judged(guard, existing: str, incoming: str):
    """The guard's judgement of one pair, as a write or a scan would give it."""
    from guard.claims import Claim
    [j] = guard.judge_pairs(guard.pair_items([(Claim(text=existing), Claim(text=incoming))]))
    return j


@pytest.fixture(scope="module")
def default_guard():
    from guard.pipeline import Guard, GuardConfig
    return Guard(GuardConfig())


@pytest.mark.parametrize("existing, incoming, tier", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_the_issue_examples_land_on_their_tier(default_guard, existing, incoming, tier):
    j = judged(default_guard, existing, incoming)
    assert j.tier.value == tier, j.reason


def test_a_statement_against_itself_is_clean_and_costs_no_nli(default_guard, monkeypatch):
    """The claim-tuned cross-encoder calls "The catalog-api-10 runs 8 replicas." a contradiction of
    itself (p 0.81), and the gate used to block it; structure now decides a claim said twice."""
    from guard.claims import Claim
    gate = default_guard.nli_gate
    calls = []
    real = gate.scorer.predict
    monkeypatch.setattr(gate.scorer, "predict", lambda pairs, **kw: calls.append(list(pairs)) or real(pairs, **kw))
    texts = ["The catalog-api-10 runs 8 replicas.", "The auth-service-5 uses Python 3.12.",
             "Production deploys must be approved by two reviewers."]
    js = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=t), Claim(text=t.lower())) for t in texts]))
    assert [j.tier.value for j in js] == ["clean"] * 3 and calls == []
    [j] = default_guard.judge_pairs(default_guard.pair_items(
        [(Claim(text=texts[2]), Claim(text="Production deploys must not require approval."))]))
    assert j.tier.value == "block"


def test_remembering_a_claim_twice_in_a_store_is_a_clean_write(default_guard, tmp_path):
    from guard.service import GuardService
    svc = GuardService(tmp_path / "claims.sqlite", guard=default_guard)
    try:
        first = svc.remember("The catalog-api-10 runs 8 replicas.")
        again = svc.remember("The catalog-api-10 runs 8 replicas.")
        assert first.decision.tier.value == "clean" and again.decision.tier.value == "clean", again.decision
        assert not again.stored and again.duplicate_of == first.claim.id       # nothing new stored (session 34)
        recased = svc.remember("the catalog-api-10 runs 8 replicas")          # not word for word: structure decides
        assert recased.stored and recased.decision.tier.value == "clean", recased.decision
    finally:
        svc.close()


def test_unrelated_statements_that_share_a_word_are_not_blocked(default_guard):
    """Two statements of one field that share only a word ("operator", "service") and say unrelated
    things: the claim-tuned cross-encoder calls them contradictory (gate p 0.91–0.93) and they used
    to block. Their texts are less alike than 99 % of the real contradictions the gate was fitted on,
    so they are capped at warn, and the reason says so; a real contradiction still blocks."""
    from guard.claims import Claim
    pairs = [("The CA operator MUST disclose each intermediate certificate in the registry within 7 days of its creation.",
              "The ~> operator allows only the rightmost version component to increment, so ~> 1.4.2 allows 1.4.7 "
              "but not 1.5.0."),
             ("Python services in the payments repo run black with line-length = 100, which is our enforced maximum.",
              "If a client sends back an etag that does not match the current one, the service must send an ABORTED error."),
             ("Contractors must not have production database access.",
              "Contractors on the data team can query the production database directly.")]
    js = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=a), Claim(text=b)) for a, b in pairs]))
    assert [j.tier.value for j in js] == ["warn", "warn", "block"], [j.reason for j in js]
    for j in js[:2]:
        # where the gate alone would block, the floor caps it and the reason says so (since session 72 the first pair's
        # "CA operator" is people, so the statement is about what they disclose, and the gate itself stays under block)
        if j.nli.gates["p_gate"]["contradiction"] >= j.nli.gates["thresholds"]["block"]:
            assert "similarity floor" in j.nli.reason
    assert js[1].nli.gates["p_gate"]["contradiction"] >= js[1].nli.gates["thresholds"]["block"]
    # what a user reads (the CLI line, a 409's reasons, a scan report) is the deciding stage's reason:
    # a gate decision gave the structural verdict's ("different subjects") until session 33
    for j in js:
        assert j.stage == "gate" and j.reason == j.nli.reason == j.to_dict()["reason"]
        assert j.reason.startswith("learned gate: p(contradiction)")
    assert "similarity floor" in js[1].reason and js[1].verdict.reason not in js[1].reason


def test_a_structural_block_on_a_one_word_subject_needs_alike_texts(default_guard):
    """Scanned as one store, statements of unrelated documents met on a one-word common subject and
    structure blocked them at HIGH ("decision": 14 calendar days / at least six weeks). Where the texts
    are less alike than the candidate search's neighbour floor, the learned gate decides instead,
    reading the verdict at MED; alike texts on the same one-word subject still block by structure,
    even where the cross-encoder sees no conflict (NLI 0.02 on the approvals pair)."""
    from guard.claims import Claim
    from guard.compare import Confidence
    pairs = [("A decision on your flexible working request will be made and communicated to you within 14 calendar days.",
              "Decisions on requests to join Django's security notification list take at least six weeks."),
             ("At least one approval is required before merging.", "At least two approvals are required before merging.")]
    unlike, alike = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=a), Claim(text=b)) for a, b in pairs]))
    assert unlike.stage == "gate" and unlike.verdict.confidence is Confidence.MED, unlike.reason
    assert "one common word" in unlike.verdict.reason and unlike.nli is not None
    assert (alike.tier.value, alike.stage, alike.verdict.confidence) == ("block", "structural", Confidence.HIGH)


def test_numbered_things_environments_and_times_of_day(default_guard):
    """Agents' short claims about numbered things: structure called "Shard 4 holds 200 GB." and
    "Shard 5 holds 300 GB." one subject with two values (HIGH block), and without that the
    claim-tuned model gives such pairs p(contradiction) ~1.0; a number after the noun is a name now,
    and different names are different things. The same numbered thing with two values still blocks."""
    from guard.claims import Claim
    pairs = [("Shard 4 holds 200 GB.", "Shard 5 holds 300 GB.", "clean"),
             ("Database 1 is backed up nightly.", "Database 2 is backed up nightly.", "clean"),
             ("Worker pool 1 runs 8 threads.", "Worker pool 2 runs 16 threads.", "clean"),
             ("Level 2 support responds within 4 hours.", "Level 1 support responds within 1 hour.", "clean"),
             ("The staging cluster runs 3 nodes.", "The production cluster runs 5 nodes.", "clean"),
             ("Backups run at 14:00 UTC.", "Backups run at 2 p.m. UTC.", "clean or warn"),   # structure: same value (MED)
             ("The nightly job starts at 1am.", "The nightly job starts at 3am.", "block"),
             ("Shard 4 holds 200 GB.", "Shard 4 holds 300 GB.", "block")]
    js = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=a), Claim(text=b)) for a, b, _ in pairs]))
    assert all(j.tier.value in t.split(" or ") for j, (_, _, t) in zip(js, pairs)), [j.reason for j in js]


def test_per_plan_and_per_region_siblings(default_guard):
    """Session 37: "Customers on the Basic tier get 10 GB …" / "… on the Premium tier get 100 GB …"
    was a HIGH structural block, and pairs structure left to the gate were blocked at p ~0.99. Texts
    that name different variants of one kind (plans, tiers, editions, regions) coexist; the same
    variant with two values still blocks, and so does a text that says what holds *only* for its
    variant (or environment: "… only in staging" / "… in production" coexisted before)."""
    from guard.claims import Claim
    pairs = [("Customers on the Basic tier get 10 GB of storage.", "Customers on the Premium tier get 100 GB of storage.", "clean"),
             ("Users on the Free plan can create 5 projects.", "Users on the Pro plan can create 50 projects.", "clean"),
             ("On the Free plan, API calls are limited to 1000 per day.",
              "On the Enterprise plan, API calls are limited to 100000 per day.", "clean"),
             ("Data in the EU region is stored in Frankfurt.", "Data in the US region is stored in Virginia.", "clean"),
             ("For the Hobby plan, builds time out after 45 minutes.", "For the Pro plan, builds time out after 60 minutes.", "clean"),
             ("Customers on the Basic tier get 10 GB of storage.", "Customers on the Basic tier get 20 GB of storage.", "block"),
             ("Customers on the Basic tier get 10 GB of storage.", "Basic-tier customers get 20 GB of storage.", "block"),
             # what holds only for one variant or environment speaks of the others too
             ("Only the Enterprise plan includes SSO.", "The Pro plan includes SSO.", "block"),
             ("Debug builds run only in staging.", "Debug builds run in production.", "block"),
             # a product's versions
             ("Python 3.11 is supported until October 2027.", "Python 3.12 is supported until October 2028.", "clean"),
             ("Our API v1 is rate limited to 100 requests per minute.",
              "Our API v2 is rate limited to 500 requests per minute.", "clean"),
             ("Python 3.11 is the minimum supported version.", "Python 3.12 is the minimum supported version.", "block"),
             ("TLS 1.2 is required for all connections.", "TLS 1.3 is required for all connections.", "block")]
    js = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=a), Claim(text=b)) for a, b, _ in pairs]))
    assert [j.tier.value for j in js] == [t for _, _, t in pairs], [j.reason for j in js]


ASPECTS = [   # short claims agents write: a stated value of one thing against a rule about another of its aspects
    ("The gateway-cron-0 listens on port 80.", "The gateway-cron-0 must share its database with other services.", "clean"),
    ("The search-db-0 listens on port 5432.", "The search-db-0 must expose the admin endpoint publicly.", "clean"),
    ("The catalog-worker-1 requires TLS 1.2.", "The catalog-worker-1 must call internal APIs without authentication.", "clean"),
    # a region against a rule about the day (the last four false blocks of the short-claim store): two
    # values of different kinds
    ("The auth-db-0 is deployed in eu-central-1.", "The auth-db-0 must not deploy on Fridays.", "clean"),
    ("The catalog-api-0 is deployed in us-west-2.", "The catalog-api-0 must deploy on Fridays.", "clean"),
    # the same of a subject read from prose: a sure block of the gate is capped at warn, not cleared
    ("The staging database is backed up nightly.", "The staging database must not contain production data.", "warn"),
    # the same subjects, one aspect: still blocked
    ("Production deploys are not allowed on Fridays.", "Production deploys are allowed on Fridays.", "block"),
    ("The gateway-cron-0 listens on port 80.", "The gateway-cron-0 listens on port 8080.", "block"),
    ("The gateway-cron-0 listens on port 80.", "The gateway-cron-0 must not listen on port 80.", "block"),
    ("The catalog-worker-1 requires TLS 1.2.", "The catalog-worker-1 must not require TLS.", "block"),
]


@pytest.mark.parametrize("existing, incoming, tier", ASPECTS, ids=[f"aspect{i}" for i in range(len(ASPECTS))])
def test_a_value_and_a_rule_about_another_aspect_are_not_flagged_while_one_aspect_still_blocks(default_guard, existing,
                                                                                                 incoming, tier):
    """The claim-tuned model scores the first three p(contradiction) ≈ 1.0 (the short-claim store's
    false blocks: 53 of 2,000 claims before the cap, 4 after); the gate's learned p stays high, so
    the cap, not the model, decides. Two facts about one named component are clean whatever the gate
    says (its sure blocks were capped at warn until session 52: 304 false warns in the 2,000-claim store);
    about a subject read from prose, a sure block is capped at warn and an unsure warn is lowered to clean
    — which of the two depends on where a refitted gate puts p, so that case follows the gate's answer."""
    j = judged(default_guard, existing, incoming)
    if tier == "clean":
        assert j.tier.value == "clean", j.reason
        assert "two facts about one" in j.reason, j.reason
        return
    if tier == "warn":
        sure = j.nli.gates["p_gate"]["contradiction"] >= j.nli.gates["thresholds"]["block"]
        assert j.tier.value == ("warn" if sure else "clean"), j.reason
        assert ("different aspects" if sure else "two facts about one thing") in j.reason, j.reason
        return
    assert j.tier.value == tier, j.reason


def test_addresses_places_and_bounds_in_short_claims(default_guard):
    """Session 40: "sent from noreply@example.com" / "sent through SendGrid" was blocked (NLI 1.00;
    neither had a value), "CI runs on GitHub Actions." / "… on Jenkins." was a warn (NLI 0.11), and
    "must not exceed 10 days" / "can be 5 days" a block ("not" read as the claim's negation, 10 as an
    exact value). Bounds, ranges, addresses and named places are values now."""
    from guard.claims import Claim
    pairs = [("Emails to customers must be sent from noreply@example.com.", "Emails to customers are sent through SendGrid.",
              "clean or warn"),
             ("Emails to customers must be sent from noreply@example.com.",
              "Emails to customers must be sent from support@example.com.", "block"),
             ("CI runs on GitHub Actions.", "CI runs on Jenkins.", "block"),
             ("PTO requests must not exceed 10 days.", "PTO requests may be up to 15 days.", "block"),
             ("Passwords must be not less than 12 characters.", "Passwords must be at least 12 characters.", "clean"),
             ("The backup retention period can be set to between 0 and 35 days.", "The backup retention period is six weeks.",
              "block"),
             ("The backup retention period can be set to between 0 and 35 days.",
              "The backup retention period can be anywhere from zero to five weeks.", "clean")]
    js = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=a), Claim(text=b)) for a, b, _ in pairs]))
    assert all(j.tier.value in t.split(" or ") for j, (_, _, t) in zip(js, pairs)), [(j.tier.value, j.reason) for j in js]


def test_a_configured_value_against_a_default_is_no_block_unless_it_breaks_a_stated_limit(default_guard):
    """A default is there to be overridden: "Our API gateway sets the request timeout to 60 seconds."
    does not contradict "The default request timeout is 30 seconds." (the model says 1.00). A value
    past a limit the same statement gives, or two statements of the default, still block."""
    default = "The default request timeout is 30 seconds."
    assert judged(default_guard, default, "Our API gateway sets the request timeout to 60 seconds.").tier.value != "block"
    assert judged(default_guard, "The default request timeout is 30 seconds, and the maximum is 60 seconds.",
                  "Our API gateway sets the request timeout to 90 seconds.").tier.value == "block"
    assert judged(default_guard, default, "The request timeout defaults to 60 seconds.").tier.value == "block"
