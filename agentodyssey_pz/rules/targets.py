"""What an agent's command can name: the NPCs standing where it is.

Layer: rule framework. Verbs that take an NPC's name list the NPCs here with this, whatever their
pack (the scavenging pack's `pickpocket` and `throw` ...), so they agree on who can be named; in a
listing phase (`RuleContext.shared`) the list is worked out once per agent for all of them. The
base pack's `attack` and `talk to`, listed for every agent of every world on every tick, inline
the same filter (tests/rules/test_npc_targets.py holds them to it).
"""

from __future__ import annotations

from agentodyssey_pz.rules.context import Shared
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

NAMEABLE = "nameable_npcs"  # the `shared` key's first part; the agent's id is the second


def nameable_npcs(world: World, agent: AgentState, shared: Shared = None) -> list[Npc]:
    """The NPCs in the agent's area that a command of its can name, in arrival order: not another
    agent's personal NPC (`World.visible_npcs`), and not one whose name leads to another NPC (a
    shadowed name resolves elsewhere, so it cannot target this one).

    `shared`: the listing phase's `RuleContext.shared`, where the list is kept per agent for every
    verb that asks (nothing changes within a phase); callers must not change it."""
    if shared is not None:
        key = (NAMEABLE, agent.id)
        kept = shared.get(key)
        if kept is not None:
            return kept
    names, npcs = world.npc_name_to_id, world.npcs
    found = []
    for npc_id in world.visible_npcs(agent.area_id, agent.id):
        npc = npcs[npc_id]
        if names.get(npc.name) == npc_id:
            found.append(npc)
    if shared is not None:
        shared[key] = found
    return found
