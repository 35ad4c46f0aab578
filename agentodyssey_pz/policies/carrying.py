"""Hands and inventory: what to keep, what to spare, getting things into hand or into the bag.

Policies layer; a mixin of the planner (`planner.Planner`). Two hands hold two units; a container
equipped as the inventory holds what fits its capacity. Things a running plan needs
(`reserved`), quest things, tools, weapons and openers are kept; the rest is spare and is
discarded first when room is needed. After a death, `recover` walks back and takes up what fell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from agentodyssey_pz.policies.planning import (
    INFINITE,
    LOCK_COST,
    OPENER_USAGES,
    Plan,
    Replan,
    Stuck,
    walk_conditions,
)
from agentodyssey_pz.world.agents import container_load

KEPT_USAGES = (*OPENER_USAGES, "write", "writable")  # tools a plan may need again
SELLABLE_VALUE = 2  # while earning, loot worth at least this is carried to a merchant
UPGRADE_COST = 30  # the most a roomier inventory container is worth


class Carrying:
    """Inventory management (mixed into the planner)."""

    def inventory(self: Any) -> Any:
        inv = self.agent.inventory_id
        return self.world.containers[inv] if inv is not None else None

    def free_space(self: Any) -> int:
        inv = self.inventory()
        if inv is None:
            return 0
        return (self.world.def_of(inv.id).capacity or 0) - container_load(self.world, inv)

    def ensure_inventory(self: Any, limit: float = LOCK_COST) -> Plan:
        """Equip a container as my inventory: one in hand or lying here, else the cheapest to
        get if it costs less than `limit`. Without one in reach I carry on with my two hands (a
        quest reward may bring one)."""
        world, agent = self.world, self.agent
        if agent.inventory_id is not None:
            return
        held = next((o for o in agent.hands if o in world.containers), None)
        if held is None:
            here = [o for o in world.areas[agent.area_id].objects if o in world.containers]
            if not here:
                kinds = [o.id for o in world.objects.values() if o.is_container]
                best = min(kinds, key=lambda d: self.cost(d, 1), default=None)
                if best is None or self.cost(best, 1) >= limit:
                    return
                yield from self.obtain(best, 1)
                here = [o for o in world.areas[agent.area_id].objects if o in world.containers]
            held = next((o for o in agent.hands if o in world.containers), None)
            if held is None and here:
                yield from self.hold(here[0])
                held = here[0]
        if held is not None and held in agent.hands:
            yield f"equip {world.name_of(held)}"

    def upgrade_inventory(self: Any, wanted: Iterable[str] = ()) -> Plan:
        """When none of `wanted` is to be had, maybe for want of room (the ingredients of a
        recipe, or of the station it needs, must all be carried at once), swap my inventory for
        a roomier container costing less than UPGRADE_COST. The old container's contents move
        over through the ground, then it is left there."""
        world, inv = self.world, self.inventory()
        wanted = [d for d in wanted if d in world.objects]
        if inv is None or not wanted or any(self.have(d) for d in wanted):
            return
        if any(self.cost(d, 1) < INFINITE for d in wanted):
            return
        room = world.def_of(inv.id).capacity or 0
        better = [
            o.id for o in world.objects.values() if o.is_container and (o.capacity or 0) > room
        ]
        if not better:
            return
        best = min(better, key=lambda d: (self.cost(d, 1), d))
        if self.cost(best, 1) >= UPGRADE_COST:
            return
        yield from self.obtain(best, 1)
        new = next((o for o in self.agent.hands if self.matches(o, best)), None)
        if new is None:
            return
        old = inv.id
        name = world.name_of
        for oid in [o for o in self.agent.hands if o != new]:
            yield from self.put_away(oid)
        yield f"unequip {name(old)}"
        yield f"equip {name(new)}"
        if self.agent.inventory_id != new:
            raise Replan("the new container could not be equipped")
        for oid, n in list(world.containers[old].items.items()):
            yield f"discard {n} {name(oid)} {name(old)}"
            yield from self.stow(world.def_of(oid).id, n)
        yield f"drop {name(old)}"

    def needed(self: Any) -> set[str]:
        """Definitions I never sell or leave behind: what plans need, quest things, tools,
        weapons and openers."""
        keep = {did for did, _ in self.reserved} | set(self._quest_objects)
        for did, obj in self.world.objects.items():
            if obj.quest or obj.category == "weapon" or obj.usage in KEPT_USAGES:
                keep.add(did)
        return keep

    def spare(self: Any) -> list[tuple[str, int]]:
        """Inventory entries I can do without, most dispensable first: things no plan needs,
        written-on writables and blank ones beyond one, openers beyond the locks still shut,
        writing tools beyond one, weapons other than my best."""
        world, inv = self.world, self.inventory()
        if inv is None:
            return []
        best = self.best_weapon()
        wanted = dict(self._quest_objects)
        for did, units in self.reserved:
            wanted[did] = max(wanted.get(did, 0), units)
        locks = sum(1 for _, _, d in world.graph.nx.edges(data=True) if d["locked"])
        ranked: list[tuple[int, str, int]] = []
        blanks = openers = tools = 0
        for oid, n in inv.items.items():
            obj = world.def_of(oid)
            if not obj.size or obj.is_container:
                continue
            if obj.id in wanted:  # units beyond what the plans need can go
                extra = self.have(obj.id) - wanted[obj.id]
                if extra > 0:
                    ranked.append((0, oid, min(n, extra)))
                continue
            if oid in world.writables:
                blank = world.writables[oid].text == ""
                blanks += blank
                if (not blank and not self.quest_note(oid)) or blanks > 1:
                    ranked.append((1, oid, n))
            elif obj.usage in OPENER_USAGES:
                extra = max(0, min(n, openers + n - locks))
                openers += n
                if extra:
                    ranked.append((2, oid, extra))
            elif obj.usage == "write":
                tools += n
                if tools > 1:
                    ranked.append((3, oid, min(n, tools - 1)))
            elif obj.category == "weapon":
                if obj.id != best:
                    ranked.append((4, oid, n))
            else:  # while earning, what sells goes last
                sells = self.earning and (obj.value or 0) >= SELLABLE_VALUE
                ranked.append((5 if sells else 0, oid, n))
        ranked.sort(key=lambda r: (r[0], -(world.def_of(r[1]).size or 0)))
        return [(oid, n) for _, oid, n in ranked]

    def quest_note(self: Any, oid: str) -> bool:
        """Whether a writable bears a text the quest looks for (a condition's, or one that
        weakens a boss): such a note is kept, as a stage ahead may want it again."""
        conditions = self._base("conditions")
        text = conditions.normal_text(self.world.writables[oid].text)
        return bool(text) and any(t in text for t in self.quest_texts())

    def quest_texts(self: Any) -> list[str]:
        """The texts the quest's conditions (of my stages from the current one on) and boss
        modifiers look for, normalised."""
        memo = self.tick_memo()
        if "quest_texts" not in memo:
            quest, texts = self.game.quests.main_quest, []
            done = set(self.progress.get("completed", ()))
            if quest is not None:
                for chapter in quest.chapters:
                    for stage in chapter.stages:
                        if stage.id in done:
                            continue
                        for cond in walk_conditions(
                            (*(stage.done_all or ()), *(stage.done_any or ()))
                        ):
                            for key in ("text", "carrying_text"):
                                if key in cond.params:
                                    texts.append(self.resolve(cond.params[key]))
                for boss in quest.bosses.values():
                    texts += [
                        self.resolve(m.when_carrying_text.text)
                        for m in boss.modifiers
                        if m.when_carrying_text
                    ]
            normal = self._base("conditions").normal_text
            memo["quest_texts"] = [normal(t) for t in texts if t is not None and normal(t)]
        return memo["quest_texts"]

    def make_room(self: Any, size: int) -> Plan:
        """Discard what I can spare from the inventory until `size` fits."""
        world = self.world
        for oid, n in self.spare():
            if self.free_space() >= size:
                return
            per = world.def_of(oid).size or 1
            count = min(n, math.ceil((size - self.free_space()) / per))
            yield f"discard {count} {world.name_of(oid)} inventory"

    def free_hand(self: Any, keep: Iterable[str] = ()) -> Plan:
        """Empty one hand of something not in `keep` (ids): into the inventory, else the ground.
        When both hands hold things to keep, the later one goes after all: a hand must be freed,
        or the planner would try the same pick-up forever (it can fetch the thing again)."""
        agent = self.agent
        if not agent.hands_full:
            return
        keep = set(keep)
        spare = [oid for oid in agent.hands if oid not in keep] or list(agent.hands)[-1:]
        yield from self.put_away(spare[0])

    def put_away(self: Any, oid: str) -> Plan:
        """Take a held thing out of my hands: into my inventory if it fits, else onto the
        ground."""
        world = self.world
        size = world.def_of(oid).size
        if oid not in world.containers and size is not None and self.inventory() is not None:
            if self.free_space() < size:
                yield from self.make_room(size)
            if self.free_space() >= size:
                yield f"store 1 {world.name_of(oid)} inventory"
                if self.ok():
                    return
        yield f"drop {world.name_of(oid)}"

    def hold(self: Any, what: str, keep: Iterable[str] = ()) -> Plan:
        """Get one unit of a definition (or an instance) into my hands from my inventory, a
        container in my hand or the ground, keeping held things whose definitions (or ids) are
        in `keep`."""
        world, agent = self.world, self.agent
        keep = set(keep)
        for _ in range(4):
            if any(self.matches(o, what) for o in agent.hands):
                return
            inv = self.inventory()
            inside = next((o for o in inv.items if self.matches(o, what)), None) if inv else None
            boxed = next(
                (
                    (box, o)
                    for box in [o for o in agent.hands if o in world.containers]
                    for o in world.containers[box].items
                    if self.matches(o, what)
                ),
                None,
            )
            ground = next(
                (o for o in world.areas[agent.area_id].objects if self.matches(o, what)), None
            )
            if inside is None and boxed is None and ground is None:
                raise Replan(f"{what} is gone")
            kept = [o for o in agent.hands if o in keep or world.def_of(o).id in keep]
            if inside is None and boxed is not None:  # the box fills one hand, the unit the other
                yield from self.free_hand(keep=[*kept, boxed[0]])
                yield f"take out {world.name_of(boxed[1])} {world.name_of(boxed[0])}"
                continue
            yield from self.free_hand(keep=kept)
            if inside is not None:
                yield f"take out {world.name_of(inside)} inventory"
            else:
                yield f"pick up {world.name_of(ground)}"
        if not any(self.matches(o, what) for o in agent.hands):
            raise Stuck(f"cannot get {what} into my hands")

    def equip(self: Any, did: str) -> Plan:
        if any(self.matches(o, did) for o in self.agent.equipped):
            return
        yield from self.hold(did)
        oid = next(o for o in self.agent.hands if self.matches(o, did))
        yield f"equip {self.world.name_of(oid)}"

    def stow(self: Any, did: str, count: int, *, force: bool = True) -> Plan:
        """Take up to `count` units of a definition lying here: into my inventory, making room
        if I must, else (when `force`) into my hands."""
        world = self.world
        here = world.areas[self.agent.area_id].objects
        obj = world.objects[did]
        for oid in [o for o in here if self.matches(o, did)]:
            n = min(here.get(oid, 0), count)
            if n <= 0:
                continue
            if obj.is_container or obj.size is None or self.inventory() is None:
                for _ in range(min(n, 2)):  # two hands at most
                    held = [o for o in self.agent.hands if self.matches(o, did)]
                    kept = self.kept_in_hand() + held
                    if self.agent.hands_full and held and all(o in kept for o in self.agent.hands):
                        return  # my hands hold this and what I keep: freeing one drops this
                    yield from self.free_hand(keep=kept)
                    yield f"pick up {world.name_of(oid)}"
                    if not self.ok():
                        return
                    count -= 1
                continue
            if self.free_space() < obj.size * n:
                yield from self.make_room(obj.size * n)
            fit = n if not obj.size else min(n, self.free_space() // obj.size)
            if fit > 0:
                yield f"store {fit} {world.name_of(oid)} inventory"
                if not self.ok():  # someone else took it first
                    raise Replan(f"could not store {did}")
                count -= fit
                continue
            if not force:
                return
            kept = self.kept_in_hand()
            if self.agent.hands_full and len(kept) == len(self.agent.hands):
                # Dropping one needed thing to take up another would only go round in circles.
                raise Stuck(f"no room for {did}: my bag and hands are full of what I need")
            yield from self.free_hand(keep=kept)
            yield f"pick up {world.name_of(oid)}"
            if not self.ok():
                raise Stuck(f"no room for {did}")
            count -= 1

    def kept_in_hand(self: Any) -> list[str]:
        """What I hold and should not let go of to free a hand: what `needed` names, but not a
        note whose text the quest no longer looks for, nor a weapon other than my best one (unless
        a running plan wants them)."""
        world, keep = self.world, self.needed()
        reserved = {did for did, _ in self.reserved}
        best = self.best_weapon()
        kept = []
        for oid in self.agent.hands:
            did = world.def_of(oid).id
            if did not in keep:
                continue
            if did not in reserved:
                writable = world.writables.get(oid)
                if writable is not None and writable.text and not self.quest_note(oid):
                    continue
                if world.objects[did].category == "weapon" and did != best:
                    continue
            kept.append(oid)
        return kept

    def stow_loot(self: Any, loot: dict[str, int]) -> Plan:
        """Take what a fallen enemy (or the quest) left here, when I need it or it sells."""
        world = self.world
        here = world.areas[self.agent.area_id].objects
        keep = self.needed()
        for did, dropped in loot.items():
            obj = world.objects.get(did)
            if obj is None or obj.is_station or obj.is_instanced:
                continue
            count = min(dropped, sum(n for o, n in here.items() if self.matches(o, did)))
            wanted = obj.quest or did in keep or did == world.currency_id
            if count and wanted:
                yield from self.stow(did, count)
            elif count and self.earning and (obj.value or 0) >= SELLABLE_VALUE:
                yield from self.stow(did, count, force=False)

    def recover(self: Any, area: str) -> Plan:
        """Walk back to where I fell and take up my inventory, armour and things again."""
        world = self.world
        yield from self.goto(area)
        here = world.areas[area].objects
        for oid in [o for o in here if o in self.belongings and o in world.containers]:
            yield from self.hold(oid)
            if self.agent.inventory_id is None:
                yield f"equip {world.name_of(oid)}"
        for oid in [o for o in list(here) if o in self.belongings and o not in world.containers]:
            obj = world.def_of(oid)
            if obj.category == "armor" and not any(
                world.def_of(e).category == "armor" for e in self.agent.equipped
            ):
                yield from self.equip(oid)
            elif obj.size is not None and self.inventory() is not None:
                yield from self.stow(obj.id, here.get(oid, 0))
