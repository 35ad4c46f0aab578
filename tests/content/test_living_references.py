"""Living-world code made fast, held to its plain reading.

Each of these runs every tick over every area (or every level): the soundscape's noise update
skips the arithmetic where nothing was heard and noise never fades, the carrion scavengers loop
without `min()`, the ambush odds under the bag are worked out per level when first read, and the
shifting paths key pairs without `sorted()`. On random states (missing and odd entries included)
each gives exactly what the plain formula gives: the same tables, key order and value types, the
same events.
"""

from __future__ import annotations

import copy
import random
import sys
from typing import Any

import pytest
from harness import put_on_ground
from living_helper import GREEN, living_definition, rule, stage, with_events

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT

SOUND = "soundscape_pressure_step"
SCAVENGERS = "carrion_scavengers_step"
AMBUSH = "active_attack_step"
ODD_NOISE = [0.0, 0.02, 0.05, 0.06, 3.0, 7.99, 8.0, 11.97, 12.0, 3, 0, -1.0, 14.5, None]


def plain_update(
    areas: list[str], state: dict[str, Any], heard: dict[str, float], silenced: set[str],
    factor: float, res: RuleResult,
) -> None:  # fmt: skip
    """The noise update as its docstring says it, with no shortcut."""
    noise, quiet = state["noise"], state["quiet_steps"]
    for area_id in areas:
        before = noise.get(area_id, 0.0)
        now = before * factor + heard.get(area_id, 0.0)
        if area_id in silenced:
            now = 0.0
        now = min(12.0, max(0.0, now))
        noise[area_id] = now
        if abs(now - before) > 0.05:
            changed = {"area_id": area_id, "noise": round(now, 2)}
            res.emit("area_noise_changed", WORLD_AGENT, changed)
        quiet[area_id] = quiet.get(area_id, 0) + 1 if now <= 0.05 else 0


def random_noise(rng: random.Random, areas: list[str]) -> dict[str, Any]:
    noise, quiet = {}, {}
    for area_id in rng.sample(areas, len(areas)):  # in any order, some missing
        value = rng.choice(ODD_NOISE)
        if value is not None:
            noise[area_id] = value
        if rng.random() < 0.8:
            quiet[area_id] = rng.randint(0, 6)
    return {"noise": noise, "quiet_steps": quiet, "loud_flags": {}}


@pytest.mark.parametrize("factor", [1.0, 1.5])
def test_the_noise_update_is_the_plain_formula(factor: float) -> None:
    settings = {SOUND: {"decay_factor": factor}}
    game = stage(world=living_definition(rule_settings=settings))
    sound, areas = rule(game, SOUND), list(game.world.areas)
    rng = random.Random(int(factor * 10))
    for _ in range(300):
        state = random_noise(rng, areas)
        heard = {a: rng.choice((0.2, 0.3, 1.5, 2.5)) for a in areas if rng.random() < 0.3}
        silenced = {a for a in areas if rng.random() < 0.1}
        expected, plain = copy.deepcopy(state), RuleResult(game.agent_ids)
        plain_update(areas, expected, heard, silenced, factor, plain)
        res = RuleResult(game.agent_ids)
        sound.update(game.world, res, state, heard, silenced)
        for table in ("noise", "quiet_steps"):
            assert list(state[table].items()) == list(expected[table].items())
            assert [type(v) for v in state[table].values()] == [
                type(v) for v in expected[table].values()
            ]
        assert [(e.type, e.data) for e in res.events] == [(e.type, e.data) for e in plain.events]


def plain_scavengers(game: Game, res: RuleResult, state: dict[str, Any]) -> None:
    """The carrion scavengers' tick as its docstring says it."""
    interest, touched, step = state["interest"], state["last_touch"], game.tick_index
    for event in res.events:
        if event.type in ("npc_killed", "agent_defeated_in_combat"):
            area_id = event.data.get("area_id")
            if area_id is not None:
                interest[area_id] = min(1.0, interest.get(area_id, 0.0) + 0.3)
                touched[area_id] = step
    for area in game.world.areas.values():
        obj = [game.world.def_of(o) for o in area.objects]
        if any(o.value is not None and not o.quest and not o.is_currency for o in obj):
            interest[area.id] = min(1.0, interest.get(area.id, 0.0) + 0.1)
            touched[area.id] = step
        elif area.id in interest:
            del interest[area.id]
            touched.pop(area.id, None)
    for area_id in [a for a, last in touched.items() if step - last > 18]:
        del touched[area_id]
        interest.pop(area_id, None)


def test_the_scavengers_tick_is_the_plain_formula() -> None:
    game = stage(at=GREEN, tick=50)
    rng = random.Random(4)
    areas, things = list(game.world.areas), ["obj_rope", "obj_coin", "obj_relic", "obj_workbench"]
    scavengers = rule(game, SCAVENGERS)
    for tick in range(50, 250):
        game.tick_index = tick
        for area_id in areas:
            if rng.random() < 0.2:
                game.world.areas[area_id].objects.clear()
            if rng.random() < 0.2:
                put_on_ground(game, area_id, rng.choice(things), rng.randint(1, 2))
        deaths = [
            (rng.choice(("npc_killed", "agent_defeated_in_combat", "npc_moved")), "agent_0",
             {"area_id": rng.choice(areas)})
            for _ in range(rng.randint(0, 3))
        ]  # fmt: skip
        res = with_events(game, *deaths)
        expected = copy.deepcopy(game.world.auxiliary.get("scavengers"))
        if expected is None:
            expected = {"interest": {}, "last_touch": {}}
        plain_scavengers(game, res, expected)
        scavengers.apply(RuleContext(game, game.world, None, "", (), tick), res)
        state = game.world.auxiliary["scavengers"]
        for table in ("interest", "last_touch"):
            assert list(state[table].items()) == list(expected[table].items()), tick


@pytest.mark.parametrize("odds", [None, {"min_probability": 0.10, "max_probability": 0.30}])
def test_the_turned_odds_are_every_level_turned(odds: dict[str, float] | None) -> None:
    """remnant's odds per level (the defaults) and mark's, under random bags."""
    game = stage(world=living_definition(rule_settings={AMBUSH: odds} if odds else {}))
    ambush = rule(game, AMBUSH)
    turn = sys.modules[type(ambush).__module__].adjusted
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    plain = ambush.chances(game.world)
    rng = random.Random(9)
    for _ in range(200):
        bag = {
            key: rng.choice(values)
            for key, values in (
                ("ambush_prob_override", (None, None, 0.05, 1.7)),
                ("ambush_prob_additive", (0.0, 0.3, -0.5, 0.95)),
                ("ambush_prob_multiplier", (1.0, 2.0, 0.5)),
            )
            if rng.random() < 0.7
        }
        game.world.auxiliary["modifier_bag"] = bag
        chances, engaged = ambush.odds(ctx)
        expected = {level: turn(p, bag) for level, p in plain.items()} if bag else plain
        level = rng.choice(list(plain))
        assert chances[level] == expected[level]  # read one first, as an ambush does
        assert dict(chances) == expected and len(chances) == len(expected)
        assert engaged == turn(0.025, bag)
        with pytest.raises(KeyError):
            chances[max(plain) + 1]


def test_a_path_s_key_is_its_two_ends_sorted() -> None:
    game = stage()
    pair_key = sys.modules[type(rule(game, "shifting_paths_step")).__module__].pair_key
    rng = random.Random(2)
    for _ in range(2000):
        a, b = ("".join(rng.choice("ab_|z9") for _ in range(rng.randint(0, 4))) for _ in "ab")
        assert pair_key(a, b) == "|".join(sorted((a, b)))
