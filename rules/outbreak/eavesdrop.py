"""`eavesdrop <area_name>`: listen at the way to a neighbour for who is there, at a risk.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine.
Checks in order: I am not fighting here (as `barricade`); a neighbour has that name (locked or
not). Effect: a line naming the NPCs there (those I can see), or silence; event `eavesdrop
{from_area, target_area, area_name, npcs_heard: [names]}`. Then, only if enemies stand there, one
draw: below `alert_chance` (0.15) one of them (`choice` over its enemies in arrival order) hears
me, comes into my area and a fight starts (rhythm index 0, here; even for an enemy without a
pattern): a line, events `eavesdrop_alert {npc_id, from_area, to_area}` and `combat_started
{npc_id, area_id}`.

Catalogue: one entry per area; listed for every neighbour while I am not fighting here.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import Engagement

from .common import fighting_here, may_fight_here, named_neighbor

ALERT_CHANCE = 0.15


class Eavesdrop(BaseActionRule):
    name = "eavesdrop"
    verb = "eavesdrop"
    params = ("area_name",)
    param_min = param_max = 1
    description = "Listen for who is in a neighbouring area (an enemy there may hear me and come)."
    catalogue = CatalogueShape("area", name=0)
    valid_params_from_mask = True
    listed_after = "shove"  # listed after `write`, before `wait`, as AgentOdyssey lists them
    # Its listings read what the agent carries and its own fights, never the ground, NPCs or
    # other agents: offered in quarantine's dark, which hides only those (docs/rule-packs.md).
    dim_safe = True
    settings = {"alert_chance": ALERT_CHANCE}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        if fighting_here(world, agent):
            return res.fail(agent.id, "eavesdrop.in_combat", "I cannot listen while fighting.")
        found = named_neighbor(world, agent, name)
        if found is None:
            return res.fail(agent.id, "eavesdrop.no_path", f"No path leads from here to {name}.")
        here, there = agent.area_id, found[0]
        npcs = world.npcs_seen_by(there, agent.id)
        heard = [npc.name for npc in npcs]
        if heard:
            text = f"I hear movement in {name}: {', '.join(heard)}."
        else:
            text = f"I listen at the way to {name}: silence."
        res.say(agent.id, "eavesdrop.heard", text)
        res.emit(
            "eavesdrop",
            agent.id,
            {"from_area": here, "target_area": there, "area_name": name, "npcs_heard": heard},
        )
        enemies = [npc.id for npc in npcs if npc.enemy]
        if enemies and ctx.game.rng.random() < self.settings["alert_chance"]:
            npc = world.npcs[ctx.game.rng.choice(enemies)]
            world.place_npc(npc.id, here)
            agent.combats[npc.id] = Engagement(rhythm_index=0, area_id=here)
            res.say(
                agent.id, "eavesdrop.alert", f"{npc.name} heard me and comes for me from {name}!"
            )
            res.emit(
                "eavesdrop_alert", agent.id, {"npc_id": npc.id, "from_area": there, "to_area": here}
            )
            res.emit("combat_started", agent.id, {"npc_id": npc.id, "area_id": here})
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if may_fight_here(world, agent):
            return []
        return [(n, (name,)) for n, name, _ in world.named_neighbors(agent.area_id, agent.id)]
