"""`inspect <object>`: look closely at my inventory, a container, or anything within my reach.

Rule pack `base`; docs/mechanics/verbs.md#inspect. Three cases, in order: the literal `inventory`
(its contents and load), a container instance on the ground, in hand or equipped (description,
contents, load), anything else within reach (description, what it is an ingredient of, what is
written on it).

Reference quirks fixed (docs/mechanics/verbs.md#quirk-held-containers-are-in-reach, and
docs/mechanics/verbs.md#quirk-one-load-formula for the load): things inside containers held in hand
count as within reach (craft, buy and sell use them too); the ingredient list is looked up by the
definition id, so writable instances show their uses; every load is `agents.container_load`.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, container_load, held_containers
from agentodyssey_pz.world.entities import ContainerInstance
from agentodyssey_pz.world.world import World

from ..carrying import (
    INVENTORY,
    area_loc,
    container_loc,
    equip_loc,
    hand_loc,
    is_reachable_container,
)

NOTHING = "no objects"


def contents_text(world: World, container: ContainerInstance) -> str:
    items = [f"{n} {world.name_of(oid)}" for oid, n in container.items.items()]
    return ", ".join(items) if items else NOTHING


def load_text(world: World, container: ContainerInstance) -> str:
    capacity = world.def_of(container.id).capacity
    return f"{container_load(world, container)}/{capacity if capacity is not None else 0}"


def reach_stores(world: World, agent: AgentState) -> list[dict[str, int]]:
    """The stores of `reachable_stores`, same order, without their tracking locations."""
    stores = [agent.hands, agent.equipped]
    if agent.inventory_id is not None:
        stores.append(world.containers[agent.inventory_id].items)
    containers = world.containers
    for oid in agent.hands:  # a plain loop: two hands at most
        if oid in containers:
            stores.append(containers[oid].items)
    stores.append(world.areas[agent.area_id].objects)
    return stores


def reachable_stores(world: World, agent: AgentState) -> list[tuple[dict[str, int], Any, Any]]:
    """Where a (non-container) object can be inspected from, in order: hands, equipped, the
    inventory, containers held in hand, the ground; each with the maker of its tracking location
    and the maker's argument (the location is built only for the store `locate` finds)."""
    stores: list[tuple[dict[str, int], Any, Any]] = [
        (agent.hands, hand_loc, agent),
        (agent.equipped, equip_loc, agent),
    ]
    if agent.inventory_id is not None:
        inventory_id = agent.inventory_id
        stores.append((world.containers[inventory_id].items, container_loc, inventory_id))
    for held in held_containers(world, agent):
        stores.append((held.items, container_loc, held.id))
    stores.append((world.areas[agent.area_id].objects, area_loc, agent.area_id))
    return stores


def locate(world: World, agent: AgentState, oid: str) -> dict[str, str] | None:
    """The tracking location an object is inspected at, or None when it is not within reach."""
    for store, make_location, of in reachable_stores(world, agent):
        if store.get(oid, 0) > 0:
            return make_location(of)
    return None


def container_source(agent: AgentState, cid: str) -> dict[str, str]:
    if cid in agent.hands:
        return hand_loc(agent)
    if cid == agent.inventory_id:
        return equip_loc(agent)
    return area_loc(agent.area_id)


def uses_text(world: World, def_id: str) -> str:
    """`product (made of a, b)` for every recipe using this definition, or None."""
    uses = []
    for product_id in world.products_of.get(def_id, ()):
        product = world.objects[product_id]
        parts = [d.name if (d := world.find_def(i)) else i for i in product.craft.ingredients]
        uses.append(f"{product.name} (made of {', '.join(parts)})")
    return ", ".join(uses) if uses else "None"


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Inspect(BaseActionRule):
    name = "inspect"
    verb = "inspect"
    params = ("object_name",)
    param_min = 1
    param_max = 1
    description = "Look closely at my inventory, a container, or something I hold or see."
    catalogue = CatalogueShape("object", name=0, words=(INVENTORY,))
    lists_from_reach = True  # its listings read only what `reach_key` covers
    valid_params_from_mask = True  # both are `listed`

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        if name == INVENTORY:
            return self.inspect_inventory(ctx, res)
        oid = world.obj_name_to_id.get(name)
        if oid is not None and oid in world.containers:
            if not is_reachable_container(world, agent, oid):
                return res.fail(
                    agent.id,
                    "inspect.not_here",
                    f"I cannot inspect {name}: it is not here, in my hands or equipped.",
                )
            return self.inspect_container(ctx, res, world.containers[oid])
        loc = locate(world, agent, oid) if oid is not None else None
        if loc is None:
            return res.fail(
                agent.id, "inspect.not_here", f"I cannot inspect {name}: I see none within reach."
            )
        return self.inspect_object(ctx, res, oid, loc)  # type: ignore[arg-type]  # loc: oid is set

    def inspect_inventory(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        if agent.inventory_id is None:
            return res.fail(
                agent.id,
                "inspect.no_inventory",
                "I cannot inspect my inventory: I have none equipped.",
            )
        inv = world.containers[agent.inventory_id]
        res.say(
            agent.id,
            "inspect.inventory",
            f"My inventory ({inv.name}) holds {contents_text(world, inv)}; "
            f"load {load_text(world, inv)}.",
        )
        res.emit("inventory_inspected", agent.id, {"area_id": agent.area_id})
        res.track_utilize(agent.id, inv.id, 1, equip_loc(agent))
        return None

    def inspect_container(self, ctx: RuleContext, res: RuleResult, box: ContainerInstance) -> None:
        agent, world = ctx.actor, ctx.world
        desc = world.def_of(box.id).description
        lead = f"{box.name}: {desc} " if desc else f"{box.name}: "
        res.say(
            agent.id,
            "inspect.container",
            f"{lead}It holds {contents_text(world, box)}; load {load_text(world, box)}.",
        )
        res.emit("container_inspected", agent.id, {"obj_id": box.id, "area_id": agent.area_id})
        res.track_utilize(agent.id, box.id, 1, container_source(agent, box.id))

    def inspect_object(
        self, ctx: RuleContext, res: RuleResult, oid: str, loc: dict[str, str]
    ) -> None:
        agent, world = ctx.actor, ctx.world
        obj, name = world.def_of(oid), world.name_of(oid)
        res.say(
            agent.id,
            "inspect.object",
            f"{name}: {obj.description or 'nothing remarkable about it.'}",
        )
        res.say(agent.id, "inspect.uses", f"Ingredient of: {uses_text(world, obj.id)}.")
        writable = world.writables.get(oid)
        text = writable.text if writable is not None else obj.text
        if text:
            res.say(agent.id, "inspect.text", f'Written on it: "{text}"')
        else:
            res.say(agent.id, "inspect.blank", "Nothing is written on it.")
        res.emit("object_inspected", agent.id, {"obj_id": oid, "area_id": agent.area_id})
        res.track_utilize(agent.id, oid, 1, loc)

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [params for _, params in self.listed(ctx)]

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        return self.listed(ctx)  # every listed name is a catalogue entry

    @staticmethod
    def listed(ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """`inventory` (when one is equipped) then each thing in reach, by a name that leads back
        to it, with its catalogue target: the definition that name means (or the `inventory`
        word entry), never None."""
        agent, world = ctx.actor, ctx.world
        listing, containers = world.listing, world.containers
        out: list[tuple[Any, tuple[str, ...]]] = []
        if agent.inventory_id is not None:
            # Names the inventory; its entry is that of an object called `inventory`, if any,
            # else the catalogue's own `inspect inventory` word entry.
            named = world.obj_name_to_id.get(INVENTORY)
            out.append(
                (world.def_of(named).id if named is not None else (INVENTORY,), (INVENTORY,))
            )
        seen: set[str] = set()
        for store in reach_stores(world, agent):
            for oid, n in store.items():
                if n <= 0 or oid in seen:
                    continue
                seen.add(oid)
                found = listing(oid)  # the name must lead back to this id
                if found is None or found[1] == INVENTORY:  # (and not be the literal `inventory`)
                    continue
                if oid in containers and not is_reachable_container(world, agent, oid):
                    continue  # a container inside a container: only loose ones can be inspected
                out.append((found[0], (found[1],)))
        return out
