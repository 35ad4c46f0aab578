"""Procedural world definitions: validity, determinism, sizes, crafting depth, roles and naming."""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
from typing import Any

import pytest

from agentodyssey_pz.world.procgen import (
    PRESETS,
    ProcgenSpec,
    generate_definition,
    write_definition,
)
from agentodyssey_pz.world.validate import check_definition

# Large worlds get two seeds to keep the suite fast; the others get more.
SEEDS = {"small": (0, 1, 2, 3, 4), "medium": (0, 1, 2), "large": (0, 7)}
CASES = [(preset, seed) for preset, seeds in SEEDS.items() for seed in seeds]
INSTANCE_SUFFIX = re.compile(r"_\d+$")
SNAKE_CASE = re.compile(r"[a-z]+(_[a-z]+)*")


@functools.cache
def _world_text(preset: str, seed: int) -> str:
    return json.dumps(generate_definition(preset, seed))


def _world(preset: str, seed: int) -> dict[str, Any]:
    """A fresh copy of a generated world (generation itself is cached as JSON text)."""
    return json.loads(_world_text(preset, seed))


def _objects(world: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {obj["id"]: obj for obj in world["entities"]["objects"]}


def _areas(world: dict[str, Any]) -> list[dict[str, Any]]:
    return [area for place in world["entities"]["places"] for area in place["areas"]]


def _is_raw(obj: dict[str, Any]) -> bool:
    return not obj["craft"]["ingredients"]


def recipe_depths(objects: list[dict[str, Any]]) -> dict[str, int]:
    """Longest chain of recipes ending in each object: raw = 0, each recipe step adds one."""
    recipes = {obj["id"]: obj["craft"]["ingredients"] for obj in objects}
    depths: dict[str, int] = {}

    def depth(oid: str) -> int:
        if oid not in depths:
            depths[oid] = 1 + max((depth(i) for i in recipes[oid]), default=-1)
        return depths[oid]

    for oid in recipes:
        depth(oid)
    return depths


def _obj(oid: str, **ingredients: float) -> dict[str, Any]:
    return {"id": oid, "craft": {"ingredients": ingredients, "dependencies": []}}


def test_recipe_depths_follows_the_longest_chain() -> None:
    objects = [
        _obj("ore"),
        _obj("bar", ore=2),
        _obj("plate", bar=1, ore=1),
        _obj("sword", plate=1, ore=3),
        _obj("stick", ore=1),
    ]
    assert recipe_depths(objects) == {"ore": 0, "bar": 1, "plate": 2, "sword": 3, "stick": 1}


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_generated_world_validates_without_any_problem(preset: str, seed: int) -> None:
    definition, problems = check_definition(_world(preset, seed))
    assert [str(p) for p in problems] == []
    assert definition is not None


@pytest.mark.parametrize("preset", list(PRESETS))
def test_same_seed_gives_identical_json(preset: str) -> None:
    first = json.dumps(generate_definition(preset, 11))
    assert json.dumps(generate_definition(preset, 11)) == first
    assert json.dumps(generate_definition(PRESETS[preset], 11)) == first


@pytest.mark.parametrize("preset", ["small", "medium"])
def test_different_seeds_give_different_worlds(preset: str) -> None:
    texts = {_world_text(preset, seed) for seed in SEEDS[preset]}
    assert len(texts) == len(SEEDS[preset])


def test_generation_leaves_the_global_random_state_alone() -> None:
    random.seed(1234)
    before = random.getstate()
    generate_definition("small", 5)
    assert random.getstate() == before


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_area_count_is_within_ten_percent_of_target(preset: str, seed: int) -> None:
    target = PRESETS[preset].target_areas
    assert abs(len(_areas(_world(preset, seed))) - target) <= 0.1 * target


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_crafting_depth_meets_the_preset_minimum(preset: str, seed: int) -> None:
    depths = recipe_depths(_world(preset, seed)["entities"]["objects"])
    assert max(depths.values()) >= PRESETS[preset].crafting_depth


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_roster_sizes_match_the_spec(preset: str, seed: int) -> None:
    spec, world = PRESETS[preset], _world(preset, seed)
    # A material family adds two objects at once, so the roster may end one past the target.
    assert spec.object_count <= len(world["entities"]["objects"]) <= spec.object_count + 1
    assert len(world["entities"]["npcs"]) == spec.npc_count


def test_rosters_grow_from_small_to_large() -> None:
    worlds = [_world(preset, 0)["entities"] for preset in ("small", "medium", "large")]
    object_counts = [len(w["objects"]) for w in worlds]
    npc_counts = [len(w["npcs"]) for w in worlds]
    assert object_counts == sorted(set(object_counts))
    assert npc_counts == sorted(set(npc_counts))


def _single(objects: dict[str, dict[str, Any]], **fields: Any) -> dict[str, Any]:
    found = [o for o in objects.values() if all(o.get(k) == v for k, v in fields.items())]
    assert len(found) >= 1, f"no object with {fields}"
    return found[0]


def _recipe_items(obj: dict[str, Any]) -> tuple[list[tuple[str, float]], list[str]]:
    return list(obj["craft"]["ingredients"].items()), obj["craft"]["dependencies"]


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_key_chain_runs_from_ore_through_bar_and_blank(preset: str, seed: int) -> None:
    objects = _objects(_world(preset, seed))
    key = objects["obj_key"]
    assert (key["category"], key["usage"]) == ("tool", "unlock")
    [(blank_id, qty)], [bench_id] = _recipe_items(key)
    bench, blank = objects[bench_id], objects[blank_id]
    assert qty == 1 and bench["category"] == "station" and not bench["craft"]["dependencies"]
    assert blank["category"] == "material"
    [(bar_id, half)], [blank_station] = _recipe_items(blank)
    assert half == 0.5 and blank_station == bench_id
    ore_ids = [i for i, _ in _recipe_items(objects[bar_id])[0]]
    [furnace_id] = objects[bar_id]["craft"]["dependencies"]
    assert furnace_id != bench_id and objects[furnace_id]["category"] == "station"
    assert ore_ids and all(_is_raw(objects[i]) and objects[i]["areas"] for i in ore_ids)
    for station in (bench, objects[furnace_id]):
        assert station["size"] is None and station["value"] is None


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_role_objects_exist(preset: str, seed: int) -> None:
    objects = _objects(_world(preset, seed))
    coin = objects["obj_coin"]
    assert (coin["category"], coin["usage"], coin["size"], coin["value"]) == (
        "currency",
        "exchange",
        0,
        None,
    )
    cheap = _single(objects, category="material", level=1, value=2)
    assert _is_raw(cheap) and cheap["areas"]
    container = _single(objects, category="container", usage="store")
    assert 10 <= container["capacity"] <= 20 and container["level"] == 1
    writable = _single(objects, category="tool", usage="writable")
    assert writable["text"] == "" and 100 <= writable["max_text_length"] <= 150
    assert writable["craft"]["dependencies"] == []
    assert writable["craft"]["ingredients"]
    assert all(_is_raw(objects[i]) for i in writable["craft"]["ingredients"])
    _single(objects, category="tool", usage="write")
    _single(objects, category="tool", usage="lockpick")
    quantities = [q for o in objects.values() for q in o["craft"]["ingredients"].values()]
    assert 0.5 in quantities and 0.25 in quantities


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_every_object_has_a_one_sentence_description(preset: str, seed: int) -> None:
    for obj in _world(preset, seed)["entities"]["objects"]:
        text = obj["description"]
        assert text[0].isupper() and text.endswith(".") and ". " not in text, obj["id"]


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_gear_bonuses_rise_with_tier(preset: str, seed: int) -> None:
    objects, top = _objects(_world(preset, seed)).values(), PRESETS[preset].max_level
    for category, stat in (("weapon", "attack"), ("armor", "defense")):
        by_level = {level: [] for level in range(1, top + 1)}
        for obj in objects:
            if obj["category"] == category:
                by_level[obj["level"]].append(obj[stat])
        assert all(by_level.values()), f"a tier without {category}"
        lows = [min(values) for values in by_level.values()]
        highs = [max(values) for values in by_level.values()]
        assert lows[0] > 0
        assert all(a < b for a, b in itertools.pairwise(lows)), (category, lows)
        assert all(a < b for a, b in itertools.pairwise(highs)), (category, highs)


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_raw_material_areas_are_near_its_level(preset: str, seed: int) -> None:
    world = _world(preset, seed)
    levels = {area["id"]: area["level"] for area in _areas(world)}
    spawn = world["initializations"]["spawn"]["area"]
    undistributable = set(world["initializations"]["undistributable_objects"])
    raws = [o for o in world["entities"]["objects"] if o["category"] == "material" and _is_raw(o)]
    for raw in raws:
        if raw["id"] in undistributable:
            continue  # enemy and boss drops are found on NPCs only
        assert raw["areas"], raw["id"]
        for area in raw["areas"]:
            assert area != spawn and abs(levels[area] - raw["level"]) <= 1, (raw["id"], area)
    listed = {area for raw in raws for area in raw.get("areas", [])}
    assert listed == set(levels) - {spawn}  # every other area has a native raw material


def _all_names_and_ids(world: dict[str, Any]) -> list[tuple[str, str, str]]:
    entities = world["entities"]
    rows = [("place", p["id"], p["name"]) for p in entities["places"]]
    rows += [("area", a["id"], a["name"]) for a in _areas(world)]
    rows += [("object", o["id"], o["name"]) for o in entities["objects"]]
    rows += [("npc", n["id"], n["name"]) for n in entities["npcs"]]
    return rows


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_ids_and_names_follow_the_naming_rules(preset: str, seed: int) -> None:
    rows = _all_names_and_ids(_world(preset, seed))
    prefixes = {"place": "place_", "area": "area_", "object": "obj_", "npc": "npc_"}
    names = {name for _, _, name in rows}
    for kind, oid, name in rows:
        assert oid.startswith(prefixes[kind]) and SNAKE_CASE.fullmatch(oid[len(prefixes[kind]) :])
        assert not INSTANCE_SUFFIX.search(oid) and not INSTANCE_SUFFIX.search(name), (oid, name)
        assert INSTANCE_SUFFIX.sub("", name) == name or INSTANCE_SUFFIX.sub("", name) not in names
        if kind == "place":
            words = name.split(" ")
            assert len(words) == 2 and all(w[:1].isupper() and w[1:].islower() for w in words)
        elif kind == "area":
            assert re.fullmatch(r"[a-z]+", name), name
        else:
            assert SNAKE_CASE.fullmatch(name), name
    for kind in prefixes:
        kind_names = [name for k, _, name in rows if k == kind]
        assert len(kind_names) == len(set(kind_names)), f"duplicate {kind} names"


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_geography_rises_in_level_from_an_unlocked_spawn_place(preset: str, seed: int) -> None:
    spec, world = PRESETS[preset], _world(preset, seed)
    places = world["entities"]["places"]
    spawn_area = places[0]["areas"][0]
    assert world["initializations"]["spawn"]["area"] == spawn_area["id"]
    assert spawn_area["level"] == 1 and places[0]["unlocked"]
    levels = [area["level"] for area in _areas(world)]
    assert levels == sorted(levels) and set(levels) == set(range(1, spec.max_level + 1))
    low, high = spec.areas_per_place
    assert all(low <= len(place["areas"]) <= high for place in places)
    locked = sum(not place["unlocked"] for place in places)
    assert locked >= 1 and abs(locked / len(places) - spec.locked_place_fraction) <= 0.1
    assert "graph" not in world


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_spawn_holds_the_starting_kit(preset: str, seed: int) -> None:
    world = _world(preset, seed)
    objects, spawn = _objects(world), world["initializations"]["spawn"]
    assert spawn["npcs"] == {}
    counts = spawn["objects"]
    assert counts.pop("obj_coin") == 10 and counts.pop("obj_key") == 1
    kinds = sorted((objects[oid]["category"], objects[oid]["usage"]) for oid in counts)
    expected = [
        ("container", "store"),
        ("station", "craft"),
        ("tool", "writable"),
        ("tool", "write"),
    ]
    assert kinds == expected and set(counts.values()) == {1}
    assert world["custom_events"] == ["main_quest", "side_quest"]
    assert world["features"] == {"online_expansion": False, "rule_packs": ["lockpicking"]}


def _npcs_by_kind(world: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    kinds: dict[str, list[dict[str, Any]]] = {
        "merchant": [],
        "villager": [],
        "enemy": [],
        "boss": [],
    }
    for npc in world["entities"]["npcs"]:
        if npc["role"] == "merchant":
            kinds["merchant"].append(npc)
        elif not npc["enemy"]:
            kinds["villager"].append(npc)
        else:
            kinds["boss" if npc["unique"] else "enemy"].append(npc)
    return kinds


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_npc_roster_has_traders_villagers_tiered_enemies_and_bosses(preset: str, seed: int) -> None:
    spec, world = PRESETS[preset], _world(preset, seed)
    objects, kinds = _objects(world), _npcs_by_kind(world)
    undistributable = set(world["initializations"]["undistributable_objects"])
    assert len(kinds["merchant"]) == spec.merchant_count
    assert len(kinds["boss"]) == spec.boss_count and len(kinds["villager"]) == spec.villager_count
    for merchant in kinds["merchant"]:
        assert merchant["unique"] and not merchant["enemy"] and merchant["objects"]
        for oid in merchant["objects"]:
            assert objects[oid]["value"] is not None and oid not in undistributable
    assert all(not v["unique"] for v in kinds["villager"])
    fighters = kinds["enemy"] + kinds["boss"]
    for npc in fighters:
        assert npc["base_hp"] > 0 and npc["slope_hp"] > 0 and npc["base_attack_power"] > 0
        assert "attack" in npc["combat_pattern"]
    # An enemy's tier is the level of its drop; higher tiers are strictly tougher.
    tiers = sorted((objects[e["objects"][0]]["level"], e["base_hp"]) for e in kinds["enemy"])
    assert {level for level, _ in tiers} == set(range(1, spec.max_level + 1))
    for (level_a, hp_a), (level_b, hp_b) in itertools.pairwise(tiers):
        assert level_a == level_b or hp_a < hp_b
    assert all(objects[b["objects"][0]]["level"] > spec.max_level // 2 for b in kinds["boss"])
    dropped = {oid for npc in fighters for oid in npc["objects"]}
    assert undistributable and undistributable <= dropped


def test_a_custom_spec_is_honoured() -> None:
    spec = ProcgenSpec(
        target_areas=12,
        max_level=2,
        crafting_depth=7,
        object_count=10,
        npc_count=4,
        merchant_count=1,
        villager_count=0,
        boss_count=1,
        custom_events=(),
    )
    world = generate_definition(spec, 3)
    definition, problems = check_definition(world)
    assert definition is not None and [str(p) for p in problems] == []
    assert len(_areas(world)) == 12 and world["custom_events"] == []
    assert max(recipe_depths(world["entities"]["objects"]).values()) >= 7


@pytest.mark.parametrize(
    "changes",
    [
        {"npc_count": 4},  # only one enemy prototype for three tiers
        {"target_areas": 3},  # not more areas than levels
        {"areas_per_place": (5, 3)},
        {"target_areas": 7, "areas_per_place": (4, 5)},  # 7 cannot be cut into places of 4-5
        {"locked_place_fraction": 1.5},
    ],
)
def test_impossible_specs_are_refused(changes: dict[str, Any]) -> None:
    fields = {"target_areas": 10, "max_level": 3, "crafting_depth": 4, "object_count": 40}
    counts = {"npc_count": 6, "merchant_count": 1, "villager_count": 1, "boss_count": 1}
    with pytest.raises(ValueError):
        ProcgenSpec(**{**fields, **counts, **changes})


def test_unknown_preset_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="huge") as excinfo:
        generate_definition("huge", 0)
    assert all(name in str(excinfo.value) for name in ("small", "medium", "large"))


def test_write_definition_writes_indented_json_in_new_folders(tmp_path: Any) -> None:
    path = tmp_path / "a" / "b" / "world.json"
    returned = write_definition("small", 2, path)
    text = path.read_text(encoding="utf-8")
    assert returned == path
    assert text.startswith('{\n  "entities": {\n    "places": [')
    assert json.loads(text) == _world("small", 2)


@pytest.mark.parametrize("preset", ["small", "medium", "large"])
def test_generated_world_synthesises_for_fifty_seeds(preset: str) -> None:
    """The issue's "every generated world validates and synthesises for 50 seeds": one generated
    definition per preset, built for 50 world seeds; each build is connected from the spawn."""
    from agentodyssey_pz.world.validate import parse_definition
    from agentodyssey_pz.world.world import World

    definition = parse_definition(generate_definition(preset, 0))
    for seed in range(50):
        world = World.generate(definition, seed)
        assert world.areas[world.spawn_area].level == 1
        assert world.graph.is_connected(), (preset, seed)
        assert len(world.areas) == len(definition.iter_areas())
