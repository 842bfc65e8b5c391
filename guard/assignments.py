"""Two statements that give things to parties: one thing, two parties, is a conflict.

Why before subjects are compared: the normalizer's subject is the first noun, the party in "The
payments team owns the billing-api." and the thing in "The billing-api is owned by …", so two
owners of one service read as two subjects. An owner, an escalation target and a team's manager
are one party each, so two parties for one thing conflict (HIGH); a maintainer or who is
responsible may be shared, so there the conflict is left to the gate (MED). One party given two
things says nothing against itself.
"""
from __future__ import annotations

from guard.claims import Norm
from guard.compare import Confidence, Verdict, VerdictKind, stems

_ONE_PARTY = {"owner", "escalation", "manager"}
_AS = {"owner": "its owner", "maintainer": "its maintainer", "responsible": "the one responsible",
       "escalation": "where it is escalated", "manager": "whom it reports to"}
_DOES = {"owner": "owns", "maintainer": "maintains", "responsible": "is responsible for",
         "escalation": "takes the escalations of", "manager": "is reported to by"}


def assignment_verdict(a: Norm, b: Norm) -> Verdict | None:
    x, y = a.assignment, b.assignment
    if x is None or y is None or x.relation != y.relation:
        return None
    tx, ty = stems(x.thing), stems(y.thing)
    same_party = stems(x.party.split()) == stems(y.party.split())
    ev = {"relation": x.relation, "parties": [x.party, y.party], "things": [" ".join(x.thing), " ".join(y.thing)]}
    if tx == ty:
        if same_party:
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH, f"both name '{x.party}' as {_AS[x.relation]}", ev)
        sure = Confidence.HIGH if x.relation in _ONE_PARTY else Confidence.MED
        return Verdict(VerdictKind.VALUE_CONFLICT, sure,
                       f"'{' '.join(x.thing)}': {_AS[x.relation]} is '{x.party}' in one claim and '{y.party}' in the other",
                       {**ev, "values": [x.party, y.party]})
    if same_party and not tx & ty:
        return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                       f"'{x.party}' {_DOES[x.relation]} two different things", ev)
    return None
