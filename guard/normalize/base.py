"""The normalizer interface and registry.

Names are versioned (``normalizer.rules.v1``) the way spaCy names factories, so a config that
picks a stage by name keeps working when a v2 arrives. ``SafeNormalizer`` is the fail-open
wrapper the pipeline always uses: a normalizer error becomes an unknown norm, never a failed write.
"""
from __future__ import annotations

import logging
from typing import Callable, Protocol, runtime_checkable

from guard.claims import Norm, Scope, Window

log = logging.getLogger(__name__)


@runtime_checkable
class Normalizer(Protocol):
    name: str

    def normalize(self, text: str, scope: Scope, window: Window) -> Norm: ...


_REGISTRY: dict[str, Callable[..., Normalizer]] = {}


def register(name: str):
    def deco(factory):
        _REGISTRY[name] = factory
        return factory
    return deco


def registered() -> list[str]:
    _import_builtins()
    return sorted(_REGISTRY)


def get_normalizer(name: str = "normalizer.rules.v1", **config) -> Normalizer:
    _import_builtins()
    aliases = {"rules": "normalizer.rules.v1", "rules.v2": "normalizer.rules.v2", "llm": "normalizer.llm.v1",
               "hybrid": "normalizer.hybrid.v1"}
    name = aliases.get(name, name)
    if name not in _REGISTRY:
        raise KeyError(f"unknown normalizer {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[name](**config)


def _import_builtins() -> None:
    import guard.normalize.rules  # noqa: F401  (registers normalizer.rules.v1)
    import guard.normalize.rules_v2  # noqa: F401  (registers normalizer.rules.v2)
    import guard.normalize.llm  # noqa: F401  (registers normalizer.llm.v1, normalizer.hybrid.v1)


PROVISIONAL = "unavailable: "


def is_provisional(norm: Norm) -> bool:
    """A norm its normalizer could not make *for now* (its backend was down, e.g. the LLM endpoint),
    as opposed to one it could not make of this statement. Why it matters: a store keeps the norm
    of every claim, and a claim written during an outage would have kept no structure for good;
    a store reads provisional norms again when opened, and never caches them."""
    return bool(norm.error) and norm.error.startswith(PROVISIONAL)


def fail_open(name: str, text: str, scope: Scope, window: Window, read: Callable[[], Norm]) -> Norm:
    """``read()``, or an unknown norm that says why when it raises: one statement's error costs
    that statement its structure, never the write, and never its batch-mates' norms."""
    try:
        norm = read()
        if not isinstance(norm, Norm):
            raise TypeError(f"normalizer returned {type(norm).__name__}, not Norm")
        return norm
    except Exception as exc:  # noqa: BLE001 — fail open by design
        log.warning("normalizer %s failed on %r: %s", name, text[:60], exc)
        return Norm.unknown(scope, window, normalizer=name, error=f"{type(exc).__name__}: {exc}")


class SafeNormalizer:
    """Fails open: any exception from the wrapped normalizer yields ``Norm.unknown``."""

    def __init__(self, inner: Normalizer):
        self.inner = inner
        self.name = getattr(inner, "name", type(inner).__name__)
        # what a stored norm must have been read by to be reused (``guard.normalize.build``); a
        # normalizer that names no build is trusted by its name, as before builds were recorded
        self.build = getattr(inner, "build", None) or self.name

    def normalize(self, text: str, scope: Scope, window: Window) -> Norm:
        norm = fail_open(self.name, text, scope, window, lambda: self.inner.normalize(text, scope, window))
        return norm if norm.is_unknown else norm.with_context(scope, window)

    def normalize_many(self, items: list[tuple[str, Scope, Window]]) -> list[Norm]:
        many = getattr(self.inner, "normalize_many", None)
        if many is not None:
            try:
                return [n.with_context(s, w) for n, (_, s, w) in zip(many(items), items)]
            except Exception as exc:  # noqa: BLE001
                log.warning("batch normalisation failed (%s); falling back to one by one", exc)
        return [self.normalize(t, s, w) for t, s, w in items]
