"""`food_respawn_step`, `forgotten_caches_step` and `carrion_scavengers_step` of the
`living_world` pack: waves of food every 25 ticks, caches in areas left alone, and the scavengers'
interest that never turns into a raid.

Draws are checked against a copy of the game's generator; chances are also checked statistically
(4.5 standard deviations: a correct rule falls outside with probability < 1e-5, with fixed seeds).
"""

from __future__ import annotations

import math
import random

import attrs
import pytest
from harness import agent, move_to, put_on_ground
from living_helper import (
    GREEN,
    KNOLL,
    MIRE,
    MOUND,
    REEDS,
    STALLS,
    WELL,
    WIDOW,
    WOLF,
    events_of,
    mirror,
    npc,
    stage,
    step,
    with_events,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.schema import ObjectDef

FOOD = "food_respawn_step"
CACHES = "forgotten_caches_step"
SCAVENGERS = "carrion_scavengers_step"
SIGMAS = 4.5


def fake_tutorial(game: Game) -> None:
    game.world.auxiliary["tutorial_room"] = {"place_id": None, "rooms": {"agent_x": {}}}


# ----------------------------------------------------------------------------------- food
def test_a_wave_every_25_ticks_with_0_to_4_units_per_food_and_area() -> None:
    game = stage(agents=2, at=STALLS, tick=10)
    move_to(game, "agent_1", MOUND)
    draws = mirror(game)
    # apple: reeds, stalls, knoll; bread: stalls; stew grows nowhere.
    expected = [(REEDS, "obj_apple"), (STALLS, "obj_apple"), (KNOLL, "obj_apple")]
    expected.append((STALLS, "obj_bread"))
    units = [draws.randint(0, 4) for _ in expected]
    res = step(game, FOOD)
    grounds: dict[str, dict[str, int]] = {}
    for (area, food), n in zip(expected, units, strict=True):
        if n:
            grounds.setdefault(area, {})[food] = n
    for area in (REEDS, STALLS, KNOLL):
        assert game.world.areas[area].objects == grounds.get(area, {})
    assert events_of(res, "food_respawned") == [{"areas": list(grounds)}]
    assert res.feedback_keys("agent_0") == (["food.respawned"] if STALLS in grounds else [])
    assert res.feedback_keys("agent_1") == []
    assert game.world.auxiliary["food_respawn"] == {"next_step": 35}
    assert mirror(game).getstate() == draws.getstate()
    for tick in range(11, 35):  # nothing until the next wave
        game.tick_index = tick
        state = game.rng.getstate()
        assert step(game, FOOD).events == []
        assert game.rng.getstate() == state
    game.tick_index = 35
    step(game, FOOD)
    assert game.world.auxiliary["food_respawn"] == {"next_step": 60}


def empty_wave(seed: int) -> bool:
    """The test world's four (food, area) draws are all 0 with this seed."""
    draws = random.Random(seed)
    return all(draws.randint(0, 4) == 0 for _ in range(4))


def test_units_run_from_0_to_4_and_empty_waves_say_nothing() -> None:
    game = stage(tick=0)
    seen: set[int] = set()
    for seed in range(300):
        game.rng.seed(seed)
        game.world.auxiliary["food_respawn"] = {"next_step": 0}
        step(game, FOOD)
        seen |= {n for a in game.world.areas.values() for n in a.objects.values()}
        for area in game.world.areas.values():
            area.objects.clear()
    assert seen == {1, 2, 3, 4}
    empty = next(s for s in range(10_000) if empty_wave(s))
    game.rng.seed(empty)
    game.world.auxiliary["food_respawn"] = {"next_step": 0}
    res = step(game, FOOD)
    assert res.events == [] and res.feedback_keys("agent_0") == []
    assert game.world.auxiliary["food_respawn"] == {"next_step": 25}


def test_areas_no_world_has_are_skipped() -> None:
    game = stage(tick=0)
    eel = ObjectDef(id="obj_eel", name="eel", category="food", usage="consume", size=1)
    game.world.add_object_def(attrs.evolve(eel, areas=("area_gone", WELL)))
    draws = mirror(game)
    units = [draws.randint(0, 4) for _ in range(5)]  # 4 as before, then the eel's well only
    step(game, FOOD)
    assert game.world.areas[WELL].objects == ({"obj_eel": units[4]} if units[4] else {})


def test_no_food_during_the_tutorial_phase() -> None:
    game = stage(tick=0)
    fake_tutorial(game)
    state = game.rng.getstate()
    assert step(game, FOOD).events == []
    assert game.rng.getstate() == state and "food_respawn" not in game.world.auxiliary


# ----------------------------------------------------------------------------------- caches
def caches(game: Game) -> dict:
    return game.world.auxiliary["forgotten_caches"]


def test_a_first_visit_draws_a_threshold_and_presence_keeps_the_area_fresh() -> None:
    game = stage(agents=2, at=REEDS)
    move_to(game, "agent_1", GREEN)  # the spawn area has no caches
    draws = mirror(game)
    step(game, CACHES)
    assert caches(game) == {
        "idle_steps": {REEDS: 0}, "thresholds": {REEDS: draws.randint(35, 50)},
        "last_spawn_step": {},
    }  # fmt: skip
    assert mirror(game).getstate() == draws.getstate()
    caches(game)["idle_steps"][REEDS] = 20
    step(game, CACHES)
    assert caches(game)["idle_steps"] == {REEDS: 0}


def test_thresholds_run_from_35_to_50() -> None:
    game = stage(at=REEDS)
    seen = set()
    for seed in range(400):
        game.rng.seed(seed)
        game.world.auxiliary.pop("forgotten_caches", None)
        step(game, CACHES)
        seen.add(caches(game)["thresholds"][REEDS])
    assert seen == set(range(35, 51))


@pytest.mark.parametrize(
    ("area", "enemy", "gain"),
    [(REEDS, False, 2), (WELL, False, 1), (REEDS, True, 1), (WELL, True, 0), (MIRE, False, 1)],
)
def test_idle_areas_count_by_light_and_enemies(area: str, enemy: bool, gain: int) -> None:
    game = stage(at=GREEN)
    if enemy:
        npc(game, WOLF, area)
    game.world.auxiliary["forgotten_caches"] = {
        "idle_steps": {area: 5}, "thresholds": {area: 40}, "last_spawn_step": {}
    }  # fmt: skip
    state = game.rng.getstate()
    step(game, CACHES)
    assert caches(game)["idle_steps"] == {area: 5 + gain}
    assert game.rng.getstate() == state  # below the threshold: no draw


def at_threshold(game: Game, *areas: str) -> None:
    game.world.auxiliary["forgotten_caches"] = {
        "idle_steps": dict.fromkeys(areas, 39), "thresholds": dict.fromkeys(areas, 40),
        "last_spawn_step": {},
    }  # fmt: skip


def expected_spills(game: Game) -> dict[str, tuple[dict[str, int], int]] | None:
    """What reeds and mire spill with the game's next draws (None if either is called off)."""
    draws = mirror(game)
    expected = {}
    for area, (low, high), pool in (
        (REEDS, (1, 3), ["obj_grain", "obj_reed"]),
        (MIRE, (2, 3), ["obj_reed", "obj_peat", "obj_bog_iron", "obj_eel_skin"]),
    ):
        if draws.random() > 0.7:
            return None
        items: dict[str, int] = {}
        for _ in range(draws.randint(low, high)):
            oid = draws.choice(pool)
            items[oid] = items.get(oid, 0) + 1
        expected[area] = (items, draws.randint(35, 50))
    return expected


def test_a_cache_spills_k_finds_of_the_areas_materials() -> None:
    """Mire (level 3, dark: +1 reaches 40): 2-3 finds among reed, peat, bog_iron, eel_skin (the
    relic is a quest object); reeds (level 1, lit): 1-3 among grain and reed. World order."""
    game = stage(at=GREEN, tick=77)
    checked = 0
    for seed in range(30):
        game.rng.seed(seed)
        for area in game.world.areas.values():
            area.objects.clear()
        at_threshold(game, REEDS, MIRE)
        caches(game)["idle_steps"][REEDS] = 38  # lit: +2
        expected = expected_spills(game)
        if expected is None:
            continue
        checked += 1
        res = step(game, CACHES)
        assert events_of(res, "area_forage_spawned") == [
            {"area_id": a, "items": items} for a, (items, _) in expected.items()
        ]
        for area, (items, threshold) in expected.items():
            assert game.world.areas[area].objects == items
            assert caches(game)["thresholds"][area] == threshold
            assert caches(game)["idle_steps"][area] == 0
            assert caches(game)["last_spawn_step"][area] == 77
    assert checked >= 10


def test_three_in_ten_caches_are_called_off() -> None:
    game = stage(at=GREEN)
    trials, spilled = 4000, 0
    for seed in range(trials):
        game.rng.seed(seed)
        at_threshold(game, MIRE)
        draws = mirror(game)
        off = draws.random() > 0.7
        res = step(game, CACHES)
        spilled += bool(events_of(res, "area_forage_spawned"))
        assert bool(events_of(res, "area_forage_spawned")) is not off
        if off:
            assert caches(game)["idle_steps"][MIRE] == 0
            assert caches(game)["thresholds"][MIRE] == draws.randint(35, 50)
            assert caches(game)["last_spawn_step"] == {}
    mean, sd = trials * 0.7, math.sqrt(trials * 0.7 * 0.3)
    assert abs(spilled - mean) <= SIGMAS * sd


def test_a_merchant_adds_a_material_or_tool_one_time_in_four() -> None:
    game = stage(at=GREEN)
    npc(game, WIDOW, STALLS)
    trials, spills, extras = 4000, 0, 0
    stalls_finds = ["obj_reed", "obj_peat", "obj_eel_skin"]  # grave dust: undistributable
    stalls_extras = ["obj_reed", "obj_peat", "obj_eel_skin", "obj_flint"]
    for seed in range(trials):
        game.rng.seed(seed)
        game.world.areas[STALLS].objects.clear()
        at_threshold(game, STALLS)
        caches(game)["idle_steps"][STALLS] = 38
        draws = mirror(game)
        if draws.random() > 0.7:
            continue
        spills += 1
        items: dict[str, int] = {}
        for _ in range(draws.randint(1, 3)):
            oid = draws.choice(stalls_finds)
            items[oid] = items.get(oid, 0) + 1
        if draws.random() < 0.25:
            oid = draws.choice(stalls_extras)
            items[oid] = items.get(oid, 0) + 1
            extras += 1
        step(game, CACHES)
        assert game.world.areas[STALLS].objects == items
    mean, sd = spills * 0.25, math.sqrt(spills * 0.25 * 0.75)
    assert abs(extras - mean) <= SIGMAS * sd


def test_unvisited_areas_and_tutorial_rooms_are_left_alone() -> None:
    game = stage(at=GREEN)
    state = game.rng.getstate()
    step(game, CACHES)
    assert caches(game) == {"idle_steps": {}, "thresholds": {}, "last_spawn_step": {}}
    assert game.rng.getstate() == state
    game.world.auxiliary["tutorial_room"] = {"place_id": "place_barrow", "rooms": {}}
    move_to(game, "agent_0", MOUND)  # a stand-in tutorial room
    step(game, CACHES)
    assert caches(game)["thresholds"] == {} and agent(game).area_id == MOUND


# -------------------------------------------------------------------------------- scavengers
def test_scavengers_gather_interest_and_never_act() -> None:
    game = stage(at=GREEN, tick=100)
    put_on_ground(game, REEDS, "obj_rope")  # valued
    put_on_ground(game, WELL, "obj_coin", 9)  # the currency: not valued
    put_on_ground(game, STALLS, "obj_relic")  # a quest object: not valued
    put_on_ground(game, KNOLL, "obj_workbench")  # no value
    before = {a: dict(x.objects) for a, x in game.world.areas.items()}
    state = game.rng.getstate()
    res = with_events(
        game,
        ("npc_killed", "agent_0", {"npc_id": "npc_fen_wolf_0", "area_id": REEDS}),
        ("agent_defeated_in_combat", "agent_0", {"npc_id": "npc_fen_wolf_1", "area_id": MIRE}),
    )
    step(game, SCAVENGERS, res)
    # reeds: 0.3 for the kill, 0.1 for the rope; mire: its kill's 0.3, dropped (nothing lies there)
    assert game.world.auxiliary["scavengers"] == {
        "interest": {REEDS: pytest.approx(0.4)}, "last_touch": {REEDS: 100}
    }  # fmt: skip
    for tick in range(101, 112):
        game.tick_index = tick
        step(game, SCAVENGERS)
    assert game.world.auxiliary["scavengers"]["interest"] == {REEDS: 1.0}  # capped, no raid
    assert [e.type for e in res.events] == ["npc_killed", "agent_defeated_in_combat"]
    assert res.feedback_keys("agent_0") == []
    assert game.rng.getstate() == state
    assert {a: dict(x.objects) for a, x in game.world.areas.items()} == before
    game.world.areas[REEDS].objects.clear()
    step(game, SCAVENGERS)
    assert game.world.auxiliary["scavengers"] == {"interest": {}, "last_touch": {}}


def test_scavengers_forget_what_they_have_not_touched_for_18_ticks() -> None:
    game = stage(at=GREEN, tick=200)
    game.world.auxiliary["scavengers"] = {
        "interest": {"area_gone": 0.5, "area_recent": 0.5},
        "last_touch": {"area_gone": 181, "area_recent": 182},
    }
    step(game, SCAVENGERS)
    assert game.world.auxiliary["scavengers"] == {
        "interest": {"area_recent": 0.5}, "last_touch": {"area_recent": 182}
    }  # fmt: skip


def test_no_scavengers_during_the_tutorial_phase() -> None:
    game = stage(at=GREEN)
    fake_tutorial(game)
    step(game, SCAVENGERS)
    assert "scavengers" not in game.world.auxiliary
