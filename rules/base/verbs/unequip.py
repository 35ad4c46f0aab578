"""`unequip <object>`: take an equipped item back into a free hand.

Rule pack `base`; docs/mechanics/verbs.md#unequip. One unit moves from the equipped items to the
hands (which must hold at most one unit). Unequipping the inventory container detaches the inventory
(the container keeps its contents, now carried in hand); anything else gives back its defense.
Tracking uses the `equip` location for armour too (fixes the reference's `armor`/`equip` mismatch,
docs/mechanics/dependency-tracking.md#tracking-events).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext

from ..carrying import equip_loc, hand_loc, move_units


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Unequip(BaseActionRule):
    name = "unequip"
    verb = "unequip"
    params = ("obj_name",)
    param_min = 1
    param_max = 1
    description = "Take off something I have equipped and hold it (needs a free hand)."
    catalogue = CatalogueShape("equippable", name=0)
    lists_from_reach = True  # its listings read only what `reach_key` covers
    valid_params_from_mask = True

    # Its listings read only what the agent carries: offered in a dark that hides only the
    # surroundings (docs/rule-packs.md#listings-in-the-dark).
    dim_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        oid = world.obj_name_to_id.get(name)
        if oid is None or agent.equipped.get(oid, 0) <= 0:
            return res.fail(
                agent.id, "unequip.not_equipped", f"I cannot unequip {name}: I have none equipped."
            )
        if agent.hands_full:
            return res.fail(
                agent.id, "unequip.hands_full", f"I cannot unequip {name}: both my hands are full."
            )
        move_units(agent, oid, 1, agent.equipped, agent.hands)
        res.track_move(agent.id, oid, 1, equip_loc(agent), hand_loc(agent))
        if oid == agent.inventory_id:
            agent.inventory_id = None
            res.say(
                agent.id,
                "unequip.inventory",
                f"I unequipped {name}; I have no inventory now and hold it in hand.",
            )
        else:
            defense = world.def_of(oid).defense
            agent.defense -= defense
            res.say(
                agent.id,
                "unequip.done",
                f"I took off {name}: my defense drops by {defense} to {agent.defense}.",
            )
        res.emit("item_unequipped", agent.id, {"obj_id": oid})
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if agent.hands_full:
            return []
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid, n in agent.equipped.items():
            found = world.listing(oid)
            if n > 0 and found is not None:
                out.append((found[0], (found[1],)))
        return out
