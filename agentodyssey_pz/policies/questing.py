"""Reading the main quest: the stage to work on, whether its conditions hold, how to make them hold.

Policies layer; a mixin of the planner (`planner.Planner`). It names no world's content: it reads
the agent's quest progress (`agent.progress["main_quest"]`), the quest data
(`game.quests.main_quest`) and the quest variables (`world.auxiliary["main_quest"]["vars"]`), judges
conditions with the base pack's own evaluator (`conditions.holds`, spec step-rules 8.5), and turns
each condition kind into a plan: places to walk to, things to obtain, hold or wear, notes to leave,
enemies and bosses to fight, events to cause.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.planning import Plan, Stuck
from agentodyssey_pz.rules.base import RuleResult

STAGE_WAIT = "wait"  # lets the quest look at a stage whose conditions all hold now
# Condition kinds satisfied late: places to see, where to stand, notes to leave, what to hold
# (walking through locks may take a held thing out of my hand). Everything else comes first.
CONDITION_ORDER = {
    "visited_k_of_area_set": 1,
    "in_area": 2,
    "in_area_with_npc": 2,
    "paper_text_equals_in_area": 3,
    "paper_with_text_in_area": 3,
    "holding": 4,
}
POSSESSION_KINDS = ("has_any_of", "holding", "equipped_any_of")
COST_BOUGHT, COST_CRAFTED, COST_OTHER = 5, 10, 50  # rough costs for choosing between alternatives


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

    def holds(self: Any, cond: Any) -> bool:
        """Whether a condition holds now, judged by the quest engine's own evaluator (event
        conditions never hold between ticks: no events are passed)."""
        conditions = self._base("conditions")
        scope = conditions.QuestScope(
            self.world,
            self.agent,
            RuleResult(self.game.agent_ids),
            self.variables,
            self.progress,
            self.progress.get("bosses_defeated", {}),
        )
        return bool(conditions.holds(cond, scope))

    def satisfy(self: Any, cond: Any) -> Plan:
        kind, p = cond.kind, cond.params
        if kind == "any_of":
            choice = next((c for c in cond.conditions if self.holds(c)), None)
            yield from self.satisfy(choice or min(cond.conditions, key=self.estimate))
        elif kind == "all_of":
            for nested in sorted(cond.conditions, key=self.order_of):
                yield from self.satisfy(nested)
        elif kind == "in_area":
            yield from self.goto(self.resolve(p["area"]))
        elif kind == "in_area_with_npc":
            yield from self.goto(self.world.npcs[self.resolve(p["npc"])].area_id)
        elif kind == "visited_k_of_area_set":
            yield from self.visit_some(self.area_set(p["areas"]), int(self.resolve(p.get("k", 1))))
        elif kind in ("paper_text_equals_in_area", "paper_with_text_in_area"):
            area = self.resolve(p["area"]) if "area" in p else self.agent.area_id
            yield from self.leave_note(str(self.resolve(p["text"])), area)
        elif kind in ("paper_text_equals_in_hands", "writable_text_equals_in_inventory"):
            yield from self.write_note(str(self.resolve(p["text"])))
        elif kind in POSSESSION_KINDS:
            yield from self.possess(kind, p["objects"])
        elif kind == "has_category":
            ids = [o.id for o in self.world.objects.values() if o.category == p["category"]]
            yield from self.obtain(min(ids, key=lambda d: self.cost(d, 1)), 1)
        elif kind == "has_item_count":
            yield from self.obtain(p["object"], int(self.resolve(p.get("count", 1))))
        elif kind == "killed_n_enemies":
            while self.agent.kills < int(self.resolve(p["n"])):
                yield from self.hunt(None)
        elif kind == "killed_one_of_each":
            for ref in p["npcs"]:
                yield from self.fight(self.resolve(ref))
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

    def boss_instance(self: Any, key: str) -> str | None:
        """The NPC id of a boss of the quest: my own instance, or the one all agents share."""
        if key in self.progress.get("bosses", {}):
            return self.progress["bosses"][key]
        quest_state = self.world.auxiliary.get("main_quest") or {}
        return quest_state.get("shared_bosses", {}).get(key)

    def boss_of(self: Any, npc_id: str) -> Any:
        """The quest's definition of a boss instance I fight (mine or a shared one), else None."""
        quest_state = self.world.auxiliary.get("main_quest") or {}
        owned = quest_state.get("boss_owner", {}).get(npc_id)
        if owned is not None:
            return self.game.quests.main_quest.bosses[owned[1]] if owned[0] == self.aid else None
        for key, shared in quest_state.get("shared_bosses", {}).items():
            if shared == npc_id:
                return self.game.quests.main_quest.bosses[key]
        return None

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
                yield from self.fight(self.resolve(p["npc"]))
            else:
                yield from self.hunt(self.resolve(p.get("area")))
        else:
            raise Stuck(f"the planner cannot cause event {kind!r}")
        if self.stage_key() == key:
            yield STAGE_WAIT  # (a store after the event already gave the quest its look)
