"""The statement as the NLI model and the bi-encoder read it: what it says, without the ways of writing it down
that say nothing.

Why: the structural stages read a statement through the normalizer, which already ignores an attention label
("Note:", "IMPORTANT:"), an exclamation mark or a missing full stop; the models read the text itself, and those
marks moved their scores. Judged whole by the default guard, claims_dev's 320 pairs with the incoming statement
written "Note: …" changed tier 41 times (20 blocks became warns), ending in "!" 11 times and without its full stop
18 times (``python -m benchmarks.pipeline_invariance``). Every statement of claims_train and claims_dev ends with a
stop and none opens with such a label, so the NLI scores the learned gate was fitted on are the scores of these
texts too. A topic label of one plain word before a sentence ("Security: Pull requests need …", "Billing: …") is
taken off too, as ``markup.plain_statement`` takes off the same label in brackets ("[Security] …"): written so,
28 of the 320 changed tier. A longer label, or one that says what follows is advice ("Recommended: …", "Tip: …",
"Ops suggestion: …"), stays — the normalizer reads it as "should" and the gate was fitted on it — and so does a
setting's name ("LoginGraceTime: …", "Retry-After: 30").

A name in code is read without its backticks ("`max_connections`" as max_connections): no statement of claims_train
nor of the general NLI files writes one, so the model learnt nothing of them, and with them off claims_dev's pairs
changed tier 14 times of 51 (``benchmarks.pipeline_invariance``, "backticks off"). The normalizer keeps them: there
they mark a setting's name, which the structural stages read.

A rule's "shall" is read as "must" ("shall not" as "must not", "shan't" as "must not"): in policy and requirement
prose they are one word (RFC 2119: "MUST … or the terms REQUIRED or SHALL"), and the normalizer already reads them
alike (``lexicon``), but the models saw "shall" in 23 of claims_train's 2,400 statements against "must" in 364 and
read it as more of a contradiction — claims_dev's pairs with "shall" for "must" in the incoming statement changed
tier 13 times of 48, 11 of them up (``benchmarks.pipeline_invariance``, "must -> shall"). Training reads the same
text (``training.claim_pairs``), so a model trained from here on never sees "shall". A rule's "may not" is its
"must not" too, as the normalizer reads it ("Employees may not accept gifts …": a prohibition in policy prose, not a
permission): one of claims_train's 2,400 statements writes it, and claims_dev's pairs with "may not" for "must not"
changed tier 3 times of 11, two of them clean → block ("must not -> may not"). A hedge stays ("may not always …").
"mustn't", "shouldn't" and "needn't" are read written out: no statement of claims_train contracts them (it writes
"must not" 60 times, "should not" 51), and "Postmortems mustn't assign blame …" took a claims_dev pair from clean to
warn ("contraction"). British "per cent" is read as
"percent" (no statement of claims_train or claims_dev writes it; written so, a claims_dev block became a warn).

When a decision holds or how it is told, before the statement ("Going forward, …", "To be clear, …":
``lexicon.DECISION_LEADS``), is taken off as an attention label is: none of claims_train's statements opens so, and so
opened 22 of claims_dev's 256 pairs changed tier (``benchmarks.pipeline_invariance``, "going forward").
"""
from __future__ import annotations

import re
from functools import lru_cache

from guard.markup import CODE_SPAN, attention_label_off
from guard.normalize.lexicon import ADVICE_LABELS, DECISION_LEADS

# one plain capitalised word and a colon, before a capitalised sentence of three words or more
_TOPIC_LABEL = re.compile(r"^(?P<word>[A-Z][a-z]{1,20}):[ \t]+(?=[A-Z][\w'-]*[ \t]+\S+[ \t]+\S)")
_EXCLAIMED = re.compile(r"\s*!+$")
_DECISION_LEAD = re.compile(r"^(?:" + DECISION_LEADS + r")\s*,\s+(?=\S)", re.IGNORECASE)
_OPEN_END = re.compile(r"[\w%]$")
_PER_CENT = re.compile(r"(?<=\d)\s*per\s+cent\b", re.IGNORECASE)
_SHALL = re.compile(r"\b(?:(?P<shant>shan['’]t)|shall)\b", re.IGNORECASE)
# a rule's modal run into its "not": "mustn't", "shouldn't", "needn't"
_MODAL_NT = re.compile(r"\b(must|should|need)n['’]t\b", re.IGNORECASE)
# a rule's "may not" (not a hedge's "may not always", "may not necessarily")
_MAY_NOT = re.compile(r"\bmay(?=\s+not\b(?!\s+(?:always|necessarily)\b))", re.IGNORECASE)


def _as_must(m: re.Match) -> str:
    word = "must not" if m.groupdict().get("shant") else "must"
    if m.group(0).isupper() and len(m.group(0)) > 1:
        return word.upper()
    return word.capitalize() if m.group(0)[0].isupper() else word


@lru_cache(maxsize=65536)       # a scan reads each claim's text for every pair it is in, as ``comparison_text`` does
def model_text(text: str) -> str:
    t = attention_label_off(text.strip())
    if (m := _DECISION_LEAD.match(t)) is not None:
        t = t[m.end()].upper() + t[m.end() + 1:] if t[m.end()].islower() else t[m.end():]
    if (m := _TOPIC_LABEL.match(t)) is not None and m.group("word").lower() not in ADVICE_LABELS:
        t = t[m.end():]
    if "`" in t:
        t = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), t)
    t = _SHALL.sub(_as_must, t)
    t = _MAY_NOT.sub(_as_must, t)
    t = _MODAL_NT.sub(lambda m: m.group(1) + (" NOT" if m.group(0).isupper() else " not"), t)
    t = _PER_CENT.sub(" percent", t)
    t = _EXCLAIMED.sub(".", t)
    return t + "." if _OPEN_END.search(t) else t
