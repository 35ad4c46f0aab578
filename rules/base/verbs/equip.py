"""`equip <object>`: wear a held armour, or take up a held container as my inventory.

Rule pack `base`; docs/mechanics/verbs.md#equip. One unit moves from the hands to the equipped
items. At most one inventory container and one armour; armour adds its defense. Weapons, tools,
writables and everything else cannot be equipped (a weapon counts while held in hand). Reference
quirk fixed (docs/mechanics/verbs.md#quirk-weapons-are-not-offered-for-equip): only what `equip`
accepts is listed as valid (held armour and held container instances), never weapons. Tracking:
armour moves to the `equip` location like containers (the reference's separate `armor` kind strands
tokens; docs/mechanics/dependency-tracking.md#tracking-events).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

from ..carrying import equip_loc, hand_loc, move_units

ARMOR_CATEGORY = "armor"
INVENTORY_MODE, ARMOR_MODE = "inventory", "armor"


def has_inventory(world: World, agent: AgentState) -> bool:
    return agent.inventory_id is not None or any(oid in world.containers for oid in agent.equipped)


def has_armor(world: World, agent: AgentState) -> bool:
    return any(world.def_of(oid).category == ARMOR_CATEGORY for oid in agent.equipped)


def refusal(world: World, agent: AgentState, oid: str) -> tuple[str, str] | None:
    """Why a held object cannot be equipped now, as (key, reason), or None if it can."""
    if oid in world.containers:
        if has_inventory(world, agent):
            return "equip.has_inventory", "I already have an inventory equipped"
        return None
    obj = world.def_of(oid)
    if oid in world.writables or obj.category != ARMOR_CATEGORY:
        return "equip.not_equippable", f"a {obj.category} cannot be equipped (weapons work in hand)"
    if has_armor(world, agent):
        return "equip.has_armor", "I already wear armour"
    return None


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Equip(BaseActionRule):
    name = "equip"
    verb = "equip"
    params = ("obj_name",)
    param_min = 1
    param_max = 1
    description = "Equip something I hold: a container becomes my inventory, armour protects me."
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
        if oid is None or agent.hands.get(oid, 0) <= 0:
            return res.fail(
                agent.id, "equip.not_held", f"I cannot equip {name}: I am not holding one."
            )
        refused = refusal(world, agent, oid)
        if refused is not None:
            key, reason = refused
            return res.fail(agent.id, key, f"I cannot equip {name}: {reason}.")
        move_units(agent, oid, 1, agent.hands, agent.equipped)
        res.track_move(agent.id, oid, 1, hand_loc(agent), equip_loc(agent))
        if oid in world.containers:
            agent.inventory_id = oid
            res.say(agent.id, "equip.inventory", f"I equipped {name} as my inventory.")
            res.emit("item_equipped", agent.id, {"obj_id": oid, "mode": INVENTORY_MODE})
            return None
        defense = world.def_of(oid).defense
        agent.defense += defense
        res.say(
            agent.id,
            "equip.armor",
            f"I put on {name}: my defense rises by {defense} to {agent.defense}.",
        )
        res.emit(
            "item_equipped",
            agent.id,
            {"obj_id": oid, "mode": ARMOR_MODE, "category": ARMOR_CATEGORY},
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid, n in agent.hands.items():
            found = world.listing(oid)
            if n > 0 and found is not None and refusal(world, agent, oid) is None:
                out.append((found[0], (found[1],)))
        return out
