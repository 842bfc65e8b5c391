"""The two transformer models of the accurate profile run by ONNX Runtime, tokenised by the
`tokenizers` library: no torch, transformers or sentence-transformers import on the write path.

Why: a CLI write is a fresh process, and importing torch + sentence-transformers alone took ~3.5 s
of its ~6 s cold start; ONNX Runtime and `tokenizers` import in a fraction of a second, and for
the few pairs a write scores they have less per-call overhead. The fp32 graph computes the same
function as the torch model (probabilities agree to ~1e-6; tested), so the gate fitted on torch
scores applies unchanged.

The ONNX copy is made once from the model's own weights (torch's exporter, the one time torch is
imported) and kept in a cache folder keyed by a fingerprint of the weights, so a retrained model
never meets a stale copy. Where an export cannot be made, callers fall back to torch.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
import tempfile
from pathlib import Path

import numpy as np

from guard.safe_output import durable_replace

log = logging.getLogger(__name__)

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
KINDS = ("cross-encoder", "bi-encoder")


def cache_dir() -> Path:
    """``GUARD_CACHE_DIR``, else ``$XDG_CACHE_HOME/claim-guard``, else ``~/.cache/claim-guard``."""
    env = os.environ.get("GUARD_CACHE_DIR")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "claim-guard"


def weights_file(model_dir: Path) -> Path | None:
    return next((model_dir / n for n in ("model.safetensors", "pytorch_model.bin") if (model_dir / n).is_file()), None)


def file_fingerprint(path: Path) -> str:
    """A digest of the file's whole content (20 hex): what an ONNX export and a store's NLI scores
    are keyed by.

    Why the whole file: it was size plus the first and last 64 KiB, and a safetensors file keeps
    its tensors sorted by name, so two models that differ in any middle layer (bert.encoder…)
    but not in the embeddings or the head shared a fingerprint — the second would run the first's
    cached ONNX export and read the first's scores from a store (session 33: one query weight of
    the shipped model changed, same fingerprint). Hashing is ~45 ms for the default model and
    ~0.5 s for the large one, so a digest is remembered per file state (path, size, inode, mtime
    and ctime: any rewrite changes ctime) in the cache folder; a cold start reads it back."""
    st = path.stat()
    key = f"{path.resolve()}|{st.st_size}|{st.st_ino}|{st.st_mtime_ns}|{st.st_ctime_ns}"
    known = _fingerprints()
    if key in known:
        return known[key]
    h = hashlib.sha1()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    digest = h.hexdigest()[:20]
    known[key] = digest
    _remember_fingerprints(known)
    return digest


_FINGERPRINTS: dict[str, str] | None = None
MAX_FINGERPRINTS = 512


def _fingerprint_file() -> Path:
    return cache_dir() / "fingerprints.json"


def _fingerprints() -> dict[str, str]:
    global _FINGERPRINTS
    if _FINGERPRINTS is None:
        got = read_json(_fingerprint_file())
        _FINGERPRINTS = {k: v for k, v in got.items() if isinstance(k, str) and isinstance(v, str)} \
            if isinstance(got, dict) else {}
    return _FINGERPRINTS


def _remember_fingerprints(known: dict[str, str]) -> None:
    """Best effort, atomic (another process's copy is replaced whole, never torn): a digest that is
    not kept is computed again next time."""
    f = _fingerprint_file()
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        keep = dict(list(known.items())[-MAX_FINGERPRINTS:])
        fd, tmp = tempfile.mkstemp(dir=f.parent, suffix=".json.tmp")
    except OSError as exc:
        log.debug("fingerprints not remembered (%s)", exc)
        return
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(keep, fh)
        os.replace(tmp, f)
    except OSError as exc:
        log.debug("fingerprints not remembered (%s)", exc)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


DEFAULT_CACHE_MB = 2048


def cache_budget_bytes() -> int:
    """``GUARD_CACHE_MAX_MB`` (default 2048): how much the ONNX copies may hold together."""
    raw = os.environ.get("GUARD_CACHE_MAX_MB", "").strip()
    try:
        mb = float(raw) if raw else DEFAULT_CACHE_MB
    except ValueError:
        log.warning("GUARD_CACHE_MAX_MB=%r is not a number; using %d", raw, DEFAULT_CACHE_MB)
        mb = DEFAULT_CACHE_MB
    return max(0, int(mb * 1024 * 1024))


def prune_exports(folder: Path, keep: Path | None = None, budget: int | None = None) -> list[Path]:
    """Remove the least recently used ONNX copies until the folder's copies fit the budget.

    Why: a copy is ~90 MB and keyed by its weights, so every fine-tuned checkpoint, fold model or
    test model ever run adds one, and nothing ever needed them again (one machine here had gathered
    175 copies, 15 GB). A copy is touched when used, so the ones in use stay; ``keep`` (the copy just
    made) is never removed. A process that still has a removed copy open keeps reading it, and one
    that asks for it later exports it again. Best effort: a file that cannot be removed is left."""
    budget = cache_budget_bytes() if budget is None else budget
    files = []
    for f in folder.glob("*.onnx"):
        try:
            st = f.stat()
        except OSError:
            continue
        files.append((st.st_mtime, st.st_size, f))
    total = sum(size for _, size, _ in files)
    removed = []
    for _, size, f in sorted(files, key=lambda t: t[0]):
        if total <= budget:
            break
        if keep is not None and f == keep:
            continue
        try:
            f.unlink()
        except OSError:
            continue
        total -= size
        removed.append(f)
    if removed:
        log.info("removed %d least recently used ONNX copies from %s (budget %d MB)", len(removed), folder,
                 budget // (1024 * 1024))
    return removed


def export_path(model_dir: Path, kind: str) -> Path | None:
    w = weights_file(model_dir)
    return cache_dir() / "onnx" / f"{kind}-{file_fingerprint(w)}.onnx" if w else None


def export(model_dir: Path, kind: str, out: Path) -> Path:
    """fp32 ONNX of the model's forward pass: logits (cross-encoder) or token embeddings
    (bi-encoder; pooling is done here in numpy). Written to a temporary file and renamed, so two
    processes exporting at once never leave a half-written file."""
    import torch
    from transformers import (
        AutoModel,
        AutoModelForSequenceClassification,
        AutoTokenizer,
    )

    from guard.hf_quiet import quiet_transformers
    with quiet_transformers():         # the weight-loading bar of a one-time export is not the command's output
        tok = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
        cls = AutoModelForSequenceClassification if kind == "cross-encoder" else AutoModel
        model = cls.from_pretrained(str(model_dir), local_files_only=True, dtype=torch.float32).eval()

    ex = tok(["a b"], ["c"], return_tensors="pt") if kind == "cross-encoder" else tok(["a b c"], return_tensors="pt")
    # MPNet and RoBERTa-style models take no segment ids: the graph gets the inputs both sides know
    accepted = inspect.signature(model.forward).parameters
    names = [k for k in INPUTS if k in ex and k in accepted]

    class Forward(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, *args):
            o = self.m(**dict(zip(names, args)))
            return o.logits if kind == "cross-encoder" else o.last_hidden_state

    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        import warnings
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")        # the tracer's notes on shapes it fixes; equality is tested
            torch.onnx.export(Forward(model), tuple(ex[k] for k in names), tmp, input_names=names,
                              output_names=["output"], opset_version=17, dynamo=False,
                              dynamic_axes={**{k: {0: "batch", 1: "seq"} for k in names}, "output": {0: "batch"}})
        durable_replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out


def session(path: Path):
    """ONNX Runtime on two threads (the machine's cores; more only adds contention in the server),
    whose threads sleep when a run is done instead of spinning. A guarded write runs the
    cross-encoder, then the bi-encoder, each a session with its own thread pool, between spaCy and
    SQLite; a pool that spins after its run held the cores the next step needed: 10k-claim accurate
    writes p50 77–91 → 42–43 ms, p95 146–154 → 92–93 ms without spinning (200 writes, twice each,
    this 2-core AVX2 machine), while batch throughput stayed within noise (claims_dev's pairs:
    ORT fp32 202–215 vs 211–212 pairs/s)."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = min(2, os.cpu_count() or 1)
    so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


class OrtModel:
    """A tokenizer and an ONNX Runtime session; ``run`` batches inputs of similar token length."""

    def __init__(self, model_dir: str | Path, kind: str, max_length: int, batch_size: int = 32,
                 onnx_file: Path | None = None):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        from tokenizers import Tokenizer
        self.dir, self.kind, self.batch_size, self.max_length = Path(model_dir), kind, batch_size, max_length
        self.tokenizer = Tokenizer.from_file(str(self.dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
        self.tokenizer.no_padding()
        self.onnx_file = onnx_file or export_path(self.dir, kind)
        if self.onnx_file is None:
            raise FileNotFoundError(f"{self.dir} has no weights file")
        cached = onnx_file is None           # a copy in the cache folder, not a file shipped with the model
        if not self.onnx_file.is_file():
            self._export()
        try:
            self._open(self.onnx_file)
        except Exception as exc:
            if not cached:
                raise
            # another process's pruning removed it in between, or the copy does not open (a file cut
            # short by a crash): made again once — a damaged copy sent every later run to torch, for good
            if self.onnx_file.is_file():
                log.warning("the ONNX copy %s does not open (%s); exporting it again", self.onnx_file,
                            str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
                try:
                    self.onnx_file.unlink()
                except OSError:
                    pass
            self._export()
            self._open(self.onnx_file)
        if cached:
            try:
                os.utime(self.onnx_file)     # used now: pruning removes the least recently used first
            except OSError:
                pass
        # pad as the model's own tokenizer would (MPNet and RoBERTa pad with 1 and number positions
        # from the non-pad tokens); the mask keeps padding out of the real tokens either way
        config = read_json(self.dir / "config.json")
        self.pad_id = int(config.get("pad_token_id") or 0) if isinstance(config, dict) else 0

    def _export(self) -> None:
        log.info("exporting %s to ONNX (once): %s", self.dir, self.onnx_file)
        export(self.dir, self.kind, self.onnx_file)
        prune_exports(self.onnx_file.parent, keep=self.onnx_file)

    def _open(self, onnx_file: Path) -> None:
        self.session = session(onnx_file)
        self.input_names = [i.name for i in self.session.get_inputs()]

    def _infer(self, feed: dict[str, np.ndarray]) -> np.ndarray:
        """The model's output for one batch; ``feed`` holds exactly the graph's inputs."""
        return self.session.run(None, feed)[0]

    def _width(self, longest: int) -> int:
        """The padded length of a batch whose longest input has ``longest`` tokens."""
        return longest

    @classmethod
    def load(cls, model_dir: str | Path, kind: str, max_length: int, **kw) -> "OrtModel | None":
        """The ONNX model, exported on first use; None where that is not possible here (no
        onnxruntime/tokenizers, a hub id, an export that fails) — the caller uses torch then."""
        d = Path(model_dir)
        if os.environ.get("GUARD_BACKEND", "").lower() == "torch" or not (d / "tokenizer.json").is_file():
            return None
        try:
            return cls(d, kind, max_length, **kw)
        except Exception as exc:  # noqa: BLE001 — an optimisation, never a failure
            log.warning("ONNX Runtime unavailable for %s (%s: %s); using torch", d, type(exc).__name__,
                        str(exc).splitlines()[0] if str(exc) else "")
            return None

    def encode(self, inputs: list) -> list:
        """Token ids of texts, or of (a, b) pairs."""
        return self.tokenizer.encode_batch([tuple(x) if isinstance(x, (tuple, list)) else x for x in inputs])

    def run(self, inputs: list, show_progress: bool = False) -> list[np.ndarray]:
        """One output per input: logits (cross-encoder) or mean-pooled unit vectors (bi-encoder)."""
        from tqdm import tqdm
        enc = self.encode(inputs)
        order = np.argsort([len(e.ids) for e in enc], kind="stable")
        out: list = [None] * len(enc)
        for s in tqdm(range(0, len(order), self.batch_size), desc=self.kind, unit="batch", disable=not show_progress):
            idx = order[s:s + self.batch_size]
            width = self._width(max(len(enc[i].ids) for i in idx))
            feed = padded_feed([{"input_ids": enc[i].ids, "attention_mask": enc[i].attention_mask,
                                 "token_type_ids": enc[i].type_ids} for i in idx], width, self.pad_id)
            res = self._infer({k: v for k, v in feed.items() if k in self.input_names})
            if self.kind == "bi-encoder":
                mask = feed["attention_mask"][..., None].astype(np.float32)
                pooled = (res * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
                res = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for row, i in enumerate(idx):
                out[i] = res[row]
        return out


def padded_feed(rows: list[dict], width: int, pad_id: int) -> dict[str, np.ndarray]:
    """A batch's model inputs: each row's token ids, mask and segment ids at the left of a
    ``width``-long row, the rest pad ids (ids) and zeros (mask, segments); only the inputs the rows
    hold (MPNet and RoBERTa take no segment ids)."""
    names = [k for k in INPUTS if k in rows[0]]
    feed = {k: np.zeros((len(rows), width), dtype=np.int64) for k in names}
    feed["input_ids"].fill(pad_id)
    for r, row in enumerate(rows):
        n = len(row["input_ids"])
        for k in names:
            feed[k][r, :n] = row[k]
    return feed


def read_json(path: Path):
    """The parsed file (an object or a list, as written), or None where it is missing or unreadable."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None
