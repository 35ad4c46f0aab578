"""`take out <object> <container>`: one unit from a container into a free hand.

Rule pack `base`; docs/mechanics/verbs.md#take-out. The container is `inventory` or a container
instance here, held or equipped; full hands are refused before the container is looked at. Taking
something out of a held container is fine when one hand is free (the container fills the other). The
event's `from` is `inventory` or the container name as typed; its amount is always 1.

Quirks fixed: none in the verb itself; the reference's valid-action list offered
every container in the world, once per unit, and never the instances inside
(docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): ours lists containers in reach, one
entry per distinct item, and nothing while both hands are full.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import (
    BaseActionRule,
    CatalogueShape,
    RuleResult,
    entry_key,
    mypyc_attr,
)
from agentodyssey_pz.rules.context import RuleContext

from ..carrying import INVENTORY, container_loc, hand_loc, move_units
from ..containers import (
    catalogue_containers,
    contents_by_name,
    locate_container,
    reachable_containers,
)

UNITS_TAKEN = 1  # one unit per command, like picking up


@mypyc_attr(native_class=False)  # spike: packs subclass it
class TakeOut(BaseActionRule):
    name = "take_out"
    verb = "take out"
    params = ("obj_name", "container_name")
    param_min = 2
    param_max = 2
    description = "Take one item out of my inventory or a container into my hands."
    catalogue = CatalogueShape("storable", name=0, container=1, in_hand=True)
    lists_from_reach = True  # its listings read only what `reach_key` covers

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        obj_name, cname = ctx.params
        oid = world.obj_name_to_id.get(obj_name)
        if oid is None:
            return res.fail(
                agent.id,
                "take_out.unknown_object",
                f"I cannot take out {obj_name}: I know of no such thing.",
            )
        if agent.hands_full:
            return res.fail(
                agent.id,
                "take_out.hands_full",
                f"I cannot take out {obj_name}: both my hands are full.",
            )
        container, outcome, reason = locate_container(world, agent, cname)
        if container is None:
            return res.fail(
                agent.id,
                f"take_out.{outcome}",
                f"I cannot take {obj_name} out of {cname}: {reason}.",
            )
        where = "my inventory" if cname == INVENTORY else cname
        if container.items.get(oid, 0) <= 0:
            return res.fail(
                agent.id,
                "take_out.not_inside",
                f"I cannot take out {obj_name}: there is none in {where}.",
            )
        move_units(agent, oid, UNITS_TAKEN, container.items, agent.hands)
        res.track_move(agent.id, oid, UNITS_TAKEN, container_loc(container.id), hand_loc(agent))
        res.say(agent.id, "take_out.done", f"I took 1 {obj_name} out of {where}.")
        res.emit(
            "object_taken_out",
            agent.id,
            {"obj_id": oid, "from": cname, "amount": UNITS_TAKEN, "area_id": agent.area_id},
        )
        return None

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        """One entry per distinct item of each container in reach, while a hand is free."""
        agent, world = ctx.actor, ctx.world
        if agent.hands_full:
            return []
        shared = ctx.shared
        return [
            (name, cname)
            for cname, container in reachable_containers(world, agent, shared)
            for name, _, _ in contents_by_name(world, container, shared)
        ]

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """`take out <kind> inventory` and `take out <kind> <container in hand>` entries: what
        those containers hold, while a hand is free."""
        agent, world = ctx.actor, ctx.world
        if agent.hands_full:
            return []
        out: list[tuple[Any, tuple[str, ...]]] = []
        for suffix, cname, container in catalogue_containers(world, agent):
            for name, oid, _ in contents_by_name(world, container):
                out.append((entry_key(world.def_of(oid).id, suffix), (name, cname)))
        return out
