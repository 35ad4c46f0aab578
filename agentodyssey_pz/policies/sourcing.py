"""Getting things: every way to come by units of an object, what each costs, and doing it.

Policies layer; a mixin of the planner (`planner.Planner`). A definition can be picked up where it
lies, bought from a merchant, crafted (recursively, at most MAX_DEPTH recipes deep, walking to a
station or building one) or looted from an enemy that carries it. Costs are route lengths plus
rough penalties (coins still to earn, the risk of a fight); `obtain` follows the cheapest source
until enough units are carried. Costs are cached for the tick (`memo`) with the recipe depth they
were worked out at: a cost found with more depth to spare serves a deeper question too (it is at
least as good an answer), and a cost being worked out reads as INFINITE, which breaks recipe
cycles.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from agentodyssey_pz.policies.planning import INFINITE, Plan, Replan, Stuck

MAX_DEPTH = 8  # crafting chains planned at most this deep (two steps per recipe level)
MAX_SOURCE_TRIES = 40  # sources followed by one `obtain` before it gives up
MAX_GATHER_ROUNDS = 5  # passes over a recipe's ingredients before `craft` gives up
SHORT_COIN_COST = 0.7  # route cost per coin still to earn before a purchase
CRAFT_COST = 3.0  # base cost of crafting something (the craft itself, stowing the product)

Source = tuple[float, int, Callable[[], Plan]]  # (cost, units it can give, plan)
# Per definition: {area: units on its ground}, merchants stocking it, enemies carrying it.
Whereabouts = tuple[dict[str, dict[str, int]], dict[str, list[Any]], dict[str, list[Any]]]


class Sourcing:
    """Obtaining, crafting and buying (mixed into the planner)."""

    def obtain(self: Any, did: str, count: int) -> Plan:
        """Carry at least `count` units of a definition, from its cheapest sources."""
        self.reserved.append((did, count))
        try:
            for _ in range(MAX_SOURCE_TRIES):
                need = count - self.have(did)
                if need <= 0:
                    return
                options = self.sources(did, need)
                if not options:
                    raise Stuck(f"no source for {did}")
                yield from min(options, key=lambda o: o[0])[2]()
            raise Stuck(f"could not obtain {count} {did}")
        finally:
            self.reserved.remove((did, count))

    def sources(self: Any, did: str, need: int, depth: int = 0) -> list[Source]:
        """(cost, units it can give, plan) for every way to get units of `did`: from a ground,
        from a merchant, by crafting, from an enemy's loot."""
        world = self.world
        out: list[Source] = []
        obj = world.objects[did]
        ground, stock, loot = self.whereabouts()
        for area_id, n in ground.get(did, {}).items():
            d = self.distance(area_id)
            if d < INFINITE:
                out.append((d + 1, n, self.plan_pick(area_id, did, need)))
        for npc in stock.get(did, ()) if obj.value is not None else ():
            units = npc.inventory.get(did, 0)
            d = self.distance(npc.area_id)
            if d < INFINITE:
                short = max(0, obj.value * min(need, units) - self.coins())
                cost = d + 2 + short * SHORT_COIN_COST
                out.append((cost, units, self.plan_buy(npc.id, did, need)))
        if obj.craft.ingredients and depth < MAX_DEPTH:
            cost = self.craft_cost(did, need, depth)
            if cost < INFINITE:
                out.append((cost, need, lambda: self.craft(did, need)))
        for npc in loot.get(did, ()):
            d, risk = self.distance(npc.area_id), self.fight_cost(npc)
            if risk < INFINITE and d < INFINITE:
                out.append((d + risk, npc.inventory[did], self.plan_loot(npc.id, did)))
        return out

    def whereabouts(self: Any) -> Whereabouts:
        """Where units of each definition are this tick: on grounds (blank ones: a note written
        on is not a blank to write on), in merchants' stock, in the loot of enemies I may fight."""
        memo = self.tick_memo()
        if "whereabouts" in memo:
            return memo["whereabouts"]
        world, def_of = self.world, self.world.def_of
        ground: dict[str, dict[str, int]] = {}
        for area in world.areas.values():
            for oid, n in area.objects.items():
                if n > 0 and self.blank(oid):
                    here = ground.setdefault(def_of(oid).id, {})
                    here[area.id] = here.get(area.id, 0) + n
        stock: dict[str, list[Any]] = {}
        loot: dict[str, list[Any]] = {}
        for npc in world.npcs.values():
            if npc.area_id is None:
                continue
            if self.is_merchant(npc):
                for did, n in npc.inventory.items():
                    if n > 0:
                        stock.setdefault(did, []).append(npc)
            elif npc.enemy and npc.hp > 0 and npc.owner in (None, self.aid):
                for did, n in npc.inventory.items():
                    if n > 0:
                        loot.setdefault(did, []).append(npc)
        memo["whereabouts"] = ground, stock, loot
        return ground, stock, loot

    def is_merchant(self: Any, npc: Any) -> bool:
        return npc.role == self._base("trade").MERCHANT_ROLE

    def blank(self: Any, oid: str) -> bool:
        writable = self.world.writables.get(oid)
        return writable is None or writable.text == ""

    def cost(self: Any, did: str, need: int, depth: int = 0) -> float:
        """What getting `need` units costs, filling from the cheapest sources first; INFINITE
        when all sources together cannot give that many."""
        need -= self.have(did)
        if need <= 0:
            return 0
        memo, key = self.memo(), ("cost", did, need, self.fetching_key, self.earning)
        known = memo.get(key)
        if known is not None and known[0] <= depth:
            return known[1]
        memo[key] = depth, INFINITE  # a recipe cycle reads this instead of recursing
        total, result = 0.0, INFINITE
        for cost, units, _ in sorted(self.sources(did, need, depth + 1), key=lambda o: o[0]):
            total += cost
            need -= units
            if need <= 0:
                result = total
                break
        memo[key] = depth, result
        return result

    def craft_cost(self: Any, did: str, need: int, depth: int = 0) -> float:
        """What crafting `need` units costs: ingredients, stations, the craft itself."""
        memo, key = self.memo(), ("craft", did, need, self.fetching_key, self.earning)
        known = memo.get(key)
        if known is not None and known[0] <= depth:
            return known[1]
        memo[key] = depth, INFINITE
        memo[key] = depth, self._craft_cost(did, need, depth)
        return memo[key][1]

    def _craft_cost(self: Any, did: str, need: int, depth: int) -> float:
        world = self.world
        obj = world.objects[did]
        if self.bulk(obj, need) > self.carrying_room():
            return INFINITE  # the ingredients of one batch would not fit in my hands and bag
        total = CRAFT_COST
        for ing, q in obj.craft.ingredients.items():
            units = self.units_needed(ing, q * need)
            if units > 0:
                total += self.cost(ing, units, depth + 1)
        for dep in obj.craft.dependencies:
            where = self.station_area(dep)
            if where is not None:
                total += self.distance(where)
            elif dep == did or depth + 1 > MAX_DEPTH:
                return INFINITE
            else:
                total += self.craft_cost(dep, 1, depth + 1)
        return min(total, INFINITE)

    def bulk(self: Any, obj: Any, count: int) -> int:
        """Inventory space the ingredients of `count` crafts take beyond what I carry (the two
        biggest units ride in my hands)."""
        sizes = []
        for ing, q in obj.craft.ingredients.items():
            units = max(0, self.units_needed(ing, q * count) - self.have(ing))
            sizes += [self.world.objects[ing].size or 0] * units
        sizes.sort(reverse=True)
        return sum(sizes[2:])

    def carrying_room(self: Any) -> int:
        """Inventory space I could free: what is free plus what I can spare."""
        memo, key = self.memo(), ("room", self.earning)
        if key not in memo:
            spare = sum((self.world.def_of(o).size or 0) * n for o, n in self.spare())
            memo[key] = self.free_space() + spare
        return memo[key]

    def units_needed(self: Any, ing: str, amount: float) -> int:
        """Whole units a recipe takes, after my fractional crafting credit."""
        credit = self.agent.craft_credit.get(ing, 0.0)
        return max(0, math.ceil(round(amount - credit, 9)))

    def station_area(self: Any, dep: str) -> str | None:
        """The nearest area I can reach with a `dep` station on its ground."""
        areas = [a for a in self.whereabouts()[0].get(dep, ()) if self.distance(a) < INFINITE]
        return min(areas, key=self.distance) if areas else None

    # ------------------------------------------------------------------ plans per source
    def plan_pick(self: Any, area: str, did: str, need: int) -> Callable[[], Plan]:
        def plan() -> Plan:
            yield from self.goto(area)
            yield from self.stow(did, need)

        return plan

    def plan_buy(self: Any, npc_id: str, did: str, need: int) -> Callable[[], Plan]:
        return lambda: self.buy(npc_id, did, need)

    def plan_loot(self: Any, npc_id: str, did: str) -> Callable[[], Plan]:
        def plan() -> Plan:
            self.reserved.append((did, 1))
            try:
                yield from self.fight(npc_id)
            finally:
                self.reserved.remove((did, 1))

        return plan

    def craft(self: Any, did: str, count: int, *, take: bool = True) -> Plan:
        """Craft `count` units: gather the ingredients, find or build the stations, craft there;
        the products are stowed, unless `take` is False (stations stay where they were built)."""
        world = self.world
        obj = world.objects[did]
        needs = [
            (ing, self.units_needed(ing, q * count)) for ing, q in obj.craft.ingredients.items()
        ]
        self.reserved.extend(needs)
        try:
            yield from self.gather(obj, count)
            where = None
            for dep in obj.craft.dependencies:
                where = self.station_area(dep)
                if where is None:
                    yield from self.craft(dep, 1)
                    where = self.station_area(dep)
            for dep in obj.craft.dependencies:  # several stations: build the others there too
                if where is not None and not any(
                    self.matches(o, dep) for o in world.areas[where].objects
                ):
                    yield from self.goto(where)
                    yield from self.craft(dep, 1)
            if where is not None:
                yield from self.goto(where)
            yield f"craft {count} {obj.name}"
            if not self.ok():
                raise Stuck(f"craft {obj.name} failed")
        finally:
            for entry in needs:
                self.reserved.remove(entry)
        if take and not obj.is_station:
            yield from self.stow(did, count)

    def gather(self: Any, obj: Any, count: int) -> Plan:
        """The ingredients of `count` crafts of `obj`, all carried at once. Crafting one
        ingredient may use up another already fetched (a strip cut from the plank the recipe
        wants too), so they are counted again until a pass finds nothing missing."""
        for _ in range(MAX_GATHER_ROUNDS):
            short = [
                (ing, units)
                for ing, q in obj.craft.ingredients.items()
                if (units := self.units_needed(ing, q * count)) > self.have(ing)
            ]
            if not short:
                return
            for ing, units in short:
                yield from self.obtain(ing, units)
        raise Stuck(f"the ingredients of {obj.name} keep running out")

    def buy(self: Any, npc_id: str, did: str, count: int) -> Plan:
        world = self.world
        npc, obj = world.npcs[npc_id], world.objects[did]
        count = min(count, npc.inventory.get(did, 0))
        yield from self.earn(obj.value * count)
        yield from self.goto(npc.area_id)
        yield f"buy {count} {obj.name} {npc.name}"
        if not self.ok():  # (someone bought it first, or my coins went)
            raise Replan(f"buying {did} failed")
        yield from self.stow(did, count)
        yield from self.stow(world.currency_id, 10**6)

    def buy_any(self: Any, wanted: list[str], npc_id: str | None) -> Plan:
        """Buy one of `wanted` (anything, if empty) from `npc_id` (any merchant, if None)."""
        world = self.world
        merchants = (
            [world.npcs[npc_id]]
            if npc_id
            else [n for n in world.npcs.values() if self.is_merchant(n) and n.area_id]
        )
        options = [
            (self.distance(npc.area_id) + world.objects[did].value, npc.id, did)
            for npc in merchants
            for did, stock in npc.inventory.items()
            if stock > 0
            and did in world.objects
            and world.objects[did].value is not None
            and (not wanted or did in wanted)
        ]
        if not options:
            raise Stuck(f"nobody sells any of {wanted}")
        _, npc, did = min(options)
        yield from self.buy(npc, did, 1)
