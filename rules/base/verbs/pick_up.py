"""`pick up <object>`: one unit from the ground into a free hand.

Rule pack `base`; docs/mechanics/verbs.md#pick-up. Anything can be picked up, stations and
containers included (a container keeps its contents).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import add_count

from ..carrying import area_loc, hand_loc


@mypyc_attr(native_class=False)  # spike: packs subclass it
class PickUp(BaseActionRule):
    name = "pick_up"
    verb = "pick up"
    params = ("object_name",)
    param_min = 1
    param_max = 1
    description = "Pick one unit of an object up from the ground (two hands: two units at most)."
    catalogue = CatalogueShape("object", name=0)
    lists_from_reach = True  # its listings read only what `reach_key` covers
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        area = world.areas[agent.area_id]
        oid = world.obj_name_to_id.get(name)
        if oid is None or area.objects.get(oid, 0) <= 0:
            return res.fail(
                agent.id, "pick_up.not_here", f"I cannot pick up {name}: there is none here."
            )
        if agent.hands_full:
            return res.fail(
                agent.id, "pick_up.hands_full", f"I cannot pick up {name}: both my hands are full."
            )
        area.remove_objects(oid, 1)
        add_count(agent.hands, oid, 1)
        res.say(agent.id, "pick_up.done", f"I picked up 1 {name}.")
        res.emit("object_picked_up", agent.id, {"obj_id": oid, "area_id": area.id})
        res.track_move(agent.id, oid, 1, area_loc(area.id), hand_loc(agent))
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if agent.hands_full:
            return []
        listing = world.listing
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid in world.areas[agent.area_id].objects:
            found = listing(oid)
            if found is not None:  # a name another object shadows cannot reach this one
                out.append((found[0], (found[1],)))
        return out
