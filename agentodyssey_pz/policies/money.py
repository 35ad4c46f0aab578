"""Money: coming by coins (picking them up, selling what I can spare, hunting for loot that sells).

Policies layer; a mixin of the planner (`planner.Planner`). Merchants pay the base pack's sell
price (`trade.sell_price`: a share of the value, rounded down) out of their own purse, and the coins
land on the ground, so every sale is followed by stowing them.
"""

from __future__ import annotations

import math
from typing import Any

from agentodyssey_pz.policies.planning import LOCK_COST, Plan, Stuck

ALL = 10**6  # "every unit lying here"
MAX_EARN_ROUNDS = 30  # coin-gathering steps before `earn` gives up


class Money:
    """Coins in, spare things out (mixed into the planner)."""

    def earn(self: Any, amount: int) -> Plan:
        """Carry at least `amount` coins: pick up coins lying around, sell spare things, hunt."""
        world = self.world
        currency = world.currency_id
        for _ in range(MAX_EARN_ROUNDS):
            if self.coins() >= amount:
                return
            ground = [
                a.id
                for a in world.areas.values()
                if a.objects.get(currency, 0) > 0 and self.distance(a.id) < LOCK_COST
            ]
            if ground:
                yield from self.goto(min(ground, key=self.distance))
                before = self.issued
                yield from self.stow(currency, ALL)
                here = world.areas[self.agent.area_id].objects.get(currency, 0)
                if self.issued == before and here > 0:  # my hands are full of what I keep
                    raise Stuck(f"no room to carry {amount} coins")
                continue
            sale = self.best_sale(amount - self.coins())
            if sale is not None:
                npc, oid, n = sale
                yield from self.goto(world.npcs[npc].area_id)
                yield f"sell {n} {world.name_of(oid)} {world.npcs[npc].name}"
                yield from self.stow(currency, ALL)
                continue
            self.earning = True
            try:
                yield from self.hunt(None, for_loot=True)
            finally:
                self.earning = False
        raise Stuck(f"could not earn {amount} coins")

    def sell_price(self: Any, oid: str) -> int:
        """Coins a merchant pays for one unit (0: not sellable)."""
        obj = self.world.def_of(oid)
        if obj.value is None or self.world.is_instance(oid) or obj.is_instanced:
            return 0
        return math.floor(obj.value * self._base("trade").SELL_PRICE_FACTOR)

    def paying_merchants(self: Any) -> list[Any]:
        """Merchants standing on the map with coins to pay, that I can reach without locks."""
        return [
            n
            for n in self.world.npcs.values()
            if self.is_merchant(n)
            and n.area_id
            and n.coins > 0
            and self.distance(n.area_id) < LOCK_COST
        ]

    def best_sale(self: Any, short: int) -> tuple[str, str, int] | None:
        """(merchant, object, units) to sell for about `short` coins, from what I can spare."""
        merchants = self.paying_merchants()
        inv = self.inventory()
        if not merchants or inv is None:
            return None
        npc = min(merchants, key=lambda n: self.distance(n.area_id))
        keep = self.needed()
        for oid, n in inv.items.items():
            price = self.sell_price(oid)
            if self.world.def_of(oid).id in keep or price <= 0:
                continue
            return npc.id, oid, min(n, max(1, math.ceil(short / price)))
        return None

    def sell_spare(self: Any, npc_id: str) -> Plan:
        """Sell to a merchant here everything I carry and can spare that it can pay for."""
        world, npc = self.world, self.world.npcs[npc_id]
        keep = self.needed()
        stores = [self.agent.hands] + ([self.inventory().items] if self.inventory() else [])
        for store in stores:
            for oid, n in list(store.items()):
                price = self.sell_price(oid)
                if world.def_of(oid).id in keep or price <= 0 or npc.coins < price:
                    continue
                yield f"sell {min(n, npc.coins // price)} {world.name_of(oid)} {npc.name}"
        yield from self.stow(world.currency_id, ALL)
