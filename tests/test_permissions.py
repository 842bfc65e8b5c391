"""Rules about who may act: the actor is read (real spaCy model) and decides pairs of rules on one
action. Before, "Only admins can delete projects." / "Admins can delete projects." was blocked (the
cross-encoder reads "only" as a contradiction) and "Only the security team may rotate production
keys." / "Developers may rotate production keys." only warned (different subjects)."""
import pytest

from guard.claims import Norm, Permission, Scope, Window
from guard.compare import Confidence, StructuralComparator, VerdictKind


@pytest.mark.parametrize("text, actor, action, allowed, only, everyone", [
    ("Only admins can delete projects.", "admin", ("delete", "project"), True, True, False),
    ("Projects can only be deleted by admins.", "admin", ("delete", "project"), True, True, False),
    ("No one except admins can delete projects.", "admin", ("delete", "project"), True, True, False),
    ("Any member can delete projects.", "member", ("delete", "project"), True, False, True),
    ("Regular members cannot delete projects.", "regular member", ("delete", "project"), False, False, False),
    ("Nobody may push directly to main.", "anyone", ("main", "push"), False, False, True),
    ("Only owners are allowed to change billing settings.", "owner", ("billing", "change", "setting"), True, True, False),
    ("Contractors do not have write access to the production database.", "contractor",
     ("access", "database", "production", "write"), False, False, False),
    ("Only the on-call engineer may restart the payment service.", "on-call engineer",
     ("payment", "restart", "service"), True, True, False),
    # the rule's conditions and whose it is are not the action
    ("Customers can cancel their subscription at any time.", "customer", ("cancel", "subscription"), True, False, False),
])
def test_the_actor_of_a_permission_is_read(normalizer_v2, text, actor, action, allowed, only, everyone):
    p = normalizer_v2.normalize(text, Scope(), Window()).permission
    assert (p.actor, p.action, p.allowed, p.only, p.everyone) == (actor, action, allowed, only, everyone)


@pytest.mark.parametrize("text", [
    "Admins must approve deploys.",          # an obligation, not a permission
    "It can be deleted.",                    # no actor
    "Only example.com mail is allowed.",     # "only" keeps a value, not an actor
    "The API listens on port 8443.",
])
def test_statements_that_grant_no_action_to_an_actor_have_no_permission(normalizer_v2, text):
    assert normalizer_v2.normalize(text, Scope(), Window()).permission is None


def test_a_permission_survives_the_round_trip_and_old_norms_read_without_one(normalizer_v2):
    n = normalizer_v2.normalize("Only the security team may rotate production keys.", Scope(), Window())
    assert n.permission == Permission("security team", ("key", "production", "rotate"), True, True, False, "rotate")
    assert Norm.from_dict(n.to_dict()) == n
    old = n.to_dict()
    del old["permission"]                     # a norm a store kept before session 56
    assert Norm.from_dict(old).permission is None


@pytest.mark.parametrize("existing, incoming, kind, confidence", [
    ("Only admins can delete projects.", "Admins can delete projects.", VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Only admins can delete projects.", "Developers can delete projects.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    ("Only admins can delete projects.", "Any member can delete projects.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    ("Only admins can delete projects.", "Members cannot delete projects.", VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Only admins can delete projects.", "Admins cannot delete projects.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    ("Only admins can delete projects.", "Only owners can delete projects.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    ("Only admins can delete projects.", "Senior admins can delete projects.", VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Nobody may push to main.", "Only release managers may push to main.", VerdictKind.CONTRADICTION, Confidence.HIGH),
    ("Editors can modify dashboards.", "Viewers cannot modify dashboards.", VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Admins can delete projects.", "Owners can delete projects.", VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Regular members cannot delete projects.", "Contractors may not delete projects.", VerdictKind.CONSISTENT,
     Confidence.HIGH),
    ("Engineers can deploy to production.", "Junior engineers cannot deploy to production.",
     VerdictKind.UNCERTAIN, Confidence.LOW),
    ("Anyone can delete projects.", "Contractors cannot delete projects.", VerdictKind.CONTRADICTION, Confidence.MED),
    # one action the other's with more said: the same verdict, less sure
    ("Only the CI pipeline can push images to the production registry.",
     "Developers can push images to the production registry from their laptops.",
     VerdictKind.CONTRADICTION, Confidence.MED),
    # different verbs on one thing: opposing stances are no opposition for structure to decide
    ("Only admins can delete projects.", "Any member can create projects.", VerdictKind.UNCERTAIN, Confidence.LOW),
    # one actor allowed two things: no rule on either keeps it from the other
    ("Only owners can archive repositories.", "Owners can transfer repositories.", VerdictKind.CONSISTENT, Confidence.HIGH),
    ("Managers can approve expenses.", "Managers can reject expenses.", VerdictKind.CONSISTENT, Confidence.HIGH),
])
def test_the_actors_decide_a_pair_of_rules_on_one_action(normalizer_v2, existing, incoming, kind, confidence):
    a = normalizer_v2.normalize(existing, Scope(), Window())
    b = normalizer_v2.normalize(incoming, Scope(), Window())
    for x, tx, y, ty in ((a, existing, b, incoming), (b, incoming, a, existing)):     # either order
        v = StructuralComparator().compare(x, tx, y, ty)
        assert (v.kind, v.confidence) == (kind, confidence), v.reason


def test_a_grant_of_limited_access_is_no_second_action_allowed(normalizer_v2):
    # "read-only access" is a limit that "can edit" breaks: not two things allowed to one actor
    existing, incoming = "Contractors get read-only access to Jira.", "Contractors can edit Jira tickets."
    v = StructuralComparator().compare(normalizer_v2.normalize(existing, Scope(), Window()), existing,
                                       normalizer_v2.normalize(incoming, Scope(), Window()), incoming)
    assert "may do both" not in v.reason, v.reason


def test_values_that_differ_are_left_to_the_values_whatever_the_actors(normalizer_v2):
    a = normalizer_v2.normalize("Admins must not keep logs for 30 days.", Scope(), Window())
    b = normalizer_v2.normalize("Admins must not keep logs for 90 days.", Scope(), Window())
    assert a.permission.action == b.permission.action           # "for 30 days" is a term of the rule
    v = StructuralComparator().compare(a, "", b, "")
    assert "stance on it" not in v.reason and v.evidence.get("values") == ["30 days", "90 days"], v.reason


def test_disjoint_scopes_still_coexist_whatever_the_actors(normalizer_v2):
    a = normalizer_v2.normalize("Only admins can delete projects.", Scope(env="prod"), Window())
    b = normalizer_v2.normalize("Developers can delete projects.", Scope(env="dev"), Window())
    assert StructuralComparator().compare(a, "", b, "").kind is VerdictKind.COEXIST


def test_a_store_of_access_rules_takes_restatements_and_refuses_another_actor(tmp_path):
    """Through the default guard (real spaCy, cross-encoder and learned gate) on a real SQLite file."""
    from guard.pipeline import Guard, GuardConfig
    from guard.service import GuardService
    s = GuardService(tmp_path / "claims.sqlite", guard=Guard(GuardConfig()))
    try:
        assert s.remember("Only admins can delete projects.").stored
        for text in ("Admins can delete projects.", "Regular members cannot delete projects.",
                     "Contractors may not delete projects."):
            r = s.remember(text)
            assert r.stored and r.decision.tier.value == "clean", (text, r.decision.reasons)
        for text in ("Developers can delete projects.", "Only owners can delete projects.",
                     "Projects can be deleted by any member."):
            r = s.remember(text)
            assert not r.stored and r.decision.tier.value == "block", (text, r.decision.reasons)
        assert len(s.list()) == 4
    finally:
        s.close()


def test_the_written_pairs_benchmark_counts_each_set_apart(tmp_path):
    """Plumbing on four pairs with the structural guard: each kind and time of writing is its own set."""
    import json

    from benchmarks.written_pairs import run
    from guard.pipeline import Guard, GuardConfig
    rows = [("access", "design", "Only admins can delete projects.", "Admins can delete projects.", "compatible"),
            ("access", "design", "Only admins can delete projects.", "Owners can delete projects.", "contradiction"),
            ("access", "held", "Editors can edit documents.", "Guests cannot edit documents.", "compatible"),
            ("assignment", "held", "The payments team owns the billing-api.", "The platform team owns the billing-api.",
             "contradiction")]
    f = tmp_path / "pairs.jsonl"
    f.write_text("".join(json.dumps({"id": str(i), "kind": k, "written": w, "existing": {"text": a},
                                     "incoming": {"text": b}, "label": lab}) + "\n"
                         for i, (k, w, a, b, lab) in enumerate(rows)))
    report = run(f, Guard(GuardConfig(stages=("structural",))))
    assert report["sets"]["access design"] == {"pairs": 2, "right": 2, "contradictions_blocked": 1, "contradictions": 1,
                                               "compatible_clean": 1, "compatible_blocked": 0, "compatible": 1}
    assert report["sets"]["access held"]["right"] == 1 and report["sets"]["assignment held"]["right"] == 1
    assert [i["tier"] for i in report["items"]] == ["clean", "block", "clean", "block"]


def test_word_salad_of_rule_words_never_fails_a_reading(normalizer_v2):
    """The readers walk the parse of whatever is written; a statement they cannot make sense of gets
    no permission or assignment, never an unknown norm (which would drop its structure altogether)."""
    import random
    rnd = random.Random(5)
    vocabulary = ("only no one except admins can may not cannot be by owned owns the of to from in is are responsible "
                  "for escalated nobody anyone all every - ' , . ; : ( ) 5 $ % Only")
    words = vocabulary.split(" ")
    texts = [" ".join(rnd.choice(words) for _ in range(rnd.randint(1, 25))) for _ in range(400)]
    texts += ["Only", "No one except", "by by by", "Owned by.", "Nobody.", "is responsible for", "Only admins can " * 40]
    norms = normalizer_v2.normalize_many([(t, Scope(), Window()) for t in texts])
    assert [t for t, n in zip(texts, norms) if n.is_unknown] == []
