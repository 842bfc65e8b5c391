"""A packaged base's weights as fp16 chunks that fit the lent GPU machine's calls, and back.

Why: a call to that machine carries at most 64 MiB, and all-mpnet-base-v2's weights are 438 MB
(219 MB as fp16). Files the machine already holds stay there between calls while it is warm, so the
weights go over several calls (``split``, here), each chunk in its own git-ignored folder named in
that call's ``carry``, and are joined and checked there (``join``) before training. Only floating
tensors become fp16 (position ids stay integers); the unused pooler is left out (a sequence
classifier does not read it).

Run: ``python -m training.base_chunks split package:all-mpnet-base-v2 SMALL MB CHUNK_DIR…`` (every chunk
but the last MB megabytes, the last what remains: it travels with the data) and, on the
machine, ``python -m training.base_chunks join SMALL TARGET CHUNK_DIR…``.
"""
from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

SMALL_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json",
               "sentence_bert_config.json", "modules.json", "config_sentence_transformers.json")


def split(base: str, small: Path, chunk_dirs: list[Path], sizes: list[int] | None = None) -> list[int]:
    """Write the fp16 weights as consecutive chunks (one per folder; ``sizes`` in bytes for all but
    the last, else equal parts), the small files and the whole file's sha256 into ``small``."""
    from safetensors.torch import load_file, save

    from training.bases import resolve
    folder = Path(resolve(base))
    t = load_file(str(folder / "model.safetensors"))
    blob = save({k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in t.items()
                       if not k.startswith("pooler.")}, metadata={"format": "pt"})
    small.mkdir(parents=True, exist_ok=True)
    _copy_small(folder, small)
    (small / "sha256.txt").write_text(hashlib.sha256(blob).hexdigest() + "\n")
    n = len(chunk_dirs)
    cuts = [0]
    for k in range(n - 1):
        cuts.append(cuts[-1] + (sizes[k] if sizes else -(-len(blob) // n)))
    cuts.append(len(blob))
    written = []
    for k, d in enumerate(chunk_dirs):
        d.mkdir(parents=True, exist_ok=True)
        part = blob[cuts[k]:cuts[k + 1]]
        (d / f"weights.part{k:02d}").write_bytes(part)
        written.append(len(part))
    return written


def join(small: Path, target: Path, chunk_dirs: list[Path]) -> None:
    """The base folder rebuilt from the chunks, refused unless the joined file matches its sha256."""
    parts = sorted((p for d in chunk_dirs for p in d.glob("weights.part*")), key=lambda p: p.name)
    h = hashlib.sha256()
    target.mkdir(parents=True, exist_ok=True)
    tmp = target / "model.safetensors.tmp"
    with tmp.open("wb") as out:
        for p in parts:
            b = p.read_bytes()
            h.update(b)
            out.write(b)
    want = (small / "sha256.txt").read_text().split()[0]
    if h.hexdigest() != want:
        tmp.unlink()
        sys.exit(f"joined weights do not match: {len(parts)} chunks, sha256 {h.hexdigest()[:12]} != {want[:12]}")
    _copy_small(small, target)
    tmp.replace(target / "model.safetensors")


def _copy_small(src: Path, dst: Path) -> None:
    """The base folder's config and tokenizer files (those it has) from ``src`` to ``dst``."""
    for name in SMALL_FILES:
        if (src / name).is_file():
            shutil.copy2(src / name, dst / name)


if __name__ == "__main__":
    verb, *rest = sys.argv[1:]
    if verb == "split":
        dirs = [Path(x) for x in rest[3:]]
        print(split(rest[0], Path(rest[1]), dirs, sizes=[int(float(rest[2]) * 1e6)] * (len(dirs) - 1)))
    elif verb == "join":
        join(Path(rest[0]), Path(rest[1]), [Path(x) for x in rest[2:]])
    else:
        sys.exit("usage: python -m training.base_chunks split BASE SMALL MB CHUNK… | join SMALL TARGET CHUNK…")
