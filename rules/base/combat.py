"""What fighting NPCs shares: who may be attacked, hit damage and stamina.

Rule pack `base`; docs/mechanics/combat.md#killing-an-npc. An NPC's death is resolved by the rule
framework's `kills.kill_npc`, the one way an agent kills an NPC, so pack verbs that kill (the
scavenging pack's `throw`, spells, traps ...) record kills, drop loot and emit `npc_killed` exactly
as `attack` does. Fixed reference quirks: kills are not recorded only for an agent that has not
passed the tutorial (the reference suppresses them for everyone while anyone is in the tutorial,
docs/mechanics/rewards.md#quirk-tracking-held-back-per-agent). Loot is moved: the dead NPC's
inventory is emptied, so nothing can drop twice.
"""

from __future__ import annotations

# Stamina of a rested agent, named here too for the planner (agentodyssey_pz.policies.fighting).
from agentodyssey_pz.rules.kills import FULL_STAMINA as FULL_STAMINA
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc

NPC_DEFEND_FACTOR = 0.1  # a hit on an NPC whose rhythm action this round is `defend`
STAMINA_STEP = 0.2  # stamina lost per attack after the first of a streak
STAMINA_FLOOR = 0.2
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

    Float arithmetic as the reference, so stamina reads 0.6000000000000001 etc.
    """
    agent.consecutive_attacks += 1
    if agent.consecutive_attacks > 1:
        agent.stamina = max(STAMINA_FLOOR, agent.stamina - STAMINA_STEP)
