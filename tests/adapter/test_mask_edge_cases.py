"""States where the mask once disagreed with what the rules do (found by an adversarial search
over every catalogue index): areas removed and added in the same tick, names a world expansion
could take over, and names text agents could see but not type."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import load_raw

import agentodyssey_pz
from agentodyssey_pz.errors import WorldDefinitionError
from agentodyssey_pz.world.agents import add_count
from agentodyssey_pz.world.checks import MAX_NAME_LENGTH
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.expansion import check_expansion
from agentodyssey_pz.world.validate import parse_definition
from agentodyssey_pz.world.world import World


def label_index(env: Any, label: str) -> int:
    return [env.action_name("agent_0", i) for i in range(len(env.catalogue))].index(label)


# ---------------------------------------------------------------------------- area names
def test_an_area_added_as_another_is_removed_is_found_by_name() -> None:
    world = World.generate(parse_definition(load_raw("tiny_world.json")), 0)
    gone = next(a for a in world.areas if a != world.spawn_area)
    assert world.area_named(world.areas[gone].name) == gone  # the index is built here
    place = world.areas[gone].place_id
    del world.areas[gone]  # as the tutorial removes its rooms
    world.areas["area_new"] = Area(
        id="area_new", name="newland", level=1, light=True, place_id=place
    )
    assert world.area_named("newland") == "area_new"  # same count of areas as before
    assert world.area_named("nowhere") is None


def test_enter_a_new_area_is_unmasked_after_a_tick_that_removed_as_many_rooms() -> None:
    """Agent 0 finishes exploring (the world grows by two areas) in the tick agents 1 and 2
    leave their tutorial rooms (two rooms removed): the count of areas is unchanged."""
    env = agentodyssey_pz.parallel_env(
        world="thornvale", num_agents=3, tutorial=True, world_expansion=True, max_cycles=10**6
    )
    env.reset(seed=0)
    game, world = env.game, env.game.world
    wait = label_index(env, "wait")
    a0, a1, a2 = (game.agents[f"agent_{i}"] for i in range(3))
    game.move_agent(a0, world.spawn_area)
    env.step(dict.fromkeys(env.agents, wait))
    tutorial_place = world.auxiliary["tutorial_room"]["place_id"]
    spawn = world.spawn_area
    last = next(
        n for n in world.graph.neighbors(spawn) if world.areas[n].place_id != tutorial_place
    )
    a0.visited.update(
        {
            a: None
            for a, area in world.areas.items()
            if area.place_id != tutorial_place and a != last
        }
    )
    for agent in (a1, a2):
        add_count(agent.hands, game.quests.tutorial.roles["key"], 1)
    env.step(dict.fromkeys(env.agents, wait))
    before = len(world.areas)
    home = world.areas[spawn].name
    env.step({"agent_0": f"enter {world.areas[last].name}", "agent_1": f"enter {home}",
              "agent_2": f"enter {home}"})  # fmt: skip
    assert len(world.areas) == before and len(world.added_areas) == 2
    new = world.added_areas[0]
    game.move_agent(a0, next(iter(world.graph.neighbors(new))))
    observations, *_ = env.step(dict.fromkeys(env.agents, wait))
    index = label_index(env, f"enter {world.areas[new].name}")
    assert observations["agent_0"]["action_mask"][index] == 1
    _, _, _, _, infos = env.step({"agent_0": index, "agent_1": wait, "agent_2": wait})
    assert infos["agent_0"]["action_ok"] and game.agents["agent_0"].area_id == new


# ------------------------------------------------------------------- names an expansion takes
def spec_with_object(name: str, **fields: Any) -> dict[str, Any]:
    obj = {"type": "object", "id": f"obj_new_{name}", "name": name, "category": "material",
           "usage": "craft", "size": 1, "value": 1, **fields}  # fmt: skip
    place = {"type": "place", "id": "place_far", "name": "Far",
             "areas": [{"type": "area", "id": "area_far", "name": "farland"}]}  # fmt: skip
    return {"places": [place], "objects": [obj], "npcs": []}


def tiny_world_with(extra_object: dict[str, Any] | None = None) -> World:
    raw = load_raw("tiny_world.json")
    if extra_object is not None:
        raw["entities"]["objects"].append(extra_object)
    return World.generate(parse_definition(raw), 0)


def test_an_expansion_may_not_name_an_object_inventory() -> None:
    world = tiny_world_with()
    _, problems = check_expansion(world, spec_with_object("inventory"))
    assert [(p.path, p.message) for p in problems.items if p.severity == "error"] == [
        ("$.objects[0].name", "'inventory' names the equipped inventory; pick another name")
    ]


def test_an_expansion_kind_may_not_name_its_instances_like_an_existing_thing() -> None:
    existing = copy.deepcopy(load_raw("tiny_world.json")["entities"]["objects"][0])
    existing.update(id="obj_sack_two", name="sack_2")
    world = tiny_world_with(existing)
    spec = spec_with_object("sack", category="container", usage="store", capacity=10, level=1)
    _, problems = check_expansion(world, spec)
    errors = [(p.path, p.message) for p in problems.items if p.severity == "error"]
    clash = "object name 'sack' would name its instances like the existing 'sack_2'"
    assert ("$.objects[0].name", clash) in errors


# ------------------------------------------------------------------- names text agents type
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("pe\x01ar", "contains the unprintable character U+0001"),
        ("pe\u200bar", "contains the unprintable character U+200B"),
        ("p" * (MAX_NAME_LENGTH + 1), f"is {MAX_NAME_LENGTH + 1} characters long"),
    ],
)
def test_a_name_no_command_could_carry_is_refused(name: str, message: str, tmp_path: Path) -> None:
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"][0]["name"] = name
    path = tmp_path / "world.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(WorldDefinitionError, match=re.escape(message)):
        agentodyssey_pz.parallel_env(world=str(path))


def test_letters_beyond_ascii_are_fine_in_names() -> None:
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"][0]["name"] = "straße"
    assert parse_definition(raw).entities.objects[0].name == "straße"
