"""`sell <amount> <object> <merchant>`: sell carried units to a merchant here for half their value.

Rule pack `base`; docs/mechanics/verbs.md#sell. The merchant pays floor(value x 0.5) per unit out of
its own purse, and the coins land on the ground here (not in hand). Units are taken from the hands
first, then the equipped inventory, then containers held in hand; equipped items are never sold.
The amount is clamped to what I carry, then to what the merchant can pay.

Reference quirks fixed and interpretations:
* Selling neither restocks the merchant (sold goods vanish) nor counts as trade (kept;
  docs/mechanics/verbs.md#quirk-selling-does-not-restock-or-count-as-trade): `agent.traded` is
  only written by `buy`.
* Valid actions (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): the reference is off
  by one, ignores how many I carry, never offers container contents and checks affordability against
  the full value; we list amounts 1..min(carried, merchant coins // sell price) over hands,
  inventory and held containers.
* A world without a currency cannot pay anyone: selling fails there (`sell.no_currency`).
* Clamped amounts are reported only when the sale happens, so a refusal is one line.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from ..carrying import AmountRuns, count_in_stores, place_on_ground, take_units
from ..trade import (
    Deal,
    DealRule,
    Line,
    is_sellable_kind,
    kind_name_resolves,
    merchant_for,
    merchants_here,
    money_name,
    sell_price,
)


def quote(world: World, agent: AgentState, params: tuple[str, ...]) -> Deal | Line:
    """Amount, merchant and a tradable kind, then the price checks; nothing changes."""
    amount_text, obj_name, npc_name = params
    found = merchant_for(world, agent, "sell", amount_text, npc_name)
    if isinstance(found, Line):
        return found
    requested, npc = found
    if world.currency_id is None:
        return Line("sell.no_currency", f"I cannot sell to {npc_name}: this world has no money.")
    oid = world.obj_name_to_id.get(obj_name)
    if oid is None:
        return Line("sell.unknown_object", f"I cannot sell {obj_name}: I know of no such thing.")
    obj = world.def_of(oid)
    if oid != obj.id or obj.is_instanced:
        return Line(
            "sell.not_tradable",
            f"I cannot sell {obj_name}: containers and writable things are not traded.",
        )
    return price_checked(world, agent, npc, obj, requested)


def price_checked(
    world: World, agent: AgentState, npc: Npc, obj: ObjectDef, requested: int
) -> Deal | Line:
    """A sell price, units carried, and a merchant able to pay for one."""
    unit = sell_price(obj)
    if unit is None:
        return Line("sell.no_value", f"I cannot sell {obj.name}: it has no trade value.")
    if unit <= 0:
        return Line("sell.worthless", f"I cannot sell {obj.name}: no merchant would pay for it.")
    have = count_in_stores(world, carried_stores(world, agent), obj.id)
    if have <= 0:
        return Line(
            "sell.not_carried",
            f"I cannot sell {obj.name}: I carry none in my hands, inventory or held containers.",
        )
    afford = npc.coins // unit
    if afford <= 0:
        return Line(
            "sell.merchant_broke",
            f"I cannot sell {obj.name}: {npc.name} has only {npc.coins} {money_name(world)} and "
            f"one is worth {unit}.",
        )
    notes = []
    if have < requested:
        notes.append(Line("sell.only_have", f"I had only {have} {obj.name}, not {requested}."))
    if afford < min(have, requested):
        notes.append(
            Line("sell.only_afford", f"{npc.name} could pay for only {afford} {obj.name}.")
        )
    return Deal(npc, obj, min(requested, have, afford), unit, tuple(notes))


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Sell(DealRule):
    name = "sell"
    verb = "sell"
    description = "Sell carried items to a merchant here for half their value; coins drop here."

    def quote(self, world: World, agent: AgentState, params: tuple[str, ...]) -> Deal | Line:
        return quote(world, agent, params)

    def close(self, ctx: RuleContext, deal: Deal, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        npc, obj, amount, unit = deal.npc, deal.obj, deal.amount, deal.unit
        take_units(world, agent, carried_stores(world, agent), obj.id, amount, res)
        paid = unit * amount
        npc.coins -= paid
        currency = world.currency_id
        if currency is not None:  # checked in `quote`; the coins land here, not in hand
            place_on_ground(world, agent, currency, paid, res)
        res.say(
            agent.id,
            "sell.done",
            f"I sold {amount} {obj.name} to {npc.name} for {paid} {money_name(world)} "
            f"({unit} each); the {world.currency_name or 'coins'} are on the ground here.",
        )
        data = {"npc_id": npc.id, "obj_id": obj.id, "amount": amount, "unit_price": unit}
        res.emit("object_sold", agent.id, {**data, "area_id": agent.area_id})
        return None

    def amount_runs(self, ctx: RuleContext) -> AmountRuns:
        """Per merchant here, per sellable kind I carry (hands, inventory, held containers):
        amounts up to what I have and the merchant can pay."""
        agent, world = ctx.actor, ctx.world
        merchants = merchants_here(world, agent)
        if not merchants or world.currency_id is None:
            return []
        stores = carried_stores(world, agent)
        kinds = {world.def_of(oid).id: world.def_of(oid) for store in stores for oid in store}
        out: AmountRuns = []
        for npc in merchants:
            for obj in kinds.values():
                unit = sell_price(obj) or 0
                if unit <= 0 or not is_sellable_kind(obj) or not kind_name_resolves(world, obj):
                    continue
                limit = min(count_in_stores(world, stores, obj.id), npc.coins // unit)
                out.append(((obj.name, npc.name), limit))
        return out
