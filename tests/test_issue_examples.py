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


@pytest.fixture(scope="module")
def default_guard():
    from guard.pipeline import Guard, GuardConfig
    return Guard(GuardConfig())


@pytest.mark.parametrize("existing, incoming, tier", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_the_issue_examples_land_on_their_tier(default_guard, existing, incoming, tier):
    from guard.claims import Claim
    [j] = default_guard.judge_pairs(default_guard.pair_items([(Claim(text=existing), Claim(text=incoming))]))
    assert j.tier.value == tier, j.reason
