"""Two subjects told apart by contrasting modifiers (``guard.contrasting_kinds``): two kinds of one thing, each with its
own rule, which the structural compare calls coexisting before the cross-encoder (p 1.00 on such pairs) sees them; a
statement that speaks of the other kind too, or two modifiers outside the closed set, is left to the other stages —
unless the two statements say one thing of each, a value apiece (one rule written out for two members of a kind)."""
import pytest
from conftest import structural_verdict as _verdict

from guard.compare import VerdictKind
from guard.contrasting_kinds import contrasting_kinds


@pytest.mark.parametrize("a, b, kinds", [
    ("free account", "paid account", ("free", "paid")),
    ("major version", "minor version", ("major", "minor")),
    ("annual billing", "monthly billing", ("annual", "monthly")),
    ("daily backup", "weekly backup", ("daily", "weekly")),
    ("premium support", "standard support", ("premium", "standard")),
])
def test_contrasting_modifiers_of_one_head_are_two_kinds(a, b, kinds):
    assert contrasting_kinds(a, b, a, b) == kinds


@pytest.mark.parametrize("a, b", [
    ("search endpoint", "upload endpoint"),          # two things, but no contrast the table knows: left to the gate
    ("free account", "paid plan"),                   # another head
    ("free account", "account"),                     # one kind of the other
    ("free trial account", "paid account"),          # more than the contrast apart
    (None, "paid account"),
])
def test_what_is_no_contrast_of_kinds(a, b):
    assert contrasting_kinds(a, b, a or "", b or "") is None


ALIKE = (frozenset({"allow", "request"}), frozenset({"allow", "request"}))


def test_any_modifiers_of_one_head_are_two_kinds_where_one_thing_is_said_of_each():
    a, b = "The search endpoint allows 10 requests per second.", "The upload endpoint allows 2 requests per second."
    assert contrasting_kinds("search endpoint", "upload endpoint", a, b, ALIKE) == ("search", "upload")
    assert contrasting_kinds("password reset email", "verification email", a, b, ALIKE) == ("password reset", "verification")
    # what the two say differs: not one rule written out twice
    assert contrasting_kinds("search endpoint", "upload endpoint", a, b,
                             (frozenset({"allow", "request"}), frozenset({"log", "body", "request"}))) is None
    # one kind of the other, and a rule for every member of the kind
    assert contrasting_kinds("endpoint", "upload endpoint", a, b, ALIKE) is None
    # an environment against another kind of qualifier: production servers may be public ones
    assert contrasting_kinds("production web server", "public web server", a, b, ALIKE) is None
    # a limit for every member against one member's
    assert contrasting_kinds("maximum message size", "billing queue message size", a, b, ALIKE) is None
    # nothing but a value said of each is alike too ("The recovery time objective is 4 hours." / "… point … is 1h.")
    assert contrasting_kinds("recovery time objective", "recovery point objective", a, b,
                             (frozenset(), frozenset())) == ("time", "point")
    # one qualifier in two spellings
    assert contrasting_kinds("eu customer datum", "european customer datum", a, b, ALIKE) is None
    assert contrasting_kinds("api endpoint", "upload endpoint", "Every API endpoint allows 10 requests per second.", b,
                             ALIKE) is None


@pytest.mark.parametrize("a, b", [
    ("The billing queue holds messages for 4 days.", "The email queue holds messages for 14 days."),
    ("Write requests time out after 5 seconds.", "Read requests time out after 30 seconds."),
    ("The invoice service uses 4 workers.", "The report service may use 16 workers."),
    ("Free accounts get 100 API calls per day.", "Paid accounts get 10,000 API calls per day."),
    ("Major versions are released once a year.", "Minor versions are released every month."),
    ("Annual billing gives a 20% discount.", "Monthly billing has no discount."),
])
def test_two_kinds_with_their_own_rules_coexist(normalizer_v2, a, b):
    v = _verdict(normalizer_v2, a, b)
    assert v.kind is VerdictKind.COEXIST and "kinds apart" in v.reason, v


@pytest.mark.parametrize("a, b", [
    # an "only" rules the other kind out, "first" orders the two, "also" says one holds what the other does
    ("Only paid accounts can use the API.", "Free accounts can use the API."),
    ("Page the primary on-call first.", "Always page the secondary on-call first."),
    ("Free accounts also get 10,000 API calls per day.", "Paid accounts get 10,000 API calls per day."),
    # a rule for each member of the kind against one of them
    ("Every API endpoint allows 100 requests per minute.", "The export endpoint allows 10 requests per minute."),
    ("Each on-call rotation has at least three engineers.", "The payments rotation has two engineers."),
])
def test_a_statement_that_speaks_of_the_other_kind_is_left_to_the_other_stages(normalizer_v2, a, b):
    v = _verdict(normalizer_v2, a, b)
    assert "kinds apart" not in v.reason, v
