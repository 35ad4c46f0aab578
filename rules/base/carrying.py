"""What the base verbs share: amounts, names in reach, and moving units with their tracking events.

Rule pack `base`. Locations for the dependency tracker are `area`, `hand`, `equip` and `container`
(the equipped inventory is just its container),
docs/mechanics/dependency-tracking.md#tracking-events; armour uses `equip` too (the reference's
separate `armor` kind strands tokens; quirk "equipped items are tracked at equip",
docs/mechanics/dependency-tracking.md#quirk-equipped-items-are-tracked-at-equip).
"""

from __future__ import annotations

import functools
import math
from abc import ABC
from typing import ClassVar

from agentodyssey_pz.rules.base import INVENTORY, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.parse import command_text
from agentodyssey_pz.world.agents import AgentState, add_count, remove_count
from agentodyssey_pz.world.entities import ContainerInstance
from agentodyssey_pz.world.world import World

FRACTION_DIGITS = 9  # fractional crafting credit is rounded to this many decimals


def parse_amount(text: str) -> int | None:
    """A positive whole number written in ASCII digits, else None."""
    if not text or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if value > 0 else None


_AMOUNT_WORDS = tuple(str(n) for n in range(1, 1001))  # "1".."1000", written once


def amount_words(limit: int, all_amounts: bool) -> tuple[str, ...]:
    """Amount parameters to list: "1".."limit", or only "1" (when at least 1 is possible)."""
    top = limit if all_amounts else min(limit, 1)
    if top <= len(_AMOUNT_WORDS):
        return _AMOUNT_WORDS[: max(top, 0)]
    return tuple(str(n) for n in range(1, top + 1))


# Runs of up to CACHED_RUN amounts are kept, at most CACHED_RUNS of them: a process's whole cache
# stays near 25 MB at most however rich the agents get (900 coins in a bag list 900 commands a
# tick, and each new sum would otherwise keep another run).
CACHED_RUN = 64
CACHED_RUNS = 1 << 12


def _write_run(verb_phrase: str, rest: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """`<verb> 1 <rest>` ... `<verb> <limit> <rest>`."""
    return tuple(command_text(verb_phrase, (n, *rest)) for n in amount_words(limit, True))


# Short runs are written once: they repeat from tick to tick.
_short_run = functools.lru_cache(maxsize=CACHED_RUNS)(_write_run)


AmountRuns = list[tuple[tuple[str, ...], int]]


# spike (mypyc): an ABC (no abstract methods) so that a compiled verb's bases can be set to
# (ListsAmounts, BaseActionRule) after the fact (`__bases__` needs the same layout: both over ABC);
# the MRO of those verbs is the pure build's.
@mypyc_attr(native_class=False)  # spike: packs subclass it
class ListsAmounts(ABC):
    """For verbs whose first parameter is an amount: `valid_params` and `valid_commands` from
    `amount_runs(ctx)` - per listed entry, the other parameters and the largest amount. Mixed in
    before `BaseActionRule`. Lists of amounts get long (a stack of 40 stones, two bags: 80
    commands), so the written commands of a run are cached."""

    verb: ClassVar[str]

    def amount_runs(self, ctx: RuleContext) -> AmountRuns:
        raise NotImplementedError

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [
            (n, *rest)
            for rest, limit in self.amount_runs(ctx)
            for n in amount_words(limit, all_amounts)
        ]

    def valid_commands(self, ctx: RuleContext) -> list[str]:
        out: list[str] = []
        verb = self.verb
        for rest, limit in self.amount_runs(ctx):
            # No helper call per run: a crowd's bags make store list dozens of runs per agent.
            if limit > CACHED_RUN:
                out += _write_run(verb, rest, limit)
            elif limit > 0:
                out += _short_run(verb, rest, limit)
        return out


def area_loc(area_id: str) -> dict[str, str]:
    return location("area", area_id)


def hand_loc(agent: AgentState) -> dict[str, str]:
    return location("hand", agent.id)


def equip_loc(agent: AgentState) -> dict[str, str]:
    return location("equip", agent.id)


def container_loc(container_id: str) -> dict[str, str]:
    return location("container", container_id)


def is_reachable_container(world: World, agent: AgentState, container_id: str) -> bool:
    """On the ground here, equipped as inventory, or held in hand."""
    return (
        container_id in agent.hands
        or container_id == agent.inventory_id
        or container_id in world.areas[agent.area_id].objects
    )


def find_container(
    world: World, agent: AgentState, name: str
) -> tuple[ContainerInstance | None, str]:
    """Resolve a container name (`inventory` or an instance name) within reach.

    Returns (container, "") or (None, reason).
    """
    if name == INVENTORY:
        if agent.inventory_id is None:
            return None, "I have no inventory equipped"
        return world.containers[agent.inventory_id], ""
    cid = world.obj_name_to_id.get(name)
    if cid is None or cid not in world.containers:
        return None, f"there is no container called {name}"
    if not is_reachable_container(world, agent, cid):
        return None, f"{name} is not here, in my hands or equipped"
    return world.containers[cid], ""


def store_loc(world: World, agent: AgentState, store: dict[str, int]) -> dict[str, str]:
    """Tracking location of one of `carried_stores`' dicts."""
    if store is agent.hands:
        return hand_loc(agent)
    for container in world.containers.values():
        if container.items is store:
            return container_loc(container.id)
    return hand_loc(agent)


def take_units(
    world: World,
    agent: AgentState,
    stores: list[dict[str, int]],
    def_id: str,
    amount: int,
    res: RuleResult,
) -> None:
    """Remove `amount` units of a definition from the stores in order (instances one by one)."""
    def_of = world.def_of
    for store in stores:
        if amount <= 0:
            return
        for oid in [k for k in store if def_of(k).id == def_id]:
            take = min(store[oid], amount)
            remove_count(store, oid, take)
            res.track_consume(
                agent.id, oid, take, store_loc(world, agent, store) if res.tracking else {}
            )
            if world.is_instance(oid):
                world.delete_instance(oid)  # a used-up note or bag stops existing
            amount -= take
            if amount <= 0:
                return


def count_in_stores(world: World, stores: list[dict[str, int]], def_id: str) -> int:
    def_of = world.def_of
    return sum(n for store in stores for oid, n in store.items() if def_of(oid).id == def_id)


def place_on_ground(
    world: World, agent: AgentState, def_id: str, count: int, res: RuleResult
) -> list[tuple[str, int]]:
    """New units of a definition appear on the agent's ground (containers, writables: instances)."""
    placed = world.spawn_on_ground(agent.area_id, def_id, count)
    if res.tracking:
        for oid, n in placed:
            res.track_spawn(agent.id, oid, n, area_loc(agent.area_id))
    return placed


def move_units(
    agent: AgentState, oid: str, count: int, src: dict[str, int], dst: dict[str, int]
) -> None:
    remove_count(src, oid, count)
    add_count(dst, oid, count)


def units_needed(required: float, credit: float) -> tuple[int, float]:
    """Whole units to consume for a fractional requirement, given leftover credit.

    Returns (units, new credit). E.g. 0.5 needed, 0 credit -> 1 unit, 0.5 credit left.
    """
    need = round(required - credit, FRACTION_DIGITS)
    if need <= 0:
        return 0, round(-need, FRACTION_DIGITS)
    units = math.ceil(need)
    return units, round(units - need, FRACTION_DIGITS)
