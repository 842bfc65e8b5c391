"""A uniform model soup: the mean of the weights of cross-encoders fine-tuned from one checkpoint
with different seeds.

Why: session 17 measured that the claim stage's training noise alone (the seed: data order, the
replay sample, dropout) moves the pipeline's block F1 by about ±0.045 — the width of its
bootstrap interval — so one seed's model is partly luck. Averaging the scores of several seeds
would cost one cross-encoder call per seed at inference, which the speed issue cannot afford;
averaging their *weights* costs nothing at inference, and fine-tunes that share their starting
checkpoint sit in one basin where the mean of the weights behaves like the mean of the models
(Wortsman et al., 2022, "Model soups"). Whether it does here is measured, not assumed: the
recipe's seeds are scored one by one beside their soup (``training.cv_nli``).

This is the linear merge of mergekit (``CrossEncoder.merge``, used by ``training.interpolate``)
with equal weights, written against safetensors directly because the lent GPU machine, where the
soups of a recipe are made, has neither mergekit nor a way to install it; the checks that the
library makes (one architecture, one label order, one tokenizer) are made here too.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from training.model_folder import staging, swap_in

_SAME_FILES = ("config.json", "tokenizer.json")     # must match across members, byte for byte once parsed


def _digest(path: Path) -> str:
    data = json.loads(path.read_text())
    if path.name == "config.json":          # the dtype a member was saved in is not its architecture
        data = {k: v for k, v in data.items() if k not in ("torch_dtype", "dtype", "transformers_version")}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def average(members: list[str | Path], out: str | Path, fp16: bool = True) -> Path:
    """The mean of ``members``' weights, saved with the first member's other files to ``out``, whole
    or not at all (written beside it, then renamed). Refuses members that differ in architecture,
    labels, tokenizer or tensor names and shapes, with one line naming the difference."""
    import torch
    from safetensors.torch import load_file, save_file

    members = [Path(m) for m in members]
    if not members:
        raise ValueError("a soup needs at least one model")
    for m in members:
        if not (m / "model.safetensors").exists():
            raise ValueError(f"{m} holds no model.safetensors")
    for name in _SAME_FILES:
        digests = {_digest(m / name) for m in members if (m / name).exists()}
        if len(digests) > 1:
            raise ValueError(f"the models differ in {name}: they are not fine-tunes of one checkpoint")
    first = load_file(str(members[0] / "model.safetensors"))
    total = {n: t.to(torch.float32) for n, t in first.items() if t.is_floating_point()}
    for m in members[1:]:
        tensors = load_file(str(m / "model.safetensors"))
        if set(tensors) != set(first):
            raise ValueError(f"{m} has other tensors than {members[0]}: {sorted(set(tensors) ^ set(first))[:3]}")
        for n, t in tensors.items():
            if t.shape != first[n].shape:
                raise ValueError(f"{m}: tensor {n} has shape {tuple(t.shape)}, not {tuple(first[n].shape)}")
            if n in total:
                total[n] += t.to(torch.float32)
            elif not torch.equal(t, first[n]):      # integer buffers (position ids) are not averaged
                raise ValueError(f"{m}: integer tensor {n} differs from {members[0]}'s")
    dtype = torch.float16 if fp16 else torch.float32
    mean = {n: ((total[n] / len(members)).to(dtype) if n in total else t).contiguous() for n, t in first.items()}
    out = Path(out)
    tmp = staging(out, "souping")
    shutil.copytree(members[0], tmp, ignore=shutil.ignore_patterns("model.safetensors", "_checkpoints",
                                                                 "training_summary.json", "onnx"))
    save_file(mean, str(tmp / "model.safetensors"), metadata={"format": "pt"})
    (tmp / "soup.json").write_text(json.dumps({"members": [str(m) for m in members], "method": "uniform mean of weights",
                                               "dtype": "float16" if fp16 else "float32"}, indent=2))
    return swap_in(tmp, out)
