"""The learned opening-boundary model (guard.normalize.opening_boundary): the shipped file, what normalizer.rules.v2
reads with it, its parse check, fitting it (training.fit_opening_boundary) on a tiny folder of NLI files, and damaged
or missing model files — with the real spaCy model."""
import json
import logging

import pytest

from guard.normalize.opening_boundary import (
    MODEL_FILE,
    OpeningBoundary,
    reads_as_opening,
)
from guard.normalize.openings import opening_without_comma
from tests.test_openings import reading


def test_the_shipped_model_says_what_it_was_fitted_on_and_its_threshold_was_chosen_by_cross_validation():
    model = OpeningBoundary.load()
    assert "lingnli.train.jsonl" in model.fitted_on_ and "claims" not in model.fitted_on_
    cv = model.cv_
    assert cv["chosen"] == model.min_probability
    # the threshold in use reads the fewest held-out sentences wrong (a wrong place, or none: each has an opening)
    rule, used = cv["rule"], cv["rule then model"][str(model.min_probability)]
    errors = {th: c["wrong"] + c["none"] for th, c in cv["rule then model"].items()}
    assert errors[str(model.min_probability)] == min(errors.values())
    assert used["right"] > rule["right"] and errors[str(model.min_probability)] < rule["wrong"] + rule["none"]
    card = (MODEL_FILE.parent / "README.md").read_text()
    assert "lingnli.train.jsonl" in card and "(chosen)" in card


@pytest.mark.parametrize("with_comma", [
    # the hand rule finds no boundary in these; the model's ranking, checked by the parse, does
    "For P0 incidents, status updates are posted at most once an hour.",
    "During the holiday freeze, releases are paused.",
    "In production, debug logging must be disabled.",
    "For internal services, mutual TLS is mandatory.",
    "For EU customers, data stays in eu-west-1.",
    "At AAL3, reauthentication is required after 15 minutes of inactivity.",
])
def test_an_opening_the_hand_rule_misses_reads_as_with_its_comma(normalizer_v2, with_comma):
    without = with_comma.replace(",", "", 1)
    doc = normalizer_v2.nlp(without)
    assert opening_without_comma(doc, normalizer_v2._verbs) is None
    assert normalizer_v2._opening_model.boundary(doc, normalizer_v2.nlp) == with_comma.index(",")
    assert reading(normalizer_v2)(without) == reading(normalizer_v2)(with_comma)


@pytest.mark.parametrize("text", [
    "Production deploys need two approvals.",           # no opener
    "At least two approvals are required for prod.",    # a quantity, not a phrase
    "Than ever before the queue is long today.",        # not an opener
])
def test_no_place_is_ranked_where_nothing_opens_a_phrase(normalizer_v2, text):
    doc = normalizer_v2.nlp(text)
    assert normalizer_v2._opening_model.ranked(doc) == []
    assert normalizer_v2._opening_model.boundary(doc, normalizer_v2.nlp) is None


def test_the_parse_check_reads_an_opening_then_a_subject_or_an_order(normalizer_v2):
    nlp = normalizer_v2.nlp
    text = "During the freeze, releases are paused."
    assert reads_as_opening(nlp(text), text.index(","))
    order = "During incidents, prefer reversible actions."
    assert reads_as_opening(nlp(order), order.index(","))
    # a comma after the main clause is no opening's end
    late = "In production debug logging is off, which saves disk."
    assert not reads_as_opening(nlp(late), late.index(","))
    # a comma inside the phrase, or between the main clause's subject and its verb
    for text in ("In the local dev, environment the login page is served over HTTP.",
                 "During the, holiday freeze releases are paused.",
                 "In the local dev environment the login page, is served over HTTP."):
        assert not reads_as_opening(nlp(text), text.index(","))


@pytest.mark.parametrize("text", [
    # a clause a wh- or time adverb opens: the parser hangs the adverb on the clause's verb, not as its marker
    "When a build fails, the author fixes it before merging.",
    "Once the freeze has ended, deferred releases may go out.",
    # an order after "do not" or "please" (the check once compared spaCy tokens by identity, so no word before an
    # order's verb ever passed)
    "During an incident, do not restart the primary database.",
    "During an incident, please page the secondary on-call.",
])
def test_the_parse_check_reads_a_clause_an_adverb_opens_and_an_order_after_do_not(normalizer_v2, text):
    assert reads_as_opening(normalizer_v2.nlp(text), text.index(","))


def test_the_parse_check_reads_the_main_clause_alone_where_the_sentence_s_parse_misreads_it(normalizer_v2):
    nlp = normalizer_v2.nlp
    # whole, the small model takes "updates" for the verb; alone, the clause starts with its subject
    text = "For free-tier customers, status-page updates during an incident are posted hourly."
    assert not reads_as_opening(nlp(text), text.index(","))
    assert reads_as_opening(nlp(text), text.index(","), nlp)
    # alone, a clause still needs one subject that is one noun phrase, and a comma inside the phrase is still none
    for text in ("In the local dev, environment the login page is served over HTTP.",
                 "On our Grafana, 10.2 servers the cache stays warm.",
                 "During the, holiday freeze releases are paused.",
                 "In production debug logging is off, which saves disk.",
                 "When a test, fails the fix goes into the production code."):
        assert not reads_as_opening(nlp(text), text.index(","), nlp), text


@pytest.mark.parametrize("without, with_comma", [
    ("For a long absence send one message to your manager, your lead and HR together.",
     "For a long absence, send one message to your manager, your lead and HR together."),
    ("Within any calendar year staff receive 25 days of paid leave, then unpaid leave.",
     "Within any calendar year, staff receive 25 days of paid leave, then unpaid leave."),
    ("When a build fails the author fixes it before merging.", "When a build fails, the author fixes it before merging."),
    ("During an outage status-page updates are posted every 15 minutes.",
     "During an outage, status-page updates are posted every 15 minutes."),
])
def test_an_opening_without_its_comma_reads_as_with_it_when_a_fragment_follows_the_first_comma(normalizer_v2, without,
                                                                                             with_comma):
    """The first two ran on up to the sentence's first comma, so what followed it ("your lead and HR together", "then
    unpaid leave") was read as the rule; the last two were left whole by the old threshold."""
    assert reading(normalizer_v2)(without) == reading(normalizer_v2)(with_comma)


def test_a_misread_order_after_a_written_comma_keeps_its_opening(normalizer_v2):
    """An order the small model misreads ("track" a noun) is no fragment: it has its participles, so the opening the
    writer ended with a comma is not cut again somewhere inside."""
    text = "Since support time is billable, track hours spent on each ticket carefully."
    main, quals, body = normalizer_v2._prepare(text)
    assert normalizer_v2._clause_ran_on(quals, body, normalizer_v2.nlp(main)) is None


def _nli_folder(tmp_path):
    rows = [
        "In the morning, the bakery sells fresh bread.", "After the storm, the village lost power.",
        "During the match, the crowd sang loudly.", "If it rains, the picnic moves indoors.",
        "For most families, the trip was too expensive.", "When the bell rang, the children ran outside.",
        "Before the meeting, the manager read the report.", "In 2019, the company opened a new office.",
        "Since the bridge closed, traffic has doubled.", "On weekends, the museum stays open late.",
        "At noon, the workers took a long break.", "Although the road was icy, the bus arrived on time.",
    ]
    d = tmp_path / "nli"
    d.mkdir()
    (d / "tiny.train.jsonl").write_text("".join(json.dumps({"premise": r, "hypothesis": "Something happened.",
                                                            "label": "neutral"}) + "\n" for r in rows))
    return d


def test_fitting_on_a_tiny_folder_writes_a_model_and_card_that_load(tmp_path, normalizer_v2):
    from training.fit_opening_boundary import main
    out = tmp_path / "model"
    assert main(["--nli-dir", str(_nli_folder(tmp_path)), "--out", str(out), "--files", "tiny.train",
                 "--folds", "2"]) == 0
    model = OpeningBoundary.load(out / MODEL_FILE.name)
    assert model.n_sentences_ >= 10 and "tiny.train.jsonl" in model.fitted_on_
    assert model.cv_["folds"] == 2 and model.min_probability == model.cv_["chosen"]
    assert "tiny.train.jsonl" in (out / "README.md").read_text()
    # the file written is the model fitted: it ranks places as the one in memory would
    doc = normalizer_v2.nlp("In the evening the shop closes early.")
    assert model.ranked(doc) == OpeningBoundary.load(out / MODEL_FILE.name).ranked(doc)


def test_fitting_refuses_a_missing_file_and_an_evaluation_split(tmp_path, capsys):
    from training.fit_opening_boundary import main
    folder = _nli_folder(tmp_path)
    assert main(["--nli-dir", str(folder), "--out", str(tmp_path / "m"), "--files", "absent.train"]) == 2
    assert "absent.train.jsonl" in capsys.readouterr().err
    (folder / "mnli.dev_matched.jsonl").write_text((folder / "tiny.train.jsonl").read_text())
    with pytest.raises(ValueError, match="reserved for evaluation"):
        main(["--nli-dir", str(folder), "--out", str(tmp_path / "m"), "--files", "mnli.dev_matched"])


def test_fit_needs_sentences_with_an_end_among_their_places(normalizer_v2):
    doc = normalizer_v2.nlp("In the morning the bakery sells bread.")
    with pytest.raises(ValueError, match="fitting needs"):
        OpeningBoundary().fit([doc], [10_000])


@pytest.mark.parametrize("content, message", [
    ("{not json", "is damaged"),
    ("[1, 2]", "is not an opening-boundary model"),
    (json.dumps({"weights": {}, "intercept": 0.0, "features_version": 0}), "features version 0"),
])
def test_a_damaged_model_file_is_one_clear_error(tmp_path, content, message):
    path = tmp_path / "opening_boundary.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        OpeningBoundary.load(path)


def test_without_its_model_file_the_normalizer_reads_by_the_hand_rule_and_says_so(monkeypatch, caplog):
    from guard.normalize.rules_v2 import RuleNormalizerV2

    def missing(*_a, **_k):
        raise OSError("no such file: opening_boundary.json")
    monkeypatch.setattr(OpeningBoundary, "load", classmethod(lambda cls, *a, **k: missing()))
    with caplog.at_level(logging.WARNING):
        n = RuleNormalizerV2()
    assert n._opening_model is None and "opening-boundary model not loaded" in caplog.text
    # still reads what the hand rule reads, and the rest as written
    read = reading(n)
    assert read("In the local dev environment the login page is served over plain HTTP.")[0] == "login page"
    assert read("For P0 incidents status updates are posted at most once an hour.")[0] is not None
