"""Who a statement lets act, or forbids to: the actor, the action, and whether it is kept to the actor.

Why a reader of its own: v2 reads a rule for a person as a rule about what they act on ("Any member
can delete projects." is about projects), which is right for comparing subjects but drops who may
act. Two rules on one action then look the same whoever they name — "Only admins can delete
projects." / "Admins can delete projects." read as one statement twice, and the cross-encoder,
which reads "only" poorly, blocked the restatement — and "Only the security team may rotate
production keys." / "Developers may rotate production keys." had different subjects, so nothing
compared the actors. The actor is read from the parse: the subject of an active clause, the agent
of a passive one ("can only be deleted by admins"), the one who "is allowed to". Only statements
that grant or deny an action get one (can, may, is allowed to, has access; cannot, may not, must
not); an obligation ("must approve") is not a permission and gets none.
"""
from __future__ import annotations

from guard.claims import Permission

_PERMIT_MODALS = {"can", "ca", "may", "could"}              # spaCy splits "can't" into "ca" + "n't"
_FORBID_MODALS = {"must", "should", "shall"}                 # a permission only when negated
_PERMIT_VERBS = {"allow", "permit", "authorize", "authorise", "entitle"}
_ACCESS_VERBS = {"have", "get", "gain", "hold"}
_ONLY = {"only", "solely", "exclusively"}
_EVERYONE = {"anyone", "anybody", "everyone", "everybody"}
_NOBODY = {"nobody", "noone"}
_ALL = {"any", "every", "all", "each"}
_EXCEPT = {"except", "but", "besides"}
_CONTENT = {"NOUN", "PROPN", "VERB", "ADJ", "NUM"}
_ROLE_WORDS = {"compound", "amod", "nmod", "npadvmod"}         # "on-call engineer", "security team"
# an action is what is done, to what and where: "push images to the registry", "merge to main", "deploy
# in production"; not when or on what terms ("at any time", "without approval", "if …": the rule's conditions)
_PLACES = {"to", "into", "onto", "on", "in", "from"}
# words that carry the permission, not the action: "has access to X" and "can access X" are one action
_NOT_ACTION = _PERMIT_VERBS | _ACCESS_VERBS | {"be", "do", "able", "grant", "give", "only"}


def sentence_root(doc):
    """The parse's root token, or None."""
    return next((t for t in doc if t.dep_ == "ROOT"), None)


def role_words(head) -> str:
    """The actor's words: its compounds and adjectives with the noun, singular ("the security team"
    → "security team", "Regular members" → "regular member")."""
    words = [t for t in head.children if t.dep_ in _ROLE_WORDS and t.lower_ not in _ONLY and t.i < head.i]
    return " ".join([w.lemma_.lower() for w in sorted(words, key=lambda t: t.i)] + [head.lemma_.lower()])


def _kept_to(head, doc) -> bool:
    """"Only admins", "Only the security team": the word sits on the actor's noun or opens the
    sentence before it."""
    if any(c.lower_ in _ONLY for c in head.children):
        return True
    first = next((t for t in doc if not t.is_punct), None)
    return first is not None and first.lower_ in _ONLY and first.i < head.i and first.head.i in (head.i, head.head.i) \
        and first.head.i != first.i and all(t.pos_ in ("DET", "ADJ", "NOUN", "PROPN") for t in doc[first.i + 1:head.i])


def _modal(verb):
    """The verb's modal auxiliaries ("can", "must") and whether it is negated."""
    aux = {c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass") and c.tag_ == "MD"}
    # the negation may hang from an auxiliary: "do not have write access" (not → have)
    near = [verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))]
    neg = any(c.dep_ == "neg" or c.lower_ == "never" for t in near for c in t.children)
    return aux, neg


def read_permission(doc) -> Permission | None:
    """The statement's permission, or None where it grants or denies no action to a named actor."""
    root = sentence_root(doc)
    if root is None or root.pos_ not in ("VERB", "AUX"):
        return None
    aux, neg = _modal(root)
    actor_head, action_root, exclude = None, root, set()
    verb_only = any(c.lower_ in _ONLY for c in root.children if c.dep_ == "advmod")
    only = False
    permits = bool(aux & _PERMIT_MODALS)
    if root.lemma_ in _PERMIT_VERBS and (xcomp := next((c for c in root.children if c.dep_ == "xcomp"), None)) is not None:
        # "Owners are allowed to change billing settings": the one allowed acts, in the clause after "to"
        actor_head = next((c for c in root.children if c.dep_ in ("nsubjpass", "nsubj")), None)
        action_root, permits = xcomp, True
    elif any(c.dep_ == "auxpass" for c in root.children):
        agent = next((c for c in root.children if c.dep_ == "agent"), None)
        actor_head = next((c for c in agent.children if c.dep_ == "pobj"), None) if agent is not None else None
        only = verb_only and actor_head is not None        # "can only be deleted by admins"
        if agent is not None:
            exclude |= {t.i for t in agent.subtree}
    else:
        actor_head = next((c for c in root.children if c.dep_ == "nsubj"), None)
    if actor_head is None or actor_head.pos_ not in ("NOUN", "PROPN", "PRON") or any(c.dep_ == "conj" for c in actor_head.children):
        return None
    access = any(t.lemma_.lower() == "access" and t.dep_ == "dobj" for t in action_root.subtree) and (
        action_root.lemma_ in _ACCESS_VERBS or any(c.lemma_ in _ACCESS_VERBS for c in action_root.children if c.dep_ == "aux"))
    if permits or access:
        allowed = not neg
    elif aux & _FORBID_MODALS and neg:
        allowed = False
    else:
        return None
    exclude |= {t.i for t in actor_head.subtree}
    low = actor_head.lower_
    everyone = low in _EVERYONE or any(c.lower_ in _ALL for c in actor_head.children if c.dep_ in ("det", "predet", "amod"))
    nobody = low in _NOBODY or any(c.lower_ == "no" for c in actor_head.children if c.dep_ == "det")
    except_ = next((c for c in actor_head.children if c.lower_ in _EXCEPT), None)
    if nobody and except_ is not None:
        # "No one except admins can delete projects": kept to the admins
        head = next((c for c in except_.children if c.dep_ == "pobj"), None)
        if head is None or not allowed:
            return None
        actor_head, only, everyone = head, True, False
    elif nobody:
        allowed, everyone = not allowed, True
    else:
        only = only or _kept_to(actor_head, doc)
    if only and not allowed:
        return None             # "Only admins cannot …": no rule anyone writes
    if actor_head.pos_ == "PRON" and actor_head.lower_ not in _EVERYONE | _NOBODY and actor_head.lower_ != "one":
        return None             # "It can be deleted", "they may …": not a role
    role = "anyone" if actor_head.lower_ in _EVERYONE | _NOBODY or actor_head.lower_ == "one" else role_words(actor_head)
    for c in action_root.children:
        if c.dep_ == "prep" and c.lower_ not in _PLACES or c.dep_ == "advcl" and any(m.dep_ == "mark" for m in c.children) \
                or c.dep_ in ("npadvmod", "conj", "cc"):
            exclude |= {t.i for t in c.subtree}
    parts = list(action_root.subtree)
    # whose ("their subscription", "a customer's subscription") does not change what is done
    exclude |= {t.i for p in parts if p.dep_ == "poss" for t in p.subtree}
    action = {t.lemma_.lower() for t in parts
              if t.i not in exclude and t.pos_ in _CONTENT and t.lemma_.lower() not in _NOT_ACTION | {"own"}}
    if not action:
        return None
    verb = "access" if access else action_root.lemma_.lower()
    return Permission(role, tuple(sorted(action)), allowed, only, everyone or role == "anyone", verb)
