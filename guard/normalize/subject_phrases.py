"""The phrase that names which of a subject a statement is about: "Logins *from Russia*", "Payments
*in EUR*".

Why: the subject is read as its noun ("login", "payment"), so "Logins from Russia are blocked." /
"Logins from Germany are allowed." was an opposing modality on one subject, blocked at HIGH, and
"Payments in EUR are settled daily." / "Payments in USD are settled weekly." a value conflict. Each
statement is about the part of the subject the phrase names; two parts named by one preposition with
different names are different things, as two plans or two regions are (``Norm.variants``).
"""
from __future__ import annotations

import re

from guard.normalize.actors import role_words, sentence_root
from guard.normalize.typed_values import GEOGRAPHIES

# not "over"/"under": "Expenses over £100 …" / "… over £500 …" name thresholds, which conflict
_PREPOSITIONS = {"from", "in", "for", "to", "with", "on", "at", "via", "through"}
_WORDS = {"NOUN", "PROPN", "ADJ", "NUM"}


_TEAMS = frozenset({"team", "squad", "department"})
# a statement that gives its subject something ("Managers get 25 vacation days.", "Interns are not eligible for stock
# options."): the normalizer reads it as about the thing given, and who gets it is which part of the thing it is
_GIVING_VERBS = frozenset({"get", "receive", "earn", "accrue"})          # the subject gets it
_GIVEN_TO = frozenset({"give", "issue", "offer", "grant", "allocate"})       # passive, with the thing after: "are given laptops"
_ENTITLED = frozenset({"entitle", "eligible"})                              # "are entitled to", "are eligible for"
# people of a kind, who are given things ("a subscriber receives every message", "the canary receives 5% of traffic" are
# things that take what comes, not people given a benefit)
_PEOPLE = frozenset({"manager", "director", "executive", "engineer", "developer", "designer", "intern", "contractor",
                     "freelancer", "consultant", "parent", "mother", "father", "lead", "analyst", "volunteer", "partner",
                     "officer", "agent", "rep", "representative", "associate", "trainee", "apprentice", "graduate", "hire",
                     "joiner", "starter", "leaver", "retiree", "reservist", "teammate", "admin", "administrator",
                     "maintainer", "contributor", "author", "operator", "vendor", "guest", "merchant", "student",
                     "teacher", "nurse", "driver", "salesperson", "founder", "temp", "part-timer", "reviewer",
                     "interviewer", "candidate", "supervisor", "technician", "specialist", "researcher", "scientist"})


def subject_phrases(doc, subject: str | None = None) -> tuple[tuple[str, str], ...]:
    """(kind, words) of each such phrase on the clause's subject: ("from-phrase", "russia"). ``subject``: the
    statement's subject as read, where a team it names is what the statement is about."""
    root = sentence_root(doc)
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None) if root is not None else None
    if subj is None:
        return ()
    out = []
    for mod in subj.children:
        # a part of the world before the subject's noun ("EU customer data" / "US customer data"): which of its
        # things, as "customer data from the EU" would say (session 92: the two were related subjects, a value
        # conflict the gate blocked at p 0.99)
        if mod.dep_ in ("compound", "amod", "nmod") and mod.i < subj.i and mod.lower_ in GEOGRAPHIES:
            out.append(("geography-phrase", GEOGRAPHIES[mod.lower_][0]))
    if subj.lemma_.lower() in _TEAMS and subject and subject.split()[-1] in _TEAMS:
        # the team a statement is about, named before its noun ("The mobile team releases every two weeks." / "The web
        # team releases daily."): two teams are two subjects, as two plans are (the gate blocked the pair at p 0.91).
        # Only where the team is what the statement is about: in "Only the security team may rotate the keys." it is
        # who acts, which the actors' rules compare
        words = [t.lower_ for t in subj.children if t.dep_ in ("compound", "amod") and t.i < subj.i and t.pos_ in _WORDS]
        if words:
            out.append(("team-phrase", " ".join(words)))
    if (given := _given_to(root, subj)) is not None:
        out.append(("recipient-phrase", given))
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


def _given_to(root, subj) -> str | None:
    """Who a statement gives its thing to, where that is people of a kind ("Managers get 25 vacation days." → "manager",
    "Junior engineers receive …" → "junior engineer"): the normalizer reads such a rule as about the thing given, so
    "… / Engineers get 20 vacation days." was one subject's two values, a structural block. Two kinds of people with no
    word in common get two parts of the thing ("-phrase": "junior engineer" / "senior engineer" may overlap, and the
    gate reads them). Not everyone said many ways ("Employees get …", "Each user gets …"): the class the others'
    rules are cases of."""
    verb = root.lemma_.lower()
    state = next((c.lemma_.lower() for c in root.children if c.dep_ in ("acomp", "attr")), None) if verb == "be" else None
    passive = any(c.dep_ == "auxpass" for c in root.children)
    given = verb in _GIVING_VERBS and not passive or verb in _ENTITLED or state in _ENTITLED \
        or passive and verb in _GIVEN_TO and any(c.dep_ == "dobj" for c in root.children)
    head = _singular(subj)
    if not given or head not in _PEOPLE or any(c.dep_ == "conj" for c in subj.children):
        return None
    return " ".join([*role_words(subj).split()[:-1], head])      # the actor's words, as a permission reads them


def _singular(t) -> str:
    """A noun as its lemma, without a plural ending the small model kept ("Interns" is "interns" before a capital)."""
    w = t.lemma_.lower()
    return w[:-1] if t.tag_ in ("NNS", "NNPS") and w == t.lower_ and w.endswith("s") and not w.endswith("ss") else w


# what narrows where or for what a value holds, after the verb or the value ("… retained for 30 days *in hot
# storage*", "The cache TTL is 5 minutes *for user profiles*"); not "with" (what is used is often the value itself:
# "served with TLS 1.2") nor a bound's or a time's own preposition ("within", "after", "until")
_PREDICATE_PREPOSITIONS = {"in", "for", "on", "at", "under", "across", "via", "through"}
PREDICATE_KIND = "-predicate"


def predicate_phrases(doc, said: tuple[str, ...] = ()) -> tuple[tuple[str, str], ...]:
    """(kind, words) of each phrase that narrows the main clause's subject, verb or value: ("in-predicate", "hot storage"),
    ("for-predicate", "audit logs") in "The retention period for audit logs is 7 years.".

    Why: "Logs are retained for 30 days in hot storage." / "… for 1 year in cold storage." were one subject's two
    values at HIGH, blocked, while each speaks of its own part of the logs. Common nouns as well as names — so, unlike
    a subject's phrase (above), two such phrases only make the comparator less sure (``compare``), never make the
    statements coexist: "in protobuf files" / "in the Ads Reporting protos" is one rule and a case of it. ``said``:
    the statement's values; a phrase that holds one is what is said ("written in Go", "stay in the EU", "at 9am on
    Mondays"), not where."""
    said_words = {w.lstrip("#") for v in said for w in re.findall(r"[\w.+#-]+", v.lower())}    # "#incidents": "incidents"
    root = sentence_root(doc)
    if root is None:
        return ()
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    in_subject = {t.i for t in subj.subtree} if subj is not None else set()
    out = []
    for prep in doc:
        if prep.dep_ != "prep" or prep.lower_ not in _PREDICATE_PREPOSITIONS:
            continue
        head = prep.head
        if prep.i in in_subject and not (subj is not None and head.i == subj.i):
            continue        # inside the subject's own words, not a phrase on its head
        # on the verb itself, or on the value it states ("is 5 minutes", "retained for 30 days": a noun a number counts,
        # the verb's own or its preposition's)
        counted = any(c.dep_ == "nummod" or c.like_num for c in head.children)
        to_root = [head.head.i, head.head.head.i] if head.head.dep_ == "prep" else [head.head.i]
        on_subject = subj is not None and head.i == subj.i     # "The retention period *for audit logs* is 7 years."
        if not (head.i == root.i or on_subject or counted and root.i in to_root):
            continue
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None:
            continue
        sub = list(obj.subtree)
        if any(t.like_num or any(ch.isdigit() for ch in t.text) for t in sub) or len(sub) > 6:
            continue        # a quantity, a date or a value ("in 2025", "for 30 days", "on port 8080"), or a clause
        words = [t.lower_ for t in sub if t.pos_ in _WORDS]
        if words and not said_words & {t.lower_ for t in sub}:
            out.append((f"{prep.lower_}{PREDICATE_KIND}", " ".join(words)))
    return tuple(dict.fromkeys(out))
