"""What fighting NPCs shares: who may be attacked, hit damage, stamina, and an NPC's death.

Rule pack `base`; spec actions.md section 6 (and 0.4, 0.5). `kill_npc` is the one way an agent
kills an NPC, so pack verbs that kill (spells, traps ...) record kills, drop loot and emit
`npc_killed` exactly as `attack` does. Fixed reference quirks: kills are not recorded only for an
agent that has not passed the tutorial (the reference suppresses them for everyone while anyone is
in the tutorial, spec 0.4, a quirk in rewards-and-progression 7.3). Loot is moved: the dead NPC's
inventory is emptied, so nothing can drop twice.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

from .carrying import area_loc

NPC_DEFEND_FACTOR = 0.1  # a hit on an NPC whose rhythm action this round is `defend`
STAMINA_STEP = 0.2  # stamina lost per attack after the first of a streak
STAMINA_FLOOR = 0.2
FULL_STAMINA = 1.0
DEFEND_ACTION = "defend"


def is_protected(npc: Npc) -> bool:
    """Quest guides (friendly NPCs flagged `quest`) cannot be attacked."""
    return npc.quest and not npc.enemy


def rhythm_action(agent: AgentState, npc: Npc) -> str | None:
    """The NPC's pattern action this round against an agent already fighting it, else None."""
    engagement = agent.combats.get(npc.id)
    if engagement is None or not npc.combat_pattern:
        return None
    pattern = npc.combat_pattern
    return pattern[engagement.rhythm_index % len(pattern)]


def hit_damage(attack: int, stamina: float, npc_action: str | None) -> int:
    """Damage of one blow: attack scaled by stamina (truncated), a tenth if the NPC defends."""
    damage = int(attack * stamina)
    if npc_action == DEFEND_ACTION:
        damage = int(damage * NPC_DEFEND_FACTOR)
    return damage


def tire(agent: AgentState) -> None:
    """Count one more attack in the streak; from the second on, stamina drops (for the NEXT blow).

    Float arithmetic as the reference, so stamina reads 0.6000000000000001 etc. (spec 6).
    """
    agent.consecutive_attacks += 1
    if agent.consecutive_attacks > 1:
        agent.stamina = max(STAMINA_FLOOR, agent.stamina - STAMINA_STEP)


def end_engagement(agent: AgentState, npc_id: str) -> None:
    """Stop fighting one NPC; with no fight left the agent is rested (stamina full, no streak)."""
    agent.combats.pop(npc_id, None)
    if not agent.combats:
        agent.stamina = FULL_STAMINA
        agent.consecutive_attacks = 0


def record_kill(agent: AgentState, npc: Npc) -> None:
    """Kill tracking for rewards and quests; an agent still in the tutorial earns none (0.4)."""
    if not agent.tutorial_passed:
        return
    agent.kills += 1
    agent.killed[npc.id] = agent.killed.get(npc.id, 0) + 1
    agent.unique_kills.setdefault(f"{npc.def_id}_{npc.level}", None)


def drop_loot(
    world: World, agent: AgentState, npc: Npc, area_id: str, res: RuleResult
) -> list[tuple[str, int]]:
    """Move the NPC's inventory onto an area's ground (its coins stay with it, spec 6 A5).

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
        res.track_spawn(agent.id, oid, n, area_loc(area.id))
    return placed


def kill_npc(ctx: RuleContext, res: RuleResult, npc: Npc) -> list[tuple[str, int]]:
    """`ctx.actor` kills `npc`: HP 0, fight over, kill recorded, NPC off the map, loot on the
    ground where it stood (the agent's area if it was off the map), event `npc_killed`.
    Returns the loot placed as (object id, count) entries.

    The NPC keeps its record (and name) in `world.npcs`; other agents' stale engagements with it
    are dropped by the combat-rhythm step rule.
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
