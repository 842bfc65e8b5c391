"""Run recipes' claim-stage trainings side by side: one process per (seed, fold) member.

Run: ``python -m training.parallel --work W --out O --jobs 12 RECIPE [RECIPE …] [--deadline S]``.

Why: a claim-stage training of the 6-layer model is too small to keep a GPU busy — v2's final
model took 37 s on an H100 for 1,008 steps of 16 pairs, almost all of it per-step overhead on the
CPU side — so ten of them at once take about as long as one, and the lent GPU machine has 16
cores and a 10-minute limit per command. Every recipe shares the *first* recipe's general stage
(trained once, then linked into the others' work folders), so arms that differ only in the claim
stage are compared on one general model. Each member is a ``training.cv_nli --seed S --part P``
process (resumable like any cv_nli run); after them, a plain cv_nli run per recipe makes the
soups, the out-of-fold and claims_dev prediction files, and the final model. Members are started
in the order the recipes are given, so the first recipe finishes first when time is short; with
``--deadline`` (seconds from start) members still running then are stopped and the recipes
whose members all finished are completed.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from training.cv_nli import load_recipe, seeds


def members(recipe: dict) -> list[tuple[int, str]]:
    parts = [f"fold{f}" for f in range(recipe.get("folds", 5))] + ["final"]
    return [(s, p) for s in seeds(recipe) for p in parts]


def _cv(recipe_path: str, work: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "training.cv_nli", recipe_path, "--work", str(work), "--out", str(out), *extra]


def run(recipe_paths: list[str], work: Path, out: Path, jobs: int, deadline: float | None = None,
        train: Path | None = None, dev: Path | None = None) -> dict:
    """``train`` / ``dev``: other claim-pair files than ../shared's (every member and the completing run
    read the same ones)."""
    t0 = time.time()
    data = [*(["--train", str(train)] if train else []), *(["--dev", str(dev)] if dev else [])]
    recipes = [load_recipe(p) for p in recipe_paths]
    dirs = [work / r["name"] for r in recipes]
    for d in dirs:
        d.mkdir(parents=True, exist_ok=True)
    if "general" in recipes[0]:
        subprocess.run(_cv(recipe_paths[0], dirs[0], out, "--general-only", *data), check=True)
        for d in dirs[1:]:
            link = d / "general"
            if not link.exists():
                link.symlink_to((dirs[0] / "general").resolve(), target_is_directory=True)
    print(f"general stage ready after {time.time() - t0:.0f} s", flush=True)

    def member(job: tuple[str, Path, int, str]) -> tuple[str, int, str, int]:
        path, d, seed, part = job
        left = None if deadline is None else deadline - (time.time() - t0)
        if left is not None and left < 30:
            return path, seed, part, -1
        with open(d / f"log-s{seed}-{part}.txt", "w") as log:
            try:
                rc = subprocess.run(_cv(path, d, out, "--seed", str(seed), "--part", part, *data), stdout=log,
                                    stderr=subprocess.STDOUT, timeout=left).returncode
            except subprocess.TimeoutExpired:
                rc = -2
        print(f"{Path(path).stem} seed {seed} {part}: {'done' if rc == 0 else f'failed ({rc})'} "
              f"at {time.time() - t0:.0f} s", flush=True)
        return path, seed, part, rc

    todo = [(p, d, s, part) for p, d, r in zip(recipe_paths, dirs, recipes) for s, part in members(r)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(member, todo))
    done = {}
    for path, d in zip(recipe_paths, dirs):
        ok = all(rc == 0 for p, _, _, rc in results if p == path)
        if ok and deadline is not None and time.time() - t0 > deadline + 40:
            ok = False                      # its members finished, but no time is left for its soups
        if ok:
            ok = subprocess.run(_cv(path, d, out, *data)).returncode == 0
        done[Path(path).stem] = ok
        print(f"{Path(path).stem}: {'complete' if ok else 'incomplete'} at {time.time() - t0:.0f} s", flush=True)
    return done


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("recipes", nargs="+")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--deadline", type=float, help="seconds from the start after which no member runs on")
    ap.add_argument("--train", type=Path, help="claim pairs to cut folds from (default ../shared's claims_train)")
    ap.add_argument("--dev", type=Path, help="claim pairs scored, never trained on (default ../shared's claims_dev)")
    a = ap.parse_args(argv)
    done = run(a.recipes, a.work, a.out, a.jobs, a.deadline, a.train, a.dev)
    print(json.dumps(done))
    sys.exit(0 if all(done.values()) else 1)


if __name__ == "__main__":
    main()
