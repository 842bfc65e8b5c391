"""Which build of a normalizer read a norm: its name plus a digest of everything that decides the
reading (the normalizer's code, the spaCy model and its version, the LLM's model id).

Why: a claim store keeps the norm of every claim it holds, so that opening a store does not run
spaCy over every claim again. A name such as ``normalizer.rules.v2`` does not say enough to reuse
one: the rules under that name change between releases (session 11 alone read 110 of 2,883 claim
statements differently), and a store written by the previous release kept its old readings, so
after an upgrade "`page` defaults to 0" and "`page` defaults to 1" were stored side by side where
a fresh store blocks the second. A stored norm is reused only under the build that made it.

The code digest hashes the source files' bytes (a few dozen KB, read once per process): any change
to them, comments included, makes stores read their claims once more on first use — a one-off
cost, against a reading that silently differs from the running one.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import metadata
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent          # guard/
_SOURCES = ("normalize/*.py", "claims.py", "markup.py")      # a norm's reading, its data types, the text it reads


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the normalizers' source; the package's version where the sources are not files."""
    h = hashlib.sha1()
    files = sorted(p for pattern in _SOURCES for p in _PACKAGE.glob(pattern))
    for p in files:
        try:
            h.update(p.relative_to(_PACKAGE).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
        except OSError:
            continue
    if not files:
        h.update(distribution_version("claim-guard").encode())
    return h.hexdigest()


def distribution_version(name: str) -> str:
    """An installed distribution's version, or "" (a model loaded from a folder has none)."""
    try:
        return metadata.version(name)
    except (metadata.PackageNotFoundError, ValueError):
        return ""


def build_id(name: str, *parts: object) -> str:
    """``<name>@<12 hex>``: the name stays readable in a store; the digest covers the code and
    ``parts`` (models and their versions)."""
    h = hashlib.sha1(code_digest().encode())
    for p in parts:
        h.update(b"\0" + str(p).encode())
    return f"{name}@{h.hexdigest()[:12]}"
