"""Stage 3 with a learned gate: the cross-encoder's scores, the structural verdict and the pair's
other evidence go through one fitted classifier (``LearnedGate``) that says block / warn / clean.

Why a stage of its own beside ``NLIGate``: the threshold gate looks only at pairs structure
deferred and caps NLI with fixed checks; this one sees every pair structure did not decide
confidently (a MED "consistent" can hide a real conflict), and its checks are learned weights.
The checks that stay as vetoes are principled, not fitted: disjoint scope or window never reaches
it (structure decides "coexist"); a pair where a statement has no subject and the texts are not
similar, or whose texts — or predicates, each text without its subject — are less alike than the
gate's floors (learned with it: where it saw almost no contradiction), cannot be blocked; nor can
a pair where one statement entails the other, or two values of different kinds about one subject.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from guard.claims import Norm, StateVerb
from guard.compare import (SubjectMatch, Verdict, VerdictKind, component_id, different_settings, frequencies_of_two_verbs,
                           named_things, one_quantity, singular, subject_match)
from guard.judge import NLIResult
from guard.nli.evidence import needs_backward, pair_features, predicate_pair, second_direction, vector
from guard.nli.learned_gate import LearnedGate
from guard.normalize.durations import action_time

if TYPE_CHECKING:
    from guard.embed import Embedder
    from guard.nli.scorer import NLIScorer

NO_SUBJECT_MIN_SIMILARITY = 0.5
_WORDS = re.compile(r"[a-z0-9_]+")
ENTAILMENT_VETO = 0.9


def _named_head(n: Norm) -> tuple[str, frozenset[str]] | None:
    """(the named thing, the words after it) where a subject opens with one named thing and goes on
    for at most three words ("reports-cron-1 cache entry"); None for any other subject, as a long
    one read from prose ("legacy jump host netop team lower RequiredRSASize")."""
    words = (n.subject or "").split()
    if not words or not named_things(words[0]) or named_things(" ".join(words[1:])) or len(words) > 4:
        return None
    return words[0].strip("`").lower(), frozenset(singular(w.lower()) for w in words[1:])


def different_parts(a: Norm, b: Norm) -> bool:
    """Both subjects name the one same thing and each goes on to a part of its own ("The
    reports-cron-1 cache entries expire after 30 minutes." / "The reports-cron-1 logs are retained
    for 365 days."): the cache entries and the logs of one service are two things, whatever the
    model reads into one name."""
    ha, hb = _named_head(a), _named_head(b)
    return ha is not None and hb is not None and ha[0] == hb[0] and bool(ha[1]) and bool(hb[1]) \
        and not ha[1] & hb[1]


def _same_named_head(a: Norm, b: Norm) -> bool:
    """Both subjects open with the one same named thing (``_named_head``)."""
    ha, hb = _named_head(a), _named_head(b)
    return ha is not None and hb is not None and ha[0] == hb[0]


def _one_subject(a: Norm, b: Norm) -> bool:
    """The subjects match, or both open with the one same named thing ("The billing-service-0
    connection pool size is 5." / "The billing-service-0 runs 6 replicas.": the first subject holds
    the attribute, but both speak of billing-service-0)."""
    return subject_match(a.subject, b.subject, a.theme, b.theme) in (SubjectMatch.SAME, SubjectMatch.NEAR) \
        or _same_named_head(a, b)


def different_quantities(a: Norm, b: Norm) -> bool:
    """One subject, a value in each statement, and the two values of different kinds ("runs 6
    replicas" / "uses Python 3.12"; "is deployed in us-east-1" / "requires TLS 1.3"), or of one kind
    with each statement naming its own setting ("uses Python 3.11" / "requires TLS 1.3": the python
    version and the tls version): two facts about one thing, not two answers to one question."""
    if not (a.value and b.value) or not _one_subject(a, b):
        return False
    # how often two differently named actions happen may be one action's schedule said twice
    # ("Passwords must be changed every 90 days." / "… rotated every 180 days."): no two facts for sure
    return not one_quantity(a, b) or different_settings(a, b) and not frequencies_of_two_verbs(a, b)


def _said_terms(n: Norm) -> set[str]:
    """What a statement says beyond its subject: its content terms without the subject's words."""
    subject = set((n.subject or "").lower().split())
    return {t.lower() for t in n.terms if t.lower() not in subject}


def _words(terms) -> set[str]:
    return {w for t in terms for w in _WORDS.findall(t.lower())}


# what the normalizer falls back to when no word names a value's attribute: a unit family or a value
# kind that says what the value is, not what it is of ("90 days": time; "100%": percent)
_GENERIC_ATTRIBUTES = frozenset({"number", "count", "date", "literal", "name", "clock", "time", "percent", "frequency",
                                 "day", "day of month"})


# unit families that measure (how long, how much, when), as against those that name what is counted
# ("4 replicas", "3 approvals", "100 connections": the count of that thing is the attribute)
_MEASURES = frozenset({"time", "percent", "bytes", "date", "count", "clock", "period", "weekday", "month", "monthday", "yearday",
                       "usd", "eur", "gbp"})


def _named_attribute(n: Norm) -> bool:
    """Whether the statement's attribute is known: named by its words ("max_connections", "stipend",
    "tls version"), by a value that can only be of one thing (a port, a region) or by the thing a
    value counts ("runs 4 replicas"); not the fallback of a measure ("90 days": time)."""
    unit = n.bound.unit if n.bound is not None else None
    if not n.attribute or n.attribute in _GENERIC_ATTRIBUTES:
        return False
    if unit == "time" and action_time(n.attribute):
        # how long or when an action happens ("kept for 90 days": a retention period) is what a statement
        # with no value may be about: "Error logs must be deleted immediately." denies that retention
        return False
    return n.attribute != unit or not (unit in _MEASURES or "/" in unit)


def _states_other_aspect(a: Norm, b: Norm) -> bool:
    """``a`` gives the value of a named attribute; ``b`` mentions no value at all, never names that
    attribute and shares no word with what ``a`` says."""
    # a subject that goes on past its named thing names the part the value is of ("The reports-cron-1
    # cache entries expire after 30 minutes.": the cache entries' expiry, where the value alone says
    # only "time")
    head = _named_head(a)
    part = sorted(head[1]) if head is not None and head[1] and _named_head(b) == (head[0], frozenset()) else []
    if not (a.value and (_named_attribute(a) or part)) or b.value or b.values:
        return False
    # the verb alone is nothing shared: "Load tests run every Thursday." (attribute "run day") and
    # "Load tests must not run against production." share only "run", and say different things of it
    verbs = {n.object.value for n in (a, b) if n.object not in (StateVerb.BE, StateVerb.OTHER)}
    if (_words([a.attribute or "", *part]) & _words(b.terms)) - verbs:
        return False
    return not (_said_terms(a) & _said_terms(b)) - verbs


def different_aspects(a: Norm, b: Norm) -> bool:
    """One subject; one statement gives the value of an attribute ("listens on port 80", "is deployed
    in eu-central-1", "uses Python 3.12"), the other gives no value and says something that shares
    no word with it ("must share its database with other services"): two facts about one thing.

    Why a cap: the claim-tuned model reads "same subject, another fact" as a contradiction at
    p ≈ 1.0 on the short claims agents write, and every false block of the 2,000-claim short-claim
    store was of this kind (49 of 53 pass this test; the other four share a word such as "deploy").
    On real prose the test is rare (claims_train: 3 contradictions and 6 compatible pairs, none of
    them blocked on grouped CV), since real contradictions of a stated value restate it or its
    attribute."""
    return _one_subject(a, b) and (_states_other_aspect(a, b) or _states_other_aspect(b, a))


def two_facts(a: Norm, b: Norm) -> bool:
    return different_quantities(a, b) or different_aspects(a, b) or different_parts(a, b)


def one_named_thing(a: Norm, b: Norm) -> bool:
    """Both subjects open with the one same component identifier (``compare.component_id``: digits and
    letters or an underscore, "auth-cron-1", "PASS_MAX_DAYS"; the normalizer has taken a name's backticks
    off by now): a subject read without doubt, unlike a noun phrase read from prose. A product named in
    camel case ("BigQuery", "GitHub") is not one: prose about it names many of its parts."""
    return _same_named_head(a, b) and component_id(a.subject.split()[0])


def settled_clean(a: Norm, b: Norm) -> bool:
    """Two facts about one named thing: ``veto`` lowers every tier of such a pair to clean, so the
    gate's answer is known before any model runs. ``EvidenceGate.assess`` therefore scores no NLI
    and no similarity for them — in an agent's store they are most of a write's candidates (554 of
    the 564 pairs the gate saw over the speed benchmark's 200 writes at 10,000 claims)."""
    return one_named_thing(a, b) and two_facts(a, b)


def veto(tier: str, verdict: Verdict, features: dict, norms: tuple[Norm, Norm] | None = None,
         min_similarity: float | None = None, predicate_similarity: float | None = None,
         min_predicate_similarity: float | None = None) -> tuple[str, str]:
    """The principled caps on a learned block: texts less alike than the gate's similarity floor
    (``min_similarity``: where it saw almost no contradiction to learn from) cannot block, nor can
    predicates less alike than its predicate floor (what the two say beyond their subjects'
    names: ``predicate_similarity`` against ``min_predicate_similarity``); no
    subject and dissimilar texts cannot block, and
    neither can a pair where one statement entails the other (NLI entailment ≥ 0.9 either way:
    "X preserves ordering and rejects null keys" / "X preserves ordering"), nor two values of
    different kinds about one subject (the claim-tuned model reads "same subject, other fact" as a
    contradiction: p ≈ 0.87 on "runs 6 replicas" / "uses Python 3.12", where v1 says neutral).
    Where those last caps (``two_facts``) hold, an unsure warn is lowered to clean, and so is a block
    when both subjects open with the one same component identifier (``one_named_thing``)."""
    if tier == "block" and norms is not None and settled_clean(*norms):
        # a named component's port and its Python version, its region and its review rule: the model's
        # "same subject, other fact" bias at p ≈ 1.0, on the one kind of subject read without doubt.
        # Kept as a warn, every such pair of an agent's store was flagged (304 of 2,000 claims' store
        # warned, all of them false); prose subjects keep the warn (claims_train's named-subject pairs
        # of this kind were all clean already)
        return "clean", "; lowered to clean: the statements give two facts about one named thing"
    if tier == "warn" and norms is not None and two_facts(*norms):
        # what caps a confident block at warn makes an unsure warn clean: the model leaning towards a
        # conflict is not enough to flag two facts about one thing ("runs 12 replicas" / "… request
        # timeout is 30 seconds")
        return "clean", "; lowered to clean: the statements give two facts about one thing"
    if tier != "block":
        return tier, ""
    if min_similarity is not None and features["text_similarity"] < min_similarity:
        return "warn", (f"; capped at warn: the texts are less alike ({features['text_similarity']:.2f}) than the "
                        f"gate's similarity floor ({min_similarity:.2f})")
    if None not in (predicate_similarity, min_predicate_similarity) and predicate_similarity < min_predicate_similarity:
        return "warn", (f"; capped at warn: beyond their subjects the statements are less alike "
                        f"({predicate_similarity:.2f}) than the gate's predicate floor ({min_predicate_similarity:.2f})")
    if norms is not None and different_quantities(*norms):
        return "warn", "; capped at warn: the two values are different kinds of quantity about one subject"
    if norms is not None and different_aspects(*norms):
        return "warn", "; capped at warn: the statements speak of different aspects of one subject"
    if norms is not None and different_parts(*norms):
        return "warn", "; capped at warn: the statements speak of different parts of one named thing"
    if verdict.kind is VerdictKind.INCOMPARABLE and features["text_similarity"] < NO_SUBJECT_MIN_SIMILARITY:
        return "warn", "; capped at warn: a statement has no subject and the texts are not similar"
    if features["pe_max"] >= ENTAILMENT_VETO:
        return "warn", f"; capped at warn: one statement entails the other (NLI entailment {features['pe_max']:.2f})"
    return tier, ""


class EvidenceGate:
    """``assess(items, verdicts) -> list[NLIResult]``; every result is final (``learned=True``)."""

    learned = True

    def __init__(self, scorer: "NLIScorer", gate: LearnedGate, embedder: "Embedder | None" = None):
        self.scorer = scorer
        self.gate = gate
        self.embedder = embedder

    def _similarities(self, items) -> list[tuple[float | None, float]]:
        if self.embedder is None:
            return [(None, 0.0)] * len(items)
        texts = [t for _, ta, _, tb in items for t in (ta, tb)]
        subjects = [n.subject or "" for na, _, nb, _ in items for n in (na, nb)]
        both = self.embedder.encode(texts + subjects)           # one model call: a write's fixed cost counts
        tv, sv = both[:len(texts)], both[len(texts):]
        return [(float(sv[2 * i] @ sv[2 * i + 1]) if na.subject and nb.subject else None, float(tv[2 * i] @ tv[2 * i + 1]))
                for i, (na, _, nb, _) in enumerate(items)]

    def _predicate_similarities(self, items, idx: list[int]) -> dict[int, float]:
        """The predicate cosine of the pairs ``idx`` (those the gate would block), in one model call.
        Why only those: the predicate floor can only cap a block, and blocks are few, so a write or a
        scan pays for a handful of short texts, not for every pair the gate sees."""
        if not idx:
            return {}
        texts = [t for i in idx for t in predicate_pair(items[i][1], items[i][0].subject, items[i][3], items[i][2].subject)]
        v = self.embedder.encode(texts)
        return {i: float(v[2 * k] @ v[2 * k + 1]) for k, i in enumerate(idx)}

    def _to_gate(self, probs: dict[str, float] | None) -> dict[str, float] | None:
        """The scorer's (calibrated) probabilities at the temperature the gate's evidence was read at
        (``LearnedGate.nli_temperature``): ``rescale`` by the ratio of the two temperatures undoes
        the scorer's and applies the gate's exactly (softmax of the same logits)."""
        t = getattr(self.gate, "nli_temperature", None)
        have = getattr(self.scorer, "temperature", 1.0)
        if probs is None or t is None or abs(t - have) < 1e-12:
            return probs
        from guard.nli.calibration import rescale
        return rescale(probs, t / have)

    def _score(self, items) -> list[tuple[dict[str, float], dict[str, float] | None, dict[str, float], dict | None]]:
        """(forward, backward) NLI scores as the scorer gives them (shown with the decision), then
        the same at the gate's temperature (its evidence); backward is None where the gate's rule
        leaves it unscored — the rule reads the gate's scores, as when the gate was fitted. A pair's
        scores never depend on the others in the call (fp32, static int8, the bf16 tiles), so scoring
        the second direction in a call of its own, or in the first call, changes no number."""
        pairs = [(a_text, b_text) for _, a_text, _, b_text in items]
        below = self.gate.backward_below
        if below is None:
            return [(f, b, self._to_gate(f), self._to_gate(b)) for f, b in self.scorer.score_both(pairs)]
        rows = getattr(self.scorer, "tile_rows", None)
        if rows and pairs and 2 * len(pairs) <= rows:
            # a tiled backend runs a whole tile however few pairs fill it: the second direction
            # costs nothing in the first call, and a second call would cost a tile more
            forward, spare = map(list, zip(*self.scorer.score_both(pairs)))
        else:
            forward, spare = self.scorer.predict(pairs), None
        gate_forward = [self._to_gate(f) for f in forward]
        need = [i for i, f in enumerate(gate_forward) if needs_backward(f, below)]
        if spare is None and need:
            spare = dict(zip(need, self.scorer.predict([(pairs[i][1], pairs[i][0]) for i in need])))
        backward: list = [None] * len(pairs)
        for i in need:
            backward[i] = spare[i]
        return [(f, b, gf, self._to_gate(b)) for f, b, gf in zip(forward, backward, gate_forward)]

    def assess(self, items: list[tuple[Norm, str, Norm, str]], verdicts: list[Verdict]) -> list[NLIResult]:
        settled = [settled_clean(a, b) for a, _, b, _ in items]
        rest = iter(self._assess([x for x, s in zip(items, settled) if not s],
                                 [v for v, s in zip(verdicts, settled) if not s]))
        return [_settled() if s else next(rest) for s in settled]

    def _assess(self, items: list[tuple[Norm, str, Norm, str]], verdicts: list[Verdict]) -> list[NLIResult]:
        if not items:
            return []
        scored = self._score(items)
        sims = self._similarities(items)
        below = self.gate.backward_below
        feats = [pair_features(a, ta, b, tb, v, gf, second_direction(gf, gb, below), s, t)
                 for (a, ta, b, tb), v, (_, _, gf, gb), (s, t) in zip(items, verdicts, scored, sims)]
        proba = self.gate.predict_proba(np.array([vector(f) for f in feats]))
        tiers = self.gate.tiers(proba)
        # without a bi-encoder the texts' similarity is unknown (0 in the features): no floor then
        floor = getattr(self.gate, "min_block_similarity_", None) if self.embedder is not None else None
        pfloor = getattr(self.gate, "min_block_predicate_similarity_", None) if self.embedder is not None else None
        psims = self._predicate_similarities(items, [i for i, t in enumerate(tiers) if t == "block"]) \
            if pfloor is not None else {}
        out = []
        for i, ((a, _, b, _), f, v, (fwd, bwd, _, _), p, tier) in enumerate(
                zip(items, feats, verdicts, scored, proba, tiers)):
            evidence = {"p_gate": {"contradiction": round(float(p[0]), 4), "tension": round(float(p[1]), 4),
                                   "compatible": round(float(p[2]), 4)},
                        "thresholds": {"block": self.gate.block_threshold_, "warn": self.gate.warn_threshold_},
                        "nli_directions": 1 if bwd is None else 2,
                        "nli_temperature": getattr(self.gate, "nli_temperature", None),   # of the pc_/pe_ features
                        **{k: round(x, 4) for k, x in f.items() if not k.startswith("verdict_")}}
            if i in psims:
                evidence["predicate_similarity"] = round(psims[i], 4)
            why = (f"learned gate: p(contradiction) {p[0]:.2f}, p(tension) {p[1]:.2f} "
                   f"(NLI {f['pc_max']:.2f}/{f['pc_min']:.2f}, structure {v.kind.value}/{v.confidence.value})")
            tier, note = veto(tier, v, f, (a, b), floor, psims.get(i), pfloor)
            why += note
            action = {"block": "block", "warn": "warn", "clean": "none"}[tier]
            out.append(NLIResult(float(p[0]), _round(fwd), _round(bwd) if bwd is not None else None, evidence, action,
                                 why, learned=True))
        return out


def _settled() -> NLIResult:
    """The answer for a ``settled_clean`` pair: no model ran, so there are no scores to show."""
    return NLIResult(None, None, None, {"nli_directions": 0}, "none",
                     "learned gate not consulted: the statements give two facts about one named thing, "
                     "which is clean whatever the NLI model says", learned=True)


def _round(d: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in d.items()}
