"""Whether an optional package is installed, found without importing it: torch, transformers,
datasets or peft each take seconds to import, which a check that may refuse at once need not pay."""
from __future__ import annotations

import importlib.util


def installed(module: str) -> bool:
    """True when ``module`` can be imported; a finder that refuses it (ImportError) or a module left
    in ``sys.modules`` without a spec (ValueError) counts as not installed."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False
