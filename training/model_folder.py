"""Putting a newly written model folder in place of an old one, never leaving half of either.

Why its own module: merged models (``training.interpolate``, ``training.soup``) may be written over
the folder they were made from, and a reader — a scorer, a rerun that skips finished work — must see
the old model or the new one whole. The new folder is written beside the target first; this swaps
it in by two renames.
"""
from __future__ import annotations

import shutil
from pathlib import Path


def staging(out: Path, what: str) -> Path:
    """An empty folder beside ``out`` to write the new model into (``.NAME.WHAT``, hidden)."""
    tmp = out.parent / f".{out.name}.{what}"
    shutil.rmtree(tmp, ignore_errors=True)
    return tmp


def swap_in(tmp: Path, out: Path) -> Path:
    """``tmp`` becomes ``out``; the folder that was at ``out`` (if any) is removed after the swap."""
    old = out.parent / f".{out.name}.replaced"
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return out
