"""A rule said through its exception: "No change lands without a pull request.", "Privileged accounts cannot
sign in without a second factor.", "Nothing can be merged without a code review."

Why: read word by word, these forbid the action (must not land, must not sign in), so the rules normalizer
set them against "Changes must have a pull request." as an opposing modality on one subject and blocked at
HIGH, where the two say the same thing. Forbidding an action *without* something requires that thing: the
statement is "X requires Y", the reading "Merges require a code review." already gets (must, require, Y). Its
mirror, a permission to act without something ("Changes can be merged without a code review.", "Maintainers
may push to main without a pull request."), lifts that requirement: (may not, require, Y), the reading
"Changes do not require a code review." gets, so the two now oppose as the texts do.

Only a "without" that hangs on the main verb (or the verb a permission word governs: "are not permitted to
merge … without …") and names a thing counts; "after 600 seconds without traffic" qualifies a noun,
"without asking first" names no thing, and one set off by a comma ("Passwords of any composition can be
used, without rules limiting …") is an aside on the rule, so none of them changes what the statement rules.
"""
from __future__ import annotations

from dataclasses import replace

from guard.claims import Modality, Norm, StateVerb
from guard.normalize.actors import sentence_root
from guard.normalize.rules import _content

_TURNED = {Modality.MUST_NOT: Modality.MUST, Modality.SHOULD_NOT: Modality.SHOULD, Modality.MAY: Modality.MAY_NOT}


def _ruled_verbs(doc) -> list:
    """The main verb, and the verbs it hands its force to ("not permitted to merge", "allowed to push")."""
    root = sentence_root(doc)
    out, todo = [], [] if root is None else [root]
    while todo and len(out) < 4:
        t = todo.pop()
        out.append(t)
        # a verb joined by "or" shares the rule ("do not push directly or merge … without review"), unless it
        # has a subject of its own ("Refunds are not automatic: finance doesn't process them without a ticket.")
        todo += [c for c in t.children if c.pos_ in ("VERB", "AUX", "ADJ") and (c.dep_ == "xcomp" or c.dep_ == "conj"
                 and not any(g.dep_ in ("nsubj", "nsubjpass", "expl") for g in c.children))]
    return out


# where an action goes ("push to main", "deploy into production"): a "without" the small model hangs on that bare
# place ("… to main without a pull-request") is the action's condition still
_PLACES = frozenset({"to", "into", "onto", "in", "on"})


def _withouts(verb) -> list:
    """The "without"s on ``verb``, and on a bare place it goes to ("push directly to main without a pull request": the
    parse hung the condition on "main" once "pull request" was read as one word)."""
    out = [c for c in verb.children if c.lower_ == "without"]
    for place in (c for c in verb.children if c.dep_ == "prep" and c.lower_ in _PLACES):
        for obj in (o for o in place.children if o.dep_ == "pobj" and not any(d.dep_ in ("det", "poss", "amod",
                                                                                            "compound") for d in o.children)):
            out += [c for c in obj.children if c.lower_ == "without" and c.dep_ == "prep"]
    return out


def what_is_done_without(doc) -> list[str]:
    """The content words of the thing a "without" on the ruled verb names, or [] where there is none."""
    for verb in _ruled_verbs(doc):
        for prep in _withouts(verb):
            if prep.lower_ != "without" or prep.dep_ != "prep" or prep.i and doc[prep.i - 1].text == ",":
                continue        # ", without rules limiting …": an aside on the rule, not its condition
            if any(t.text in (":", ";") for t in doc[:prep.i]):
                continue        # "Refunds are not automatic: finance doesn't process them without a ticket."
            obj = next((c for c in prep.children if c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN")), None)
            if obj is not None and (words := _thing_words(obj)):
                return words
    return []


def _thing_words(obj) -> list[str]:
    """The content words of the thing a "without" names: its phrase, without clauses on it or articles."""
    return _content([t for t in obj.subtree if t.dep_ not in ("relcl", "acl") and t.pos_ != "DET"], set())


# a state that rules the thing out, said of something that lacks a thing ("A repository without a LICENSE file is
# non-compliant."): read as the denials "rejected" and "not allowed" are
_RULED_OUT = frozenset({"non-compliant", "noncompliant", "invalid", "unacceptable"})


def what_the_subject_lacks(doc) -> list[str]:
    """The content words of the thing a "without" on the statement's subject names ("Pull requests without a
    linked issue are rejected.": linked issue), or []."""
    root = sentence_root(doc)
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass", "csubj", "csubjpass")), None) \
        if root is not None else None
    if subject is None:
        return []
    # in the subject's own phrase ("Pull requests without …" the small model parses as a clause, "Pull" its verb)
    for prep in subject.subtree:
        if prep.lower_ == "without" and prep.dep_ == "prep":
            obj = next((c for c in prep.children if c.dep_ == "pobj" and c.pos_ not in ("PRON", "DET")), None)
            if obj is not None:
                return _thing_words(obj)
    return []


def _ruled_out(doc) -> bool:
    root = sentence_root(doc)
    return root is not None and any(t.lower_ in _RULED_OUT for t in [root, *root.children] if t.dep_ in ("ROOT", "acomp", "attr"))


def required_through_without(doc, norm: Norm) -> Norm:
    """A forbidden action without Y → Y required; a permitted action without Y → Y not required. The same where
    the "without" is on the subject of a denial ("Pull requests without a linked issue are rejected.", "A change
    without tests is not allowed.", "… is non-compliant."): read word by word they forbid the thing itself, and
    against "Pull requests must be approved …" that was an opposing modality on one subject, blocked at HIGH."""
    turned = _TURNED.get(norm.modality)
    words = what_is_done_without(doc) if turned is not None else []
    if not words and (turned is not None or norm.modality is Modality.MUST and _ruled_out(doc)):
        words = what_the_subject_lacks(doc)
        turned = turned or Modality.MUST
    if not words:
        return norm
    return replace(norm, modality=turned, object=StateVerb.REQUIRE, theme=" ".join(words), permission=None)
