"""Teamwork between quest players: what one agent does so that the others can finish too.

Policies layer; a mixin of the planner (`planner.Planner`). The main quest runs for every agent,
but a world may hold fewer of some thing than agents need (one bag, a relic a merchant stocks
once). The quester then helps, in these ways that name no world's content:

* `supply_teammates`: a teammate without an inventory in a world where no container lies about
  or waits in a merchant's stock at a price it can pay cannot make one with two hands; I make one
  (or, when none can be made, buy one) and leave it where I stand, for it to fetch.
* `pass_on`: a thing a teammate's current stage (in a goal graph: any of its open goals) asks
  it to have (or to buy), that no ground and no merchant offers any more, which I carry and my
  own stages ahead no longer need (not even to make something they need; never a weapon or
  armour): I drop it where I stand, for the teammate to fetch.
* `build_stations_ahead`: where a background rule empties unvisited grounds over time
  (GROUND_DECAY_RULES), a station a recipe of my stages ahead needs, that no ground holds, is
  built while it is cheap (its materials may be gone by the time the stage comes).
* `waits_for_team` (opt-in, `wait_for_team`): at a last stage that only needs a shared boss
  beaten, or at the last goal of a goal graph, I wait until every teammate has reached that stage
  (has no other goal left) too, at most TEAM_WAIT ticks, so that the one kill (or the one thing
  left on a ground) completes the quest for all of us (the episode ends with the first quest
  completed). Before leaving that thing, I wait for teammates to stand where the goal wants them;
  a teammate without the thing goes there and waits for the one who carries it.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.planning import INFINITE, WAIT, Plan, walk_conditions
from agentodyssey_pz.policies.sourcing import MAX_DEPTH
from agentodyssey_pz.world.agents import possession

TEAM_WAIT = 600  # ticks I wait at the last boss for teammates before fighting it anyway
WANTING_KINDS = ("has_any_of", "holding", "equipped_any_of")
PLACE_KINDS = ("in_area", "in_area_with_npc")  # where a teammate must stand to finish with me
KEPT_CATEGORIES = ("weapon", "armor")  # never passed on: they keep me alive on my way
STATION_AHEAD_COST = 80  # the most a station for a later stage is worth building early
AHEAD_EVERY = 10  # ticks between two looks at what to build ahead (and at each new stage)
# Background rules that empty the grounds of areas nobody visits (war_machines' territory
# reclamation): with one of them, stations for later stages are built early.
GROUND_DECAY_RULES = ("territory_reclamation_step",)


class Teamwork:
    """Helping the other agents through the quest (mixed into the planner)."""

    wait_for_team = False
    team_deadline: int | None = None
    stations_checked: Any = None  # (stage, tick bucket) of the last look at what to build ahead

    def teammates(self: Any) -> list[Any]:
        """The other agents whose quest runs and is not complete."""
        return [
            a
            for a in self.game.agents.values()
            if a.id != self.aid
            and a.progress.get("main_quest")
            and not a.progress["main_quest"].get("complete")
        ]

    def stage_of(self: Any, agent: Any) -> Any:
        """An agent's current stage: in a linear chapter the one it is at, in a goal graph the
        first active one with conditions (as it plays them); None past the end."""
        quest, progress = self.game.quests.main_quest, agent.progress.get("main_quest") or {}
        if quest is None or not progress:
            return None
        chapter = quest.chapters[min(progress["chapter"], len(quest.chapters) - 1)]
        if chapter.is_goal_graph:
            done = set(progress["completed"])
            for stage in chapter.stages:
                ready = all(r in done for r in stage.requires or ())
                if stage.id not in done and stage.has_conditions and ready:
                    return stage
            return None
        index = progress["stage"]
        return chapter.stages[index] if index < len(chapter.stages) else None

    def stages_of(self: Any, agent: Any) -> list[Any]:
        """The stages an agent works on: its current stage in a linear chapter, every active
        stage with conditions it has not completed in a goal graph."""
        quest, progress = self.game.quests.main_quest, agent.progress.get("main_quest") or {}
        if quest is None or not progress or progress["chapter"] >= len(quest.chapters):
            return []
        chapter = quest.chapters[progress["chapter"]]
        if not chapter.is_goal_graph:
            stage = self.stage_of(agent)
            return [] if stage is None else [stage]
        done = set(progress.get("completed", ()))
        return [
            s
            for s in chapter.stages
            if s.has_conditions and s.id not in done and all(r in done for r in s.requires or ())
        ]

    # ------------------------------------------------------------------ things
    def supply_teammates(self: Any) -> Plan:
        """Make an inventory for a teammate that cannot (see the module docstring)."""
        world = self.world
        if self.inventory() is None:
            return
        lacking = [
            a.id
            for a in self.game.agents.values()
            if a.id != self.aid and a.inventory_id is None and a.id not in self.supplied
        ]
        if not lacking:
            return
        kinds = [o.id for o in world.objects.values() if o.is_container]
        ground, stock, _ = self.whereabouts()
        purse = possession(world, self.game.agents[lacking[0]]).get(world.currency_id or "", 0)
        if any(
            ground.get(d) or (stock.get(d) and (world.objects[d].value or 0) <= purse)
            for d in kinds
        ):
            return  # there is one to be had: the teammate can fetch (or afford) it
        craftable = [d for d in kinds if self.craft_cost(d, 1) < INFINITE]
        sold = [d for d in kinds if stock.get(d) and world.objects[d].value is not None]
        if not craftable and not sold:
            return
        self.supplied.add(lacking[0])
        if craftable:
            best = min(craftable, key=lambda d: (self.craft_cost(d, 1), d))
            yield from self.craft(best, 1, take=False)
            return
        # None to be made: I buy the cheapest for it and leave it where I stand.
        best = min(sold, key=lambda d: (world.objects[d].value, d))
        yield from self.buy_any([best], None)
        yield from self.hold(best)
        held = next((o for o in self.agent.hands if self.matches(o, best)), None)
        if held is not None:
            yield f"drop {world.name_of(held)}"

    def pass_on(self: Any) -> Plan:
        """Drop a scarce thing a teammate's stage wants (see the module docstring)."""
        world = self.world
        ground, stock, _ = self.whereabouts()
        ahead = None
        for mate in self.teammates():
            conditions = [
                c
                for stage in self.stages_of(mate)
                for c in (*(stage.done_all or ()), *(stage.done_any or ()))
            ]
            for cond in walk_conditions(conditions):
                wanted = self.wanted_by(cond)
                if not wanted or any(self.mate_has(mate, d) for d in wanted):
                    continue
                for did in wanted:
                    if ground.get(did) or stock.get(did) or not self.have(did):
                        continue
                    if world.objects[did].category in KEPT_CATEGORIES:
                        continue  # my own safety comes first
                    if ahead is None:
                        ahead = self.needs_ahead()
                    if did in ahead:
                        continue
                    yield from self.hold(did)
                    held = next((o for o in self.agent.hands if self.matches(o, did)), None)
                    if held is not None:
                        yield f"drop {world.name_of(held)}"
                    return

    def build_stations_ahead(self: Any) -> Plan:
        """Build a station that a recipe my stages ahead need calls for, and that no ground has,
        while it is cheap to build: in a world whose grounds empty over time (robot_kingdom's
        reclaimed territory), its materials may be gone by the time the stage comes. Looked at at
        each stage and every AHEAD_EVERY ticks; the station stays where it is built."""
        key = (self.stage_key(), self.game.tick_index // AHEAD_EVERY)
        if self.stations_checked == key:
            return
        steps = {rule.name for rule in self.game.rule_set.step_rules}
        if not steps.intersection(GROUND_DECAY_RULES):
            self.stations_checked = key
            return
        self.stations_checked = key
        world = self.world
        needed = sorted(
            {
                dep
                for did in self.needs_ahead()
                if did in world.objects
                for dep in world.objects[did].craft.dependencies
            }
        )
        for dep in needed:
            obj = world.objects.get(dep)
            if obj is None or not obj.craft.ingredients or self.station_area(dep) is not None:
                continue
            if self.craft_cost(dep, 1) < STATION_AHEAD_COST:
                yield from self.craft(dep, 1, take=False)
                return

    @staticmethod
    def wanted_by(cond: Any) -> list[str]:
        """The objects a condition asks an agent to have or to buy."""
        if cond.kind in WANTING_KINDS:
            return list(cond.params["objects"])
        if cond.kind == "event" and cond.params.get("type") == "object_bought":
            return list(cond.params.get("objects", ()))
        return []

    def mate_has(self: Any, mate: Any, did: str) -> bool:
        return possession(self.world, mate).get(did, 0) > 0

    def needs_ahead(self: Any) -> set[str]:
        """What my stages from the current one on want me to have, and what makes those
        things (their recipes, MAX_DEPTH deep), and what weakens a boss."""
        quest = self.game.quests.main_quest
        progress = self.progress
        wanted: set[str] = set()
        done = set(progress.get("completed", ()))  # a goal graph's stages close in any order
        for c, chapter in enumerate(quest.chapters):
            if c < progress.get("chapter", 0):
                continue
            for i, stage in enumerate(chapter.stages):
                if c == progress.get("chapter", 0) and i < progress.get("stage", 0):
                    continue
                if stage.id in done:
                    continue
                for cond in walk_conditions((*(stage.done_all or ()), *(stage.done_any or ()))):
                    wanted.update(self.wanted_by(cond))
        for boss in quest.bosses.values():
            for mod in boss.modifiers:
                wanted.update(mod.when_held)
        frontier = list(wanted)
        for _ in range(MAX_DEPTH):
            found = []
            for did in frontier:
                obj = self.world.objects.get(did)
                if obj is not None:
                    found += [i for i in obj.craft.ingredients if i not in wanted]
            wanted.update(found)
            frontier = found
        return wanted

    # ------------------------------------------------------------------ finishing together
    def waits_for_team(self: Any, stage: Any) -> bool:
        """Whether to hold back from the last boss (or the last goal of a goal graph) for
        teammates (see the module docstring)."""
        if self.wait_for_team and self.last_goal(stage):
            behind = [m for m in self.teammates() if self.open_besides(m, stage)]
            return bool(behind) and self.before_team_deadline()
        if not self.wait_for_team or not stage.quest_complete:
            return False
        conditions = list(walk_conditions((*(stage.done_all or ()), *(stage.done_any or ()))))
        shared = self.quest_state().get("shared_bosses", {})
        bosses = self.game.quests.main_quest.bosses
        if not conditions or any(
            c.kind != "boss_already_defeated" or not bosses[c.params["boss"]].shared
            for c in conditions
        ):
            return False
        if not all(c.params["boss"] in shared for c in conditions):
            return False
        behind = [m for m in self.teammates() if self.stage_of(m) is not stage]
        return bool(behind) and self.before_team_deadline()

    def before_team_deadline(self: Any) -> bool:
        now = self.game.tick_index
        if self.team_deadline is None:
            self.team_deadline = now + TEAM_WAIT
        return now < self.team_deadline

    def last_goal(self: Any, stage: Any) -> bool:
        """Whether `stage` is the one goal left of the quest's last chapter, a goal graph whose
        completion completes the quest: doing it ends the episode."""
        quest = self.game.quests.main_quest
        chapter = quest.chapters[-1]
        if not chapter.is_goal_graph or not any(s.quest_complete for s in chapter.stages):
            return False
        if self.progress.get("chapter") != len(quest.chapters) - 1:
            return False
        return not self.open_besides(self.agent, stage)

    def open_besides(self: Any, agent: Any, stage: Any) -> bool:
        """Whether the agent has a goal with conditions left other than `stage` (or is in an
        earlier chapter)."""
        quest, progress = self.game.quests.main_quest, agent.progress.get("main_quest") or {}
        if progress.get("chapter") != len(quest.chapters) - 1:
            return True
        done = set(progress.get("completed", ()))
        return any(
            s.has_conditions and s.id not in done and s.id != stage.id
            for s in quest.chapters[-1].stages
        )

    def mate_brings(self: Any, wanted: list[str]) -> bool:
        """Whether a teammate carries one of these (it will leave it where it is wanted)."""
        defs = {self.world.def_of(d).id for d in wanted}
        return any(self.mate_has(m, d) for m in self.teammates() for d in defs)

    def wait_for_mates_in_place(self: Any) -> Plan:
        """At the last goal, before the act that completes it: teammates at that goal too stand
        where it wants them (`in_area`), at most until the team deadline. One act then
        completes the quest for all of us."""
        stage = self.next_stage()
        if not self.wait_for_team or stage is None or not self.last_goal(stage):
            return
        places = [
            c
            for c in walk_conditions((*(stage.done_all or ()), *(stage.done_any or ())))
            if c.kind in PLACE_KINDS
        ]
        while self.before_team_deadline() and any(
            not self.holds(c, m) for m in self.teammates() for c in places
        ):
            yield WAIT
