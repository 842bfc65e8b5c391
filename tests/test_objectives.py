"""The claim stage's other objectives (training/objectives.py): the bias model, the losses against
plain cross-entropy on the real v1 cross-encoder, freezing, and real training runs with each."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training.data import LABELS_3WAY, Pair

ROOT = Path(__file__).resolve().parents[1]
V1 = ROOT / "models" / "nli-minilm-l6"

CLAIMS = [
    Pair("The API listens on port 8443.", "The API listens on port 9443.", "contradiction", "claims"),
    Pair("Backups run daily.", "Backups run every day.", "entailment", "claims"),
    Pair("Logs rotate daily.", "The on-call rotation changes weekly.", "neutral", "claims"),
    Pair("Deploys must be approved by two reviewers.", "Deploys do not need approval.", "contradiction", "claims"),
    Pair("The RTO is 4 hours.", "The RPO is 1 hour.", "neutral", "claims:swapped"),
    Pair("Passwords must have 12 characters.", "Passwords need at least twelve characters.", "entailment", "claims"),
]


def needs_training_extra():
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")


def test_bias_features_see_overlap_numbers_and_negation():
    from training.objectives import bias_features
    same = bias_features("Backups run daily.", "Backups run daily.")
    assert same[0] == 1.0 and same[1] == 1.0 and same[10] == 0.0
    f = bias_features("The API listens on port 8443.", "The API does not listen on port 9443.")
    assert f[5] == 1.0 and f[6] == 1.0 and f[7] == 0.0        # numbers on both sides, and they differ
    assert f[8] == 0.0 and f[9] == 1.0 and f[10] == 1.0       # only the second is negated
    assert 0 < f[0] < 1


def test_the_bias_model_gives_log_probabilities_in_label_order_and_refuses_one_label():
    from training.objectives import LexicalBias, bias_table
    bias = LexicalBias().fit(CLAIMS)
    lp = bias.log_proba([(p.premise, p.hypothesis) for p in CLAIMS])
    assert lp.shape == (len(CLAIMS), len(LABELS_3WAY))
    assert np.allclose(np.exp(lp).sum(1), 1.0, atol=1e-4)
    assert 0 <= bias.training_accuracy_ <= 1
    table, _ = bias_table(CLAIMS + [Pair("A man sleeps.", "A man is awake.", "contradiction", "snli")])
    assert len(table) == len(CLAIMS) and ("A man sleeps.", "A man is awake.") not in table   # general pairs: uniform
    with pytest.raises(ValueError, match="two labels"):
        LexicalBias().fit([p for p in CLAIMS if p.label == "neutral"])
    with pytest.raises(ValueError, match="claim pairs"):
        bias_table([Pair("a", "b", "neutral", "snli")])


@pytest.mark.slow
def test_the_losses_against_plain_cross_entropy_on_the_real_cross_encoder():
    """PoE with a uniform bias is plain cross-entropy (a constant added to every log-probability);
    a bias that already explains the gold label lowers the loss; reweighting by 1 − p_bias(gold)
    with a uniform bias is plain cross-entropy too; label smoothing and the symmetric loss differ."""
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss

    from training.objectives import ClaimObjective
    model = CrossEncoder(str(V1), local_files_only=True, model_kwargs={"dtype": torch.float32})
    inputs = [[p.premise for p in CLAIMS], [p.hypothesis for p in CLAIMS]]
    ids = {v: k for k, v in model.config.id2label.items()}
    labels = torch.tensor([ids[p.label] for p in CLAIMS])
    with torch.no_grad():
        ce = CrossEntropyLoss(model)(inputs, labels).item()
        assert ClaimObjective(model, "poe", {})(inputs, labels).item() == pytest.approx(ce, abs=1e-5)
        assert ClaimObjective(model, "reweight", {})(inputs, labels).item() == pytest.approx(ce, abs=1e-5)
        knowing = {(p.premise, p.hypothesis): np.log(np.where(np.arange(3) == LABELS_3WAY.index(p.label), 0.98, 0.01))
                   for p in CLAIMS}
        assert ClaimObjective(model, "poe", knowing)(inputs, labels).item() < ce
        # a bias that knows every answer leaves almost no weight to learn from, but the loss stays finite
        assert np.isfinite(ClaimObjective(model, "reweight", knowing)(inputs, labels).item())
        assert ClaimObjective(model, "label-smoothing")(inputs, labels).item() != pytest.approx(ce, abs=1e-4)
        assert ClaimObjective(model, "symmetric")(inputs, labels).item() > 0


_GUARD = {"contradiction": ("contradiction", "modality_opposition"), "entailment": ("compatible", "paraphrase_consistent"),
          "neutral": ("compatible", "unrelated_cross_domain")}
ROWS = [{"id": f"r{i}", "existing": {"text": p.premise}, "incoming": {"text": p.hypothesis}, "nli": p.label,
         "label": _GUARD[p.label][0], "category": _GUARD[p.label][1]}
        for i, p in enumerate(CLAIMS) if p.source == "claims"]


def _teacher_file(tmp_path: Path) -> tuple[Path, Path]:
    """A teacher's score file in cv_nli's format for ROWS (forward sure of the gold label, backward
    neutral) and the claim file its ids are rows of."""
    sure = {"contradiction": "contradiction", "entailment": "entailment", "neutral": "neutral"}
    lines = []
    for r in ROWS:
        fwd = {lab: (0.9 if lab == sure[r["nli"]] else 0.05) for lab in LABELS_3WAY}
        lines.append(json.dumps({"id": r["id"], "forward": fwd,
                                 "backward": {"contradiction": 0.1, "entailment": 0.1, "neutral": 0.8}, "fold": 0}))
    scores, rows = tmp_path / "oof.jsonl", tmp_path / "rows.jsonl"
    scores.write_text("\n".join(lines) + "\n")
    rows.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return scores, rows


def test_the_teacher_table_gives_each_direction_its_own_scores(tmp_path):
    from training.objectives import teacher_table
    scores, _ = _teacher_file(tmp_path)
    table = teacher_table(scores, ROWS + [{"id": "unscored", "existing": {"text": "A"}, "incoming": {"text": "B"}}])
    r = ROWS[0]
    fwd, bwd = table[(r["existing"]["text"], r["incoming"]["text"])], table[(r["incoming"]["text"], r["existing"]["text"])]
    assert np.exp(fwd)[LABELS_3WAY.index(r["nli"])] == pytest.approx(0.9)
    assert np.exp(bwd)[LABELS_3WAY.index("neutral")] == pytest.approx(0.8)
    assert ("A", "B") not in table and len(table) == 2 * len(ROWS)
    with pytest.raises(ValueError, match="none of its ids is a row"):
        teacher_table(scores, [{"id": "x", "existing": {"text": "A"}, "incoming": {"text": "B"}}])


def _v1_on_claims():
    """v1 on the CLAIMS batch: the model, its inputs, gold label ids, the pairs, raw logits, the
    model's label order against LABELS_3WAY, and each pair's own log-probabilities in LABELS_3WAY
    order (a teacher that is the student itself)."""
    import torch
    import torch.nn.functional as F
    from sentence_transformers.cross_encoder import CrossEncoder
    model = CrossEncoder(str(V1), local_files_only=True, model_kwargs={"dtype": torch.float32})
    inputs = [[p.premise for p in CLAIMS], [p.hypothesis for p in CLAIMS]]
    ids = {v: k for k, v in model.config.id2label.items()}
    labels = torch.tensor([ids[p.label] for p in CLAIMS])
    keys = [(p.premise, p.hypothesis) for p in CLAIMS]
    with torch.no_grad():
        logits = model.predict(list(zip(*inputs)), convert_to_tensor=True, apply_softmax=False).float()
    own = F.log_softmax(logits, -1).numpy()
    order = [LABELS_3WAY.index(model.config.id2label[i]) for i in range(3)]
    to_labels = np.argsort(order)                      # model order → LABELS_3WAY order
    return model, inputs, labels, keys, logits, order, {k: own[i][to_labels] for i, k in enumerate(keys)}


def test_the_distillation_loss_against_its_closed_form():
    """α = 1 is plain cross-entropy; a teacher that is the student's own distribution leaves α × CE
    (the KL term is 0); a teacher the student disagrees with costs more; pairs the teacher did not
    score count in the cross-entropy only."""
    import torch
    import torch.nn.functional as F
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss

    from training.objectives import ClaimObjective
    model, inputs, labels, keys, logits, order, itself = _v1_on_claims()
    with torch.no_grad():
        ce = CrossEntropyLoss(model)(inputs, labels).item()
        assert ClaimObjective(model, "distill", itself, alpha=1.0)(inputs, labels).item() == pytest.approx(ce, abs=1e-5)
        assert ClaimObjective(model, "distill", itself, alpha=0.3, temperature=1.0)(inputs, labels).item() == \
            pytest.approx(0.3 * ce, abs=1e-4)
        wrong = {k: np.log(np.roll(np.exp(v), 1)) for k, v in itself.items()}
        assert ClaimObjective(model, "distill", wrong, alpha=0.3)(inputs, labels).item() > 0.3 * ce + 0.01
        half = dict(list(wrong.items())[:3])                # three of six pairs scored by the teacher
        t = 2.0
        kl = F.kl_div(F.log_softmax(logits[:3] / t, -1),
                      F.log_softmax(torch.tensor(np.stack([half[k][order] for k in keys[:3]])) / t, -1),
                      log_target=True, reduction="batchmean") * t * t
        want = 0.5 * kl.item() * 3 / 6 + 0.5 * ce
        assert ClaimObjective(model, "distill", half, alpha=0.5, temperature=t)(inputs, labels).item() == \
            pytest.approx(want, abs=1e-4)


def test_r_drop_is_its_objective_when_dropout_is_off_and_adds_the_two_passes_kl_when_on():
    """Two passes of a model in eval mode are one pass: the loss is the objective's own (plain
    cross-entropy, or the distillation's); in training mode each pass drops other units, and the
    loss grows by exactly the weight times the symmetric KL between the two passes."""
    import torch
    import torch.nn.functional as F
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss

    from training.objectives import TwoPasses, make_loss
    model, inputs, labels, keys, _, _, itself = _v1_on_claims()
    pairs = [Pair(a, b, "neutral", "claims") for a, b in keys]
    model.eval()
    with torch.no_grad():
        ce = CrossEntropyLoss(model)(inputs, labels).item()
        rdrop, info = make_loss(model, "ce", pairs, consistency=2.0)
        assert isinstance(rdrop, TwoPasses) and info == {"consistency": 2.0}
        assert rdrop(inputs, labels).item() == pytest.approx(ce, abs=1e-5)
        distilled, info = make_loss(model, "distill", pairs, itself, alpha=0.3, temperature=1.0, consistency=1.0)
        assert info["consistency"] == 1.0 and info["teacher_scored_pairs"] == len(keys)
        assert distilled(inputs, labels).item() == pytest.approx(0.3 * ce, abs=1e-4)
        model.train()
        losses = {}
        for w in (1.0, 3.0):
            torch.manual_seed(7)                       # the same two dropout masks for both weights
            losses[w] = make_loss(model, "ce", pairs, consistency=w)[0](inputs, labels).item()
        torch.manual_seed(7)
        one = rdrop.objective._logits(keys)
        two = rdrop.objective._logits(keys)
        lp, lq = F.log_softmax(one, -1), F.log_softmax(two, -1)
        kl = 0.5 * (F.kl_div(lq, lp, log_target=True, reduction="batchmean")
                    + F.kl_div(lp, lq, log_target=True, reduction="batchmean")).item()
    model.eval()
    assert kl > 1e-6                                   # dropout made the passes differ
    assert losses[3.0] - losses[1.0] == pytest.approx(2 * kl, rel=1e-4)


def test_an_r_drop_weight_that_is_no_weight_is_refused_before_anything_loads(tmp_path):
    from training.train import TrainConfig, train
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="consistency must be a finite weight >= 0"):
            train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], consistency=bad))
        assert not (tmp_path / "m").exists()


def test_distillation_without_a_usable_teacher_is_refused_before_anything_loads(tmp_path):
    from training.train import TrainConfig, train
    scores, rows = _teacher_file(tmp_path)
    cases = [({"objective": "distill"}, "needs teacher_scores"),
             ({"objective": "distill", "teacher_scores": str(tmp_path / "none.jsonl")}, "is not a file"),
             ({"objective": "distill", "teacher_scores": str(scores), "teacher_rows": str(rows), "distill_alpha": 1.5},
              "distill_alpha must be in"),
             ({"objective": "ce", "teacher_scores": str(scores)}, "only read by the distill objective")]
    for fields, msg in cases:
        with pytest.raises(ValueError, match=msg):
            train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], **fields))
        assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_a_real_distillation_run_records_its_teacher(tmp_path):
    """Two steps from v1 on claim pairs with a teacher's scores: the summary says how many training
    pairs the teacher scored (both directions of every scored row) and with what weights."""
    needs_training_extra()
    from training.claim_pairs import to_nli_pairs
    from training.train import TrainConfig, train
    scores, rows = _teacher_file(tmp_path)
    pairs = to_nli_pairs(ROWS) + [Pair("Replay premise.", "Replay hypothesis.", "neutral", "replay")]
    s = train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], from_checkpoint=str(V1),
                          domain_pairs=False, symmetric=False, max_steps=2, batch_size=4, save_steps=100,
                          device="cpu", precision="fp32", objective="distill", teacher_scores=str(scores),
                          teacher_rows=str(rows), distill_alpha=0.25, distill_temperature=3.0), extra=pairs)
    assert s["steps"] == 2 and np.isfinite(s["train_loss"])
    assert s["objective"] == "distill" and s["teacher_scored_pairs"] == 2 * len(ROWS)
    assert (s["distill_alpha"], s["distill_temperature"]) == (0.25, 3.0)
    assert s["config"]["teacher_scores"] == str(scores)
    from training.card import write_card
    write_card(tmp_path / "m", {"files": {}})
    assert f"distilled from `oof.jsonl` (α 0.25, T 3.0; {2 * len(ROWS)} training pairs scored by the teacher)" in \
        (tmp_path / "m" / "README.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("objective,freeze,consistency", [("poe", 0, 0.0), ("symmetric", 0, 0.0), ("ce", 2, 0.0),
                                                         ("ce", 0, 1.0)])
def test_a_real_training_run_with_each_option(tmp_path, objective, freeze, consistency):
    """Two steps from v1 on claim pairs: the summary names the objective (and the bias model's fit),
    and frozen layers come out with their starting weights while the layers above them move."""
    needs_training_extra()
    from transformers import AutoModelForSequenceClassification

    from training.train import TrainConfig, train
    s = train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], from_checkpoint=str(V1),
                          domain_pairs=False, symmetric=False, max_steps=2, batch_size=3, save_steps=100,
                          device="cpu", precision="fp32", objective=objective, freeze_layers=freeze,
                          consistency=consistency),
              extra=CLAIMS)
    assert s["steps"] == 2 and np.isfinite(s["train_loss"])
    if objective != "ce" or consistency:
        assert s["objective"] == objective
    if consistency:
        assert s["consistency"] == consistency
        from training.card import write_card
        write_card(tmp_path / "m", {"files": {}})
        assert "R-Drop (two dropout passes a batch, weight 1.0 on their symmetric KL)" in \
            (tmp_path / "m" / "README.md").read_text()
    if objective == "poe":
        assert 0 <= s["bias_training_accuracy"] <= 1
    if freeze:
        assert s["frozen_tensors"] > 0
        before = dict(AutoModelForSequenceClassification.from_pretrained(str(V1)).named_parameters())
        after = dict(AutoModelForSequenceClassification.from_pretrained(str(tmp_path / "m")).named_parameters())
        for name, p in after.items():
            same = bool((p.detach().float() == before[name].detach().float()).all())
            if ".embeddings." in name or ".layer.0." in name or ".layer.1." in name:
                assert same, name
        assert not all(bool((after[n].detach().float() == before[n].detach().float()).all())
                       for n in after if ".layer.5." in n)
    summary = json.loads((tmp_path / "m" / "training_summary.json").read_text())
    assert summary["config"]["objective"] == objective and summary["config"]["freeze_layers"] == freeze


def test_an_unknown_objective_is_refused_before_anything_loads(tmp_path):
    from training.train import TrainConfig, train
    with pytest.raises(ValueError, match="objective 'focal' is none of ce, poe"):
        train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], objective="focal"))
    assert not (tmp_path / "m").exists()


def test_a_recipe_distils_its_claim_stage_only_when_it_says_so(tmp_path):
    """cv_nli's claim-stage config: the distill recipe reads, fold by fold, the scores of the large
    teacher's fold model that held out the same rows (files its teacher recipe writes), and v2's own
    recipe still trains with plain cross-entropy and no teacher."""
    from training.cv_nli import _train_cfg, load_recipe
    from training.train import _teacher
    recipes = ROOT / "training" / "recipes"
    cfg = _train_cfg(load_recipe(recipes / "nli-minilm-l6-v2-distill.json"), tmp_path / "m")
    assert cfg.objective == "distill" and (cfg.distill_alpha, cfg.distill_temperature) == (0.5, 2.0)
    teacher = load_recipe(recipes / "nli-mpnet-lora-lr8-teacher.json")
    assert teacher["score_training_rows"] is True
    assert cfg.teacher_scores == str(ROOT / "results" / "claims-cv" / f"insample_nli_{teacher['name']}_{{part}}.jsonl")
    shipped = load_recipe(recipes / "nli-mpnet-lora-lr8.json")
    from training.recipe_file import inherited

    def trains(r: dict) -> dict:          # what decides the weights, not the descriptions
        return {k: v for k, v in r.items() if inherited(k) and k not in ("name", "output", "score_training_rows", "score_document_pairs",
                                                                     "_path")}
    assert trains(teacher) == trains(shipped)
    plain = _train_cfg(load_recipe(recipes / "nli-minilm-l6-v2.json"), tmp_path / "m")
    assert plain.objective == "ce" and plain.teacher_scores is None and _teacher(plain) is None


def test_the_large_models_out_of_fold_scores_cover_claims_train(shared_data):
    """The proxy's default teacher file (``claim_stage_ablation --teacher-scores``): every row, both directions."""
    from training.claim_pairs import read_rows
    from training.objectives import teacher_table
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")
    table = teacher_table(ROOT / "results" / "claims-cv" / "oof_nli_nli-mpnet-lora-lr8.jsonl", rows)
    assert len(table) == 2 * len(rows)


@pytest.mark.slow
def test_a_student_recipe_distils_each_fold_from_the_teacher_fold_that_never_saw_it(tmp_path, shared_data):
    """The leak-free protocol, for real on 12 claims_train rows and two folds: a teacher recipe with
    ``score_training_rows`` writes each member's scores of the rows it trained on; a student recipe
    whose ``teacher_scores`` holds ``{part}`` trains fold k on teacher fold k's file (the teacher that
    held out the same rows) and its final model on the teacher's final file."""
    needs_training_extra()
    from training.claim_pairs import grouped_folds, read_rows
    from training.cv_nli import run
    every = read_rows(shared_data / "bench" / "claims_train.jsonl")
    by_doc: dict[str, list[dict]] = {}
    for r in every:
        by_doc.setdefault(r["source"], []).append(r)
    # four documents of three rows: each fold's training documents have pairs of their own to score
    rows = [r for rs in [v for v in by_doc.values() if len(v) >= 3][:4] for r in rs[:3]]
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps(r) + "\n" for r in rows))
    base = {"base_model": None, "replay_files": [], "folds": 2, "epochs": 1, "batch_size": 8, "learning_rate": 3e-5,
            "max_length": 64, "seed": 1, "max_steps": 1}
    teacher = {**base, "name": "t", "output": str(tmp_path / "t-model"), "score_training_rows": True,
               "score_document_pairs": 2}
    (tmp_path / "t.json").write_text(json.dumps(teacher))
    out = tmp_path / "out"
    run(tmp_path / "t.json", tmp_path / "w-t", out, train_path=train)
    folds = grouped_folds(rows, 2)
    for part in ("fold0", "fold1", "final"):
        ids = [json.loads(x)["id"] for x in (out / f"insample_nli_t_{part}.jsonl").read_text().splitlines()]
        want = [r["id"] for r, f in zip(rows, folds) if part == "final" or f != int(part[-1])]
        assert ids == want                   # a member's own training rows, nothing it held out
        mine = {r["source"] for r, f in zip(rows, folds) if part == "final" or f != int(part[-1])}
        docs = [json.loads(x) for x in (out / f"docpairs_nli_t_{part}.jsonl").read_text().splitlines()]
        assert docs and {d["source"] for d in docs} <= mine       # and pairs of its own documents only
        assert all(ref.rsplit(":", 1)[0] in want for d in docs for ref in d["refs"])
    student = {**base, "name": "s", "output": str(tmp_path / "s-model"), "objective": "distill",
               "teacher_scores": str(out / "insample_nli_t_{part}.jsonl"),
               "teacher_pairs": str(out / "docpairs_nli_t_{part}.jsonl")}
    (tmp_path / "s.json").write_text(json.dumps(student))
    run(tmp_path / "s.json", tmp_path / "w-s", out, train_path=train)
    for part in ("fold0", "fold1"):
        s = json.loads((tmp_path / "w-s" / part / "training_summary.json").read_text())
        assert s["config"]["teacher_scores"] == str(out / f"insample_nli_t_{part}.jsonl") and s["teacher_scored_pairs"] > 0
        assert s["config"]["teacher_pairs"] == str(out / f"docpairs_nli_t_{part}.jsonl")
        assert set(s["config"]["teacher_pair_sources"]) == {r["source"] for r, f in zip(rows, folds) if f != int(part[-1])}
        assert s["pairs_by_source"][f"teacher pairs (docpairs_nli_t_{part}.jsonl)"] > 0
    final = json.loads((tmp_path / "s-model" / "training_summary.json").read_text())
    assert final["config"]["teacher_scores"].endswith("insample_nli_t_final.jsonl")


DOC_ROWS = [
    {"id": "d1", "source": "docA", "existing": {"text": "Backups run daily."}, "incoming": {"text": "Backups run weekly."}},
    {"id": "d2", "source": "docA", "existing": {"text": "Backups are kept for 30 days."},
     "incoming": {"text": "We keep backups a month."}},
    {"id": "d3", "source": "docA", "existing": {"text": "Restores are tested monthly."},
     "incoming": {"text": "Nobody tests restores."}},
    {"id": "d4", "source": "docB", "existing": {"text": "The API listens on 8443."},
     "incoming": {"text": "The API listens on 9443."}},
]


def test_document_pairs_pair_one_documents_statements_that_no_row_pairs():
    from training.claim_pairs import document_pairs
    pairs = document_pairs(DOC_ROWS, per_document=5)
    assert pairs == document_pairs(DOC_ROWS, per_document=5)                 # deterministic for a seed
    assert len(pairs) == 5 and {p["source"] for p in pairs} == {"docA"}      # docB has one row: nothing to pair
    labelled = {frozenset((r["existing"]["text"], r["incoming"]["text"])) for r in DOC_ROWS}
    text_row = {r[s]["text"]: r["id"] for r in DOC_ROWS for s in ("existing", "incoming")}
    for p in pairs:
        assert frozenset((p["premise"], p["hypothesis"])) not in labelled
        assert text_row[p["premise"]] != text_row[p["hypothesis"]]
    assert len(document_pairs(DOC_ROWS, per_document=100)) == 12             # 3 rows x 2 statements: 15 - 3 own
    assert len(document_pairs(DOC_ROWS, per_document=2)) == 2


def _pairs_file(tmp_path: Path) -> Path:
    from training.claim_pairs import document_pairs
    f = tmp_path / "docpairs.jsonl"
    f.write_text("".join(json.dumps({"source": p["source"], "refs": p["refs"],
                                     "teacher": {"contradiction": 0.7, "entailment": 0.1, "neutral": 0.2}}) + "\n"
                         for p in document_pairs(DOC_ROWS + ROWS_WITH_SOURCE, per_document=3)))
    return f


ROWS_WITH_SOURCE = [{**r, "source": "docC"} for r in ROWS]


def test_teacher_pairs_are_read_for_a_folds_documents_only(tmp_path):
    from training.data import UNLABELLED
    from training.objectives import read_teacher_pairs
    f = _pairs_file(tmp_path)
    rows = DOC_ROWS + ROWS_WITH_SOURCE
    assert "Backups" not in f.read_text()                  # references to the rows, not their text
    pairs, table = read_teacher_pairs(f, rows)
    assert len(pairs) == 6 and all(p.label == UNLABELLED for p in pairs)
    assert np.exp(table[(pairs[0].premise, pairs[0].hypothesis)]) == pytest.approx([0.7, 0.1, 0.2])
    mine, _ = read_teacher_pairs(f, rows, ["docC"])
    assert len(mine) == 3 and {p.premise for p in mine} <= {r[s]["text"] for r in ROWS for s in ("existing", "incoming")}
    with pytest.raises(ValueError, match="no pair of the training documents"):
        read_teacher_pairs(f, rows, ["docZ"])
    with pytest.raises(ValueError, match="line 1: not a scored pair of these rows"):
        read_teacher_pairs(f, ROWS)                        # its references name rows not given
    f.write_text(f.read_text() + '{"refs": ["d1:existing"]}\n')
    with pytest.raises(ValueError, match="line 7: not a scored pair"):
        read_teacher_pairs(f, rows)


def test_pairs_without_a_gold_label_are_learnt_from_the_teacher_alone():
    """Label -1: no cross-entropy; a batch of such pairs whose teacher is the student itself costs 0,
    and in a mixed batch the cross-entropy is over the labelled pairs only."""
    import torch
    import torch.nn.functional as F

    from training.objectives import ClaimObjective
    model, inputs, gold, _, logits, _, itself = _v1_on_claims()
    with torch.no_grad():
        none = torch.full_like(gold, -1)
        assert ClaimObjective(model, "distill", itself, alpha=0.5)(inputs, none).item() == pytest.approx(0, abs=1e-5)
        mixed = gold.clone()
        mixed[3:] = -1
        ce_first = F.cross_entropy(logits[:3], gold[:3]).item()
        assert ClaimObjective(model, "distill", itself, alpha=0.5)(inputs, mixed).item() == \
            pytest.approx(0.5 * ce_first, abs=1e-4)


def test_teacher_pairs_without_distillation_are_refused_before_anything_loads(tmp_path):
    from training.train import TrainConfig, train
    f = _pairs_file(tmp_path)
    with pytest.raises(ValueError, match="need the distill objective"):
        train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], teacher_pairs=str(f)))
    scores, rows = _teacher_file(tmp_path)
    with pytest.raises(ValueError, match="is not a file"):
        train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], objective="distill", teacher_scores=str(scores),
                          teacher_rows=str(rows), teacher_pairs=str(tmp_path / "none.jsonl")))
    assert not (tmp_path / "m").exists()


@pytest.mark.slow
def test_a_real_distillation_run_with_teacher_pairs(tmp_path):
    """Two steps from v1: the fold's documents' unlabelled pairs join the claim pairs, counted in the
    summary, scored by the teacher, and the loss stays finite with batches of them alone."""
    needs_training_extra()
    from training.claim_pairs import to_nli_pairs
    from training.train import TrainConfig, train
    scores, rows = _teacher_file(tmp_path)
    rows.write_text("".join(json.dumps(r) + "\n" for r in ROWS_WITH_SOURCE + DOC_ROWS))
    f = _pairs_file(tmp_path)
    s = train(TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], from_checkpoint=str(V1),
                          domain_pairs=False, symmetric=False, max_steps=3, batch_size=2, save_steps=100,
                          device="cpu", precision="fp32", objective="distill", teacher_scores=str(scores),
                          teacher_rows=str(rows), teacher_pairs=str(f), teacher_pair_sources=["docA"]),
              extra=to_nli_pairs(ROWS))
    assert s["steps"] == 3 and np.isfinite(s["train_loss"])
    assert s["pairs_by_source"]["teacher pairs (docpairs.jsonl)"] == 3
    assert s["teacher_scored_pairs"] == 2 * len(ROWS) + 3


def test_the_teacher_pairs_command_scores_with_a_real_model(tmp_path):
    import subprocess
    import sys
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in DOC_ROWS))
    out = tmp_path / "pairs.jsonl"
    r = subprocess.run([sys.executable, "-m", "training.teacher_pairs", str(ROOT / "models" / "nli-minilm-l6-v2"),
                        str(out), "--rows", str(rows), "--per-document", "4"],
                       check=False, capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 4 and all(sum(x["teacher"].values()) == pytest.approx(1, abs=1e-4) for x in lines)
    assert all(x["source"] == "docA" and len(x["refs"]) == 2 for x in lines)
    r = subprocess.run([sys.executable, "-m", "training.teacher_pairs", "m", str(out), "--per-document", "0"],
                       check=False, capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "--per-document must be 1 or more" in r.stderr


def test_the_teacher_scores_follow_a_statement_as_the_training_pairs_hold_it(tmp_path):
    """The teacher table is keyed by the texts the training pairs hold: a "shall" statement as the model reads
    it ("must", ``nli.model_text``), and with ``rewritten_statements`` each rewritten row's pairs too, so a
    rewritten pair distils from its row's scores instead of training on the gold label alone."""
    from training.claim_pairs import claim_training_pairs, to_nli_pairs
    from training.objectives import teacher_table
    from training.train import TrainConfig, _teacher
    shall = [{**ROWS[0], "id": "s", "existing": {"text": "The API shall listen on port 8443."}}]
    scores = tmp_path / "s.jsonl"
    scores.write_text(json.dumps({"id": "s", "forward": {"contradiction": 0.9, "entailment": 0.05, "neutral": 0.05},
                                  "backward": {"contradiction": 0.8, "entailment": 0.1, "neutral": 0.1}}) + "\n")
    table = teacher_table(scores, shall)
    assert {(p.premise, p.hypothesis) for p in to_nli_pairs(shall)} == set(table)
    assert ("The API must listen on port 8443.", shall[0]["incoming"]["text"]) in table

    scores, rows = _teacher_file(tmp_path)
    cfg = TrainConfig(output_dir=str(tmp_path / "m"), train_files=[], objective="distill", teacher_scores=str(scores),
                      teacher_rows=str(rows), rewritten_statements=1.0, seed=5)
    recipe_pairs = claim_training_pairs(ROWS, {"rewritten_statements": 1.0, "seed": 5})
    assert {(p.premise, p.hypothesis) for p in recipe_pairs} != {(p.premise, p.hypothesis) for p in to_nli_pairs(ROWS)}
    assert all((p.premise, p.hypothesis) in _teacher(cfg) for p in recipe_pairs)
