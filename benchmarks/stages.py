"""Stage ablation: every piece alone against the full pipeline, on the same pairs in one run.

Run: ``guard bench stages [PAIRS.jsonl …]`` or ``python -m benchmarks.stages``.

Fitted figures (the lexical baseline's and tuned NLI's thresholds) are fitted on the *fit split*
(pairs whose numeric id is odd) and every system is reported on the *eval split* (even ids), so
nothing is reported on what it was fitted on. Unfitted systems are also reported on all pairs.
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

from benchmarks import metrics
from benchmarks.report import bar_plot, md_table, write
from guard.claims import Claim

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = ROOT.parent / "shared" / "data" / "bench" / "claims_dev.jsonl"
NLI_DIR = ROOT.parent / "shared" / "data" / "nli"
NLI_FILES = ("mnli.dev_matched", "snli.test", "sick.test", "anli_r1.dev")
_NEG = re.compile(r"\b(not|no|never|none|cannot|can't|don't|doesn't|isn't|aren't|mustn't|shouldn't|won't|"
                  r"forbidden|prohibited|disabled|disallowed|without)\b|n't\b", re.I)
_STOP = set("the a an is are be to of and or for in on at by with from as it this that all any each must should "
            "may can will".split())


def load_pairs(paths: list[Path]) -> list[dict]:
    rows = []
    for p in paths:
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def in_fit_split(row: dict) -> bool:
    digits = re.sub(r"\D", "", str(row.get("id", "")))
    return bool(digits) and int(digits) % 2 == 1


def _claim(d: dict) -> Claim:
    return Claim.from_dict({k: d.get(k) for k in ("text", "scope", "valid_from", "valid_until")})


def _tokens(t: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9_.%/-]+", t.lower()) if w not in _STOP}


def lexical_score(a: str, b: str) -> float:
    """Token Jaccard, counted only when a negation cue or a number differs between the two."""
    ta, tb = _tokens(a), _tokens(b)
    jac = len(ta & tb) / len(ta | tb) if ta | tb else 0.0
    neg_differs = (len(_NEG.findall(a)) % 2) != (len(_NEG.findall(b)) % 2)
    nums_differ = set(re.findall(r"\d+(?:\.\d+)?", a)) != set(re.findall(r"\d+(?:\.\d+)?", b))
    return jac if (neg_differs or nums_differ) else 0.0


class Systems:
    """Builds every system once, sharing one cross-encoder and one bi-encoder between them."""

    def __init__(self, nli_model: str | None = None, quantize: bool = True):
        from guard.embed import Embedder
        from guard.nli import GateConfig, NLIGate, NLIScorer, default_model_path
        from guard.normalize.rules import RuleNormalizer
        from guard.pipeline import Guard, GuardConfig
        self.scorer = NLIScorer(nli_model, quantize=quantize)
        self.embedder = Embedder()
        self.normalizer = RuleNormalizer()
        gate_path = Path(self.scorer.path) / "gate.json"
        self.gate_config = GateConfig.load(gate_path) if gate_path.exists() else GateConfig()
        self.structural = Guard(GuardConfig(stages=("structural",)), normalizer=self.normalizer)
        self.ungated = Guard(GuardConfig(gated=False), normalizer=self.normalizer,
                             nli_gate=NLIGate(self.scorer, self.gate_config, self.embedder, gated=False))
        self.full = Guard(GuardConfig(), normalizer=self.normalizer,
                          nli_gate=NLIGate(self.scorer, self.gate_config, self.embedder))


def run_systems(sys_: Systems, pairs: list[tuple[Claim, Claim]], fit_mask: list[bool], fit_labels: list[str]):
    """Returns {system: (tiers, seconds)} and the fitted thresholds."""
    texts = [(a.text, b.text) for a, b in pairs]
    out = {}
    t = time.perf_counter()
    lex = [lexical_score(a, b) for a, b in texts]
    lex_sec = time.perf_counter() - t
    th_lex = metrics.fit_threshold([s for s, m in zip(lex, fit_mask) if m], fit_labels)
    th_lex = max(th_lex, 1e-6)
    out["lexical baseline"] = (["block" if s >= th_lex else "clean" for s in lex], lex_sec)

    t = time.perf_counter()
    both = sys_.scorer.score_both(texts)
    nli_sec = time.perf_counter() - t
    argmax = ["block" if max(f, key=f.get) == "contradiction" or max(b, key=b.get) == "contradiction" else "clean"
              for f, b in both]
    out["NLI alone (argmax)"] = (argmax, nli_sec)
    pc = [max(f["contradiction"], b["contradiction"]) for f, b in both]
    th_nli = metrics.fit_threshold([s for s, m in zip(pc, fit_mask) if m], fit_labels,
                                   grid=[x / 100 for x in range(5, 100)])
    out["NLI alone (tuned threshold)"] = (["block" if s >= th_nli else "clean" for s in pc], nli_sec)

    for name, guard in (("structural alone", sys_.structural), ("structural + ungated NLI", sys_.ungated),
                        ("full pipeline (gated NLI)", sys_.full)):
        t = time.perf_counter()
        res = guard.compare_claims(pairs)
        out[name] = ([j.tier.value for j in res], time.perf_counter() - t)

    t = time.perf_counter()
    va = sys_.embedder.encode([a for a, _ in texts])
    vb = sys_.embedder.encode([b for _, b in texts])
    cos = (va * vb).sum(axis=1)
    emb = ["block" if c >= 0.7 and (len(_NEG.findall(a)) % 2) != (len(_NEG.findall(b)) % 2) else "clean"
           for c, (a, b) in zip(cos, texts)]
    out["embedding cosine + negation (zero-shot)"] = (emb, time.perf_counter() - t)
    return out, {"lexical_threshold": th_lex, "nli_threshold": th_nli, "embedding_threshold": 0.7}


def nli_corpus_table(sys_: Systems, fitted: dict, sample: int, seed: int = 0) -> dict:
    """Contradiction-vs-not on outside NLI corpora (premise → existing, hypothesis → incoming)."""
    import random
    results = {}
    for name in NLI_FILES:
        path = NLI_DIR / f"{name}.jsonl"
        if not path.exists():
            continue
        rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        random.Random(seed).shuffle(rows)
        rows = rows[:sample]
        labels = ["contradiction" if r["label"] == "contradiction" else "compatible" for r in rows]
        pairs = [(Claim(r["premise"][:2000]), Claim(r["hypothesis"][:2000])) for r in rows]
        texts = [(a.text, b.text) for a, b in pairs]
        both = sys_.scorer.score_both(texts)
        pc = [max(f["contradiction"], b["contradiction"]) for f, b in both]
        tiers = {
            "lexical baseline": ["block" if lexical_score(a, b) >= fitted["lexical_threshold"] else "clean" for a, b in texts],
            "NLI alone (argmax)": ["block" if max(f, key=f.get) == "contradiction" or max(b, key=b.get) == "contradiction"
                                   else "clean" for f, b in both],
            "NLI alone (tuned threshold)": ["block" if s >= fitted["nli_threshold"] else "clean" for s in pc],
            "structural alone": [j.tier.value for j in sys_.structural.compare_claims(pairs)],
            "full pipeline (gated NLI)": [j.tier.value for j in sys_.full.compare_claims(pairs)],
        }
        results[name] = {k: {**metrics.block_prf(labels, v),
                             "false_block": metrics.false_block_rate(labels, v)["overall"], "n": len(rows)}
                         for k, v in tiers.items()}
    return results


def main(paths: list[Path] | None = None, out_dir: Path = ROOT / "results" / "stages", nli_model: str | None = None,
         nli_sample: int = 400, bootstrap: int = 1000) -> dict:
    paths = paths or [DEFAULT_PAIRS]
    rows = load_pairs(paths)
    pairs = [(_claim(r["existing"]), _claim(r["incoming"])) for r in rows]
    labels = [r["label"] for r in rows]
    cats = [r.get("category", "?") for r in rows]
    fit_mask = [in_fit_split(r) for r in rows]
    fit_labels = [lab for lab, m in zip(labels, fit_mask) if m]
    sys_ = Systems(nli_model)
    outs, fitted = run_systems(sys_, pairs, fit_mask, fit_labels)
    ev = [not m for m in fit_mask]
    pick = lambda xs: [x for x, m in zip(xs, ev) if m]  # noqa: E731
    report = {"data": [str(p) for p in paths], "n_pairs": len(rows), "n_eval": sum(ev), "fitted": fitted,
              "split": "fit = odd numeric ids, eval = even numeric ids", "systems": {}}
    for name, (tiers, secs) in outs.items():
        report["systems"][name] = {
            "eval_split": metrics.summarize(pick(labels), pick(tiers), pick(cats), secs, bootstrap=bootstrap),
            "all_pairs": metrics.summarize(labels, tiers, cats, secs, bootstrap=0),
        }
    report["nli_corpora"] = nli_corpus_table(sys_, fitted, nli_sample) if nli_sample else {}
    md = render(report)
    out = write(out_dir, "stages", report, md)
    names = list(report["systems"])
    bar_plot(out / "stages_f1.png", names, {"block F1 (eval split)": [report["systems"][n]["eval_split"]["f1"] for n in names]},
             "Block F1 on contradiction, eval split", "F1")
    cats_u = sorted({c for c, lab in zip(cats, labels) if lab == "compatible"})
    bar_plot(out / "stages_false_blocks.png", cats_u,
             {n: [report["systems"][n]["eval_split"]["false_block"]["by_category"].get(c, 0) for c in cats_u] for n in names},
             "False-block rate on compatible pairs, by category (eval split)", "false-block rate")
    print(md)
    return report


def render(report: dict) -> str:
    rows = []
    for name, r in report["systems"].items():
        e = r["eval_split"]
        fb = e["false_block"]["by_category"]
        rows.append([name, e["precision"], e["recall"], e["f1"], f"{e['f1_ci95'][0]:.2f}–{e['f1_ci95'][1]:.2f}",
                     e["false_block"]["overall"], fb.get("unrelated_cross_domain"), fb.get("scope_disjoint"),
                     fb.get("time_disjoint"), e["tension_warn_share"], r["all_pairs"]["f1"], e["ms_per_pair"]])
    md = [f"## Stage ablation — {report['n_eval']} eval-split pairs of {report['n_pairs']} ({report['split']})", "",
          md_table(["system", "P", "R", "F1", "F1 95% CI", "false-block", "FB unrelated", "FB scope", "FB time",
                    "tension→warn", "F1 all pairs", "ms/pair"], rows), "",
          f"Fitted on the fit split: {json.dumps(report['fitted'])}", ""]
    full = report["systems"].get("full pipeline (gated NLI)")
    if full:
        md += ["Per category, share of pairs given their gold tier (full pipeline, eval split):", "",
               md_table(["category", "share"], [[c, v] for c, v in full["eval_split"]["per_category"].items()]), "",
               "Confusion (rows gold block/warn/clean, columns predicted):",
               f"`{full['eval_split']['confusion']['rows_gold_cols_predicted']}`", ""]
    if report.get("nli_corpora"):
        md += ["## Outside data: NLI corpora, contradiction vs not (random sample per file)", ""]
        rows = []
        for f, systems in report["nli_corpora"].items():
            for name, m in systems.items():
                rows.append([f, name, m["n"], m["precision"], m["recall"], m["f1"], m["false_block"]])
        md.append(md_table(["file", "system", "n", "P", "R", "F1", "false-block"], rows))
    return "\n".join(md)


if __name__ == "__main__":
    import sys
    main([Path(p) for p in sys.argv[1:]] or None)
