"""How an NLI model scores short claims about one thing: planted conflicts against ordinary pairs.

Run: ``python -m benchmarks.short_claim_probe [NAME=MODEL[=OOF] ...] [--out DIR]`` (default: the
shipped v2 and v1 models with their stored out-of-fold predictions; results/short-claim-probe/).

Why: stores are mostly short statements ("The catalog-api-10 runs 8 replicas."), and the
claim-tuned model reads two facts about one service as a contradiction — the short-claim store's
false blocks. claims_train has almost no short pairs, so its figures cannot show this. The probe
takes a synthetic store (``benchmarks.synth``; never trained on), its planted conflicts, a sample
of ordinary pairs of two different statements about one service, and statements against
themselves, and scores each pair in both directions (raw p(contradiction), the larger of the two).
With ``--oof`` (a model's out-of-fold claims_train predictions, as ``training.cv_nli`` writes them)
it also reports the share of each set above that model's own 2 %-false-positive cut on real prose:
how much a gate tuned on real prose would fire on a store.
"""
from __future__ import annotations

import argparse
import itertools
import random
from pathlib import Path

import numpy as np

from benchmarks.report import md_table, write

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MODELS = (
    f"v2={ROOT / 'models' / 'nli-minilm-l6-v2'}={ROOT / 'results' / 'claims-cv' / 'oof_nli_nli-minilm-l6-v2.jsonl'}",
    f"v1={ROOT / 'models' / 'nli-minilm-l6'}={ROOT / 'results' / 'claims-cv' / 'oof_nli_nli-minilm-l6.jsonl'}",
)


def probe_pairs(n_claims: int = 2000, ordinary: int = 1500, identity: int = 300, seed: int = 11):
    """(planted, ordinary, identity) text pairs. Planted: a claim and its planted opposite.
    Ordinary: two different original statements about one service (the generator keeps one value
    per setting and one polarity per rule, so they agree; a planted statement is left out — two
    planted opposites of one original conflict with each other). Identity: a statement against itself."""
    from benchmarks.synth import make_store
    claims, planted = make_store(n_claims, conflict_rate=0.1, seed=seed)
    byid = {c.id: c for c in claims}
    conflicts = sorted({(byid[a].text, byid[b].text) for a, b in planted if byid[a].text != byid[b].text})
    known = set(conflicts) | {(b, a) for a, b in conflicts}
    opposites = {byid[b].text for _, b in planted}
    by_service: dict[str, set[str]] = {}
    for c in claims:
        if c.text not in opposites:
            by_service.setdefault(c.text.split()[1], set()).add(c.text)
    others = [(a, b) for _, texts in sorted(by_service.items())
              for a, b in itertools.combinations(sorted(texts), 2) if (a, b) not in known]
    random.Random(seed).shuffle(others)
    texts = sorted({c.text for c in claims})
    random.Random(seed + 1).shuffle(texts)
    return conflicts, others[:ordinary], [(t, t) for t in texts[:identity]]


def real_prose_cut(oof_file: str | Path, max_false_positive: float = 0.02) -> float:
    """The p(contradiction) above which ``max_false_positive`` of claims_train's text-only
    compatible pairs fall, from a model's out-of-fold predictions."""
    from training.card import false_positive_cut, p_contradiction
    from training.claim_pairs import CLAIMS_TRAIN, read_rows
    return false_positive_cut(read_rows(CLAIMS_TRAIN), p_contradiction(oof_file), max_false_positive)


def probe(model: str | Path, oof_file: str | Path | None = None, **sizes) -> dict:
    from sklearn.metrics import roc_auc_score

    from guard.nli.scorer import NLIScorer
    planted, ordinary, identity = probe_pairs(**sizes)
    scorer = NLIScorer(str(model), calibrated=False)

    def p(pairs):
        return np.array([max(f["contradiction"], b["contradiction"]) for f, b in scorer.score_both(pairs)])
    scores = {"planted": p(planted), "ordinary": p(ordinary), "identity": p(identity)}

    def per_set(f) -> dict:
        return {k: round(float(f(v)), 4) for k, v in scores.items()}
    pp, po = scores["planted"], scores["ordinary"]
    out = {"model": str(model), "pairs": {k: len(v) for k, v in scores.items()},
           "roc_auc_planted_vs_ordinary": round(float(roc_auc_score(np.r_[np.ones(len(pp)), np.zeros(len(po))],
                                                                    np.r_[pp, po])), 4),
           "mean_p": per_set(np.mean), "share_at_least_0.5": per_set(lambda v: (v >= 0.5).mean())}
    if oof_file:
        cut = real_prose_cut(oof_file)
        out["real_prose_2pct_cut"] = round(cut, 4)
        out["share_above_cut"] = per_set(lambda v: (v >= cut).mean())
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", default=list(DEFAULT_MODELS),
                    help="NAME=MODEL[=OOF]: a cross-encoder folder or hub id, and its out-of-fold claims_train predictions")
    ap.add_argument("--out", default=str(ROOT / "results" / "short-claim-probe"))
    ap.add_argument("--claims", type=int, default=2000, help="size of the synthetic store")
    ap.add_argument("--ordinary", type=int, default=1500, help="ordinary pairs sampled")
    ap.add_argument("--identity", type=int, default=300, help="statements scored against themselves")
    a = ap.parse_args(argv)
    sizes = {"n_claims": a.claims, "ordinary": a.ordinary, "identity": a.identity}
    reports = {}
    for spec in a.models:
        name, model, *oof = spec.split("=")
        if not model:
            raise SystemExit(f"error: {spec!r} is not NAME=MODEL[=OOF]")
        reports[name] = probe(model, oof[0] if oof else None, **sizes)
    rows = [[n, r["roc_auc_planted_vs_ordinary"], r["mean_p"]["planted"], r["mean_p"]["ordinary"], r["mean_p"]["identity"],
             r.get("real_prose_2pct_cut"), (r.get("share_above_cut") or {}).get("planted"),
             (r.get("share_above_cut") or {}).get("ordinary")] for n, r in reports.items()]
    md = ("### Short claims about one thing (`benchmarks.short_claim_probe`)\n\n"
          + md_table(["model", "AUC planted vs ordinary", "mean p planted", "mean p ordinary", "mean p itself",
                      "real-prose 2 % cut", "planted above cut", "ordinary above cut"], rows))
    out = write(a.out, "short_claim_probe", {"models": reports}, md)
    print(md)
    print(f"report: {out}")


if __name__ == "__main__":
    main()
