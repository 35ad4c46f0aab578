"""`discard <amount> <object> <container>`: tip units out of a container onto the ground here.

Rule pack `base`; docs/mechanics/verbs.md#discard. The container is `inventory` or a container
instance here, held or equipped; the amount is checked first (before any name) and clamped to what
the container holds ("only found N"). The event's `from` is `inventory` or the container name as
typed.

Quirks fixed: none in the verb itself; the reference's valid-action list offered
containers anywhere in the world and never the instances inside them
(docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): ours lists containers in reach and
every entry in them, instances included.
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
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.entities import ContainerInstance

from ..carrying import (
    INVENTORY,
    AmountRuns,
    ListsAmounts,
    area_loc,
    container_loc,
    move_units,
    parse_amount,
)
from ..containers import (
    catalogue_containers,
    contents_by_name,
    locate_container,
    reachable_containers,
)

# spike (mypyc): multiple inheritance hidden from mypyc ("not supported"), restored below the class
_ListsAmounts: Any = ListsAmounts


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Discard(_ListsAmounts, BaseActionRule):
    name = "discard"
    verb = "discard"
    params = ("amount", "obj_name", "container_name")
    param_min = 3
    param_max = 3
    description = "Take items out of my inventory or a container and leave them on the ground here."
    catalogue = CatalogueShape("storable", name=1, amount=0, container=2, in_hand=True)
    lists_from_reach = True  # its listings read only what `reach_key` covers

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        amount_text, obj_name, cname = ctx.params
        requested = parse_amount(amount_text)
        if requested is None:
            return res.fail(
                agent.id,
                "discard.bad_amount",
                f"I cannot discard '{amount_text}' {obj_name}: amounts are positive whole numbers.",
            )
        oid = world.obj_name_to_id.get(obj_name)
        if oid is None:
            return res.fail(
                agent.id,
                "discard.unknown_object",
                f"I cannot discard {obj_name}: I know of no such thing.",
            )
        container, outcome, reason = locate_container(world, agent, cname)
        if container is None:
            return res.fail(
                agent.id,
                f"discard.{outcome}",
                f"I cannot discard {obj_name} from {cname}: {reason}.",
            )
        return self._discard(ctx, oid, obj_name, requested, cname, container, res)

    def _discard(
        self,
        ctx: RuleContext,
        oid: str,
        obj_name: str,
        requested: int,
        cname: str,
        container: ContainerInstance,
        res: RuleResult,
    ) -> None:
        """Presence check and clamp, then the move onto the ground."""
        agent, area_id = ctx.actor, ctx.actor.area_id
        inside = container.items.get(oid, 0)
        where = "my inventory" if cname == INVENTORY else cname
        if inside <= 0:
            return res.fail(
                agent.id,
                "discard.not_inside",
                f"I cannot discard {obj_name}: there is none in {where}.",
            )
        amount = requested
        if amount > inside:
            res.say(agent.id, "discard.only_found", f"I only found {inside} {obj_name} in {where}.")
            amount = inside
        move_units(agent, oid, amount, container.items, ctx.world.areas[area_id].objects)
        res.track_move(agent.id, oid, amount, container_loc(container.id), area_loc(area_id))
        res.say(
            agent.id,
            "discard.done",
            f"I discarded {amount} {obj_name} from {where} onto the ground.",
        )
        res.emit(
            "object_discarded",
            agent.id,
            {"obj_id": oid, "from": cname, "amount": amount, "area_id": area_id},
        )
        return None

    def amount_runs(self, ctx: RuleContext) -> AmountRuns:
        """Each entry of each container in reach, amounts 1..its count."""
        world, shared = ctx.world, ctx.shared
        return [
            ((name, cname), count)
            for cname, container in reachable_containers(world, ctx.actor, shared)
            for name, _, count in contents_by_name(world, container, shared)
        ]

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """`discard 1 <kind> inventory` and `discard 1 <kind> <container in hand>` entries: what
        those containers hold."""
        agent, world = ctx.actor, ctx.world
        out: list[tuple[Any, tuple[str, ...]]] = []
        for suffix, cname, container in catalogue_containers(world, agent):
            for name, oid, _ in contents_by_name(world, container):
                out.append((entry_key(world.def_of(oid).id, suffix), (ONE, name, cname)))
        return out


# spike (mypyc): compiled, a class gets only the bases mypy knows (not the Any-typed mixin):
# the pure build's bases (and MRO) restored; in the pure build, a no-op.
setattr(Discard, "__bases__", (ListsAmounts, BaseActionRule))  # noqa: B010
