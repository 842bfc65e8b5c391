"""Fitting the NLI gate's thresholds (GateConfig) on labelled claim pairs.

scikit-learn style: ``GateFitter(...).fit(pairs)`` returns self with ``config_`` and ``score_``.
The model is run once per pair (both directions); every threshold combination is then judged on
the stored scores with the gate's own pure ``decide``, so the grid costs no inference.

Default data: the *fit split* of claims_dev (odd numeric ids). The benchmarks report on the even
ids only, so the gate is never scored on what it was fitted on.
"""
from __future__ import annotations

import itertools
import json
import re
from dataclasses import replace
from pathlib import Path

from guard.compare import VerdictKind
from guard.judge import Judge, NLIResult
from guard.nli.gate import GateConfig, NLIGate
from training.claim_pairs import pair_claims


def fit_split(rows: list[dict]) -> list[dict]:
    return [r for r in rows if (d := re.sub(r"\D", "", str(r.get("id", "")))) and int(d) % 2 == 1]


class GateFitter:
    def __init__(self, guard, max_false_block: float = 0.02,
                 grid: dict[str, list[float]] | None = None):
        self.guard = guard                      # a Guard whose nli_gate is loaded
        self.max_false_block = max_false_block  # on compatible pairs of the fit data
        self.grid = grid or {
            "block_threshold": [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98],
            "warn_threshold": [0.5, 0.7, 0.9],
            "min_term_overlap": [0.1, 0.2, 0.3, 0.4],
            "min_text_similarity": [0.4, 0.5, 0.6, 0.7, 0.8],
            "subject_similarity": [0.5, 0.6, 0.7, 0.8, 0.9],
        }

    def fit(self, rows: list[dict], fitted_on: str = "") -> "GateFitter":
        g = self.guard
        gate: NLIGate = g.nli_gate
        if gate is None:
            raise RuntimeError("no NLI model loaded: " + "; ".join(g.notes))
        pairs = [pair_claims(r) for r in rows]
        labels = [r["label"] for r in rows]
        norms = g.normalize_claims([c for p in pairs for c in p])
        verdicts = [g.comparator.compare(norms[2 * i], a.text, norms[2 * i + 1], b.text)
                    for i, (a, b) in enumerate(pairs)]
        deferred = [i for i, v in enumerate(verdicts) if v.deferred]
        scored = gate.scorer.score_both([(pairs[i][0].text, pairs[i][1].text) for i in deferred])
        feats = {i: gate.features(norms[2 * i], pairs[i][0].text, norms[2 * i + 1], pairs[i][1].text, complete=True)
                 for i in deferred}
        probs = {i: max(f["contradiction"], b["contradiction"]) for i, (f, b) in zip(deferred, scored)}
        judge = Judge()
        best = None
        keys = list(self.grid)
        for combo in itertools.product(*(self.grid[k] for k in keys)):
            cfg = replace(gate.config, **dict(zip(keys, combo)))
            if cfg.warn_threshold > cfg.block_threshold:
                continue
            tiers = []
            for i, v in enumerate(verdicts):
                nli = None
                if i in probs:
                    _, action, _ = NLIGate.decide(probs[i], feats[i], cfg)
                    nli = NLIResult(probs[i], {}, {}, {}, action, "")
                tiers.append(judge.judge(v, nli)[0].value)
            tp = sum(t == "block" and lab == "contradiction" for t, lab in zip(tiers, labels))
            fp = sum(t == "block" and lab != "contradiction" for t, lab in zip(tiers, labels))
            fn = sum(t != "block" and lab == "contradiction" for t, lab in zip(tiers, labels))
            comp = sum(lab == "compatible" for lab in labels) or 1
            fb = sum(t == "block" and lab == "compatible" for t, lab in zip(tiers, labels)) / comp
            f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
            warn_t = sum(t == "warn" and lab == "tension" for t, lab in zip(tiers, labels))
            key = (fb <= self.max_false_block, f1, warn_t, -fb)
            if best is None or key > best[0]:
                best = (key, cfg, {"f1": f1, "false_block": fb, "tension_warned": warn_t})
        self.config_ = replace(best[1], fitted_on=fitted_on or f"{len(rows)} labelled pairs")
        self.score_ = best[2]
        self.n_deferred_ = len(deferred)
        return self


def main(argv: list[str] | None = None) -> None:
    import argparse

    from guard.pipeline import Guard, GuardConfig
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "bench" / "claims_dev.jsonl"))
    ap.add_argument("--all", action="store_true", help="fit on every pair, not just the fit split")
    ap.add_argument("--model", default=None)
    ap.add_argument("--out", default=None, help="gate.json path (default: beside the model)")
    a = ap.parse_args(argv)
    rows = [json.loads(x) for x in Path(a.pairs).read_text().splitlines() if x.strip()]
    if not a.all:
        rows = fit_split(rows)
    guard = Guard(GuardConfig(nli_model=a.model))
    f = GateFitter(guard).fit(rows, fitted_on=f"{Path(a.pairs).name}, {'all' if a.all else 'odd-id fit split'}: "
                                              f"{len(rows)} pairs")
    out = Path(a.out) if a.out else Path(guard.nli_gate.scorer.path) / "gate.json"
    f.config_.save(out)
    print(json.dumps({"config": f.config_.__dict__, "fit_score": f.score_, "deferred_pairs": f.n_deferred_,
                      "saved": str(out)}, indent=2))


if __name__ == "__main__":
    main()
