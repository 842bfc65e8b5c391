"""Where an opening phrase or clause written without its comma ends, learned from sentences that wrote the comma.

Why: ``openings.opening_without_comma`` puts the comma back only where the words themselves mark the boundary (a
determiner, a subject pronoun, a name before its verb …) and leaves the rest read whole, so "During incidents prefer
reversible actions." was about "incident" and "For P0 incidents status updates are posted …" about "p0 incident status
update". Where it abstains, this model ranks the places the phrase could end. It is a logistic regression over the
words and tags round each place, fitted on sentences of general English (the NLI training files) that opened with a
phrase or clause and its comma: the comma taken out, the model learns where it stood. A place is taken only where the
sentence, the comma put back there, parses as an opening phrase or clause followed by a main clause with its subject
(or an order) — the check that picked the training sentences — so a ranking the parser cannot read goes unused, and
the statement is read as written. Learned state is a JSON file of feature weights, saved with what it was fitted on
(``training/fit_opening_boundary.py``).
"""
from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

from guard.normalize.openings import (
    _CLAUSE_OPENERS,
    _FINITE,
    _NOT_OPENERS,
    _QUANTITIES,
    a_verb_after,
)

MODEL_FILE = Path(__file__).resolve().parents[2] / "models" / "opening-boundary" / "opening_boundary.json"
FEATURES_VERSION = 1
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl"})
_BEFORE_AN_ORDER = frozenset({"aux", "neg", "advmod", "intj"})     # "…, do not use", "…, please use"
_MAX_PLACES = 30        # an opening phrase longer than this is not looked for


def opens_a_phrase(doc) -> bool:
    """A preposition or subordinating word first (or a word that opens a clause whatever its tag: "Once" is tagged an
    adverb), not one of a quantity ("At least two …") or a comparison."""
    return len(doc) >= 5 and (doc[0].tag_ in ("IN", "WRB") or doc[0].lower_ in _CLAUSE_OPENERS) \
        and doc[0].lower_ not in _NOT_OPENERS \
        and doc[:2].text.lower() not in _QUANTITIES


def places(doc) -> list[int]:
    """Token indices ``i`` the phrase could end after: not the opener itself, not before a stop, and leaving two
    tokens for the main clause."""
    return [i for i in range(1, min(len(doc) - 2, _MAX_PLACES)) if not doc[i + 1].is_punct]


def _side(t) -> str:
    return "f" if t.head.i > t.i else "b" if t.head.i < t.i else "r"


def place_features(doc) -> list[tuple[int, list[str]]]:
    """(token index, its features) for every place in ``places``: the tags and words either side of the place, the
    opener, how many finite verbs came before it and follow it, the shape and parse of the word after it."""
    tags = [t.tag_ for t in doc] + ["END"] * 3
    low = [t.lower_ for t in doc] + ["<e>"] * 3
    finite_after = [0] * (len(doc) + 1)
    for j in range(len(doc) - 1, -1, -1):
        finite_after[j] = finite_after[j + 1] + (tags[j] in _FINITE)
    opener = low[0]
    clause = opener in _CLAUSE_OPENERS
    out, finite_before, wanted = [], 0, set(places(doc))
    for i in range(1, max(wanted, default=0) + 1):
        finite_before += tags[i] in _FINITE
        if i not in wanted:
            continue
        t, n = doc[i], doc[i + 1]
        fb = min(finite_before, 2)
        f = ["bias", "o=" + opener, "t0=" + tags[i], "t1=" + tags[i + 1], "t-1=" + tags[i - 1], "t2=" + tags[i + 2],
             "t01=" + tags[i] + tags[i + 1], "t12=" + tags[i + 1] + tags[i + 2], "t-10=" + tags[i - 1] + tags[i],
             "w0=" + low[i], "w1=" + low[i + 1], "w2=" + low[i + 2], "t0w1=" + tags[i] + low[i + 1],
             "w0t1=" + low[i] + tags[i + 1], f"fb={fb}", f"fbc={fb}{int(clause)}", f"fa={min(finite_after[i + 1], 2)}",
             f"fa3={int(finite_after[i + 1] > finite_after[min(i + 4, len(doc))])}", f"pos={min(i, 12)}",
             "sh1=" + n.shape_[:4], "d0=" + t.dep_, "d1=" + n.dep_, "d1h=" + _side(n), "d0h=" + _side(t),
             f"sub1={int(n.dep_ in _SUBJECTS)}"]
        if clause:
            f.append("clause")
        if n.text[:1].isupper():
            f.append("cap1")
        out.append((i, f))
    return out


def _opening(doc):
    """The head of the phrase or clause ``doc`` opens with, or None: the preposition of a phrase, the verb of a clause
    its first word marks ("If it rains", "Although …"), or the verb of a clause opened by a wh- or time adverb, which
    the parser hangs on that verb as its modifier, not as a marker ("When a test fails", "Once the window has passed",
    "As long as beat runs": the adverb's chain of heads up to the clause's verb)."""
    first = doc[0]
    if first.dep_ == "prep":
        return first
    if first.dep_ == "mark":
        return first.head
    if first.dep_ == "advmod" and first.lower_ in _CLAUSE_OPENERS:
        t = first
        while t.head.i != t.i and t.dep_ != "advcl":
            t = t.head
        return t if t.dep_ == "advcl" else None
    return None


def _two_noun_phrases(doc, subject) -> bool:
    """Whether the parser made one subject of two noun phrases side by side: a determiner inside it before its noun
    ("environment the login page"), or an appositive with a determiner of its own and no comma before it ("2.45 servers
    the WAL" — an appositive is set off: "the log, the WAL, …"; "the tool Terraform" has no determiner of its own)."""
    if any(t.tag_ == "DT" for t in doc[subject.left_edge.i + 1:subject.i]):
        return True
    return any(t.dep_ == "appos" and t.left_edge.tag_ == "DT" and t.left_edge.i > 0
               and not doc[t.left_edge.i - 1].is_punct for t in subject.children)


def _starts_a_main_clause(doc, start: int, root, orders: bool = True) -> bool:
    """Whether ``doc`` from token ``start`` reads as a main clause whose verb is ``root``: its subject first, or (with
    ``orders``) an order that starts with its verb (or "do not", "please" …)."""
    if start < len(doc) and doc[start].tag_ == "RB":
        start += 1                  # "…, only json is enabled", "…, always use …"
    subjects = [k for k in root.children if k.dep_ in _SUBJECTS]
    if len(subjects) == 1 and subjects[0].left_edge.i == start and not _two_noun_phrases(doc, subjects[0]):
        # the main clause starts with its subject ("…, the WAL stays", not "…, servers the WAL stays"), its one
        # subject (a verb given two is a misparse: "…, environment the login page is served …")
        return True
    # an order's verb, which the small model tags a present tense after a comma as often ("…, prefer reversible …")
    return orders and root.tag_ in ("VB", "VBP") and not any(k.dep_.startswith("nsubj") for k in root.children) \
        and all(t.head == root and t.dep_ in _BEFORE_AN_ORDER for t in doc[start:root.i])


def reads_as_opening(doc, comma: int, nlp=None) -> bool:
    """Whether ``doc`` (a sentence with a comma at character ``comma``) parses as an opening phrase or clause that
    ends at that comma, then a main clause that starts with its verb's subject (an adverb before it aside), or an order
    that starts with its verb (or "do not", "please" …).

    ``nlp``: where the sentence's parse reads the opening but not the clause after it, that clause is parsed alone
    and judged the same way — as ``normalizer.rules.v2`` reads a sentence with its opening's comma, the main clause
    apart — where it starts with its subject: alone, a word after a wrong place reads as an order too often ("For the
    runtime deprecation, notice the HTTP Sunset Header must be used."). Why: the small model misparses a main clause
    behind an opening more often than alone ("During an active incident, share logs …" made "share" a noun and "logs"
    the verb; "For free-tier customers, status-page updates … are posted …" took "updates" for a verb), so a sentence
    that wrote its comma was judged no opening and its comma-less form was read whole."""
    c = next((t.i for t in doc if t.idx == comma and t.text == ","), None)
    if c is None or c < 1 or c + 1 >= len(doc):
        return False
    opening = _opening(doc)
    if opening is None or opening.left_edge.i != 0 or opening.right_edge.i != c - 1:
        return False
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is not None and root.i > c and _starts_a_main_clause(doc, c + 1, root):
        return True
    if nlp is None:
        return False
    clause = nlp(doc.text[comma + 1:].strip())
    root = next((t for t in clause if t.dep_ == "ROOT"), None)
    return root is not None and len(clause) >= 2 and _starts_a_main_clause(clause, 0, root, orders=False)


class OpeningBoundary:
    """``fit`` learns, per place, whether the opening ends there; ``boundary`` puts the comma back where the best
    ranked place the parser can read is.

    ``min_probability``: a place ranked below it is not tried; ``tries``: how many places are parsed at most;
    ``min_count``: a feature seen at fewer places than this in fitting gets no weight (a word seen once says nothing
    of its kind, and the file stays small)."""

    def __init__(self, C: float = 1.0, min_probability: float = 0.1, tries: int = 5, min_count: int = 2):
        self.C, self.min_probability, self.tries, self.min_count = C, min_probability, tries, min_count

    def fit(self, docs, ends: list[int], fitted_on: str = "") -> OpeningBoundary:
        """``docs``: comma-less sentences; ``ends``: the character offset each one's opening ends at (where its
        comma stood)."""
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression
        X, y = [], []
        for doc, end in zip(docs, ends):
            for i, f in place_features(doc):
                X.append(dict.fromkeys(f, 1))
                y.append(int(doc[i].idx + len(doc[i]) == end))
        seen = Counter(x for row in X for x in row)
        X = [{x: 1 for x in row if seen[x] >= self.min_count} for row in X]
        if len(set(y)) < 2:
            raise ValueError("fitting needs sentences whose opening ends at one of its places and not at others")
        vec = DictVectorizer()
        lr = LogisticRegression(C=self.C, max_iter=3000).fit(vec.fit_transform(X), y)
        names = vec.get_feature_names_out()
        self.weights_ = {str(n): round(float(w), 4) for n, w in zip(names, lr.coef_[0]) if round(float(w), 4) != 0.0}
        self.intercept_ = float(lr.intercept_[0])
        self.fitted_on_ = fitted_on or f"{len(docs)} sentences"
        self.n_sentences_, self.n_places_ = len(docs), len(y)
        return self

    def _scored(self, doc) -> list[tuple[int, float]]:
        """(token index of a place, probability the opening ends after it), best first."""
        if not opens_a_phrase(doc):
            return []
        w = self.weights_
        scored = [(i, 1.0 / (1.0 + math.exp(-(self.intercept_ + sum(w.get(x, 0.0) for x in f)))))
                  for i, f in place_features(doc)]
        return sorted(scored, key=lambda s: -s[1])

    def ranked(self, doc) -> list[tuple[int, float]]:
        """(character offset of a place's end, probability the opening ends there), best first."""
        return [(doc[i].idx + len(doc[i]), p) for i, p in self._scored(doc)]

    def boundary(self, doc, nlp) -> int | None:
        """The character offset where ``doc``'s comma-less opening ends, or None. ``nlp`` parses the sentence with the
        comma put back, once per place tried."""
        text = doc.text
        for i, p in self._scored(doc)[:self.tries]:
            if p < self.min_probability:
                break
            if not a_verb_after(doc, i):
                continue            # no verb left for a main clause
            end = doc[i].idx + len(doc[i])
            if reads_as_opening(nlp(text[:end] + "," + text[end:]), end, nlp):
                return end
        return None

    # ---- persistence -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"kind": "logistic regression over binary place features", "features_version": FEATURES_VERSION,
                "params": {"C": self.C, "min_probability": self.min_probability, "tries": self.tries,
                           "min_count": self.min_count},
                "intercept": self.intercept_, "weights": self.weights_, "fitted_on": self.fitted_on_,
                "sentences": self.n_sentences_, "places": self.n_places_,
                "cross_validation": getattr(self, "cv_", None)}

    def save(self, path: str | Path) -> None:
        from guard.safe_output import atomic_write
        with atomic_write(Path(path)) as fh:
            fh.write(json.dumps(self.to_dict(), indent=0, sort_keys=True))

    @classmethod
    def load(cls, path: str | Path = MODEL_FILE) -> OpeningBoundary:
        try:
            d = json.loads(Path(path).read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} is damaged (not JSON: {exc.msg} at line {exc.lineno})") from None
        if not isinstance(d, dict) or not isinstance(d.get("weights"), dict):
            raise ValueError(f"{path} is not an opening-boundary model (a JSON object with weights)")  # noqa: TRY004 — callers catch ValueError
        if d.get("features_version") != FEATURES_VERSION:
            raise ValueError(f"{path} was fitted on features version {d.get('features_version')}, this build computes "
                             f"version {FEATURES_VERSION}: refit it (python -m training.fit_opening_boundary)")
        m = cls(**d.get("params", {}))
        m.weights_, m.intercept_ = {str(k): float(v) for k, v in d["weights"].items()}, float(d["intercept"])
        m.fitted_on_, m.n_sentences_, m.n_places_ = d.get("fitted_on", ""), d.get("sentences", 0), d.get("places", 0)
        m.cv_ = d.get("cross_validation")
        return m
