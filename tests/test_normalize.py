import pytest

from guard.claims import Modality, Norm, Scope, StateVerb, SubjectKind, Window
from guard.normalize import SafeNormalizer, get_normalizer, registered


def norm(normalizer, text):
    return normalizer.normalize(text, Scope(), Window())


@pytest.mark.parametrize("text, modality", [
    ("Privileged containers are not allowed.", Modality.MUST_NOT),
    ("Privileged containers are permitted.", Modality.MAY),
    ("Never log passwords.", Modality.MUST_NOT),
    ("Do not store secrets in the repository.", Modality.MUST_NOT),
    ("MFA is required for VPN access.", Modality.MUST),
    ("MFA is optional for VPN access.", Modality.MAY_NOT),
    ("Maintainers may not force-push to main.", Modality.MUST_NOT),
    ("You should prefer small pull requests.", Modality.SHOULD),
    ("X rejects null keys.", Modality.MUST_NOT),
    ("Telemetry is disabled in production.", Modality.MUST_NOT),
    ("The API listens on port 8443.", Modality.MUST),
    ("Deployments are no longer allowed on Fridays.", Modality.MUST_NOT),
])
def test_modality_and_polarity(normalizer, text, modality):
    assert norm(normalizer, text).modality is modality


def test_subject_object_value(normalizer):
    n = norm(normalizer, "The API gateway listens on port 8443.")
    assert (n.subject, n.object, n.value, n.value_kind) == ("api gateway", StateVerb.LISTEN, "8443", "port")
    n = norm(normalizer, "Deploys must use a blue canary.")
    assert n.value == "blue" and n.value_kind == "colour" and "blue" not in (n.subject or "")
    n = norm(normalizer, "`max_connections` is set to 32.")
    assert n.subject == "`max_connections`" or "max_connections" in n.subject
    assert n.value == "32"


def test_bounds_are_read_with_their_comparator(normalizer):
    lo = norm(normalizer, "Passwords must be at least 12 characters long.").bound
    hi = norm(normalizer, "Commit subject lines of up to 100 characters are acceptable.").bound
    assert (lo.op, lo.number, lo.unit) == ("ge", 12, "characters")
    assert (hi.op, hi.number) == ("le", 100)
    assert norm(normalizer, "Tokens expire after 2 hours.").bound.number == 7200


def test_subject_kinds(normalizer):
    assert norm(normalizer, "It should be fast.").subject_kind is SubjectKind.FUZZY
    assert norm(normalizer, "Be careful.").subject_kind is SubjectKind.MISSING
    assert norm(normalizer, "Backups run every 6 hours.").subject_kind is SubjectKind.PRESENT


def test_registry_is_versioned():
    assert "normalizer.rules.v1" in registered()
    with pytest.raises(KeyError, match="unknown normalizer"):
        get_normalizer("normalizer.nope.v9")


class Exploding:
    name = "exploding"

    def normalize(self, text, scope, window):
        raise RuntimeError("boom")


def test_safe_normalizer_fails_open():
    n = SafeNormalizer(Exploding()).normalize("anything", Scope(env="prod"), Window())
    assert isinstance(n, Norm) and n.is_unknown and "boom" in n.error and n.scope.env == "prod"


@pytest.mark.parametrize("name", ["normalizer.rules.v1", "normalizer.rules.v2"])
@pytest.mark.parametrize("text", ["I'm sure they did", "yeah what do you do", "The old runner never did."])
def test_a_statement_ending_in_do_is_read_not_failed(name, text):
    """"do"/"did" as the last word once raised (its next token was read past the end), so the
    statement got an unknown norm and went ungated."""
    n = get_normalizer(name).normalize(text, Scope(), Window())
    assert n.error is None and not n.is_unknown


def test_the_tokens_of_a_value_are_found_by_offsets_as_by_a_walk(normalizer_v2):
    """``_tokens_within`` and ``_tokens_touching`` find tokens by their offsets (one C call) instead
    of walking the Doc; both must give what the walk gave, for every span, on merged and unmerged Docs."""
    import random

    from guard.normalize.rules import (
        _merge_hyphenated,
        _tokens_touching,
        _tokens_within,
    )
    from guard.normalize.values import Value
    rng = random.Random(7)
    texts = ["The billing-api-2 service listens on port 8443 at most 3 times a day.",
             "Don't retain logs for more than 30 days in us-east-1.", "x", "",
             "Only on-call engineers may restart auth-cron-1 between 02:00 and 04:00 UTC."]
    for text in texts:
        for doc in (normalizer_v2.nlp(text), _merge_hyphenated(normalizer_v2.nlp(text))):
            for _ in range(40):
                spans = sorted((a, a + rng.randint(0, 12)) for a in (rng.randint(0, max(1, len(text))) for _ in range(rng.randint(0, 3))))
                values = [Value("number", text[s:e], s, e, None) for s, e in spans]
                assert _tokens_within(doc, values) == {t.i for t in doc if any(v.start <= t.idx < v.end for v in values)}
                assert _tokens_touching(doc, spans) == {t.i for t in doc if any(s <= t.idx < e or s < t.idx + len(t) <= e
                                                                              for s, e in spans)}
