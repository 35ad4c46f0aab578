"""`contraband_suspicion_step` (11): carrying too much draws suspicion, bailiffs, confiscation.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. State
`contraband_suspicion[agent] = {turns_over, last_area, converging_bailiffs}`. Per living agent:
the threshold is 8, +4 for each written writable on the ground here mentioning `lenient`, `free
trade`, `open carry`, `deregulation` or `free passage`, -3 for each mentioning `strict`,
`contraband`, `prohibition`, `restricted`, `ban carry` or `seizure` (both may apply), at least 2.
Carried = units in hands + inventory + containers in hand.

* Moved since the last check: `turns_over` and the bailiffs are reset.
* Carried within the threshold: a "cleared" line if it was over; reset.
* Over: one more turn over; at 2 a warning (`contraband_warning {total_carried, threshold,
  area_id, turns_over}`); at 3 a line; at 4 up to 2 enemy `npc_bailiff_construct`s in the
  neighbours (the first of each, path order) are recorded as converging, never moved
  (`contraband_bailiffs_dispatched {area_id, bailiff_count}`); from 5, `min(6, max(1, int(excess *
  0.5)))` units are confiscated: the pool (inventory entries but stations, containers and
  writables; hand entries but container instances and stations; held-container entries but
  stations and containers) is `shuffle`d and emptied in order; each entry goes round-robin to the
  merchants here and next door (path order), whose stock of its definition grows (no merchant: it
  vanishes); `contraband_confiscated {confiscated, redistributed_to, area_id}`; reset.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.agents import remove_count

from .common import CONTAINER, CONTRABAND, STATION, ground_writables, neighbour_ids, table

LENIENT = ("lenient", "free trade", "open carry", "deregulation", "free passage")
STRICT = ("strict", "contraband", "prohibition", "restricted", "ban carry", "seizure")
BAILIFF = "npc_bailiff_construct"


class ContrabandSuspicion(BaseStepRule):
    name = "contraband_suspicion_step"
    priority = 11
    description = "Carrying more than the local law allows draws warnings, bailiffs, confiscation."
    state_key = CONTRABAND
    state_shape = MapOf(
        Record({"turns_over": int, "last_area": (str, None), "converging_bailiffs": list})
    )
    settings = {"threshold": 8, "lenient_bonus": 4, "strict_malus": 3, "minimum": 2}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        states = table(world, CONTRABAND)
        for agent in game.agents.values():
            if agent.hp <= 0:
                continue
            here = agent.area_id
            threshold = s["threshold"]
            for oid in ground_writables(world, here):
                text = world.writables[oid].text.lower()
                if any(w in text for w in LENIENT):
                    threshold += s["lenient_bonus"]
                if any(w in text for w in STRICT):
                    threshold -= s["strict_malus"]
            threshold = max(s["minimum"], threshold)
            inv = world.containers.get(agent.inventory_id) if agent.inventory_id else None
            held = [world.containers[o] for o in agent.hands if o in world.containers]
            carried = sum(agent.hands.values()) + (sum(inv.items.values()) if inv else 0)
            carried += sum(sum(b.items.values()) for b in held)
            st = states.get(agent.id)
            fresh = {"turns_over": 0, "last_area": here, "converging_bailiffs": []}
            if st is None or st["last_area"] != here:
                st = states[agent.id] = fresh
            if carried <= threshold:
                if st["turns_over"] > 0:
                    res.say(agent.id, "contraband.cleared", "Suspicion about my load fades.")
                states[agent.id] = fresh
                continue
            st["turns_over"] += 1
            n, excess = st["turns_over"], carried - threshold
            if n == 2:
                res.say(
                    agent.id,
                    "contraband.warning",
                    f"I carry {carried} things; the law allows {threshold}.",
                )
                res.emit(
                    "contraband_warning",
                    agent.id,
                    {
                        "total_carried": carried,
                        "threshold": threshold,
                        "area_id": here,
                        "turns_over": n,
                    },
                )
            elif n == 3:
                res.say(agent.id, "contraband.grows", "Suspicion about my load grows.")
            elif n == 4:
                found: list[str] = []
                for nb in neighbour_ids(world, here):
                    for npc_id in world.areas[nb].npcs:
                        npc = world.npcs[npc_id]
                        if npc.enemy and npc.def_id == BAILIFF:
                            found.append(npc_id)
                            break
                    if len(found) >= 2:
                        break
                st["converging_bailiffs"] = found
                res.say(
                    agent.id, "contraband.bailiffs", "Bailiffs are said to be converging on me."
                )
                res.emit(
                    "contraband_bailiffs_dispatched",
                    agent.id,
                    {"area_id": here, "bailiff_count": len(found)},
                )
            elif n >= 5:
                self._confiscate(ctx, res, agent, min(6, max(1, int(excess * 0.5))), inv, held)
                states[agent.id] = fresh

    @staticmethod
    def _confiscate(ctx, res, agent, amount, inv, held) -> None:
        world, rng = ctx.world, ctx.game.rng
        pool: list[tuple[dict[str, int], str]] = []
        if inv is not None:
            for oid in inv.items:
                d = world.find_def(oid)
                if d is not None and d.category not in (STATION, CONTAINER) and not d.is_writable:
                    pool.append((inv.items, oid))
        for oid in agent.hands:
            d = world.find_def(oid)
            if d is not None and oid not in world.containers and d.category != STATION:
                pool.append((agent.hands, oid))
        for box in held:
            for oid in box.items:
                d = world.find_def(oid)
                if d is not None and d.category not in (STATION, CONTAINER):
                    pool.append((box.items, oid))
        rng.shuffle(pool)
        merchants = []
        for area_id in [agent.area_id, *neighbour_ids(world, agent.area_id)]:
            merchants += [
                world.npcs[i] for i in world.areas[area_id].npcs if world.npcs[i].role == "merchant"
            ]
        taken: dict[str, int] = {}
        names: list[str] = []
        left, turn = amount, 0
        for store, oid in pool:
            if left <= 0:
                break
            n = min(store.get(oid, 0), left)
            if n <= 0:
                continue
            def_id = world.def_of(oid).id
            remove_count(store, oid, n)
            if world.is_instance(oid) and oid not in store:
                world.delete_instance(oid)
            left -= n
            taken[def_id] = taken.get(def_id, 0) + n
            if merchants:
                m = merchants[turn % len(merchants)]
                turn += 1
                m.inventory[def_id] = m.inventory.get(def_id, 0) + n
                names.append(m.name)
        res.say(
            agent.id,
            "contraband.confiscated",
            f"The law confiscates {sum(taken.values())} of my things.",
        )
        res.emit(
            "contraband_confiscated",
            agent.id,
            {"confiscated": taken, "redistributed_to": names, "area_id": agent.area_id},
        )
