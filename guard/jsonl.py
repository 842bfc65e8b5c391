"""Reading JSONL input that may be partly broken.

Batch jobs (compare, scan, ingest) should not die on line 9,000 of 10,000: each bad line is
reported with its number and skipped, and the caller says how many were skipped. A file with no
readable line at all (a binary file, a store, another format) is refused in one line instead.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Callable, TypeVar

from guard.claims import ClaimError

T = TypeVar("T")


class TooDeep(ValueError):
    """JSON nested deeper than Python's parser goes (~1,000 levels)."""


def what_is_wrong(exc: json.JSONDecodeError, line: bool = False) -> str:
    """The parser's message with its position: several of them end in "at" and expect one
    ("Invalid control character at", "Unterminated string starting at")."""
    where = f"line {exc.lineno} column {exc.colno}" if line else f"column {exc.colno}"
    return f"{exc.msg} {where}" if exc.msg.endswith(" at") else f"{exc.msg} at {where}"


def loads(text: str):
    """``json.loads``, where nesting too deep for the parser is bad input (``TooDeep``), not the
    RecursionError that reached users as "error: RecursionError: maximum recursion depth exceeded"
    (exit 1, as if the guard had failed) and ended a whole ingest over one line."""
    try:
        return json.loads(text)
    except RecursionError:
        raise TooDeep("nested too deeply") from None


STDIN = "-"


def piped(path: str | Path | None) -> bool:
    """``-`` names the standard input, as for most Unix tools."""
    return path is not None and str(path) == STDIN


def input_name(path: str | Path) -> str:
    """How messages name an input."""
    return "<stdin>" if piped(path) else str(path)


def read_jsonl(path: str | Path, parse: Callable[[dict], T]) -> tuple[list[tuple[int, T]], list[str]]:
    """Returns ([(line number, parsed)], [error messages naming the line]). ``-`` reads the standard
    input, so a job can pipe the claims it made (``… | guard check --file -``) instead of writing a file."""
    path = Path(path)
    try:
        raw = sys.stdin.buffer.read() if piped(path) else path.read_bytes()
    except OSError as exc:
        raise ClaimError(f"cannot read {input_name(path)}: {exc.strerror or exc}") from None
    path = input_name(path)
    if raw.startswith(b"SQLite format 3\x00"):
        raise ClaimError(f"{path} is a SQLite database, not a JSONL file")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]          # a UTF-8 byte-order mark, as some editors write
    ok: list[tuple[int, T]] = []
    errors: list[str] = []
    for lineno, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            errors.append(f"{path}:{lineno}: not valid UTF-8")
            continue
        try:
            obj = loads(text)
        except json.JSONDecodeError as exc:
            errors.append(f"{path}:{lineno}: malformed JSON ({what_is_wrong(exc)})")
            continue
        except TooDeep as exc:
            errors.append(f"{path}:{lineno}: malformed JSON ({exc})")
            continue
        try:
            ok.append((lineno, parse(obj)))
        except (ClaimError, KeyError, TypeError, ValueError) as exc:
            what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            errors.append(f"{path}:{lineno}: {what}")
    if errors and not ok:
        # not one line read: the wrong file, not a few bad lines; "0 done, N skipped" with exit 0
        # would let a job go on as if it had worked
        raise ClaimError(f"{path}: no line could be read ({len(errors)} bad; the first, line "
                         f"{errors[0].removeprefix(f'{path}:')})")
    return ok, errors
