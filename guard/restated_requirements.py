"""A requirement and its restatement as what cannot happen without it: "Production deploys require a passing CI run."
/ "A deploy to production cannot start without a green CI run.", "Every pull request needs a linked ticket." / "Pull
requests without a ticket are not merged.", "A signed NDA is mandatory before vendor onboarding." / "No vendor is
onboarded until the NDA is signed."

Why a rule of its own: the cross-encoder reads the second statement's negation as a denial of the first and gives
p(contradiction) ≈ 1.0, and structure sees two stances (a "must" and a "must not") or two subjects, so the gate blocked
such pairs. Saying that X does not happen without Y is saying that X requires Y. The other forms — X *can* happen
without Y, Y is optional, X happens before Y — carry no denial and are left to the other stages, as is a requirement
said with a number the restatement does not share ("two approvals" / "without one approval").
"""

from __future__ import annotations

import re

from guard.excepted_cases import content_words
from guard.normalize.lexicon import NEGATION_WORD

_CLAUSE_END = r"[^,;.!?()]+"
# X needs Y: "Production deploys require a passing CI run.", "Every pull request needs a linked ticket.", "Laptops must
# have full-disk encryption."
_X_NEEDS_Y = re.compile(r"^(?P<x>[^,;.!?()]+?)\s+(?:requires?|needs?|must\s+have|(?:is|are)\s+required\s+to\s+have)\s+"
                        rf"(?P<y>{_CLAUSE_END})", re.IGNORECASE)
# Y is needed for X: "VPN is required to reach the admin console.", "A signed NDA is mandatory before vendor onboarding."
_Y_NEEDED_FOR_X = re.compile(r"^(?P<y>[^,;.!?()]+?)\s+(?:is|are)\s+(?:required|needed|mandatory|necessary)\s+"
                             rf"(?:for|before|to|in\s+order\s+to|on)\s+(?P<x>{_CLAUSE_END})", re.IGNORECASE)
# the case without the requirement: "… cannot start without a green CI run", "… unless you are on the VPN", "… until
# the NDA is signed"; "only after/if/with/once …" says the same without a negation
_WITHOUT = re.compile(rf"\b(?:without|unless|until)\s+(?P<y>{_CLAUSE_END})", re.IGNORECASE)
_ONLY_WITH = re.compile(rf"\bonly\s+(?:after|if|with|when|once)\s+(?P<y>{_CLAUSE_END})", re.IGNORECASE)
_NUMBER = re.compile(r"\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|single|both)\b", re.IGNORECASE)


def _requirement(text: str) -> tuple[str, str] | None:
    """(what needs it, what it needs) of a statement that states a requirement and takes none back ("… does not require
    …", "… isn't required …", "no … is needed")."""
    for pattern in (_X_NEEDS_Y, _Y_NEEDED_FOR_X):
        if (m := pattern.search(text.strip())) is not None:
            return None if NEGATION_WORD.search(text) else (m.group("x"), m.group("y"))
    return None


def _numbers(text: str) -> set[str]:
    return {n.lower() for n in _NUMBER.findall(text)}


def _cases_without(text: str) -> list[tuple[str, str]]:
    """(the rest of the statement, the thing it cannot do without) for each such case the statement denies."""
    cases = list(_WITHOUT.finditer(text)) if NEGATION_WORD.search(text) else []
    cases += list(_ONLY_WITH.finditer(text))
    return [(text[:m.start()] + " " + text[m.end():], m.group("y")) for m in cases]


def restated_requirement(a_text: str, b_text: str) -> str | None:
    """The requirement, as written, where one statement states it and the other says what does not happen without it;
    None otherwise."""
    for rule_text, other_text in ((a_text, b_text), (b_text, a_text)):
        if (req := _requirement(rule_text)) is None:
            continue
        needs, needed = req
        needed_words, needs_words = content_words(needed), content_words(needs)
        for rest, without in _cases_without(other_text):
            if (said := _numbers(needed)) and (restated := _numbers(without)) and said != restated:
                continue         # "two approvals" / "without one approval": another requirement
            if needed_words & content_words(without) and needs_words & (content_words(rest) - needed_words):
                return needed.strip()
    return None
