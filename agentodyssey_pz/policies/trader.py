"""The trader: buys kinds it has never bought, selling what it can spare; component `trade`.

Policies layer. Standing with a merchant it first sells everything it carries and can spare
(`money.sell_spare`: never quest things, tools, weapons or openers). Then it picks the cheapest
kind it has never bought from any merchant it can reach (price plus route length), earns the coins
if it is short (coins lying around, sales, loot) and walks there to buy one. With nothing new to buy
in reach it explores, which may open the way to a merchant.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import INFINITE, Plan
from agentodyssey_pz.policies.scripted import ScriptedPolicy


class TraderPlanner(Planner):
    """Sell the spare, buy the new."""

    def round(self) -> Plan:
        here = [n for n in self.merchants_here() if n.coins > 0]
        if here and not self.is_blocked(here[0].id):
            self.block(here[0].id)  # sell once per visit
            yield from self.sell_spare(here[0].id)
        options = [(did, partial(self.buy, npc_id, did, 1)) for npc_id, did in self.new_kinds()]
        if not (yield from self.attempt(options)):
            yield from self.wander()

    def merchants_here(self) -> list[Any]:
        world = self.world
        here = (world.npcs[n] for n in world.visible_npcs(self.agent.area_id, self.aid))
        return [npc for npc in here if self.is_merchant(npc)]

    def new_kinds(self) -> list[tuple[str, str]]:
        """(merchant, definition) for kinds I never bought, cheapest (price plus route) first."""
        world, traded = self.world, self.agent.traded
        options = []
        for npc in world.npcs.values():
            if not self.is_merchant(npc) or npc.area_id is None:
                continue
            d = self.distance(npc.area_id)
            if d >= INFINITE:
                continue
            for did, stock in npc.inventory.items():
                obj = world.objects.get(did)
                if stock <= 0 or obj is None or obj.value is None or did in traded:
                    continue
                if not self.is_blocked(did):
                    options.append((d + obj.value, npc.id, did))
        return [(npc_id, did) for _, npc_id, did in sorted(options)]


class TraderPolicy(ScriptedPolicy):
    """New kinds bought from the merchants it walks to, paid for with what it sells."""

    name = "trader"
    planner_class = TraderPlanner
    components = ("trade",)
