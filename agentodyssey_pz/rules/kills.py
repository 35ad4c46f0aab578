"""An agent killing an NPC: the one resolution every verb that kills shares, whatever its pack.

Layer: rule framework. The base pack's `attack` and other packs' verbs that kill (the scavenging
pack's `throw`, spells, traps ...) call `kill_npc`, so a kill is recorded, its loot dropped and
`npc_killed` emitted the same way everywhere (docs/rule-packs.md#killing-an-npc). Rule packs
cannot import each other's modules, which is why this lives here rather than in `rules/base/`.

Fixed reference quirks (the base pack's `attack` documents them): kills are held back only for an
agent that has not passed the tutorial, not for everyone while anyone is in it; loot is moved, so
the dead NPC's inventory is empty afterwards and nothing can drop twice; an item id no definition
has is left out of the loot instead of failing.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

FULL_STAMINA = 1.0  # an agent with no fight left is rested


def end_engagement(agent: AgentState, npc_id: str) -> None:
    """Stop fighting one NPC; with no fight left the agent is rested (stamina full, no streak)."""
    agent.combats.pop(npc_id, None)
    if not agent.combats:
        agent.stamina = FULL_STAMINA
        agent.consecutive_attacks = 0


def record_kill(agent: AgentState, npc: Npc) -> None:
    """Kill tracking for rewards and quests; an agent still in the tutorial earns none."""
    if not agent.tutorial_passed:
        return
    agent.kills += 1
    agent.killed[npc.id] = agent.killed.get(npc.id, 0) + 1
    agent.unique_kills.setdefault(f"{npc.def_id}_{npc.level}", None)


def drop_loot(
    world: World, agent: AgentState, npc: Npc, area_id: str, res: RuleResult
) -> list[tuple[str, int]]:
    """Move the NPC's inventory onto an area's ground (its coins stay with it).

    Containers and writables become new instances; ids the world does not define vanish.
    """
    area = world.areas[area_id]
    placed: list[tuple[str, int]] = []
    for oid, count in npc.inventory.items():
        if count <= 0 or world.find_def(oid) is None:
            continue
        if world.is_instance(oid):  # an existing instance moves as it is
            area.add_objects(oid, count)
            placed.append((oid, count))
        else:
            placed += world.spawn_on_ground(area.id, world.def_of(oid).id, count)
    npc.inventory.clear()
    for oid, n in placed:
        res.track_spawn(agent.id, oid, n, location("area", area.id))
    return placed


def kill_npc(ctx: RuleContext, res: RuleResult, npc: Npc) -> list[tuple[str, int]]:
    """`ctx.actor` kills `npc`: HP 0, fight over, kill recorded, NPC off the map, loot on the
    ground where it stood (the agent's area if it was off the map), event `npc_killed`.
    Returns the loot placed as (object id, count) entries.

    The NPC keeps its record (and name) in `world.npcs`; other agents' stale engagements with it
    are dropped by the base pack's combat-rhythm step rule.
    """
    agent, world = ctx.actor, ctx.world
    area_id = npc.area_id if npc.area_id is not None else agent.area_id
    npc.hp = 0
    end_engagement(agent, npc.id)
    record_kill(agent, npc)
    world.remove_npc_from_map(npc.id)
    placed = drop_loot(world, agent, npc, area_id, res)
    res.emit("npc_killed", agent.id, {"npc_id": npc.id, "area_id": area_id})
    return placed
