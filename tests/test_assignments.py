"""A thing given to one party (its owner, where it is escalated, whom a team reports to) is read from
the parse (real spaCy model) and two parties for one thing conflict. Before, "The payments team owns
the billing-api." / "The platform team owns the billing-api." only warned: two subjects, and the
cross-encoder reads two owners as compatible."""
import pytest

from guard.claims import Assignment, Norm, Scope, Window
from guard.compare import Confidence, StructuralComparator, VerdictKind


@pytest.mark.parametrize("text, relation, party, thing", [
    ("The payments team owns the billing-api.", "owner", "payment team", ("billing-api",)),
    ("The billing-api is owned by the payments team.", "owner", "payment team", ("billing-api",)),
    ("The payments team is the owner of the billing-api.", "owner", "payment team", ("billing-api",)),
    ("Security incidents are escalated to the CISO.", "escalation", "ciso", ("security", "incident")),
    ("The SRE team reports to the VP of Engineering.", "manager", "vp engineering", ("sre", "team")),
    ("The release manager is accountable for the release notes.", "responsible", "release manager", ("release", "note")),
    ("The platform team maintains the billing-api.", "maintainer", "platform team", ("billing-api",)),
])
def test_who_is_given_a_thing_is_read(normalizer_v2, text, relation, party, thing):
    assert normalizer_v2.normalize(text, Scope(), Window()).assignment == Assignment(relation, party, thing)


@pytest.mark.parametrize("text", [
    "The payments team does not own the billing-api.",    # negated
    "Each team owns its on-call rotation.",               # a thing per party
    "The service reports errors to Sentry.",              # reporting data, not a reporting line
    "The codebase maintains 70% test coverage.",         # keeps a level: no maintainer of a thing
    "It is owned by them.",
])
def test_statements_that_give_no_thing_to_one_party_have_no_assignment(normalizer_v2, text):
    assert normalizer_v2.normalize(text, Scope(), Window()).assignment is None


def test_an_assignment_survives_the_round_trip_and_old_norms_read_without_one(normalizer_v2):
    n = normalizer_v2.normalize("The billing-api is owned by the payments team.", Scope(), Window())
    assert Norm.from_dict(n.to_dict()) == n
    old = n.to_dict()
    del old["assignment"]                     # a norm a store kept before session 56
    assert Norm.from_dict(old).assignment is None


@pytest.mark.parametrize("existing, incoming, kind, confidence", [
    ("The payments team owns the billing-api.", "The platform team owns the billing-api.",
     VerdictKind.VALUE_CONFLICT, Confidence.HIGH),
    ("The payments team owns the billing-api.", "The billing-api is owned by the platform team.",
     VerdictKind.VALUE_CONFLICT, Confidence.HIGH),
    ("The payments team owns the billing-api.", "The billing-api is owned by the payments team.",
     VerdictKind.CONSISTENT, Confidence.HIGH),
    ("The payments team owns the billing-api.", "The payments team owns the invoice-worker.",
     VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Incidents are escalated to the SRE lead.", "Incidents are escalated to the engineering manager.",
     VerdictKind.VALUE_CONFLICT, Confidence.HIGH),
    # a duty may be shared: the conflict is the gate's to weigh
    ("The SRE team is responsible for the status page.", "Customer support is responsible for the status page.",
     VerdictKind.VALUE_CONFLICT, Confidence.MED),
])
def test_two_parties_for_one_thing_conflict(normalizer_v2, existing, incoming, kind, confidence):
    a = normalizer_v2.normalize(existing, Scope(), Window())
    b = normalizer_v2.normalize(incoming, Scope(), Window())
    for x, tx, y, ty in ((a, existing, b, incoming), (b, incoming, a, existing)):
        v = StructuralComparator().compare(x, tx, y, ty)
        assert (v.kind, v.confidence) == (kind, confidence), v.reason


def test_a_store_refuses_a_second_owner(tmp_path):
    """Through the default guard (real spaCy, cross-encoder and learned gate) on a real SQLite file."""
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    s = GuardService(tmp_path / "claims.sqlite", guard=Guard(GuardConfig()))
    try:
        assert s.remember("The payments team owns the billing-api.").stored
        again = s.remember("The billing-api is owned by the payments team.")
        assert again.stored and again.decision.tier.value == "clean", again.decision.reasons
        other = s.remember("The platform team owns the billing-api.")
        assert not other.stored and other.decision.tier.value == "block", other.decision.reasons
        assert "its owner is 'payment team' in one claim and 'platform team'" in " ".join(other.decision.reasons)
    finally:
        s.close()
