"""Stage ablation: every piece alone against the full pipeline, on grouped cross-validation over
claims_train and on the untouched claims_dev.

Run: ``guard bench stages`` or ``python -m benchmarks.stages``.

Protocol. claims_train is split into five folds grouped by source document (the same folds the
NLI fold models were trained on, ``training.claim_pairs.grouped_folds``). Every fitted piece — the
lexical baseline's and NLI's thresholds, the learned gate and its operating point — is fitted on
four folds and scored on the fifth; the NLI scores of a fold come from a model that never saw it
(``training.cv_nli``). claims_dev is scored by the same pieces fitted on all of claims_train and the
model trained on all of it. Nothing is ever fitted on a pair it is scored on. The learned gate's
operating point is chosen, inside the fitting folds, on leave-one-source-family-out predictions.
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

from benchmarks import metrics
from benchmarks.report import bar_plot, md_table, write

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = ROOT.parent / "shared" / "data" / "bench" / "claims_dev.jsonl"
TRAIN_PAIRS = ROOT.parent / "shared" / "data" / "bench" / "claims_train.jsonl"
CV_DIR = ROOT / "results" / "claims-cv"
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


def _tokens(t: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9_.%/-]+", t.lower()) if w not in _STOP}


def lexical_score(a: str, b: str) -> float:
    """Token Jaccard, counted only when a negation cue or a number differs between the two."""
    ta, tb = _tokens(a), _tokens(b)
    jac = len(ta & tb) / len(ta | tb) if ta | tb else 0.0
    neg_differs = (len(_NEG.findall(a)) % 2) != (len(_NEG.findall(b)) % 2)
    nums_differ = set(re.findall(r"\d+(?:\.\d+)?", a)) != set(re.findall(r"\d+(?:\.\d+)?", b))
    return jac if (neg_differs or nums_differ) else 0.0


def _pc(pred: tuple[dict, dict]) -> float:
    return max(pred[0]["contradiction"], pred[1]["contradiction"])


def _argmax_block(pred: tuple[dict, dict]) -> bool:
    return any(max(d, key=d.get) == "contradiction" for d in pred)


def _gate_temperature(model_dir: Path, model_t: float, asked: float | str | None) -> float:
    if asked == "model":
        return model_t
    if asked is not None:
        return float(asked)
    from guard.nli.learned_gate import GATE_FILE, LearnedGate
    gate = model_dir / GATE_FILE
    t = LearnedGate.load(gate).nli_temperature if gate.exists() else None
    return model_t if t is None else float(t)


class Scored:
    """One labelled pair file with everything the systems need, computed once: the gate's evidence
    table (claims-tuned NLI scores), the shipped v1 model's scores, and the lexical scores."""

    def __init__(self, rows: list[dict], tuned: dict, v1: dict, guard, embedder, folds: list[int] | None = None,
                 gate_tuned: dict | None = None, gate_temperature: float | None = None):
        """``gate_tuned``: the same scores at the temperature the learned gate reads them at
        (``gate_temperature``), where that is not the model's own; the NLI-alone rows keep ``tuned``."""
        from training.gate_data import build
        from training.claim_pairs import family_folds
        self.rows, self.folds = rows, folds
        fams = family_folds(rows)
        self.families = fams if len(set(fams)) > 1 or folds is None else folds   # one family: document folds
        self.labels = [r["label"] for r in rows]
        self.cats = [r.get("category", "?") for r in rows]
        self.table = build(rows, gate_tuned or tuned, guard, embedder)
        self.negatives, self.negative_weight = None, 0.0     # hard negatives for the gate's fit (``use_negatives``)
        self.gate_temperature = gate_temperature
        self.pc_tuned = [_pc(tuned[r["id"]]) for r in rows]
        self.v1 = [v1[r["id"]] for r in rows]
        self.pc_v1 = [_pc(p) for p in self.v1]
        self.lex = [lexical_score(r["existing"]["text"], r["incoming"]["text"]) for r in rows]


    def use_negatives(self, path: Path, weight: float, temperature: float, guard, embedder) -> int:
        """Read the hard negatives in ``path`` (``training.store_negatives``): fit the learned gate with
        them at ``weight`` (a fold's gate uses only those whose documents are all in its fitting folds),
        and, at any weight, count how the pipeline judges them out of fold (``cross_validate``)."""
        from training.gate_data import build
        from training.store_negatives import Negatives
        neg = Negatives.read(path, temperature)
        self.negatives, self.negative_weight = build(neg.rows, neg.predictions, guard, embedder), weight
        return len(neg.rows)


# the false-block rates at which the full pipeline's pooled out-of-fold ranking is also reported (``matched_false_block``)
MATCHED_RATES = (0.01, 0.02, 0.03, 0.05)
SYSTEMS = ("lexical baseline", "NLI alone, v1 (argmax)", "NLI alone, v1 (tuned threshold)",
           "NLI alone, claims-tuned (tuned threshold)", "structural alone", "structure + ungated NLI",
           "v0.1 pipeline (v1 model, hand-set gate)", "full pipeline (learned gate)")


def held_gate(path: Path | None, fit: Scored, fit_idx: list[int]):
    """The learned gate fitted on ``fit`` rows ``fit_idx`` — or, where ``path`` holds one, that gate
    as it was saved (``path`` gets the fitted one otherwise). Why: the gate's block threshold is about
    the tenth-highest compatible score of its fitting rows, so refitting it moves block F1 by up to 0.03
    for a normalizer or structure change that leaves its ranking as it was; scoring the change with the
    gates of a run before it held fixed shows the change's own effect apart from that refit."""
    from guard.nli.learned_gate import LearnedGate
    from training.fit_learned_gate import fit_on
    if path is not None and path.exists():
        return LearnedGate.load(path)
    gate = fit_on(fit.table, fit_idx, fit.families, nli_temperature=fit.gate_temperature,
                  negatives=fit.negatives, negative_weight=fit.negative_weight)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        gate.save(path)
    return gate


def predict(fit: Scored, fit_idx: list[int], app: Scored, app_idx: list[int], gate_config=None,
            gate_path: Path | None = None) -> dict[str, list[str]]:
    """Every system fitted on ``fit`` rows ``fit_idx`` and applied to ``app`` rows ``app_idx``;
    the learned gate as ``held_gate`` gives it for ``gate_path``."""
    from guard.judge import Judge, NLIResult
    from guard.nli.gate import NLIGate
    from training.fit_learned_gate import block_scores, pipeline_tiers
    judge = Judge()
    fl = [fit.labels[i] for i in fit_idx]
    out: dict[str, list[str]] = {}

    def thresholded(scores_fit, scores_app, grid=None):
        th = max(metrics.fit_threshold([scores_fit[i] for i in fit_idx], fl, grid=grid), 1e-6)
        return ["block" if scores_app[i] >= th else "clean" for i in app_idx], th

    out["lexical baseline"], _ = thresholded(fit.lex, app.lex)
    out["NLI alone, v1 (argmax)"] = ["block" if _argmax_block(app.v1[i]) else "clean" for i in app_idx]
    grid = [x / 100 for x in range(5, 100)]
    out["NLI alone, v1 (tuned threshold)"], _ = thresholded(fit.pc_v1, app.pc_v1, grid)
    out["NLI alone, claims-tuned (tuned threshold)"], th = thresholded(fit.pc_tuned, app.pc_tuned, grid)
    t = app.table
    out["structural alone"] = [judge.judge(t.verdicts[i])[0].value for i in app_idx]
    ungated = []
    for i in app_idx:
        act = "block" if app.pc_tuned[i] >= th else "none"
        ungated.append(judge.judge(t.verdicts[i], NLIResult(app.pc_tuned[i], {}, {}, {}, act, ""))[0].value)
    out["structure + ungated NLI"] = ungated
    if gate_config is not None:
        old = []
        for i in app_idx:
            v = t.verdicts[i]
            nli = None
            if v.deferred:
                (na, nb), (ssim, tsim) = t.norms[i], t.similarities[i]
                f = NLIGate.features_from(na, nb, ssim, tsim)
                _, act, _ = NLIGate.decide(app.pc_v1[i], f, gate_config)
                nli = NLIResult(app.pc_v1[i], {}, {}, {}, act, "")
            old.append(judge.judge(v, nli)[0].value)
        out["v0.1 pipeline (v1 model, hand-set gate)"] = old
    gate = held_gate(gate_path, fit, fit_idx)
    out["full pipeline (learned gate)"] = pipeline_tiers(gate, t, app_idx)
    out["_gate"] = gate
    out["_block_scores"] = block_scores(gate, t, app_idx)
    return out


def cross_validate(train: Scored, gate_config=None, gates: Path | None = None) -> dict[str, list[str]]:
    """Out-of-fold tiers for every system: each fold is predicted by pieces fitted on the others
    (the learned gate of fold f held in ``gates``/gate_fold{f}.json where given: ``held_gate``).
    Where ``train.negatives`` is set, "_store strangers" holds the full pipeline's tier of each of them,
    judged by the gate of the first fold that holds one of its documents (a gate that never fitted on it)."""
    from training.claim_pairs import document_of
    from training.fit_learned_gate import pipeline_tiers
    n = len(train.rows)
    tiers: dict[str, list] = {}
    neg = train.negatives
    doc_fold = {document_of(r): f for r, f in zip(train.rows, train.folds)}
    neg_fold = [] if neg is None else [min(doc_fold.get(d, -1) for d in r["documents"]) for r in neg.rows]
    if neg is not None:
        tiers["_store strangers"] = [None] * len(neg.rows)
    for f in sorted(set(train.folds)):
        fit_idx = [i for i in range(n) if train.folds[i] != f]
        app_idx = [i for i in range(n) if train.folds[i] == f]
        pred = predict(train, fit_idx, train, app_idx, gate_config,
                       None if gates is None else gates / f"gate_fold{f}.json")
        tiers.setdefault("_block_scores", [None] * n)
        for i, score in zip(app_idx, pred["_block_scores"]):
            tiers["_block_scores"][i] = score
        for name, ts in pred.items():
            if name.startswith("_"):
                continue
            tiers.setdefault(name, [None] * n)
            for i, tier in zip(app_idx, ts):
                tiers[name][i] = tier
        if neg is not None:
            mine = [k for k, g in enumerate(neg_fold) if g == f]
            for k, tier in zip(mine, pipeline_tiers(pred["_gate"], neg, mine) if mine else []):
                tiers["_store strangers"][k] = tier
    return tiers


def pair_rows(name: str, scored: Scored, tiers: dict[str, list[str]], block_scores: list[float]) -> list[dict]:
    """One line per pair of a set: what the full pipeline answered and the evidence it had — the structural verdict,
    the claims-tuned NLI's p(contradiction) (the larger of its two directions) and the block score that the operating
    point cuts (+inf: structure blocks; -inf: structure or a cap decides otherwise). Why: the report's figures say how
    often a system errs, not on which pairs; two runs' files diff pair by pair (a normalizer change, another model),
    and a miss or a false block reads here with its verdict, not from a scratch script."""
    full = tiers["full pipeline (learned gate)"]
    out = []
    for i, r in enumerate(scored.rows):
        v = scored.table.verdicts[i]
        score = block_scores[i]
        out.append({"set": name, "id": r["id"], "category": scored.cats[i], "label": scored.labels[i], "tier": full[i],
                    "block_score": score if score in (float("inf"), float("-inf")) else round(score, 4),
                    "nli_p_contradiction": round(scored.pc_tuned[i], 4), "structural": v.kind.value,
                    "confidence": v.confidence.value, "reason": v.reason,
                    "decided_by": "structure" if scored.table.structural[i] is not None else "gate"})
    return out


def write_pairs(path: Path, rows: list[dict]) -> None:
    """``rows`` as JSON lines (an infinite block score as the strings "inf" / "-inf", which JSON has no number for),
    written whole or not at all."""
    from guard.safe_output import atomic_write
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path) as f:
        for r in rows:
            f.write(json.dumps({k: (str(v) if isinstance(v, float) and v in (float("inf"), float("-inf")) else v)
                                for k, v in r.items()}) + "\n")


def _share(entry: dict, cat: str) -> str:
    """A category's share with its Wilson 95 % interval and size: "0.388 (0.30–0.48, n 67)"."""
    v, ci = entry["per_category"].get(cat), (entry.get("per_category_ci95") or {}).get(cat)
    if v is None:
        return "–"
    return f"{v:.3f} ({ci[0]:.2f}–{ci[1]:.2f}, n {ci[2]})" if ci else f"{v:.3f}"


def main(out_dir: Path = ROOT / "results" / "stages", tuned: str | None = None, v1: str = "nli-minilm-l6",
         normalizer: str = "normalizer.rules.v1", bootstrap: int = 1000, train_path: Path = TRAIN_PAIRS,
         dev_path: Path = DEFAULT_PAIRS, cv_dir: Path = CV_DIR, short_claims: int = 2000,
         gate_temperature: float | str | None = None, gates: Path | None = None,
         negative_weight: float = 0.0, store_strangers: bool = True) -> dict:
    """``tuned``: the tag of the claim-tuned model's prediction files (``cv_dir``/oof_nli_<tuned>.jsonl), by default
    the shipped model's (``guard.nli.scorer.SHIPPED_MODEL``), so the report follows the default when it changes.
    ``gate_temperature``: what the learned gate reads the tuned model's scores at — None: as the
    shipped gate beside the model does (its ``nli_temperature``; the model's own temperature for a
    gate saved before it, or with no gate); "model": the model's temperature; or a number.
    ``negative_weight`` > 0: the gates are fitted with the tuned model's hard negatives
    (``cv_dir``/negatives_nli_<tuned>.jsonl, ``training.store_negatives``) at that weight.
    ``store_strangers``: where that file exists, also report how the pipeline judges its pairs out of
    fold — claims_train's statements from two source families that a store scan compares, the nearest
    count of a store's false blocks that needs no labels (fitting on them or not)."""
    from guard.embed import Embedder
    from guard.nli.gate import GateConfig
    from guard.nli.scorer import SHIPPED_MODEL
    from guard.pipeline import Guard, GuardConfig
    from training.claim_pairs import grouped_folds
    tuned = tuned or SHIPPED_MODEL
    from training.gate_data import read_predictions
    guard = Guard(GuardConfig(normalizer=normalizer, stages=("structural",)))
    embedder = Embedder()
    train_rows, dev_rows = load_pairs([train_path]), load_pairs([dev_path])
    t0 = time.perf_counter()
    from guard.nli.calibration import load_temperature
    t = load_temperature(ROOT / "models" / tuned)       # the tuned model's scores as its scorer gives them
    tg = _gate_temperature(ROOT / "models" / tuned, t, gate_temperature)
    files = {k: cv_dir / f"{k}_nli_{tuned}.jsonl" for k in ("oof", "dev")}
    gate_preds = {k: read_predictions(f, tg) if tg != t else None for k, f in files.items()}
    train = Scored(train_rows, read_predictions(files["oof"], t), read_predictions(cv_dir / f"oof_nli_{v1}.jsonl"),
                   guard, embedder, grouped_folds(train_rows), gate_preds["oof"], tg)
    dev = Scored(dev_rows, read_predictions(files["dev"], t), read_predictions(cv_dir / f"dev_nli_{v1}.jsonl"),
                 guard, embedder, None, gate_preds["dev"], tg)
    n_negatives = 0
    from training.store_negatives import negatives_file
    if negative_weight > 0 or (store_strangers and negatives_file(tuned, cv_dir).exists()):
        n_negatives = train.use_negatives(negatives_file(tuned, cv_dir), negative_weight, tg, guard, embedder)
    prep = time.perf_counter() - t0
    gate_path = ROOT / "models" / v1 / "gate.json"
    gate_config = GateConfig.load(gate_path) if gate_path.exists() else None
    held = gates is not None and (gates / "gate_all.json").exists()
    cv = cross_validate(train, gate_config, gates)
    dev_pred = predict(train, list(range(len(train_rows))), dev, list(range(len(dev_rows))), gate_config,
                       None if gates is None else gates / "gate_all.json")
    gate = dev_pred.pop("_gate")
    matched = {"claims_train grouped 5-fold CV": (train.labels, cv.pop("_block_scores")),
               "claims_dev (untouched)": (dev.labels, dev_pred.pop("_block_scores"))}
    write_pairs(Path(out_dir) / "stages_pairs.jsonl",
                pair_rows("claims_train grouped 5-fold CV", train, cv, matched["claims_train grouped 5-fold CV"][1])
                + pair_rows("claims_dev (untouched)", dev, dev_pred, matched["claims_dev (untouched)"][1]))
    report = {"protocol": __doc__.split("Protocol.")[1].strip(), "normalizer": normalizer,
              "nli_models": {"claims-tuned": tuned, "v1": v1}, "prep_seconds": round(prep, 1),
              "nli_temperatures": {"model": t, "gate": tg},
              "gate_fitted_on_all_train": gate.to_dict(),
              "gates": None if gates is None else {"folder": str(gates), "held": held},
              "negatives": {"pairs": n_negatives, "weight": negative_weight} if negative_weight > 0 else None,
              "matched_false_block": {d: {f"{r:g}": metrics.f1_at_false_block(y, s, r) for r in MATCHED_RATES}
                                      for d, (y, s) in matched.items()},
              "datasets": {}}
    strangers = cv.pop("_store strangers", None)
    if strangers is not None:
        judged = [t for t in strangers if t is not None]
        report["store_strangers"] = {"pairs": len(strangers), "judged": len(judged),
                                     **{t: judged.count(t) for t in ("block", "warn", "clean")}}
    for name, (scored, tiers) in {"claims_train grouped 5-fold CV": (train, cv),
                                  "claims_dev (untouched)": (dev, dev_pred)}.items():
        report["datasets"][name] = {s: metrics.summarize(scored.labels, tiers[s], scored.cats, bootstrap=bootstrap)
                                    for s in SYSTEMS if s in tiers}
    if short_claims > 0:          # the shipped pipeline on short claims: what the pair sets do not show
        from benchmarks.short_claims import short_claim_store
        report["short_claim_store"] = short_claim_store(short_claims)
    md = render(report)
    out = write(out_dir, "stages", report, md)
    names = [s for s in SYSTEMS if s in cv]
    bar_plot(out / "stages_f1.png", names, {d: [report["datasets"][d][n]["f1"] for n in names] for d in report["datasets"]},
             "Block F1 on contradiction", "F1")
    cats_u = sorted({c for c, lab in zip(dev.cats, dev.labels) if lab == "compatible"})
    full = "full pipeline (learned gate)"
    bar_plot(out / "stages_false_blocks.png", cats_u,
             {d: [report["datasets"][d][full]["false_block"]["by_category"].get(c, 0) for c in cats_u]
              for d in report["datasets"]}, "False-block rate of the full pipeline, by category", "false-block rate")
    print(md)
    return report


def render(report: dict) -> str:
    md = [f"## Stage ablation (normalizer `{report['normalizer']}`)", "", report["protocol"], ""]
    held = report.get("gates") or {}
    if held.get("held"):
        md += [(f"The learned gates were read from `{held['folder']}` (held fixed from an earlier run), not "
                "refitted: these figures show a change's own effect, apart from the refit's."), ""]
    st = report.get("store_strangers")
    if st:
        md += [(f"Store strangers (claims_train's statements from two source families that a scan of them as one "
                f"store compares, `training.store_negatives`; each judged by a fold's pipeline that never fitted "
                f"on its documents): **{st['block']:,} blocked**, {st['warn']:,} warned, {st['clean']:,} clean of "
                f"{st['judged']:,} — a count of a store's false blocks that needs no labels."), ""]
    neg = report.get("negatives")
    if neg:
        md += [(f"The learned gates were fitted with {neg['pairs']:,} hard negatives (claims_train's cross-family "
                f"store-scan candidate pairs, `training.store_negatives`) at weight {neg['weight']:g} each."), ""]
    for dname, systems in report["datasets"].items():
        rows = []
        for name, e in systems.items():
            fb = e["false_block"]["by_category"]
            rows.append([name, e["precision"], e["recall"], e["f1"], f"{e['f1_ci95'][0]:.2f}–{e['f1_ci95'][1]:.2f}"
                         if e.get("f1_ci95") else "", e["false_block"]["overall"], fb.get("unrelated_cross_domain"),
                         fb.get("scope_disjoint"), fb.get("time_disjoint"), e["tension_warn_share"]])
        n = next(iter(systems.values()))["n"]
        md += [f"### {dname} — {n} pairs", "",
               md_table(["system", "P", "R", "F1", "F1 95% CI", "false-block", "FB unrelated", "FB scope", "FB time",
                         "tension→warn"], rows), ""]
    matched = report.get("matched_false_block")
    if matched:
        rates = list(next(iter(matched.values())))
        md += [("The full pipeline's block F1 at a common false-block rate: its block scores (the learned gate's "
                "p(contradiction) where structure and the caps leave the pair to it; claims_train's pooled out of "
                "fold) cut where that share of compatible pairs is above the cut — the ranking with no fitted "
                "threshold in it, so two runs compare apart from their operating points (`metrics.f1_at_false_block`):"),
               "", md_table(["set", *[f"F1 at {float(r):.0%}" for r in rates]],
                            [[d, *[v[r]["f1"] for r in rates]] for d, v in matched.items()]), ""]
    full = "full pipeline (learned gate)"
    cats = sorted({c for s in report["datasets"].values() for c in s[full]["per_category"]})
    md += ["Per category, share of pairs given their gold tier (full pipeline):", "",
           md_table(["category", *report["datasets"]],
                    [[c, *[_share(s[full], c) for s in report["datasets"].values()]] for c in cats]), ""]
    for dname, systems in report["datasets"].items():
        md.append(f"Confusion, {dname} (rows gold block/warn/clean, columns predicted): "
                  f"`{systems[full]['confusion']['rows_gold_cols_predicted']}`")
    if "short_claim_store" in report:
        from benchmarks.short_claims import render as render_short
        md += ["", render_short(report["short_claim_store"])]
    return "\n".join(md)


if __name__ == "__main__":
    main()
