"""The base rules the `living_world` pack changes: `active_attack_step` (odds per level from its
settings, the modifier bag, damage with the bag's factor and bonus), `new_craftable_feedback_step`
(lines only for ingredients, ingredient names without recipes) and death, which resets attack.

Hit rates are checked statistically: 4000 trials, 4.5 standard deviations (a correct rule falls
outside with probability < 1e-5; the seeds are fixed, so the test is deterministic).
"""

from __future__ import annotations

import math
import random

import pytest
from harness import agent, give
from living_helper import (
    GREEN,
    MIRE,
    MOUND,
    REEDS,
    WOLF,
    living_definition,
    npc,
    rule,
    stage,
    step,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import Engagement

AMBUSH = "active_attack_step"
CRAFTABLE = "new_craftable_feedback_step"
TRIALS = 4000
SIGMAS = 4.5
NIGHT = {"ambush_prob_additive": 0.30, "ambush_prob_override": None, "enemy_damage_multiplier": 1.3}


class ScriptedRng:
    """Hands out the given draws and counts them."""

    def __init__(self, draws: list[float]) -> None:
        self.draws, self.calls = list(draws), 0

    def random(self) -> float:
        self.calls += 1
        return self.draws.pop(0)


def odds(game: Game, bag: dict | None = None) -> tuple[dict[int, float], float]:
    """This tick's chances (per level, engaged) under `bag` if given."""
    if bag is not None:
        game.world.auxiliary["modifier_bag"] = bag
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    return rule(game, AMBUSH).odds(ctx)


# ---------------------------------------------------------------------------------- the odds
def test_remnant_odds_per_level() -> None:
    """0.05 at level 1 to 0.25 at the top level (5 here), the published arithmetic exactly."""
    chances, engaged = odds(stage())
    assert chances == {L: 0.05 + (L - 1) * (0.25 - 0.05) / (5 - 1) for L in range(1, 6)}
    assert chances == pytest.approx({1: 0.05, 2: 0.10, 3: 0.15, 4: 0.20, 5: 0.25})
    assert engaged == 0.025


def test_mark_odds_per_level_from_the_settings() -> None:
    settings = {AMBUSH: {"min_probability": 0.10, "max_probability": 0.30}}
    game = stage(world=living_definition(rule_settings=settings))
    chances, engaged = odds(game)
    assert chances == pytest.approx({1: 0.10, 2: 0.15, 3: 0.20, 4: 0.25, 5: 0.30})
    assert engaged == 0.025
    for area in game.world.areas.values():  # mark's own levels: 1 to 3
        area.level = min(area.level, 3)
    rule(game, AMBUSH).reset(game)
    assert odds(game)[0] == pytest.approx({1: 0.10, 2: 0.20, 3: 0.30})


def test_a_world_of_level_one_has_the_lowest_odds() -> None:
    game = stage()
    for area in game.world.areas.values():
        area.level = 1
    rule(game, AMBUSH).reset(game)
    assert odds(game)[0] == {1: 0.05}


@pytest.mark.parametrize(
    ("bag", "level_3", "engaged"),
    [
        ({}, 0.15, 0.025),
        (NIGHT, 0.15 + 0.30, 0.025 + 0.30),
        ({"ambush_prob_override": 0.05, "ambush_prob_additive": 0.3}, 0.05, 0.05),
        ({"ambush_prob_additive": 0.1, "ambush_prob_multiplier": 2.0}, 0.5, 0.25),
        ({"ambush_prob_additive": -0.5}, 0.0, 0.0),  # clamped at 0
        ({"ambush_prob_additive": 0.95}, 1.0, 0.975),  # clamped at 1
        ({"ambush_prob_override": 1.7}, 1.0, 1.0),
    ],
)
def test_the_bag_turns_each_chance(bag: dict, level_3: float, engaged: float) -> None:
    chances, while_engaged = odds(stage(), bag)
    assert chances[3] == pytest.approx(level_3)
    assert while_engaged == pytest.approx(engaged)


def hit_count(game: Game, seeds: range) -> int:
    hits, me = 0, agent(game)
    for seed in seeds:
        game.rng = random.Random(seed)
        me.hp = 100
        hits += len(step(game, AMBUSH).events_of("agent_0", "agent_damaged"))
    return hits


def assert_binomial(hits: int, p: float) -> None:
    mean, sd = TRIALS * p, math.sqrt(TRIALS * p * (1 - p))
    assert abs(hits - mean) <= SIGMAS * sd, (hits, mean, sd)


@pytest.mark.parametrize(
    ("area", "bag", "chance"),
    [
        (MIRE, {}, 0.15),
        (MIRE, NIGHT, 0.45),
        (MOUND, {"ambush_prob_override": 0.05}, 0.05),
        (REEDS, {"ambush_prob_additive": 0.05}, 0.10),
    ],
)
def test_ambushes_happen_at_the_turned_chance(area: str, bag: dict, chance: float) -> None:
    game = stage(at=area)
    npc(game, WOLF, area)
    game.world.auxiliary["modifier_bag"] = bag
    assert_binomial(hit_count(game, range(TRIALS)), chance)


def test_while_fighting_the_engaged_chance_is_turned_too() -> None:
    game = stage(at=MIRE)
    npc(game, WOLF, MIRE)
    foe = npc(game, WOLF, MIRE, combat_pattern=("wait",))
    agent(game).combats[foe.id] = Engagement(0, MIRE)
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.1}
    assert_binomial(hit_count(game, range(50_000, 50_000 + TRIALS)), 0.125)


def test_one_draw_per_candidate_and_a_draw_equal_to_the_chance_hits() -> None:
    game = stage(at=REEDS)
    npc(game, WOLF, REEDS)
    npc(game, WOLF, REEDS)
    game.world.auxiliary["modifier_bag"] = {"ambush_prob_additive": 0.05}
    p = odds(game)[0][1]
    game.rng = scripted = ScriptedRng([p, math.nextafter(p, 1.0)])
    res = step(game, AMBUSH)
    assert scripted.calls == 2
    assert len(res.events_of("agent_0", "agent_damaged")) == 1


# ---------------------------------------------------------------------------------- the damage
@pytest.mark.parametrize(
    ("attack", "defense", "defending", "bag", "damage"),
    [
        (13, 2, False, {}, 4),  # 13 // 2 - 2
        (13, 2, False, NIGHT, 5),  # int(4 x 1.3)
        (13, 2, False, {"enemy_damage_multiplier": 1.2}, 4),  # int(4.8)
        (13, 2, False, {"enemy_damage_multiplier": 0.8, "enemy_attack_damage_bonus": 3}, 6),
        (13, 2, True, NIGHT, 0),  # int(5 x 0.1)
        (61, 0, True, NIGHT, 3),  # int(int(30 x 1.3) x 0.1) = int(3.9)
        (4, 5, False, {"enemy_attack_damage_bonus": 2}, 2),  # max(0, 2 - 5) -> 0, + 2
        (4, 5, False, {"enemy_attack_damage_bonus": -1}, 0),  # never below 0
    ],
)
def test_ambush_damage_with_the_bag(
    attack: int, defense: int, defending: bool, bag: dict, damage: int
) -> None:
    game = stage(at=MIRE)
    wolf = npc(game, WOLF, MIRE, attack_power=attack)
    me = agent(game)
    me.defense, me.defending = defense, defending
    game.world.auxiliary["modifier_bag"] = bag
    game.rng = ScriptedRng([0.0])
    res = step(game, AMBUSH)
    assert [e.data for e in res.events] == [{"npc_id": wolf.id, "damage": damage, "area_id": MIRE}]
    assert me.hp == 100 - damage and not me.defending


# ------------------------------------------------------------------------------------- death
def test_death_brings_attack_back_to_the_base_attack() -> None:
    """remnant adds the attack reset to death; the base rule already does it at once."""
    game = stage(at=MIRE)
    me = agent(game)
    give(game, "agent_0", "obj_gaff")
    step(game, "agent_attack_update_step")
    assert me.attack > me.min_attack
    me.hp = 0
    step(game, "death_and_respawn_step")
    assert me.attack == me.min_attack and me.area_id == GREEN and me.hands == {}


# ----------------------------------------------------------------------------- craftable lines
def test_items_that_make_nothing_are_noticed_again_until_an_ingredient_comes() -> None:
    game = stage()
    me = agent(game)
    give(game, "agent_0", "obj_pen")  # an ingredient of nothing
    for _ in range(3):
        res = step(game, CRAFTABLE)
        assert res.events == [] and res.feedback_keys("agent_0") == []
        assert "obj_pen" not in me.acquired
    give(game, "agent_0", "obj_reed")
    res = step(game, CRAFTABLE)
    assert res.feedback_keys("agent_0") == ["new_craftable.uses"]
    assert [(e.type, e.data) for e in res.events] == [
        ("new_crafting_recipe_seen", {"object_ids": ["obj_pen", "obj_reed"]})
    ]
    assert list(me.acquired) == ["obj_pen", "obj_reed"]
    assert step(game, CRAFTABLE).events == []


def test_with_recipes_shown_the_lines_are_the_base_packs() -> None:
    game = stage()
    give(game, "agent_0", "obj_bog_iron")
    ((_, text),) = step(game, CRAFTABLE).feedback["agent_0"]
    assert text == "I have a new item, bog_iron. It can make: iron_bar (2 bog_iron)."


def test_without_recipes_products_come_with_their_ingredients_names() -> None:
    game = stage(world=living_definition(show_crafting_recipes=False))
    give(game, "agent_0", "obj_rope")
    ((_, text),) = step(game, CRAFTABLE).feedback["agent_0"]
    assert text == "I have a new item, rope. It can make: net (rope, reed)."
