"""`salvage <material>`: work devil-forged scrap lying here into my fighting gear with a repair kit.

Rule pack `war_machines`; AgentOdyssey's robot_kingdom. Recipes (setting `recipes`: per material
definition id, [units needed, "attack" or "defense", bonus]): scrap iron x2 and cog x2 give attack
+3; fiend plate x1 and demon core shard x1 give defense +2. Checks in order: the name is known; its
definition has a recipe (the refusal lists the materials); a repair kit (setting `tool`, a
definition id) is in my hands; the ground here holds at least the units needed, counted under the
material's definition id. The units leave the ground; the kit is kept. An attack recipe raises
both my base attack and my attack (permanent: survives death); a defense recipe raises my defense
(lost at death, which sets defense to 0). Event `material_salvaged {material_id, material_count,
stat_name, stat_bonus, area_id}`. Draws nothing.

Catalogue: one entry per object kind, unmasked for a material whose recipe would take effect now.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.world import World

ATTACK, DEFENSE = "attack", "defense"
RECIPES = {
    "obj_scrap_iron": [2, ATTACK, 3],
    "obj_cog": [2, ATTACK, 3],
    "obj_fiend_plate": [1, DEFENSE, 2],
    "obj_demon_core_shard": [1, DEFENSE, 2],
}


def has_tool(world: World, agent: AgentState, tool: str) -> bool:
    for oid, count in agent.hands.items():
        if count > 0 and world.find_def(oid) is not None and world.def_of(oid).id == tool:
            return True
    return False


def plan(
    world: World, agent: AgentState, name: str, settings: Any
) -> tuple[str, list[Any]] | tuple[str, str]:
    """(material definition id, recipe) for `salvage <name>` now, or (feedback key, why not)."""
    recipes = settings["recipes"]
    oid = world.obj_name_to_id.get(name)
    obj = world.find_def(oid) if oid is not None else None
    if obj is None:
        return "salvage.unknown", f"I cannot salvage {name}: I know of no such thing."
    recipe = recipes.get(obj.id)
    if recipe is None:
        valid = ", ".join(world.objects[d].name for d in recipes if d in world.objects)
        return "salvage.not_material", f"I cannot salvage {name}: only {valid} can be salvaged."
    if not has_tool(world, agent, settings["tool"]):
        tool = settings["tool"]
        tool_name = world.objects[tool].name if tool in world.objects else tool
        return "salvage.no_tool", f"I cannot salvage {name}: I need a {tool_name} in my hands."
    needed = recipe[0]
    if world.areas[agent.area_id].objects.get(obj.id, 0) < needed:
        return "salvage.too_few", f"I cannot salvage {name}: I need {needed} of it on the ground."
    return obj.id, recipe


class Salvage(BaseActionRule):
    name = "salvage"
    verb = "salvage"
    params = ("material_name",)
    param_min = param_max = 1
    description = (
        "With a repair kit in hand, work scrap on the ground into my gear: scrap iron or cogs "
        "(2) add 3 attack for good, a fiend plate or demon core shard (1) adds 2 defense."
    )
    catalogue = CatalogueShape("object", name=0)
    valid_params_from_mask = True
    settings = {"recipes": RECIPES, "tool": "obj_repair_kit"}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        found = plan(world, agent, name, self.settings)
        if isinstance(found[1], str):
            return res.fail(agent.id, found[0], found[1])
        def_id, (count, stat, bonus) = found
        here = agent.area_id
        remove_count(world.areas[here].objects, def_id, count)
        res.track_consume(agent.id, def_id, count, location("area", here))
        if stat == ATTACK:
            agent.min_attack += bonus
            agent.attack += bonus
            gain = f"my attack rises by {bonus} for good (now {agent.attack})"
        else:
            agent.defense += bonus
            gain = f"my defense rises by {bonus} (now {agent.defense})"
        res.say(agent.id, "salvage.done", f"I salvaged {count} {name}: {gain}.")
        res.emit(
            "material_salvaged",
            agent.id,
            {
                "material_id": def_id,
                "material_count": count,
                "stat_name": stat,
                "stat_bonus": bonus,
                "area_id": here,
            },
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if not has_tool(world, agent, self.settings["tool"]):
            return []
        ground = world.areas[agent.area_id].objects
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for def_id, recipe in self.settings["recipes"].items():
            obj = world.objects.get(def_id)
            if obj is None or ground.get(def_id, 0) < recipe[0]:
                continue
            if world.obj_name_to_id.get(obj.name) == def_id:  # the name reaches it
                out.append((def_id, (obj.name,)))
        return out
