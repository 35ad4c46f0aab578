"""`main_quest_step` (priority 2): runs the world's main quest, declared as data, for every agent.

Rule pack `base`; docs/mechanics/quests.md#the-main-quest. Chapters run in linear mode (stage after
stage) or, when any stage has `requires`, as a goal graph (every stage whose requirements are done
is active; stages without conditions close when their requirements do). Each agent has its own
progress, guide and bosses, so any number of agents progress at their own speed. Quest variables are
set up once per episode and kept in `world.auxiliary["main_quest"]` (saved with the world).

Fixed reference quirks: per-agent guides and bosses
(docs/mechanics/quests.md#quirk-per-agent-guides-and-bosses); a boss appears only through a
stage's `spawn_boss` effect, and a kill of an agent's boss by anyone counts for its owner, so no
quest can soft-lock; a `shared` boss (one for everyone) counts as beaten for everyone once
anyone kills it; boss modifiers are recomputed from the base stats every tick
(docs/mechanics/quests.md#quirk-boss-modifiers-are-recomputed-every-tick, `quest_bosses.py`);
every completed stage emits `quest_stage_advanced` unless
`GameConfig.reward_final_quest_stages` is False
(docs/mechanics/rewards.md#quirk-final-quest-stages-pay-nothing); a guide's reminders are counted
from the start of the agent's stage. What conditions read back (kills, lit areas, talks, purchases,
NPCs killed) is recorded by `quest_tracking.py`, only for the quests that read it.
"""

from __future__ import annotations

from typing import Any

import attrs

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import MAIN_QUEST_COMPLETE, QUEST_STAGE_ADVANCED
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Pair, Record
from agentodyssey_pz.world.agents import AgentState, possession
from agentodyssey_pz.world.quest_records import (
    ChapterDef,
    Effect,
    MainQuestDef,
    StageDef,
    fill_placeholders,
)
from agentodyssey_pz.world.world import World

from ..carrying import area_loc
from ..conditions import QuestScope, stage_done
from ..quest_bosses import refresh_boss, reset_after_defeat
from ..quest_npcs import bring_guide, ensure_guide, name_pool, spawn_boss
from ..quest_setup import run_setup
from ..quest_tracking import (
    PROGRESS_RECORDS,
    SHARED_RECORDS,
    QuestNeeds,
    needs_of,
    record_agent,
    record_deaths,
)

STATE_KEY = "main_quest"
PROGRESS_SHAPE = Record(
    {
        "chapter": int, "stage": int, "stage_key": str, "completed": ListOf(str),
        "active": ListOf(str), "visited": ListOf(str), "drops": ListOf(Pair(str, str)),
        "complete": bool, "bosses": MapOf(str), "bosses_defeated": MapOf(bool), "chapters": int,
        "stages": int,
    },
    {"guide": (str, None), "remind_from": int, **PROGRESS_RECORDS},
    empty_ok=True,
)  # fmt: skip
STATE_SHAPE = Record(
    {"vars": MapOf(object), "boss_owner": MapOf(Pair(str, str)), "guide_names": MapOf(str)},
    {
        "boss_base": MapOf(Pair(int, int)),
        "boss_kept": MapOf(ListOf(int)),  # boss instance -> its `once` modifiers that applied
        "boss_start_hp": MapOf(int),  # boss instance -> health at its stage's start
        "shared_bosses": MapOf(str),  # boss key -> the one instance of a shared boss
        "defeated": MapOf(bool),  # shared boss key -> beaten by anyone
        **SHARED_RECORDS,
    },
    empty_ok=True,
)
MAX_CASCADE_ROUNDS = 50  # goal graphs close sub-goals in rounds; more would mean a cycle
MAX_ACTIVE_MEMO = 4096  # sets of completions whose active stages are kept (a few per episode)
MAX_DROP_HISTORY = 100  # drops remembered for `stamped_areas_in_order`


def describe(world: World, value: Any) -> str:
    """Player-facing text for a quest variable: areas as "Place, area", NPCs and objects by
    name."""
    if isinstance(value, list):
        return ", ".join(describe(world, v) for v in value)
    if isinstance(value, str):
        if value in world.areas:
            area = world.areas[value]
            return f"{world.places[area.place_id].name}, {area.name}"
        if value in world.npcs:
            return world.npcs[value].name
        if value in world.objects:
            return world.objects[value].name
    return str(value)


@mypyc_attr(native_class=False)  # spike: packs subclass it
class MainQuest(BaseStepRule):
    name = "main_quest_step"
    priority = 2
    description = "Runs the main quest's chapters and stages for every agent."
    state_key = STATE_KEY  # what it keeps in a saved game, checked on load
    progress_shape = PROGRESS_SHAPE
    state_shape = STATE_SHAPE

    def __init__(self) -> None:
        self._quest: MainQuestDef | None = None
        self._graph_chapters: tuple[bool, ...] = ()
        self._needs = QuestNeeds()
        self._shared_bosses = False
        # A chapter's active stages per set of completions (`QuestRun.active_stages`): they
        # depend on the immutable definition alone, so they are kept across ticks and agents.
        self._active_memo: dict[tuple[int, tuple[str, ...]], ActiveGoals] = {}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        quest = game.quests.main_quest  # None when the world or config leaves it off
        if quest is None:
            return
        state = world.auxiliary.setdefault(STATE_KEY, {})
        if "vars" not in state:
            state["vars"] = run_setup(world, game.rng, quest.setup)
            state["boss_owner"] = {}
            state["guide_names"] = {}
            self._adopt_placed_bosses(quest, state, world)
        graph_chapters = self.graph_chapters(quest)  # also works out `_needs`, once per quest
        winners, kills = self._credit_boss_kills(game, res, state)
        needs = self._needs
        if needs.dead_npcs and kills:  # the watched set: on a tick with a kill only
            variables = state["vars"]
            watched = {variables.get(ref[1:]) for ref in needs.dead_npcs}
            record_deaths(res, state, watched)
        for agent in game.agents.values():
            if agent.tutorial_passed:
                QuestRun(
                    game, quest, state, agent, res, graph_chapters, needs, self._active_memo
                ).advance()
        if self._shared_bosses:
            self._update_shared_bosses(game, quest, state, winners)

    def graph_chapters(self, quest: MainQuestDef) -> tuple[bool, ...]:
        """Which chapters run as goal graphs. The definition is immutable, so this (and what the
        quest records, and whether it has shared bosses) is worked out once per quest rather than
        every tick for every agent."""
        if quest is not self._quest:
            self._graph_chapters = tuple(chapter.is_goal_graph for chapter in quest.chapters)
            self._needs = needs_of(quest)
            self._shared_bosses = any(boss.shared for boss in quest.bosses.values())
            self._active_memo = {}
            self._quest = quest
        return self._graph_chapters

    @staticmethod
    def _adopt_placed_bosses(quest: MainQuestDef, state: dict[str, Any], world: World) -> None:
        """A boss with `placed` is the NPC its setup step placed, everyone's from the start: a
        kill by anyone, whenever, beats it (docs/world-format.md#111-main-quest)."""
        for key, boss in quest.bosses.items():
            if boss.placed is not None:
                npc_id = state["vars"].get(boss.placed[1:])
                if isinstance(npc_id, str) and npc_id in world.npcs:
                    state.setdefault("shared_bosses", {})[key] = npc_id

    @staticmethod
    def _credit_boss_kills(
        game: Any, res: RuleResult, state: dict[str, Any]
    ) -> tuple[set[Any], bool]:
        """A boss killed by anyone counts as defeated for the agent it belongs to, and a shared
        boss for everyone. Returns, found in the same pass over the tick's events, the NPCs that
        beat an agent this tick (for the shared bosses' health, `_update_shared_bosses`) and
        whether the tick holds a kill."""
        owners = state["boss_owner"]
        shared = state.get("shared_bosses")
        agents, winners, kills = game.agents, set(), False
        for event in res.events:  # one test per event: most ticks hold no kill
            if event.type == "agent_defeated_in_combat":
                if event.agent_id in agents:
                    winners.add(event.data.get("npc_id"))
            elif event.type == "npc_killed":
                kills = True
                npc_id = event.data.get("npc_id")
                if npc_id in owners:
                    owner, key = owners[npc_id]
                    progress = game.agents[owner].progress.get(STATE_KEY)
                    if progress is not None:
                        progress["bosses_defeated"][key] = True
                elif shared:
                    for key, boss_id in shared.items():
                        if boss_id == npc_id:
                            state.setdefault("defeated", {})[key] = True
        return winners, kills

    @staticmethod
    def _update_shared_bosses(
        game: Any, quest: MainQuestDef, state: dict[str, Any], winners: set[Any]
    ) -> None:
        # spike (mypyc): a closure inside a method of a non-native class crashes mypyc (internal
        # error in env_class); the body lives in a module function.
        update_shared_bosses(game, quest, state, winners)


def update_shared_bosses(
    game: Any, quest: MainQuestDef, state: dict[str, Any], winners: set[Any]
) -> None:
    """Each live shared boss: its health back after it beat anyone this tick (`winners`: the
    NPCs that did; a reset sets the health from the boss's records, so once is as good as
    twice), then its modifiers, met by any agent whose quest runs."""
    world, variables = game.world, state["vars"]
    holders = [
        agent
        for agent in game.agents.values()
        if agent.tutorial_passed and not agent.progress.get(STATE_KEY, {}).get("complete", True)
    ]

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return variables.get(value[1:])
        return value

    for key, npc_id in state.get("shared_bosses", {}).items():
        npc = world.npcs.get(npc_id)
        if npc is None or npc.hp <= 0:
            continue
        boss = quest.bosses[key]
        if npc_id in winners:
            reset_after_defeat(boss, npc, state)
        refresh_boss(world, boss, npc, holders, resolve(boss.in_), state, resolve)


@attrs.frozen
class ActiveGoals:
    """A goal-graph chapter's active stages for one set of completions, in chapter order, and
    what a tick asks of them (shared by every agent and tick with those completions: read only)."""

    stages: list[StageDef]
    checked: list[StageDef]  # those with conditions, tested every tick
    closing: list[StageDef]  # those without: they close at once
    ids: list[str]

    @classmethod
    def work_out(cls, chapter: ChapterDef, completed: list[str]) -> ActiveGoals:
        done = set(completed)
        active = []
        for stage in chapter.stages:  # plain loops: cheaper than a generator per stage
            if stage.id in done:
                continue
            for required in stage.requires or ():
                if required not in done:
                    break
            else:
                active.append(stage)
        return cls(
            active,
            [s for s in active if s.has_conditions],
            [s for s in active if not s.has_conditions],
            [s.id for s in active],
        )


class QuestRun:
    """One agent's quest for one tick."""

    def __init__(
        self,
        game: Any,
        quest: MainQuestDef,
        state: dict[str, Any],
        agent: AgentState,
        res: RuleResult,
        graph_chapters: tuple[bool, ...],
        needs: QuestNeeds | None = None,
        active_memo: dict[tuple[int, tuple[str, ...]], ActiveGoals] | None = None,
    ) -> None:
        self.game, self.world, self.quest, self.state = game, game.world, quest, state
        self.agent, self.res = agent, res
        self.graph_chapters = graph_chapters  # per chapter: runs as a goal graph
        self.needs = needs if needs is not None else needs_of(quest)  # what the quest records
        self.progress: dict[str, Any] = agent.progress.get(STATE_KEY) or {}
        self.active_memo = active_memo if active_memo is not None else {}

    # ---------------------------------------------------------------- text and variables
    def variable(self, name: str, default: Any = None) -> Any:
        """A quest variable as this agent sees it (its own guide, then the shared setup)."""
        return self.scope().variable(name, default)

    def resolve(self, value: Any) -> Any:
        """A `$variable` as this agent sees it (as `QuestScope.resolve`, without making one);
        anything else as it is."""
        if isinstance(value, str) and value.startswith("$"):
            name = value[1:]
            return self.progress.get("guide") if name == "guide" else self.state["vars"].get(name)
        return value

    def render(self, text: str, scope: QuestScope | None = None) -> str:
        """`text` with its variables filled in; `scope`: the one to read them from, when the
        caller renders several texts in one state (a goal-graph chapter's goals, every tick)."""
        world = self.world
        if scope is None:
            scope = self.scope()
        return fill_placeholders(text, lambda name, raw: describe(world, scope.variable(name, raw)))

    def say(self, key: str, text: str) -> None:
        if text:
            self.res.say(self.agent.id, key, self.render(text))

    def scope(self) -> QuestScope:
        """The conditions' view: the shared variables with this agent's guide read first (no
        per-agent copy of the shared ones every tick)."""
        progress = self.progress
        return QuestScope(
            self.world,
            self.agent,
            self.res,
            self.state["vars"],
            progress,
            progress["bosses_defeated"],
            {"guide": progress.get("guide")},
            self.state,
        )

    # ---------------------------------------------------------------- the tick
    def advance(self) -> None:
        if not self.progress:
            self.begin()
            if self.needs.per_agent:  # what the quest looks back on counts from this tick
                self.record()
            return
        if self.progress["complete"]:
            return
        if self.needs.per_agent:  # tested here: a call per agent and tick is not free
            self.record()
        self.remember_visits_and_drops()
        if self.progress["bosses"]:  # no call for an agent without bosses: every agent, every tick
            self.update_bosses()
        index, chapters = self.progress["chapter"], self.quest.chapters
        if index >= len(chapters):
            self.progress["complete"] = True
            return
        if self.graph_chapters[index]:
            self.run_goal_graph(chapters[index])
        else:
            self.run_linear(chapters[index])

    def record(self) -> None:
        """What this tick adds to the records the quest's conditions read back."""
        record_agent(self.world, self.agent, self.res, self.progress, self.needs, self.resolve)

    def begin(self) -> None:
        taken = set(self.state["guide_names"].values())
        self.progress.update(
            chapter=0,
            stage=0,
            stage_key="",
            completed=[],
            active=[],
            visited=[],
            drops=[],
            complete=False,
            bosses={},
            bosses_defeated={},
            chapters=len(self.quest.chapters),
            stages=sum(len(c.stages) for c in self.quest.chapters),
        )
        self.agent.progress[STATE_KEY] = self.progress
        game = self.game
        pool = name_pool(self.quest.guide, game.seed, game.agents, self.agent.id)
        guide = ensure_guide(self.world, self.agent, self.quest.guide, self.progress, taken, pool)
        self.state["guide_names"][self.agent.id] = guide.name
        self.say("quest.intro", self.quest.intro)
        self.start_chapter(self.quest.chapters[0], announce_guide=False)
        self.say(
            "quest.guide",
            self.quest.guide.greeting or f"{guide.name} will guide me: talk to {guide.name}.",
        )

    def remember_visits_and_drops(self) -> None:
        visited = self.progress["visited"]
        if self.agent.area_id not in visited:
            visited.append(self.agent.area_id)
        if self.agent.id not in self.res.by_agent:
            return
        drops = self.progress["drops"]
        for event in self.res.by_agent[self.agent.id]:
            if event.type == "object_dropped":
                drops.append([self.world.def_of(event.data["obj_id"]).id, event.data["area_id"]])
        if len(drops) > MAX_DROP_HISTORY:
            del drops[:-MAX_DROP_HISTORY]

    def guide(self) -> Any:
        return ensure_guide(self.world, self.agent, self.quest.guide, self.progress, set())

    # ---------------------------------------------------------------- chapters
    def start_chapter(self, chapter: ChapterDef, *, announce_guide: bool = True) -> None:
        self.say("quest.chapter", f"Chapter: {chapter.title}. {chapter.intro}".strip())
        self.progress["stage"] = 0
        self.progress["stage_key"] = ""
        self.progress["active"] = []
        if announce_guide:
            bring_guide(self.world, self.res, self.agent, self.guide(), "quest.guide_arrives")
        if chapter.is_goal_graph:
            self.refresh_goals(chapter, announce=True)
        else:
            self.enter_stage(chapter, 0)

    def next_chapter(self) -> None:
        self.progress["chapter"] += 1
        if self.progress["chapter"] < len(self.quest.chapters):
            self.start_chapter(self.quest.chapters[self.progress["chapter"]])

    # ---------------------------------------------------------------- linear mode
    def enter_stage(self, chapter: ChapterDef, index: int) -> None:
        self.progress["stage"] = index
        self.progress["stage_key"] = f"{self.progress['chapter']}:{index}"
        self.restart_reminders()
        if index < len(chapter.stages):
            stage = chapter.stages[index]
            self.run_effects(stage.on_start, starting=True)
            self.guide().dialogue = self.objective_text(stage)

    def objective_text(self, stage: StageDef, scope: QuestScope | None = None) -> str:
        text = self.render(stage.objective, scope)
        return f"{text} (Hint: {self.render(stage.hint, scope)})" if stage.hint else text

    def run_linear(self, chapter: ChapterDef) -> None:
        index = self.progress["stage"]
        if index >= len(chapter.stages):
            self.next_chapter()
            return
        stage = chapter.stages[index]
        if self.quest.guide.remind_every is not None:
            self.remind()
        # The guide's dialogue is written when the stage starts (enter_stage), not every tick.
        if not stage_done(stage.done_all, stage.done_any, self.scope()):
            return
        self.finish_stage(
            stage, {"chapter": self.progress["chapter"], "stage": index + 1}, linear=True
        )
        if stage.quest_complete or stage.chapter_complete:
            self.close_chapter_or_quest(stage)
            return
        self.enter_stage(chapter, index + 1)
        bring_guide(self.world, self.res, self.agent, self.guide(), "quest.guide_arrives")

    def finish_stage(self, stage: StageDef, payload: dict[str, Any], *, linear: bool) -> None:
        self.progress["completed"].append(stage.id)
        text = (
            self.render(stage.complete_text) if stage.complete_text else "I completed a quest step."
        )
        guide = self.guide()
        self.res.say(self.agent.id, "quest.stage_done", f"{text} I should talk to {guide.name}.")
        self.run_effects(stage.on_complete)
        final = stage.chapter_complete or stage.quest_complete
        if not linear or not final or self.game.config.reward_final_quest_stages:
            self.res.emit(QUEST_STAGE_ADVANCED, self.agent.id, payload)

    def close_chapter_or_quest(self, stage: StageDef) -> None:
        if stage.quest_complete:
            self.progress["complete"] = True
            self.say("quest.complete", self.quest.completion_text or "I completed the main quest.")
            self.res.emit(MAIN_QUEST_COMPLETE, self.agent.id, {})
        else:
            self.next_chapter()

    # ---------------------------------------------------------------- goal-graph mode
    def active_stages(self, chapter: ChapterDef) -> list[StageDef]:
        """Stages not done whose requirements are all done (a list the caller must not change)."""
        return self.goals(chapter).stages

    def goals(self, chapter: ChapterDef) -> ActiveGoals:
        """The chapter's active stages. A goal-graph chapter asks every tick, and the answer
        depends on the completions alone: worked out once per chapter and set of completions
        (`MainQuest._active_memo`)."""
        completed = self.progress["completed"]
        key = (id(chapter), tuple(completed))  # the chapter lives as long as the memo's quest
        goals = self.active_memo.get(key)
        if goals is None:
            if len(self.active_memo) >= MAX_ACTIVE_MEMO:  # many episodes' orders of completion
                self.active_memo.clear()
            goals = self.active_memo[key] = ActiveGoals.work_out(chapter, completed)
        return goals

    def refresh_goals(
        self, chapter: ChapterDef, *, announce: bool, active: list[StageDef] | None = None
    ) -> None:
        """Start the goals that became active and write the guide's list of them, when the
        active goals changed (the list is written when goals start or close, not every tick).
        `active`: the chapter's active stages, when the caller has them for the current
        completions."""
        if active is None:
            active = self.active_stages(chapter)
        new = [s for s in active if s.id not in self.progress["active"]]
        ids = [s.id for s in active]
        if not new and ids == self.progress["active"]:
            return  # the same goals: the guide's list stands (as a linear stage's objective)
        self.progress["active"] = ids
        if new:
            self.restart_reminders()
        for stage in new:
            self.run_effects(stage.on_start, starting=True)
            if announce and stage.has_conditions:
                self.say("quest.new_goal", f"New goal: {stage.objective}")  # rendered by say()
        # The list's texts are written one after another, in one state: one scope for them all.
        scope = self.scope()
        lines = [f"Main goal: {self.render(chapter.root_goal, scope)}"] if chapter.root_goal else []
        listed = [s for s in active if s.has_conditions] or active
        lines += [f"{i}. {self.objective_text(s, scope)}" for i, s in enumerate(listed, 1)]
        self.guide().dialogue = "\n".join(lines)
        if new and announce:
            bring_guide(self.world, self.res, self.agent, self.guide(), "quest.guide_arrives")

    def run_goal_graph(self, chapter: ChapterDef) -> None:
        if self.quest.guide.remind_every is not None:
            self.remind()
        # The active stages change only when a stage completes: worked out again only then.
        goals = self.goals(chapter)
        finished: list[StageDef] = []
        if goals.checked:
            scope = self.scope()
            finished = [s for s in goals.checked if stage_done(s.done_all, s.done_any, scope)]
        # Every stage done this tick completes (docs/mechanics/quests.md#goal-graph-chapters) before
        # the chapter or the quest may close (step 3).
        if finished:
            for stage in finished:
                self.finish_stage(stage, self.dag_payload(stage), linear=False)
            if self.closed_by(finished):
                return
            goals = self.goals(chapter)
        for _ in range(MAX_CASCADE_ROUNDS):
            closing = goals.closing
            if not closing:
                break
            for stage in closing:
                self.finish_stage(
                    stage, {**self.dag_payload(stage), "auto_complete": True}, linear=False
                )
            if self.closed_by(closing):
                return
            goals = self.goals(chapter)
        # The guide's list is written when the goals change (as a linear chapter's objective is
        # written when its stage starts): rendering it every tick cost a goal-graph quest a
        # quarter of the step.
        if finished or goals.ids != self.progress["active"]:
            self.refresh_goals(chapter, announce=True, active=goals.stages)

    def closed_by(self, completed: list[StageDef]) -> bool:
        """Completes the quest if one of `completed` says so, else starts the next chapter if one
        says that; whether either happened."""
        closer = next((s for s in completed if s.quest_complete), None) or next(
            (s for s in completed if s.chapter_complete), None
        )
        if closer is not None:
            self.close_chapter_or_quest(closer)
        return closer is not None

    def dag_payload(self, stage: StageDef) -> dict[str, Any]:
        return {"chapter": self.progress["chapter"], "stage": stage.id, "dag": True}

    # ---------------------------------------------------------------- reminders
    def restart_reminders(self) -> None:
        """A stage starts (in a goal graph: new goals do): reminders count from now."""
        if self.quest.guide.remind_every is not None:
            self.progress["remind_from"] = self.game.tick_index

    def remind(self) -> None:
        """Every `remind_every` ticks at a stage, the guide comes back to the agent."""
        every = self.quest.guide.remind_every
        if every is None:
            return
        tick = self.game.tick_index
        since = self.progress.setdefault("remind_from", tick)
        if tick - since < every:
            return
        self.progress["remind_from"] = tick
        guide = self.guide()
        if guide.area_id != self.agent.area_id:
            self.world.place_npc(guide.id, self.agent.area_id)
        self.res.say(
            self.agent.id,
            "quest.reminder",
            f"{guide.name} catches up with me: talk to {guide.name} to hear what I am to do.",
        )

    # ---------------------------------------------------------------- effects and bosses
    def run_effects(self, effects: tuple[Effect, ...], *, starting: bool = False) -> None:
        """`starting`: the effects of a stage becoming active (`on_start`)."""
        for effect in effects:
            if effect.spawn_boss is not None:
                self.ensure_boss(effect.spawn_boss)
                if starting:
                    self.note_stage_start(effect.spawn_boss)
            elif effect.give:
                self.give(
                    {
                        self.variable(k[1:], k) if k.startswith("$") else k: n
                        for k, n in effect.give.items()
                    },
                    unless_on_ground=effect.unless_on_ground,
                    unless_possessed=effect.unless_possessed,
                )
            elif effect.restock:
                npc = self.world.npcs.get(self.variable((effect.npc or "$")[1:], ""))
                if npc is not None:
                    for oid, count in effect.restock.items():
                        npc.inventory[oid] = npc.inventory.get(oid, 0) + count

    def give(
        self,
        items: dict[str, int],
        *,
        unless_on_ground: bool = False,
        unless_possessed: bool = False,
    ) -> None:
        """The items on the ground at the agent's feet; with `unless_on_ground`, only those of
        which no unit lies there yet; with `unless_possessed`, only those the agent has none of."""
        area = self.agent.area_id
        ground = self.world.areas[area].objects
        def_of = self.world.def_of
        have = possession(self.world, self.agent) if unless_possessed else {}
        for oid, count in items.items():
            if unless_on_ground and any(def_of(there).id == oid for there in ground):
                continue
            if have.get(oid, 0) > 0:
                continue
            for placed, n in self.world.spawn_on_ground(area, oid, count):
                self.res.track_spawn(self.agent.id, placed, n, area_loc(area))
            self.res.emit(
                "quest_spawn", self.agent.id, {"obj_id": oid, "count": count, "area_id": area}
            )
            self.res.say(
                self.agent.id,
                "quest.reward",
                f"{count} {self.world.objects[oid].name} appear at my feet.",
            )

    def ensure_boss(self, key: str) -> None:
        boss = self.quest.bosses[key]
        if boss.shared:
            self.ensure_shared_boss(key)
            return
        bosses = self.progress["bosses"]
        current = self.world.npcs.get(bosses.get(key, ""))
        if self.progress["bosses_defeated"].get(key) or (current is not None and current.hp > 0):
            return
        lair = self.variable(boss.in_[1:]) if boss.in_.startswith("$") else boss.in_
        npc = spawn_boss(self.world, boss, lair, self.agent.id)
        bosses[key] = npc.id
        self.state["boss_owner"][npc.id] = [self.agent.id, key]
        self.state.setdefault("boss_base", {})[npc.id] = [npc.max_hp, npc.attack_power]

    def note_stage_start(self, key: str) -> None:
        """A boss that resets to its health at its stage's start: the health it has the first
        time a stage spawning it in `on_start` becomes active (for anyone, if it is shared)."""
        boss = self.quest.bosses[key]
        if boss.reset_hp_on_defeat != "stage_start":
            return
        owned = self.state.get("shared_bosses", {}) if boss.shared else self.progress["bosses"]
        npc = self.world.npcs.get(owned.get(key, ""))
        if npc is not None and npc.hp > 0:
            self.state.setdefault("boss_start_hp", {}).setdefault(npc.id, npc.hp)

    def ensure_shared_boss(self, key: str) -> None:
        """The one instance of a shared boss, made once: not while it exists (dead or alive), not
        once anyone beat it."""
        state = self.state
        shared = state.setdefault("shared_bosses", {})
        if state.get("defeated", {}).get(key) or shared.get(key) in self.world.npcs:
            return
        boss = self.quest.bosses[key]
        lair = self.variable(boss.in_[1:]) if boss.in_.startswith("$") else boss.in_
        npc = spawn_boss(self.world, boss, lair, None)
        shared[key] = npc.id
        state.setdefault("boss_base", {})[npc.id] = [npc.max_hp, npc.attack_power]

    def update_bosses(self) -> None:
        """This agent's own bosses: a defeat resets the boss's health (as its `reset_hp_on_defeat`
        says); modifiers follow what the owner holds and carries (`quest_bosses.py`)."""
        world, agent = self.world, self.agent
        for key, npc_id in self.progress["bosses"].items():
            npc = world.npcs.get(npc_id)
            if npc is None or npc.hp <= 0:
                continue
            boss = self.quest.bosses[key]
            for event in self.res.events_of(agent.id, "agent_defeated_in_combat"):
                if event.data.get("npc_id") == npc_id:
                    reset_after_defeat(boss, npc, self.state)
            home = self.resolve(boss.in_)
            refresh_boss(world, boss, npc, (agent,), home, self.state, self.resolve)
