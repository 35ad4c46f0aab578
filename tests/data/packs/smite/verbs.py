"""Test rule pack `smite`: `smite <npc>` kills any NPC standing here, another agent's boss included.

`attack` cannot target another agent's personal boss, so this verb lets a test check that a boss
killed by someone else still counts for its owner
(docs/mechanics/quests.md#quirk-per-agent-guides-and-bosses). Imports only the rule framework, as a
pack must; the kill is reported with the same `npc_killed` event.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Smite(BaseActionRule):
    name = "smite"
    verb = "smite"
    params = ("npc_name",)
    param_min = param_max = 1
    description = "Strike down anyone here at once (test pack verb)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        npc_id = world.npc_name_to_id.get(ctx.params[0])
        if npc_id is None or npc_id not in world.areas[agent.area_id].npcs:
            return res.fail(
                agent.id, "smite.not_here", f"I cannot smite {ctx.params[0]}: not here."
            )
        npc = world.npcs[npc_id]
        area_id = npc.area_id
        npc.hp = 0
        world.remove_npc_from_map(npc_id)
        res.say(agent.id, "smite.done", f"I smote {npc.name}.")
        res.emit("npc_killed", agent.id, {"npc_id": npc_id, "area_id": area_id})
        return None
