"""Reading the main quest: the stage to work on, whether its conditions hold, how to make them hold.

Policies layer; a mixin of the planner (`planner.Planner`). It names no world's content: it reads
the agent's quest progress (`agent.progress["main_quest"]`), the quest data
(`game.quests.main_quest`) and the quest variables (`world.auxiliary["main_quest"]["vars"]`), judges
conditions with the base pack's own evaluator (`conditions.holds`,
docs/mechanics/quests.md#stages-and-conditions), and turns each condition kind into a plan: places
to walk to, things to obtain, hold or wear, notes to leave, enemies and bosses to fight, events to
cause.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.planning import INFINITE, Plan, Stuck
from agentodyssey_pz.rules.base import RuleResult

STAGE_WAIT = "wait"  # lets the quest look at a stage whose conditions all hold now
# Condition kinds satisfied late: places to see, where to stand, things to leave, what to hold
# (walking through locks may take a held thing out of my hand). Everything else comes first.
CONDITION_ORDER = {
    "visited_k_of_area_set": 1,
    "in_area": 2,
    "in_area_with_npc": 2,
    "talked_to": 2,
    "paper_text_equals_in_area": 3,
    "paper_with_text_in_area": 3,
    "object_on_ground": 3,
    "stamped_areas_in_order": 3,
    "holding": 4,
    "paper_text_equals_in_hands": 4,
    "writable_text_equals_in_inventory": 4,
}
POSSESSION_KINDS = ("has_any_of", "holding", "equipped_any_of")
TEXT_CARRIED_KINDS = ("paper_text_equals_in_hands", "writable_text_equals_in_inventory")
COST_BOUGHT, COST_CRAFTED, COST_OTHER = 5, 10, 50  # rough costs for choosing between alternatives
MAX_ROUNDS = 40  # tries at a condition that should hold after each (kills, purchases, visits)


class QuestReading:
    """The main quest as a plan (mixed into the planner)."""

    def next_stage(self: Any) -> Any:
        """The current stage (linear chapter), or the first active one with conditions (goal
        graph)."""
        quest = self.game.quests.main_quest
        progress = self.progress
        chapter = quest.chapters[min(progress["chapter"], len(quest.chapters) - 1)]
        if not chapter.is_goal_graph:
            index = progress["stage"]
            return chapter.stages[index] if index < len(chapter.stages) else None
        done = set(progress["completed"])
        for stage in chapter.stages:
            if stage.id in done or not all(r in done for r in stage.requires or ()):
                continue
            if stage.has_conditions:
                return stage
        return None

    def stage_key(self: Any) -> tuple[Any, ...]:
        """Changes whenever a stage completes."""
        progress = self.progress
        return (progress.get("chapter"), progress.get("stage"), len(progress.get("completed", ())))

    def achieve(self: Any, stage: Any) -> Plan:
        """Satisfy a stage's conditions (things first, places last), then let the quest see them."""
        key = self.stage_key()
        if stage.done_all is not None:
            conditions = list(stage.done_all)
        else:
            options = list(stage.done_any or ())
            conditions = [] if any(map(self.holds, options)) else [min(options, key=self.estimate)]
        for cond in sorted(conditions, key=self.order_of):
            if self.stage_key() != key:
                return
            if not self.holds(cond):
                yield from self.satisfy(cond)
        if self.stage_key() == key:
            yield STAGE_WAIT  # everything holds now: the quest checks it at the end of this tick

    def order_of(self: Any, cond: Any) -> int:
        return CONDITION_ORDER.get(cond.kind, 0)

    def holds(self: Any, cond: Any, agent: Any = None) -> bool:
        """Whether a condition holds now (for me, or another `agent`), judged by the quest
        engine's own evaluator (event conditions never hold between ticks: no events are
        passed)."""
        conditions = self._base("conditions")
        agent = agent or self.agent
        progress = agent.progress.get("main_quest") or {}
        scope = conditions.QuestScope(
            self.world,
            agent,
            RuleResult(self.game.agent_ids),
            self.variables,
            progress,
            progress.get("bosses_defeated", {}),
        )
        return bool(conditions.holds(cond, scope))

    def satisfy(self: Any, cond: Any) -> Plan:
        kind, p = cond.kind, cond.params
        if kind == "any_of":
            choice = next((c for c in cond.conditions if self.holds(c)), None)
            yield from self.satisfy(choice or min(cond.conditions, key=self.estimate))
        elif kind == "all_of":
            # A text to carry is written last, where the other conditions are met (a text may
            # not last: metropolis's nights rewrite documents); the pen and the blank come first.
            for nested in cond.conditions:
                if nested.kind in TEXT_CARRIED_KINDS and not self.holds(nested):
                    yield from self.ready_note(nested.params.get("object"))
            for nested in sorted(cond.conditions, key=self.order_of):
                yield from self.satisfy(nested)
        elif kind == "in_area":
            yield from self.goto(self.resolve(p["area"]))
        elif kind == "in_area_with_npc":
            yield from self.goto(self.world.npcs[self.resolve(p["npc"])].area_id)
        elif kind == "visited_k_of_area_set":
            yield from self.visit_some(
                self.area_set(p["areas"]),
                int(self.resolve(p.get("k", 1))),
                episode=p.get("history") == "episode",
            )
        elif kind in ("paper_text_equals_in_area", "paper_with_text_in_area"):
            area = self.resolve(p["area"]) if "area" in p else self.agent.area_id
            yield from self.leave_note(str(self.resolve(p["text"])), area)
        elif kind in TEXT_CARRIED_KINDS:
            yield from self.carry_note(cond)
        elif kind in POSSESSION_KINDS:
            yield from self.possess(kind, p["objects"])
        elif kind == "has_category":
            yield from self.possess_category(p["category"], p.get("where"))
        elif kind == "equipped_min_level":
            yield from self.wear_level(p["category"], int(self.resolve(p["min_level"])))
        elif kind == "has_item_count":
            yield from self.obtain(p["object"], int(self.resolve(p.get("count", 1))))
        elif kind == "killed_n_enemies":
            while self.agent.kills < int(self.resolve(p["n"])):
                yield from self.hunt(None)
        elif kind == "killed_one_of_each":
            for ref in p["npcs"]:
                yield from self.fight(self.resolve(ref), prepare=True)
        elif kind in ("killed_matching", "killed_each_role"):
            yield from self.kill_matching(cond)
        elif kind == "lit_dark_areas":
            yield from self.light_dark_areas(cond)
        elif kind == "talked_to":
            yield from self.talk_to(cond)
        elif kind == "bought_from":
            yield from self.buy_any(list(p.get("objects", ())), self.resolve(p["npc"]))
        elif kind == "npc_dead":
            yield from self.fight(self.resolve(p["npc"]), prepare=True)
        elif kind == "npc_coins_at_least":
            yield from self.fill_purse(cond)
        elif kind == "object_on_ground":
            yield from self.put_on_ground(cond)
        elif kind == "area_clear":
            yield from self.clear_areas(cond)
        elif kind == "stamped_areas_in_order":
            yield from self.stamp_areas(cond)
        elif kind == "boss_already_defeated":
            boss = self.boss_instance(p["boss"])
            if boss is None:
                raise Stuck(f"boss {p['boss']} was never spawned")
            yield from self.fight(boss)
        elif kind == "event":
            yield from self.cause_event(cond)
        elif kind == "stage_completed":
            yield STAGE_WAIT  # the goal graph's `requires` orders stages; nothing to do
        else:
            raise Stuck(f"the planner cannot satisfy condition kind {kind!r}")

    # ------------------------------------------------------------------ what I carry
    def possess_category(self: Any, category: str, where: str | None) -> Plan:
        """Carry an object of a category, held or worn when `where` looks only there."""
        ids = [o.id for o in self.world.objects.values() if o.category == category]
        if not ids:
            raise Stuck(f"this world has no object of category {category}")
        carried = [d for d in ids if self.have(d)]
        did = carried[0] if carried else min(ids, key=lambda d: (self.cost(d, 1), d))
        yield from self.obtain(did, 1)
        if where is not None and "inventory" not in where:
            if "equipped" in where and self.world.objects[did].category in ("armor",):
                yield from self.equip(did)
            else:
                yield from self.hold(did)

    def wear_level(self: Any, category: str, least: int) -> Plan:
        """Wear an object of a category whose level is at least `least`."""
        ids = [
            o.id for o in self.world.objects.values() if o.category == category and o.level >= least
        ]
        if not ids:
            raise Stuck(f"no {category} of level {least} or more in this world")
        did = min(ids, key=lambda d: (self.cost(d, 1), d))
        yield from self.obtain(did, 1)
        worn = [o for o in self.agent.equipped if self.world.def_of(o).category == category]
        for oid in worn:
            if self.world.def_of(oid).id != did:
                yield from self.free_hand(keep=self.kept_in_hand())
                yield f"unequip {self.world.name_of(oid)}"
        yield from self.equip(did)

    def carry_note(self: Any, cond: Any) -> Plan:
        """A writable bearing the text, where the condition looks (`where`): written afresh
        unless I carry one; brought into my hands when the condition looks only there."""
        p = cond.params
        text, contains = str(self.resolve(p["text"])), p.get("match") == "contains"
        kind = p.get("object")  # only a writable of that definition counts
        if not self.carries_text(text, contains, kind=kind):
            yield from self.write_note(text, kind)
        where = p.get("where") or ("hands" if cond.kind == "paper_text_equals_in_hands" else None)
        if where is not None and not self.carries_text(text, contains, where, kind):
            note = self.note_with(text, contains, kind)
            if note is not None:
                yield from self.hold(note)

    # ------------------------------------------------------------------ kills
    def kill_filter(self: Any, cond: Any) -> Any:
        """The enemies a kill-record condition counts (`killed_matching`, `killed_each_role`)."""
        p, world = cond.params, self.world
        dark, least = p.get("dark_area", False), int(self.resolve(p.get("min_area_level", 0)))
        roles = p.get("roles")

        def accept(npc: Any) -> bool:
            area = world.areas[npc.area_id]
            if dark and area.light:
                return False
            if least and area.level < least:
                return False
            return roles is None or npc.role in roles

        return accept

    def kill_matching(self: Any, cond: Any) -> Plan:
        """Kill enemies the condition counts until it holds (for `killed_each_role`, one of each
        role not yet among my kills)."""
        accept = self.kill_filter(cond)
        for _ in range(MAX_ROUNDS):
            if self.holds(cond):
                return
            if cond.kind == "killed_each_role":
                killed = {r["role"] for r in self.progress.get("kills", ()) if r["enemy"]}
                left = [role for role in cond.params["roles"] if role not in killed]

                def wanted(npc: Any, left: list[str] = left) -> bool:
                    return npc.role in left and accept(npc)

                yield from self.hunt(None, accept=wanted, what=f"of the roles {left}")
            else:
                yield from self.hunt(None, accept=accept, what="the quest counts")
        raise Stuck(f"{cond.kind} still does not hold")

    def clear_areas(self: Any, cond: Any) -> Plan:
        """Kill every enemy I can see in the area (in each area of a list)."""
        npcs = self.world.npcs
        for _ in range(MAX_ROUNDS):
            if self.holds(cond):
                return
            value = self.resolve(cond.params["area"])
            areas = value if isinstance(value, list) else [value]
            foes = [
                n
                for a in areas
                for n in self.world.visible_npcs(a, self.aid)
                if npcs[n].enemy and npcs[n].hp > 0
            ]
            if not foes:
                raise Stuck("an area to clear shows no enemy")
            yield from self.fight(min(foes, key=lambda n: npcs[n].hp), prepare=True)
        raise Stuck("area_clear still does not hold")

    # ------------------------------------------------------------------ places and things
    def light_dark_areas(self: Any, cond: Any) -> Plan:
        """Stand in dark areas I have not lit yet with the light object in hand, nearest
        first, until the quest has recorded enough of them."""
        p = cond.params
        light = p.get("light_object", self._base("conditions").LIGHT_OBJECT)
        for _ in range(MAX_ROUNDS):
            if self.holds(cond):
                return
            lit = set(self.progress.get("lit", {}).get(light, ()))
            dark = [
                a.id
                for a in self.world.areas.values()
                if not a.light and a.id not in lit and self.distance(a.id) < INFINITE
            ]
            if not dark:
                raise Stuck("no dark area left to light")
            yield from self.obtain(light, 1)
            yield from self.goto(min(dark, key=lambda a: (self.distance(a), a)))
            weapon = self.best_weapon()
            yield from self.hold(light, keep=[weapon] if weapon else [])
            yield STAGE_WAIT  # the quest records the lit area at the end of this tick
        raise Stuck("lit_dark_areas still does not hold")

    def talk_to(self: Any, cond: Any) -> Plan:
        """Talk to the NPC (carrying the text it should see), then stand where it asks."""
        p = cond.params
        npc = self.world.npcs[self.resolve(p["npc"])]
        if "carrying_text" in p:
            text = str(self.resolve(p["carrying_text"]))
            where = p.get("carrying_where", self._base("conditions").TALK_CARRYING_WHERE)
            if not self.carries_text(text, False, where):
                if not self.carries_text(text):
                    yield from self.write_note(text)
                note = self.note_with(text, False)
                if note is not None and not self.carries_text(text, False, where):
                    yield from self.hold(note)
        if npc.id not in self.progress.get("talked", ()):
            yield from self.goto(npc.area_id)
            yield f"talk to {npc.name}"
        if "area" in p:
            yield from self.goto(self.resolve(p["area"]))

    def fill_purse(self: Any, cond: Any) -> Plan:
        """Pay an NPC until it holds enough coins: buy its cheapest wares."""
        npc = self.world.npcs[self.resolve(cond.params["npc"])]
        for _ in range(MAX_ROUNDS):
            if self.holds(cond):
                return
            yield from self.buy_any([], npc.id)
        raise Stuck(f"{npc.name} still lacks coins")

    def put_on_ground(self: Any, cond: Any) -> Plan:
        """Leave a unit of one of the objects on the ground of the area (the nearest, if the
        condition names several)."""
        p = cond.params
        wanted = [self.resolve(ref) for ref in p["objects"]]
        value = self.resolve(p["area"])
        areas = value if isinstance(value, list) else [value]
        area = min(areas, key=lambda a: (self.distance(a), a))
        did = min(wanted, key=lambda d: (self.cost(self.world.def_of(d).id, 1), d))
        if not any(self.have(self.world.def_of(d).id) for d in wanted) and self.mate_brings(wanted):
            yield from self.goto(area)  # a teammate carries one here: I wait for it
            yield STAGE_WAIT
            return
        yield from self.wait_for_mates_in_place()
        yield from self.drop_in(did, area)

    def drop_in(self: Any, what: str, area: str) -> Plan:
        """Carry one unit of `what` (a definition, or an instance) to `area` and drop it."""
        if not any(self.matches(o, what) for o in self.carried()) and not self.have(what):
            yield from self.obtain(self.world.def_of(what).id, 1)
        yield from self.goto(area)
        yield from self.hold(what)
        held = next((o for o in self.agent.hands if self.matches(o, what)), None)
        if held is not None:
            yield f"drop {self.world.name_of(held)}"

    def stamp_areas(self: Any, cond: Any) -> Plan:
        """Drop the object in the areas in their order, from the first not stamped yet."""
        p = cond.params
        wanted = self.resolve(p.get("object"))
        targets = self.area_set(p["areas"])
        drops = [a for obj, a in self.progress.get("drops", ()) if wanted in (None, obj)]
        position = 0
        for area in drops:
            if position < len(targets) and area == targets[position]:
                position += 1
        for area in targets[position:]:
            did = wanted or min(
                (d for d in self.carried() if self.world.objects[d].size), default=None
            )
            if did is None:
                raise Stuck("nothing to stamp the areas with")
            yield from self.drop_in(did, area)

    def possess(self: Any, kind: str, objects: Any) -> Plan:
        """Carry (and, for `holding`/`equipped_any_of`, hold or wear) the cheapest of `objects`."""
        did = min(objects, key=lambda d: self.cost(d, 1))
        yield from self.obtain(did, 1)
        if kind == "holding":
            yield from self.hold(did)
        elif kind == "equipped_any_of":
            yield from self.equip(did)

    def estimate(self: Any, cond: Any) -> float:
        """A rough cost, for choosing between alternatives (`done_any`, `any_of`)."""
        p = cond.params
        if cond.kind in POSSESSION_KINDS:
            return min(self.cost(d, 1) for d in p["objects"])
        if cond.kind == "event" and p["type"] == "object_bought":
            return COST_BOUGHT + min((self.cost(d, 1) for d in p.get("objects", ())), default=0)
        if cond.kind == "event" and p["type"] == "object_crafted":
            return COST_CRAFTED
        return COST_OTHER

    def area_set(self: Any, ref: Any) -> list[str]:
        value = self.resolve(ref)
        return [self.resolve(a) for a in value] if isinstance(value, list) else []

    def cause_event(self: Any, cond: Any) -> Plan:
        p = cond.params
        kind, key = p["type"], self.stage_key()
        if kind == "object_crafted":
            wanted = list(p.get("objects", ())) or [
                o.id
                for o in self.world.objects.values()
                if o.craft.ingredients and p.get("category") in (None, o.category)
            ]
            yield from self.craft(min(wanted, key=lambda d: self.craft_cost(d, 1)), 1)
        elif kind == "object_bought":
            yield from self.buy_any(list(p.get("objects", ())), self.resolve(p.get("npc")))
        elif kind == "npc_killed":
            if "npc" in p:
                yield from self.fight(self.resolve(p["npc"]), prepare=True)
            else:
                yield from self.hunt(self.resolve(p.get("area")))
        else:
            raise Stuck(f"the planner cannot cause event {kind!r}")
        if self.stage_key() == key:
            yield STAGE_WAIT  # (a store after the event already gave the quest its look)
