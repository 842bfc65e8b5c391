"""A rule and a statement about the case its exception leaves out (``guard.excepted_cases``): no conflict, decided by
structure before any model sees the pair; a statement that says the rule's own thing of that case, or speaks of
another case, is left to the other stages."""
import pytest
from conftest import structural_verdict as _verdict

from guard.claims import Modality, Scope, Window
from guard.compare import Confidence, VerdictKind
from guard.excepted_cases import excepted_case


@pytest.mark.parametrize("rule, case, exception", [
    ("Deploys are not allowed on Fridays, except for hotfixes.", "Hotfixes can be deployed on Fridays.",
     "except for hotfixes"),
    # the exception's bound holds for the case's value ("a $10 taxi ride" is under $25)
    ("All expenses require a receipt, except those under $25.", "A $10 taxi ride can be expensed without a receipt.",
     "except those under $25"),
    # an opposing modality at HIGH before: "cannot access production" / "can access production"
    ("Contractors cannot access production, except during on-call.", "Contractors on call can access production.",
     "except during on-call"),
    ("Code must be reviewed before merging, except for documentation changes.",
     "Documentation changes can be merged without review.", "except for documentation changes"),
    ("Do not deploy on Friday afternoons unless it is a security hotfix.", "Security hotfixes may be deployed on Friday.",
     "unless it is a security hotfix"),
])
def test_a_statement_about_the_excepted_case_agrees_with_the_rule(normalizer_v2, rule, case, exception):
    for a, b in ((rule, case), (case, rule)):
        v = _verdict(normalizer_v2, a, b)
        assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH), v
        assert exception in v.reason, v


@pytest.mark.parametrize("rule, other", [
    # another case than the excepted one: the rule's own conflict, left to the other stages
    ("Deploys are not allowed on Fridays, except for hotfixes.", "Feature releases can go out on Fridays."),
    # the exception's bound does not hold ("a $40 dinner" is not under $25)
    ("All expenses require a receipt, except those under $25.", "A $40 dinner can be expensed without a receipt."),
    # the rule's own stance on the excepted case goes against the exception, not the rule: not settled here
    ("Deploys are not allowed on Fridays, except for hotfixes.", "Hotfixes must not be deployed on Fridays."),
    # the case named, but nothing of the rule: two statements about other things
    ("Contractors cannot access production, except during on-call.", "The on-call rota changes every Monday."),
    # an exception that names no case
    ("Backups are retained for 30 days unless otherwise specified.", "Backups may be kept for 90 days."),
])
def test_other_statements_are_not_the_excepted_case(normalizer_v2, rule, other):
    na, nb = (normalizer_v2.normalize(t, Scope(), Window()) for t in (rule, other))
    assert excepted_case(na, rule, nb, other) is None
    assert excepted_case(nb, other, na, rule) is None
    assert "excepts" not in _verdict(normalizer_v2, rule, other).reason


def test_a_statement_with_no_modality_is_no_rule(normalizer_v2):
    na = normalizer_v2.normalize("Deploys are not allowed on Fridays, except for hotfixes.", Scope(), Window())
    nb = normalizer_v2.normalize("Hotfixes can be deployed on Fridays.", Scope(), Window())
    from dataclasses import replace
    assert excepted_case(replace(na, modality=Modality.UNKNOWN), "Deploys are not allowed on Fridays, except for "
                         "hotfixes.", nb, "Hotfixes can be deployed on Fridays.") is None


def test_the_exception_and_the_case_in_other_forms_of_one_word(normalizer_v2):
    """Found on a held pair (session 93): "approves" in the exception, "approval" in the case."""
    rule = "Unless the on-call engineer approves it, no production deploy may start after 4pm on a Friday."
    case = "Production deploys can start at 5pm on Fridays with the on-call engineer's approval."
    v = _verdict(normalizer_v2, rule, case)
    assert v.kind is VerdictKind.CONSISTENT and "excepts" in v.reason, v
    v = _verdict(normalizer_v2, rule, "Production deploys can start at 5pm on Fridays.")
    assert v.kind is VerdictKind.CONTRADICTION, v
