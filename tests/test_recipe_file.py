"""Recipes that extend another: what is inherited, what is refused, and every shipped recipe reads."""
import json
from pathlib import Path

import pytest

from training.recipe_file import merge, read_recipe

RECIPES = Path(__file__).resolve().parents[1] / "training" / "recipes"


def write(d: Path, name: str, obj) -> Path:
    p = d / name
    p.write_text(json.dumps(obj))
    return p


def test_a_variant_changes_only_what_it_names(tmp_path):
    write(tmp_path, "base.json", {"name": "b", "output": "models/b", "seed": 42, "learning_rate": 5e-5,
                                  "general": {"epochs": 2, "files": ["a.jsonl", "b.jsonl"], "sample": {"a.jsonl": 10}},
                                  "notes": "the base's", "selection": "chosen so", "card_notes": ["x"], "card_intro": "y"})
    write(tmp_path, "mid.json", {"extends": "base.json", "name": "m", "output": "models/m", "seed": 43,
                                 "general": {"epochs": 3, "files": ["c.jsonl"]}})
    v = write(tmp_path, "v.json", {"extends": "mid.json", "name": "v", "output": "models/v", "learning_rate": 1e-4,
                                   "general": {"sample": {"c.jsonl": 5}}, "notes": "mine"})
    r = read_recipe(v)
    assert r["name"] == "v" and r["output"] == "models/v" and r["seed"] == 43 and r["learning_rate"] == 1e-4
    # objects merge key by key, lists replace
    assert r["general"] == {"epochs": 3, "files": ["c.jsonl"], "sample": {"a.jsonl": 10, "c.jsonl": 5}}
    # descriptions are a recipe's own
    assert r["notes"] == "mine" and "selection" not in r and "card_notes" not in r and "card_intro" not in r
    assert r["extends"] == ["v.json", "mid.json", "base.json"]
    assert "extends" not in read_recipe(tmp_path / "base.json")


@pytest.mark.parametrize("files, msg", [
    ({"v.json": {"extends": "nope.json", "name": "v", "output": "o"}}, "it extends"),
    ({"v.json": {"extends": "w.json", "name": "v", "output": "o"},
      "w.json": {"extends": "v.json", "name": "w", "output": "p"}}, "loops back"),
    ({"v.json": {"extends": "v.json", "name": "v", "output": "o"}}, "loops back"),
    ({"v.json": {"extends": "b.json", "name": "v"}, "b.json": {"name": "b", "output": "o"}}, "its own output"),
    ({"v.json": {"extends": 3, "name": "v", "output": "o"}}, "recipe file name"),
    ({"v.json": [1, 2]}, "not a JSON object"),
])
def test_bad_chains_are_refused_in_one_line(tmp_path, files, msg):
    for name, obj in files.items():
        write(tmp_path, name, obj)
    with pytest.raises(ValueError, match=msg) as e:
        read_recipe(tmp_path / "v.json")
    assert "\n" not in str(e.value)
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        read_recipe(tmp_path / "bad.json")


def test_merge_does_not_touch_its_inputs():
    a, b = {"g": {"x": 1}}, {"g": {"y": 2}}
    assert merge(a, b) == {"g": {"x": 1, "y": 2}} and a == {"g": {"x": 1}} and b == {"g": {"y": 2}}


def test_every_recipe_reads_and_no_variant_trains_into_another_recipes_folder():
    recipes = {p.name: read_recipe(p) for p in sorted(RECIPES.glob("*.json"))}
    assert any("extends" in r for r in recipes.values())
    outputs = [r["output"] for r in recipes.values()]
    assert len(outputs) == len(set(outputs))
    for name, r in recipes.items():
        assert r["output"].startswith("models/") and r["name"], name
        if "extends" in r:
            assert r["extends"][0] == name and r["output"] != recipes[r["extends"][1]]["output"], name
