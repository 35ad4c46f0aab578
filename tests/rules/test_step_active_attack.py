"""active_attack_step (docs/mechanics/combat.md#ambushes): random ambushes by enemies in the
area."""

from __future__ import annotations

import math
import random

import pytest
from harness import (
    agent,
    blank_game,
    make_game,
    move_to,
    run_step,
    spawn_npc,
    step_rule,
)

from agentodyssey_pz.world.agents import Engagement

RULE = "active_attack_step"
TRIALS = 4000
# Tolerance for the hit count of TRIALS Bernoulli(p) draws: 4.5 standard deviations. A correct rule
# falls outside with probability < 1e-5 for an arbitrary seed set (the seeds here are fixed, so the
# test is deterministic). The expected counts of neighbouring chances (0.025/0.05/0.10/0.15) lie at
# least 7 standard deviations apart at this TRIALS, so a chance taken from the wrong level, or the
# level chance used while engaged, lands outside the band.
SIGMAS = 4.5


class ScriptedRng:
    """Stands in for game.rng: hands out the given draws and counts them."""

    def __init__(self, draws):
        self.draws = list(draws)
        self.calls = 0

    def random(self):
        self.calls += 1
        return self.draws.pop(0)


def ambush_setup(area="area_rows", agents=1, attack_power=13, enemies=1):
    game = blank_game(agents=agents, at=area)
    npcs = [spawn_npc(game, "npc_wasp", area, attack_power=attack_power) for _ in range(enemies)]
    return game, npcs


def hit_count(game, seeds) -> int:
    me, hits = agent(game), 0
    for seed in seeds:
        game.rng = random.Random(seed)
        me.hp = 100
        hits += len(run_step(game, RULE).events_of("agent_0", "agent_damaged"))
    return hits


def assert_binomial(hits: int, p: float) -> None:
    mean, sd = TRIALS * p, math.sqrt(TRIALS * p * (1 - p))
    assert abs(hits - mean) <= SIGMAS * sd, (hits, mean, sd)


def test_chances_per_level_in_the_tiny_world():
    game = make_game()  # area levels 1, 2, 2, 3
    chances = step_rule(game, RULE).chances(game.world)
    assert chances == pytest.approx({1: 0.05, 2: 0.10, 3: 0.15})


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        ([1, 1, 1, 1], {1: 0.05}),
        ([1, 5, 5, 5], {1: 0.05, 5: 0.15}),
        ([1, 3, 5, 5], {1: 0.05, 3: 0.10, 5: 0.15}),
    ],
)
def test_chances_follow_the_set_of_area_levels(levels, expected):
    game = make_game()
    for area, level in zip(game.world.areas.values(), levels, strict=True):
        area.level = level
    rule = step_rule(game, RULE)
    rule.reset(game)  # levels never change in place in a game; drop the cached table
    assert rule.chances(game.world) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("area", "chance"), [("area_gate", 0.05), ("area_rows", 0.10), ("area_vault", 0.15)]
)
def test_ambush_frequency_matches_the_area_level(area, chance):
    game, _ = ambush_setup(area=area)
    assert_binomial(hit_count(game, range(TRIALS)), chance)


def test_ambush_frequency_while_engaged_is_the_low_chance():
    game, _ = ambush_setup(area="area_vault")
    foe = spawn_npc(game, "npc_wasp", "area_vault", combat_pattern=("wait",))
    agent(game).combats[foe.id] = Engagement(0, "area_vault")
    assert_binomial(hit_count(game, range(10_000, 10_000 + TRIALS)), 0.025)


def test_engaged_npc_never_ambushes_its_opponent_and_one_draw_per_candidate():
    game, (ambusher,) = ambush_setup()
    foe = spawn_npc(game, "npc_wasp", "area_rows", combat_pattern=("wait",))
    agent(game).combats[foe.id] = Engagement(0, "area_rows")
    game.rng = rng = ScriptedRng([0.0, 0.0])
    res = run_step(game, RULE)
    assert rng.calls == 1
    assert [e.data["npc_id"] for e in res.events] == [ambusher.id]


def test_draw_is_compared_with_less_or_equal():
    game, _ = ambush_setup(area="area_gate")
    game.rng = ScriptedRng([0.05])  # exactly the chance: a hit (the rule skips on draw > p)
    assert len(run_step(game, RULE).events) == 1
    game.rng = ScriptedRng([0.0500001])
    assert run_step(game, RULE).events == []


def test_one_ambush_per_npc_per_tick_with_two_agents():
    game, (first, second) = ambush_setup(agents=2, enemies=2)
    # agent_0: first hits, second misses; agent_1: only second is left to draw for, and hits.
    game.rng = rng = ScriptedRng([0.0, 0.99, 0.0])
    res = run_step(game, RULE)
    assert rng.calls == 3
    assert [(e.agent_id, e.data) for e in res.events] == [
        ("agent_0", {"npc_id": first.id, "damage": 6, "area_id": "area_rows"}),
        ("agent_1", {"npc_id": second.id, "damage": 6, "area_id": "area_rows"}),
    ]
    assert res.feedback_keys("agent_0") == res.feedback_keys("agent_1") == ["ambush.hit"]


def test_npc_fighting_another_agent_may_still_ambush():
    game, (wasp,) = ambush_setup(agents=2)
    agent(game, "agent_0").combats[wasp.id] = Engagement(0, "area_rows")
    game.rng = rng = ScriptedRng([0.0])
    res = run_step(game, RULE)
    assert rng.calls == 1 and [e.agent_id for e in res.events] == ["agent_1"]


@pytest.mark.parametrize(
    ("attack_power", "armour", "defending", "damage"),
    [
        (13, False, False, 6),  # 13 // 2
        (13, True, False, 3),  # apron: defense 3
        (41, False, True, 2),  # int(20 * 0.1)
        (13, True, True, 0),  # int(3 * 0.1): 0 is still reported
        (4, True, False, 0),  # max(0, 2 - 3)
    ],
)
def test_ambush_damage(attack_power, armour, defending, damage):
    game, (wasp,) = ambush_setup(attack_power=attack_power)
    me = agent(game)
    if armour:
        me.equipped["obj_apron"] = 1
        me.defense = 3
    me.defending = defending
    game.rng = ScriptedRng([0.0])
    res = run_step(game, RULE)
    assert [e.data for e in res.events] == [
        {"npc_id": wasp.id, "damage": damage, "area_id": "area_rows"}
    ]
    assert me.hp == 100 - damage


def test_ambush_keeps_hitting_below_zero_hp():
    game, _ = ambush_setup(attack_power=40)
    agent(game).hp = 5
    game.rng = ScriptedRng([0.0])
    run_step(game, RULE)
    assert agent(game).hp == -15


def test_friendly_npcs_never_ambush():
    game, _ = ambush_setup(enemies=0)
    spawn_npc(game, "npc_cider_seller", "area_rows")
    game.rng = rng = ScriptedRng([])
    assert run_step(game, RULE).events == [] and rng.calls == 0


def test_dead_and_tutorial_agents_are_skipped_and_defending_is_cleared_for_all():
    game, _ = ambush_setup(agents=3)
    a0, a1, a2 = game.agents.values()
    a0.hp = 0
    # A stand-in tutorial: the cellar place plays the tutorial place, its vats area a room.
    game.world.auxiliary["tutorial_room"] = {
        "place_id": "place_cellar",
        "rooms": {"agent_1": {"area_id": "area_vats"}},
    }
    move_to(game, "agent_1", "area_vats")
    spawn_npc(game, "npc_wasp", "area_vats")
    for a in (a0, a1, a2):
        a.defending = True
    game.rng = rng = ScriptedRng([0.99])
    res = run_step(game, RULE)
    assert rng.calls == 1  # only agent_2 drew
    assert res.events == []
    assert [a.defending for a in (a0, a1, a2)] == [False, False, False]


def test_agent_chance_hook_sets_each_agents_chance():
    game, _ = ambush_setup(agents=2)
    seen = []

    def agent_chance(ctx, who, chance):
        seen.append((who.id, chance))
        return 1.0 if who.id == "agent_1" else 0.0

    step_rule(game, RULE).agent_chance = agent_chance
    game.rng = ScriptedRng([0.5, 0.5])
    res = run_step(game, RULE)
    assert seen == [("agent_0", pytest.approx(0.10)), ("agent_1", pytest.approx(0.10))]  # level 2
    assert res.events_of("agent_0", "agent_damaged") == []
    assert len(res.events_of("agent_1", "agent_damaged")) == 1
