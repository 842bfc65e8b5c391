"""NLI models shipped as a LoRA adapter on a packaged base (``training/lora.py``).

Why: a larger base fine-tuned whole (all-mpnet-base-v2, 438 MB) cannot live in the repository, but
its weights install from packages and what training changed is a few MB. Such a model folder holds
the adapter (``lora/``), the model's config, tokenizer, calibration and gate, and no weights. The
first time it is loaded the full model is rebuilt here — base plus adapter, merged by peft — into
the cache folder (``GUARD_CACHE_DIR``), under a name that carries the hash of every file the folder
holds, so a changed adapter — or a refitted gate or calibration, which the copy carries too — never
reads a stale copy (the older copies of that model are removed); the copy appears by rename, so a
half-written one is never used. Everything after that (ONNX Runtime export, calibration, the learned
gate) reads the rebuilt folder like any other model folder.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from pathlib import Path

ADAPTER_DIR = "lora"


def has_adapter(folder: str | Path | None) -> bool:
    """A folder with a LoRA adapter (``training/lora.py``), with or without merged weights beside it."""
    return folder is not None and (Path(folder) / ADAPTER_DIR / "adapter_config.json").is_file()


def is_adapter_folder(path: str | Path) -> bool:
    """An adapter and no weights: what ships, and what ``materialise`` rebuilds."""
    p = Path(path)
    return has_adapter(p) and not any((p / n).is_file() for n in ("model.safetensors", "pytorch_model.bin"))


def base_of(folder: str | Path) -> str:
    """The base spec (``package:…``, a hub id or a path) an adapter folder was trained on."""
    import json
    return json.loads((Path(folder) / ADAPTER_DIR / "base.json").read_text())["base"]


def _key(path: Path) -> str:
    """The hash of every file the rebuilt copy depends on or carries (an ONNX export there is not one)."""
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file() and "onnx" not in p.relative_to(path).parts):
        h.update(str(f.relative_to(path)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def materialise(path: str | Path) -> Path:
    """The full model folder for an adapter folder: built once (base + adapter, merged, fp16 as the
    trained models are saved), then reused. Raises ValueError naming what is missing."""
    from guard.onnx_runtime import cache_dir
    src = Path(path)
    name = src.resolve().name
    target = cache_dir() / "adapters" / f"{name}-{_key(src)}"
    if (target / "model.safetensors").is_file():
        if safetensors_whole(target / "model.safetensors"):
            return target
        # a copy cut short (a crash before it reached the disk) is built again: it was "could not
        # load" on every later use until someone found and removed the cache folder
        shutil.rmtree(target, ignore_errors=True)
    try:
        import peft  # noqa: F401 — said before the base is built
    except ImportError:
        raise ValueError(f"{src} is a LoRA adapter model: it needs peft (pip install 'claim-guard[large]')") from None
    import warnings

    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification

    from guard.hf_quiet import quiet_transformers
    from training.bases import resolve
    base_dir = resolve(base_of(src))
    # the base has no classification head and an unused pooler: transformers' load report says so at
    # length, and the adapter supplies the head; a command's output stays one summary line
    with quiet_transformers(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = AutoConfig.from_pretrained(str(src), local_files_only=True)
        model = AutoModelForSequenceClassification.from_pretrained(base_dir, config=config, dtype=torch.float32,
                                                                   local_files_only=True)
        from peft import PeftModel
        merged = PeftModel.from_pretrained(model, str(src / ADAPTER_DIR)).merge_and_unload()
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            build = Path(tmp) / "model"
            shutil.copytree(src, build, ignore=shutil.ignore_patterns(ADAPTER_DIR, "onnx"))
            merged.half().save_pretrained(str(build))
            _publish(build, target)
    for old in target.parent.iterdir():              # the copies of this model's earlier contents
        if old != target and re.fullmatch(re.escape(name) + r"-[0-9a-f]{16}", old.name):
            shutil.rmtree(old, ignore_errors=True)
    return target


def safetensors_whole(weights: Path) -> bool:
    """Whether a safetensors file's header reads and its tensors cover the file (reads the header only)."""
    try:
        from safetensors import safe_open
        with safe_open(str(weights), "np"):
            return True
    except ImportError:
        return True                          # cannot tell here: the loader will say
    except Exception:  # noqa: BLE001 — any unreadable header is a damaged copy
        return False


def _publish(build: Path, target: Path) -> None:
    """Move a finished copy into place; another process's finished copy of the same contents wins."""
    try:
        build.rename(target)
    except OSError:
        if not (target / "model.safetensors").is_file():
            raise
