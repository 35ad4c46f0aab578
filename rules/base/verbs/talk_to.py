"""`talk to <npc>`: hear what an NPC here says; a merchant also names its wares and prices.

Rule pack `base`; docs/mechanics/verbs.md#talk-to. Changes nothing (talking never starts or affects
combat); quest guides publish their objectives through their dialogue. A merchant's price list
shows each stock entry as count, name and unit price (the definition's value); ids the world does
not define show as "Unknown" at 0, as in the reference. Improvement over the reference: empty
stock entries are not listed (they cannot be bought), and an object without a value is shown as
not for sale instead of a price of None.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

MERCHANT_ROLE = "merchant"
UNKNOWN_NAME, UNKNOWN_PRICE = "Unknown", 0


def price_entry(world: World, oid: str, count: int, currency: str) -> str:
    obj = world.find_def(oid)
    if obj is None:
        return f"{count} {UNKNOWN_NAME} at {UNKNOWN_PRICE} {currency} each"
    if obj.value is None:
        return f"{count} {obj.name} (not for sale)"
    return f"{count} {obj.name} at {obj.value} {currency} each"


def price_list(world: World, npc: Npc) -> str:
    currency_id, currency = world.currency_id, world.currency_name  # the world's word first
    if currency is None:
        currency = world.objects[currency_id].name if currency_id is not None else "money"
    entries = [price_entry(world, oid, n, currency) for oid, n in npc.inventory.items() if n > 0]
    return ", ".join(entries)


@mypyc_attr(native_class=False)  # spike: packs subclass it
class TalkTo(BaseActionRule):
    name = "talk_to"
    verb = "talk to"
    params = ("npc_name",)
    param_min = 1
    param_max = 1
    description = "Talk to someone here: hear what they say (merchants also list their prices)."
    catalogue = CatalogueShape("npc", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        npc = world.npc_here(name, agent.area_id, agent.id)
        if npc is None:
            return res.fail(
                agent.id, "talk_to.not_here", f"I cannot talk to {name}: they are not here."
            )
        if npc.description:
            res.say(agent.id, "talk_to.description", f"{npc.name}: {npc.description}")
        if npc.dialogue:
            res.say(agent.id, "talk_to.dialogue", f'{npc.name} says: "{npc.dialogue}"')
        else:
            res.say(agent.id, "talk_to.silent", f"{npc.name} has nothing to say.")
        if npc.role == MERCHANT_ROLE:
            wares = price_list(world, npc)
            if wares:
                res.say(agent.id, "talk_to.prices", f"{npc.name} sells: {wares}.")
            else:
                res.say(agent.id, "talk_to.no_stock", f"{npc.name} has nothing left to sell.")
        res.emit("npc_talked_to", agent.id, {"npc_id": npc.id, "area_id": agent.area_id})
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        # `rules.targets.nameable_npcs`, inlined as in `attack`.
        names, npcs = world.npc_name_to_id, world.npcs
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for npc_id in world.visible_npcs(agent.area_id, agent.id):
            npc = npcs[npc_id]
            if names.get(npc.name) == npc_id:
                out.append((npc.def_id, (npc.name,)))
        return out
