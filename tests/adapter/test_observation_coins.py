"""The vector's coin count is what a purchase can spend: coins in hand, in the equipped inventory
and in containers held in hand (an audit found the last ones missing)."""

from __future__ import annotations

import math

import numpy as np

import agentodyssey_pz
from agentodyssey_pz.observe.encode import COIN_SCALE
from agentodyssey_pz.world.agents import add_count, count_carried


def coins_value(n: int) -> float:
    return float(np.float32(min(1.0, math.log1p(n) / math.log1p(COIN_SCALE))))


def test_coins_in_hand_in_the_inventory_and_in_a_held_container_all_count() -> None:
    env = agentodyssey_pz.parallel_env(num_agents=1, tutorial=False)
    env.reset(seed=0)
    game, world = env.game, env.game.world
    agent, coin = game.agents["agent_0"], world.currency_id
    agent.hands.clear()
    bag_kind = next(o.id for o in world.objects.values() if o.is_container)
    held, worn = world.new_instance(bag_kind), world.new_instance(bag_kind)
    add_count(agent.hands, held, 1)
    agent.inventory_id = worn
    add_count(agent.hands, coin, 1)
    add_count(world.containers[worn].items, coin, 3)
    add_count(world.containers[held].items, coin, 5)
    offset = env.layout.at["self"] + 8
    vector = env.encoder.encode(game, agent)
    assert count_carried(world, agent, coin) == 9
    assert vector[offset] == coins_value(9)
    world.containers[held].items.clear()  # the held bag's coins gone: the vector says so
    assert env.encoder.encode(game, agent)[offset] == coins_value(4)
