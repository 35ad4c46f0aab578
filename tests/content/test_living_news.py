"""`continuous_crafting_momentum_step` and `rumor_mill_step` of the `living_world` pack: coins for
crafting on in the same place, and rumour notes that merchants leave after news.

Draws are checked against a copy of the game's generator; the note chance also statistically
(4.5 standard deviations: a correct rule falls outside with probability < 1e-5, with fixed seeds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from harness import agent, give, move_to
from living_helper import (
    GREEN,
    KNOLL,
    MIRE,
    REEDS,
    STALLS,
    TINKER,
    WIDOW,
    events_of,
    mirror,
    npc,
    stage,
    step,
    with_events,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult

MOMENTUM = "continuous_crafting_momentum_step"
RUMORS = "rumor_mill_step"
SIGMAS = 4.5


def crafts(game: Game, *amounts: int, who: str = "agent_0") -> RuleResult:
    area = game.agents[who].area_id
    return with_events(
        game,
        *[("object_crafted", who, {"obj_id": "obj_rope", "amount": n, "area_id": area})
          for n in amounts],
    )  # fmt: skip


# ------------------------------------------------------------------------------------ momentum
def test_a_streak_pays_from_the_second_craft_within_five_ticks() -> None:
    game = stage(at=REEDS, tick=100)
    res = step(game, MOMENTUM, crafts(game, 1))
    assert events_of(res, "craft_streak_bonus") == [] and res.feedback_keys("agent_0") == []
    assert agent(game).progress["craft_streak"] == {
        "last_step": 100, "last_area": REEDS, "streak": 1
    }  # fmt: skip
    game.tick_index = 105  # five ticks later: the streak goes on
    draws = mirror(game)
    coins = 4 * draws.randint(1, 2)
    res = step(game, MOMENTUM, crafts(game, 1, 3))
    assert events_of(res, "craft_streak_bonus") == [{"area_id": REEDS, "streak": 2, "coins": coins}]
    assert res.events[-1].agent_id == "agent_0"
    assert game.world.areas[REEDS].objects == {"obj_coin": coins}
    assert res.feedback_keys("agent_0") == ["crafting.streak"]
    assert mirror(game).getstate() == draws.getstate()
    game.tick_index = 106
    res = step(game, MOMENTUM, crafts(game, 2))
    assert events_of(res, "craft_streak_bonus")[0]["streak"] == 3


@pytest.mark.parametrize(("later", "area"), [(6, REEDS), (1, KNOLL)])
def test_a_late_craft_or_another_place_starts_again(later: int, area: str) -> None:
    game = stage(at=REEDS, tick=100)
    agent(game).progress["craft_streak"] = {"last_step": 100, "last_area": REEDS, "streak": 4}
    move_to(game, "agent_0", area)
    game.tick_index = 100 + later
    state = game.rng.getstate()
    res = step(game, MOMENTUM, crafts(game, 1))
    assert res.events[1:] == [] and game.rng.getstate() == state
    assert agent(game).progress["craft_streak"] == {
        "last_step": 100 + later, "last_area": area, "streak": 1
    }  # fmt: skip


def test_coins_are_one_or_two_per_unit() -> None:
    game = stage(at=REEDS, tick=100)
    seen = set()
    for seed in range(100):
        game.rng.seed(seed)
        agent(game).progress["craft_streak"] = {"last_step": 99, "last_area": REEDS, "streak": 1}
        res = step(game, MOMENTUM, crafts(game, 3))
        seen.add(events_of(res, "craft_streak_bonus")[0]["coins"])
    assert seen == {3, 6}


def test_no_craft_no_change_and_tutorial_agents_are_left_out() -> None:
    game = stage(agents=2, at=REEDS, tick=100)
    step(game, MOMENTUM, with_events(game, ("object_dropped", "agent_0", {"obj_id": "x"})))
    assert "craft_streak" not in agent(game).progress
    agent(game, "agent_1").tutorial_passed = False
    step(game, MOMENTUM, crafts(game, 1, who="agent_1"))
    assert "craft_streak" not in agent(game, "agent_1").progress


# ------------------------------------------------------------------------------------- rumours
def notes(game: Game) -> dict:
    return game.world.auxiliary["rumor_mill"]["notes"]


def news(game: Game) -> RuleResult:
    return with_events(game, ("npc_killed", "agent_0", {"npc_id": "npc_x", "area_id": MIRE}))


def seed_where(test: Callable[[random.Random], bool]) -> int:
    """The first seed whose draws pass `test`."""
    return next(s for s in range(10_000) if test(random.Random(s)))


def test_news_makes_merchants_leave_notes() -> None:
    game = stage(agents=2, at=STALLS, tick=40)
    move_to(game, "agent_1", GREEN)
    widow = npc(game, WIDOW, STALLS, inventory={"obj_rope": 2, "obj_torch": 0, "obj_net": 1})
    game.rng.seed(seed_where(lambda r: r.random() < 0.12))
    draws = mirror(game)
    draws.random()
    good = draws.choice(["obj_rope", "obj_net"])
    tips = [f"{widow.name} has {good.removeprefix('obj_')} for sale",
            "there is more to find near Brackwater Hamlet, stalls"]  # fmt: skip
    tip = draws.choice(tips)
    lifetime = draws.randint(6, 12)
    res = step(game, RUMORS, news(game))
    (spawned,) = events_of(res, "rumor_spawned")
    note_id = spawned["obj_id"]
    assert spawned == {"obj_id": note_id, "area_id": STALLS}
    assert note_id.startswith("obj_paper_") and game.world.areas[STALLS].objects == {note_id: 1}
    assert game.world.writables[note_id].text == ("rumor: " + tip)[:60]  # paper's limit
    assert notes(game) == {
        note_id: {"born_step": 40, "origin_area": STALLS, "lifetime": lifetime, "tip_given": False}
    }
    assert res.feedback_keys("agent_0") == ["rumor.spawned"] and res.feedback_keys("agent_1") == []
    assert mirror(game).getstate() == draws.getstate()


def test_the_calm_and_the_quest_add_tips() -> None:
    game = stage(at=STALLS, tick=40)
    npc(game, WIDOW, STALLS, inventory={})
    game.world.auxiliary["day_cycle"] = {"current_period": "afternoon_calm"}
    game.world.auxiliary["main_quest"] = {
        "vars": {"ch1_guide_area": MIRE, "ch5_engine_area": KNOLL, "ch1_shrine_area": "nowhere"}
    }
    seen = set()
    for seed in range(200):
        game.rng.seed(seed)
        game.world.auxiliary.pop("rumor_mill", None)
        game.world.areas[STALLS].objects.clear()
        step(game, RUMORS, news(game))
        seen |= {game.world.writables[n].text for n in notes(game)}
    assert seen == {
        "rumor: afternoons are calm here, the safest time to travel",
        "rumor: there is more to find near Brackwater Hamlet, stalls",
        "rumor: a chronicler keeps her records near Grey Fen, mire",
        "rumor: something vast hums and turns near Grey Fen, knoll",
    }


def test_notes_come_one_time_in_eight_or_so_per_merchant_area() -> None:
    game = stage(at=GREEN, tick=40)
    npc(game, WIDOW, STALLS)
    npc(game, TINKER, KNOLL)
    npc(game, "npc_reeve", REEDS)  # not a merchant
    trials, spawned = 2000, 0
    for seed in range(trials):
        game.rng.seed(seed)
        game.world.auxiliary.pop("rumor_mill", None)
        spawned += len(events_of(step(game, RUMORS, news(game)), "rumor_spawned"))
    mean, sd = 2 * trials * 0.12, math.sqrt(2 * trials * 0.12 * 0.88)
    assert abs(spawned - mean) <= SIGMAS * sd


def test_without_news_nothing_is_drawn() -> None:
    game = stage(at=STALLS, tick=40)
    npc(game, WIDOW, STALLS)
    state = game.rng.getstate()
    res = with_events(game, ("object_dropped", "agent_0", {"obj_id": "obj_reed", "area_id": GREEN}))
    step(game, RUMORS, res)
    assert game.rng.getstate() == state and notes(game) == {}


def planted_note(game: Game, area: str, born: int = 40, lifetime: int = 8) -> str:
    note_id = game.world.new_instance("obj_paper")
    game.world.writables[note_id].text = "rumor: there is more to find"
    game.world.areas[area].add_objects(note_id, 1)
    game.world.auxiliary["rumor_mill"] = {
        "notes": {note_id: {"born_step": born, "origin_area": area, "lifetime": lifetime,
                            "tip_given": False}}
    }  # fmt: skip
    return note_id


def test_reading_a_note_in_hand_pays_once() -> None:
    game = stage(at=STALLS, tick=45)
    note_id = planted_note(game, STALLS)
    inspected = ("object_inspected", "agent_0", {"obj_id": note_id, "area_id": STALLS})
    state = game.rng.getstate()
    step(game, RUMORS, with_events(game, inspected))  # on the ground, not in hand: nothing
    assert game.rng.getstate() == state and not notes(game)[note_id]["tip_given"]
    game.world.areas[STALLS].objects.clear()
    agent(game).hands[note_id] = 1
    draws = mirror(game)
    coins = draws.randint(1, 2)
    res = step(game, RUMORS, with_events(game, inspected))
    assert events_of(res, "rumor_read") == [{"obj_id": note_id, "area_id": STALLS, "coins": coins}]
    assert game.world.areas[STALLS].objects == {"obj_coin": coins}
    assert notes(game)[note_id]["tip_given"] and res.feedback_keys("agent_0") == ["rumor.read"]
    res = step(game, RUMORS, with_events(game, inspected))
    assert events_of(res, "rumor_read") == []


def test_dropping_a_fresh_note_elsewhere_hushes_the_area() -> None:
    game = stage(at=REEDS, tick=48)
    note_id = planted_note(game, STALLS)
    game.world.areas[STALLS].objects.clear()
    game.world.auxiliary["soundscape"] = {"noise": {REEDS: 2.0, MIRE: 0.5}, "quiet_steps": {},
                                          "loud_flags": {}}  # fmt: skip
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.3}
    dropped = ("object_dropped", "agent_0", {"obj_id": note_id, "area_id": REEDS})
    res = step(game, RUMORS, with_events(game, dropped))
    assert events_of(res, "rumor_quiet_drop") == [{"obj_id": note_id, "area_id": REEDS}]
    assert game.world.auxiliary["soundscape"]["noise"] == {REEDS: pytest.approx(1.2), MIRE: 0.5}
    assert game.world.auxiliary["modifier_bag"]["ambush_prob_additive"] == pytest.approx(0.28)
    dropped_in_mire = ("object_dropped", "agent_0", {"obj_id": note_id, "area_id": MIRE})
    step(game, RUMORS, with_events(game, dropped_in_mire))
    assert game.world.auxiliary["soundscape"]["noise"][MIRE] == 0.0  # never below 0


@pytest.mark.parametrize(("tick", "area"), [(49, REEDS), (47, STALLS)])
def test_a_stale_note_or_one_dropped_at_home_does_not_hush(tick: int, area: str) -> None:
    game = stage(at=area, tick=tick)
    note_id = planted_note(game, STALLS)  # born 40, lifetime 8: fresh up to tick 48
    game.world.areas[STALLS].objects.clear()
    agent(game).hands[note_id] = 1
    dropped = ("object_dropped", "agent_0", {"obj_id": note_id, "area_id": area})
    res = step(game, RUMORS, with_events(game, dropped))
    assert events_of(res, "rumor_quiet_drop") == []
    assert "modifier_bag" not in game.world.auxiliary


def test_an_old_note_on_the_ground_crumbles_and_a_held_one_waits() -> None:
    game = stage(at=REEDS, tick=48)
    note_id = planted_note(game, STALLS)
    name = game.world.name_of(note_id)
    assert step(game, RUMORS).events == []  # 48 - 40 = 8: not older than its lifetime yet
    game.tick_index = 49
    res = step(game, RUMORS)
    assert events_of(res, "rumor_despawned") == [{"obj_id": note_id, "area_id": STALLS}]
    assert notes(game) == {} and game.world.find_def(note_id) is None
    assert name not in game.world.obj_name_to_id and game.world.areas[STALLS].objects == {}
    held = planted_note(game, STALLS)
    game.world.areas[STALLS].objects.clear()
    give(game, "agent_0", "obj_reed")
    agent(game).hands[held] = 1
    assert step(game, RUMORS).events == [] and held in notes(game)
    del agent(game).hands[held]
    game.world.areas[MIRE].add_objects(held, 1)
    res = step(game, RUMORS)
    assert events_of(res, "rumor_despawned") == [{"obj_id": held, "area_id": MIRE}]


def test_no_rumours_during_the_tutorial_phase() -> None:
    game = stage(at=STALLS, tick=40)
    npc(game, WIDOW, STALLS)
    game.world.auxiliary["tutorial_room"] = {"place_id": None, "rooms": {"agent_x": {}}}
    state = game.rng.getstate()
    step(game, RUMORS, news(game))
    assert game.rng.getstate() == state and "rumor_mill" not in game.world.auxiliary
