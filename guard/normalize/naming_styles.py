"""Naming conventions as values: "kebab-case", "snake_case", "lowerCamelCase", "Title Case".

Why a value kind of their own: a style guide's rules are mostly of the form "X use/are STYLE", and
one kind of name has one style, so two claims that give one thing two styles conflict ("You must
use kebab-case for path segments." / "Path segments in the Logistics API are snake_case"). Read as
words they became the claim's attribute ("snake_case"), so the two claims spoke of different
attributes and structure called them consistent. The styles are a closed class; each spelling maps
to one canonical name, so "lower_snake_case" is "snake_case" and "lowerCamelCase" is "camelCase".

A statement that names more than one style ("JSON fields are camelCase, query parameters
snake_case") says which goes with which in its grammar, which the rules do not read; none of its
styles is read as a value (``one_style``), as ``compare.any_value_conflict`` leaves a unit that a
statement gives more than once alone.
"""
from __future__ import annotations

import re

# canonical name → the spellings (regex, case-insensitive), more specific first: "UPPER_SNAKE_CASE"
# before "snake_case", "UpperCamelCase" before "camelCase"
_STYLES: tuple[tuple[str, str], ...] = (
    ("UPPER_SNAKE_CASE", r"(?:upper|screaming)[ _-]?snake[ _-]?case|constant[ _-]case|macro[ _-]case"),
    ("snake_case", r"(?:lower[ _-]?)?snake[ _-]?case"),
    ("PascalCase", r"pascal[ _-]?case|upper[ _-]?camel[ _-]?case"),
    ("camelCase", r"(?:lower[ _-]?)?camel[ _-]?case"),
    ("kebab-case", r"(?:lower[ _-]?)?kebab(?:[ _-]?case)?|dash[ _-]case|spinal[ _-]case|lisp[ _-]case"),
    ("Title Case", r"title[ _-]case"),
    ("Sentence case", r"sentence[ _-]case"),
)
NAMING_RE = r"(?<![\w-])(?P<val>" + "|".join(f"(?:{p})" for _, p in _STYLES) + r")(?![\w-])"
_EACH = [(name, re.compile(rf"(?:{p})\Z", re.IGNORECASE)) for name, p in _STYLES]


def naming_style(surface: str) -> str | None:
    """The canonical name of a written style ("lower_snake_case" → "snake_case"); None for anything else."""
    s = surface.strip()
    for name, pat in _EACH:
        if pat.match(s):
            return name
    return None


def one_style(values: list, kind: str = "naming") -> list:
    """``values`` without their naming styles where they name more than one style (see the module)."""
    styles = {naming_style(v.text) for v in values if v.kind == kind}
    return values if len(styles) <= 1 else [v for v in values if v.kind != kind]


# What a name is the name of, one entry per kind; words that style guides use for one kind share an
# entry ("field", "property", "attribute" and "key" of a JSON object; "class", "type", "interface" …),
# so a rule for fields and one for properties stay one kind's two styles
_KINDS: tuple[frozenset[str], ...] = tuple(frozenset(k.split()) for k in (
    "module", "package", "class type interface struct enum trait", "function method func",
    "variable var", "constant", "file filename", "directory folder dir", "field property attribute key prop member",
    "column", "table", "parameter param argument arg", "header", "branch", "tag", "label", "resource", "component",
    "message", "event", "route endpoint path url segment", "topic", "queue", "bucket", "repository repo",
    "heading title", "metric", "namespace", "database schema", "index", "image", "secret", "hook", "flag option",
))
_KIND_OF = {w: i for i, ws in enumerate(_KINDS) for w in ws}


def name_kinds(subject: str | None) -> frozenset[int]:
    """The kinds of name a subject speaks of ("python class name" → class's kind)."""
    words = re.findall(r"[a-z]+", (subject or "").lower())
    return frozenset(_KIND_OF[k] for w in words for k in (w, w.removesuffix("s"), w.removesuffix("es")) if k in _KIND_OF)


def different_name_kinds(a_subject: str | None, b_subject: str | None) -> bool:
    """Two statements give styles to names of different kinds ("Python function names are snake_case."
    / "Python class names are PascalCase."): each kind has its own style, so the two stand together,
    however alike the sentences are. Only where each subject names a kind and none is shared: "database
    column names" / "columns in the orders table" share one."""
    ka, kb = name_kinds(a_subject), name_kinds(b_subject)
    return bool(ka) and bool(kb) and not ka & kb
