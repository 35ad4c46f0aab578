"""`refuel <light_source_name>`: fill a light source in my hands with lantern fuel.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine.
Checks in order: the name is known; its definition has a true `light_source` extra; that id is
in my hands; an `obj_lantern_fuel` is in my possession sources. Effect: one fuel used up (the
first possession source holding one); my fuel record for that id becomes `int(max_fuel)` (30
when the definition has none); event `light_source_refueled {obj_id, fuel}`. Draws nothing.

Catalogue: one entry per object kind; listed for every light source in hand while I have fuel.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext

from .common import LIGHT_FUEL, is_light_source, max_fuel, table, take_one, units_held

FUEL = "obj_lantern_fuel"
DEFAULT_FUEL = 30


class Refuel(BaseActionRule):
    name = "refuel"
    verb = "refuel"
    params = ("light_source_name",)
    param_min = param_max = 1
    description = "Refill a light source in my hands with lantern fuel."
    catalogue = CatalogueShape("object", name=0)
    valid_params_from_mask = True
    # Its listings read only the names and what the agent carries (`reach_key`): kept while the
    # agent's reach is unchanged (docs/rule-packs.md, the exact-mask contract).
    lists_from_reach = True
    listed_after = "burn_corpses"  # listed after `write`, before `wait`, as AgentOdyssey lists them
    # Its listings read what the agent carries and its own fights, never the ground, NPCs or
    # other agents: offered in quarantine's dark, which hides only those (docs/rule-packs.md).
    dim_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        oid = world.obj_name_to_id.get(name)
        if oid is None or world.find_def(oid) is None:
            return res.fail(agent.id, "refuel.unknown", f"I know of no such thing as {name}.")
        if not is_light_source(world, oid):
            return res.fail(agent.id, "refuel.not_light", f"{name} is not a light source.")
        if agent.hands.get(oid, 0) <= 0:
            return res.fail(agent.id, "refuel.not_held", f"I am not holding {name}.")
        if units_held(world, agent, FUEL) < 1:
            return res.fail(agent.id, "refuel.no_fuel", "I have no lantern fuel.")
        take_one(world, agent, FUEL, res)
        fuel = max_fuel(world, oid, DEFAULT_FUEL)
        table(world, LIGHT_FUEL).setdefault(agent.id, {})[oid] = fuel
        res.say(agent.id, "refuel.done", f"I refuelled {name}: it holds {fuel} turns of light.")
        res.emit("light_source_refueled", agent.id, {"obj_id": oid, "fuel": fuel})
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        out = []
        for oid in agent.hands:  # two at most: looked at before the fuel, which needs a search
            if not is_light_source(world, oid):
                continue
            found = world.listing(oid)
            if found is not None and world.obj_name_to_id.get(found[1]) == oid:
                out.append((found[0], (found[1],)))
        if out and units_held(world, agent, FUEL) < 1:
            return []
        return out
