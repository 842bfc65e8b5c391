"""A thing given to one party: its owner, its maintainer, who is responsible for it, where it is
escalated, whom a team reports to.

Why a reader of its own: these statements name two noun phrases, the party and the thing, and the
party is the claim's value — but the value selectors read surface forms (ports, versions, amounts),
never a noun phrase, and the subject is whichever noun comes first. So "The payments team owns the
billing-api." / "The platform team owns the billing-api." were two statements about different
subjects, left to the cross-encoder, which reads two owners as compatible (p 0.36), and
"Incidents are escalated to the SRE lead." / "… to the engineering manager." as the same stance.
Read from the parse: the verb (own, maintain, escalate to, report to), its passive ("is owned by"),
or the noun or adjective ("is the owner of", "is responsible for"). A negated statement gets none.
"""
from __future__ import annotations

from guard.claims import Assignment
from guard.normalize.actors import _CONTENT, sentence_root

_VERBS = {"own": "owner", "maintain": "maintainer"}
_TO_VERBS = {"escalate": "escalation", "report": "manager"}
_NOUNS = {"owner": "owner", "maintainer": "maintainer", "dri": "owner"}
_ADJECTIVES = {"responsible": "responsible", "accountable": "responsible"}
_EACH = {"each", "every", "all", "any"}


def _words(head) -> str:
    """The party's words: the noun with what comes before it in its phrase and an "of" after it ("the
    VP of Engineering"), without determiners."""
    keep = [t for t in head.subtree if t.pos_ in _CONTENT and (t.i <= head.i or t.head.dep_ == "prep"
                                                                and t.head.lower_ == "of" and t.head.head.i == head.i)]
    return " ".join(t.lemma_.lower() if t.pos_ == "NOUN" else t.lower_ for t in keep)


def _thing(head) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.lemma_.lower() if t.pos_ != "PROPN" else t.lower_
                               for t in head.subtree if t.pos_ in _CONTENT))


def _child(tok, *deps):
    return next((c for c in tok.children if c.dep_ in deps), None)


def _pobj(tok, *preps):
    prep = next((c for c in tok.children if c.dep_ in ("prep", "agent") and c.lower_ in preps), None)
    return _child(prep, "pobj", "pcomp") if prep is not None else None


def read_assignment(doc) -> Assignment | None:
    root = sentence_root(doc)
    if root is None or any(c.dep_ == "neg" or c.lower_ == "never" for c in root.children):
        return None
    lemma = root.lemma_.lower()
    passive = _child(root, "auxpass") is not None
    relation = party = thing = None
    if lemma in _VERBS:
        relation = _VERBS[lemma]
        party, thing = (_pobj(root, "by"), _child(root, "nsubjpass")) if passive else (_child(root, "nsubj"),
                                                                                        _child(root, "dobj"))
    elif lemma in _TO_VERBS:
        relation, party = _TO_VERBS[lemma], _pobj(root, "to")
        if lemma == "escalate":
            thing = _child(root, "nsubjpass") if passive else _child(root, "dobj")
        elif _child(root, "dobj") is None:          # "The SRE team reports to the VP", not "reports errors to …"
            thing = _child(root, "nsubj")
    elif lemma == "be" and (subj := _child(root, "nsubj")) is not None:
        attr, acomp = _child(root, "attr"), _child(root, "acomp")
        if attr is not None and attr.lemma_.lower() in _NOUNS:
            relation, party, thing = _NOUNS[attr.lemma_.lower()], subj, _pobj(attr, "of", "for")
        elif acomp is not None and acomp.lemma_.lower() in _ADJECTIVES:
            relation, party, thing = _ADJECTIVES[acomp.lemma_.lower()], subj, _pobj(acomp, "for")
    if relation is None or party is None or thing is None or party.pos_ == "PRON" or thing.pos_ == "PRON":
        return None
    if any(c.dep_ == "det" and c.lower_ in _EACH for c in party.children) or any(c.dep_ == "poss" for c in thing.children):
        return None             # "Each team owns its on-call rotation": a thing per party, not one party
    if relation == "maintainer" and any(t.like_num for t in thing.subtree):
        return None             # "The codebase maintains 70% test coverage": keeps a level, is no maintainer
    words = _thing(thing)
    return Assignment(relation, _words(party), words) if words else None
