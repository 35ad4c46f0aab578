"""`soundscape_pressure_step`, `wandering_patrols_step` and `enemy_respawn_step` of the
`living_world` pack: noise from events, scouts and hush caches; roaming enemies and merchants;
enemies coming back.

Draws are checked against a copy of the game's generator; chances are also checked statistically
(4.5 standard deviations: a correct rule falls outside with probability < 1e-5, with fixed seeds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from harness import agent, move_to
from living_helper import (
    CRYPT,
    GREEN,
    KING,
    KNOLL,
    MIRE,
    MOUND,
    REEDS,
    STALLS,
    THIEF,
    TINKER,
    WELL,
    WOLF,
    events_of,
    living_definition,
    mirror,
    npc,
    rule,
    stage,
    step,
    with_events,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc

SOUND = "soundscape_pressure_step"
PATROLS = "wandering_patrols_step"
RESPAWN = "enemy_respawn_step"
SIGMAS = 4.5
AREAS = [GREEN, STALLS, WELL, REEDS, MIRE, KNOLL, MOUND, CRYPT]


def seed_where(test: Callable[[random.Random], bool]) -> int:
    return next(s for s in range(100_000) if test(random.Random(s)))


def sounds(game: Game) -> dict:
    return game.world.auxiliary["soundscape"]


def set_noise(game: Game, noise: dict[str, float], quiet: dict[str, int] | None = None) -> None:
    """Every area at 1.0 (neither loud nor quiet) unless given."""
    game.world.auxiliary["soundscape"] = {
        "noise": {a: noise.get(a, 1.0) for a in AREAS},
        "quiet_steps": {a: (quiet or {}).get(a, 0) for a in AREAS},
        "loud_flags": {},
    }


def assert_binomial(hits: int, trials: int, p: float) -> None:
    mean, sd = trials * p, math.sqrt(trials * p * (1 - p))
    assert abs(hits - mean) <= SIGMAS * sd, (hits, mean, sd)


# ----------------------------------------------------------------------------------- the noise
EVENTS = [
    ("npc_killed", {"area_id": REEDS}), ("agent_defeated_in_combat", {"area_id": REEDS}),
    ("agent_damaged", {"area_id": MIRE}), ("npc_hit_by_thrown", {"area_id": MIRE}),
    ("enemy_entered_area", {"area_id": MIRE}), ("enemy_respawned", {"area_id": MIRE}),
    ("dawn_coins_spawned", {"area_id": MIRE}),
    ("object_crafted", {"area_id": KNOLL}), ("object_bought", {"area_id": KNOLL}),
    ("merchant_arrived", {"area_id": KNOLL}), ("object_shattered", {"area_id": KNOLL}),
    ("path_unlocked", {"from_area": STALLS, "to_area": WELL}),
    ("npc_moved", {"from_area": STALLS, "to_area": MOUND}),
    ("object_sold", {"area_id": CRYPT}), ("object_thrown", {"area_id": CRYPT}),
    ("object_dropped", {"area_id": GREEN, "obj_id": "obj_reed"}),
    ("object_picked_up", {"area_id": GREEN}), ("object_discarded", {"area_id": GREEN}),
    ("object_taken_out", {"area_id": GREEN}), ("object_stored", {"area_id": GREEN}),
    ("object_landed", {"area_id": GREEN}),
    ("area_entered", {"from_area": KNOLL, "to_area": WELL}),
    ("noise_made", {"area_id": CRYPT}), ("npc_talked_to", {"area_id": CRYPT}),  # silent
]  # fmt: skip
HEARD = {
    REEDS: 3.0,
    MIRE: 5.0,
    KNOLL: 3.2,
    STALLS: 1.5,
    WELL: 1.0,
    MOUND: 0.7,
    CRYPT: 1.0,
    GREEN: 1.8,
}


def test_each_event_adds_its_noise_to_its_areas() -> None:
    game = stage(at=GREEN)
    res = step(game, SOUND, with_events(game, *[(t, "agent_0", d) for t, d in EVENTS]))
    assert sounds(game)["noise"] == pytest.approx(HEARD)
    assert list(sounds(game)["noise"]) == AREAS  # world order
    assert events_of(res, "area_noise_changed") == [
        {"area_id": a, "noise": round(HEARD[a], 2)} for a in AREAS
    ]
    assert sounds(game)["quiet_steps"] == dict.fromkeys(AREAS, 0)
    assert sounds(game)["loud_flags"] == dict.fromkeys(AREAS, False)


@pytest.mark.parametrize(("factor", "before", "after"), [(1.0, 3.0, 3.6), (1.5, 3.0, 5.1)])
def test_noise_carries_over_by_the_decay_factor(factor: float, before: float, after: float) -> None:
    game = stage(world=living_definition(rule_settings={SOUND: {"decay_factor": factor}}))
    set_noise(game, {REEDS: before})
    drop = ("object_dropped", "agent_0", {"obj_id": "obj_reed", "area_id": REEDS})
    step(game, SOUND, with_events(game, drop, drop))
    assert sounds(game)["noise"][REEDS] == pytest.approx(after)
    assert sounds(game)["noise"][MIRE] == (1.0 if factor == 1.0 else 1.5)


def test_noise_stays_within_0_and_12_and_small_changes_are_not_told() -> None:
    game = stage()
    set_noise(game, {REEDS: 11.97, MIRE: 0.0, WELL: 0.02})
    res = with_events(
        game,
        ("npc_killed", "agent_0", {"area_id": REEDS}),
        ("area_entered", "agent_0", {"to_area": WELL}),
    )
    step(game, SOUND, res)
    assert sounds(game)["noise"][REEDS] == 12.0
    assert sounds(game)["noise"][WELL] == pytest.approx(0.22)
    assert events_of(res, "area_noise_changed") == [
        {"area_id": WELL, "noise": 0.22}  # reeds moved by 0.03 only: not told
    ]


def test_a_quiet_note_silences_its_area() -> None:
    game = stage(at=REEDS)
    set_noise(game, {REEDS: 9.0})
    note = game.world.new_instance("obj_paper")
    game.world.writables[note].text = "Please keep QUIET here"
    drop = ("object_dropped", "agent_0", {"obj_id": note, "area_id": REEDS})
    res = step(game, SOUND, with_events(game, drop))
    assert sounds(game)["noise"][REEDS] == 0.0
    assert events_of(res, "area_noise_changed") == [{"area_id": REEDS, "noise": 0.0}]
    assert res.feedback_keys("agent_0") == ["soundscape.silenced"]
    assert sounds(game)["quiet_steps"][REEDS] == 1 and not sounds(game)["loud_flags"][REEDS]


def test_areas_gone_leave_the_tables() -> None:
    game = stage()
    set_noise(game, {})
    sounds(game)["noise"]["area_tutorial_room"] = 0.0
    sounds(game)["quiet_steps"]["area_tutorial_room"] = 9
    step(game, SOUND)
    assert list(sounds(game)["noise"]) == list(sounds(game)["quiet_steps"]) == AREAS


# ------------------------------------------------------------------------------------- scouts
def test_a_loud_area_may_draw_a_scout_at_half_hp_and_a_third_of_the_attack() -> None:
    game = stage(agents=2, at=MIRE)
    move_to(game, "agent_1", GREEN)
    set_noise(game, {MIRE: 8.0})
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.0}
    game.rng.seed(seed_where(lambda r: r.random() < 0.03))
    index = game.world.npc_count[WOLF]
    res = step(game, SOUND)
    (spawned,) = events_of(res, "echo_scout_spawned")
    scout = game.world.npcs[spawned["npc_id"]]
    assert spawned == {"npc_id": f"{WOLF}_{index}", "area_id": MIRE}
    assert game.world.npc_count[WOLF] == index + 1
    assert scout.level == 3 and scout.area_id == MIRE
    assert scout.hp == scout.max_hp == (30 + 10 * 2) // 2  # level 3: 50 HP, halved
    assert scout.attack_power == int((8 + 4 * 2) * 0.3)  # 16 -> 4
    assert res.feedback_keys("agent_0") == ["soundscape.scout"]
    assert res.feedback_keys("agent_1") == []
    assert sounds(game)["loud_flags"][MIRE] is True
    bag = game.world.auxiliary["modifier_bag"]["ambush_prob_additive"]
    assert bag == pytest.approx(0.05)  # an agent stands in a loud area


@pytest.mark.parametrize(("chance", "settings"), [(0.03, {}), (0.01, {"scout_chance": 0.01})])
def test_scouts_come_at_the_set_chance(chance: float, settings: dict) -> None:
    game = stage(world=living_definition(rule_settings={SOUND: settings}))
    trials, scouts = 6000, 0
    for seed in range(trials):
        game.rng.seed(seed)
        set_noise(game, {MIRE: 12.0})
        scouts += len(events_of(step(game, SOUND), "echo_scout_spawned"))
    assert_binomial(scouts, trials, chance)


# ---------------------------------------------------------------------------------- hush caches
def test_a_hushed_area_may_give_up_a_coin_or_a_low_material() -> None:
    game = stage(at=KNOLL)
    outcomes = set()
    for seed in range(300):
        game.rng.seed(seed)
        game.world.areas[KNOLL].objects.clear()
        set_noise(game, {KNOLL: 0.0}, {KNOLL: 3})  # the 4th quiet tick
        game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.0}
        draws = mirror(game)
        cache = draws.random() < 0.18
        found = None
        if cache:
            found = "obj_coin" if draws.random() < 0.5 else draws.choice(["obj_grain", "obj_peat"])
        res = step(game, SOUND)
        bag = game.world.auxiliary["modifier_bag"]["ambush_prob_additive"]
        assert bag == pytest.approx(-0.05)  # an agent stands in a hush-ready area
        if cache:
            assert events_of(res, "hush_cache_spawned") == [{"area_id": KNOLL, "items": {found: 1}}]
            assert game.world.areas[KNOLL].objects == {found: 1}
            assert sounds(game)["quiet_steps"][KNOLL] == 0
            assert res.feedback_keys("agent_0") == ["soundscape.hush_cache"]
            outcomes.add(found)
        else:
            assert events_of(res, "hush_cache_spawned") == []
            assert sounds(game)["quiet_steps"][KNOLL] == 4
        assert mirror(game).getstate() == draws.getstate()
    assert outcomes == {"obj_coin", "obj_grain", "obj_peat"}


def test_an_area_without_low_materials_gives_a_coin() -> None:
    game = stage(at=GREEN)
    game.rng.seed(seed_where(lambda r: r.random() < 0.18 and r.random() >= 0.5))
    set_noise(game, {CRYPT: 0.0}, {CRYPT: 10})
    step(game, SOUND)
    assert game.world.areas[CRYPT].objects == {"obj_coin": 1}


@pytest.mark.parametrize(("hush_after", "quiet_before", "ready"), [(4, 2, False), (2, 1, True)])
def test_hush_needs_enough_quiet_ticks(hush_after: int, quiet_before: int, ready: bool) -> None:
    settings = {SOUND: {"hush_after": hush_after}}
    game = stage(at=KNOLL, world=living_definition(rule_settings=settings))
    set_noise(game, {KNOLL: 0.0}, {KNOLL: quiet_before})
    draws = mirror(game)
    step(game, SOUND)
    assert (mirror(game).getstate() != draws.getstate()) is ready
    bag = game.world.auxiliary.get("modifier_bag", {}).get("ambush_prob_additive", 0.0)
    assert bag == pytest.approx(-0.05 if ready else 0.0)


def test_hush_caches_wait_for_the_tutorial_phase_and_rooms_are_skipped() -> None:
    game = stage(at=KNOLL)
    game.world.auxiliary["tutorial_room"] = {"place_id": "place_barrow", "rooms": {"x": {}}}
    set_noise(game, {KNOLL: 0.0, MOUND: 12.0, CRYPT: 12.0}, {KNOLL: 9})
    state = game.rng.getstate()
    res = step(game, SOUND)
    assert game.rng.getstate() == state  # no hush draw, and the "rooms" (barrow) draw nothing
    assert events_of(res, "echo_scout_spawned") == events_of(res, "hush_cache_spawned") == []
    assert MOUND not in sounds(game)["loud_flags"]


# ------------------------------------------------------------------------------------ patrols
def test_a_roaming_enemy_moves_one_time_in_sixteen() -> None:
    game = stage(at=GREEN)
    trials, moves = 4000, 0
    for seed in range(trials):
        game.rng.seed(seed)
        wolf = npc(game, WOLF, REEDS)
        moves += len(events_of(step(game, PATROLS), "npc_moved"))
        game.world.remove_npc_from_map(wolf.id)
    assert_binomial(moves, trials, 0.0625)


def test_who_may_wander() -> None:
    game = stage(at=GREEN)
    wanderers = [npc(game, WOLF, REEDS), npc(game, TINKER, REEDS)]
    fighting = npc(game, WOLF, REEDS)
    agent(game).combats[fighting.id] = Engagement(0, REEDS)
    npc(game, KING, REEDS)  # unique
    npc(game, WOLF, REEDS, quest=True)
    npc(game, WOLF, REEDS, owner="agent_0")  # someone's personal NPC
    npc(game, WOLF, REEDS, enemy=False, role="villager")
    draws = random.Random()
    for seed in range(200):
        game.rng.seed(seed)
        draws.setstate(game.rng.getstate())
        drew = [draws.random() for _ in wanderers]
        res = step(game, PATROLS)
        moved = {e["npc_id"] for e in events_of(res, "npc_moved")}
        assert moved <= {w.id for w in wanderers}
        if all(d > 0.0625 for d in drew):
            assert mirror(game).getstate() == draws.getstate()  # one draw per wanderer
        for w in wanderers:  # back home for the next try
            game.world.place_npc(w.id, REEDS)


def test_a_mover_goes_where_there_is_room_and_is_announced() -> None:
    """From reeds: stalls (level 2) is full with two non-unique NPCs, mire (3) has room,
    knoll (2) has room; the unique widow does not count."""
    game = stage(agents=3, at=REEDS)
    move_to(game, "agent_1", MIRE)
    move_to(game, "agent_2", KNOLL)
    npc(game, THIEF, STALLS, quest=True)  # quest NPCs stay put, but take room
    npc(game, THIEF, STALLS, quest=True)
    npc(game, "npc_widow_marsh", KNOLL)
    npc(game, THIEF, KNOLL, quest=True)
    wolf = npc(game, WOLF, REEDS)
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.1}
    game.rng.seed(seed_where(lambda r: r.random() <= 0.0625))
    draws = mirror(game)
    draws.random()
    there = draws.choice([MIRE, KNOLL])
    res = step(game, PATROLS)
    moved = {"npc_id": wolf.id, "from_area": REEDS, "to_area": there}
    assert events_of(res, "npc_moved") == [moved]
    assert events_of(res, "enemy_entered_area") == [{"npc_id": wolf.id, "area_id": there}]
    assert wolf.area_id == there and wolf.id in game.world.areas[there].npcs
    assert game.world.auxiliary["modifier_bag"]["ambush_prob_additive"] == pytest.approx(0.15)
    assert res.feedback_keys("agent_0") == ["patrol.left"]
    arrived = "agent_1" if there == MIRE else "agent_2"
    assert res.feedback_keys(arrived) == ["patrol.enemy"]
    assert mirror(game).getstate() == draws.getstate()


def test_no_way_out_no_move_and_locked_paths_stay_shut() -> None:
    game = stage(at=GREEN)
    wolf = npc(game, WOLF, MOUND)  # mound: knoll (locked) and crypt (locked)
    for seed in range(300):
        game.rng.seed(seed)
        assert events_of(step(game, PATROLS), "npc_moved") == []
    assert wolf.area_id == MOUND


def test_a_travelling_merchant_restocks_where_it_arrives() -> None:
    game = stage(at=KNOLL)
    tinker = npc(game, TINKER, REEDS, inventory={"obj_flint": 1, "obj_paper": 0})
    game.world.graph.set_locked(KNOLL, REEDS, False)
    game.rng.seed(seed_where(lambda r: r.random() <= 0.0625))
    draws = mirror(game)
    draws.random()
    there = draws.choice([STALLS, MIRE, KNOLL])
    restocked: dict[str, int] = {}
    for _ in range(draws.randint(1, 2)):
        good = draws.choice(["obj_flint", "obj_paper"])
        restocked[good] = restocked.get(good, 0) + draws.randint(1, 2)
    res = step(game, PATROLS)
    assert events_of(res, "merchant_arrived") == [
        {"npc_id": tinker.id, "area_id": there, "restocked": restocked}
    ]
    assert tinker.inventory == {
        "obj_flint": 1 + restocked.get("obj_flint", 0), "obj_paper": restocked.get("obj_paper", 0)
    }  # fmt: skip
    assert events_of(res, "enemy_entered_area") == []
    assert "modifier_bag" not in game.world.auxiliary
    assert mirror(game).getstate() == draws.getstate()


def test_a_merchant_without_stock_restocks_from_every_non_quest_object() -> None:
    game = stage(at=GREEN)
    goods = set()
    for seed in range(3000):
        game.rng.seed(seed)
        tinker = npc(game, TINKER, REEDS, inventory={})
        for e in events_of(step(game, PATROLS), "merchant_arrived"):
            goods |= set(e["restocked"])
        game.world.remove_npc_from_map(tinker.id)
    quest = {o.id for o in game.world.objects.values() if o.quest}
    assert goods and not goods & quest
    assert goods <= set(game.world.objects)


# ------------------------------------------------------------------------------------ respawn
def test_enemies_come_back_to_empty_areas_on_schedule() -> None:
    game = stage(at=GREEN, tick=100)
    draws = mirror(game)
    first = 100 + draws.randint(25, 45)
    assert step(game, RESPAWN).events == []
    assert game.world.auxiliary["enemy_respawn"] == {
        "interval_min": 25, "interval_max": 45, "next_step": first
    }  # fmt: skip
    npc(game, THIEF, REEDS)
    npc(game, KING, CRYPT)
    game.tick_index = first
    candidates = [STALLS, WELL, MIRE, KNOLL, MOUND]  # not the spawn, not where enemies are
    draws.shuffle(candidates)
    chosen = []
    for area in candidates[: draws.randint(1, 3)]:
        proto = draws.choice([WOLF, THIEF])
        level = game.world.areas[area].level
        create_npc(game.world, game.world.npc_protos[proto], 0, level, draws, SynthesisOptions())
        chosen.append((area, proto))  # (its coins and loot are drawn before the next choice)
    counts = dict(game.world.npc_count)
    res = step(game, RESPAWN)
    spawned = events_of(res, "enemy_respawned")
    assert [e["area_id"] for e in spawned] == [a for a, _ in chosen]
    for (area, proto), event in zip(chosen, spawned, strict=True):
        made = game.world.npcs[event["npc_id"]]
        assert made.def_id == proto and made.area_id == area
        assert made.level == game.world.areas[area].level
        assert event["npc_id"] == f"{proto}_{counts[proto]}"
        counts[proto] += 1
    later = game.world.auxiliary["enemy_respawn"]["next_step"]
    assert later == first + draws.randint(25, 45)
    assert mirror(game).getstate() == draws.getstate()


def test_the_interval_is_a_setting() -> None:
    settings = {RESPAWN: {"interval_min": 35, "interval_max": 50}}
    game = stage(world=living_definition(rule_settings=settings), tick=0)
    seen = set()
    for seed in range(500):
        game.rng.seed(seed)
        game.world.auxiliary.pop("enemy_respawn", None)
        step(game, RESPAWN)
        seen.add(game.world.auxiliary["enemy_respawn"]["next_step"])
    assert seen == set(range(35, 51))


def test_up_to_three_areas_a_wave() -> None:
    game = stage(at=GREEN, tick=100)
    sizes = set()
    for seed in range(300):
        game.rng.seed(seed)
        for npc_id in list(game.world.npcs):
            game.world.remove_npc_from_map(npc_id)
        game.world.auxiliary["enemy_respawn"] = {"interval_min": 25, "interval_max": 45,
                                                 "next_step": 100}  # fmt: skip
        sizes.add(len(events_of(step(game, RESPAWN), "enemy_respawned")))
    assert sizes == {1, 2, 3}


def test_no_candidates_only_reschedule_and_no_respawn_during_the_tutorial() -> None:
    game = stage(at=GREEN, tick=100)
    for area in AREAS[1:]:
        npc(game, WOLF, area)
    game.world.auxiliary["enemy_respawn"] = {"interval_min": 25, "interval_max": 45,
                                             "next_step": 100}  # fmt: skip
    draws = mirror(game)
    assert step(game, RESPAWN).events == []
    assert game.world.auxiliary["enemy_respawn"]["next_step"] == 100 + draws.randint(25, 45)
    game.world.auxiliary["tutorial_room"] = {"place_id": None, "rooms": {"x": {}}}
    game.world.auxiliary.pop("enemy_respawn")
    step(game, RESPAWN)
    assert "enemy_respawn" not in game.world.auxiliary
    assert rule(game, RESPAWN).settings == {"interval_min": 25, "interval_max": 45}
