"""The synthesis variants (`features.synthesis`): each difference from the base generator.

docs/world-format.md#101-synthesis-variants lists them: quarantine lights its spawn area without a
draw; remnant ignores a predefined graph; remnant and mark skip the guarantee stage, bound enemy
budgets differently, draw loot counts up to the NPC's level (not twice it) and give enemies another
default rhythm (also for an empty one); mark draws its stream seeds in another order, draws 2.5 to
5 times (not 2 to 4) and advances a unique spawn NPC's counter. The worlds are built in code, small
enough that each bound shows: over a few hundred fixed seeds the observed minimum and maximum equal
the bounds exactly (a uniform draw over at most 25 values misses an end with probability below
1e-5 there), and frequencies are checked within 4 binomial sigmas.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from typing import Any

import pytest

from agentodyssey_pz.world import synthesis
from agentodyssey_pz.world.rng import STREAM_NAMES, SUB_SEED_MAX, synthesis_streams
from agentodyssey_pz.world.schema import SYNTHESIS_VARIANTS, WorldDefinition
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc
from agentodyssey_pz.world.validate import check_definition, parse_definition
from agentodyssey_pz.world.variants import (
    MARK_STREAM_ORDER,
    OLDER_ENEMY_PATTERN,
    VARIANTS,
    variant_named,
)
from agentodyssey_pz.world.world import World

SEEDS = range(300)
OLDER = ("remnant", "mark")


def with_variant(raw: dict[str, Any], variant: str | None) -> dict[str, Any]:
    raw = copy.deepcopy(raw)
    if variant is not None:
        raw.setdefault("features", {})["synthesis"] = variant
    return raw


def build(raw: dict[str, Any], variant: str | None) -> WorldDefinition:
    return parse_definition(with_variant(raw, variant))


def material(oid: str, areas: list[str], level: int = 1) -> dict[str, Any]:
    return {"type": "object", "id": oid, "name": oid.removeprefix("obj_"), "category": "material",
            "usage": "craft", "value": 1, "size": 1, "level": level, "areas": areas}  # fmt: skip


def enemy(nid: str, **extra: Any) -> dict[str, Any]:
    return {"type": "npc", "id": nid, "name": nid.removeprefix("npc_"), "role": "beast",
            "enemy": True, "unique": False, **extra}  # fmt: skip


def ladder_world(levels: list[int], objects: list[Any], npcs: list[Any]) -> dict[str, Any]:
    """One unlocked place: a spawn area, then one area per level (`area_<i>`)."""
    areas = [{"type": "area", "id": "area_spawn", "name": "spawn"}] + [
        {"type": "area", "id": f"area_{i}", "name": f"room{chr(97 + i)}", "level": lv}
        for i, lv in enumerate(levels)
    ]
    place = {"type": "place", "id": "place_one", "name": "One", "unlocked": True, "areas": areas}
    return {
        "entities": {
            "places": [place],
            "objects": objects,
            "npcs": npcs,
        },
        "initializations": {"spawn": {"area": "area_spawn"}},
    }


# ------------------------------------------------------------------ the table itself
def test_variant_names_are_the_accepted_values() -> None:
    assert tuple(VARIANTS) == SYNTHESIS_VARIANTS
    assert variant_named(None) is VARIANTS["base"]
    assert all(variant_named(name).name == name for name in SYNTHESIS_VARIANTS)
    with pytest.raises(ValueError, match="unknown synthesis variant 'older'"):
        variant_named("older")


def test_the_validator_accepts_each_variant_and_names_the_choices_otherwise(
    tiny_raw: dict[str, Any],
) -> None:
    for name in SYNTHESIS_VARIANTS:
        definition, problems = check_definition(with_variant(tiny_raw, name))
        assert definition is not None and definition.features.synthesis == name
        assert not [p for p in problems if "synthesis" in p.path]
    definition, problems = check_definition(with_variant(tiny_raw, "older"))
    assert definition is None
    [problem] = [p for p in problems if p.path == "$.features.synthesis"]
    assert "base, quarantine, remnant, mark" in problem.message


def test_an_explicit_base_variant_is_the_default(tiny_raw: dict[str, Any]) -> None:
    for seed in range(5):
        plain = World.generate(build(tiny_raw, None), seed).to_dict()
        based = World.generate(build(tiny_raw, "base"), seed).to_dict()
        del plain["definition"], based["definition"]
        assert plain == based


# ------------------------------------------------------------------ streams, light, graph
def sub_seeds(seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(0, SUB_SEED_MAX) for _ in STREAM_NAMES]


@pytest.mark.parametrize("seed", [0, 1, 99])
def test_stream_seeds_are_drawn_in_the_variant_order(seed: int) -> None:
    subs = sub_seeds(seed)
    base, mark = synthesis_streams(seed), synthesis_streams(seed, MARK_STREAM_ORDER)
    for i, name in enumerate(STREAM_NAMES):
        assert getattr(base, name).random() == random.Random(subs[i]).random()
    # mark: connections, npcs, places, objects, npc_assign
    for name, i in zip(MARK_STREAM_ORDER, range(5), strict=True):
        assert getattr(mark, name).random() == random.Random(subs[i]).random()
    with pytest.raises(ValueError, match="names each of"):
        synthesis_streams(seed, ("npcs", "npcs", "places", "objects", "npc_assign"))


@pytest.mark.parametrize("seed", range(8))
def test_mark_chains_areas_from_the_first_stream_seed(tiny_raw: dict[str, Any], seed: int) -> None:
    """The tiny world has no graph: its random paths come from the connections stream, which mark
    seeds with the first draw and the others with the third."""
    for variant, index in (("mark", 0), ("base", 2), ("remnant", 2)):
        definition = build(tiny_raw, variant)
        world = World.generate(definition, seed)
        expected = World(definition, "area_gate")
        synthesis.build_places(expected, random.Random(0), SynthesisOptions())
        synthesis.connect_areas(expected, random.Random(sub_seeds(seed)[index]))
        assert world.graph.to_data() == expected.graph.to_data(), variant


def test_quarantine_lights_the_spawn_area_without_a_draw(tiny_raw: dict[str, Any]) -> None:
    raw = copy.deepcopy(tiny_raw)
    raw["entities"]["places"][0]["areas"][0]["light"] = False  # the spawn area: overruled
    definition = build(raw, "quarantine")
    given = {a.id: a.light for _, a in definition.iter_areas()}
    for seed in range(20):
        world = World.generate(definition, seed)
        assert world.areas["area_gate"].light is True
        places = random.Random(sub_seeds(seed)[1])
        for area_id in ("area_rows", "area_vats", "area_vault"):  # one draw each, in order
            drawn = places.random() < synthesis.LIGHT_PROBABILITY
            light = given[area_id] if given[area_id] is not None else drawn
            assert world.areas[area_id].light is light, (seed, area_id)
    # The base generator draws for the spawn area too, and keeps its given light.
    assert World.generate(build(raw, "base"), 0).areas["area_gate"].light is False


def graph_world(tiny_raw: dict[str, Any]) -> dict[str, Any]:
    raw = copy.deepcopy(tiny_raw)
    raw["graph"] = {"connections": [
        {"from": "area_gate", "to": "area_rows"},
        {"from": "area_gate", "to": "area_vats", "locked": True, "key": "obj_key"},
        {"from": "area_vats", "to": "area_vault"},
        {"from": "area_rows", "to": "area_vault"},
    ]}  # fmt: skip
    return raw


def edges(world: World) -> set[frozenset[str]]:
    return {frozenset(e) for e in world.graph.nx.edges}


def test_remnant_ignores_a_predefined_graph_and_the_others_honour_it(
    tiny_raw: dict[str, Any],
) -> None:
    raw = graph_world(tiny_raw)
    listed = {frozenset((c["from"], c["to"])) for c in raw["graph"]["connections"]}
    for seed in range(10):
        for variant in ("base", "quarantine", "mark"):
            world = World.generate(build(raw, variant), seed)
            assert edges(world) == listed
            assert world.graph.path("area_gate", "area_vats")["key"] == "obj_key"
        remnant = World.generate(build(raw, "remnant"), seed)
        # Random chains, exactly as if the world had no graph: a tree over the four areas.
        assert (
            remnant.graph.to_data()
            == World.generate(build(tiny_raw, "remnant"), seed).graph.to_data()
        )
        assert len(edges(remnant)) == 3


# ------------------------------------------------------------------ objects
MATERIALS = [material(f"obj_stuff{c}", ["area_0", "area_1"]) for c in "abcdefghij"]


def draw_bounds(variant: str, n: int, k_level: int) -> tuple[int, int]:
    low, high = VARIANTS[variant].draw_multipliers
    return min(int(n * low), int(k_level * low)), min(int(n * high), int(k_level * high))


@pytest.mark.parametrize("variant", SYNTHESIS_VARIANTS)
def test_draw_counts_and_guarantees_per_variant(variant: str) -> None:
    """Ten local raw materials, nothing else: an area's units are its guaranteed ones (base and
    quarantine: max(1, L) per material; remnant and mark: none) plus one per draw."""
    definition = build(ladder_world([1, 3], MATERIALS, []), variant)
    guaranteed = {"area_0": 10, "area_1": 30} if variant in ("base", "quarantine") else {}
    seen: dict[str, list[int]] = {"area_0": [], "area_1": []}
    for seed in SEEDS:
        world = World.generate(definition, seed)
        for area_id, units in seen.items():
            ground = world.areas[area_id].objects
            if area_id in guaranteed:  # every material at least max(1, L) times
                level = world.areas[area_id].level
                assert min(ground.get(m["id"], 0) for m in MATERIALS) >= level
            units.append(sum(ground.values()) - guaranteed.get(area_id, 0))
    # Lmax = 3: the level-1 area has k_L = 7 and the level-3 area k_L = 5; the pool has 10.
    assert (min(seen["area_0"]), max(seen["area_0"])) == draw_bounds(variant, 10, 7)
    assert (min(seen["area_1"]), max(seen["area_1"])) == draw_bounds(variant, 10, 5)
    expected = {"base": (14, 28), "quarantine": (14, 28), "remnant": (14, 28), "mark": (17, 35)}
    assert draw_bounds(variant, 10, 7) == expected[variant]


@pytest.mark.parametrize("variant", OLDER)
def test_without_the_guarantee_a_local_material_can_be_missing(variant: str) -> None:
    definition = build(ladder_world([1, 3], MATERIALS, []), variant)
    missing = sum(
        World.generate(definition, seed).areas["area_1"].objects.get("obj_stuffa", 0) == 0
        for seed in SEEDS
    )
    # Each of ~15 draws picks one material of ten: it is missing with probability about 0.2.
    assert 20 <= missing <= 120


# ------------------------------------------------------------------ NPCs
BUDGETS = {
    "base": [(0, 1), (1, 2), (1, 3), (2, 4), (2, 5)],
    "quarantine": [(0, 1), (1, 2), (1, 3), (2, 4), (2, 5)],
    "remnant": [(0, 1), (1, 2), (1, 2), (2, 3), (2, 4)],
    "mark": [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)],
}


@pytest.mark.parametrize("variant", SYNTHESIS_VARIANTS)
def test_enemy_budget_bounds_per_variant(variant: str) -> None:
    """Twelve enemy prototypes, areas of levels 1 to 5: the budget is what limits an area's
    enemies (enough prototypes are considered in all but a vanishing share of areas)."""
    npcs = [enemy(f"npc_beast{c}") for c in "abcdefghijkl"]
    definition = build(ladder_world([1, 2, 3, 4, 5], [], npcs), variant)
    counts: list[list[int]] = [[] for _ in range(5)]
    for seed in SEEDS:
        world = World.generate(definition, seed)
        for i in range(5):
            counts[i].append(len(world.areas[f"area_{i}"].npcs))
    observed = [(min(c), max(c)) for c in counts]
    assert observed == BUDGETS[variant]
    assert [VARIANTS[variant].enemy_budget(level) for level in range(1, 6)] == BUDGETS[variant]


def npc_world(variant: str, **proto: Any) -> World:
    raw = ladder_world([1], [material("obj_fang", ["area_0"]), material("obj_hide", [])], [
        enemy("npc_beast", objects=["obj_fang", "obj_hide", "obj_hide"], base_hp=30, slope_hp=7,
              base_attack_power=4, slope_attack_power=3, **proto),
    ])  # fmt: skip
    return World(build(raw, variant), "area_spawn")


@pytest.mark.parametrize("variant", SYNTHESIS_VARIANTS)
@pytest.mark.parametrize("level", [1, 2, 4])
def test_loot_counts_per_variant(variant: str, level: int) -> None:
    """Each item's count is drawn from 0..m x level (m = 2 base, 1 remnant/mark); a 0 keeps the
    prototype's count (1 fang, 2 hides). Health, attack and coins are the same in every
    variant."""
    world = npc_world(variant)
    proto = world.npc_protos["npc_beast"]
    most = VARIANTS[variant].loot_per_level * level
    rng, trials = random.Random(level), 600
    fangs, coins = Counter(), []
    for i in range(trials):
        npc = create_npc(world, proto, i, level, rng)
        assert (npc.max_hp, npc.attack_power) == (30 + 7 * (level - 1), 4 + 3 * (level - 1))
        fangs[npc.inventory["obj_fang"]] += 1
        assert 1 <= npc.inventory["obj_hide"] <= max(most, 2)
        coins.append(npc.coins)
    assert (min(coins), max(coins)) == (20 * level, 50 * level)
    assert set(fangs) == set(range(1, most + 1))  # 0 shows as the prototype's 1
    p_one = 2 / (most + 1)  # a 0 or a 1
    assert abs(fangs[1] - trials * p_one) <= 4 * math.sqrt(trials * p_one * (1 - p_one))


@pytest.mark.parametrize(
    ("variant", "given", "expected"),
    [
        ("base", None, ("attack", "defend", "attack", "wait")),
        ("quarantine", None, ("attack", "defend", "attack", "wait")),
        ("base", [], ()),
        ("remnant", None, OLDER_ENEMY_PATTERN),
        ("remnant", [], OLDER_ENEMY_PATTERN),
        ("mark", None, ("attack", "attack", "wait", "defend")),
        ("mark", [], ("attack", "attack", "wait", "defend")),
        ("mark", ["wait", "attack"], ("wait", "attack")),
        ("base", ["wait", "attack"], ("wait", "attack")),
    ],
)
def test_default_enemy_rhythm_per_variant(variant: str, given: Any, expected: tuple) -> None:
    proto = {} if given is None else {"combat_pattern": given}
    world = npc_world(variant, **proto)
    npc = create_npc(world, world.npc_protos["npc_beast"], 0, 1, random.Random(0))
    assert npc.combat_pattern == expected


@pytest.mark.parametrize("variant", SYNTHESIS_VARIANTS)
def test_a_friend_has_no_rhythm_and_dialogue_is_kept(variant: str) -> None:
    raw = ladder_world([1], [], [{"type": "npc", "id": "npc_sage", "name": "sage",
                                  "role": "elder", "dialogue": "Mind the bridge."}])  # fmt: skip
    world = World.generate(build(raw, variant), 3)
    sage = world.npcs["npc_sage"]
    assert sage.combat_pattern == () and sage.dialogue == "Mind the bridge."


@pytest.mark.parametrize(("variant", "counted"), [("base", 0), ("remnant", 0), ("mark", 1)])
def test_a_unique_spawn_npc_keeps_its_id_and_mark_counts_it(variant: str, counted: int) -> None:
    raw = ladder_world(
        [1], [], [{"type": "npc", "id": "npc_sage", "name": "sage", "role": "elder"}]
    )
    raw["initializations"]["spawn"]["npcs"] = {"npc_sage": 1}
    world = World.generate(build(raw, variant), 0)
    assert list(world.areas["area_spawn"].npcs) == ["npc_sage"]
    assert world.npc_count["npc_sage"] == counted


def test_npcs_created_later_follow_the_variant_even_after_a_reload(
    tiny_raw: dict[str, Any],
) -> None:
    """Rules call create_npc with default options: the world's variant decides (remnant: loot up
    to the level), and a world rebuilt from its saved data keeps it."""
    world = World.generate(build(tiny_raw, "remnant"), 5)
    loaded = World.from_dict(world.to_dict())
    assert (world.synthesis, loaded.synthesis) == ("remnant", "remnant")
    proto = world.npc_protos["npc_wasp"]
    for i in range(200):
        a = create_npc(world, proto, i, 3, random.Random(i), SynthesisOptions())
        b = create_npc(loaded, proto, i, 3, random.Random(i), SynthesisOptions())
        assert a == b and a.inventory["obj_pear"] <= 3
        assert a.combat_pattern == OLDER_ENEMY_PATTERN
    assert World.generate(build(tiny_raw, None), 5).synthesis == "base"


def test_a_saved_game_comes_back_with_its_variant(tiny_raw: dict[str, Any], tmp_path: Any) -> None:
    """The variant travels with the definition a snapshot stores: a loaded game's world creates
    NPCs as the saved one does."""
    from agentodyssey_pz.engine.game import Game

    game = Game(build(tiny_raw, "mark"), 1)
    game.reset(seed=11)
    game.save(tmp_path / "game.json")
    loaded = Game.load(tmp_path / "game.json")
    assert loaded.world.synthesis == "mark"
    assert loaded.world.to_dict() == game.world.to_dict()
    proto = game.world.npc_protos["npc_wasp"]
    made = [create_npc(w, proto, 0, 4, random.Random(2)) for w in (game.world, loaded.world)]
    assert made[0] == made[1] and made[0].inventory["obj_pear"] <= 4
