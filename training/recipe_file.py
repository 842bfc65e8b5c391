"""A training recipe read from its JSON file, with the recipe it extends merged under it.

Why: most recipes are another recipe with two or three settings changed — a seed, a learning rate,
an objective, one more key. Kept as full copies (sessions 16–29 made twenty), a change to the
original's data list reached none of its variants, and what a variant changed was hidden in a
hundred copied lines. ``"extends": "nli-mpnet-lora-lr8.json"`` (a path relative to the recipe's own
folder) takes that recipe, resolved the same way, and lays this one's keys over it: objects merge
key by key (``"general": {"epochs": 3}`` changes one setting of the general stage and keeps the
rest), anything else — a list, a number, a string — replaces. What describes a recipe rather than
what it trains (``inherited``: its notes, how it was selected, every ``card_*`` text of its model's
card) is its own and never inherited; ``name`` and ``output`` must be its own too, or a variant would train into its
original's folder.
"""
from __future__ import annotations

import json
from pathlib import Path

NOT_INHERITED = ("notes", "selection", "extends")     # and every "card_*" key
OWN = ("name", "output")


def inherited(key: str) -> bool:
    """Whether a recipe that extends another takes this key from it."""
    return key not in NOT_INHERITED and not key.startswith("card_")


def merge(base: dict, over: dict) -> dict:
    """``over`` laid over ``base``: objects merge key by key, anything else replaces."""
    out = dict(base)
    for k, v in over.items():
        out[k] = merge(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out


def read_recipe(path: str | Path) -> dict:
    """The recipe at ``path`` with what it extends merged in; ValueError (one line) where a file is
    missing or not a JSON object, an ``extends`` chain loops, or a variant lacks its own name/output.
    The chain is kept as ``"extends"``: the recipe's own file first, then each one it extends."""
    return _read(Path(path), [])


def _read(path: Path, chain: list[Path]) -> dict:
    if path.resolve() in chain:
        raise ValueError(f"recipe {chain[0]}: 'extends' loops back to {path}")
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise ValueError(f"recipe {path}: no such file" if not chain
                         else f"recipe {chain[-1]}: it extends {path}, which is not a file") from None
    except ValueError as exc:
        raise ValueError(f"recipe {path}: not JSON ({exc})") from None
    if not isinstance(d, dict):
        raise ValueError(f"recipe {path}: not a JSON object")   # noqa: TRY004 — every caller reports ValueError in one line
    base = d.pop("extends", None)
    if base is None:
        return d
    if not isinstance(base, str) or not base:
        raise ValueError(f"recipe {path}: 'extends' is a recipe file name, not {base!r}")
    missing = [k for k in OWN if k not in d]
    if missing:
        raise ValueError(f"recipe {path}: a recipe that extends another needs its own {' and '.join(missing)}")
    parent = _read(path.parent / base, [*chain, path.resolve()])
    taken = {k: v for k, v in parent.items() if inherited(k)}
    return {**merge(taken, d), "extends": [path.name, *parent.get("extends", [path.parent.joinpath(base).name])]}
