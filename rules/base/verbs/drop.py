"""`drop <object>`: one unit from the hands onto the ground. Rule pack `base`;
docs/mechanics/verbs.md#drop."""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import remove_count

from ..carrying import area_loc, hand_loc


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Drop(BaseActionRule):
    name = "drop"
    verb = "drop"
    params = ("object_name",)
    param_min = 1
    param_max = 1
    description = "Put one unit of something I hold down on the ground."
    catalogue = CatalogueShape("object", name=0)
    lists_from_reach = True  # its listings read only what `reach_key` covers
    valid_params_from_mask = True

    # Its listings read only what the agent carries: offered in a dark that hides only the
    # surroundings (docs/rule-packs.md#listings-in-the-dark).
    dim_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        oid = world.obj_name_to_id.get(name)
        if oid is None or agent.hands.get(oid, 0) <= 0:
            return res.fail(
                agent.id, "drop.not_held", f"I cannot drop {name}: I am not holding one."
            )
        remove_count(agent.hands, oid, 1)
        world.areas[agent.area_id].add_objects(oid, 1)
        res.say(agent.id, "drop.done", f"I dropped 1 {name}.")
        res.emit("object_dropped", agent.id, {"obj_id": oid, "area_id": agent.area_id})
        res.track_move(agent.id, oid, 1, hand_loc(agent), area_loc(agent.area_id))
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        listing = ctx.world.listing
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid in ctx.actor.hands:
            found = listing(oid)
            if found is not None:
                out.append((found[0], (found[1],)))
        return out
