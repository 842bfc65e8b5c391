"""Where a command may write what it produces, and writing it so that nothing is lost on the way.

Why a module of its own: every command that writes a file (a scan report, its HTML page, compare's
scores, an evaluation report) takes the path as typed by hand, usually next to the input it reads.
`guard scan team.sqlite --out team.sqlite` once replaced the store with its own report, and
`guard scan claims.jsonl -o claims.jsonl` the claims with their findings: a report must never cost
the data it reports on. So an output is refused, in one line and before any work, where it is an
input of the same command (by file identity: a symlink or a hard link to it counts; for a store, its
`-wal`, `-shm` and `-journal` files too), another output of the same command, or any SQLite
database (a claim store, whichever command's it is). And a file is written beside its final path and
renamed over it when complete, so an interrupted or failing write leaves the previous file whole
(never one truncated in place) and a reader never sees half a report.
"""
from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

from guard.claims import ClaimError

SQLITE_HEADER = b"SQLite format 3\x00"
STORE_COMPANIONS = ("-wal", "-shm", "-journal")     # SQLite's files beside a database, part of the store


def same_file(a: Path, b: Path) -> bool:
    """One file under two names (the same path spelt otherwise, a symlink, a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:                 # one of them does not exist: compare where the names point
        return os.path.realpath(a) == os.path.realpath(b)


def is_stream(path: Path) -> bool:
    """Not a file to replace but one to write into: a terminal, a pipe, /dev/null, a FIFO
    (``--out /dev/stdout``). Renaming over such a name would replace the device's name itself."""
    if str(path).startswith(("/dev/", "/proc/")):
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:                 # not there yet: a new file
        return False


def is_database(path: Path) -> bool:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):      # opening a FIFO to read would wait for a writer
            return False
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _names_of(path: Path, what: str) -> list[tuple[Path, str]]:
    """An input and, for a store, the files SQLite keeps beside it, each with how to name it."""
    companions = [(Path(f"{path}{s}"), f"{what}'s {s[1:]} file") for s in STORE_COMPANIONS] if is_database(path) else []
    return [(path, what), *companions]


def check_outputs(outputs: Mapping[str, Path | None], inputs: Mapping[str, Path] | None = None) -> None:
    """Refuse, with one line naming the problem, an output path that would destroy data or another output.

    ``outputs``: option name → path (None: not asked for); ``inputs``: how to name it → path."""
    named = [(flag, Path(p)) for flag, p in outputs.items() if p is not None]
    for flag, path in named:
        if path.is_dir():
            raise ClaimError(f"cannot write {flag} to {path}: it is a folder")
        if not path.parent.is_dir():
            raise ClaimError(f"cannot write {flag} to {path}: no such folder {path.parent}")
        for what, src in (inputs or {}).items():
            for name, called in _names_of(Path(src), what):
                if same_file(path, name):
                    raise ClaimError(f"{flag} {path} is {called}: refusing to overwrite it (choose another path)")
        if is_database(path):
            raise ClaimError(f"{flag} {path} is an SQLite database (a claim store?): a report never replaces one "
                             "(choose another path)")
    for (f1, p1), (f2, p2) in itertools.combinations(named, 2):
        if same_file(p1, p2):
            raise ClaimError(f"{f1} and {f2} name the same file ({p1}): give each its own path")


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


@contextlib.contextmanager
def atomic_write(path: str | Path, binary: bool = False, newline: str | None = None) -> Iterator[IO]:
    """A file handle whose content replaces ``path`` only once the block ends without an error.

    The new file gets the old one's permissions, or the usual ones for a new file (0666 less the
    umask; a temporary file alone would be private to its owner). A symlink keeps pointing where it
    did: the file it names is replaced. A stream (``is_stream``) is written into as it is."""
    path = Path(path)
    if is_stream(path):
        with open(path, "wb") if binary else open(path, "w", encoding="utf-8", newline=newline) as fh:
            yield fh
        return
    path = Path(os.path.realpath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise _naming(exc, path) from None
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline=newline)) as fh:
            try:
                mode = path.stat().st_mode & 0o7777
            except OSError:
                mode = 0o666 & ~_umask()
            os.fchmod(fh.fileno(), mode)
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        _rename_synced(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _naming(exc, path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# a disk that cannot take the file: the machine's state, said with the file's name (a failed
# write() names no file: a full disk during `guard scan --html` read "OSError: [Errno 28] No space
# left on device", and which of the outputs had failed was not said)
MEDIUM_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})


def durable_replace(tmp: str | Path, path: str | Path) -> None:
    """Rename a finished temporary file over ``path`` so that a crash or power cut leaves the old
    file or the whole new one: its bytes are on disk before the rename, and the rename is on disk
    before this returns. Why: a rename alone can reach the disk before the data it names (ext4,
    XFS), and a file an export had just renamed into place could read back empty after a power cut."""
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    _rename_synced(tmp, path)


def _rename_synced(tmp: str | Path, path: str | Path) -> None:
    """Rename a temporary file whose bytes are synced over ``path``, then sync the folder so the
    rename itself survives a power cut (``atomic_write`` and ``durable_replace``)."""
    os.replace(tmp, path)
    with contextlib.suppress(OSError):         # not every file system lets a folder be synced
        fd = os.open(Path(path).parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _naming(exc: OSError, path: Path) -> OSError:
    if exc.errno not in MEDIUM_ERRORS:
        return exc
    return OSError(exc.errno, f"{os.strerror(exc.errno).lower()} (the file there before, if any, is unchanged)",
                   str(path))
