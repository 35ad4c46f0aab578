"""`combat_rhythm_step` (priority 2): the base rhythm combat, where a stunned NPC loses its move.

Rule pack `outbreak` (docs/rule-packs.md "The outbreak pack"); AgentOdyssey's quarantine. It
replaces the base rule of the same name (a subclass). One change: after the usual drop checks
and the empty-pattern skip, an NPC with stuns left (`world.auxiliary["stunned_npcs"]`, from
`shove`) spends one (the entry goes at 0), does nothing this round, and its rhythm index
advances by one; a line. The stuns are the NPC's, not a fight's: the first agent processed that
fights it spends one. Draws nothing.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.packs import bundled_step_rule
from agentodyssey_pz.world.agents import AgentState

from .common import STUNNED, KeepsStates

BaseCombatRhythm: Any = bundled_step_rule("base", "combat_rhythm_step")
FULL_STAMINA = 1.0


class CombatRhythm(KeepsStates, BaseCombatRhythm):
    name = "combat_rhythm_step"
    priority = 2
    description = "NPCs in combat act on their pattern; a stunned NPC loses its move."
    states = (STUNNED,)

    def _fight(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        stunned = ctx.world.auxiliary.get(STUNNED)
        if not stunned:  # nobody stunned: the base round, unchanged
            super()._fight(ctx, res, agent)
            return
        world = ctx.world
        area_id = agent.area_id
        here = world.areas[area_id].npcs
        npcs = world.npcs
        combats = agent.combats
        stale: list[str] = []
        defeated = False
        for npc_id, engagement in combats.items():
            npc = npcs.get(npc_id)
            if engagement.area_id != area_id or npc is None or npc.hp <= 0 or npc_id not in here:
                stale.append(npc_id)
                continue
            pattern = npc.combat_pattern
            if not pattern:
                continue
            index = engagement.rhythm_index
            if stunned.get(npc_id, 0) > 0:
                left = stunned[npc_id] - 1
                if left > 0:
                    stunned[npc_id] = left
                else:
                    del stunned[npc_id]
                res.say(
                    agent.id, "combat.npc_stunned", f"{npc.name} is stunned and loses its move."
                )
                engagement.rhythm_index = (index + 1) % len(pattern)
                continue
            action = pattern[index % len(pattern)]
            if action == "attack":
                if self._attack(res, agent, npc, area_id):
                    defeated = True
                    break
            else:
                key, text = QUIET.get(action, ("combat.npc_acts", action))
                res.say(agent.id, key, f"{npc.name} {text}.")
            engagement.rhythm_index = (index + 1) % len(pattern)
        if defeated:
            combats.clear()
        else:
            for npc_id in stale:
                del combats[npc_id]
        if not combats:
            agent.stamina = FULL_STAMINA
            agent.consecutive_attacks = 0


QUIET = {
    "defend": ("combat.npc_defends", "raises its guard"),
    "wait": ("combat.npc_waits", "waits, watching me"),
}
