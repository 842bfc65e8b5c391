"""A rule and the case it excepts: "Deploys are not allowed on Fridays, except for hotfixes." / "Hotfixes can be
deployed on Fridays.", "All expenses require a receipt, except those under $25." / "A $10 taxi ride can be expensed
without a receipt.", "Contractors cannot access production, except during on-call." / "Contractors on call can access
production."

Why a rule of its own: the normaliser keeps an exception apart from the main clause (a qualifier), so structure saw
the main clause alone — an opposing modality at HIGH ("cannot access production" / "can access production") or two
subjects left to the gate, where the cross-encoder, which reads "except" poorly, gives p(contradiction) ≈ 1.0. A
statement about the case a rule leaves out, saying what the rule does not forbid (or does not require), is no
conflict with it. A statement that says the rule's own thing of that case ("Hotfixes must not be deployed on
Fridays.") is left to the other stages: it goes against the exception, not the rule.
"""

from __future__ import annotations

import re

from guard.claims import Modality, Norm
from guard.normalize.typed_values import extract_typed_values

# what opens an exception, and where it ends: the next comma, semicolon or the sentence's end
_EXCEPTION = re.compile(r"\b(?:except(?:\s+for|\s+when|\s+during|\s+in|\s+on|\s+if|\s+where)?|excluding|unless|"
                        r"other\s+than|apart\s+from|with\s+the\s+exception\s+of|save\s+for)\s+(?P<case>[^,;.!?()]+)",
                        re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][a-z0-9_]*")
# words that name no case: what joins, points or hedges ("except those under $25", "unless it is a security hotfix",
# "unless otherwise specified")
_EMPTY = frozenset(re.findall(r"\S+", """a an the those that these this it its they them their there is are be been being was were has have
had do does did for of in on at to by with from during when where if while as than then so or and not no any all some
each every one ones you your we our us who which what otherwise specified stated noted agreed under over above below
more less fewer up least most only just also explicitly truly highly really very can may might must should will would
within after before"""))
_MAX_CASE_WORDS = 6          # a longer clause is a condition told in full, which another statement rarely restates
# the stance a modality takes on what the rule names: obliged, forbidden, allowed, not required
_STANCE = {Modality.MUST: "obliged", Modality.SHOULD: "obliged", Modality.MUST_NOT: "forbidden",
           Modality.SHOULD_NOT: "forbidden", Modality.MAY: "allowed", Modality.MAY_NOT: "not required"}


def _stem(word: str) -> str:
    """A word's plural, verb forms and the noun of its action as one ("hotfixes" / "hotfix", "merging" / "merge",
    "approves" / "approval"): the suffix and a final "e" off."""
    for suffix, keep in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ed", ""), ("al", "")):
        if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word.endswith("ss"):
            word = word[: -len(suffix)] + keep
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def content_words(text: str) -> set[str]:
    """The words that say what a text is about, each in one form (``_stem``), without those that join, point or hedge
    (``_EMPTY``): two statements that share one speak of one thing."""
    return {_stem(w) for w in _WORD.findall(text.lower().replace("-", " ")) if w not in _EMPTY}


def _case_holds(case: str, other_text: str, other_words: set[str]) -> bool:
    """Every word of the excepted case is in the other statement (``other_words``, its ``content_words``), and every bound it
    sets ("under $25") holds for a value of that unit the other gives ("a $10 taxi ride")."""
    words = content_words(re.sub(r"\$?\d[\d,.]*\S*", " ", case))
    bounds = [v.bound for v in extract_typed_values(case) if v.bound is not None and v.bound.unit]
    if not words and not bounds or len(words) > _MAX_CASE_WORDS or not words <= other_words:
        return False
    if not bounds:
        return True
    # compare imports this module
    from guard.compare import bounds_conflict
    given = [v.bound for v in extract_typed_values(other_text) if v.bound is not None]
    return all(any(g.unit == b.unit and not bounds_conflict(b, g) for g in given) for b in bounds)


def excepted_case(a: Norm, a_text: str, b: Norm, b_text: str) -> str | None:
    """The exception, as written, where one statement is a rule and the other speaks of the case it excepts, taking
    another stance on it than the rule takes on the rest; None otherwise."""
    for rule, rule_text, other, other_text in ((a, a_text, b, b_text), (b, b_text, a, a_text)):
        stance = _STANCE.get(rule.modality)
        if stance is None or _STANCE.get(other.modality) in (None, stance):
            continue
        other_words = None
        for m in _EXCEPTION.finditer(rule_text):
            case = m.group("case").strip()
            other_words = content_words(other_text) if other_words is None else other_words
            # the rule's own words, without its exception, must meet the other's too: the two speak of one thing
            main = rule_text[:m.start()] + " " + rule_text[m.end():]
            if _case_holds(case, other_text, other_words) and content_words(main) & (other_words - content_words(case)):
                return m.group(0).strip()
    return None
