"""Cross-encoder NLI scoring: loading, batching, both directions, a cache by text hash.

A class with no global state so one instance can be handed to a batch engine (a Ray Data
``map_batches`` actor, say) and loaded once per worker.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

SHIPPED_MODEL = "nli-minilm-l6-v2-distill"     # session 65; v2 and v1 (nli-minilm-l6) stay shipped for comparison


class ModelUnavailable(RuntimeError):
    """No cross-encoder could be loaded from the given id or path."""


MODELS_DIR = Path(__file__).resolve().parents[2] / "models"


def default_model_path() -> Path:
    """The checkpoint shipped in the repository's ``models/`` folder."""
    env = os.environ.get("GUARD_NLI_MODEL")
    if env:
        return Path(env)
    return MODELS_DIR / SHIPPED_MODEL


LARGE_MODEL = "nli-mpnet-lora-lr8"     # the large profile's: a LoRA adapter on all-mpnet-base-v2 (guard.nli.adapters)


def large_model_path() -> Path:
    return MODELS_DIR / LARGE_MODEL


ONNX_EXPORT = Path("onnx") / "model_qint8.onnx"     # written by training.export_onnx, used by --quantize
BACKENDS = ("auto", "onnx", "torch", "bf16", "openvino", "openvino-bf16")
BF16_BACKEND = "torch bf16 tiles (AMX)"
OPENVINO_BACKENDS = {"openvino": "fp32", "openvino-bf16": "bf16"}
UNQUANTISED_BACKENDS = ("bf16", *OPENVINO_BACKENDS)     # fp32 or bf16 only: --quantize excludes them


def stale_export(model_dir: Path) -> str | None:
    """Why the folder's static int8 export must not run, or None. Why check: the export sits beside
    the weights it was made from, and a folder whose weights were replaced (a copied-in fine-tune,
    a newer release of the model) kept running the old model's int8 graph under the new name — its
    scores, and the gate fitted for the new weights on top of them. The export records its weights'
    fingerprint (since session 34); one without that record cannot be told apart from a stale one."""
    from guard.onnx_runtime import file_fingerprint, read_json, weights_file
    weights = weights_file(model_dir)
    if weights is None:
        return None                          # an export-only folder: nothing it could disagree with
    again = f"run python -m training.export_onnx {model_dir} again"
    info = read_json(model_dir / ONNX_EXPORT.parent / "export.json")
    made = info.get("weights") if isinstance(info, dict) else None
    if not isinstance(made, dict) or not made.get("fingerprint"):
        return f"{model_dir / ONNX_EXPORT} does not record the weights it was made from (an export before session 34): {again}"
    if made["fingerprint"] != file_fingerprint(weights):
        return f"{model_dir / ONNX_EXPORT} was made from other weights than this folder's {weights.name}: {again}"
    return None


class NLIScorer:
    """Loads a 3-way NLI cross-encoder from a hub id or a local directory.

    The label order is read from the model's config (id2label) — sentence-transformers' NLI
    cross-encoders use contradiction/entailment/neutral, MNLI heads entailment/neutral/
    contradiction — so nothing here assumes an order.

    Backends: a local model on the CPU runs in ONNX Runtime fp32 (``guard.onnx_runtime``: same
    scores, no torch import) unless ``backend="torch"`` or ``GUARD_BACKEND=torch``; a hub id, a
    GPU, or a machine where the export cannot be made uses torch (sentence-transformers'
    CrossEncoder). ``quantize`` picks the static int8 ONNX export when the model folder has one.
    ``backend="bf16"`` (opt-in, a CPU with AMX only) runs torch in bf16 in fixed-shape tiles
    (``guard.nli.tiles``): about twice ONNX Runtime fp32's rate on large calls, a pair's score the same
    in any batch, but up to ~0.03 from the fp32 scores the shipped gate was fitted on.
    ``backend="openvino"`` runs the same ONNX graph in OpenVINO fp32 (ONNX Runtime's scores to ~1e-6,
    faster here); ``"openvino-bf16"`` (a CPU with AMX or AVX-512 BF16) in OpenVINO bf16, its batches
    padded to a multiple of 16 tokens so a pair's score is the same in any batch
    (``guard.openvino_runtime``): about three times ONNX Runtime fp32's rate with AMX, 1.7 times on a
    Zen 4 (AVX-512 BF16) but half of it on an Intel with AVX-512 BF16 and no AMX (session 51), within
    ~0.04 of its scores.
    """

    def __init__(self, model_name_or_path: str | Path | None = None, quantize: bool = False,
                 batch_size: int = 32, max_length: int = 128, cache_size: int = 200_000,
                 device: str = "cpu", calibrated: bool = True, backend: str = "auto"):
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        if quantize and device != "cpu":
            raise ValueError("int8 quantisation runs on the CPU only")
        if backend in UNQUANTISED_BACKENDS and (quantize or device != "cpu"):
            raise ValueError(f"the {backend} backend runs unquantised on the CPU only")
        if backend == "bf16":
            from guard.hardware import cpu_has_bf16_matmul
            if not cpu_has_bf16_matmul():
                raise ModelUnavailable("the bf16 backend needs a CPU with AMX bf16 units (amx_bf16, amx_tile); "
                                       "this one has none")
        if backend == "openvino-bf16":
            from guard.hardware import cpu_bf16_units
            if cpu_bf16_units() is None:
                raise ModelUnavailable("the openvino-bf16 backend needs a CPU with bf16 units (AMX: amx_bf16, "
                                       "amx_tile; or AVX-512 BF16: avx512_bf16); this one has none")
        path = model_name_or_path or default_model_path()
        local = Path(path).exists()
        from guard.nli.adapters import is_adapter_folder
        if local and is_adapter_folder(path):          # a LoRA adapter on a packaged base: rebuilt once
            from guard.nli.adapters import materialise
            try:
                path = materialise(path)
            except (ValueError, SystemExit) as exc:
                raise ModelUnavailable(f"could not rebuild {path}: {exc}") from None
        if not local and (model_name_or_path is None or os.environ.get("HF_HUB_OFFLINE") == "1"):
            raise ModelUnavailable(f"no NLI model at {path}")
        self.path = str(path)
        self.model = None               # the torch CrossEncoder, when torch runs it
        self._ort = None                # a guard.onnx_runtime.OrtModel, when ONNX Runtime runs it
        self._tiles = None              # a guard.nli.tiles.TiledModel, when the bf16 backend runs it
        self.quantized = bool(quantize)
        static = Path(path) / ONNX_EXPORT if local else None
        if quantize and static is not None and static.is_file():
            from guard.onnx_runtime import OrtModel
            stale = stale_export(Path(path))
            if stale:
                raise ModelUnavailable(stale)
            try:
                self._ort = OrtModel(path, "cross-encoder", max_length, batch_size=batch_size, onnx_file=static)
            except Exception as exc:  # noqa: BLE001 — a damaged export: no stage 3, in one line
                raise ModelUnavailable(f"could not load {static}: {type(exc).__name__}: {exc}".splitlines()[0]) from None
            self.backend = "onnxruntime static int8"
        elif backend in OPENVINO_BACKENDS:
            self._ort, self.backend = self._load_openvino(path, local, backend, max_length, batch_size)
        elif not quantize and local and device == "cpu" and backend not in ("torch", "bf16"):
            from guard.onnx_runtime import OrtModel
            self._ort = OrtModel.load(path, "cross-encoder", max_length, batch_size=batch_size)
            if self._ort is None and backend == "onnx":
                raise ModelUnavailable(f"could not run {path} in ONNX Runtime (see the log)")
            self.backend = "onnxruntime fp32"
        if self._ort is not None:
            from guard.onnx_runtime import read_json
            # the export is keyed by the weights, so a damaged config.json is met first here (it ended
            # every write in "AttributeError: 'NoneType' object has no attribute 'get'", exit 1)
            config = read_json(Path(path) / "config.json")
            labels = config.get("id2label") if isinstance(config, dict) else None
            try:
                id2label = {int(k): str(v).lower() for k, v in labels.items()}
            except (AttributeError, TypeError, ValueError):
                raise ModelUnavailable(f"{Path(path) / 'config.json'} is missing or damaged (no readable id2label)") from None
        elif backend == "bf16":
            self._load_tiles(path, local, max_length)
            id2label = {int(k): str(v).lower() for k, v in self._tiles.model.config.id2label.items()}
            self.backend = BF16_BACKEND
        else:
            self._load_torch(path, local, device, max_length)
            id2label = {int(k): str(v).lower() for k, v in self.model.config.id2label.items()}
            self.backend = "torch fp32"
            if quantize:
                self._quantize_dynamic()
                self.backend = "torch dynamic int8 (one pair at a time)"
        if "contradiction" not in id2label.values():
            raise ModelUnavailable(f"model {path} has no 'contradiction' label (labels: {id2label})")
        self.labels = [id2label[i] for i in range(len(id2label))]
        from guard.nli.calibration import load_temperature
        try:
            self.temperature = load_temperature(path if local and calibrated else None)
        except ValueError as exc:               # a damaged calibration.json: no stage 3, said in one line
            raise ModelUnavailable(str(exc)) from None
        self.batch_size = batch_size
        self.max_length = max_length
        from cachetools import LRUCache
        self._cache: LRUCache = LRUCache(maxsize=cache_size)     # bounded: a long-running server stays flat
        self.persistent = None        # a ScoreCache (guard.nli.score_cache) that outlives the process, if any
        self._fingerprint: str | None = None
        self._cache_lock = threading.Lock()

    def _load_torch(self, path, local: bool, device: str, max_length: int) -> None:
        try:
            import torch
            from sentence_transformers.cross_encoder import CrossEncoder
            from transformers.utils import logging as hf_logging
            hf_logging.disable_progress_bar()
            self.model = CrossEncoder(str(path), device=device, max_length=max_length, local_files_only=local,
                                      model_kwargs={"dtype": torch.float32})
        except Exception as exc:  # noqa: BLE001 — any load failure means "no stage 3"
            raise ModelUnavailable(f"could not load NLI model {path}: {type(exc).__name__}: {exc}") from exc

    @staticmethod
    def _load_openvino(path, local: bool, backend: str, max_length: int, batch_size: int):
        """An OpenVINO model and its backend label; any failure is "no stage 3", said in one line."""
        precision = OPENVINO_BACKENDS[backend]
        if precision == "bf16":                       # the units in the label: their scores differ in the last bits
            from guard.hardware import cpu_bf16_units
            label = f"openvino bf16 ({cpu_bf16_units()})"
        else:
            label = "openvino fp32"
        if not local or not (Path(path) / "tokenizer.json").is_file():
            raise ModelUnavailable(f"the {backend} backend runs a local model folder with a tokenizer.json; "
                                   f"{path} is not one")
        try:
            from guard.openvino_runtime import OvModel
            return OvModel(path, "cross-encoder", max_length, batch_size=batch_size, precision=precision), label
        except Exception as exc:  # noqa: BLE001 — not installed, a failed export or compile
            raise ModelUnavailable(f"could not run {path} in OpenVINO: {type(exc).__name__}: {exc}".splitlines()[0]) from None

    def _load_tiles(self, path, local: bool, max_length: int) -> None:
        """The bf16 backend loads through transformers alone: sentence-transformers' import costs
        ~4 s of a cold start and adds nothing a fixed-shape forward pass needs."""
        try:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
            from transformers.utils import logging as hf_logging

            from guard.nli.tiles import TiledModel
            hf_logging.disable_progress_bar()
            model = AutoModelForSequenceClassification.from_pretrained(str(path), local_files_only=local,
                                                                       dtype=torch.float32)
            tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=local)
        except Exception as exc:  # noqa: BLE001 — any load failure means "no stage 3"
            raise ModelUnavailable(f"could not load NLI model {path}: {type(exc).__name__}: {exc}") from exc
        self._tiles = TiledModel(model.eval().to(torch.bfloat16), tokenizer, max_length)

    def _quantize_dynamic(self) -> None:
        import warnings

        import torch
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # the transformer's layers only: the 3-way classifier head stays fp32, which keeps
            # accuracy close to fp32; per-channel scales matter for small models (figures in the model card)
            hf = self.model.model
            base = getattr(hf, hf.base_model_prefix, hf)
            torch.ao.quantization.quantize_dynamic(
                base.encoder if hasattr(base, "encoder") else base,
                {torch.nn.Linear: torch.ao.quantization.per_channel_dynamic_qconfig}, inplace=True)

    @property
    def tile_rows(self) -> int | None:
        """Pairs per fixed-shape tile where a tiled backend runs (a call of fewer still runs a whole
        tile), else None."""
        return self._tiles.rows if self._tiles is not None else None

    @classmethod
    def from_pretrained(cls, model_name_or_path: str | Path | None = None, **kw) -> "NLIScorer":
        return cls(model_name_or_path, **kw)

    @staticmethod
    def _key(premise: str, hypothesis: str) -> str:
        return hashlib.sha1(f"{premise}\x00{hypothesis}".encode()).hexdigest()

    @property
    def fingerprint(self) -> str:
        """Which logits these are: the weights actually run (a cheap content hash of the weights
        file or the int8 export), the backend and the truncation length — what a persistent score
        cache is keyed by, so another model's or backend's scores never match."""
        if self._fingerprint is None:
            from guard.onnx_runtime import file_fingerprint, weights_file
            base = Path(self.path)
            f = self._ort.onnx_file if self.backend == "onnxruntime static int8" else (
                weights_file(base) if base.is_dir() else None)
            who = file_fingerprint(f) if f is not None else str(self.path)      # a hub id: its name is all there is
            self._fingerprint = hashlib.sha1(f"{self.backend}|{self.max_length}|{who}".encode()).hexdigest()[:20]
        return self._fingerprint

    def predict(self, pairs: list[tuple[str, str]], show_progress: bool = False) -> list[dict[str, float]]:
        """Label probabilities for each (premise, hypothesis), in one direction.

        Raw logits are cached (in memory, and in ``persistent`` when one is attached, e.g. the claim
        store's): the temperature is applied after, so recalibrating never serves stale scores."""
        keys = [self._key(p, h) for p, h in pairs]
        with self._cache_lock:          # cachetools caches are not thread-safe; the server's threads share this one
            found = {k: v for k in keys if (v := self._cache.get(k)) is not None}
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing and self.persistent is not None:
            stored = {k: v for k, v in self.persistent.get(self.fingerprint, missing).items()
                      if v.size == len(self.labels)}          # a row of another size is a miss, not a crash
            found.update(stored)
            with self._cache_lock:
                for k, v in stored.items():
                    self._cache[k] = v
        todo = {k: pair for k, pair in zip(keys, pairs) if k not in found}
        if todo:
            items = list(todo.items())
            logits = self._logits([pair for _, pair in items], show_progress)
            new = {k: row for (k, _), row in zip(items, logits)}
            found.update(new)
            with self._cache_lock:
                for k, row in new.items():
                    self._cache[k] = row
            if self.persistent is not None:
                self.persistent.put(self.fingerprint, new)
        z = np.array([found[k] for k in keys], dtype=np.float64).reshape(len(keys), len(self.labels)) / self.temperature
        probs = np.exp(z - z.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        return [{lab: float(p) for lab, p in zip(self.labels, row)} for row in probs]

    def _logits(self, pairs: list[tuple[str, str]], show_progress: bool = False) -> np.ndarray:
        """Batches of similar *token* length (the model's own sort counts characters, which pads a
        batch of claim pairs to ~40 % more tokens than it holds); fp32 and static int8 results do
        not depend on the batch, so the order changes nothing but the padding."""
        if not pairs:
            return np.zeros((0, len(self.labels)), dtype=np.float64)
        if self._ort is not None:
            return np.asarray(self._ort.run(pairs, show_progress), dtype=np.float64).reshape(len(pairs), -1)
        if self._tiles is not None:
            return self._tiles.logits(pairs, show_progress)
        tok = self.model.tokenizer
        lengths = [len(ids) for ids in tok([p for p, _ in pairs], [h for _, h in pairs], truncation=True,
                                           max_length=self.max_length)["input_ids"]]
        order = np.argsort(lengths, kind="stable")
        out = np.zeros((len(pairs), len(self.labels)), dtype=np.float64)
        # dynamic int8 quantises activations with one scale per batch: a pair's score would depend
        # on its neighbours in the batch (tiers changed on 31 of 320 claims_dev pairs), so a
        # dynamically quantised model scores each pair alone
        bs = 1 if self.quantized else self.batch_size
        from tqdm import tqdm
        for s in tqdm(range(0, len(order), bs), desc="nli", unit="batch", disable=not show_progress):
            idx = order[s:s + bs]
            res = self.model.predict([pairs[i] for i in idx], batch_size=bs, convert_to_numpy=True,
                                     show_progress_bar=False)
            out[idx] = np.asarray(res, dtype=np.float64).reshape(len(idx), -1)
        return out

    def score_both(self, pairs: list[tuple[str, str]]) -> list[tuple[dict[str, float], dict[str, float]]]:
        """Both directions per pair (contradiction is symmetric but small models are not), in one
        model call: a write scores a handful of pairs, where each call's fixed cost counts."""
        both = self.predict(list(pairs) + [(h, p) for p, h in pairs])
        return list(zip(both[:len(pairs)], both[len(pairs):]))
