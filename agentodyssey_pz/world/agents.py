"""Agent bodies and what they carry.

Layer: world core. `AgentState` is one agent's record: where it stands, what it holds and wears, its
stats, its combat state and the progress the rewards and quests track. The functions below answer
"what does this agent carry" the same way for every rule (hands, equipped items, the inventory
container, containers held in hand), resolving instances to their definitions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from agentodyssey_pz.world.entities import ContainerInstance
from agentodyssey_pz.world.sealed import SEALED
from agentodyssey_pz.world.world import World

HAND_CAPACITY = 2  # units, not kinds: two coins fill both hands
INVENTORY = "inventory"  # the container name meaning "my equipped inventory" in commands


@attrs.define(slots=True)
class Engagement:
    """One NPC an agent is fighting in rhythm combat."""

    rhythm_index: int
    area_id: str


@attrs.define(slots=True)
class AgentState:
    id: str
    name: str
    area_id: str
    hands: dict[str, int] = attrs.Factory(dict)
    equipped: dict[str, int] = attrs.Factory(dict)
    inventory_id: str | None = None  # the container instance equipped as inventory
    hp: int = 100
    max_hp: int = 100
    min_attack: int = 10
    attack: int = 10
    defense: int = 0
    xp: int = 0
    level: int = 1
    stamina: float = 1.0
    consecutive_attacks: int = 0
    defending: bool = False
    combats: dict[str, Engagement] = attrs.Factory(dict)
    # Tracked progress (rewards diff these; ordered sets are dicts with None values).
    visited: dict[str, None] = attrs.Factory(dict)
    crafted: dict[str, int] = attrs.Factory(dict)
    traded: dict[str, int] = attrs.Factory(dict)
    kills: int = 0
    killed: dict[str, int] = attrs.Factory(dict)  # NPC instance id -> times killed
    unique_kills: dict[str, None] = attrs.Factory(dict)  # "<npc definition id>_<level>"
    acquired: dict[str, None] = attrs.Factory(dict)  # definition ids ever carried
    deaths: int = 0
    # Fractions of ingredient units already paid for by earlier crafts (definition id -> fraction),
    # so repeated fractional crafts consume exactly the recipe's amounts.
    craft_credit: dict[str, float] = attrs.Factory(dict)
    tutorial_passed: bool = True
    tutorial_stage: int = 0
    # JSON-compatible progress of stateful rules (quests, tutorial, pack rules), by rule.
    progress: dict[str, Any] = attrs.Factory(dict)

    @property
    def hands_used(self) -> int:
        return sum(self.hands.values())

    @property
    def hands_full(self) -> bool:
        return sum(self.hands.values()) >= HAND_CAPACITY

    @property
    def in_combat(self) -> bool:
        return bool(self.combats)


def add_count(store: dict[str, int], key: str, count: int) -> None:
    store[key] = store.get(key, 0) + count


def remove_count(store: dict[str, int], key: str, count: int) -> None:
    """Take `count` units out; an entry that reaches 0 is deleted (no empty entries, ever)."""
    left = store[key] - count
    if left > 0:
        store[key] = left
    else:
        del store[key]


def inventory_of(world: World, agent: AgentState) -> ContainerInstance | None:
    return world.containers[agent.inventory_id] if agent.inventory_id is not None else None


def held_containers(world: World, agent: AgentState) -> list[ContainerInstance]:
    """Container instances in the agent's hands, in hand order."""
    containers = world.containers
    held = []  # a plain loop: two hands at most
    for oid in agent.hands:
        if oid in containers:
            held.append(containers[oid])
    return held


def carried_stores(world: World, agent: AgentState) -> list[dict[str, int]]:
    """Where crafting, buying and selling take things from, in that order: hands, the equipped
    inventory, then each container held in hand."""
    containers = world.containers
    stores = [agent.hands]
    if agent.inventory_id is not None:
        stores.append(containers[agent.inventory_id].items)
    for oid in agent.hands:  # containers held in hand, in hand order (`held_containers`)
        held = containers.get(oid)
        if held is not None:
            stores.append(held.items)
    return stores


def units_by_definition(world: World, stores: Iterable[dict[str, int]]) -> dict[str, int]:
    """Units per definition id over some stores (instances counted under their definition), in
    order of first mention."""
    def_of = world.def_of
    totals: dict[str, int] = {}
    for store in stores:
        for oid, n in store.items():
            did = def_of(oid).id
            totals[did] = totals.get(did, 0) + n
    return totals


# `reach_key` gives up (None) beyond this many containers on one ground: their contents make the key
# cost more than the listings it would save (a crowded spawn area collects dozens of sacks).
REACH_KEY_MAX_GROUND_CONTAINERS = 8


def reach_key(world: World, agent: AgentState) -> tuple[Any, ...] | None:
    """What an agent can reach now, as a value equal to an earlier one (of the same World) only
    if none of it changed: the names and definitions (`names_revision`), the area, hands,
    equipment, the equipped inventory, the ground here, the contents of every container in hand,
    equipped or on the ground, and the crafting credit. Listings that read nothing else
    (`BaseActionRule.lists_from_reach`) can be reused while it stays equal. None when more than
    REACH_KEY_MAX_GROUND_CONTAINERS containers lie here (nothing is reused then).

    Tuples of dict items, built and compared in C: 1-3 us."""
    containers = world.containers
    ground = world.areas[agent.area_id].objects
    key: list[Any] = [
        world.names_revision,
        agent.area_id,
        agent.inventory_id,
        tuple(agent.hands.items()),
        tuple(agent.equipped.items()),
        tuple(ground.items()),
        tuple(agent.craft_credit.items()) if agent.craft_credit else None,
    ]
    sealed = world.auxiliary.get(SEALED)  # `world.sealed`: containers a rule closed
    if sealed:
        key.append(tuple(sealed))
    if containers:
        # Set order may differ between equal grounds: that only makes keys unequal, never equal.
        on_ground = ground.keys() & containers.keys()
        if len(on_ground) > REACH_KEY_MAX_GROUND_CONTAINERS:
            return None
        if agent.inventory_id is not None:
            key.append(tuple(containers[agent.inventory_id].items.items()))
        for oid in agent.hands:  # `held_containers`, inlined as in `carried_stores` (every tick)
            box = containers.get(oid)
            if box is not None:
                key.append((oid, tuple(box.items.items())))
        for oid in on_ground:
            key.append((oid, tuple(containers[oid].items.items())))
    return tuple(key)


def possession(world: World, agent: AgentState) -> dict[str, int]:
    """Units carried per definition id: hands, equipped, inventory and containers held in hand."""
    # The equipped container itself is an entry of `equipped`; its contents are the inventory store.
    return units_by_definition(world, (agent.equipped, *carried_stores(world, agent)))


def count_carried(world: World, agent: AgentState, def_id: str) -> int:
    """`possession(world, agent)[def_id]`, without building the whole table (asked every tick)."""
    obj = world.objects.get(def_id)
    if obj is not None and not obj.is_instanced:  # units lie under the definition id itself
        total = agent.equipped.get(def_id, 0)
        for store in carried_stores(world, agent):
            total += store.get(def_id, 0)
        return total
    def_of = world.def_of
    total = 0
    for store in (agent.equipped, *carried_stores(world, agent)):
        for oid, n in store.items():
            if oid == def_id or def_of(oid).id == def_id:
                total += n
    return total


def container_load(world: World, container: ContainerInstance) -> int:
    """Space used: definition size x count over every entry (instances resolved to their
    definition).

    One formula everywhere (the reference has three;
    docs/mechanics/verbs.md#quirk-one-load-formula)."""
    def_of = world.def_of
    load = 0
    for oid, n in container.items.items():  # a plain loop, not sum() over a generator: hot
        load += (def_of(oid).size or 0) * n
    return load
