"""The spaCy model's attribute ruler, matched by dictionary lookups instead of the Matcher.

Why: timing the v2 normalizer's pipeline on claims_train's 2,157 statements, the
``attribute_ruler`` took 1.2 s against 3.8 s for tok2vec, tagger and parser together: its 179
patterns run through spaCy's general Matcher over every token, and one Span is made per match
(about one per token), although every pattern is a fixed sequence of token tests on four attributes
(fine tag, lower-case form, dependency label, whitespace) with equality, IN, NOT_IN or REGEX. Here
each pattern is indexed by a value its first token must have (its lower-case form, else its tag,
else its dependency label, else whitespace), so a token is tested only against the few patterns
that can start on it. The matches are applied exactly as the ruler applies them — in rule order,
later rules overriding earlier ones, with the ruler's own normalised attributes and spaCy's own
setter — so every token's POS, morphology and lemma come out identical
(``tests/test_fast_attribute_ruler.py`` compares them token by token). A pattern this class cannot
read (a quantifier, another attribute or operator) makes ``load_from`` refuse, and the normalizer
then keeps spaCy's ruler.
"""
from __future__ import annotations

import re

from spacy.attrs import DEP, IS_SPACE, LOWER, TAG
from spacy.language import Language
from spacy.tokens import Doc
from spacy.tokens._retokenize import set_token_attrs    # the setter spaCy's AttributeRuler uses

FACTORY = "guard_fast_attribute_ruler"
_ATTRS = {"LOWER": 0, "TAG": 1, "DEP": 2, "IS_SPACE": 3}     # columns of the per-doc array
_ARRAY = [LOWER, TAG, DEP, IS_SPACE]


class Unsupported(ValueError):
    """A ruler pattern outside what the lookup matcher reads; the caller keeps spaCy's ruler."""


def _test(strings, key: str, spec):
    """One token test as a predicate over the array value (a string hash, or 0/1 for IS_SPACE)."""
    if key == "IS_SPACE":
        if not isinstance(spec, bool):
            raise Unsupported(f"IS_SPACE {spec!r}")
        want = int(spec)
        return lambda v: v == want
    if isinstance(spec, str):
        h = strings.add(spec) if spec else 0
        return lambda v: v == h
    if isinstance(spec, dict) and len(spec) == 1:
        (op, arg), = spec.items()
        if op in ("IN", "NOT_IN") and isinstance(arg, list) and all(isinstance(x, str) for x in arg):
            hs = frozenset(strings.add(x) if x else 0 for x in arg)
            return (lambda v: v in hs) if op == "IN" else (lambda v: v not in hs)
        if op == "REGEX" and isinstance(arg, str):
            rx = re.compile(arg)
            return lambda v: bool(rx.search(strings[v]))
    raise Unsupported(f"{key} {spec!r}")


def _anchor(strings, token_spec: dict) -> tuple[int, list] | None:
    """(column, the values the first token must have) for the index, or None (test every token)."""
    for key in ("LOWER", "TAG", "DEP"):
        spec = token_spec.get(key)
        if isinstance(spec, str):
            return _ATTRS[key], [strings.add(spec) if spec else 0]
        if isinstance(spec, dict) and set(spec) == {"IN"}:
            return _ATTRS[key], [strings.add(x) if x else 0 for x in spec["IN"]]
    if token_spec.get("IS_SPACE") is True:
        return _ATTRS["IS_SPACE"], [1]
    return None


class FastAttributeRuler:
    """A pipeline component made from an ``AttributeRuler``; it keeps that ruler for its attributes."""

    def __init__(self, vocab):
        self.vocab = vocab
        self.ruler = None
        self.index: list[dict[int, list]] = [{} for _ in _ATTRS]     # column → value → patterns
        self.unanchored: list = []

    def load_from(self, ruler) -> "FastAttributeRuler":
        """Compile ``ruler``'s patterns; raises ``Unsupported`` (and changes nothing) on one it cannot read."""
        from spacy.pipeline.attributeruler import AttributeRuler
        if not isinstance(ruler, AttributeRuler):
            raise Unsupported(f"expected spaCy's AttributeRuler, got {type(ruler).__name__}")
        strings = self.vocab.strings
        by_value: list[dict[int, list]] = [{} for _ in _ATTRS]
        unanchored: list = []
        for rule_id, rule in enumerate(ruler.patterns):       # in the order the ruler added them
            index = rule.get("index", 0)
            for pattern in rule["patterns"]:
                if not pattern or not isinstance(pattern, list):
                    raise Unsupported(f"pattern {pattern!r}")
                tests = []
                for tok in pattern:
                    if not isinstance(tok, dict) or set(tok) - set(_ATTRS):
                        raise Unsupported(f"token pattern {tok!r}")
                    tests.append([(_ATTRS[k], _test(strings, k, v)) for k, v in tok.items()])
                if not -len(pattern) <= index < len(pattern):
                    raise Unsupported(f"index {index} of a {len(pattern)}-token pattern")
                compiled = (rule_id, index % len(pattern), tests)
                anchor = _anchor(strings, pattern[0])
                if anchor is None:
                    unanchored.append(compiled)
                else:
                    col, values = anchor
                    for v in values:
                        by_value[col].setdefault(v, []).append(compiled)
        self.ruler, self.index, self.unanchored = ruler, by_value, unanchored
        return self

    def matches(self, doc: Doc) -> list[tuple[int, int]]:
        """(rule id, index of the token to set), sorted the way the ruler applies them."""
        rows = doc.to_array(_ARRAY).tolist() if len(doc) else []
        n = len(rows)
        found: set[tuple[int, int]] = set()
        index, unanchored = self.index, self.unanchored
        for start, row in enumerate(rows):
            for col in range(4):
                for rule_id, at, tests in index[col].get(row[col], ()):
                    if self._fits(rows, n, start, tests):
                        found.add((rule_id, start + at))
            for rule_id, at, tests in unanchored:
                if self._fits(rows, n, start, tests):
                    found.add((rule_id, start + at))
        return sorted(found)

    @staticmethod
    def _fits(rows, n: int, start: int, tests) -> bool:
        if start + len(tests) > n:
            return False
        for offset, token_tests in enumerate(tests):
            row = rows[start + offset]
            for col, ok in token_tests:
                if not ok(row[col]):
                    return False
        return True

    def __call__(self, doc: Doc) -> Doc:
        attrs = self.ruler.attrs
        for rule_id, i in self.matches(doc):
            set_token_attrs(doc[i], attrs[rule_id])
        return doc


@Language.factory(FACTORY)
def make_fast_attribute_ruler(nlp: Language, name: str) -> FastAttributeRuler:
    return FastAttributeRuler(nlp.vocab)


def speed_up(nlp: Language) -> Language:
    """Swap the pipeline's attribute ruler for the lookup version, in place. A pipeline without one,
    or with a pattern the lookup matcher cannot read, keeps what it has."""
    if "attribute_ruler" not in nlp.pipe_names:
        return nlp
    ruler = nlp.get_pipe("attribute_ruler")
    try:
        compiled = FastAttributeRuler(nlp.vocab).load_from(ruler)     # before the swap: spaCy's ruler stays on failure
    except Unsupported:
        return nlp
    fast = nlp.replace_pipe("attribute_ruler", FACTORY)
    fast.ruler, fast.index, fast.unanchored = compiled.ruler, compiled.index, compiled.unanchored
    return nlp
