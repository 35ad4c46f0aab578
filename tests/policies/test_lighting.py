"""The planner's light in the dark (`agentodyssey_pz.policies.lighting`): on AgentOdyssey's
quarantine (user's copy), whose darkness the outbreak pack keeps per agent (ambushes x4 in the
dark), the planner takes the light it carries into its hand, next to its weapon, before it walks
into an unlit area, and carries a light lying where it stands; in a world whose darkness only hides
things (mark) it knows no light and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from harness import blank_game, give, put_on_ground
from outbreak_helper import LOBBY, MORGUE, WARD, ward

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.quester import QuestPlanner

AID = "agent_0"


@pytest.fixture(autouse=True)
def _copy(published):
    return published


def drive(game: Game, planner: Any, plan: Any, limit: int = 12) -> list[str]:
    """Run a plan of the planner through `Game.tick` (the other agents wait); its commands."""
    issued = []
    for command in plan:
        issued.append(command)
        result = game.tick(dict.fromkeys(game.agent_ids, "wait") | {AID: command})
        planner.observe(result)
        if len(issued) >= limit:
            break
    return issued


def dark_ward(with_weapon: bool = True) -> tuple[Game, Planner]:
    """quarantine cleared, me in the lit ward with a bag holding a lantern (and a nail bat in
    hand); the morgue next door unlit."""
    game = ward()
    world = game.world
    world.areas[WARD].light, world.areas[MORGUE].light = True, False
    bag = give(game, AID, "obj_small_bag")[0]
    game.tick({AID: f"equip {world.name_of(bag)}"})
    give(game, AID, "obj_lantern")
    game.tick({AID: "store 1 lantern inventory"})
    if with_weapon:
        give(game, AID, "obj_nail_bat")
    return game, Planner(game, AID)


def test_the_lights_are_the_objects_the_fuel_rule_burns() -> None:
    game, planner = dark_ward()
    lights = planner.light_sources()
    assert {"obj_lantern", "obj_flashlight"} <= set(lights)
    assert all(game.world.objects[d].extras.get("light_source") is True for d in lights)
    assert planner.light_carried() == "obj_lantern"


def test_into_the_dark_the_light_comes_into_hand_beside_the_weapon() -> None:
    game, planner = dark_ward()
    issued = drive(game, planner, planner.goto(MORGUE))
    assert issued == ["take out lantern inventory", "enter morgue"]
    hands = {game.world.def_of(o).id for o in game.agents[AID].hands}
    assert hands == {"obj_lantern", "obj_nail_bat"}
    assert game.world.auxiliary["in_darkness"][AID] is False  # the lantern burns


def test_into_a_lit_area_nothing_is_taken_out() -> None:
    game, planner = dark_ward()
    issued = drive(game, planner, planner.goto(LOBBY))
    assert issued == ["enter lobby"]
    assert "obj_lantern" not in {game.world.def_of(o).id for o in game.agents[AID].hands}


def test_the_quester_takes_a_light_lying_where_it_stands() -> None:
    game = ward()
    bag = give(game, AID, "obj_small_bag")[0]
    game.tick({AID: f"equip {game.world.name_of(bag)}"})
    put_on_ground(game, WARD, "obj_lantern")
    planner = QuestPlanner(game, AID)
    issued = drive(game, planner, planner.carry_light())
    assert issued and planner.light_carried() == "obj_lantern"
    # Carrying one, it takes no other.
    put_on_ground(game, WARD, "obj_flashlight")
    assert drive(game, planner, planner.carry_light()) == []


def test_where_the_dark_only_hides_things_no_light_is_known() -> None:
    game = blank_game("agentodyssey:mark", seed=0, tutorial=False)
    planner = Planner(game, AID)
    assert game.world.definition.features.darkness is not None
    assert planner.light_sources() == []
    dark = next(a.id for a in game.world.areas.values() if not a.light)
    assert drive(game, planner, planner.light_up(dark)) == []
