import datetime as dt

import pytest

from guard.claims import MAX_TEXT_CHARS, Claim, ClaimError, Modality, Norm, Scope, Window


def test_scope_overlap_rules():
    assert Scope().overlaps(Scope(env="prod"))
    assert Scope(env="prod", team="a").overlaps(Scope(env="prod"))
    assert not Scope(env="prod").overlaps(Scope(env="dev"))
    assert not Scope(team="a", tenant="x").overlaps(Scope(team="a", tenant="y"))


def test_window_overlap_is_inclusive():
    a = Window.parse("2024-01-01", "2024-06-30")
    assert a.overlaps(Window.parse("2024-06-30", None))
    assert not a.overlaps(Window.parse("2024-07-01", None))
    assert Window().overlaps(a)


@pytest.mark.parametrize("bad, msg", [
    ({"text": ""}, "empty"), ({"text": "   \n"}, "empty"),
    ({"text": "x" * (MAX_TEXT_CHARS + 1)}, "limit"),
    ({"text": "a", "valid_from": "2024-13-01"}, "not a valid ISO date"),
    ({"text": "a", "valid_from": "2025-01-02", "valid_until": "2025-01-01"}, "after valid_until"),
    ({"text": "a", "scope": {"region": "eu"}}, "unknown scope key"),
    ({"text": "a", "colour": 1}, "unknown claim field"),
    ({"text": "a", "status": "deleted"}, "unknown status"),
    ({"text": "caf\udce9"}, "UTF-8"),
])
def test_bad_claims_are_refused_with_a_named_reason(bad, msg):
    with pytest.raises(ClaimError, match=msg):
        Claim.from_dict(bad)


def test_claim_and_norm_json_round_trip(normalizer):
    c = Claim.from_dict({"text": "The API listens on port 8443.", "scope": {"env": "Prod"},
                         "valid_from": "2024-01-01", "source": "wiki"})
    again = Claim.from_dict(c.to_dict())
    assert again == c and again.scope.env == "prod" and again.valid_from == dt.date(2024, 1, 1)
    n = normalizer.normalize(c.text, c.scope, c.window)
    assert Norm.from_dict(n.to_dict()) == n


def test_a_norms_variants_survive_the_round_trip_and_old_norms_read_without_them(normalizer_v2):
    n = normalizer_v2.normalize("Users on the Free or Pro plan get 5 seats.", Scope(), Window())
    assert set(n.variants) == {("plan", "free"), ("plan", "pro")}
    assert Norm.from_dict(n.to_dict()) == n
    old = n.to_dict()
    del old["variants"]                       # a norm a store kept before session 37
    assert Norm.from_dict(old).variants == ()


def test_modality_flip():
    assert Modality.MUST.flip() is Modality.MUST_NOT
    assert Modality.SHOULD_NOT.flip() is Modality.SHOULD
