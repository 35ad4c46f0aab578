"""What the `outbreak` pack's rules share: where their state lives, the possession sources, and
taking units out of them.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack). AgentOdyssey keeps this game's
state in its per-agent state table; here each piece is a key of `world.auxiliary` (plain JSON, so
checkpoints and resume are exact), named as AgentOdyssey names it:

| key | content |
|---|---|
| `barricaded_paths` | list of `{from, to, agent_id, step}` |
| `stunned_npcs` | NPC id -> stuns left |
| `area_corpses` | area id -> NPC definition ids |
| `area_corruption` | area id -> corruption |
| `corruption_spawn_cooldown` | area id -> ticks left |
| `in_darkness` | agent id -> bool |
| `light_fuel` | agent id -> {held object id -> fuel} |
| `quarantine_lockdown` | area id -> `{timer, active, locked_paths, locked_containers}` |
| `sealed_containers` | container id -> why (`world.sealed`; lockdown `seal_containers` on) |

"Possession sources" are the hands, then the equipped inventory, then the containers held in
hand (hand order): `carried_stores`.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Record, rule_state_problems
from agentodyssey_pz.world.agents import AgentState, carried_stores, remove_count
from agentodyssey_pz.world.darkness import LIGHT_SOURCE_EXTRA, in_darkness
from agentodyssey_pz.world.world import World

BARRICADED = "barricaded_paths"
STUNNED = "stunned_npcs"
CORPSES = "area_corpses"
CORRUPTION = "area_corruption"
SPAWN_COOLDOWN = "corruption_spawn_cooldown"
IN_DARKNESS = "in_darkness"
LIGHT_FUEL = "light_fuel"
LOCKDOWN = "quarantine_lockdown"
SEALED = "sealed_containers"  # `agentodyssey_pz.world.sealed.SEALED`, read by the base pack

PATH_SHAPE = Record({"from": str, "to": str})
SHAPES: dict[str, Any] = {
    BARRICADED: ListOf(Record({"from": str, "to": str, "agent_id": str, "step": int})),
    STUNNED: MapOf(int),
    CORPSES: MapOf(ListOf(str)),
    CORRUPTION: MapOf(int),
    SPAWN_COOLDOWN: MapOf(int),
    IN_DARKNESS: MapOf(bool),
    LIGHT_FUEL: MapOf(MapOf(int)),
    SEALED: MapOf(str),
    LOCKDOWN: MapOf(
        Record(
            {
                "timer": int,
                "active": bool,
                "locked_paths": ListOf(PATH_SHAPE),
                "locked_containers": ListOf(str),
            }
        )
    ),
}
FRESH: dict[str, Any] = {BARRICADED: list, **{k: dict for k in SHAPES if k != BARRICADED}}


def table(world: World, key: str) -> Any:
    """The pack's state under `key` in `world.auxiliary`, made empty on first use."""
    found = world.auxiliary.get(key)
    if found is None:
        found = world.auxiliary[key] = FRESH[key]()
    return found


def peek(world: World, key: str) -> Any:
    """The state under `key`, or an empty one (not stored): for listings, which change nothing."""
    found = world.auxiliary.get(key)
    return FRESH[key]() if found is None else found


class KeepsStates:
    """A step rule that declares several of the pack's `world.auxiliary` keys (`states`), checked
    when a saved game loads."""

    states: tuple[str, ...] = ()

    def check_saved_state(self, world: World, agents: Any) -> list[str]:
        problems: list[str] = super().check_saved_state(world, agents)  # type: ignore[misc]
        for key in self.states:
            problems += rule_state_problems(world, agents, key, None, SHAPES[key])
        return problems


# ---------------------------------------------------------------------------- possession sources
def sources(world: World, agent: AgentState) -> list[tuple[dict[str, int], dict[str, str]]]:
    """(store, tracking location) of each possession source, in order: hands, the equipped
    inventory, the containers held in hand (hand order)."""
    containers = world.containers
    out = [(agent.hands, location("hand", agent.id))]
    if agent.inventory_id is not None:
        out.append(
            (containers[agent.inventory_id].items, location("container", agent.inventory_id))
        )
    for oid in agent.hands:
        held = containers.get(oid)
        if held is not None:
            out.append((held.items, location("container", oid)))
    return out


def units_held(world: World, agent: AgentState, def_id: str) -> int:
    """Units of a plain definition over the possession sources (the same stores as `sources`,
    without the tracking locations: listings ask it for every agent and tick)."""
    total = 0
    for store in carried_stores(world, agent):
        total += store.get(def_id, 0)
    return total


def take_one(world: World, agent: AgentState, def_id: str, res: RuleResult) -> bool:
    """Consume one unit of a plain definition from the first possession source holding one;
    False (nothing changed) when none does."""
    for store, where in sources(world, agent):
        if store.get(def_id, 0) > 0:
            remove_count(store, def_id, 1)
            res.track_consume(agent.id, def_id, 1, where)
            return True
    return False


def fighting_here(world: World, agent: AgentState) -> bool:
    """The agent has a fight recorded in its current area with an NPC that still stands."""
    here = agent.area_id
    npcs = world.npcs
    for npc_id, engagement in agent.combats.items():
        if engagement.area_id == here:
            npc = npcs.get(npc_id)
            if npc is not None and npc.area_id is not None:
                return True
    return False


def may_fight_here(world: World, agent: AgentState) -> bool:
    """For listings: `fighting_here`, except that in the dark (which hides whether the foe still
    stands) any fight recorded counts, so nothing hidden decides what is offered (docs/rule-packs.md
    "Listings in the dark": a path left out there may still work typed)."""
    if not agent.combats:  # no fight at all: the same answer in the dark and in the light
        return False
    return True if in_darkness(world, agent) else fighting_here(world, agent)


def named_neighbor(world: World, agent: AgentState, name: str) -> tuple[str, dict] | None:
    """(area id, path) of the neighbour a command names, or None."""
    for neighbor, found, path in world.named_neighbors(agent.area_id, agent.id):
        if found == name:
            return neighbor, path
    return None


def is_light_source(world: World, oid: str) -> bool:
    obj = world.find_def(oid)
    return obj is not None and obj.extras.get(LIGHT_SOURCE_EXTRA) is True


def max_fuel(world: World, oid: str, default: int) -> int:
    value = world.def_of(oid).extras.get("max_fuel", default)
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
