"""Who sees in the dark (`world.darkness.in_darkness`): an unlit area in a world with darkness, and
no light object in hand. A light anywhere else (inventory, worn, in a held container, on the
ground), or a light-giving thing the world does not name, does not light; without the switch
nobody is ever in the dark.
"""

from __future__ import annotations

import copy
import json
import logging
from pathlib import Path

import attrs
import pytest
from harness import TINY, agent, blank_game, give, move_to, put_on_ground

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import add_count
from agentodyssey_pz.world.darkness import has_darkness, in_darkness
from agentodyssey_pz.world.schema import definition_to_dict
from agentodyssey_pz.world.validate import load_definition, parse_definition

DARK_WORLD = Path(__file__).resolve().parents[1] / "data" / "worlds" / "gloomwell"


def dark_game(light_objects: list[str] | None = None) -> Game:
    """gloomwell, cleared, its one agent at the dark well; `light_objects` replaces the world's."""
    world: object = DARK_WORLD
    if light_objects is not None:
        definition = load_definition(DARK_WORLD / "world.json")
        features = definition.features
        darkness = attrs.evolve(features.darkness, light_objects=tuple(light_objects))
        world = attrs.evolve(definition, features=attrs.evolve(features, darkness=darkness))
    return blank_game(world, at="area_well", tutorial=False)


def test_an_unlit_area_is_dark_and_a_lit_one_is_not() -> None:
    game = dark_game()
    me = agent(game)
    assert has_darkness(game.world)
    assert in_darkness(game.world, me)
    for area_id in ("area_adit", "area_gallery"):
        move_to(game, "agent_0", area_id)
        assert in_darkness(game.world, me), area_id
    for area_id in ("area_square", "area_forge"):
        move_to(game, "agent_0", area_id)
        assert not in_darkness(game.world, me), area_id


def test_a_torch_in_hand_lights_the_way_and_nowhere_else() -> None:
    game = dark_game()
    world, me = game.world, agent(game)
    give(game, "agent_0", "obj_torch")
    assert not in_darkness(world, me)
    give(game, "agent_0", "obj_pear")  # the other hand full: the torch still burns
    assert not in_darkness(world, me)
    me.hands.clear()
    assert in_darkness(world, me)
    # On the ground, worn, in the inventory, in a held container: still dark.
    put_on_ground(game, "area_well", "obj_torch", 2)
    assert in_darkness(world, me)
    me.equipped["obj_torch"] = 1
    assert in_darkness(world, me)
    (crate,) = give(game, "agent_0", "obj_crate")
    add_count(world.containers[crate].items, "obj_torch", 1)
    assert in_darkness(world, me)
    me.hands.clear()
    me.equipped.clear()
    me.equipped[crate] = 1
    me.inventory_id = crate
    assert in_darkness(world, me)


def test_only_the_worlds_light_objects_light() -> None:
    """gloomwell names the torch only: its lantern gives no light. A world naming the lantern (and
    not the torch) turns that around."""
    game = dark_game()
    give(game, "agent_0", "obj_lantern")
    assert in_darkness(game.world, agent(game))
    game = dark_game(["obj_lantern"])
    give(game, "agent_0", "obj_lantern")
    assert not in_darkness(game.world, agent(game))
    agent(game).hands.clear()
    give(game, "agent_0", "obj_torch")
    assert in_darkness(game.world, agent(game))


def test_an_instance_in_hand_lights_by_its_definition() -> None:
    """Light objects are definition ids; a container instance (`obj_crate_0`) counts as its
    definition."""
    game = dark_game(["obj_crate"])
    (crate,) = give(game, "agent_0", "obj_crate")
    assert crate != "obj_crate"
    assert not in_darkness(game.world, agent(game))


def test_without_the_switch_nobody_is_in_the_dark() -> None:
    """The tiny world has an unlit area (`rows`) but no `features.darkness`."""
    game = blank_game(TINY, at="area_rows")
    assert not game.world.areas["area_rows"].light
    assert not has_darkness(game.world)
    assert not in_darkness(game.world, agent(game))


def test_a_changed_light_is_seen_at_once() -> None:
    """Nothing is remembered: a rule that lights an area (or puts it out) takes effect at the next
    question."""
    game = dark_game()
    me, well = agent(game), game.world.areas["area_well"]
    well.light = True
    assert not in_darkness(game.world, me)
    well.light = False
    assert in_darkness(game.world, me)


def test_the_switch_round_trips_as_written(caplog: pytest.LogCaptureFixture) -> None:
    """`features.darkness` saves as it was written (no stray keys), keeps an unknown key with a
    warning, and loads back equal."""
    raw = json.loads((DARK_WORLD / "world.json").read_text(encoding="utf-8"))
    definition = parse_definition(copy.deepcopy(raw))
    assert definition_to_dict(definition)["features"]["darkness"] == {
        "light_objects": ["obj_torch"]
    }
    assert parse_definition(definition_to_dict(definition)) == definition
    raw["features"]["darkness"]["lihgt_objects"] = ["obj_lantern"]
    with caplog.at_level(logging.WARNING):
        misspelt = parse_definition(raw)
    assert misspelt.features.darkness.light_objects == ("obj_torch",)
    assert "darkness.lihgt_objects: unknown field" in caplog.text
    assert definition_to_dict(misspelt)["features"]["darkness"]["lihgt_objects"] == ["obj_lantern"]
