"""Every bundled world loads cleanly, synthesises, and carries the content the rules rely on.

Parametrised over `worlds_helper.bundled_worlds()`, so a new world is covered without edits.
Checks that look at the worlds *together* (category/usage coverage, unique enemies, a predefined
graph) say so in their names.
"""

from __future__ import annotations

import json
from typing import Any

import networkx as nx
import pytest
from worlds_helper import bundled_worlds

from agentodyssey_pz.resources import resolve_world_file
from agentodyssey_pz.world.schema import ObjectDef, WorldDefinition
from agentodyssey_pz.world.summary import crafting_depths
from agentodyssey_pz.world.validate import check_definition
from agentodyssey_pz.world.world import World

WORLDS = bundled_worlds()
_LOADED: dict[str, WorldDefinition] = {}


def raw_world(name: str) -> dict[str, Any]:
    return json.loads(resolve_world_file(name).read_text(encoding="utf-8"))


def load(name: str) -> WorldDefinition:
    if name not in _LOADED:
        definition, problems = check_definition(raw_world(name))
        assert definition is not None, [str(p) for p in problems]
        _LOADED[name] = definition
    return _LOADED[name]


def objects(name: str) -> dict[str, ObjectDef]:
    return {o.id: o for o in load(name).entities.objects}


def test_at_least_three_bundled_worlds() -> None:
    assert len(WORLDS) >= 3


@pytest.mark.parametrize("name", WORLDS)
def test_world_loads_with_no_error_and_no_warning(name: str) -> None:
    definition, problems = check_definition(raw_world(name))
    assert [str(p) for p in problems] == []
    assert definition is not None


@pytest.mark.parametrize("name", WORLDS)
def test_world_synthesises_for_fifty_seeds(name: str) -> None:
    definition = load(name)
    area_ids = {a.id for _, a in definition.iter_areas()}
    undistributable = set(definition.initializations.undistributable_objects)
    spawn_listed = set(definition.initializations.spawn.objects)
    for seed in range(50):
        world = World.generate(definition, seed)
        assert set(world.areas) == area_ids
        assert nx.is_connected(world.graph.nx)
        assert world.npcs, seed
        on_ground = {world.def_of(oid).id for a in world.areas.values() for oid in a.objects}
        assert not (on_ground & undistributable) - spawn_listed, seed
        json.dumps(world.to_dict())  # plain JSON data


@pytest.mark.parametrize("name", WORLDS)
def test_crafting_is_at_least_four_levels_deep(name: str) -> None:
    assert max(crafting_depths(load(name)).values()) >= 4


REQUIRED_PAIRS = {
    ("material", "craft"),
    ("weapon", "attack"),
    ("armor", "defend"),
    ("tool", "unlock"),
    ("tool", "lockpick"),
    ("tool", "write"),
    ("tool", "writable"),
    ("currency", "exchange"),
    ("container", "store"),
    ("station", "craft"),
}


def test_worlds_together_cover_every_category_usage_pair() -> None:
    seen = {(o.category, o.usage) for name in WORLDS for o in load(name).entities.objects}
    assert REQUIRED_PAIRS - seen == set()


@pytest.mark.parametrize("name", WORLDS)
def test_world_has_locks_merchants_enemies_and_undistributables(name: str) -> None:
    definition = load(name)
    assert any(not p.unlocked for p in definition.entities.places)
    assert any(n.role == "merchant" and not n.enemy for n in definition.entities.npcs)
    assert any(n.enemy and not n.unique for n in definition.entities.npcs)
    undistributable = definition.initializations.undistributable_objects
    assert undistributable
    # Undistributable objects are enemy drops: every one of them is loot of some NPC.
    loot = {oid for n in definition.entities.npcs for oid in n.objects}
    assert set(undistributable) <= loot


def test_worlds_together_have_a_unique_enemy_and_a_predefined_graph() -> None:
    assert any(n.enemy and n.unique for name in WORLDS for n in load(name).entities.npcs)
    assert any(load(name).graph is not None and load(name).graph.connections for name in WORLDS)


def _raw_material(obj: ObjectDef) -> bool:
    return obj.category == "material" and not obj.craft.ingredients


@pytest.mark.parametrize("name", WORLDS)
def test_tutorial_roles_exist(name: str) -> None:
    objs = objects(name)
    assert any(o.is_container and o.level == 1 for o in objs.values()), "level-1 container (bag)"
    assert any(
        o.is_writable and o.craft.ingredients and not o.craft.dependencies for o in objs.values()
    ), "writable crafted without a station (paper)"
    assert objs["obj_coin"].category == "currency"
    assert any(o.category == "tool" and o.usage == "write" for o in objs.values()), "pen"
    assert any(_raw_material(o) and o.value == 2 and o.level == 1 for o in objs.values()), (
        "value-2 level-1 raw material (wood log)"
    )

    # obj_key <- blank (a material) <- 0.5 of a bar (a processed material) at a station.
    key = objs["obj_key"]
    assert key.usage == "unlock"

    def is_station(oid: str) -> bool:
        return oid in objs and objs[oid].is_station

    def is_blank(oid: str) -> bool:
        blank = objs.get(oid)
        if blank is None or blank.category != "material" or not blank.craft.dependencies:
            return False
        if not all(is_station(dep) for dep in blank.craft.dependencies):
            return False
        return any(
            qty == 0.5 and objs[bar].category == "material" and objs[bar].craft.ingredients
            for bar, qty in blank.craft.ingredients.items()
        )

    assert any(is_blank(oid) for oid in key.craft.ingredients), key.craft
