"""The phrase that names which of a subject a statement is about: "Logins *from Russia*", "Payments
*in EUR*".

Why: the subject is read as its noun ("login", "payment"), so "Logins from Russia are blocked." /
"Logins from Germany are allowed." was an opposing modality on one subject, blocked at HIGH, and
"Payments in EUR are settled daily." / "Payments in USD are settled weekly." a value conflict. Each
statement is about the part of the subject the phrase names; two parts named by one preposition with
different names are different things, as two plans or two regions are (``Norm.variants``).
"""
from __future__ import annotations

from guard.normalize.actors import sentence_root

# not "over"/"under": "Expenses over £100 …" / "… over £500 …" name thresholds, which conflict
_PREPOSITIONS = {"from", "in", "for", "to", "with", "on", "at", "via", "through"}
_WORDS = {"NOUN", "PROPN", "ADJ", "NUM"}


def subject_phrases(doc) -> tuple[tuple[str, str], ...]:
    """(kind, words) of each such phrase on the clause's subject: ("from-phrase", "russia")."""
    root = sentence_root(doc)
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None) if root is not None else None
    if subj is None:
        return ()
    out = []
    for prep in subj.children:
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep.dep_ == "prep" else None
        if obj is None or prep.lower_ not in _PREPOSITIONS:
            continue
        words = [t for t in obj.subtree if t.pos_ in _WORDS]
        # names only: two names are two things, where a common noun may be the other's class ("in
        # protobuf files" / "in the Ads Reporting protos" is one rule and a case of it)
        if words and all((t.pos_ == "PROPN" or t.text.isupper() and len(t.text) > 1) and not t.like_num for t in words):
            out.append((f"{prep.lower_}-phrase", " ".join(t.lower_ for t in words)))
    return tuple(out)
