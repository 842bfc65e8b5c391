"""The evidence a learned gate decides on: one fixed-order vector of numbers per claim pair.

Why a module of its own: the same function must build the vector at fit time (from stored NLI
scores of out-of-fold models) and at write time (from live scores), or the gate would be fitted
on one thing and applied to another. Pure: norms, texts, the structural verdict, NLI
probabilities and two similarities in; a dict of floats out.
"""
from __future__ import annotations

import math
import re

from guard.abbreviations import spelled_out
from guard.claims import Norm
from guard.compare import (Confidence, SubjectMatch, Verdict, VerdictKind, _value_pair, any_value_conflict,
                           default_against_override, forbids_what_the_other_leaves_out, opposition,
                           subject_match)
from guard.nli.gate import jaccard

_NEG = re.compile(r"\b(not|no|never|none|cannot|without|forbidden|prohibited|disabled|disallowed|neither|nor|"
                  r"optional|unnecessary)\b|n't\b", re.I)
_NUM = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?")
_VERDICTS = [k for k in VerdictKind if k is not VerdictKind.COEXIST]
_MATCH_ORD = {SubjectMatch.SAME: 3.0, SubjectMatch.NEAR: 2.0, SubjectMatch.RELATED: 1.0, SubjectMatch.DIFFERENT: 0.0}
_CONF_ORD = {Confidence.HIGH: 2.0, Confidence.MED: 1.0, Confidence.LOW: 0.0}

FEATURES: tuple[str, ...] = (
    "pc_max", "pc_min", "pe_max", "pe_min", "pn_mean", "logit_pc_max", "logit_pc_min",
    *[f"verdict_{k.value}" for k in _VERDICTS], "confidence", "subject_match",
    "subject_similarity", "text_similarity", "term_overlap",
    "opposing_modality", "soft_opposition", "negation_parity_differs", "should_in_either",
    "values_comparable", "values_differ", "numbers_differ", "attribute_same", "attribute_differs",
    "pc_x_text_similarity", "pc_x_subject_similarity", "default_against_override",
)
# No sentence-length feature: length tells the writing style of the documents the gate was fitted
# on (long handbook sentences), not whether two claims conflict, and it pushed short claims (the
# usual store) towards block.


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))



_WORD = re.compile(r"\S+")
_EDGE = "\"'`.,;:!?()[]{}"
_ARTICLES = {"a", "an", "the"}       # part of the subject's noun phrase, never of what is said about it


def predicate_text(text: str, subject: str | None) -> str:
    """What a statement says about its subject: its text without the words of its own subject.

    Why: two claims about one subject share its name, and on short claims the name is most of the
    text, so the texts' similarity says little about whether the two say something about the same
    aspect ("The media-cron-1 listens on port 3000." / "The media-cron-1 must not skip code review
    for hotfixes."). The subject is the normalizer's (lower-cased, lemmatised, without its article), so a word
    also matches without a plural ending, and articles go too; without a subject the whole text is
    the predicate."""
    if not subject:
        return text
    words = set(_words_of(subject)) | _ARTICLES
    kept = []
    for tok in _WORD.findall(text):
        w = tok.strip(_EDGE).lower()
        if w and (w in words or w.removesuffix("s") in words or w.removesuffix("es") in words):
            continue
        kept.append(tok)
    return " ".join(kept) or text


def _words_of(subject: str | None) -> list[str]:
    return [w for w in (t.strip(_EDGE).lower() for t in _WORD.findall(subject or "")) if w]


def _subject_words(subject: str | None) -> dict[str, str]:
    """The subject's words by a key that ignores a plural ending."""
    return {w.removesuffix("s"): w for w in _words_of(subject)}


def predicate_pair(a_text: str, a_subject: str | None, b_text: str, b_subject: str | None) -> tuple[str, str]:
    """Each text without the subject words the two statements share: what each says beyond the thing
    both are about.

    Why shared, not each its own: a rule about a person's action reads the action's object as its
    subject ("Contractors must not have production database access." is about "production database
    access"), while its counterpart keeps the person ("Contractors on the data team can query the
    production database directly." is about "contractor"). Each stripped of its own subject, the first
    kept "Contractors must not have" and the two predicates came out 0.13 alike — the same as unrelated
    statements about one named thing, and at the predicate floor's level, so that design example blocked
    or not as the floor's estimate moved (sessions 42–43). Two statements about one thing ("The
    media-cron-1 listens on port 3000." / "The media-cron-1 must not skip code review …") share its
    name, which both lose, as before."""
    wa, wb = _subject_words(a_subject), _subject_words(b_subject)
    shared = wa.keys() & wb.keys()
    if not shared:
        return a_text, b_text
    keep = " ".join(sorted({wa[k] for k in shared} | {wb[k] for k in shared}))
    return predicate_text(a_text, keep), predicate_text(b_text, keep)


def needs_backward(forward: dict[str, float], backward_below: float | None) -> bool:
    """Whether the second NLI direction (incoming → existing) is scored for a pair.

    Why not always: a cross-encoder call per direction is most of a write's and a scan's cost, and
    where the first direction does not find a contradiction the second rarely changes the decision.
    The gate is fitted on evidence built by the same rule (``second_direction``), so fitting and
    inference agree; ``None`` = both directions always (gates fitted before the rule)."""
    return backward_below is None or forward.get("contradiction", 0.0) >= backward_below


def second_direction(forward: dict[str, float], backward: dict[str, float] | None,
                     backward_below: float | None) -> dict[str, float]:
    """The backward scores the gate reads: the scored ones, or the forward ones where
    ``needs_backward`` says the backward direction is not scored."""
    if not needs_backward(forward, backward_below):
        return forward
    if backward is None:
        raise ValueError(f"the backward NLI direction is needed (forward p(contradiction) "
                         f"{forward.get('contradiction', 0.0):.3f} >= {backward_below})")
    return backward


def pair_features(a: Norm, a_text: str, b: Norm, b_text: str, verdict: Verdict,
                  forward: dict[str, float], backward: dict[str, float],
                  subject_similarity: float | None, text_similarity: float | None) -> dict[str, float]:
    if not (a.is_unknown or b.is_unknown):
        a, b = spelled_out(a, a_text, b, b_text)         # as the comparator reads them
    pcf, pcb = forward.get("contradiction", 0.0), backward.get("contradiction", 0.0)
    pef, peb = forward.get("entailment", 0.0), backward.get("entailment", 0.0)
    f: dict[str, float] = {
        "pc_max": max(pcf, pcb), "pc_min": min(pcf, pcb), "pe_max": max(pef, peb), "pe_min": min(pef, peb),
        "pn_mean": (forward.get("neutral", 0.0) + backward.get("neutral", 0.0)) / 2,
    }
    f["logit_pc_max"], f["logit_pc_min"] = _logit(f["pc_max"]), _logit(f["pc_min"])
    for k in _VERDICTS:
        f[f"verdict_{k.value}"] = float(verdict.kind is k)
    f["confidence"] = _CONF_ORD[verdict.confidence]
    f["subject_match"] = _MATCH_ORD[subject_match(a.subject, b.subject, a.theme, b.theme)]
    f["subject_similarity"] = subject_similarity if subject_similarity is not None else 0.0
    f["text_similarity"] = text_similarity if text_similarity is not None else 0.0
    f["term_overlap"] = jaccard(a.terms, b.terms)
    opp = opposition(a.modality, b.modality)
    f["opposing_modality"] = float(opp is VerdictKind.CONTRADICTION)
    f["soft_opposition"] = float(opp is VerdictKind.TENSION)
    f["negation_parity_differs"] = float(len(_NEG.findall(a_text)) % 2 != len(_NEG.findall(b_text)) % 2)
    f["should_in_either"] = float("should" in (a.modality.strength, b.modality.strength))
    pair = _value_pair(a, b, (a_text, b_text)) if not (a.is_unknown or b.is_unknown) else None
    f["values_comparable"] = float(pair is not None)
    f["values_differ"] = float(pair is not None and any_value_conflict(a, b, pair, (a_text, b_text))
                               and not forbids_what_the_other_leaves_out(a, b, pair))
    f["numbers_differ"] = float(set(_NUM.findall(a_text)) != set(_NUM.findall(b_text))
                                and bool(_NUM.search(a_text)) and bool(_NUM.search(b_text)))
    aa, ab = getattr(a, "attribute", None), getattr(b, "attribute", None)
    f["attribute_same"] = float(bool(aa) and aa == ab)
    f["attribute_differs"] = float(bool(aa) and bool(ab) and aa != ab)
    f["pc_x_text_similarity"] = f["pc_max"] * f["text_similarity"]
    f["pc_x_subject_similarity"] = f["pc_max"] * f["subject_similarity"]
    f["default_against_override"] = float(default_against_override(a, a_text, b, b_text))
    return f


def vector(f: dict[str, float]) -> list[float]:
    return [float(f[k]) for k in FEATURES]
