"""Rule settings (`features.rule_settings`, rules/settings.py): defaults, a world's values, and
every mistake named."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.rules.base import BaseStepRule
from agentodyssey_pz.rules.settings import apply_rule_settings, fits


class Drizzle(BaseStepRule):
    name = "drizzle_step"
    priority = 4
    settings: ClassVar[dict[str, Any]] = {"chance": 0.1, "every": 6, "loud": False, "ids": []}

    def apply(self, ctx: Any, res: Any) -> None:  # pragma: no cover - never run
        pass


class Plain(BaseStepRule):
    name = "plain_step"
    priority = 1

    def apply(self, ctx: Any, res: Any) -> None:  # pragma: no cover - never run
        pass


def test_defaults_without_world_values() -> None:
    rule = Drizzle()
    apply_rule_settings([rule, Plain()], None)
    assert rule.settings == {"chance": 0.1, "every": 6, "loud": False, "ids": []}
    assert rule.settings is not Drizzle.settings  # an instance's own copy


def test_world_values_replace_defaults_per_instance() -> None:
    a, b = Drizzle(), Drizzle()
    apply_rule_settings([a], {"drizzle_step": {"chance": 1, "ids": ["x"]}})
    apply_rule_settings([b], {})
    assert a.settings == {"chance": 1, "every": 6, "loud": False, "ids": ["x"]}
    assert b.settings["chance"] == 0.1 and Drizzle.settings["chance"] == 0.1


@pytest.mark.parametrize(
    ("wanted", "message"),
    [
        ({"drizle_step": {}}, "no loaded rule is named 'drizle_step' (rules with settings: "),
        ({"drizzle_step": {"chanse": 0.2}}, "has no setting 'chanse' (its settings: chance"),
        ({"drizzle_step": {"every": 2.5}}, "drizzle_step.every: expected a whole number"),
        ({"drizzle_step": {"loud": 1}}, "drizzle_step.loud: expected true or false"),
        ({"drizzle_step": {"chance": True}}, "drizzle_step.chance: expected a number"),
        ({"drizzle_step": 3}, "drizzle_step: expected an object of settings"),
        ({"plain_step": {"x": 1}}, "rule 'plain_step' has no setting 'x' (its settings: none)"),
    ],
)
def test_mistakes_are_named(wanted: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=r"features\.rule_settings") as info:
        apply_rule_settings([Drizzle(), Plain()], wanted, "w.json")
    assert message in str(info.value) and "(w.json)" in str(info.value)


def test_fits_follows_json_types() -> None:
    assert fits(0.5, 1) and fits(0.5, 0.25) and not fits(1, 0.5)
    assert fits([], [1]) and fits([], ()) and not fits([], {})
    assert not fits(1, True) and not fits(True, 1) and fits(None, "anything")


def test_a_world_tunes_a_base_rule_through_the_game(tmp_path: Any) -> None:
    import json

    from agentodyssey_pz.engine.game import Game
    from agentodyssey_pz.resources import resolve_world_file

    raw = json.loads(resolve_world_file("default").read_text(encoding="utf-8"))
    raw.setdefault("features", {})["rule_settings"] = {"wait": {"nope": 1}}
    path = tmp_path / "w.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"rule settings \(.*w\.json\).*'wait' has no setting"):
        Game(str(path), 1)
