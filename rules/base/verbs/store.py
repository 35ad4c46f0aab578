"""`store <amount> <object> <container>`: put units lying in my hands or on the ground here into a
container (`inventory`, or a container instance here, held or equipped).

Rule pack `base`; docs/mechanics/verbs.md#store. The amount shrinks to the free space (size x amount
must fit) and then to what is found; hands are emptied first, then the ground. Currency (size 0)
always fits. Containers are never stored in containers, and objects of size null (stations) are
never stored at all. The event's `container` is `inventory` or the container name as typed.

Quirks fixed:
* One load formula (`agents.container_load`) for the inventory and named containers alike; the
  reference weighs writable instances as nothing in the inventory and by instance size elsewhere
  (docs/mechanics/verbs.md#quirk-one-load-formula).
* An over-full container gives "no space" in both cases; the reference reports a negative space
  for named containers (docs/mechanics/verbs.md#quirk-an-over-full-container-has-no-space).
* Amounts are ASCII digits only (the reference's Unicode "is numeric" test;
  docs/mechanics/verbs.md#amounts).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import (
    ONE,
    BaseActionRule,
    CatalogueShape,
    RuleResult,
    entry_key,
    mypyc_attr,
)
from agentodyssey_pz.rules.context import RuleContext, WorldTable
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import ContainerInstance
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from ..carrying import (
    INVENTORY,
    AmountRuns,
    ListsAmounts,
    area_loc,
    container_loc,
    hand_loc,
    move_units,
    parse_amount,
)
from ..containers import (
    catalogue_containers,
    free_space,
    locate_container,
    names_itself,
    reachable_containers,
)

# spike (mypyc): multiple inheritance hidden from mypyc ("not supported"), restored below the class
_ListsAmounts: Any = ListsAmounts


class Storables(WorldTable):
    """Object id -> (definition id, name, size) of an object that can be stored and that its name
    lists (not a container, a size that is not null), else None: store lists every thing in hand
    and here each time it is asked, mostly the same things as before."""

    def work_out(self, oid: str) -> tuple[str, str, int] | None:
        obj = self.world.find_def(oid)
        if obj is None or obj.is_container or obj.size is None:
            return None
        name = names_itself(self.world, oid)
        return None if name is None else (obj.id, name, obj.size)


def space_for(world: World, obj: ObjectDef, container: ContainerInstance) -> int | None:
    """How many units of `obj` fit in `container`; None means unlimited (size 0)."""
    if not obj.size:
        return None
    return free_space(world, container) // obj.size


def move_in(
    world: World,
    agent: AgentState,
    oid: str,
    amount: int,
    container: ContainerInstance,
    res: RuleResult,
) -> None:
    """Move units into a container: from the hands first, the rest from the ground here."""
    area = world.areas[agent.area_id]
    from_hand = min(amount, agent.hands.get(oid, 0))
    dst = container_loc(container.id)
    if from_hand:
        move_units(agent, oid, from_hand, agent.hands, container.items)
        res.track_move(agent.id, oid, from_hand, hand_loc(agent), dst)
    if amount > from_hand:
        move_units(agent, oid, amount - from_hand, area.objects, container.items)
        res.track_move(agent.id, oid, amount - from_hand, area_loc(area.id), dst)


def clamp(
    agent: AgentState,
    amount: int,
    requested: int,
    total: int,
    name: str,
    cname: str,
    res: RuleResult,
) -> int:
    """Cut to what is found, else say the space shrank the request."""
    if amount > total:
        res.say(agent.id, "store.only_found", f"I only found {total} {name}.")
        return total
    if amount < requested:
        res.say(
            agent.id,
            "store.only_space",
            f"There is only space for {amount} {name} in {where(cname)}.",
        )
    return amount


def where(container_name: str) -> str:
    return "my inventory" if container_name == INVENTORY else container_name


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Store(_ListsAmounts, BaseActionRule):
    name = "store"
    verb = "store"
    params = ("amount", "obj_name", "container_name")
    param_min = 3
    param_max = 3
    description = "Put items from my hands or the ground here into my inventory or a container."
    catalogue = CatalogueShape("storable", name=1, amount=0, container=2, in_hand=True)
    lists_from_reach = True  # its listings read only what `reach_key` covers

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        amount_text, obj_name, cname = ctx.params
        oid = world.obj_name_to_id.get(obj_name)
        obj = world.find_def(oid) if oid is not None else None
        if oid is None or obj is None:
            return res.fail(
                agent.id,
                "store.unknown_object",
                f"I cannot store {obj_name}: I know of no such thing.",
            )
        if obj.is_container:
            return res.fail(
                agent.id,
                "store.is_container",
                f"I cannot store {obj_name}: containers do not go into containers.",
            )
        if obj.size is None:
            return res.fail(
                agent.id,
                "store.unstorable",
                f"I cannot store {obj_name}: it does not fit in any container.",
            )
        requested = parse_amount(amount_text)
        if requested is None:
            return res.fail(
                agent.id,
                "store.bad_amount",
                f"I cannot store '{amount_text}' {obj_name}: amounts are positive whole numbers.",
            )
        container, outcome, reason = locate_container(world, agent, cname)
        if container is None:
            return res.fail(
                agent.id, f"store.{outcome}", f"I cannot store {obj_name} in {cname}: {reason}."
            )
        return self._store(world, agent, oid, obj, requested, cname, container, res)

    def _store(
        self,
        world: World,
        agent: AgentState,
        oid: str,
        obj: ObjectDef,
        requested: int,
        cname: str,
        container: ContainerInstance,
        res: RuleResult,
    ) -> None:
        """Presence and space checks, then the move: hands first, then the ground."""
        area = world.areas[agent.area_id]
        in_hand, on_ground = agent.hands.get(oid, 0), area.objects.get(oid, 0)
        total = in_hand + on_ground
        name = world.name_of(oid)
        if total <= 0:
            return res.fail(
                agent.id,
                "store.not_found",
                f"I cannot store {name}: there is none here or in my hands.",
            )
        room = space_for(world, obj, container)
        amount = requested if room is None else min(requested, room)
        if amount <= 0:
            return res.fail(
                agent.id,
                "store.no_space",
                f"I cannot store {name}: {where(cname)} has no space for it.",
            )
        amount = clamp(agent, amount, requested, total, name, cname, res)
        move_in(world, agent, oid, amount, container, res)
        res.say(agent.id, "store.done", f"I stored {amount} {name} in {where(cname)}.")
        res.emit(
            "object_stored",
            agent.id,
            {"obj_id": oid, "container": cname, "amount": amount, "area_id": area.id},
        )
        return None

    def amount_runs(self, ctx: RuleContext) -> AmountRuns:
        """Each storable object in hand or here (once) x each destination in reach x 1..max."""
        agent, world, shared = ctx.actor, ctx.world, ctx.shared
        destinations = reachable_containers(world, agent, shared)
        if not destinations:
            return []
        ground = world.areas[agent.area_id].objects
        rooms = [
            (cname, container, free_space(world, container, shared))
            for cname, container in destinations
        ]
        hands, storable = agent.hands, Storables.of(world)
        listed: AmountRuns = []
        for oid in dict.fromkeys([*hands, *ground]):
            known = storable[oid]
            if known is None:
                continue
            _, name, size = known
            found = hands.get(oid, 0) + ground.get(oid, 0)
            for cname, _, free in rooms:
                fits = free // size if size else found  # no size (currency): always fits
                listed.append(((name, cname), found if found < fits else fits))
        return listed

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """`store 1 <kind> inventory` and `store 1 <kind> <container in hand>` entries (the same
        test as `valid_params`, with the catalogue's destinations only)."""
        agent, world = ctx.actor, ctx.world
        destinations = catalogue_containers(world, agent)
        if not destinations:  # most agents carry no container
            return []
        rooms = [
            (suffix, cname, free_space(world, container))
            for suffix, cname, container in destinations
        ]
        ground, storable = world.areas[agent.area_id].objects, Storables.of(world)
        out: list[tuple[Any, tuple[str, ...]]] = []
        for oid in dict.fromkeys([*agent.hands, *ground]):
            known = storable[oid]
            if known is None:
                continue
            def_id, name, size = known
            for suffix, cname, free in rooms:
                if not size or free >= size:
                    out.append((entry_key(def_id, suffix), (ONE, name, cname)))
        return out


# spike (mypyc): compiled, a class gets only the bases mypy knows (not the Any-typed mixin):
# the pure build's bases (and MRO) restored; in the pure build, a no-op.
setattr(Store, "__bases__", (ListsAmounts, BaseActionRule))  # noqa: B010
