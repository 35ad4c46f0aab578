"""The default expansion generator (`ProceduralExpander`) and `world_to_definition`.

The generator must produce, for any world and seed, an expansion `World.expand` accepts without a
warning: 1-2 unlocked places of 2-3 areas one or two levels beyond the frontier, 4-8 objects (raw
materials native to the new areas, processed materials from new and existing ones, a weapon and an
armour stronger than anything so far), an enemy stronger than any so far and maybe a merchant, all
with original names, the same spec for the same (world, seed), and craftable from what the world
offers. Crafting reachability is checked with this file's own fixpoint, not the generator's.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from conftest import load_raw
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.world.entities import Area, Place
from agentodyssey_pz.world.expander import ProceduralExpander, world_to_definition
from agentodyssey_pz.world.expansion import check_expansion
from agentodyssey_pz.world.procgen import generate_definition
from agentodyssey_pz.world.schema import WorldDefinition, definition_to_dict
from agentodyssey_pz.world.validate import check_definition, parse_definition
from agentodyssey_pz.world.world import World

INSTANCE_LIKE = re.compile(r"_\d+$")
SEEDS = range(25)


def definition(name: str) -> WorldDefinition:
    if name == "tiny":
        return parse_definition(load_raw("tiny_world.json"))
    if name.startswith("preset:"):
        _, preset, seed = name.split(":")
        return parse_definition(generate_definition(preset, int(seed)))
    return bundled_definition(name)


WORLDS = [
    "tiny",
    *bundled_worlds(),
    *(f"preset:small:{s}" for s in range(4)),
    "preset:medium:0",
    "preset:medium:1",
]


def taken_strings(world: World) -> set[str]:
    """Every id and name the world knows (definitions, instances, areas, places)."""
    taken = set(world.objects) | set(world.obj_name_to_id) | set(world.npc_protos)
    taken |= {o.name for o in world.objects.values()} | {n.name for n in world.npc_protos.values()}
    taken |= set(world.npcs) | set(world.npc_name_to_id) | set(world.areas) | set(world.places)
    taken |= {a.name for a in world.areas.values()} | {p.name for p in world.places.values()}
    return {t.casefold() for t in taken}


def spec_strings(spec: dict[str, Any]) -> list[str]:
    out = []
    for place in spec["places"]:
        out += [place["id"], place["name"]]
        for area in place["areas"]:
            out += [area["id"], area["name"]]
    for record in (*spec["objects"], *spec["npcs"]):
        out += [record["id"], record["name"]]
    return out


def obtainable(data: dict[str, Any]) -> set[str]:
    """Objects an agent can get in a world definition: native to a non-spawn area, at spawn, or
    dropped by a non-quest NPC, then closed under crafting (ingredients and stations obtainable)."""
    init = data["initializations"]
    spawn = init["spawn"]["area"]
    und = set(init.get("undistributable_objects", []))
    areas = {a["id"] for p in data["entities"]["places"] for a in p["areas"]} - {spawn}
    objects = data["entities"]["objects"]
    have = {o["id"] for o in objects if o["id"] not in und and areas & set(o.get("areas", []))}
    have |= set(init["spawn"].get("objects", {}))
    have |= {i for n in data["entities"]["npcs"] if not n.get("quest") for i in n["objects"]}
    grew = True
    while grew:
        grew = False
        for obj in objects:
            craft = obj["craft"]
            needs = [*craft["ingredients"], *craft["dependencies"]]
            if obj["id"] not in have and craft["ingredients"] and all(n in have for n in needs):
                have.add(obj["id"])
                grew = True
    return have


def errors_and_warnings(data: dict[str, Any]) -> tuple[list[str], set[str]]:
    _, problems = check_definition(data)
    errors = [str(p) for p in problems if p.severity == "error"]
    return errors, {str(p) for p in problems if p.severity == "warning"}


# ---------------------------------------------------------------------------- shape of a spec
def check_spec_shape(world: World, spec: dict[str, Any]) -> None:
    frontier = max(a.level for a in world.areas.values())
    places, objects, npcs = spec["places"], spec["objects"], spec["npcs"]
    assert 1 <= len(places) <= 2
    assert all(2 <= len(p["areas"]) <= 3 and p["unlocked"] is True for p in places)
    new_areas = {a["id"]: a["level"] for p in places for a in p["areas"]}
    assert set(new_areas.values()) <= {frontier + 1, frontier + 2}
    if len(places) == 2:
        assert [{a["level"] for a in p["areas"]} for p in places] == [
            {frontier + 1},
            {frontier + 2},
        ]
    assert 4 <= len(objects) <= 8
    assert 1 <= len(npcs) <= 2

    # Original names: nothing collides with the world, nothing repeats, nothing looks like an
    # instance id, and names are single words (place names aside).
    strings = spec_strings(spec)
    folded = [s.casefold() for s in strings]
    assert not set(folded) & taken_strings(world)
    assert len(set(folded)) == len(folded)
    assert not [s for s in strings if INSTANCE_LIKE.search(s) or re.search(r"\d", s)]
    for record in (*objects, *npcs, *(a for p in places for a in p["areas"])):
        assert re.fullmatch(r"[a-z]+(_[a-z]+)?", record["name"]), record["name"]

    und = set(world.definition.initializations.undistributable_objects)
    raws = [o for o in objects if not o["craft"]["ingredients"]]
    assert all(o["category"] == "material" for o in raws)
    for raw in raws:  # native to new areas of its own level
        assert raw["areas"] and {new_areas[a] for a in raw["areas"]} == {raw["level"]}
    assert set(new_areas) == {a for raw in raws for a in raw["areas"]}
    assert not [o["id"] for o in objects if o.get("quest") or o["id"] in und]
    new_ids = {o["id"] for o in objects}
    parts = [o for o in objects if o["craft"]["ingredients"] and o["category"] == "material"]
    assert 1 <= len(parts) <= 2
    first = parts[0]["craft"]["ingredients"]
    assert set(first) & new_ids and set(first) - new_ids  # a new and an existing material
    used = {i for o in objects for i in o["craft"]["ingredients"]}
    assert {o["id"] for o in raws} <= used  # every new raw goes into something

    weapons = [o for o in objects if o["category"] == "weapon"]
    armors = [o for o in objects if o["category"] == "armor"]
    assert len(weapons) == len(armors) == 1
    tier = max(new_areas.values())
    assert weapons[0]["level"] == armors[0]["level"] == tier
    old_weapons = [
        o.attack for o in world.objects.values() if o.category == "weapon" and not o.quest
    ]
    old_armors = [
        o.defense for o in world.objects.values() if o.category == "armor" and not o.quest
    ]
    assert weapons[0]["attack"] > max(old_weapons, default=0)
    assert armors[0]["defense"] > max(old_armors, default=0)

    enemy = npcs[0]
    assert (enemy["enemy"], enemy["unique"]) == (True, False)
    assert "attack" in enemy["combat_pattern"]
    assert set(enemy["objects"]) == {o["id"] for o in raws}
    olds = [p for p in world.npc_protos.values() if p.enemy and not p.unique and not p.quest]
    at_tier = lambda hp, slope: hp + slope * (tier - 1)  # noqa: E731 - a tiny local formula
    best = max(at_tier(p.hp_at_level_1, p.hp_per_level) for p in olds)
    assert at_tier(enemy["base_hp"], enemy["slope_hp"]) > best
    if len(npcs) == 2:
        merchant = npcs[1]
        assert (merchant["enemy"], merchant["unique"], merchant["role"]) == (
            False,
            True,
            "merchant",
        )
        assert merchant["objects"] and set(merchant["objects"]) <= new_ids


@pytest.mark.parametrize("name", WORLDS)
def test_default_generator_makes_valid_specs_that_expand_cleanly(name: str) -> None:
    base = definition(name)
    for seed in SEEDS:
        world = World.generate(base, seed)
        before_export = world_to_definition(world)
        spec = ProceduralExpander()(world, seed)
        check_spec_shape(world, spec)
        _, problems = check_expansion(world, copy.deepcopy(spec))
        assert problems.items == [], [str(p) for p in problems.items]

        result = world.expand(spec, seed)
        assert result.warnings == []
        assert result.place_names == [p["name"] for p in spec["places"]]
        # Still a valid world definition, with no warning the world did not already have.
        errors, warnings = errors_and_warnings(world_to_definition(world))
        assert errors == []
        assert warnings <= errors_and_warnings(before_export)[1]


@pytest.mark.parametrize("name", ["tiny", *bundled_worlds(), "preset:small:0", "preset:medium:0"])
def test_new_objects_are_distributed_and_craftable_up_to_the_new_tier(name: str) -> None:
    base = definition(name)
    for seed in SEEDS:
        world = World.generate(base, seed)
        old_objects = set(world.objects)
        spec = ProceduralExpander()(world, seed)
        new_areas = [a["id"] for p in spec["places"] for a in p["areas"]]
        world.expand(spec, seed)
        new = {o["id"]: o for o in spec["objects"]}
        raws = {oid for oid, o in new.items() if not o["craft"]["ingredients"]}
        for area_id in new_areas:  # every new area has a native new raw material on the ground
            assert raws & set(world.areas[area_id].objects), (seed, area_id)
        have = obtainable(world_to_definition(world))
        assert set(new) <= have, (seed, sorted(set(new) - have))
        # The gear's recipe chain runs through a new raw material and an existing material.
        for gear in (o for o in new.values() if o["category"] in ("weapon", "armor")):
            chain, todo = set(), list(gear["craft"]["ingredients"])
            while todo:
                oid = todo.pop()
                chain.add(oid)
                recipe = new[oid]["craft"] if oid in new else {"ingredients": {}}
                todo += [i for i in recipe["ingredients"] if i not in chain]
            assert chain & raws and chain & old_objects, (seed, gear["id"])


def test_expander_is_deterministic_and_leaves_the_world_alone() -> None:
    base = definition("tiny")
    world = World.generate(base, 3)
    before = json.dumps(world.to_dict())
    specs = [json.dumps(ProceduralExpander()(world, seed)) for seed in (5, 5, 6, 7, 8)]
    assert json.dumps(world.to_dict()) == before
    assert specs[0] == specs[1]
    assert len(set(specs[1:])) == 4
    twin = World.generate(base, 3)  # an equal world built separately gives the same spec
    assert json.dumps(ProceduralExpander()(twin, 5)) == specs[0]


def test_names_already_in_the_world_are_never_reused() -> None:
    """Give a world the names and ids the generator would pick for it, then generate again."""
    raw = load_raw("tiny_world.json")
    first = ProceduralExpander()(World.generate(parse_definition(copy.deepcopy(raw)), 1), 9)
    entities, clashing = raw["entities"], []
    for i, obj in enumerate(first["objects"]):
        # Alternately the same id under another name and the same name under another id.
        key = ("id", "name")[i % 2]
        other = {"id": f"{obj['id']}x", "name": f"{obj['name']}x"}
        entities["objects"].append({**entities["objects"][1], **other, key: obj[key], "areas": []})
        clashing.append(obj[key])
    for npc in first["npcs"]:
        entities["npcs"].append({**entities["npcs"][1], "id": npc["id"], "name": npc["name"]})
        clashing += [npc["id"], npc["name"]]
    place = first["places"][0]
    areas = [{"type": "area", "id": a["id"], "name": a["name"], "level": 1} for a in place["areas"]]
    entities["places"].append({**place, "areas": areas})
    clashing += [place["id"], place["name"], *(a[k] for a in areas for k in ("id", "name"))]
    world = World.generate(parse_definition(raw), 1)
    assert {s.casefold() for s in clashing} <= taken_strings(world)
    again = ProceduralExpander()(world, 9)
    assert not {s.casefold() for s in spec_strings(again)} & taken_strings(world)
    assert world.expand(again, 9).warnings == []


def test_worlds_without_weapons_armour_enemies_or_stations_still_expand() -> None:
    """Fallback stats and recipes without a station when the world has none to scale from."""
    raw = load_raw("tiny_world.json")
    keep = {"obj_coin", "obj_pear", "obj_cider"}
    raw["entities"]["objects"] = [o for o in raw["entities"]["objects"] if o["id"] in keep]
    raw["entities"]["objects"][2]["craft"]["dependencies"] = []
    raw["entities"]["npcs"] = []
    raw["initializations"]["spawn"]["objects"] = {"obj_coin": 5}
    world = World.generate(parse_definition(raw), 0)
    spec = ProceduralExpander(merchant_probability=0.0)(world, 2)
    weapon, armor = (
        next(o for o in spec["objects"] if o["category"] == c) for c in ("weapon", "armor")
    )
    tier = weapon["level"]
    assert (weapon["attack"], armor["defense"]) == (4 + 5 * (tier - 1), 2 + 3 * (tier - 1))
    assert all(o["craft"]["dependencies"] == [] for o in spec["objects"])
    (enemy,) = spec["npcs"]
    percent = 100 + 15 * (tier - 3)  # the tiny world's frontier is level 3
    expected = [-(-value * percent // 100) for value in (60, 20, 15, 15)]  # rounded up
    stats = ("base_hp", "slope_hp", "base_attack_power", "slope_attack_power")
    assert [enemy[k] for k in stats] == expected
    world.expand(spec, 2)
    errors, _ = errors_and_warnings(world_to_definition(world))
    assert errors == []


# ---------------------------------------------------------------------------- world_to_definition
@pytest.mark.parametrize("name", ["tiny", *bundled_worlds()])
def test_exported_definition_rebuilds_the_same_map(name: str) -> None:
    world = World.generate(definition(name), 4)
    world.expand(ProceduralExpander()(world, 4), 4)
    data = world_to_definition(world)
    rebuilt = World.generate(parse_definition(copy.deepcopy(data)), 99)

    def shape(w: World) -> Any:
        areas = [(a.id, a.name, a.level, a.light, a.place_id) for a in w.areas.values()]
        edges = sorted(
            (tuple(sorted((a, b))), d["locked"], d["key"])
            for a, b, d in w.graph.nx.edges(data=True)
        )
        return areas, edges, [(p.id, p.name, p.unlocked) for p in w.places.values()]

    assert shape(rebuilt) == shape(world)
    assert list(rebuilt.objects) == list(world.objects)
    assert list(rebuilt.npc_protos) == list(world.npc_protos)
    assert data["initializations"] == definition_to_dict(world.definition)["initializations"]


def test_exported_definition_leaves_out_skipped_places_and_personal_paths() -> None:
    world = World.generate(definition("tiny"), 1)
    world.add_place(Place("place_lesson", "Lesson", True))
    world.add_area(Area("area_lesson", "lesson", 1, True, "place_lesson"))
    world.connect("area_lesson", world.spawn_area, owner="agent_0")
    world.connect("area_lesson", "area_vault")
    full = world_to_definition(world)
    assert "place_lesson" in [p["id"] for p in full["entities"]["places"]]
    lesson = [c for c in full["graph"]["connections"] if "area_lesson" in (c["from"], c["to"])]
    assert [({c["from"], c["to"]}, c["locked"], c["key"]) for c in lesson] == [
        ({"area_lesson", "area_vault"}, False, None)
    ]
    skipped = world_to_definition(world, skip_places=["place_lesson"])
    assert "place_lesson" not in [p["id"] for p in skipped["entities"]["places"]]
    ends = {end for c in skipped["graph"]["connections"] for end in (c["from"], c["to"])}
    assert "area_lesson" not in ends
    assert errors_and_warnings(skipped)[0] == []


@pytest.mark.parametrize(
    "settings",
    [{"place_count": (0, 2)}, {"areas_per_place": (3, 2)}, {"merchant_probability": 1.5}],
)
def test_bad_generator_settings_are_refused(settings: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(settings))):
        ProceduralExpander(**settings)
