"""Valid-action lists: every listed command is accepted by the engine; lists keep the reference's
order.

docs/mechanics/observations.md#valid-actions (with our fixes: reachable containers only, no
duplicates, `defend` and `talk to` listed). Random walks of listed commands on every bundled world
(with its tutorial, and without; outside the tutorial each agent starts with a purse of coins)
reach a few hundred states; in each, every command listed for one
agent is played from a copy of the state (pickled once, unpickled per command) with the other agent
waiting, and must be neither invalid nor refused by its rule. Verbs with long lists (store and
discard enumerate every amount) are sampled: their first two, their last two and one other.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from harness import clear_world, give, make_game, put_on_ground, spawn_npc
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.observe.masks import valid_actions

AGENTS = ("agent_0", "agent_1")
WALK_TICKS = 120
CHECK_EVERY = 3  # ticks between checked states: 40 states per walk
PER_VERB, EDGE = 5, 2  # commands played per verb and state (see `sample`)
PURSE_COINS = 15
# Keys in order of first insertion. `talk to` and `defend` are our
# additions (placed next to `attack` and before `wait`); other packs' verbs come after these.
SPEC_ORDER = (
    "enter", "pick up", "drop", "attack", "talk to", "store", "take out", "discard", "equip",
    "unequip", "inspect", "craft", "buy", "sell", "write", "defend", "wait",
)  # fmt: skip


def walks() -> list[Any]:
    params = []
    for world in bundled_worlds():
        has_tutorial = "tutorial" in bundled_definition(world).custom_events
        for tutorial in (None, False) if has_tutorial else (None,):
            label = f"{world}-{'as-defined' if tutorial is None else 'no-tutorial'}"
            params.append(pytest.param(world, tutorial, id=label))
    return params


def listed(game: Game, agent_id: str) -> dict[str, list[str]]:
    actions = valid_actions(game, agent_id)
    base = [verb for verb in actions if verb in SPEC_ORDER]
    extra = [verb for verb in actions if verb not in SPEC_ORDER]  # a world pack's (cinderdeep)
    assert list(actions) == sorted(base, key=SPEC_ORDER.index) + extra, list(actions)
    assert actions["wait"] == ["wait"]
    for verb, commands in actions.items():
        assert commands, verb
        assert len(set(commands)) == len(commands), f"duplicates under {verb}: {commands}"
        assert all(c.startswith(verb + " ") or c == verb for c in commands), commands
    return actions


def equip_purse(game: Game, coins: int) -> None:
    """Each agent wears a container of the world holding coins, so walks reach buying too."""
    world = game.world
    container = next(o.id for o in world.objects.values() if o.is_container)
    for agent in game.agents.values():
        purse = world.new_instance(container)
        world.containers[purse].items[world.currency_id] = coins
        agent.equipped[purse], agent.inventory_id = 1, purse


def pick(actions: dict[str, list[str]], rng: random.Random) -> str:
    """A verb uniformly, then one of its commands (rare verbs such as buy get their turn)."""
    return rng.choice(actions[rng.choice(list(actions))])


def sample(actions: dict[str, list[str]], rng: random.Random) -> list[str]:
    """Every command of a verb with few; else its first and last few (amount 1 and the maximum
    amounts, the likeliest off-by-one spots) and one from the middle."""
    chosen = []
    for commands in actions.values():
        if len(commands) <= PER_VERB:
            chosen += commands
        else:
            middle = commands[EDGE:-EDGE]
            chosen += commands[:EDGE] + rng.sample(middle, PER_VERB - 2 * EDGE) + commands[-EDGE:]
    return chosen


def refused(blob: bytes, agent_id: str, command: str) -> str | None:
    """Play `command` for `agent_id` (the others wait) on a fresh copy; why it failed, or None."""
    game: Game = pickle.loads(blob)
    result = game.tick({aid: command if aid == agent_id else "wait" for aid in game.agent_ids})
    if result.invalid[agent_id] or not result.action_ok[agent_id]:
        return f"{command!r}: {result.feedback_keys(agent_id)} {result.feedback(agent_id)[:200]!r}"
    return None


@pytest.mark.parametrize(("world", "tutorial"), walks())
def test_every_listed_command_is_accepted_on_random_walks(
    world: str, tutorial: bool | None
) -> None:
    game = Game(world, list(AGENTS), GameConfig(tutorial=tutorial))
    game.reset(11)
    if not game.is_enabled("tutorial"):  # (the tutorial hands out its own bag and coins)
        equip_purse(game, PURSE_COINS)
    rng = random.Random(f"{world}-{tutorial}")
    checked = 0
    for step in range(WALK_TICKS):
        if step % CHECK_EVERY == 0:
            agent_id = AGENTS[(step // CHECK_EVERY) % len(AGENTS)]
            blob = pickle.dumps(game)
            commands = sample(listed(game, agent_id), rng)
            failures = [f for c in commands if (f := refused(blob, agent_id, c)) is not None]
            assert failures == [], f"{world} tick {game.tick_index} {agent_id}: {failures}"
            checked += len(commands)
        result = game.tick({aid: pick(listed(game, aid), rng) for aid in AGENTS})
        if result.terminated:
            break
    assert checked >= 150  # the walk really checked a few commands per state


def test_a_copy_plays_exactly_like_the_original() -> None:
    """The pickled copy the walk test relies on is the same game: same outcome, same state."""
    game = make_game("default", agents=2, seed=3)
    copy: Game = pickle.loads(pickle.dumps(game))
    assert state_hash(copy) == state_hash(game)
    actions = {"agent_0": valid_actions(game, "agent_0")["enter"][0], "agent_1": "defend"}
    a, b = game.tick(actions), copy.tick(actions)
    assert a.action_ok == b.action_ok == {"agent_0": True, "agent_1": True}
    assert a.feedback("agent_0") == b.feedback("agent_0")
    assert state_hash(copy) == state_hash(game)
    assert copy.agents["agent_0"].area_id != game.world.spawn_area


def test_listing_order_follows_the_spec_grouping() -> None:
    """Two hand-made states that together list every base verb group, in the reference's order."""
    game = make_game(agents=2)
    clear_world(game)
    world, me = game.world, game.agents["agent_0"]
    put_on_ground(game, me.area_id, "obj_pear", 2)
    crate = world.new_instance("obj_crate")
    me.equipped[crate], me.inventory_id = 1, crate
    # Hands full (quill, label); coins, pears and the apron in the inventory; two NPCs here.
    world.containers[crate].items.update({"obj_coin": 10, "obj_pear": 2, "obj_apron": 1})
    world.place_npc("npc_cider_seller", me.area_id)
    spawn_npc(game, "npc_wasp", me.area_id, inventory={})
    give(game, "agent_0", "obj_quill")
    give(game, "agent_0", "obj_label")
    assert list(valid_actions(game, "agent_0")) == [
        "enter", "drop", "attack", "talk to", "store", "discard", "inspect", "craft", "buy",
        "sell", "write", "defend", "wait",
    ]  # fmt: skip
    # One hand free (the apron in it), one coin in the inventory, nobody here.
    clear_world(game)
    put_on_ground(game, me.area_id, "obj_pear", 2)
    me.hands.clear()
    world.containers[crate].items.clear()
    world.containers[crate].items["obj_coin"] = 1
    give(game, "agent_0", "obj_apron")
    actions = valid_actions(game, "agent_0")
    assert list(actions) == [
        "enter", "pick up", "drop", "store", "take out", "discard", "equip", "unequip", "inspect",
        "defend", "wait",
    ]  # fmt: skip
    assert actions["take out"] == [
        "take out coin inventory",
        f"take out coin {world.name_of(crate)}",
    ]
    assert actions["equip"] == ["equip apron"]
