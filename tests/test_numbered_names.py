"""A name with a number in a statement's subject (guard.normalize.numbered_names), read by normalizer.rules.v2 with the
real spaCy model and compared by the structural stage: two numbers of one name are two things."""
import time

import pytest
from conftest import structural_verdict as _verdict

from guard.compare import VerdictKind
from guard.normalize.numbered_names import numbered_variants


@pytest.mark.parametrize("text, subject, variants", [
    ("Node 18 reached end of life in April 2025.", "node", (("node number", "18"),)),
    ("Node.js 20 is the default runtime.", "node.js", (("node.js number", "20"),)),
    ("Debian 11 will receive Long Term Support until August 31, 2026.", "debian", (("debian number", "11"),)),
    ("Node.js 18+ is required.", "node.js", ()),                                  # a bound
    ("Wait 5 minutes before retrying.", "wait", ()),                               # a quantity
    ("Keep 14 days of logs.", "keep", ()),
    ("The frontend is built with React 18.", "frontend", ()),                     # not the subject's name
    ("Support for April 2025 ends.", "april", ()),                                 # a date
    ("Vue 2.7 still gets fixes until the Vue 3 migration.", "vue", ()),           # a later mention
    ("Node 18 reached end of life.", None, ()),
])
def test_a_number_after_the_subjects_name_is_a_variant(text, subject, variants):
    assert numbered_variants(text, subject) == variants


@pytest.mark.parametrize("a, b, kind", [
    ("Node 18 reached end of life in April 2025.", "Node 20 reaches end of life in April 2026.", VerdictKind.COEXIST),
    ("Node 18 reached end of life in April 2025.", "Node 18 reaches end of life in April 2026.", VerdictKind.VALUE_CONFLICT),
    # the name without its number speaks of every release
    ("Node reaches end of life in April 2026.", "Node 18 reached end of life in April 2025.", VerdictKind.VALUE_CONFLICT),
    # a number that is the value said of another subject is no variant
    ("The frontend is built with React 18.", "The frontend is built with React 17.", VerdictKind.VALUE_CONFLICT),
])
def test_two_releases_coexist_and_one_release_conflicts(normalizer_v2, a, b, kind):
    v = _verdict(normalizer_v2, a, b)
    assert v.kind is kind, v


def test_hostile_input_is_read_in_linear_time():
    for text in ("Node " * 50_000, "A 1 " * 50_000, "Vue 2 " * 30_000):
        t = time.perf_counter()
        numbered_variants(text, "node a vue")
        assert time.perf_counter() - t < 1.0
