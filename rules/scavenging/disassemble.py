"""`disassemble <object>`: break one unit I hold or that lies here back into salvage.

Rule pack `scavenging` (docs/rule-packs.md#bundled-packs); AgentOdyssey's remnant and mark.
Checks in order: the name is known; the named object is not one I wear (`equipped`); a unit is in
my hands, else on the ground here; its definition has a recipe. Stations, keys, weapons, armour,
containers and writables all come apart if they have one; a container's contents go with it, as
when crafting uses a container up. The salvage (`common.py`: its draws come first) lands on the
ground here; event `object_disassembled {obj_id: definition id, yield: {id: units}, area_id}`,
also when nothing came back.

Valid-action lists name each thing in my hands, then each on the ground, in the order they lie
there, each once. (AgentOdyssey collects these names in a set, so its order differs from run to
run; we fix this order.) The listings read only my reach (`lists_from_reach`).
"""

from __future__ import annotations

import attrs

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext, WorldTable
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .common import place_salvage, salvage_text, salvage_yield, use_up


@attrs.frozen
class Part:
    """A disassembly that takes effect: the store the unit is in, its id there, the tracking
    location, and its definition."""

    store: dict[str, int]
    oid: str
    where: dict[str, str]
    obj: ObjectDef


def find_part(world: World, agent: AgentState, name: str) -> Part | tuple[str, str]:
    """The unit `disassemble <name>` would take apart, or (feedback key, why not)."""
    oid = world.obj_name_to_id.get(name)
    if oid is None:
        return "disassemble.unknown", f"I cannot take {name} apart: I know of no such thing."
    if agent.equipped.get(oid, 0) > 0:
        return "disassemble.equipped", f"I cannot take {name} apart: I am wearing it."
    ground = world.areas[agent.area_id].objects
    if agent.hands.get(oid, 0) > 0:
        store, where = agent.hands, location("hand", agent.id)
    elif ground.get(oid, 0) > 0:
        store, where = ground, location("area", agent.area_id)
    else:
        return "disassemble.none", f"I cannot take {name} apart: there is none in my hands or here."
    obj = world.find_def(oid)
    if obj is None or not obj.craft.ingredients:
        return "disassemble.no_recipe", f"I cannot take {name} apart: it is not made of anything."
    return Part(store, oid, where, obj)


class Parts(WorldTable):
    """Per object id: (definition id, name) when it has a recipe and a command can name it
    (`World.listing`), else None: what the listing asks of everything in reach."""

    def work_out(self, oid: str) -> tuple[str, str] | None:
        found = self.world.listing(oid)
        if found is None or not self.world.objects[found[0]].craft.ingredients:
            return None
        return found


class Disassemble(BaseActionRule):
    name = "disassemble"
    verb = "disassemble"
    params = ("obj_name",)
    param_min = param_max = 1
    description = (
        "Take apart one crafted thing from my hands or the ground here; some of its ingredients "
        "come back on the ground (half of those used twice or more, a coin flip for single ones)."
    )
    catalogue = CatalogueShape("craftable", name=0)
    lists_from_reach = True  # its listings read only what `reach_key` covers
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        part = find_part(world, agent, name)
        if not isinstance(part, Part):
            return res.fail(agent.id, *part)
        obj = part.obj
        salvage = salvage_yield(ctx.game.rng, obj)  # the draws come before the unit is gone
        use_up(world, part.store, part.oid)
        res.track_consume(agent.id, part.oid, 1, part.where)
        placed = place_salvage(world, agent, salvage, res)
        res.say(
            agent.id,
            "disassemble.done",
            f"I took {name} apart; {salvage_text(world, placed)} came back, on the ground here.",
        )
        res.emit(
            "object_disassembled",
            agent.id,
            {"obj_id": obj.id, "yield": placed, "area_id": agent.area_id},
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        parts, equipped = Parts.of(world), agent.equipped
        out: list[tuple[str | None, tuple[str, ...]]] = []
        seen: set[str] = set()
        for store in (agent.hands, world.areas[agent.area_id].objects):
            for oid in store:
                found = parts[oid]  # only what has a recipe and can be named
                if found is None or oid in seen or equipped.get(oid, 0) > 0:
                    continue
                seen.add(oid)
                out.append((found[0], (found[1],)))
        return out
