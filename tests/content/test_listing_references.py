"""Listings made fast, held to their plain definitions.

`eat`, `throw` and `disassemble` list from per-world tables of what is edible, throwable or has a
recipe and can be named, and the `has_any_of` quest condition looks carried units up without
building the possession table. At every tick of random walks through the scrapyard, with hurt
agents, full hands, worn sacks, notes and food about, each equals the plain reading of its rule:
every thing in reach asked one by one (`find_meal`, `throwable`, a recipe), and `possession`.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from harness import give, spawn_npc
from scavenging_helper import GATE, HEAP, SHED, pack_module, yard

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores, possession
from agentodyssey_pz.world.quest_records import Condition

THINGS = ["obj_apple", "obj_bread", "obj_dart", "obj_stone", "obj_cleaver", "obj_sack", "obj_tag"]


def in_reach(game: Game, body: AgentState) -> list[dict[str, int]]:
    """Hands, the inventory, containers in hand, the ground here: where eating looks."""
    return [*carried_stores(game.world, body), game.world.areas[body.area_id].objects]


def plain_eat(game: Game, body: AgentState) -> list[tuple[str, ...]]:
    """Every name in reach, once, that `eat` would take effect with."""
    eat = pack_module(game, "eat")
    if body.hp >= body.max_hp:
        return []
    names: dict[str, bool] = {}
    for store in in_reach(game, body):
        for oid in store:
            found = game.world.listing(oid)
            if found is not None and found[1] not in names:
                names[found[1]] = isinstance(eat.find_meal(game.world, body, found[1]), eat.Meal)
    return [(name,) for name, ok in names.items() if ok]


def plain_throw(game: Game, body: AgentState) -> list[tuple[str, ...]]:
    throw, world = pack_module(game, "throw"), game.world
    held = [
        world.listing(oid)[1]
        for oid in body.hands
        if world.listing(oid) is not None and throw.throwable(world, oid) is not None
    ]
    here = [world.npcs[i] for i in world.visible_npcs(body.area_id, body.id)]
    targets = [n.name for n in here if world.npc_name_to_id.get(n.name) == n.id]
    return [(o, n) for o in held for n in targets]


def plain_disassemble(game: Game, body: AgentState) -> list[tuple[str, ...]]:
    world, out, seen = game.world, [], set()
    for store in (body.hands, world.areas[body.area_id].objects):
        for oid in store:
            found = world.listing(oid)
            if found is None or oid in seen or body.equipped.get(oid, 0) > 0:
                continue
            seen.add(oid)
            if world.objects[found[0]].craft.ingredients:
                out.append((found[1],))
    return out


def listed(game: Game, body: AgentState, verb: str) -> list[tuple[str, ...]]:
    ctx = RuleContext(game, game.world, body, verb, (), game.tick_index)
    rule = game.engine.rules[verb]
    found = [params for _, params in rule.mask_targets(ctx)]
    assert rule.valid_params(ctx) == found
    return found


def has_any_of(game: Game, body: AgentState, wanted: list[str]) -> bool:
    base_pack = type(game.engine.rules["attack"]).__module__.split(".")[0]
    conditions = sys.modules[f"{base_pack}.conditions"]
    res = RuleResult(game.agent_ids)
    scope = conditions.QuestScope(game.world, body, res, {}, {})
    return conditions.CHECKS["has_any_of"](Condition("has_any_of", {"objects": wanted}), scope)


def stir(game: Game, rng: random.Random) -> None:
    """Hurt, heal, hand out and drop things at random; now and then wear a sack of things."""
    for agent_id, body in game.agents.items():
        body.hp = rng.choice((body.max_hp, body.max_hp, rng.randint(1, body.max_hp)))
        if rng.random() < 0.3 and sum(body.hands.values()) < 2:
            give(game, agent_id, rng.choice(THINGS))
        if rng.random() < 0.1:
            game.world.spawn_on_ground(body.area_id, rng.choice(THINGS), rng.randint(1, 3))
        if rng.random() < 0.05 and body.inventory_id is None:
            sack = game.world.new_instance("obj_sack")
            game.world.containers[sack].items.update({"obj_apple": 1, "obj_dart": 2})
            body.equipped[sack], body.inventory_id = 1, sack


def test_fast_listings_equal_their_plain_reading() -> None:
    rng = random.Random(11)
    game = yard(agents=3)
    for area in (GATE, HEAP, SHED):
        for proto in ("npc_rat", "npc_scrapper"):
            spawn_npc(game, proto, area, hp=500)  # they outlive the walk's throws
    seen: dict[str, int] = {"eat": 0, "throw": 0, "disassemble": 0, "has": 0}
    ids = [o.id for o in game.world.objects.values()]
    for _ in range(250):
        stir(game, rng)
        for body in game.agents.values():
            for verb, plain in (
                ("eat", plain_eat), ("throw", plain_throw), ("disassemble", plain_disassemble)
            ):  # fmt: skip
                expected = plain(game, body)
                assert listed(game, body, verb) == expected, (verb, game.tick_index, body.id)
                seen[verb] += len(expected)
            wanted = rng.sample(ids, rng.randint(1, 8))
            have = possession(game.world, body)
            expected_has = any(have.get(oid, 0) > 0 for oid in wanted)
            assert has_any_of(game, body, wanted) == expected_has, (wanted, have)
            seen["has"] += expected_has
        actions: dict[str, Any] = {}
        for agent_id in game.agent_ids:
            options = valid_actions(game, agent_id)
            actions[agent_id] = rng.choice(options[rng.choice(list(options))])
        game.tick(actions)
    assert min(seen.values()) > 100, seen  # each listing had plenty to list
