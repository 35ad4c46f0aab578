"""`buy <amount> <object> <merchant>`: pay a merchant here for units of its stock.

Rule pack `base`; spec actions.md section 16. Coins are paid from the hands first, then the equipped
inventory, then containers held in hand; the merchant pockets them and its stock shrinks. What was
bought appears on the ground here (containers and writables as new instances). The amount is
clamped to the stock; there is no partial purchase by money. Purchases count towards the trade
reward (`agent.traded`) unless the agent has not passed the tutorial yet (our per-agent reading of
spec 0.4).

Quirks and interpretations:
* The reference lets an instance name (`label_3`) buy a new unit of its definition. We ask for the
  kind's own name instead (`buy.instance_name`), so every purchasable item has exactly one name and
  `valid_params` lists each item once (observations-and-loop 10 recommends one entry per item).
* Valid actions (observations-and-loop 10): the reference is off by one, ignores the stock and
  divides by zero for free goods; we list amounts 1..min(stock, coins // price) (1..stock if free).
* Feedback about a clamped amount is given only when the purchase happens, so a failed purchase
  leaves exactly one line.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores, remove_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from ..carrying import parse_amount, place_on_ground, take_units
from ..trade import (
    MERCHANT_ROLE,
    amounts,
    coins_carried,
    kind_name_resolves,
    merchants_here,
    money_name,
)


class Buy(BaseActionRule):
    name = "buy"
    verb = "buy"
    params = ("amount", "obj_name", "npc_name")
    param_min = param_max = 3
    description = "Buy items from a merchant here with the coins I carry; they land on the ground."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        amount_text, obj_name, npc_name = ctx.params
        requested = parse_amount(amount_text)
        if requested is None:
            return res.fail(
                agent.id,
                "buy.bad_amount",
                f"I cannot buy '{amount_text}' of anything: the amount must be a positive "
                "whole number.",
            )
        npc = world.npc_here(npc_name, agent.area_id)
        if npc is None:
            return res.fail(
                agent.id,
                "buy.no_npc",
                f"I cannot buy from {npc_name}: nobody of that name is here.",
            )
        if npc.role != MERCHANT_ROLE:
            return res.fail(
                agent.id,
                "buy.not_merchant",
                f"I cannot buy from {npc_name}: they are not a merchant.",
            )
        oid = world.obj_name_to_id.get(obj_name)
        if oid is None:
            return res.fail(
                agent.id, "buy.unknown_object", f"I cannot buy {obj_name}: I know of no such thing."
            )
        obj = world.def_of(oid)
        if oid != obj.id:
            return res.fail(
                agent.id,
                "buy.instance_name",
                f"I cannot buy {obj_name}: that is one particular {obj.name}; I can ask {npc_name} "
                f"for '{obj.name}' instead.",
            )
        return self._buy_checked(world, agent, npc, obj, requested, res)

    def _buy_checked(
        self,
        world: World,
        agent: AgentState,
        npc: Npc,
        obj: ObjectDef,
        requested: int,
        res: RuleResult,
    ) -> None:
        """Price, stock and money checks (spec 16.5-10), then the purchase."""
        if obj.value is None:
            return res.fail(
                agent.id,
                "buy.not_sold",
                f"I cannot buy {obj.name}: {npc.name} does not trade in it.",
            )
        price = int(obj.value)
        if price < 0:
            return res.fail(
                agent.id,
                "buy.bad_price",
                f"I cannot buy {obj.name}: it has no proper price ({price}).",
            )
        stock = npc.inventory.get(obj.id, 0)
        if stock <= 0:
            return res.fail(
                agent.id,
                "buy.out_of_stock",
                f"I cannot buy {obj.name}: {npc.name} has none in stock.",
            )
        amount = min(requested, stock)
        cost = price * amount
        coins = coins_carried(world, agent)
        if coins < cost:
            only = f" ({npc.name} has only {stock})" if amount < requested else ""
            return res.fail(
                agent.id,
                "buy.no_money",
                f"I cannot buy {amount} {obj.name}{only}: that costs {cost} {money_name(world)} "
                f"and I carry only {coins}.",
            )
        if amount < requested:
            res.say(
                agent.id,
                "buy.only_stock",
                f"{npc.name} had only {stock} {obj.name}, so I bought {stock} instead of "
                f"{requested}.",
            )
        self._trade(world, agent, npc, obj, amount, price, res)
        return None

    def _trade(
        self,
        world: World,
        agent: AgentState,
        npc: Npc,
        obj: ObjectDef,
        amount: int,
        price: int,
        res: RuleResult,
    ) -> None:
        cost = price * amount
        if cost > 0:
            take_units(world, agent, carried_stores(world, agent), world.currency_id, cost, res)
        npc.coins += cost
        remove_count(npc.inventory, obj.id, amount)
        place_on_ground(world, agent, obj.id, amount, res)
        # Trade tracking is held back until the agent has passed the tutorial (spec 0.4).
        if agent.tutorial_passed:
            agent.traded[obj.id] = agent.traded.get(obj.id, 0) + amount
        res.say(
            agent.id,
            "buy.done",
            f"I bought {amount} {obj.name} from {npc.name} for {cost} {money_name(world)} "
            f"({price} each); it is on the ground here.",
        )
        res.emit(
            "object_bought",
            agent.id,
            {
                "npc_id": npc.id,
                "obj_id": obj.id,
                "amount": amount,
                "unit_price": price,
                "area_id": agent.area_id,
            },
        )

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        agent, world = ctx.actor, ctx.world
        merchants = merchants_here(world, agent)
        if not merchants:
            return []
        coins = coins_carried(world, agent)
        out: list[tuple[str, ...]] = []
        for npc in merchants:
            for def_id, stock in npc.inventory.items():
                obj = world.objects.get(def_id)
                if stock <= 0 or obj is None or obj.value is None or int(obj.value) < 0:
                    continue
                if not kind_name_resolves(world, obj):
                    continue
                price = int(obj.value)
                limit = stock if price == 0 else min(stock, coins // price)
                out += [(str(n), obj.name, npc.name) for n in amounts(limit, all_amounts)]
        return out
