"""The attribute a length of time belongs to, named from the action or state it measures.

Why: a duration said through a verb ("Logs are retained for 30 days.", ".NET 9 will be supported
for 18 months.", "Refunds are issued within 5 business days.", "Interaction tokens are valid for
15 minutes.") has no noun of its own to name what it measures, so rules.v2 gave all of them the
attribute "time" — 253 of the 3,325 benchmark and gold statements — and two statements about a
retention and a refund deadline read as values of one attribute, while the noun nearest before
the value was the verb's object ("message" for "stores a message … for up to 3 days"). The verb and
the preposition together say what is measured: how long something lasts ("for": a period), by when
it is done ("within") or how long before it happens ("after": both the action's time).
"""
from __future__ import annotations

# the noun of the action or state, where it is not the lemma itself (general English, not any document's)
_NOUN_OF = {
    "retain": "retention", "keep": "retention", "hold": "retention", "stick": "retention", "store": "storage",
    "remove": "removal", "delete": "deletion", "revoke": "revocation", "expire": "expiry", "escalate": "escalation",
    "acknowledge": "acknowledgement", "publish": "publication", "issue": "issuance", "execute": "execution",
    "respond": "response", "resolve": "resolution", "approve": "approval", "renew": "renewal",
    "rotate": "rotation", "maintain": "maintenance", "suspend": "suspension", "deliver": "delivery",
    "process": "processing", "notify": "notification", "communicate": "communication",
    "complete": "completion", "distribute": "distribution", "archive": "archiving",
    "valid": "validity", "available": "availability", "eligible": "eligibility", "active": "activity",
    "supported": "support", "live": "lifetime", "last": "duration", "run": "run time",
    "cache": "caching", "time": "timeout", "lock": "lockout",
}
# verbs that say nothing of what is measured ("Onboarding takes two weeks.", "You have 30 days to …")
_LIGHT = frozenset({"be", "have", "take", "make", "get", "give", "do", "need", "happen", "occur", "go", "come",
                    "spend", "allow", "require", "use", "let", "start", "begin", "end", "stay", "remain",
                    "continue", "work", "apply", "count", "offer", "provide", "receive", "set"})
_LENGTHS = frozenset({"run time", "lifetime", "duration", "timeout"})
# "within" and "after" both say when the action happens ("deleted within 90 days" / "deleted after at
# most 90 days"): one attribute, so the two can be compared
_KIND_OF = {"for": "period", "within": "time", "after": "time"}
# what may stand between the number and the preposition's object ("at least 30 days", "up to 3 days")
_INSIDE = frozenset({"nummod", "quantmod", "compound", "amod", "advmod", "det", "nmod"})


def duration_attribute(doc, start: int, end: int) -> str | None:
    """The attribute of the duration written at characters ``start``–``end`` of ``doc``'s text, where a
    verb or an adjective governs it through "for", "within" or "after"; else None (the caller's
    fallbacks apply)."""
    tok = next((t for t in doc if start <= t.idx < end and (t.like_num or t.pos_ == "NUM")), None) \
        or next((t for t in doc if start <= t.idx < end and t.dep_ == "pobj"), None)     # "after half an hour"
    seen = 0
    while tok is not None and tok.dep_ in _INSIDE and tok.head.i != tok.i and seen < 4:
        tok, seen = tok.head, seen + 1
    if tok is None or tok.dep_ != "pobj":
        return None
    prep = tok.head
    kind = _KIND_OF.get(prep.lower_)
    if kind is None or prep.dep_ != "prep":
        return None
    head = prep.head
    if head.lemma_.lower() == "be":
        # "Tokens are valid for 15 minutes.": the preposition hangs from the copula, the state is its complement
        head = next((c for c in head.children if c.dep_ == "acomp" and c.pos_ == "ADJ"), head)
    while head.dep_ == "conj" and head.head.pos_ == "VERB" and head.head.lemma_.lower() not in _LIGHT \
            and not any(c.dep_.startswith("nsubj") or c.dep_ in ("aux", "auxpass") for c in head.children):
        # "deleted, aggregated, or de-identified after 90 days": the first verb names it (a clause of its
        # own, with its own subject, or a verb after a copula's clause is not one action written as several verbs;
        # nor is a verb with an auxiliary of its own: "Logs rotate daily and are retained for 30 days" is a retention)
        head = head.head
    lemma = head.lemma_.lower()
    verbal = head.pos_ == "VERB" or head.lower_ in ("time", "times") and any(c.lower_ == "out" for c in head.children)
    if verbal and lemma not in _LIGHT:     # "Builds time out after …": the small model calls the verb a noun
        word = _NOUN_OF.get(lemma, lemma)
    elif head.pos_ == "ADJ" and head.dep_ in ("acomp", "amod", "ROOT"):
        word = _NOUN_OF.get(head.lower_, _NOUN_OF.get(lemma))
        if word is None:
            return None          # "… is free for 30 days": no noun of the state to name it by
    else:
        return None
    # a noun that is itself a length of time ("run time", "lifetime") is the period already
    return word if word in _LENGTHS else f"{word} {kind}"


def action_time(attribute: str) -> bool:
    """Whether an attribute names how long or when an action happens, as ``duration_attribute`` names it
    (a noun phrase that reads the same, "retention period", "response time", is taken alike)."""
    return attribute in _LENGTHS or attribute.rsplit(" ", 1)[-1] in _KIND_OF.values()
