"""World state serialisation (lossless JSON round trip, malformed data) and world expansion.

docs/mechanics/world-synthesis.md#world-expansion and
docs/mechanics/world-synthesis.md#saving-a-world. The expansion is checked
against our behaviour (docs/mechanics/world-synthesis.md#quirk-expansion-fixes): validated like a
world file, atomic, deterministic bridging to the area furthest from spawn (ties by area order), new
unique NPCs placed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from conftest import load_raw
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.errors import WorldDefinitionError, WorldStateError
from agentodyssey_pz.world import expansion
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.validate import parse_definition
from agentodyssey_pz.world.world import World

WORLDS = ["tiny", *bundled_worlds()]


def definition(name: str) -> WorldDefinition:
    return (
        parse_definition(load_raw("tiny_world.json"))
        if name == "tiny"
        else bundled_definition(name)
    )


def round_trip(world: World) -> World:
    """to_dict -> JSON -> from_dict; asserts the second to_dict is identical (key order too)."""
    text = json.dumps(world.to_dict())
    rebuilt = World.from_dict(json.loads(text))
    assert json.dumps(rebuilt.to_dict()) == text
    # Derived tables are rebuilt exactly as well.
    assert rebuilt.obj_name_to_id == world.obj_name_to_id
    assert rebuilt.npc_name_to_id == world.npc_name_to_id
    assert rebuilt.products_of == world.products_of
    for area_id in world.areas:
        assert list(rebuilt.graph.neighbors(area_id).items()) == list(
            world.graph.neighbors(area_id).items()
        )
    return rebuilt


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("name", WORLDS)
def test_fresh_world_round_trips(name: str) -> None:
    for seed in (0, 31):
        round_trip(World.generate(definition(name), seed))


def _first_locked_path(world: World) -> tuple[str, str]:
    return next((a, b) for a, b, d in world.graph.nx.edges(data=True) if d["locked"])


def create_instances(world: World) -> Callable[[World], None]:
    container = next(o.id for o in world.objects.values() if o.is_container)
    writable = next(o.id for o in world.objects.values() if o.is_writable)
    material = next(o.id for o in world.objects.values() if o.category == "material")
    ((cid, _),) = world.spawn_on_ground(world.spawn_area, container, 1)
    placed = world.spawn_on_ground(world.spawn_area, writable, 2)
    world.containers[cid].items[material] = 3
    world.containers[cid].items[placed[1][0]] = 1
    world.areas[world.spawn_area].remove_objects(placed[1][0], 1)
    world.writables[placed[0][0]].text = "the weir floods at dusk"

    def check(rebuilt: World) -> None:
        assert rebuilt.containers[cid].items == {material: 3, placed[1][0]: 1}
        assert rebuilt.writables[placed[0][0]].text == "the weir floods at dusk"
        assert rebuilt.def_of(cid).id == container
        # Counters survive: the next instance gets a fresh index.
        assert rebuilt.new_instance(container) not in world.containers

    return check


def rename_npc(world: World) -> Callable[[World], None]:
    npc = next(iter(world.npcs.values()))
    old = npc.name
    world.rename_npc(npc.id, "zz_renamed_one")

    def check(rebuilt: World) -> None:
        assert rebuilt.npc_name_to_id["zz_renamed_one"] == npc.id
        assert old not in rebuilt.npc_name_to_id
        assert rebuilt.npcs[npc.id].name == "zz_renamed_one"

    return check


def remove_npcs(world: World) -> Callable[[World], None]:
    killed, deleted = list(world.npcs)[:2]
    world.npcs[killed].hp = 0
    world.remove_npc_from_map(killed)
    world.delete_npc(deleted)

    def check(rebuilt: World) -> None:
        assert deleted not in rebuilt.npcs
        assert rebuilt.npcs[killed].area_id is None and rebuilt.npcs[killed].hp == 0
        assert all(killed not in a.npcs and deleted not in a.npcs for a in rebuilt.areas.values())

    return check


def unlock_path(world: World) -> Callable[[World], None]:
    a, b = _first_locked_path(world)
    world.graph.set_locked(a, b, False)

    def check(rebuilt: World) -> None:
        assert not rebuilt.graph.is_locked(a, b) and not rebuilt.graph.is_locked(b, a)

    return check


def delete_instance(world: World) -> Callable[[World], None]:
    inst = next(oid for oid in world.areas[world.spawn_area].objects if world.is_instance(oid))
    world.areas[world.spawn_area].remove_objects(inst, 1)
    world.delete_instance(inst)
    def_id = inst.rsplit("_", 1)[0]

    def check(rebuilt: World) -> None:
        assert not rebuilt.is_instance(inst)
        assert rebuilt.new_instance(def_id) != inst  # indices are never reused

    return check


def store_auxiliary(world: World) -> Callable[[World], None]:
    world.auxiliary["side_quest"] = {"stage": 2, "targets": ["a", "b"], "done": None}

    def check(rebuilt: World) -> None:
        assert rebuilt.auxiliary == {
            "side_quest": {"stage": 2, "targets": ["a", "b"], "done": None}
        }

    return check


MUTATIONS = [
    create_instances,
    rename_npc,
    remove_npcs,
    unlock_path,
    delete_instance,
    store_auxiliary,
]


@pytest.mark.parametrize("name", WORLDS)
@pytest.mark.parametrize("mutate", MUTATIONS, ids=lambda m: m.__name__)
def test_mutated_world_round_trips(
    name: str, mutate: Callable[[World], Callable[[World], None]]
) -> None:
    world = World.generate(definition(name), 5)
    before = json.dumps(world.to_dict())
    check = mutate(world)
    assert json.dumps(world.to_dict()) != before  # the mutation is visible in the saved data
    check(round_trip(world))


def test_expanded_world_round_trips() -> None:
    world = World.generate(definition("tiny"), 5)
    expansion.expand(world, expansion_spec(), 3)
    rebuilt = round_trip(world)
    assert "obj_xp_reed" in rebuilt.objects and "npc_xp_leech" in rebuilt.npc_protos


# ------------------------------------------------------------------ malformed saved data
def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _drop(path: tuple[Any, ...]) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


DANGLING = "package bug: world_from_data does not check references, the world loads and a later "
MALFORMED_STATE = [
    pytest.param(_drop(("areas",)), id="no-areas"),
    pytest.param(_drop(("format",)), id="no-format"),
    pytest.param(_set(("format",), 99), id="future-format"),
    pytest.param(_drop(("areas", 0, "name")), id="area-without-name"),
    pytest.param(_set(("areas", 0, "level"), "high"), id="area-level-not-int"),
    pytest.param(_drop(("npcs", 0, "hp")), id="npc-without-hp"),
    pytest.param(_set(("graph", "paths", 0), ["area_gate", "area_rows"]), id="short-path-record"),
    pytest.param(
        _set(("containers", 0, "def_id"), "obj_moon"), id="instance-of-unknown-definition"
    ),
    pytest.param(_drop(("definition", "entities")), id="definition-without-entities"),
    pytest.param(
        _set(("definition", "entities", "objects", 0, "size"), "big"), id="definition-bad-type"
    ),
    pytest.param(_set(("places", 0, "area_ids"), 5), id="place-areas-not-list"),
    pytest.param(
        _set(("graph", "paths", 0), ["area_gate", "area_moon", False, None]),
        id="path-to-unknown-area",
    ),
    pytest.param(
        _set(("areas", 1, "objects", "obj_moon"), 2),
        id="ground-holds-unknown-object",
    ),
    pytest.param(
        _set(("npcs", 0, "area_id"), "area_moon"),
        id="npc-in-unknown-area",
    ),
    pytest.param(
        _set(("areas",), {}),
        id="areas-as-object",
    ),
]


@pytest.mark.parametrize("mutate", MALFORMED_STATE)
def test_malformed_saved_world_raises_world_state_error(mutate: Callable[[dict], None]) -> None:
    data = json.loads(json.dumps(World.generate(definition("tiny"), 3).to_dict()))
    assert data["containers"] and data["npcs"]  # the cases below need both
    mutate(data)
    with pytest.raises(WorldStateError) as info:
        World.from_dict(data)
    assert not isinstance(info.value, KeyError)
    assert info.value.problems


@pytest.mark.parametrize("data", [None, [1, 2], "world"], ids=["null", "list", "string"])
def test_saved_world_that_is_not_an_object_raises_world_state_error(data: Any) -> None:
    with pytest.raises(WorldStateError):
        World.from_dict(data)


def test_dangling_references_are_refused_with_their_path() -> None:
    """A saved ground naming an unknown object is refused at load, naming where it is."""
    data = json.loads(json.dumps(World.generate(definition("tiny"), 3).to_dict()))
    data["areas"][1]["objects"]["obj_moon"] = 2
    with pytest.raises(WorldStateError) as info:
        World.from_dict(data)
    assert any("obj_moon" in p.path for p in info.value.problems)


# ------------------------------------------------------------------ expansion
def expansion_spec() -> dict[str, Any]:
    """Two new places (the second locked, one area listing existing_objects), a raw material,
    a crafted material, a station, a unique merchant and a non-unique enemy. Ids and names carry
    an `xp` marker so they collide with no bundled world."""

    def obj(
        oid: str, category: str, level: int, areas: list[str], ingredients: dict[str, float]
    ) -> dict:
        return {
            "type": "object",
            "id": oid,
            "name": oid.removeprefix("obj_"),
            "category": category,
            "usage": "craft",
            "value": None if category == "station" else 2,
            "size": None if category == "station" else 1,
            "level": level,
            "areas": areas,
            "craft": {"ingredients": ingredients, "dependencies": []},
        }

    return {
        "places": [
            {
                "type": "place",
                "id": "place_xp_bog",
                "name": "Reed Bog",
                "unlocked": True,
                "areas": [
                    {"type": "area", "id": "area_xp_reeds", "name": "xp_reeds", "level": 3},
                    {
                        "type": "area",
                        "id": "area_xp_pool",
                        "name": "xp_pool",
                        "level": 4,
                        "light": False,
                    },
                ],
            },
            {
                "type": "place",
                "id": "place_xp_tower",
                "name": "Old Tower",
                "unlocked": False,
                "areas": [
                    {
                        "type": "area",
                        "id": "area_xp_stair",
                        "name": "xp_stair",
                        "level": 4,
                        "existing_objects": ["obj_xp_mat"],
                    }
                ],
            },
        ],
        "objects": [
            obj("obj_xp_reed", "material", 3, ["area_xp_reeds"], {}),
            obj("obj_xp_mat", "material", 4, ["area_xp_pool"], {"obj_xp_reed": 3}),
            obj("obj_xp_loom", "station", 3, [], {"obj_xp_reed": 4}),
        ],
        "npcs": [
            {
                "type": "npc",
                "id": "npc_xp_hermit",
                "name": "xp_hermit",
                "enemy": False,
                "unique": True,
                "role": "merchant",
                "objects": ["obj_xp_mat"],
            },
            {
                "type": "npc",
                "id": "npc_xp_leech",
                "name": "xp_leech",
                "enemy": True,
                "unique": False,
                "role": "beast",
                "objects": ["obj_xp_reed"],
                "base_hp": 20,
                "slope_hp": 5,
                "base_attack_power": 4,
                "slope_attack_power": 2,
            },
        ],
    }


NEW_PLACES = {
    "place_xp_bog": ["area_xp_reeds", "area_xp_pool"],
    "place_xp_tower": ["area_xp_stair"],
}
NEW_AREAS = [a for areas in NEW_PLACES.values() for a in areas]


def _furthest(world: World, candidates: list[str]) -> str:
    """Greatest hop distance from spawn (locks ignored); ties go to the earliest candidate."""
    dist = world.graph.hop_distances(world.spawn_area)
    best = max(dist[c] for c in candidates)
    return next(c for c in candidates if dist[c] == best)


def _bridges(
    world: World, place_id: str, towards: list[str]
) -> list[tuple[str, str, dict[str, Any]]]:
    """Paths from the place's areas to any of `towards`."""
    return [
        (a, b, data)
        for a in world.places[place_id].area_ids
        for b, data in world.graph.neighbors(a).items()
        if b in towards
    ]


@pytest.mark.parametrize("name", WORLDS)
def test_expansion_adds_and_connects_everything(name: str) -> None:
    world = World.generate(definition(name), 8)
    old_areas = list(world.areas)
    old_far = _furthest(world, old_areas)
    old_npcs = set(world.npcs)
    result = expansion.expand(world, expansion_spec(), 21)

    assert result.place_names == ["Reed Bog", "Old Tower"]
    assert result.area_names == ["xp_reeds", "xp_pool", "xp_stair"]
    assert result.warnings == []
    for place_id, area_ids in NEW_PLACES.items():
        assert world.places[place_id].area_ids == area_ids
    assert list(world.areas) == [*old_areas, *NEW_AREAS]
    assert [world.areas[a].level for a in NEW_AREAS] == [3, 4, 4]
    assert world.areas["area_xp_pool"].light is False
    assert {"obj_xp_reed", "obj_xp_mat", "obj_xp_loom"} <= set(world.objects)
    assert world.obj_name_to_id["xp_loom"] == "obj_xp_loom"
    assert world.products_of["obj_xp_reed"] == ["obj_xp_mat", "obj_xp_loom"]
    assert {"npc_xp_hermit", "npc_xp_leech"} <= set(world.npc_protos)

    # Each new place hangs off one path: the bog off the area furthest from spawn, the tower off
    # the furthest area once the bog is attached (the bog is a candidate by then).
    ((_, end, path),) = _bridges(world, "place_xp_bog", old_areas)
    assert end == old_far
    assert (path["locked"], path["key"]) == (False, None)
    before_tower = [*old_areas, *NEW_PLACES["place_xp_bog"]]
    ((_, end, path),) = _bridges(world, "place_xp_tower", before_tower)
    assert end == _furthest(world, before_tower)
    assert end in NEW_PLACES["place_xp_bog"]  # the bog's areas lie beyond the old furthest area
    # Fixed quirk (docs/mechanics/world-synthesis.md#quirk-expansion-fixes): the tower is a locked
    # place (`unlocked: false`), so its bridge is locked, with the first key in definition order (no
    # draw); the reference left it open.
    first_key = next(o.id for o in world.objects.values() if o.usage == "unlock")
    assert (path["locked"], path["key"]) == (True, first_key)
    # Inside a new place the chain is open too.
    assert not world.graph.is_locked("area_xp_reeds", "area_xp_pool")

    distances = world.graph.hop_distances(world.spawn_area)
    assert set(distances) == set(world.areas)
    for area_id in NEW_AREAS:
        assert sum(world.areas[area_id].objects.values()) >= 3, area_id
    # Native materials are there (randint(1, 2) each), existing_objects added.
    assert world.areas["area_xp_reeds"].objects.get("obj_xp_reed", 0) >= 1
    assert world.areas["area_xp_pool"].objects.get("obj_xp_mat", 0) >= 1
    assert world.areas["area_xp_stair"].objects.get("obj_xp_mat", 0) >= 1

    hermit = world.npcs["npc_xp_hermit"]
    assert hermit.area_id in NEW_AREAS and "npc_xp_hermit" in world.areas[hermit.area_id].npcs
    assert world.npc_name_to_id["xp_hermit"] == "npc_xp_hermit"
    added = set(world.npcs) - old_npcs
    assert all(world.npcs[n].area_id in NEW_AREAS for n in added)


def test_a_locked_place_without_any_key_in_the_world_is_bridged_open_with_a_warning() -> None:
    """Never a lock without a key
    (docs/mechanics/world-synthesis.md#quirk-no-lock-without-a-key)."""
    world = World.generate(definition("tiny"), 8)
    for oid, obj in list(world.objects.items()):
        if obj.usage == "unlock":
            world.objects[oid] = attrs.evolve(obj, usage="tool")
    result = expansion.expand(world, expansion_spec(), 21)
    ((_, _, path),) = _bridges(world, "place_xp_tower", [*world.areas][:-1])
    assert (path["locked"], path["key"]) == (False, None)
    assert [(w.path, w.message) for w in result.warnings] == [
        (
            "$.places[1].unlocked",
            "no object has usage 'unlock', so the locked place is bridged by an open path",
        )
    ]


def test_the_place_keys_unlocked_and_type_are_optional_in_an_expansion() -> None:
    """`unlocked` defaults to true, `type` to "place" (and "area")."""
    spec = expansion_spec()
    for place in spec["places"]:
        del place["unlocked"], place["type"]
        for area in place["areas"]:
            area.pop("type", None)
    world = World.generate(definition("tiny"), 8)
    expansion.expand(world, spec, 21)
    tower = world.places["place_xp_tower"]
    assert tower.unlocked and tower.type == "place"
    assert world.areas["area_xp_stair"].type == "area"
    ((_, _, path),) = _bridges(world, "place_xp_tower", [*world.areas][:-1])
    assert not path["locked"]


def test_native_stations_get_one_or_two_units_even_when_already_placed() -> None:
    """The expansion's native stations have no cap (the first placements do): a station listed in
    `existing_objects` and native to the area ends with 2 or 3 units."""
    spec = expansion_spec()
    loom = next(o for o in spec["objects"] if o["id"] == "obj_xp_loom")
    loom["areas"] = ["area_xp_reeds"]
    spec["places"][0]["areas"][0]["existing_objects"] = ["obj_xp_loom"]
    counts = set()
    for seed in range(12):
        world = World.generate(definition("tiny"), 8)
        expansion.expand(world, copy.deepcopy(spec), seed)
        counts.add(world.areas["area_xp_reeds"].objects["obj_xp_loom"])
    assert counts == {2, 3}


def test_expansion_puts_at_least_three_units_in_empty_areas() -> None:
    """Areas with no native objects are filled from the fallback pool up to 3 units."""
    spec = expansion_spec()
    spec["objects"][0]["areas"] = []
    spec["objects"][1]["areas"] = []
    del spec["places"][1]["areas"][0]["existing_objects"]
    for seed in range(10):
        world = World.generate(definition("tiny"), seed)
        expansion.expand(world, copy.deepcopy(spec), seed)
        for area_id in NEW_AREAS:
            assert sum(world.areas[area_id].objects.values()) >= 3, (seed, area_id)


@pytest.mark.parametrize("name", WORLDS)
def test_expansion_is_deterministic_for_a_seed(name: str) -> None:
    outcomes = []
    for seed in (4, 4, 5, 6, 7):
        world = World.generate(definition(name), 2)
        expansion.expand(world, expansion_spec(), seed)
        outcomes.append(json.dumps(world.to_dict()))
    assert outcomes[0] == outcomes[1]
    assert len(set(outcomes[1:])) > 1


def test_existing_place_id_is_skipped_with_a_warning() -> None:
    world = World.generate(definition("tiny"), 2)
    spec = expansion_spec()
    spec["places"][0]["id"] = "place_orchard"
    result = expansion.expand(world, spec, 1)
    assert "$.places[0].id" in [p.path for p in result.warnings]
    assert all(p.severity == "warning" for p in result.warnings)
    assert result.place_names == ["Old Tower"]
    assert world.places["place_orchard"].area_ids == ["area_gate", "area_rows"]
    assert "area_xp_reeds" not in world.areas


def _existing_area_name(world: World) -> str:
    return next(iter(world.areas.values())).name


INVALID_EXPANSIONS = [
    pytest.param(
        lambda spec, world: spec["objects"][1]["craft"]["ingredients"].update(obj_ghost=1),
        "$.objects[1].craft.ingredients.obj_ghost",
        "unknown ingredient 'obj_ghost'",
        id="unknown-ingredient",
    ),
    pytest.param(
        lambda spec, world: spec["places"][1]["areas"][0].update(name=_existing_area_name(world)),
        "$.places[1].areas[0].name",
        "is already used",
        id="area-name-taken",
    ),
    pytest.param(
        lambda spec, world: spec["places"][1]["areas"][0].update(name="xp_reeds"),
        "$.places[1].areas[0].name",
        "duplicate area name 'xp_reeds'",
        id="area-name-repeated",
    ),
    pytest.param(
        lambda spec, world: spec["places"][1]["areas"][0].update(id=world.spawn_area),
        "$.places[1].areas[0].id",
        "is already used",
        id="area-id-taken",
    ),
    pytest.param(
        lambda spec, world: spec["places"][1]["areas"][0].update(existing_objects=["obj_ghost"]),
        "$.places[1].areas[0].existing_objects[0]",
        "unknown object 'obj_ghost'",
        id="unknown-existing-object",
    ),
    pytest.param(
        lambda spec, world: spec["npcs"][1]["objects"].append("obj_ghost"),
        "$.npcs[1].objects[1]",
        "unknown object 'obj_ghost'",
        id="unknown-npc-object",
    ),
    pytest.param(
        lambda spec, world: spec["objects"][0].update(id="obj_xp_reed_2"),
        "$.objects[0].id",
        "ends in _<digits>",
        id="id-with-digits",
    ),
    pytest.param(
        lambda spec, world: spec["places"][0].update(areas=[]),
        "$.places[0].areas",
        "has no areas",
        id="place-without-areas",
    ),
    pytest.param(
        lambda spec, world: spec["objects"][0].update(level="3"),
        "$.objects[0].level",
        "expected an integer",
        id="type-error",
    ),
]


@pytest.mark.parametrize(("mutate", "path", "fragment"), INVALID_EXPANSIONS)
def test_invalid_expansion_is_refused_and_changes_nothing(
    mutate: Callable[[dict, World], None], path: str, fragment: str
) -> None:
    world = World.generate(definition("tiny"), 6)
    before = json.dumps(world.to_dict())
    names_before = (dict(world.obj_name_to_id), dict(world.npc_name_to_id))
    spec = expansion_spec()
    mutate(spec, world)
    with pytest.raises(WorldDefinitionError) as info:
        expansion.expand(world, spec, 9)
    assert any(p.path == path and fragment in p.message for p in info.value.problems), str(
        info.value
    )
    assert json.dumps(world.to_dict()) == before
    assert (world.obj_name_to_id, world.npc_name_to_id) == names_before


def test_world_expand_method_matches_the_module_function() -> None:
    by_function = World.generate(definition("tiny"), 2)
    expansion.expand(by_function, expansion_spec(), 4)
    by_method = World.generate(definition("tiny"), 2)
    by_method.expand(expansion_spec(), 4)
    assert by_method.to_dict() == by_function.to_dict()


def test_expansion_records_its_areas_and_they_survive_a_round_trip() -> None:
    world = World.generate(definition("tiny"), 2)
    before = list(world.areas)
    world.expand(expansion_spec(), seed=1)
    added = [a for a in world.areas if a not in before]
    assert world.added_areas == added
    assert world.additions()[0] == added
    assert world.addition_counts()[0] == len(added)
    again = World.from_dict(json.loads(json.dumps(world.to_dict())))
    assert again.added_areas == added
    data = json.loads(json.dumps(world.to_dict()))
    data["added_areas"].append("area_nowhere")
    with pytest.raises(WorldStateError, match="added_areas"):
        World.from_dict(data)
