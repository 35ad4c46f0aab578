"""`overload <component>`: feed a devil-forged component into my armour for a counter-damage aura.

Rule pack `war_machines`; AgentOdyssey's robot_kingdom. Components and the aura percentage each
adds (setting `components`): hellcoal 10, devil oil 8, brimite ore 12, fiend plate 15, demon core
shard 25, hellcoal concentrate 18. Checks in order: the name is known; its definition is a
component; the id the name resolves to is in my hands; I wear something of category `armor`. One
unit is used up and my aura grows by its percentage (no cap). Event `armor_overloaded
{component_id, armor_id (the first armour worn), aura_pct_added, total_aura_pct, area_id}`. Draws
nothing. The aura stays when the armour comes off and is cleared at death (combat.py); the combat
rhythm rule (combat.py) makes it strike back.

Catalogue: one entry per object kind, unmasked for each component in hand while armour is worn.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.world import World

from .common import AURA, peek, record

ARMOR = "armor"
COMPONENTS = {
    "obj_hellcoal": 10,
    "obj_devil_oil": 8,
    "obj_brimite_ore": 12,
    "obj_fiend_plate": 15,
    "obj_demon_core_shard": 25,
    "obj_hellcoal_concentrate": 18,
}


def armour_worn(world: World, agent: AgentState) -> str | None:
    for oid, count in agent.equipped.items():
        obj = world.find_def(oid)
        if count > 0 and obj is not None and obj.category == ARMOR:
            return oid
    return None


def plan(
    world: World, agent: AgentState, name: str, components: dict[str, int]
) -> tuple[str, str, int] | tuple[str, str]:
    """(held id, armour id, percentage) or (feedback key, why not)."""
    oid = world.obj_name_to_id.get(name)
    obj = world.find_def(oid) if oid is not None else None
    if oid is None or obj is None:
        return "overload.unknown", f"I cannot overload with {name}: I know of no such thing."
    pct = components.get(obj.id)
    if pct is None:
        return "overload.not_component", f"I cannot overload with {name}: it holds no hellfire."
    if agent.hands.get(oid, 0) <= 0:
        return "overload.not_held", f"I cannot overload with {name}: I am not holding one."
    armour = armour_worn(world, agent)
    if armour is None:
        return "overload.no_armor", f"I cannot overload with {name}: I wear no armour."
    return oid, armour, pct


class Overload(BaseActionRule):
    name = "overload"
    verb = "overload"
    params = ("component_name",)
    param_min = param_max = 1
    description = (
        "Feed a devil-forged component I hold into the armour I wear: enemies that hit me take "
        "a share of my defense back, growing with every component."
    )
    catalogue = CatalogueShape("object", name=0)
    valid_params_from_mask = True
    settings = {"components": COMPONENTS}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        found = plan(world, agent, name, self.settings["components"])
        if not isinstance(found[-1], int):
            return res.fail(agent.id, found[0], found[1])
        oid, armour, pct = found
        remove_count(agent.hands, oid, 1)
        res.track_consume(agent.id, oid, 1, location("hand", agent.id))
        mine = record(agent)
        total = mine[AURA] = mine.get(AURA, 0) + pct
        res.say(
            agent.id,
            "overload.done",
            f"I fed {name} into my {world.name_of(armour)}: its aura grows by {pct}% "
            f"(now {total}%).",
        )
        res.emit(
            "armor_overloaded",
            agent.id,
            {
                "component_id": world.def_of(oid).id,
                "armor_id": armour,
                "aura_pct_added": pct,
                "total_aura_pct": total,
                "area_id": agent.area_id,
            },
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if not agent.hands or armour_worn(world, agent) is None:
            return []
        components = self.settings["components"]
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid in agent.hands:
            found = world.listing(oid)
            if found is not None and found[0] in components:
                out.append((found[0], (found[1],)))
        return out


def aura_of(agent: AgentState) -> int:
    return peek(agent, AURA, 0)
