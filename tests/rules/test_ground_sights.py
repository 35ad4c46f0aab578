"""The step rules' `ground_sights` hook (docs/rule-packs.md#step-rules): a rule that overrides it
adds `count name` entries to the ground's line of the text observation, after the objects; a world
without such a rule has no sight rules at all and its text is unchanged."""

from __future__ import annotations

from pathlib import Path

from harness import TINY, blank_game

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.observe.text import observation_text

PACK = """
from agentodyssey_pz.rules.base import BaseStepRule


class Glimmer(BaseStepRule):
    name = "glimmer_step"
    priority = 50
    description = "Shows two glimmers on every ground (test pack)."

    def ground_sights(self, world, area_id):
        return [(2, "glimmer")] if area_id == "area_gate" else []

    def apply(self, ctx, res):
        pass
"""


def ground_line(game: Game) -> str:
    text = observation_text(game, game.agents["agent_0"])
    return next(line for line in text.splitlines() if line.startswith("On the ground here"))


def test_a_world_without_sight_rules_is_unchanged() -> None:
    game = blank_game(agents=1)
    assert game.hooks.sights == []
    assert ground_line(game) == "On the ground here I see: nothing."


def test_a_sight_rule_adds_to_the_ground_line(tmp_path: Path) -> None:
    root = tmp_path / "glimmer"
    root.mkdir()
    (root / "steps.py").write_text(PACK, encoding="utf-8")
    game = Game(TINY, 1, GameConfig(rule_packs=(str(root),)))
    game.reset(0)
    assert [r.name for r in game.hooks.sights] == ["glimmer_step"]
    agent = game.agents["agent_0"]
    game.move_agent(agent, "area_gate")
    game.world.areas["area_gate"].objects.clear()
    assert ground_line(game) == "On the ground here I see: 2 glimmer."
    game.world.areas["area_gate"].objects["obj_coin"] = 3
    assert ground_line(game) == "On the ground here I see: 3 coin, 2 glimmer."
    game.move_agent(agent, next(a for a in game.world.areas if a != "area_gate"))
    assert "glimmer" not in ground_line(game)
