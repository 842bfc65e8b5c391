"""The value selectors searched in two steps (the mandatory rest first, then the whole pattern)
find exactly what the whole pattern finds, on generated text built from the words the selectors
read and on real statements."""
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from guard.normalize.typed_values import _WORD_COUNTS, TYPED_PATTERNS
from guard.normalize.values import PATTERNS, Guarded

WORDS = ["at most", "up to", "no more than", "over", "above", "at least", "since", "by", "on", "in", "until",
         "from", "as of", "$", "€", "£", "5", "10,000", "3.5", "0", "2k", "kb", "MiB", "GB", "bytes", "per", "a",
         "an", "each", "every", "/", "week", "day", "hour", "h", "ms", "times", "three", "twelve", "a single",
         "2025-04-30", "April", "30,", "2025", "Jan", "Sept.", "1st", "usd", "dollars", "%", "requests", "-",
         ".", ",", "or less", "or more", "v2", "node", "port", "x",
         # how often (session 57), and the words its patterns need before they are searched
         "once", "twice", "Twice", "other", "daily", "WEEKLY", "quarter", "cadence", "release cycle", "intervals",
         "15-minute", "six", "the", "for", "of", "15th", "month", "last", "business day", "each month",
         # counts said in words (session 66)
         "two", "engineers", "major releases", "idle", "on-call", "a single", "review", "one", "no less than"]
GUARDED = [p for _, p in TYPED_PATTERNS + PATTERNS if isinstance(p, Guarded)] + list(_WORD_COUNTS)


def _spans(matches):
    return [(m.span(), m.groupdict()) for m in matches]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
       st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=12, max_size=12))
def test_two_step_search_finds_what_the_whole_pattern_finds(words, gaps):
    text = "".join(w + (g or " ") for w, g in zip(words, gaps)).strip()
    for p in GUARDED:
        assert _spans(p.finditer(text)) == _spans(p.pattern.finditer(text)), (p.pattern.pattern, text)


def test_the_slow_selectors_are_the_guarded_ones():
    assert len(GUARDED) == len(TYPED_PATTERNS) + 5          # every typed selector, v1's two number selectors, counts in words
    for p in GUARDED:
        assert isinstance(p.rest, re.Pattern) and p.pattern.pattern.endswith(p.rest.pattern)


def test_real_statements_match_alike(shared_data):
    from training.claim_pairs import read_rows
    texts = {t for f in ("claims_dev", "claims_train") for r in read_rows(shared_data / "bench" / f"{f}.jsonl")
             for t in (r["existing"]["text"], r["incoming"]["text"])}
    found = 0
    for text in texts:
        for p in GUARDED:
            whole = _spans(p.pattern.finditer(text))
            assert _spans(p.finditer(text)) == whole, text
            found += bool(whole)
    assert found > 500                                      # the selectors did read values here
