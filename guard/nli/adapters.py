"""NLI models shipped as a LoRA adapter on a packaged base (``training/lora.py``).

Why: a larger base fine-tuned whole (all-mpnet-base-v2, 438 MB) cannot live in the repository, but
its weights install from packages and what training changed is a few MB. Such a model folder holds
the adapter (``lora/``), the model's config, tokenizer, calibration and gate, and no weights. The
first time it is loaded the full model is rebuilt here — base plus adapter, merged by peft — into
the cache folder (``GUARD_CACHE_DIR``), under a name that carries the adapter's hash so a changed
adapter never reads a stale copy; the copy appears by rename, so a half-written one is never used.
Everything after that (ONNX Runtime export, calibration, the learned gate) reads the rebuilt folder
like any other model folder.
"""
from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

ADAPTER_DIR = "lora"


def is_adapter_folder(path: str | Path) -> bool:
    p = Path(path)
    return (p / ADAPTER_DIR / "adapter_config.json").is_file() and not any(
        (p / n).is_file() for n in ("model.safetensors", "pytorch_model.bin"))


def _key(path: Path) -> str:
    h = hashlib.sha256()
    for f in sorted((path / ADAPTER_DIR).iterdir()):
        if f.is_file():
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def materialise(path: str | Path) -> Path:
    """The full model folder for an adapter folder: built once (base + adapter, merged, fp16 as the
    trained models are saved), then reused. Raises ValueError naming what is missing."""
    from guard.onnx_runtime import cache_dir
    src = Path(path)
    target = cache_dir() / "adapters" / f"{src.resolve().name}-{_key(src)}"
    if (target / "model.safetensors").is_file():
        return target
    try:
        import peft  # noqa: F401 — said before the base is built
    except ImportError:
        raise ValueError(f"{src} is a LoRA adapter model: it needs peft (pip install 'claim-guard[large]')") from None
    import json

    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification

    from training.bases import resolve
    base = json.loads((src / ADAPTER_DIR / "base.json").read_text())["base"]
    base_dir = resolve(base)
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
        try:
            build.rename(target)
        except OSError:
            if not (target / "model.safetensors").is_file():     # not another process's finished copy
                raise
    return target
