"""`buy <amount> <object> <merchant>`: pay a merchant here for units of its stock.

Rule pack `base`; docs/mechanics/verbs.md#buy. Coins are paid from the hands first, then the
equipped inventory, then containers held in hand; the merchant pockets them and its stock shrinks.
What was bought appears on the ground here (containers and writables as new instances). The amount
is clamped to the stock; there is no partial purchase by money. Purchases count towards the trade
reward (`agent.traded`) unless the agent has not passed the tutorial yet (the reference holds it
back for everyone while anyone is in the tutorial;
docs/mechanics/rewards.md#quirk-tracking-held-back-per-agent).

Reference quirks fixed and interpretations:
* As in the reference, an instance name (`label_3`) buys a new unit of its definition;
  `valid_params` lists each item once, by its definition name (one entry per item).
* Valid actions (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): the reference is off
  by one, ignores the stock, divides by zero for free goods and fails on stock ids the world does
  not define; we list amounts 1..min(stock, coins // price) (1..stock if free) for defined, priced
  stock only.
* A clamped amount is reported only when the purchase happens, so a refusal is one line.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores, remove_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from ..carrying import AmountRuns, place_on_ground, take_units
from ..trade import (
    Deal,
    DealRule,
    Line,
    coins_carried,
    kind_name_resolves,
    merchant_for,
    merchants_here,
    money_name,
)


def quote(world: World, agent: AgentState, params: tuple[str, ...]) -> Deal | Line:
    """Amount, merchant and object, then the price checks; nothing changes."""
    amount_text, obj_name, npc_name = params
    found = merchant_for(world, agent, "buy", amount_text, npc_name)
    if isinstance(found, Line):
        return found
    requested, npc = found
    oid = world.obj_name_to_id.get(obj_name)
    if oid is None:
        return Line("buy.unknown_object", f"I cannot buy {obj_name}: I know of no such thing.")
    obj = world.def_of(oid)
    return price_checked(world, agent, npc, obj, requested)


def price_checked(
    world: World, agent: AgentState, npc: Npc, obj: ObjectDef, requested: int
) -> Deal | Line:
    """A price, stock, and enough coins for the (stock-clamped) amount."""
    if obj.value is None:
        return Line("buy.not_sold", f"I cannot buy {obj.name}: {npc.name} does not trade in it.")
    price = int(obj.value)
    if price < 0:
        return Line("buy.bad_price", f"I cannot buy {obj.name}: its price ({price}) is invalid.")
    stock = npc.inventory.get(obj.id, 0)
    if stock <= 0:
        return Line("buy.out_of_stock", f"I cannot buy {obj.name}: {npc.name} has none in stock.")
    amount = min(requested, stock)
    cost, coins = price * amount, coins_carried(world, agent)
    clamped = amount < requested
    if coins < cost:
        only = f" ({npc.name} has only {stock})" if clamped else ""
        return Line(
            "buy.no_money",
            f"I cannot buy {amount} {obj.name}{only}: that costs {cost} {money_name(world)} "
            f"and I carry only {coins}.",
        )
    note = Line(
        "buy.only_stock",
        f"{npc.name} had only {stock} {obj.name}, so I bought {stock}, not {requested}.",
    )
    return Deal(npc, obj, amount, price, (note,) if clamped else ())


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Buy(DealRule):
    name = "buy"
    verb = "buy"
    description = "Buy items from a merchant here with the coins I carry; they land on the ground."

    def quote(self, world: World, agent: AgentState, params: tuple[str, ...]) -> Deal | Line:
        return quote(world, agent, params)

    def close(self, ctx: RuleContext, deal: Deal, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        npc, obj, amount, price = deal.npc, deal.obj, deal.amount, deal.unit
        cost = price * amount
        currency = world.currency_id
        if cost > 0 and currency is not None:  # a positive cost passed the coin check
            take_units(world, agent, carried_stores(world, agent), currency, cost, res)
        npc.coins += cost
        remove_count(npc.inventory, obj.id, amount)
        place_on_ground(world, agent, obj.id, amount, res)
        if agent.tutorial_passed:  # trade tracking waits until the tutorial is passed
            agent.traded[obj.id] = agent.traded.get(obj.id, 0) + amount
        res.say(
            agent.id,
            "buy.done",
            f"I bought {amount} {obj.name} from {npc.name} for {cost} {money_name(world)} "
            f"({price} each); it is on the ground here.",
        )
        data = {"npc_id": npc.id, "obj_id": obj.id, "amount": amount, "unit_price": price}
        res.emit("object_bought", agent.id, {**data, "area_id": agent.area_id})
        return None

    def amount_runs(self, ctx: RuleContext) -> AmountRuns:
        """Per merchant here, per defined and priced stock entry: amounts up to what the stock
        and my coins allow."""
        agent, world = ctx.actor, ctx.world
        merchants = merchants_here(world, agent)
        if not merchants:
            return []
        coins = coins_carried(world, agent)
        out: AmountRuns = []
        for npc in merchants:
            for def_id, stock in npc.inventory.items():
                obj = world.objects.get(def_id)
                if obj is None or obj.value is None or not kind_name_resolves(world, obj):
                    continue
                price = int(obj.value)
                if stock <= 0 or price < 0:
                    continue
                limit = stock if price == 0 else min(stock, coins // price)
                out.append(((obj.name, npc.name), limit))
        return out
