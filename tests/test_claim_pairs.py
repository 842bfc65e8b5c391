"""Claim pairs as NLI training data, and the grouped folds the NLI models and the gate share."""
import pytest

from training.claim_pairs import (claim_training_pairs, grouped_folds, identity_pairs, nli_label, perturbed_pairs,
                                  polarity_pairs, read_rows, same_document_neutrals, subject_swap_neutrals,
                                  to_nli_pairs)


def row(label, category, source="doc", i=0):
    return {"id": f"x-{i}", "existing": {"text": f"A {i}."}, "incoming": {"text": f"B {i}."},
            "label": label, "category": category, "source": source}


def test_label_mapping():
    assert nli_label(row("contradiction", "value_conflict")) == "contradiction"
    assert nli_label(row("compatible", "paraphrase_consistent")) == "entailment"
    assert nli_label(row("compatible", "unrelated_cross_domain")) == "neutral"
    assert nli_label(row("tension", "soft_tension")) == "neutral"
    assert nli_label(row("compatible", "scope_disjoint")) is None      # the texts oppose; only scope reconciles
    assert nli_label(row("compatible", "time_disjoint")) is None


def test_both_directions_of_each_usable_pair():
    pairs = to_nli_pairs([row("contradiction", "value_conflict"), row("compatible", "time_disjoint", i=1)])
    assert [(p.premise, p.hypothesis) for p in pairs] == [("A 0.", "B 0."), ("B 0.", "A 0.")]


def test_no_document_on_both_sides_of_a_split(shared_data):
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")
    folds = grouped_folds(rows)
    by_source = {}
    for r, f in zip(rows, folds):
        by_source.setdefault(r["source"], set()).add(f)
    assert all(len(s) == 1 for s in by_source.values())
    assert sorted(set(folds)) == [0, 1, 2, 3, 4] and folds == grouped_folds(rows)     # deterministic


def test_the_recipe_runs_folds_then_the_final_model_and_resumes(tmp_path, shared_data):
    """A tiny recipe end to end: out-of-fold predictions for every row, each from a fold model that
    did not train on it, then the final model and its dev predictions; a rerun skips finished folds."""
    import json

    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")

    from training.cv_nli import run
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")[:24]
    dev = read_rows(shared_data / "bench" / "claims_dev.jsonl")[:6]
    (tmp_path / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "dev.jsonl").write_text("".join(json.dumps(r) + "\n" for r in dev))
    recipe = {"name": "tiny", "output": "tiny-model", "from_checkpoint": None, "base_model": None,
              "replay_files": [], "folds": 2, "epochs": 1, "batch_size": 8, "learning_rate": 3e-5,
              "max_length": 64, "seed": 1, "max_steps": 2}
    (tmp_path / "tiny.json").write_text(json.dumps(recipe))
    kw = dict(work_dir=tmp_path / "work", out_dir=tmp_path / "out", train_path=tmp_path / "train.jsonl",
              dev_path=tmp_path / "dev.jsonl", model_root=tmp_path)
    summary = run(tmp_path / "tiny.json", **kw)
    assert set(summary["runs"]) == {"fold0", "fold1", "final"}
    oof = [json.loads(x) for x in (tmp_path / "out" / "oof_nli_tiny.jsonl").read_text().splitlines()]
    folds = dict(zip([r["id"] for r in rows], grouped_folds(rows, 2)))
    assert [p["id"] for p in oof] == [r["id"] for r in rows] and all(p["fold"] == folds[p["id"]] for p in oof)
    assert len((tmp_path / "out" / "dev_nli_tiny.jsonl").read_text().splitlines()) == 6
    assert (tmp_path / "tiny-model" / "model.safetensors").exists()
    again = run(tmp_path / "tiny.json", **kw)
    assert again["runs"] == {}          # every fold and the final model were already there
    from training.cv_nli import score_dev         # a fold model standing in for a final one, on dev only
    score_dev(str(tmp_path / "work" / "fold0"), "tiny-fold0", tmp_path / "out", dev_path=tmp_path / "dev.jsonl")
    dev_f0 = [json.loads(x) for x in (tmp_path / "out" / "dev_nli_tiny-fold0.jsonl").read_text().splitlines()]
    assert [p["id"] for p in dev_f0] == [r["id"] for r in dev] and not (tmp_path / "out" / "oof_nli_tiny-fold0.jsonl").exists()
    assert all(abs(sum(p["forward"].values()) - 1) < 1e-3 for p in dev_f0)


def _sixteen_claim_rows(tmp_path, shared_data):
    """claims_train's first 16 rows as the training file and 4 of them as the dev file, for the
    multi-stage recipe tests (which check where each stage starts, not what it learns)."""
    import json
    for mod in ("datasets", "accelerate"):
        pytest.importorskip(mod, reason="training needs pip install claim-guard[train]")
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")[:16]
    (tmp_path / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "dev.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:4]))


def _two_stage_recipe(name: str) -> dict:
    """A tiny recipe with a general stage (16 MNLI pairs, 2 steps) and a two-fold claim stage (1 step)."""
    return {"name": name, "output": f"{name}-model", "base_model": None, "replay_files": [],
            "general": {"files": ["mnli.train.jsonl"], "sample": {"mnli.train.jsonl": 16}, "epochs": 1,
                        "batch_size": 8, "learning_rate": 3e-5, "max_steps": 2},
            "folds": 2, "epochs": 1, "batch_size": 8, "learning_rate": 3e-5, "max_length": 64, "seed": 1,
            "max_steps": 1}


def test_a_two_stage_recipe_trains_general_nli_once_and_folds_start_from_it(tmp_path, shared_data):
    """A recipe with a "general" stage: general NLI from the base first (deduplicated against the
    evaluation files), then every fold model and the final model continue from it."""
    import json

    from training.cv_nli import run
    _sixteen_claim_rows(tmp_path, shared_data)
    recipe = _two_stage_recipe("two")
    (tmp_path / "two.json").write_text(json.dumps(recipe))
    run(tmp_path / "two.json", work_dir=tmp_path / "work", out_dir=tmp_path / "out",
        train_path=tmp_path / "train.jsonl", dev_path=tmp_path / "dev.jsonl", model_root=tmp_path)
    general = json.loads((tmp_path / "work" / "general" / "training_summary.json").read_text())
    assert general["config"]["dedupe"] and general["config"]["from_checkpoint"] is None
    assert general["pairs_by_source"]["mnli.train.jsonl"] == 16
    final = json.loads((tmp_path / "two-model" / "training_summary.json").read_text())
    assert final["config"]["from_checkpoint"] == str(tmp_path / "work" / "general")
    assert "hardware" in final


def test_same_document_neutrals_pair_one_documents_statements_on_a_shared_word():
    def r(i, text, source):
        return {"id": f"x-{i}", "existing": {"text": text}, "incoming": {"text": f"note {i}"},
                "label": "compatible", "category": "unrelated_cross_domain", "source": source}
    rows = [r(0, "The scheduler retries failed jobs three times.", "a.md"),
            r(1, "The scheduler runs in us-east-1.", "a.md"),
            r(2, "Invoices are paid within 30 days.", "a.md"),          # shares no content word
            r(3, "The scheduler is written in Go.", "b.md")]            # another document
    pairs = same_document_neutrals(rows, per_document=5)
    assert [(p.premise, p.hypothesis, p.label) for p in pairs] == [
        ("The scheduler retries failed jobs three times.", "The scheduler runs in us-east-1.", "neutral"),
        ("The scheduler runs in us-east-1.", "The scheduler retries failed jobs three times.", "neutral")]
    assert same_document_neutrals(rows, per_document=0) == []
    assert len(claim_training_pairs(rows, {})) == len(to_nli_pairs(rows))
    assert len(claim_training_pairs(rows, {"same_document_neutrals": 2})) == len(to_nli_pairs(rows)) + 2


def test_identity_pairs_are_each_distinct_statement_against_itself_as_entailment():
    rows = [row("contradiction", "value_conflict", i=0), row("compatible", "paraphrase_consistent", i=1),
            {**row("compatible", "unrelated_cross_domain", i=2), "incoming": {"text": "A 0."}}]   # "A 0." again
    pairs = identity_pairs(rows)
    assert [(p.premise, p.hypothesis, p.label) for p in pairs] == [
        ("A 0.", "A 0.", "entailment"), ("B 0.", "B 0.", "entailment"), ("A 1.", "A 1.", "entailment"),
        ("B 1.", "B 1.", "entailment"), ("A 2.", "A 2.", "entailment")]
    assert len(claim_training_pairs(rows, {"identity_pairs": False})) == len(to_nli_pairs(rows))
    assert len(claim_training_pairs(rows, {"identity_pairs": True})) == len(to_nli_pairs(rows)) + 5


def test_subject_swaps_replace_only_the_shared_subject(normalizer):
    def r(i, a, b, source, label="contradiction"):
        return {"id": f"x-{i}", "existing": {"text": a}, "incoming": {"text": b}, "label": label,
                "category": "value_conflict", "source": source}
    rows = [r(0, "The recovery time objective is 4 hours.", "The recovery time objective is 8 hours.", "dr.md"),
            r(1, "The backup window starts at 01:00.", "The backup job must not run before 03:00.", "dr.md", "compatible"),
            r(2, "You must rotate keys yearly.", "You need not rotate keys.", "keys.md"),       # a pronoun subject
            r(3, "Invoices are paid within 30 days.", "The invoice total must include VAT.", "b.md")]
    pairs = subject_swap_neutrals(rows, per_pair=1, nlp=normalizer.nlp)
    assert [(p.premise, p.hypothesis, p.label) for p in pairs] == [
        ("The recovery time objective is 4 hours.", "The backup window is 8 hours.", "neutral"),
        ("The backup window is 8 hours.", "The recovery time objective is 4 hours.", "neutral")]
    assert all(p.source.startswith("claims:subject-swap") for p in pairs)
    assert len(claim_training_pairs(rows, {"subject_swap_neutrals": 1})) == len(to_nli_pairs(rows)) + 2


def test_perturbed_pairs_flip_the_main_verb_change_a_value_and_cut_only_and(normalizer):
    def r(i, a, b, category, label="compatible"):
        return {"id": f"x-{i}", "existing": {"text": a}, "incoming": {"text": b}, "label": label,
                "category": category, "source": f"d{i}.md"}
    rows = [r(0, "Node 18 is supported for 30 months.", "Node 18 gets 30 months of support.", "paraphrase_consistent"),
            r(1, "Deploys must be approved by two reviewers.", "Deploys need no approval.", "modality_opposition",
              "contradiction"),
            r(2, "The scheduler retries failed jobs.", "The scheduler does not retry failed jobs.", "paraphrased_negation",
              "contradiction"),
            r(3, "The API listens on 8443 and rejects plain HTTP.", "The API may use port 80 or port 8443.",
              "lexical_overlap_compatible"),
            r(4, "Staging is open.", "Production is closed.", "scope_disjoint")]          # left out: only scope decides
    pairs = perturbed_pairs(rows, nlp=normalizer.nlp)
    got = {(p.premise, p.hypothesis, p.label) for p in pairs}
    assert ("Node 18 is supported for 30 months.", "Node 18 does not get 30 months of support.", "contradiction") in got
    changed = [p.hypothesis for p in pairs if p.source == "claims:perturbed:number-paraphrase"]
    assert len(changed) == 1 and changed[0].startswith("Node 18 gets ") and "30" not in changed[0]   # the subject's 18 stays
    assert ("Deploys must be approved by two reviewers.", "Deploys must not be approved by two reviewers.",
            "contradiction") in got
    assert ("The scheduler retries failed jobs.", "The scheduler does not retry failed jobs.", "contradiction") in got
    assert ("The API listens on 8443 and rejects plain HTTP.", "The API listens on 8443.", "entailment") in got
    assert ("The API listens on 8443.", "The API listens on 8443 and rejects plain HTTP.", "neutral") in got
    assert not any("port 80." in p.hypothesis for p in pairs)              # "A or B" entails neither
    assert not any("Staging" in p.premise + p.hypothesis for p in pairs)
    contradictions = [p for p in pairs if p.label == "contradiction"]
    assert len(contradictions) % 2 == 0 and {(p.hypothesis, p.premise) for p in contradictions} == \
        {(p.premise, p.hypothesis) for p in contradictions}                 # both directions
    assert [(p.premise, p.hypothesis) for p in perturbed_pairs(rows, nlp=normalizer.nlp)] == \
        [(p.premise, p.hypothesis) for p in pairs]                           # deterministic
    assert len(claim_training_pairs(rows, {"perturbed_pairs": True})) == len(to_nli_pairs(rows)) + len(pairs)


def test_polarity_pairs_give_a_negation_each_label(normalizer):
    def r(i, a, b, category, label="compatible"):
        return {"id": f"x-{i}", "existing": {"text": a}, "incoming": {"text": b}, "label": label,
                "category": category, "source": f"d{i}.md"}
    rows = [r(0, "Node 18 is supported for 30 months.", "Node 18 gets 30 months of support.", "paraphrase_consistent"),
            r(1, "The scheduler retries failed jobs three times.", "The scheduler retries failed jobs five times.",
              "value_conflict", "contradiction"),
            r(2, "Contractors must not access production.", "Contractors can access production.",
              "modality_opposition", "contradiction"),
            r(3, "The API listens on 8443.", "The API may use port 8443.", "lexical_overlap_compatible"),
            r(4, "Staging is open.", "Staging is closed.", "scope_disjoint", "compatible"),
            r(5, "Be kind.", "Deploys are frozen.", "soft_tension", "tension")]
    pairs = polarity_pairs(rows, nlp=normalizer.nlp)
    got = {(p.premise, p.hypothesis, p.label) for p in pairs}
    assert got == {
        # a paraphrase with either side negated contradicts, both directions
        ("Node 18 is supported for 30 months.", "Node 18 does not get 30 months of support.", "contradiction"),
        ("Node 18 does not get 30 months of support.", "Node 18 is supported for 30 months.", "contradiction"),
        ("Node 18 is not supported for 30 months.", "Node 18 gets 30 months of support.", "contradiction"),
        ("Node 18 gets 30 months of support.", "Node 18 is not supported for 30 months.", "contradiction"),
        # denying what contradicts the first statement no longer contradicts it
        ("The scheduler retries failed jobs three times.", "The scheduler does not retry failed jobs five times.",
         "neutral"),
        ("The scheduler does not retry failed jobs five times.", "The scheduler retries failed jobs three times.",
         "neutral"),
        ("Contractors must not access production.", "Contractors cannot access production.", "neutral"),
        ("Contractors cannot access production.", "Contractors must not access production.", "neutral")}
    # neither compatible look-alikes, nor scope-decided, nor tension pairs: their negation has no sure label
    assert [p.source for p in pairs].count("claims:polarity:contradiction-denied") == 2
    assert len(claim_training_pairs(rows, {"polarity_pairs": True})) == len(to_nli_pairs(rows)) + len(pairs)
    assert len(claim_training_pairs(rows, {})) == len(to_nli_pairs(rows))


def test_same_document_neutrals_never_cross_a_fold(shared_data):
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")
    folds = grouped_folds(rows)
    for f in range(5):
        train = [x for x, k in zip(rows, folds) if k != f]
        held_texts = {x["existing"]["text"] for x, k in zip(rows, folds) if k == f} | \
                     {x["incoming"]["text"] for x, k in zip(rows, folds) if k == f}
        extra = same_document_neutrals(train, 4)
        assert extra and not {t for p in extra for t in (p.premise, p.hypothesis)} & held_texts


def test_the_ablation_reports_the_cards_auc_and_recall_at_two_percent(tmp_path):
    import json

    from training.claim_stage_ablation import figures
    rows = [{"id": str(i), "label": lab, "category": cat} for i, (lab, cat) in enumerate(
        [("contradiction", "value_conflict")] * 3 + [("compatible", "unrelated_cross_domain")] * 3 +
        [("compatible", "scope_disjoint"), ("tension", "soft_tension")])]
    p = {"0": 0.9, "1": 0.8, "2": 0.2, "3": 0.1, "4": 0.3, "5": 0.85, "6": 0.99, "7": 0.95}
    oof = tmp_path / "oof.jsonl"       # the larger direction counts
    oof.write_text("".join(json.dumps({"id": i, "forward": {"contradiction": v}, "backward": {"contradiction": v / 2}})
                           + "\n" for i, v in p.items()))
    f = figures(rows, oof)
    assert f["roc_auc_text_only"] == round(6 / 9, 4)          # scope-disjoint and tension pairs left out
    assert f["roc_auc"] == round(6 / 12, 4)                    # the scope-disjoint pair counts here
    assert f["recall_at_2pct_fp_text_only"] == round(1 / 3, 4)  # above the highest negative (0.85)
    assert f["mean_p_contradiction_by_category"]["scope_disjoint"] == 0.99


def test_general_more_finishes_a_cut_short_general_stage_and_the_claim_stage_starts_from_it(tmp_path, shared_data):
    """"general_more": the general stage stopped by max_steps is continued on the pairs it did not
    reach, once (a rerun skips both), and every fold and the final model start from the continuation."""
    import json

    from training.cv_nli import run
    _sixteen_claim_rows(tmp_path, shared_data)
    recipe = {"name": "more", "output": "more-model", "base_model": None, "replay_files": [],
              "general": {"files": ["mnli.train.jsonl"], "sample": {"mnli.train.jsonl": 24}, "epochs": 1,
                          "batch_size": 8, "learning_rate": 3e-5, "max_steps": 2, "group_by_length": True},
              "general_more": {"epochs": 1, "learning_rate": 2e-5},
              "folds": 2, "epochs": 1, "batch_size": 8, "learning_rate": 3e-5, "max_length": 64, "seed": 1,
              "max_steps": 1}
    (tmp_path / "more.json").write_text(json.dumps(recipe))
    kw = dict(work_dir=tmp_path / "work", out_dir=tmp_path / "out", train_path=tmp_path / "train.jsonl",
              dev_path=tmp_path / "dev.jsonl", model_root=tmp_path)
    run(tmp_path / "more.json", **kw)
    work = tmp_path / "work"
    general = json.loads((work / "general" / "training_summary.json").read_text())
    more = json.loads((work / "general_more" / "training_summary.json").read_text())
    assert more["config"]["from_checkpoint"] == str(work / "general") and more["config"]["skip_batches"] == 2
    assert more["config"]["learning_rate"] == 2e-5
    left_out = more["pairs_by_source"]["left out (seen by the run continued)"]
    assert 8 < left_out <= 16 and more["pairs_total"] == general["pairs_total"] - left_out   # 2 batches of 8
    final = json.loads((tmp_path / "more-model" / "training_summary.json").read_text())
    assert final["config"]["from_checkpoint"] == str(work / "general_more")
    stamp = (work / "general_more" / "model.safetensors").stat().st_mtime_ns
    run(tmp_path / "more.json", **kw)
    assert (work / "general_more" / "model.safetensors").stat().st_mtime_ns == stamp
    recipe["general"]["group_by_length"] = False
    (tmp_path / "bad.json").write_text(json.dumps({**recipe, "name": "bad"}))
    with pytest.raises(ValueError, match="length-grouped general stage"):
        run(tmp_path / "bad.json", **{**kw, "work_dir": tmp_path / "work2"})


def test_a_recipe_with_seeds_trains_each_seed_then_scores_their_soups(tmp_path, shared_data):
    """"seeds": every fold and the final model once per seed (one seed and one part at a time, as
    side-by-side runs on a GPU do, then the rest in a plain run), each fold's soup scoring the fold
    its members held out, each seed's own out-of-fold and dev files beside the soup's, and the final
    soup's weights the mean of the seeds' final weights."""
    import json

    from safetensors.torch import load_file

    from training.cv_nli import run
    _sixteen_claim_rows(tmp_path, shared_data)
    recipe = {"name": "soup", "output": "soup-model", "base_model": None, "replay_files": [],
              "folds": 2, "epochs": 1, "batch_size": 8, "learning_rate": 3e-5, "max_length": 64, "seed": 1,
              "seeds": [1, 2], "max_steps": 3}         # the first step's learning rate is 0 (warm-up)
    (tmp_path / "soup.json").write_text(json.dumps(recipe))
    kw = dict(work_dir=tmp_path / "work", out_dir=tmp_path / "out", train_path=tmp_path / "train.jsonl",
              dev_path=tmp_path / "dev.jsonl", model_root=tmp_path)
    one = run(tmp_path / "soup.json", only_seed=2, only_part="fold1", **kw)
    assert set(one["runs"]) == {"fold1-s2"} and not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="not among the recipe's seeds"):
        run(tmp_path / "soup.json", only_seed=3, **kw)
    with pytest.raises(ValueError, match="none of fold0"):
        run(tmp_path / "soup.json", only_part="fold7", **kw)
    rest = run(tmp_path / "soup.json", **kw)
    assert set(rest["runs"]) == {"fold0-s1", "fold0-s2", "fold1-s1", "final-s1", "final-s2"}
    work, out = tmp_path / "work", tmp_path / "out"
    ids = [r["id"] for r in read_rows(tmp_path / "train.jsonl")]
    for tag in ("soup", "soup-s1", "soup-s2"):
        assert [json.loads(x)["id"] for x in (out / f"oof_nli_{tag}.jsonl").read_text().splitlines()] == ids
        assert len((out / f"dev_nli_{tag}.jsonl").read_text().splitlines()) == 4
    assert json.loads((work / "fold0" / "soup.json").read_text())["members"] == [
        str(work / "seed1" / "fold0"), str(work / "seed2" / "fold0")]
    a, b = (load_file(str(work / f"seed{s}" / "final" / "model.safetensors")) for s in (1, 2))
    mean = load_file(str(tmp_path / "soup-model" / "model.safetensors"))
    name = next(n for n in mean if n.endswith("classifier.weight"))
    assert (mean[name].float() - (a[name].float() + b[name].float()) / 2).abs().max() < 1e-3
    assert any((a[n].float() - b[n].float()).abs().max() > 1e-4 for n in a)    # the seeds did differ
    summary = json.loads((tmp_path / "soup-model" / "training_summary.json").read_text())
    assert set(summary["soup_of_seeds"]) == {"1", "2"}
    again = run(tmp_path / "soup.json", **kw)
    assert again["runs"] == {}


def test_a_kept_general_model_starts_the_claim_stage_and_a_mismatched_one_is_refused(tmp_path, shared_data):
    """--general: the claim stage starts from a general model trained elsewhere (no general stage is
    trained in the work folder); one trained otherwise than the recipe's general stage says is
    refused in one line, before any training."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from training.cv_nli import run
    _sixteen_claim_rows(tmp_path, shared_data)
    recipe = _two_stage_recipe("kept")
    (tmp_path / "kept.json").write_text(json.dumps(recipe))
    kw = {"out_dir": tmp_path / "out", "train_path": tmp_path / "train.jsonl", "dev_path": tmp_path / "dev.jsonl",
          "model_root": tmp_path}
    run(tmp_path / "kept.json", work_dir=tmp_path / "elsewhere", general_only=True, **kw)
    kept = tmp_path / "elsewhere" / "general"
    run(tmp_path / "kept.json", work_dir=tmp_path / "work", general=kept, folds_only=True, **kw)
    assert not (tmp_path / "work" / "general").exists()
    fold = json.loads((tmp_path / "work" / "fold0" / "training_summary.json").read_text())
    assert fold["config"]["from_checkpoint"] == str(kept)
    assert len((tmp_path / "out" / "oof_nli_kept.jsonl").read_text().splitlines()) == 16

    root = Path(__file__).resolve().parents[1]
    recipe["general"]["learning_rate"] = 5e-5
    (tmp_path / "other.json").write_text(json.dumps({**recipe, "name": "other"}))
    r = subprocess.run([sys.executable, "-m", "training.cv_nli", str(tmp_path / "other.json"), "--general", str(kept),
                        "--work", str(tmp_path / "w2"), "--train", str(tmp_path / "train.jsonl"),
                        "--dev", str(tmp_path / "dev.jsonl")], cwd=root, capture_output=True, text=True, check=False)
    assert r.returncode == 1 and r.stderr.strip().count("\n") == 0, r.stderr
    assert "trained with other learning_rate than the recipe's general stage" in r.stderr
    assert not (tmp_path / "w2").exists()
    from training.cv_nli import check_general, load_recipe
    with pytest.raises(ValueError, match="no training_summary.json there"):
        check_general(load_recipe(tmp_path / "kept.json"), tmp_path / "nowhere")


def test_the_kept_general_model_is_v2s_general_stage():
    """models/nli-minilm-l6-v2-general is the start of v2's recipe and those that extend it without
    changing the general stage; a recipe whose general stage differs (v3: one length-grouped epoch)
    cannot start from it."""
    from pathlib import Path

    from training.cv_nli import check_general, load_recipe
    root = Path(__file__).resolve().parents[1]
    kept = root / "models" / "nli-minilm-l6-v2-general"
    for name in ("nli-minilm-l6-v2", "nli-minilm-l6-v2-distill", "nli-minilm-l6-v2-h200", "nli-minilm-l6-v2-swa",
                 "nli-minilm-l6-v2-distill-s43"):        # another seed draws another claim stage from it
        check_general(load_recipe(root / "training" / "recipes" / f"{name}.json"), kept)
    with pytest.raises(ValueError, match="other epochs, group_by_length"):
        check_general(load_recipe(root / "training" / "recipes" / "nli-minilm-l6-v3.json"), kept)


def test_main_clause_pairs_repeat_a_pair_cut_to_its_main_clauses_where_the_cut_keeps_its_numbers():
    """"main_clause_pairs": each usable pair again, both statements cut to their main clauses, same label,
    both directions; a pair the cut leaves as it was adds nothing, a scope-disjoint pair stays out as it
    does uncut, and a contradiction whose number sat in the part cut off is left out."""
    from training.claim_pairs import main_clause_pairs

    def r(i, a, b, label, category):
        return {"id": f"m-{i}", "existing": {"text": a}, "incoming": {"text": b}, "label": label,
                "category": category, "source": "doc"}
    rows = [r(0, "If you travel for a customer visit, the company pays for your hotel.",
              "Hotel stays on customer trips are never reimbursed.", "contradiction", "modality_opposition"),
            r(1, "The API listens on port 8443.", "The API serves HTTPS on 8443.", "compatible", "paraphrase_consistent"),
            r(2, "Uploads are capped at a small size (10 MB).", "Uploads may be 50 MB.", "contradiction", "value_conflict"),
            r(3, "In staging, tracing is on.", "Tracing is off.", "compatible", "scope_disjoint")]
    pairs = main_clause_pairs(rows)
    assert [(p.premise, p.hypothesis, p.label) for p in pairs] == [
        ("The company pays for your hotel.", "Hotel stays on customer trips are never reimbursed.", "contradiction"),
        ("Hotel stays on customer trips are never reimbursed.", "The company pays for your hotel.", "contradiction")]
    assert {p.source for p in pairs} == {"claims:main-clause", "claims:main-clause:swapped"}
    assert len(claim_training_pairs(rows, {"main_clause_pairs": True})) == len(to_nli_pairs(rows)) + 2
    assert len(claim_training_pairs(rows, {})) == len(to_nli_pairs(rows))


def test_folds_by_family_hold_out_one_kind_of_document_each(shared_data):
    """``"fold_by": "family"``: each fold is one source family, whole, so an out-of-fold score is of a model that
    never saw a document of the pair's kind; a folds count that disagrees with the families, or another grouping,
    is refused in one line."""
    from training.cv_nli import recipe_folds
    rows = read_rows(shared_data / "bench" / "claims_train.jsonl")
    fold, k = recipe_folds({"fold_by": "family", "folds": 4}, rows)
    assert k == 4
    held = [{str(r["id"]).split("-")[0] for r, f in zip(rows, fold) if f == i} for i in range(k)]
    assert all(len(h) == 1 for h in held) and len(set.union(*held)) == 4
    assert recipe_folds({}, rows) == (grouped_folds(rows, 5), 5)
    with pytest.raises(ValueError, match="5 folds, and its rows come from 4 families"):
        recipe_folds({"fold_by": "family", "folds": 5}, rows)
    with pytest.raises(ValueError, match="fold_by must be"):
        recipe_folds({"fold_by": "source"}, rows)


def test_rewritten_rows_write_a_share_of_the_statements_another_way_the_same_way_each_time():
    """"rewritten_statements": a statement is replaced by one of its wording rewrites (``benchmarks.rewrites``)
    that the model reads as another text — never a markup one, never one ``model_text`` or the tokenizer's
    lower-casing undoes; the label and id stay; the choice depends on the text and the seed only."""
    from benchmarks.rewrites import WORDING_FAMILIES, rewrites
    from guard.nli.model_text import model_text
    from training.claim_pairs import rewritten_rows

    def r(i, a, b):
        return {"id": f"w-{i}", "existing": {"text": a}, "incoming": {"text": b}, "label": "contradiction",
                "category": "modality_opposition", "source": "doc"}
    rows = [r(0, "Contractors must not have production database access.", "Contractors can query the production database."),
            r(1, "Backups are kept for 30 days.", "Backups are kept for 90 days."),
            r(2, "Xyzzy.", "Plugh.")]                  # nothing to rewrite
    every = rewritten_rows(rows, 1.0, seed=3)
    assert [x["id"] for x in every] == ["w-0", "w-1"] and all(x["label"] == "contradiction" for x in every)
    for new, old in zip(every, rows):
        for side in ("existing", "incoming"):
            before, after = old[side]["text"], new[side]["text"]
            if after != before:
                assert any(f in WORDING_FAMILIES and t == after for f, t in rewrites(before))
                assert model_text(after).lower() != model_text(before).lower()
    assert every[1]["existing"]["text"] != "Backups are kept for 30 days."      # "thirty days", "30d", …
    assert rewritten_rows(rows, 1.0, seed=3) == every                          # deterministic
    assert rewritten_rows(rows, 0.0) == [] and len(rewritten_rows(rows, 0.0, keep=True)) == 3
    kept = rewritten_rows(rows, 1.0, seed=3, keep=True)
    assert kept[2] == rows[2] and kept[:2] == every
    # in a recipe: the same number of pairs, the labelled pairs read rewritten
    pairs = claim_training_pairs(rows, {"rewritten_statements": 1.0, "seed": 3})
    assert len(pairs) == len(to_nli_pairs(rows))
    assert (model_text(every[1]["existing"]["text"]), model_text(every[1]["incoming"]["text"])) in {
        (p.premise, p.hypothesis) for p in pairs}
    # or beside them: the pairs as written, and the rewritten rows' pairs again
    beside = claim_training_pairs(rows, {"rewritten_copies": 1.0, "seed": 3})
    assert [(p.premise, p.hypothesis) for p in beside] == [(p.premise, p.hypothesis) for p in to_nli_pairs(rows)
                                                          + to_nli_pairs(every)]
    assert {p.source for p in beside[len(to_nli_pairs(rows)):]} == {"claims:rewritten", "claims:rewritten:swapped"}
    with pytest.raises(ValueError, match="not both"):
        claim_training_pairs(rows, {"rewritten_copies": 0.5, "rewritten_statements": 0.5})
    # the share the teacher's scores follow, either way
    from training.claim_pairs import rewrite_share
    assert rewrite_share({"rewritten_copies": 0.5}) == rewrite_share({"rewritten_statements": 0.5}) == 0.5
    assert rewrite_share({}) == 0.0
    with pytest.raises(ValueError, match="rewritten_statements must be a share"):
        rewritten_rows(rows, 1.5)
