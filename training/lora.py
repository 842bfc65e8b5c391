"""LoRA adapters for the NLI cross-encoder (peft): train a larger base where it can be trained, ship
only what training changed.

Why: the larger base (all-mpnet-base-v2, 438 MB) installs here from packages, but a fully fine-tuned
copy can neither come back from the lent GPU machine (at most 64 MiB a call) nor live in the
repository. With low-rank adapters on every attention and feed-forward projection plus the
classification head, what a training run changes is a few MB; the guard rebuilds the full model from
the packaged base and the adapter (``guard.nli.adapters``).

A trained folder holds the merged full model (so that scoring, evaluation and the next stage read it
like any other model) and ``lora/`` (the adapter, ``base.json`` naming the packaged base it was
trained on). A claim stage that starts from such a folder trains the *same* adapter further from the
packaged base, so the shipped model is one adapter on one base.
"""
from __future__ import annotations

import json
from pathlib import Path

from guard.nli.adapters import (
    ADAPTER_DIR,  # the folder's layout (and has_adapter, base_of) lives there
)

KEYS = {"r", "alpha", "dropout", "targets"}


def check_spec(spec: dict | None) -> None:
    """A recipe's ``"lora"`` block, refused before any data or model is loaded."""
    if spec is None:
        return
    unknown = set(spec) - KEYS
    if unknown:
        raise ValueError(f"lora: unknown keys {sorted(unknown)} (known: {sorted(KEYS)})")
    if not isinstance(spec.get("targets"), list) or not spec["targets"]:
        raise ValueError("lora: 'targets' must list the projections to adapt (e.g. ['q', 'k', 'v', 'o'])")
    if int(spec.get("r", 16)) < 1:
        raise ValueError("lora: 'r' must be at least 1")


def attach(cross_encoder, spec: dict, start: str | Path | None = None):
    """Wrap the cross-encoder's transformers model in place with trainable LoRA layers (a fresh
    adapter, or ``start``'s adapter to train further); the classification head trains whole.
    Returns the peft model, which ``finish`` saves and merges."""
    from peft import LoraConfig, PeftModel, get_peft_model
    hf = cross_encoder.model
    if start is not None:
        return PeftModel.from_pretrained(hf, str(Path(start) / ADAPTER_DIR), is_trainable=True)
    cfg = LoraConfig(task_type="SEQ_CLS", r=int(spec.get("r", 16)), lora_alpha=int(spec.get("alpha", 32)),
                     lora_dropout=float(spec.get("dropout", 0.1)), target_modules=list(spec["targets"]))
    return get_peft_model(hf, cfg)


def trainable_parameters(peft_model) -> int:
    return sum(p.numel() for p in peft_model.parameters() if p.requires_grad)


def finish(peft_model, out: Path, base: str) -> None:
    """Save the adapter to ``out/lora`` (fp32: a few MB) with the base it belongs to, then merge it
    into the transformers model in place, so the caller saves a plain full model beside it."""
    target = Path(out) / ADAPTER_DIR
    peft_model.save_pretrained(str(target))
    (target / "base.json").write_text(json.dumps({"base": base}) + "\n")
    (target / "README.md").unlink(missing_ok=True)  # peft's empty model-card template; the model's card is above
    config = target / "adapter_config.json"      # not the machine-local path of the base it was trained on
    config.write_text(json.dumps({**json.loads(config.read_text()), "base_model_name_or_path": base}, indent=2) + "\n")
    peft_model.merge_and_unload()
