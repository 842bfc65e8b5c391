"""Naming conventions read as values: one kind of name has one style."""
import pytest
from conftest import structural_verdict as verdict

from guard.compare import Confidence, VerdictKind
from guard.normalize.naming_styles import naming_style
from guard.normalize.typed_values import extract_typed_values


@pytest.mark.parametrize("surface,style", [
    ("snake_case", "snake_case"), ("lower_snake_case", "snake_case"), ("snake case", "snake_case"),
    ("UPPER_SNAKE_CASE", "UPPER_SNAKE_CASE"), ("SCREAMING_SNAKE_CASE", "UPPER_SNAKE_CASE"),
    ("camelCase", "camelCase"), ("lowerCamelCase", "camelCase"), ("lower camel case", "camelCase"),
    ("PascalCase", "PascalCase"), ("UpperCamelCase", "PascalCase"),
    ("kebab-case", "kebab-case"), ("lower-kebab", "kebab-case"), ("spinal-case", "kebab-case"),
    ("Title Case", "Title Case"), ("sentence case", "Sentence case"),
    ("lowercase", None), ("case", None), ("camel", None),
])
def test_each_spelling_has_one_canonical_style(surface, style):
    assert naming_style(surface) == style


@pytest.mark.parametrize("text,surface", [
    ("You must use kebab-case for path segments.", "kebab-case"),
    ("Field names in the protos use lowerCamelCase, like campaignId.", "lowerCamelCase"),
    ("Environment variables must be UPPER_SNAKE_CASE.", "UPPER_SNAKE_CASE"),
])
def test_a_style_is_a_value(text, surface):
    assert [(v.kind, v.text) for v in extract_typed_values(text) if v.kind == "naming"] == [("naming", surface)]


@pytest.mark.parametrize("text", [
    "JSON fields are camelCase and query parameters are snake_case.",
    "MUST use lower camel case for all names (wrong: kebab-case or snake_case).",
    "Use a case-insensitive match.", "In that case, retry.", "Title case-insensitive sorting is on.",
])
def test_no_style_is_read_where_there_are_several_or_none(text):
    """Which of several styles goes with which name is in the grammar, which the rules do not read."""
    assert [v for v in extract_typed_values(text) if v.kind == "naming"] == []


@pytest.mark.parametrize("a,b", [
    ("You must use kebab-case for path segments.",
     "Path segments in the Logistics API are snake_case, e.g. /shipping_labels/{label_id}."),
    ("Environment variables must be UPPER_SNAKE_CASE.", "Environment variables are written in snake_case."),
    ("Headings use sentence case.", "Headings use Title Case."),
])
def test_two_styles_of_one_kind_of_name_conflict(normalizer_v2, a, b):
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (VerdictKind.VALUE_CONFLICT, Confidence.HIGH), v


@pytest.mark.parametrize("a,b", [
    ("JSON field names must be camelCase.", "JSON field names use lowerCamelCase."),      # one style, two spellings
    ("JSON field names must be camelCase.", "Query parameters use snake_case."),          # two kinds of name
    ("JSON fields are camelCase and query parameters are snake_case.", "Query parameters use camelCase."),
])
def test_one_style_or_two_kinds_of_name_is_no_conflict(normalizer_v2, a, b):
    assert verdict(normalizer_v2, a, b).kind is not VerdictKind.VALUE_CONFLICT


@pytest.mark.parametrize("a,b", [
    ("Python function names are snake_case.", "Python class names are PascalCase."),
    ("Constants are written in UPPER_SNAKE_CASE.", "Local variables are written in camelCase."),
    ("Protobuf field names must be lower_snake_case.", "Protobuf message names are PascalCase."),
    ("CSS class names are kebab-case.", "React component names are PascalCase."),
])
def test_styles_of_two_kinds_of_name_stand_together(normalizer_v2, a, b):
    """Alike sentences with two style words: the gate blocked them on the cross-encoder's 0.98–1.00."""
    v = verdict(normalizer_v2, a, b)
    assert (v.kind, v.confidence) == (VerdictKind.CONSISTENT, Confidence.HIGH), v


@pytest.mark.parametrize("a,b", [
    ("Database column names are snake_case.", "Columns in the orders table are named in camelCase."),  # a shared kind
    ("JSON field names use camelCase.", "JSON properties are snake_case."),            # one kind's two words
    ("Python function names are snake_case.", "Python method names are camelCase."),
    ("Names are snake_case.", "Python class names are PascalCase."),                   # no kind on one side
])
def test_one_kind_of_name_is_not_settled(normalizer_v2, a, b):
    v = verdict(normalizer_v2, a, b)
    assert v.reason != "styles of names of different kinds", v


def test_name_kinds():
    from guard.normalize.naming_styles import different_name_kinds, name_kinds
    assert name_kinds("python class name") == name_kinds("typescript interfaces")
    assert name_kinds("the service") == frozenset()
    assert different_name_kinds("css class name", "react component name")
    assert not different_name_kinds("database column name", "column")
    assert not different_name_kinds(None, "column")
