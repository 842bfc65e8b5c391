"""A requirement and its restatement as what cannot happen without it (``guard.restated_requirements``): no conflict,
decided by structure before the cross-encoder, which read the restatement's negation as a denial (p ≈ 1.0), sees the
pair; a statement that lets the thing happen without the requirement, or says it with another number, is left to the
other stages."""
import pytest
from conftest import structural_verdict as _verdict

from guard.compare import Confidence, VerdictKind
from guard.restated_requirements import restated_requirement


@pytest.mark.parametrize("rule, restated, required", [
    ("Production deploys require a passing CI run.", "A deploy to production cannot start without a green CI run.",
     "a passing CI run"),
    # the requirement first, "without" inside the subject, "until", "unless", "nobody"
    ("Every pull request needs a linked ticket.", "Pull requests without a ticket are not merged.", "a linked ticket"),
    ("A signed NDA is mandatory before vendor onboarding.", "No vendor is onboarded until the NDA is signed.",
     "A signed NDA"),
    ("VPN is required to reach the admin console.", "You cannot open the admin console unless you are on the VPN.",
     "VPN"),
    ("Badge access is required to enter the server room.", "Nobody enters the server room without a badge.",
     "Badge access"),
    ("Laptops must have full-disk encryption.", "Laptops without disk encryption are not allowed on the network.",
     "full-disk encryption"),
    # a denial in a contraction
    ("Every pull request needs a linked ticket.", "Pull requests without a ticket aren't merged.", "a linked ticket"),
    # "only after" says it without a negation
    ("A code owner review is required for infra changes.", "Infra changes are merged only after a code owner reviews them.",
     "A code owner review"),
])
def test_a_restated_requirement_agrees_with_it(normalizer_v2, rule, restated, required):
    assert restated_requirement(rule, restated) == required
    for a, b in ((rule, restated), (restated, rule)):
        v = _verdict(normalizer_v2, a, b)
        assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH), v
        assert required in v.reason, v


@pytest.mark.parametrize("rule, other", [
    # the thing allowed without the requirement: the opposite, left to the other stages
    ("VPN is required to reach the admin console.", "The admin console can be reached without the VPN."),
    ("A signed NDA is mandatory before vendor onboarding.", "Vendors can be onboarded before they sign an NDA."),
    # a requirement taken back is none
    ("Deploys do not require a passing CI run.", "Deploys cannot start without a green CI run."),
    ("Deploys don't require a passing CI run.", "Deploys cannot start without a green CI run."),
    # another number of the thing required
    ("Production deploys need two approvals.", "Production deploys cannot go out without one approval."),
    # what is denied without it is another thing
    ("Production deploys require a passing CI run.", "Nobody enters the server room without a badge."),
    # the thing it cannot do without is another
    ("Every pull request needs a linked ticket.", "Pull requests without a review are not merged."),
])
def test_other_statements_are_no_restatement(normalizer_v2, rule, other):
    assert restated_requirement(rule, other) is None
    assert restated_requirement(other, rule) is None
    assert "cannot happen without" not in _verdict(normalizer_v2, rule, other).reason
