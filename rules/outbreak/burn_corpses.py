"""`burn corpses`: burn the enemy corpses left in my area with a chemical and a rag.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine.
Checks in order: a corpse is recorded for this area (`corpse_corruption.py`); one `obj_chemical`
and one `obj_rag` are in my possession sources. No fight check.

Effect: one chemical, then one rag, used up (each from the first possession source holding
one); the area's corpse list empties, its corruption and mutant cooldown become 0. An active
lockdown is not lifted (only a master keycard does); an inactive one's timer goes back to 0 on
the lockdown rule's next run. Event `corpses_burned {area_id, num_burned}`. Draws nothing.

Catalogue: one entry (no target); listed while both hold.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

from .common import CORPSES, CORRUPTION, SPAWN_COOLDOWN, table, take_one, units_held

CHEMICAL, RAG = "obj_chemical", "obj_rag"


def corpses_here(world: World, agent: AgentState) -> list[str]:
    found = world.auxiliary.get(CORPSES)  # `peek`, without making an empty table
    return (found.get(agent.area_id) or []) if found else []


class BurnCorpses(BaseActionRule):
    name = "burn_corpses"
    verb = "burn corpses"
    description = "Burn the corpses in this area with a chemical and a rag, ending their rot."
    catalogue = CatalogueShape("none")
    valid_params_from_mask = True
    listed_after = "barricade"  # listed after `write`, before `wait`, as AgentOdyssey lists them
    # Its listings read what the agent carries and its own fights, never the ground, NPCs or
    # other agents: offered in quarantine's dark, which hides only those (docs/rule-packs.md).
    dim_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        corpses = corpses_here(world, agent)
        if not corpses:
            return res.fail(agent.id, "burn_corpses.none", "There are no corpses here to burn.")
        if units_held(world, agent, CHEMICAL) < 1 or units_held(world, agent, RAG) < 1:
            return res.fail(
                agent.id, "burn_corpses.no_fuel", "I need a chemical and a rag to burn them."
            )
        take_one(world, agent, CHEMICAL, res)
        take_one(world, agent, RAG, res)
        here, burned = agent.area_id, len(corpses)
        table(world, CORPSES)[here] = []
        table(world, CORRUPTION)[here] = 0
        table(world, SPAWN_COOLDOWN)[here] = 0
        res.say(agent.id, "burn_corpses.done", f"I burned {burned} corpses here to ash.")
        res.emit("corpses_burned", agent.id, {"area_id": here, "num_burned": burned})
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if not corpses_here(world, agent):
            return []
        if units_held(world, agent, CHEMICAL) < 1 or units_held(world, agent, RAG) < 1:
            return []
        return [(None, ())]
