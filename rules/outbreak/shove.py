"""`shove <furniture_name> <npc_name>`: topple furniture onto an NPC I am fighting, stunning it.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine.
Checks in order: the furniture's name is known; its definition's category is `furniture`; a unit
of it lies on the ground here; the NPC's name is known and it stands here; I am fighting it.

Effect: one furniture unit is destroyed; `world.auxiliary["stunned_npcs"][npc] += 1`; event
`furniture_shoved {furniture_id, npc_id, area_id}`. The stun is spent by the next rhythm round
of that NPC against whichever agent is processed first (`combat_rhythm.py`). Draws nothing.

Listings: every furniture kind on the ground here x every NPC here I am fighting (ground order x
fight order). Catalogue: one entry per NPC prototype, with the first furniture on the ground (the
entry's label leaves the furniture's place blank, as `throw`'s does).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

from .common import STUNNED, table

FURNITURE = "furniture"


def furniture_here(world: World, agent: AgentState) -> list[tuple[str, str]]:
    """(ground id, name) of each furniture unit kind on the ground here a command can name."""
    out = []
    for oid in world.areas[agent.area_id].objects:
        obj = world.find_def(oid)
        if obj is not None and obj.category == FURNITURE:
            found = world.listing(oid)
            if found is not None and world.obj_name_to_id.get(found[1]) == oid:
                out.append((oid, found[1]))
    return out


class Shove(BaseActionRule):
    name = "shove"
    verb = "shove"
    params = ("furniture_name", "npc_name")
    param_min = param_max = 2
    description = "Shove furniture here onto an NPC I am fighting: it loses its next combat move."
    catalogue = CatalogueShape("npc", name=1)
    valid_params_from_mask = True
    listed_after = "concoct"  # listed after `write`, before `wait`, as AgentOdyssey lists them

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        item, who = ctx.params
        oid = world.obj_name_to_id.get(item)
        obj = world.find_def(oid) if oid is not None else None
        if oid is None or obj is None:
            return res.fail(agent.id, "shove.unknown", f"I know of no such thing as {item}.")
        if obj.category != FURNITURE:
            return res.fail(agent.id, "shove.not_furniture", f"{item} is not furniture to shove.")
        ground = world.areas[agent.area_id].objects
        if ground.get(oid, 0) <= 0:
            return res.fail(agent.id, "shove.not_here", f"There is no {item} here to shove.")
        npc = world.npc_here(who, agent.area_id, agent.id)
        if npc is None:
            return res.fail(agent.id, "shove.no_npc", f"{who} is not here.")
        if npc.id not in agent.combats:
            return res.fail(agent.id, "shove.not_fighting", f"I am not fighting {who}.")
        world.areas[agent.area_id].remove_objects(oid, 1)
        if world.is_instance(oid):
            world.delete_instance(oid)
        res.track_consume(agent.id, oid, 1, location("area", agent.area_id))
        stunned = table(world, STUNNED)
        stunned[npc.id] = stunned.get(npc.id, 0) + 1
        res.say(
            agent.id,
            "shove.done",
            f"I toppled the {item} onto {npc.name}: it is pinned and will lose its next move.",
        )
        res.emit(
            "furniture_shoved",
            agent.id,
            {"furniture_id": oid, "npc_id": npc.id, "area_id": agent.area_id},
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if not agent.combats:
            return []
        furniture = furniture_here(world, agent)
        if not furniture:
            return []
        here = world.areas[agent.area_id].npcs
        foes = []
        for npc_id in agent.combats:
            npc = world.npcs.get(npc_id)
            if npc is None or npc_id not in here or not npc.is_visible_to(agent.id):
                continue
            if world.npc_here(npc.name, agent.area_id, agent.id) is npc:
                foes.append(npc)
        return [(npc.def_id, (name, npc.name)) for _, name in furniture for npc in foes]
