"""`sell <amount> <object> <merchant>`: sell carried units to a merchant here for half their value.

Rule pack `base`; spec actions.md section 17. The merchant pays floor(value x 0.5) per unit out of
its own purse, and the coins land on the ground here (not in hand). Units are taken from the hands
first, then the equipped inventory, then containers held in hand; equipped items are never sold.
The amount is clamped to what I carry and then to what the merchant can pay.

Quirks and interpretations:
* Selling neither restocks the merchant (sold goods vanish) nor counts as trade (spec quirk 9):
  kept, as the spec prescribes; `agent.traded` is only written by `buy`.
* Valid actions (observations-and-loop 10): the reference is off by one, ignores how many I carry,
  never offers container contents and checks affordability against the full value; we list amounts
  1..min(carried, merchant coins // sell price) over hands, inventory and held containers.
* A world without a currency cannot pay anyone: selling fails there (`sell.no_currency`).
* Feedback about a clamped amount is given only when the sale happens.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from ..carrying import count_in_stores, parse_amount, place_on_ground, take_units
from ..trade import (
    MERCHANT_ROLE,
    amounts,
    is_sellable_kind,
    kind_name_resolves,
    merchants_here,
    money_name,
    sell_price,
)


class Sell(BaseActionRule):
    name = "sell"
    verb = "sell"
    params = ("amount", "obj_name", "npc_name")
    param_min = param_max = 3
    description = (
        "Sell carried items to a merchant here for half their value; coins land on the ground."
    )

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        amount_text, obj_name, npc_name = ctx.params
        requested = parse_amount(amount_text)
        if requested is None:
            return res.fail(
                agent.id,
                "sell.bad_amount",
                f"I cannot sell '{amount_text}' of anything: the amount must be a positive "
                "whole number.",
            )
        npc = world.npc_here(npc_name, agent.area_id)
        if npc is None:
            return res.fail(
                agent.id,
                "sell.no_npc",
                f"I cannot sell to {npc_name}: nobody of that name is here.",
            )
        if npc.role != MERCHANT_ROLE:
            return res.fail(
                agent.id,
                "sell.not_merchant",
                f"I cannot sell to {npc_name}: they are not a merchant.",
            )
        if world.currency_id is None:
            return res.fail(
                agent.id,
                "sell.no_currency",
                f"I cannot sell to {npc_name}: this world has no money to pay me in.",
            )
        oid = world.obj_name_to_id.get(obj_name)
        if oid is None:
            return res.fail(
                agent.id,
                "sell.unknown_object",
                f"I cannot sell {obj_name}: I know of no such thing.",
            )
        obj = world.def_of(oid)
        if oid != obj.id or obj.is_instanced:
            return res.fail(
                agent.id,
                "sell.not_tradable",
                f"I cannot sell {obj_name}: containers and writable things are not traded.",
            )
        return self._sell_checked(world, agent, npc, obj, requested, res)

    def _sell_checked(
        self,
        world: World,
        agent: AgentState,
        npc: Npc,
        obj: ObjectDef,
        requested: int,
        res: RuleResult,
    ) -> None:
        """Value, possession and purse checks (spec 17.5-9), then the sale."""
        unit = sell_price(obj)
        if unit is None:
            return res.fail(
                agent.id, "sell.no_value", f"I cannot sell {obj.name}: it has no trade value."
            )
        if unit <= 0:
            return res.fail(
                agent.id,
                "sell.worthless",
                f"I cannot sell {obj.name}: a merchant would pay nothing for it.",
            )
        stores = carried_stores(world, agent)
        have = count_in_stores(world, stores, obj.id)
        if have <= 0:
            return res.fail(
                agent.id,
                "sell.not_carried",
                f"I cannot sell {obj.name}: I carry none in my hands, inventory or held "
                "containers.",
            )
        afford = npc.coins // unit
        if afford <= 0:
            return res.fail(
                agent.id,
                "sell.merchant_broke",
                f"I cannot sell {obj.name}: {npc.name} has {npc.coins} {money_name(world)}, "
                f"less than the {unit} one is worth.",
            )
        amount = min(requested, have)
        if amount < requested:
            res.say(
                agent.id,
                "sell.only_have",
                f"I had only {have} {obj.name} to sell, not {requested}.",
            )
        if amount > afford:
            res.say(
                agent.id,
                "sell.only_afford",
                f"{npc.name} could pay for only {afford} {obj.name}, so I sold {afford} "
                f"instead of {amount}.",
            )
            amount = afford
        self._trade(world, agent, npc, obj, amount, unit, res)
        return None

    def _trade(
        self,
        world: World,
        agent: AgentState,
        npc: Npc,
        obj: ObjectDef,
        amount: int,
        unit: int,
        res: RuleResult,
    ) -> None:
        take_units(world, agent, carried_stores(world, agent), obj.id, amount, res)
        currency = world.currency_id
        assert currency is not None, "checked in apply"
        paid = unit * amount
        npc.coins -= paid
        place_on_ground(world, agent, currency, paid, res)  # on the ground, not in hand (spec 17)
        res.say(
            agent.id,
            "sell.done",
            f"I sold {amount} {obj.name} to {npc.name} for {paid} {money_name(world)} "
            f"({unit} each); the coins are on the ground here.",
        )
        res.emit(
            "object_sold",
            agent.id,
            {
                "npc_id": npc.id,
                "obj_id": obj.id,
                "amount": amount,
                "unit_price": unit,
                "area_id": agent.area_id,
            },
        )

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        agent, world = ctx.actor, ctx.world
        merchants = merchants_here(world, agent)
        if not merchants or world.currency_id is None:
            return []
        stores = carried_stores(world, agent)
        kinds = [world.def_of(oid) for store in stores for oid in store]
        sellable = {
            obj.id: obj for obj in kinds if is_sellable_kind(obj) and kind_name_resolves(world, obj)
        }
        out: list[tuple[str, ...]] = []
        for npc in merchants:
            for obj in sellable.values():
                unit = sell_price(obj) or 0
                if unit <= 0:
                    continue
                limit = min(count_in_stores(world, stores, obj.id), npc.coins // unit)
                out += [(str(n), obj.name, npc.name) for n in amounts(limit, all_amounts)]
        return out
