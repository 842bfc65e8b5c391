"""Two statements that grant or deny one action: do their actors agree?

Why in its own step, before subjects are compared: a rule about who may act has two nouns, the
actor and the thing acted on, and the normalizer's subject is one of them — the thing, for a person
("Any member can delete projects." is about projects), the actor otherwise ("Only the security team
may rotate production keys."). The actors decide such pairs: a rule that keeps an action to one
actor agrees with the same actor allowed it or another denied it, and conflicts with another
allowed it; two actors, one allowed and one denied, say nothing against each other.
"""
from __future__ import annotations

from guard.claims import Norm, Permission
from guard.compare import Confidence, Verdict, VerdictKind, _stem, stems


def _words(actor: str) -> list[str]:
    return [_stem(w) for w in actor.split()]


def among(inner: Permission, outer: Permission) -> bool:
    """Every ``inner`` actor is an ``outer`` one: the same role, a narrower one ("senior admin" among
    "admin"), or any actor at all when ``outer`` is everyone."""
    if outer.actor == "anyone":
        return True
    wi, wo = _words(inner.actor), _words(outer.actor)
    return wi[-1] == wo[-1] and set(wo[:-1]) <= set(wi[:-1])


def _who(p: Permission) -> str:
    return "anyone" if p.actor == "anyone" else f"'{p.actor}'"


def _same(a: Permission, b: Permission) -> bool:
    return among(a, b) and among(b, a)


def permission_verdict(a: Norm, b: Norm) -> Verdict | None:
    """The verdict where both statements grant or deny the same action; None where they do not, or
    where one actor is allowed and denied (the opposing modality the rest of the comparator reads)."""
    pa, pb = a.permission, b.permission
    if pa is None or pb is None:
        return None
    ev = {"actors": [pa.actor, pb.actor], "allowed": [pa.allowed, pb.allowed], "only": [pa.only, pb.only],
          "action": " ".join(pa.action)}
    xa, xb = stems(pa.action), stems(pb.action)
    if xa != xb and not (min(len(xa), len(xb)) >= 2 and (xa < xb or xb < xa)):
        if pa.allowed and pb.allowed and _same(pa, pb) and "access" not in (pa.verb, pb.verb):
            # "Only admins can export user data." / "Admins can import user data.": one actor allowed two things,
            # which no rule about either keeps from the other (the two read as one subject and one stance, and the
            # cross-encoder blocked them at p 1.00). Not a grant of access: "read-only access to Jira" is a limit too, which
            # "can edit Jira tickets" breaks
            return Verdict(VerdictKind.CONSISTENT, Confidence.HIGH,
                           f"{_who(pa)} may do both: two actions allowed to one actor", ev)
        return None
    # one action the other's with more said ("push images to the registry" / "… from their laptops"):
    # the same action, less surely
    sure = Confidence.HIGH if xa == xb else Confidence.MED
    if pb.only and not pa.only:
        pa, pb = pb, pa
    if pa.only and pb.only:
        if _same(pa, pb):
            return Verdict(VerdictKind.CONSISTENT, sure, f"both keep it to {_who(pa)}", ev)
        return Verdict(VerdictKind.CONTRADICTION, sure,
                       f"one keeps it to {_who(pa)}, the other to {_who(pb)}", ev)
    if pa.only:
        if pb.allowed and among(pb, pa):
            return Verdict(VerdictKind.CONSISTENT, sure,
                           f"kept to {_who(pa)}, and {_who(pb)} may: the two agree", ev)
        if pb.allowed:
            return Verdict(VerdictKind.CONTRADICTION, sure,
                           f"kept to {_who(pa)}, yet {_who(pb)} may too", ev)
        if among(pa, pb):        # denied to the very actor it is kept to, or to everyone
            return Verdict(VerdictKind.CONTRADICTION, sure,
                           f"kept to {_who(pa)}, yet denied to {_who(pb)}", ev)
        if not among(pb, pa):
            return Verdict(VerdictKind.CONSISTENT, sure,
                           f"kept to {_who(pa)}, and denied to {_who(pb)}: the two agree", ev)
        return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                       f"kept to {_who(pa)}, and denied to some of them ({pb.actor})", ev)
    if pa.allowed == pb.allowed:
        # "Admins can delete projects." / "Owners can delete projects.", two denials: none is kept to anyone
        return Verdict(VerdictKind.CONSISTENT, sure, f"{_who(pa)} and {_who(pb)}: the same stance on it", ev)
    if _same(pa, pb):
        return None              # one actor allowed and denied: opposing modality, read as usual
    yes, no = (pa, pb) if pa.allowed else (pb, pa)
    if among(no, yes) and yes.everyone or among(yes, no) and no.everyone:
        return Verdict(VerdictKind.CONTRADICTION, Confidence.MED,
                       f"{_who(yes)} may, {_who(no)} may not, and one covers the other", ev)
    if among(no, yes) or among(yes, no):
        # "Engineers can deploy." / "Junior engineers cannot deploy.": an exception, or a conflict
        return Verdict(VerdictKind.UNCERTAIN, Confidence.LOW,
                       f"{_who(yes)} may, {_who(no)} (one within the other) may not", ev)
    # "Editors can edit documents." / "Guests cannot edit documents.": a policy's roles, each told
    return Verdict(VerdictKind.CONSISTENT, sure,
                   f"different actors: {_who(yes)} may, {_who(no)} may not", ev)
