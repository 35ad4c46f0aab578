"""`day_cycle_step` of the `living_world` pack (rules/living_world/day_cycle.py): the clock the
agents read, the period table and its bag values, period lines, dawn coins, the evening bonus, and
what the tutorial phase leaves out.

Every draw is checked against a copy of the game's generator; the evening bonus's chance is also
checked statistically (4.5 standard deviations: a correct rule falls outside with probability
< 1e-5, and the seeds are fixed, so the test is deterministic).
"""

from __future__ import annotations

import math

import pytest
from harness import agent, move_to
from living_helper import (
    GREEN,
    KNOLL,
    LIVING,
    MIRE,
    REEDS,
    STALLS,
    TINKER,
    WIDOW,
    events_of,
    living_definition,
    mirror,
    npc,
    stage,
    step,
    with_events,
)

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game

RULE = "day_cycle_step"
SIGMAS = 4.5
# (first slot of the day, period, bag) for each period: ten-minute slots since midnight.
PERIODS = [
    (0, "dangerous_night", {"ambush_prob_additive": 0.30, "ambush_prob_override": None,
                            "enemy_damage_multiplier": 1.3}),
    (6, "late_night", {"ambush_prob_additive": 0.0, "ambush_prob_override": None,
                       "enemy_damage_multiplier": 1.2}),
    (36, "dawn", {"ambush_prob_additive": 0.0, "ambush_prob_override": None,
                  "enemy_damage_multiplier": 1.0}),
    (42, "morning", {"ambush_prob_additive": 0.0, "ambush_prob_override": None,
                     "enemy_damage_multiplier": 1.0}),
    (72, "peaceful_midday", {"ambush_prob_additive": 0.0, "ambush_prob_override": 0.05,
                             "enemy_damage_multiplier": 0.8}),
    (78, "afternoon_calm", {"ambush_prob_additive": 0.0, "ambush_prob_override": None,
                            "enemy_damage_multiplier": 0.8}),
    (108, "evening_inspiration", {"ambush_prob_additive": 0.0, "ambush_prob_override": None,
                                  "enemy_damage_multiplier": 1.0}),
]  # fmt: skip


def tick_at(slot: int, day: int = 3) -> int:
    """The tick_index whose day-cycle clock reads `slot` of `day` (T = s + 49)."""
    return day * 144 + slot - 49


def period_of_slot(slot: int) -> str:
    return next(p for first, p, _ in reversed(PERIODS) if first <= slot)


def fake_tutorial(game: Game) -> None:
    """Some agent still has a tutorial room: the tutorial phase."""
    game.world.auxiliary["tutorial_room"] = {"place_id": None, "rooms": {"agent_x": {}}}


# ------------------------------------------------------------------------------------ the clock
def test_the_clock_is_the_one_the_agents_read() -> None:
    """T = s + 49 with the default clock: after every tick, the stored hour and ten-minute slot
    are those of the time the observation shows (08:10 after the first tick)."""
    game = Game(LIVING, 1)
    game.reset(0)
    info = game.world.auxiliary["day_cycle_info"]
    assert (info["day"], info["hour"], info["step_in_day"]) == (0, 8, 48)  # the bootstrap: 08:00
    for _ in range(300):
        game.tick({"agent_0": "wait"})
        now, s = game.time, game.tick_index - 1
        info = game.world.auxiliary["day_cycle_info"]
        assert info["step_in_day"] == (now.hour * 60 + now.minute) // 10 == (s + 49) % 144
        assert info["hour"] == now.hour == (s + 49) % 144 // 6
        start = game.config.start_datetime()
        assert info["day"] == (now.date() - start.date()).days == (s + 49) // 144
        assert info["period"] == game.world.auxiliary["day_cycle"]["current_period"]
        assert info["period"] == period_of_slot(info["step_in_day"])


def test_another_clock_counts_from_its_own_start() -> None:
    game = Game(LIVING, 1, GameConfig(start_time="0001-01-01 23:50:00"))
    game.reset(0)
    assert game.world.auxiliary["day_cycle_info"]["period"] == "evening_inspiration"
    game.tick({"agent_0": "wait"})  # midnight
    assert game.world.auxiliary["day_cycle_info"] == {
        "day": 1, "hour": 0, "step_in_day": 0, "period": "dangerous_night"
    }  # fmt: skip


# ------------------------------------------------------------------------------ periods and bag
@pytest.mark.parametrize("slot", range(144))
def test_every_slot_has_its_period_and_bag(slot: int) -> None:
    game = stage(tick=tick_at(slot))
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.5, "stale": 1}
    step(game, RULE)
    _, period, bag = next(p for p in reversed(PERIODS) if p[0] <= slot)
    assert period == period_of_slot(slot)
    assert game.world.auxiliary["day_cycle"]["current_period"] == period
    assert game.world.auxiliary["modifier_bag"] == bag  # rebuilt, not added to
    assert game.world.auxiliary["day_cycle_info"] == {
        "day": 3, "hour": slot // 6, "step_in_day": slot, "period": period
    }  # fmt: skip


def test_a_world_sets_the_dangerous_night_additive() -> None:
    """mark's value, through `features.rule_settings`."""
    settings = {RULE: {"dangerous_night_additive": 0.15}}
    game = stage(tick=tick_at(3), world=living_definition(rule_settings=settings))
    step(game, RULE)
    assert game.world.auxiliary["modifier_bag"] == {
        "ambush_prob_additive": 0.15, "ambush_prob_override": None, "enemy_damage_multiplier": 1.3
    }  # fmt: skip


# ----------------------------------------------------------------------------------- the lines
@pytest.mark.parametrize(("first", "period", "bag"), PERIODS)
def test_the_first_slot_of_a_period_tells_everyone(first: int, period: str, bag: dict) -> None:
    game = stage(agents=3)
    move_to(game, "agent_1", REEDS)
    previous = period_of_slot((first - 1) % 144)
    game.world.auxiliary["day_cycle"] = {"last_period": previous}
    game.tick_index = tick_at(first)
    res = step(game, RULE)
    told = [res.feedback_keys(a) for a in game.agents]
    if period == "dawn":
        assert told == [[], [], []]
    else:
        assert told == [["day_cycle.period"]] * 3
    assert game.world.auxiliary["day_cycle"]["last_period"] == period
    game.tick_index += 1  # the period goes on: no line
    if first + 1 < 144 and period_of_slot(first + 1) == period:
        assert step(game, RULE).feedback_keys("agent_0") == []


def test_morning_is_told_only_after_the_night_or_dawn() -> None:
    game = stage()
    game.world.auxiliary["day_cycle"] = {"last_period": "evening_inspiration"}
    game.tick_index = tick_at(42)
    assert step(game, RULE).feedback_keys("agent_0") == []
    assert game.world.auxiliary["day_cycle"]["last_period"] == "morning"
    game.world.auxiliary["day_cycle"] = {"last_period": "late_night"}
    assert step(game, RULE).feedback_keys("agent_0") == ["day_cycle.period"]


def test_a_period_met_in_its_middle_is_stored_but_not_told() -> None:
    game = stage(tick=tick_at(80))  # afternoon, 13:20
    res = step(game, RULE)
    assert res.feedback_keys("agent_0") == []
    assert game.world.auxiliary["day_cycle"]["last_period"] == "afternoon_calm"


# ---------------------------------------------------------------------------------- dawn coins
def test_dawn_coins_once_a_day_in_each_merchant_area() -> None:
    game = stage(agents=2)
    move_to(game, "agent_1", KNOLL)
    npc(game, WIDOW, STALLS)
    npc(game, TINKER, KNOLL)
    npc(game, "npc_fen_wolf", MIRE)  # not a merchant
    npc(game, TINKER, KNOLL)  # two merchants, one payment
    game.tick_index = tick_at(36, day=5)
    draws = mirror(game)
    amounts = [draws.randint(1, 3), draws.randint(1, 3)]
    res = step(game, RULE)
    assert events_of(res, "dawn_coins_spawned") == [
        {"area_id": STALLS, "amount": amounts[0], "day": 5},
        {"area_id": KNOLL, "amount": amounts[1], "day": 5},
    ]
    assert all(e.agent_id == "env" for e in res.events)
    assert game.world.areas[STALLS].objects == {"obj_coin": amounts[0]}
    assert game.world.areas[KNOLL].objects == {"obj_coin": amounts[1]}
    assert res.feedback_keys("agent_1") == ["day_cycle.dawn_coins"]
    assert res.feedback_keys("agent_0") == []
    assert game.world.auxiliary["day_cycle"]["dawn_coins_awarded"] == {
        "5": {STALLS: 1, KNOLL: 1}
    }  # fmt: skip
    state = mirror(game).getstate()
    again = step(game, RULE)  # the same slot again: paid already
    assert events_of(again, "dawn_coins_spawned") == []
    assert mirror(game).getstate() == state
    game.tick_index = tick_at(36, day=6)
    step(game, RULE)
    assert list(game.world.auxiliary["day_cycle"]["dawn_coins_awarded"]) == ["6"]


@pytest.mark.parametrize("slot", [35, 37, 42, 0])
def test_no_dawn_coins_outside_six_oclock(slot: int) -> None:
    game = stage(tick=tick_at(slot))
    npc(game, WIDOW, STALLS)
    assert events_of(step(game, RULE), "dawn_coins_spawned") == []


def test_dawn_coins_are_one_to_three() -> None:
    seen = set()
    game = stage()
    npc(game, WIDOW, STALLS)
    for day in range(200):
        game.tick_index = tick_at(36, day)
        seen |= {e["amount"] for e in events_of(step(game, RULE), "dawn_coins_spawned")}
    assert seen == {1, 2, 3}


# ------------------------------------------------------------------------------- evening bonus
def crafted(obj: str, area: str, who: str = "agent_0") -> tuple[str, str, dict]:
    return ("object_crafted", who, {"obj_id": obj, "amount": 1, "area_id": area})


def test_an_evening_craft_may_yield_one_more_unit() -> None:
    game = stage(agents=2, at=GREEN, tick=tick_at(110))
    crafts = [("obj_rope", GREEN, "agent_0"), ("obj_paper", REEDS, "agent_1"),
              ("obj_rope", GREEN, "agent_0")]  # fmt: skip
    for seed in range(40):
        game.rng.seed(seed)
        for area in game.world.areas.values():
            area.objects.clear()
        draws = mirror(game)
        won = [c for c in crafts if draws.random() < 0.25]
        res = with_events(
            game,
            crafted(*crafts[0]),
            ("object_picked_up", "agent_0", {"obj_id": "obj_reed", "area_id": GREEN}),
            crafted(*crafts[1]),
            crafted(*crafts[2]),
        )
        step(game, RULE, res)
        assert events_of(res, "evening_crafting_bonus") == [
            {"obj_id": o, "area_id": a} for o, a, _ in won
        ]
        assert [e.agent_id for e in res.events if e.type == "evening_crafting_bonus"] == [
            who for _, _, who in won
        ]
        ropes = sum(1 for o, _, _ in won if o == "obj_rope")
        assert game.world.areas[GREEN].objects.get("obj_rope", 0) == ropes
        papers = [o for o in game.world.areas[REEDS].objects if o.startswith("obj_paper_")]
        assert len(papers) == (1 if crafts[1] in won else 0)  # a writable: a fresh instance
        told = ["day_cycle.evening_bonus"] if crafts[1] in won else []
        assert res.feedback_keys("agent_1") == told
        assert mirror(game).getstate() == draws.getstate()  # one draw per craft, nothing else


def test_the_evening_bonus_chance_is_a_quarter() -> None:
    game = stage(tick=tick_at(120))
    trials = 4000
    res = with_events(game, *[crafted("obj_rope", GREEN)] * trials)
    step(game, RULE, res)
    hits = len(events_of(res, "evening_crafting_bonus"))
    mean, sd = trials * 0.25, math.sqrt(trials * 0.25 * 0.75)
    assert abs(hits - mean) <= SIGMAS * sd
    assert game.world.areas[GREEN].objects["obj_rope"] == hits


def test_no_evening_bonus_at_other_times() -> None:
    game = stage(tick=tick_at(107))  # 17:50, afternoon
    state = game.rng.getstate()
    res = step(game, RULE, with_events(game, crafted("obj_rope", GREEN)))
    assert events_of(res, "evening_crafting_bonus") == []
    assert game.rng.getstate() == state


# ---------------------------------------------------------------------------- the tutorial phase
def test_during_the_tutorial_phase_only_the_time_is_kept() -> None:
    game = stage(tick=tick_at(36))
    fake_tutorial(game)
    npc(game, WIDOW, STALLS)
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.15}
    state = game.rng.getstate()
    res = step(game, RULE, with_events(game, crafted("obj_rope", GREEN)))
    assert [e.type for e in res.events] == ["object_crafted"]  # nothing added
    assert res.feedback_keys("agent_0") == []
    assert game.rng.getstate() == state
    assert game.world.auxiliary["modifier_bag"] == {"ambush_prob_additive": 0.15}  # piles up
    assert game.world.auxiliary["day_cycle"] == {"current_period": "dawn"}
    assert game.world.auxiliary["day_cycle_info"]["period"] == "dawn"


def test_the_real_tutorial_is_the_phase() -> None:
    """With the tutorial on, the bag is untouched until the last room is gone."""
    game = Game(LIVING, 2, GameConfig(tutorial=True))
    game.reset(0)
    assert game.tutorial_active
    assert "modifier_bag" not in game.world.auxiliary
    assert game.world.auxiliary["day_cycle_info"]["period"] == "morning"
    for agent_id in game.agents:  # everyone leaves their room (the tutorial lets them go)
        room = game.world.auxiliary["tutorial_room"]["rooms"][agent_id]["area_id"]
        game.world.graph.set_locked(room, game.world.spawn_area, False)
    game.tick({a: f"enter {game.world.areas[game.world.spawn_area].name}" for a in game.agents})
    assert not game.tutorial_active
    assert game.world.auxiliary["modifier_bag"]["ambush_prob_override"] is None
    assert agent(game).area_id == game.world.spawn_area


def test_the_bag_shapes_are_checked_on_load() -> None:
    game = stage(tick=tick_at(0))
    step(game, RULE)
    rule = next(r for r in game.step_rules if r.name == RULE)
    assert rule.check_saved_state(game.world, game.agents) == []
    game.world.auxiliary["modifier_bag"]["ambush_prob_additive"] = "a lot"
    game.world.auxiliary["day_cycle_info"]["hour"] = 2.5
    problems = rule.check_saved_state(game.world, game.agents)
    assert problems == [
        "world.auxiliary.day_cycle_info.hour: expected int, got a number",
        "world.auxiliary.modifier_bag.ambush_prob_additive: expected float, got a string",
    ]
