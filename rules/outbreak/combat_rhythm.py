"""`combat_rhythm_step` (priority 2): the base rhythm combat, where a stunned NPC loses its move.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine. It
replaces the base rule of the same name (a subclass) through its `npc_moves` hook: after the
usual drop checks and the empty-pattern skip, an NPC with stuns left (`world.auxiliary
["stunned_npcs"]`, from `shove`) spends one (the entry goes at 0), does nothing this round, and
its rhythm index advances by one; a line. The stuns are the NPC's, not a fight's: the first agent
processed that fights it spends one. Draws nothing.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.packs import bundled_step_rule
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc

from .common import STUNNED, KeepsStates

BaseCombatRhythm: Any = bundled_step_rule("base", "combat_rhythm_step")


class CombatRhythm(KeepsStates, BaseCombatRhythm):
    name = "combat_rhythm_step"
    priority = 2
    description = "NPCs in combat act on their pattern; a stunned NPC loses its move."
    states = (STUNNED,)

    def npc_moves(self, ctx: RuleContext, res: RuleResult, agent: AgentState, npc: Npc) -> bool:
        stunned = ctx.world.auxiliary.get(STUNNED)
        left = stunned.get(npc.id, 0) if stunned else 0
        if left <= 0:
            return True
        if left > 1:
            stunned[npc.id] = left - 1
        else:
            del stunned[npc.id]
        res.say(agent.id, "combat.npc_stunned", f"{npc.name} is stunned and loses its move.")
        return False
