"""`eat <object>`: eat (or apply) one edible unit within reach and get HP back.

Rule pack `scavenging` (docs/rule-packs.md#bundled-packs); AgentOdyssey's remnant and mark.
Edible: usage `consume`, category `food`, or a positive `hp_restore` (an extra field of the
definition). Eating heals `hp_restore` HP (10 when the definition gives none), never above my
maximum. Checks in order: the name is known, the object is edible, I am hurt (at full health I
refuse, wherever the object is), and a unit is in reach. The unit comes from the first of: my
hands (the named object itself), my equipped inventory, the containers in my hands (hand order),
the ground here (these three hold it under its definition id). Event `object_consumed {obj_id:
definition id, from: "hand" | "inventory" | <container name> | "ground", hp_restored: HP gained,
area_id}`. Draws nothing.
"""

from __future__ import annotations

import attrs

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext, WorldTable
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, carried_stores, held_containers
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .common import extra_number, use_up

DEFAULT_RESTORE = 10  # HP an edible object without `hp_restore` gives back
EDIBLE_USAGE, EDIBLE_CATEGORY = "consume", "food"
HAND, INVENTORY, GROUND = "hand", "inventory", "ground"  # `from` of object_consumed


def restore_of(obj: ObjectDef) -> int:
    return extra_number(obj, "hp_restore")


def is_edible(obj: ObjectDef) -> bool:
    return obj.usage == EDIBLE_USAGE or obj.category == EDIBLE_CATEGORY or restore_of(obj) > 0


class Edibles(WorldTable):
    """Per object id: (definition id, name) when it is edible and a command can name it
    (`World.listing`), else None: what the listing asks of everything in reach, every tick."""

    def work_out(self, oid: str) -> tuple[str, str] | None:
        world = self.world
        found = world.listing(oid)
        return found if found is not None and is_edible(world.def_of(oid)) else None


@attrs.frozen
class Meal:
    """A unit I would eat: its definition, the store it is in, its key there, the event's
    `from`, and the tracking location."""

    obj: ObjectDef
    store: dict[str, int]
    oid: str
    source: str
    where: dict[str, str]


def find_meal(world: World, agent: AgentState, name: str) -> Meal | tuple[str, str]:
    """The unit `eat <name>` would use, or (feedback key, why not)."""
    oid = world.obj_name_to_id.get(name)
    obj = world.find_def(oid) if oid is not None else None
    if oid is None or obj is None:
        return "eat.unknown", f"I cannot eat {name}: I know of no such thing."
    if not is_edible(obj):
        return "eat.inedible", f"I cannot eat {name}: it is not food."
    if agent.hp >= agent.max_hp:
        return "eat.full_health", f"I do not eat {name}: I am already at full health."
    if agent.hands.get(oid, 0) > 0:
        return Meal(obj, agent.hands, oid, HAND, location("hand", agent.id))
    def_id = obj.id
    if agent.inventory_id is not None:
        inventory = world.containers[agent.inventory_id]
        if inventory.items.get(def_id, 0) > 0:
            where = location("container", inventory.id)
            return Meal(obj, inventory.items, def_id, INVENTORY, where)
    for box in held_containers(world, agent):
        if box.items.get(def_id, 0) > 0:
            return Meal(obj, box.items, def_id, box.name, location("container", box.id))
    ground = world.areas[agent.area_id].objects
    if ground.get(def_id, 0) > 0:
        return Meal(obj, ground, def_id, GROUND, location("area", agent.area_id))
    return "eat.none", f"I cannot eat {name}: I have none within reach."


class Eat(BaseActionRule):
    name = "eat"
    verb = "eat"
    params = ("object_name",)
    param_min = param_max = 1
    description = (
        f"Eat something edible from my hands, inventory, held containers or the ground here to "
        f"recover HP (its hp_restore, else {DEFAULT_RESTORE}), up to my maximum."
    )
    catalogue = CatalogueShape("object", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        meal = find_meal(world, agent, name)
        if not isinstance(meal, Meal):
            return res.fail(agent.id, *meal)
        obj = meal.obj
        use_up(world, meal.store, meal.oid)
        res.track_consume(agent.id, meal.oid, 1, meal.where)
        restore = restore_of(obj)
        before = agent.hp
        agent.hp = min(agent.max_hp, before + (restore if restore > 0 else DEFAULT_RESTORE))
        gained = agent.hp - before
        res.say(
            agent.id,
            "eat.done",
            f"I ate 1 {name} and recovered {gained} HP ({agent.hp}/{agent.max_hp}).",
        )
        res.emit(
            "object_consumed",
            agent.id,
            {
                "obj_id": obj.id,
                "from": meal.source,
                "hp_restored": gained,
                "area_id": agent.area_id,
            },
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        """Each name of something in reach that eating would use, with its definition id, in the
        order of the sources (hands, inventory, held containers, ground), each name once."""
        agent, world = ctx.actor, ctx.world
        if agent.hp >= agent.max_hp:  # find_meal refuses every name
            return []
        stores = carried_stores(world, agent)  # hands, inventory, held containers (find_meal)
        stores.append(world.areas[agent.area_id].objects)
        edibles = Edibles.of(world)
        seen: set[str] = set()  # a named thing's name leads to it alone: one id per name
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for store in stores:
            for oid in store:
                found = edibles[oid]  # find_meal refuses what is not edible, whatever else holds
                if found is None or found[1] in seen:
                    continue
                seen.add(found[1])
                if isinstance(find_meal(world, agent, found[1]), Meal):
                    out.append((found[0], (found[1],)))
        return out
