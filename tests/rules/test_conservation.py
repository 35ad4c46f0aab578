"""Conservation of units and coins under thousands of random actions (action rules only).

For three agents on each bundled world, a seeded generator mixes commands offered by the verbs'
`valid_params` with random garbage, and runs each through the action rules alone (no step rules, so
nothing but the verb changes the world). After every action the units of every definition, summed
over every place (grounds, hands, equipped items, containers lying or carried anywhere, NPC
inventories), with NPC purses added to the currency, must be unchanged - except exactly where
docs/mechanics/verbs.md says otherwise:

* `sell` destroys the sold units (the merchant pays coins out of its own purse: coins conserved);
* `craft` creates `amount` products and consumes at most ceil(quantity x amount) of each ingredient;
* `enter` through a locked path uses up the one key (or lockpick) that opened it.

`buy` (coins to the merchant's purse, goods from its stock to the ground) and killing (loot from the
NPC to the ground; its coins stay in its record) conserve everything. Also checked after every
action: no empty or negative entries anywhere, and never more than two units in hand.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest
from harness import act, make_game
from worlds_helper import bundled_worlds

from agentodyssey_pz.engine.tick import resolve_command
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import Command, ParseFailure
from agentodyssey_pz.world.agents import HAND_CAPACITY

BASE_VERBS = {
    "wait", "defend", "pick_up", "drop", "enter", "attack", "store", "discard", "take_out",
    "talk_to", "inspect", "equip", "unequip", "craft", "write", "buy", "sell",
}  # fmt: skip
ACTIONS_PER_WORLD = 1200
GARBAGE_SHARE = 0.25
FAVOURED = {"craft": 5, "buy": 3, "sell": 3, "attack": 2}
NUMBERS = ["0", "1", "2", "3", "4", "-1", "99", "x"]


# ----------------------------------------------------------------------------- bookkeeping
def places(game: Any) -> list[dict[str, int]]:
    """Every dict of units in the game: grounds, hands, equipped, located containers, NPCs."""
    world = game.world
    stores = [area.objects for area in world.areas.values()]
    for body in game.agents.values():
        stores += [body.hands, body.equipped]
    stores += [npc.inventory for npc in world.npcs.values()]
    # Containers are counted where they lie; a container that is nowhere (deleted) holds nothing.
    located = {oid for store in stores for oid in store if oid in world.containers}
    return stores + [world.containers[cid].items for cid in sorted(located)]


def census(game: Any) -> Counter[str]:
    """Units per definition id over every place, with every NPC's purse added to the currency."""
    world = game.world
    totals: Counter[str] = Counter()
    for store in places(game):
        for oid, n in store.items():
            obj = world.find_def(oid)
            if obj is not None:  # undefined ids (possible in NPC loot) are not units of anything
                totals[obj.id] += n
    if world.currency_id is not None:
        totals[world.currency_id] += sum(npc.coins for npc in world.npcs.values())
    return totals


def check_tidy(game: Any) -> None:
    for store in places(game):
        assert all(n > 0 for n in store.values()), store
    for npc in game.world.npcs.values():
        assert npc.coins >= 0, npc
    for body in game.agents.values():
        assert sum(body.hands.values()) <= HAND_CAPACITY, body.hands


def consumed(game: Any, res: RuleResult) -> Counter[str]:
    """Units used up according to this action's track.consume events, per definition."""
    used: Counter[str] = Counter()
    for event in res.events:
        if event.type == "track.consume":
            used[game.world.def_of(event.data["obj_id"]).id] += event.data["amount"]
    return used


def expected_change(game: Any, verb: str, res: RuleResult, delta: Counter[str]) -> Counter[str]:
    """The change docs/mechanics/verbs.md allows for this action (checking bounds where it only
    bounds it)."""
    world = game.world
    allowed: Counter[str] = Counter()
    for event in res.events:
        if event.type == "object_sold":
            allowed[event.data["obj_id"]] -= event.data["amount"]
        elif event.type == "object_crafted":
            product, amount = event.data["obj_id"], event.data["amount"]
            allowed[product] += amount
            recipe = world.objects[product].craft.ingredients
            used = {d: -n for d, n in delta.items() if d != product and n}
            assert set(used) <= set(recipe), (product, used)
            for ingredient, quantity in recipe.items():
                assert 0 <= used.get(ingredient, 0) <= math.ceil(quantity * amount - 1e-9)
            assert used == {d: n for d, n in consumed(game, res).items() if n}, "tracking disagrees"
            for ingredient, n in used.items():
                allowed[ingredient] -= n
    if verb == "enter" and "enter.unlocked" in res.feedback_keys(res_agent(res)):
        [(opener, n)] = consumed(game, res).items()
        assert n == 1
        allowed[opener] -= 1
    return allowed


def res_agent(res: RuleResult) -> str:
    return next(aid for aid, lines in res.feedback.items() if lines)


# ----------------------------------------------------------------------------- the generator
def act_tracked(game: Any, agent_id: str, command: Any) -> tuple[str, RuleResult]:
    """Run one command through the action rules only, with tracking on; returns (verb, result)."""
    parsed = resolve_command(game, command)
    if isinstance(parsed, ParseFailure):  # act rejects it again, with the same reason
        return "", act(game, agent_id, command, tracking=True)
    return parsed.verb, act(game, agent_id, parsed, tracking=True)


def nearby(game: Any, agent_id: str) -> dict[str, list[tuple[str, ...]]]:
    """Commands on what is at hand, for verbs whose valid_params list nothing."""
    world, body = game.world, game.agents[agent_id]
    return {
        "pick_up": [(world.name_of(o),) for o in world.areas[body.area_id].objects],
        "drop": [(world.name_of(o),) for o in body.hands],
        "enter": [(name,) for name in world.neighbor_names(body.area_id)],
        "wait": [()],
        "defend": [()],
    }


def offered(game: Any, agent_id: str) -> dict[str, list[tuple[str, ...]]]:
    """Per verb: the tuples its valid_params offer (or, if none, commands on nearby things)."""
    ctx = RuleContext(game, game.world, game.agents[agent_id], "", (), game.tick_index)
    menu = {v: rule.valid_params(ctx, all_amounts=True) for v, rule in game.engine.rules.items()}
    for verb, options in nearby(game, agent_id).items():
        if not menu.get(verb) and verb in game.engine.rules:
            menu[verb] = options
    return {v: options for v, options in menu.items() if options}


def garbage(game: Any, rng: random.Random) -> Any:
    """A plausible but random command: a known verb with random names and numbers."""
    world = game.world
    names = [*world.obj_name_to_id, *world.npc_name_to_id, "inventory"]
    names += [a.name for a in world.areas.values()]
    rule = rng.choice(list(game.engine.rules.values()))
    arity = rule.param_min if rng.random() < 0.85 else rng.randint(0, 4)
    params = [rng.choice(NUMBERS if rng.random() < 0.3 else names) for _ in range(arity)]
    if rng.random() < 0.1:
        return " ".join([rule.verb, *params])  # unquoted: names with spaces split
    return Command(rule.name, tuple(params))


def next_command(game: Any, agent_id: str, rng: random.Random) -> Any:
    if rng.random() < GARBAGE_SHARE:
        return garbage(game, rng)
    menu = offered(game, agent_id)
    # A verb first, so long amount lists do not crowd the others out; the verbs that create and
    # destroy units are favoured.
    verbs = sorted(menu)
    verb = rng.choices(verbs, weights=[FAVOURED.get(v, 1) for v in verbs])[0]
    return Command(verb, rng.choice(menu[verb]))


def seed_money(game: Any, rng: random.Random) -> None:
    """Before counting starts: coins near every merchant, and the second agent standing by one
    with a purse (an equipped container of coins), so trades happen."""
    world = game.world
    currency = world.currency_id
    merchants = [n for n in world.npcs.values() if n.role == "merchant" and n.area_id is not None]
    bags = [o.id for o in world.objects.values() if o.is_container]
    if currency is None or not merchants or not bags:
        return
    for npc in merchants:
        world.areas[npc.area_id].add_objects(currency, 40)
    body = game.agents[game.agent_ids[1]]
    game.move_agent(body, rng.choice(merchants).area_id)
    purse = world.new_instance(rng.choice(bags))
    body.equipped[purse] = 1
    body.inventory_id = purse
    world.containers[purse].items[currency] = 60


def seed_workshop(game: Any, rng: random.Random, kinds: int = 3) -> None:
    """Before counting starts: the last agent gets an inventory holding the ingredients of a few
    recipes, whose stations stand where it is, so crafting happens."""
    world, body = game.world, game.agents[game.agent_ids[-1]]
    bags = [o.id for o in world.objects.values() if o.is_container]
    recipes = [o for o in world.objects.values() if o.is_craftable]
    if not bags or not recipes:
        return
    bag = world.new_instance(rng.choice(bags))
    body.equipped[bag] = 1
    body.inventory_id = bag
    for product in rng.sample(recipes, min(kinds, len(recipes))):
        for station in product.craft.dependencies:
            if station in world.objects:
                world.spawn_on_ground(body.area_id, station, 1)
        for ingredient, quantity in product.craft.ingredients.items():
            if ingredient in world.objects and not world.objects[ingredient].is_instanced:
                store = world.containers[bag].items
                store[ingredient] = store.get(ingredient, 0) + math.ceil(quantity * 3)


def seed_prey(game: Any) -> None:
    """Before counting starts: a weakened enemy carrying loot next to the first agent."""
    world, body = game.world, game.agents[game.agent_ids[0]]
    prey = next(n for n in world.npcs.values() if n.enemy and n.area_id is not None and n.inventory)
    world.place_npc(prey.id, body.area_id)
    prey.hp = 1


@pytest.mark.parametrize("world", bundled_worlds())
def test_units_and_coins_are_conserved(world: str) -> None:
    game = make_game(world, agents=3, seed=7)
    assert set(game.engine.rules) >= BASE_VERBS  # the whole base game is under test
    rng = random.Random(world)
    seed_money(game, rng)
    seed_workshop(game, rng)
    seed_prey(game)
    seen: Counter[str] = Counter()
    kills = 0
    before = census(game)
    for step in range(ACTIONS_PER_WORLD):
        agent_id = game.agent_ids[step % len(game.agent_ids)]
        command = next_command(game, agent_id, rng)
        verb, res = act_tracked(game, agent_id, command)
        after = census(game)
        delta = after.copy()
        delta.subtract(before)
        allowed = expected_change(game, verb, res, delta)
        changed = {d: n for d, n in delta.items() if n}
        assert changed == {d: n for d, n in allowed.items() if n}, (
            step,
            agent_id,
            command,
            res.feedback,
        )
        check_tidy(game)
        if res.action_ok[agent_id]:
            seen[verb] += 1
        kills += sum(e.type == "npc_killed" for e in res.events)
        before = after
    # The run exercised the verbs that move, create and destroy units.
    for verb in ("pick_up", "drop", "enter", "store", "take_out", "buy", "sell", "craft", "attack"):
        assert seen[verb] > 0, (verb, seen)
    assert kills > 0


def test_census_counts_every_place() -> None:
    """The helper itself: moves between places leave it unchanged, anything else shows."""
    game = make_game(bundled_worlds()[0], agents=3, seed=7)
    world, body = game.world, game.agents["agent_0"]
    currency = world.currency_id
    base = census(game)
    bag = world.new_instance(next(o.id for o in world.objects.values() if o.is_container))
    body.hands[bag] = 1
    world.containers[bag].items[currency] = 5
    grown = census(game)
    assert grown[currency] == base[currency] + 5
    assert grown[world.def_of(bag).id] == base[world.def_of(bag).id] + 1
    world.containers[bag].items[currency] = 3
    npc = next(iter(world.npcs.values()))
    npc.coins += 2  # a purse counts as currency
    assert census(game) == grown
    del body.hands[bag]  # a container lying nowhere holds nothing
    body.equipped[bag] = 1
    assert census(game) == grown
    del body.equipped[bag]
    assert census(game)[currency] == base[currency] + 2
