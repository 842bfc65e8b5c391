"""Fixed lexicons: modality cues, state verbs, and the opposition (antonym) list.

Kept apart from the parsing code so they can be reviewed and extended as data. The opposition
list is general engineering vocabulary — a pair is here because the two words cannot describe
the same thing at once, not because some benchmark item uses it.
"""
from __future__ import annotations

import re

from guard.claims import StateVerb

# a negation said in a word ("not", "never", "no", "nobody", "none", "cannot") or its contraction ("don't", "aren't")
NEGATION_WORD = re.compile(r"\b(?:not|never|no|nobody|none|cannot)\b|n't\b", re.IGNORECASE)

# Modal auxiliaries and verbs → strength
MODAL_WORDS = {
    "must": "must", "shall": "must", "need": "must", "needs": "must", "have": "must", "has": "must",
    "should": "should", "ought": "should",
    "may": "may", "can": "may", "could": "may", "might": "may",
}
# Predicates after a copula that carry modality: word → (strength, negated)
MODAL_PREDICATES = {
    "required": ("must", False), "mandatory": ("must", False), "enforced": ("must", False),
    "necessary": ("must", False), "compulsory": ("must", False), "obligatory": ("must", False),
    "expected": ("must", False),
    "recommended": ("should", False), "preferred": ("should", False), "encouraged": ("should", False),
    "advised": ("should", False), "suggested": ("should", False),
    "allowed": ("may", False), "permitted": ("may", False), "acceptable": ("may", False),
    "fine": ("may", False), "ok": ("may", False), "okay": ("may", False), "welcome": ("may", False),
    "sufficient": ("may", False), "enough": ("may", False), "authorized": ("may", False),
    "forbidden": ("must", True), "prohibited": ("must", True), "banned": ("must", True),
    "disallowed": ("must", True), "blocked": ("must", True), "not allowed": ("must", True),
    "unauthorized": ("must", True), "denied": ("must", True),
    "discouraged": ("should", True),
    "optional": ("may", True), "unnecessary": ("may", True),
}
# rules.v2 only (v1's norms stay as they were): a halted activity is one that may not go on —
# "Releases are paused during the freeze" denies what "Releases are permitted …" allows
HALT_PREDICATES = {"paused": ("must", True), "suspended": ("must", True), "halted": ("must", True),
                   "frozen": ("must", True)}
# rules.v2 only: more words that carry modality after a copula. "exempt" lifts an obligation ("Hotfixes are exempt
# from approval": approval is not required); what is prevented or barred may not happen ("Deployments are prevented during
# weekends", as "blocked" is)
V2_MODAL_PREDICATES = {"obliged": ("must", False), "obligated": ("must", False), "exempt": ("must", True),
                       "prevented": ("must", True), "barred": ("must", True)}
# Verbs that carry modality on their own: lemma → (strength, negated)
MODAL_VERBS = {
    "require": ("must", False), "mandate": ("must", False), "enforce": ("must", False),
    "prefer": ("should", False), "recommend": ("should", False), "favor": ("should", False),
    # "Anthropic suggests reading …", "we strongly encourage team members to take …": advice, as "recommend" is
    "suggest": ("should", False), "advise": ("should", False), "encourage": ("should", False),
    "favour": ("should", False), "avoid": ("should", True), "discourage": ("should", True),
    "allow": ("may", False), "permit": ("may", False),
    "forbid": ("must", True), "prohibit": ("must", True), "ban": ("must", True),
    "disallow": ("must", True), "block": ("must", True), "deny": ("must", True),
}
NEGATIONS = {"not", "n't", "never", "no", "none", "nothing", "nobody", "neither", "nor", "cannot", "without"}
IMPERATIVE_PREFIXES = {"never": True, "always": False, "do": False, "don't": True, "please": False}

# State-verb synonyms → (StateVerb, negated)
VERBS: dict[str, tuple[StateVerb, bool]] = {}
for _sv, _words in {
    StateVerb.USE: "use utilize utilise adopt employ choose pick",
    StateVerb.REQUIRE: "require need mandate",
    StateVerb.ALLOW: "allow permit accept",
    StateVerb.ENABLE: "enable activate turn",
    StateVerb.SUPPORT: "support handle",
    StateVerb.STORE: "store keep save persist commit put check",
    StateVerb.LOG: "log record print write",
    StateVerb.LISTEN: "listen serve bind expose",
    StateVerb.RETAIN: "retain archive",
    StateVerb.MERGE: "merge land",
    StateVerb.DEPLOY: "deploy release ship promote roll",
    StateVerb.PUSH: "push force-push",
    StateVerb.EXPOSE: "publish share",
    StateVerb.RUN: "run execute host",
    StateVerb.SET: "set configure default",
    StateVerb.NAME: "name call prefix",
    StateVerb.SIGN: "sign",
    StateVerb.ACCESS: "access reach connect",
    StateVerb.ENCRYPT: "encrypt",
    StateVerb.APPROVE: "approve",
    StateVerb.REVIEW: "review",
    StateVerb.ROTATE: "rotate renew",
    StateVerb.LIMIT: "limit cap restrict throttle",
    StateVerb.PIN: "pin lock",
    StateVerb.FOLLOW: "follow",
    StateVerb.EXPIRE: "expire",
    StateVerb.SEND: "send email notify forward",
}.items():
    for _w in _words.split():
        VERBS[_w] = (_sv, False)
VERBS.update({
    "disable": (StateVerb.ENABLE, True), "deactivate": (StateVerb.ENABLE, True),
    "reject": (StateVerb.SUPPORT, True), "refuse": (StateVerb.SUPPORT, True),
    "drop": (StateVerb.SUPPORT, True), "decrypt": (StateVerb.ENCRYPT, True),
    "unpin": (StateVerb.PIN, True), "delete": (StateVerb.RETAIN, True), "purge": (StateVerb.RETAIN, True),
    "remove": (StateVerb.RETAIN, True), "erase": (StateVerb.RETAIN, True), "wipe": (StateVerb.RETAIN, True),
    "revoke": (StateVerb.ALLOW, True), "hide": (StateVerb.EXPOSE, True),
})

# Opposition lexicon: (positive pole, negative pole). A negative-pole word is read as the
# positive pole with the polarity flipped, so "disabled" opposes "enabled".
OPPOSITES = [
    ("enabled", "disabled"), ("on", "off"), ("true", "false"), ("public", "private"),
    ("internal", "external"), ("mandatory", "optional"), ("synchronous", "asynchronous"),
    ("sync", "async"), ("automatic", "manual"), ("automated", "manual"), ("encrypted", "unencrypted"),
    ("encrypted", "plaintext"), ("signed", "unsigned"), ("stable", "unstable"),
    ("stable", "experimental"), ("supported", "unsupported"), ("supported", "deprecated"),
    ("recommended", "deprecated"), ("pinned", "floating"), ("pinned", "unpinned"),
    ("approved", "rejected"), ("granted", "denied"), ("allowed", "forbidden"), ("open", "closed"),
    ("blocking", "advisory"), ("strict", "lenient"), ("strict", "loose"), ("secure", "insecure"),
    ("loud", "silent"), ("visible", "hidden"), ("mutable", "immutable"), ("writable", "read-only"),
    ("centralized", "decentralized"), ("centralised", "decentralised"), ("online", "offline"),
    ("authenticated", "anonymous"), ("authenticated", "unauthenticated"), ("active", "inactive"),
    ("available", "unavailable"), ("valid", "invalid"),
    ("accessible", "inaccessible"), ("compliant", "noncompliant"), ("required", "optional"),
    ("persistent", "ephemeral"), ("deterministic", "nondeterministic"), ("safe", "unsafe"),
    ("trusted", "untrusted"), ("verified", "unverified"), ("immediate", "deferred"),
    ("continuous", "scheduled"), ("server-side", "client-side"), ("allowlist", "denylist"),
    ("whitelist", "blacklist"), ("included", "excluded"), ("inclusive", "exclusive"),
    ("mandatory", "voluntary"), ("static", "dynamic"), ("monolithic", "distributed"),
]
POLE: dict[str, tuple[str, bool]] = {}
for _pos, _neg in OPPOSITES:
    POLE.setdefault(_pos, (_pos, False))
    POLE.setdefault(_neg, (_pos, True))

FUZZY_SUBJECTS = {"it", "this", "that", "they", "them", "these", "those", "everything", "anything",
                  "something", "thing", "things", "stuff", "everyone", "anyone", "someone", "one",
                  "which", "what", "all", "each", "both", "he", "she", "i", "me", "us"}
PERSON_SUBJECTS = {"we", "you", "team", "teams", "user", "users", "people", "developer", "developers",
                   "engineer", "engineers", "contributor", "contributors", "maintainer", "maintainers",
                   "intern", "interns", "contractor", "contractors", "vendor", "vendors", "guest", "guests",
                   "merchant", "merchants", "admin", "admins", "administrator", "administrators", "employee",
                   "employees", "staff", "member", "members", "author", "authors", "operator", "operators"}
QUANTIFIERS = {"all", "every", "each", "any", "some", "the", "a", "an", "our", "your", "their", "its",
               "no", "only", "both", "these", "those", "this", "that", "new", "existing"}


# the words of a label that says what follows is advice, not a rule ("Tip:", "Platform recommendation:"): the normalizer
# reads the statement as "should", and the models read the label with it (``nli.model_text`` keeps it)
ADVICE_LABELS = frozenset({"tip", "tips", "advice", "guidance", "guideline", "guidelines", "suggestion", "suggestions",
                           "recommendation", "recommendations", "recommended", "proposal", "view", "position",
                           "opinion", "preference", "idea"})


# when a decision holds and how it is told, before it and its comma ("Going forward, all deploys need …", "From now on,
# …", "To be clear, …"): no word of what it says. The normalizer keeps it as a qualifier (``rules_v2._LEAD_ADVERB``: read
# whole, "going forward" was the subject of 2,526 of 2,560 statements so opened), and the models read the statement
# without it (``nli.model_text``: so opened, 22 of claims_dev's 256 pairs changed tier)
DECISION_LEADS = (r"going forward|moving forward|from now on|from here on(?: out)?|effective immediately|"
                  r"until further notice|as a reminder|to be clear|for the record|in short|in summary|to summari[sz]e")
