"""The core of the scripted players: plans as generators, driven one command per tick.

Policies layer. A plan is a generator that yields text commands; the driver (`PlannerCore.command`)
resumes it once per tick, after the game has run the previous command, so a plan reads the state
its own last command produced (`ok()` says whether that command took effect). Plans only ever
issue commands: nothing here edits the game state.

The driver restarts the plan after a death (first walking back to where the agent fell) and
when a plan raises `Replan` (the world changed under it); a plan that keeps failing ends in
`Stuck`. What happened in a tick comes either from the `TickResult` (`observe`, used by headless
runners) or from the env's info dict (`observe_info`, used by the policies).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from typing import Any

from agentodyssey_pz.policies.mechanics import base_pack
from agentodyssey_pz.world.agents import possession
from agentodyssey_pz.world.quest_records import Condition

Plan = Generator[str, None, Any]

INFINITE = 10**9
LOCK_COST = 40  # route cost of a locked path I cannot open yet (its key must be fetched first)
MAX_REPLANS = 30  # fresh plans in a row without progress before the planner gives up
OPENER_USAGES = ("unlock",)  # keys: the base `enter` opens a lock with nothing else
WAIT = "wait"


class Stuck(RuntimeError):
    """The planner found no way to make progress on what it was asked to do."""


class Replan(Exception):
    """The world changed under a plan (another agent took what I was after): plan afresh."""


class PlannerCore:
    """State views and the driver; the mixins add moving, carrying, getting, fighting."""

    def __init__(self, game: Any, agent_id: str) -> None:
        self.game, self.aid = game, agent_id
        self.last_ok: bool | None = None
        self.issued = 0  # commands given so far
        self.deaths = self.agent.deaths
        self.belongings: set[str] = set()  # what I held and wore after my last tick
        self.supplied: set[str] = set()  # teammates I made an inventory for
        self.died_in: str | None = None
        self.reserved: list[tuple[str, int]] = []  # (definition, units) running plans still need
        self.rewards: dict[str, int] = {}  # quest rewards dropped at my feet, to pick up
        self.fetching_key = 0  # > 0 while getting a key: sources behind locks are out of reach
        self.earning = False  # while short of coins, loot that sells is worth carrying
        self.entering: str | None = None  # the area my last command walked into, if it was `enter`
        self.stood_in = self.agent.area_id  # where I stood when I gave my last command
        self._paused_ok: tuple[bool | None] | None = None  # last_ok while urgent commands run
        self._tick_memo: dict[Any, Any] = {}
        self._tick_memo_key: Any = None
        self._memo: dict[Any, Any] = {}
        self._memo_key: Any = None
        self.replans, self._replan_key = 0, None
        self._stages_seen = len(self.progress.get("completed", ()))
        self._base = base_pack(game)
        self._quest_objects = self.quest_objects()
        self._plan = self.play()

    # ------------------------------------------------------------------ state views
    @property
    def world(self) -> Any:
        return self.game.world

    @property
    def agent(self) -> Any:
        return self.game.agents[self.aid]

    @property
    def progress(self) -> dict[str, Any]:
        return self.agent.progress.get("main_quest") or {}

    @property
    def variables(self) -> dict[str, Any]:
        quest_state = self.world.auxiliary.get("main_quest") or {}
        return {**quest_state.get("vars", {}), "guide": self.progress.get("guide")}

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return self.variables.get(value[1:])
        return value

    def carried(self) -> dict[str, int]:
        """Units I carry per definition (hands, worn, inventory, held containers); per tick."""
        memo = self.tick_memo()
        if "carried" not in memo:
            memo["carried"] = possession(self.world, self.agent)
        return memo["carried"]

    def have(self, did: str) -> int:
        return self.carried().get(did, 0)

    def coins(self) -> int:
        currency = self.world.currency_id
        return self.have(currency) if currency is not None else 0

    def ok(self) -> bool:
        """Whether my last command took effect."""
        return bool(self.last_ok)

    def matches(self, oid: str, what: str) -> bool:
        """`oid` is `what` (an instance id) or an instance or unit of `what` (a definition)."""
        return oid == what or self.world.def_of(oid).id == what

    def tick_memo(self) -> dict[Any, Any]:
        """A cache of what the state says this tick (what I carry, routes, where things are):
        the state only changes between my commands."""
        key = (self.world, self.game.tick_index)
        if key != self._tick_memo_key:
            self._tick_memo, self._tick_memo_key = {}, key
        return self._tick_memo

    def memo(self) -> dict[Any, Any]:
        """A cache valid for this tick and this set of running plans (costs)."""
        key = (self.world, self.game.tick_index, tuple(self.reserved))
        if key != self._memo_key:
            self._memo, self._memo_key = {}, key
        return self._memo

    # ------------------------------------------------------------------ driving
    def play(self) -> Plan:
        raise NotImplementedError

    def command(self) -> str:
        """The next command. After a death the plan restarts with fetching my things back."""
        if self.agent.deaths != self.deaths:
            self.deaths = self.agent.deaths
            self._plan.close()
            self.reserved.clear()
            self._plan = self.play()
        self.entering = None
        urgent = self.urgent()
        if urgent is not None:  # the plan waits, and later reads its own last command's outcome
            if self._paused_ok is None:
                self._paused_ok = (self.last_ok,)
            self.issued += 1
            return urgent
        if self._paused_ok is not None:
            self.last_ok, self._paused_ok = self._paused_ok[0], None
        while True:  # a plan that keeps failing ends in Stuck (MAX_REPLANS)
            try:
                cmd = next(self._plan)
                break
            except StopIteration:
                cmd = WAIT
                break
            except Replan:
                self.replans = self.replans + 1 if self.progress_key() == self._replan_key else 1
                self._replan_key = self.progress_key()
                if self.replans > MAX_REPLANS:
                    raise Stuck("plans keep failing without progress") from None
                self.reserved.clear()
                self._plan = self.play()
        self.issued += 1
        self.stood_in = self.agent.area_id
        return cmd

    def urgent(self) -> str | None:
        """A command that must come before the plan's next one (e.g. a meal that saves my
        life), or None."""
        return None

    def restart(self) -> None:
        """Drop the running plan (after `Stuck`): the next command starts afresh."""
        self._plan.close()
        self.reserved.clear()
        self.replans = 0
        self._plan = self.play()

    def progress_key(self) -> Any:
        """Changes whenever the agent makes progress of any tracked kind (Replan counting)."""
        agent, progress = self.agent, self.progress
        return (
            len(progress.get("completed", ())),
            len(agent.visited),
            len(agent.crafted),
            len(agent.traded),
            agent.kills,
        )

    def observe(self, result: Any, *, acted: bool = True) -> None:
        """Take in a tick's `TickResult` (`acted`: the tick ran my last command, not a pause)."""
        if acted:
            self.last_ok = bool(result.action_ok.get(self.aid))
        for event in result.events_of(self.aid, "agent_died"):
            self.died_in = event.data["area_id"]
        if self.died_in is None:
            self.belongings = set(self.agent.hands) | set(self.agent.equipped)
        for event in result.events_of(self.aid, "quest_spawn"):
            oid = event.data["obj_id"]
            self.rewards[oid] = self.rewards.get(oid, 0) + event.data["count"]
        self._stages_seen = len(self.progress.get("completed", ()))

    def observe_info(self, info: dict[str, Any]) -> None:
        """Take in what the env's info dict says about my last command (no events there: a
        death's place and quest rewards are read from the state)."""
        self.last_ok = bool(info.get("action_ok", True))
        if self.agent.deaths != self.deaths and self.died_in is None:
            # Actions run before the step rules, so I fell where my last command left me.
            self.died_in = self.entering if self.last_ok and self.entering else self.stood_in
        if self.died_in is None:
            self.belongings = set(self.agent.hands) | set(self.agent.equipped)
        self.note_quest_rewards()

    def note_quest_rewards(self) -> None:
        """Quest stages that closed since my last look: what their effects gave lies at my feet."""
        done = self.progress.get("completed", ())
        if len(done) <= self._stages_seen:
            self._stages_seen = len(done)
            return
        fresh, self._stages_seen = set(done[self._stages_seen :]), len(done)
        quest = self.game.quests.main_quest
        for chapter in quest.chapters if quest is not None else ():
            for stage in chapter.stages:
                if stage.id not in fresh:
                    continue
                for effect in stage.on_complete:
                    for key, count in (effect.give or {}).items():
                        did = self.resolve(key)
                        if did in self.world.objects:
                            self.rewards[did] = self.rewards.get(did, 0) + count

    # ------------------------------------------------------------------ quest objects
    def quest_objects(self) -> dict[str, int]:
        """Objects the quest asks me to carry (possession conditions, boss modifiers), with the
        most units any of them asks for: those I keep and never sell."""
        quest = self.game.quests.main_quest
        wanted: dict[str, int] = {}
        if quest is None:
            return wanted

        def want(did: str, count: int) -> None:
            if did in self.world.objects:
                wanted[did] = max(wanted.get(did, 0), count)

        for chapter in quest.chapters:
            for stage in chapter.stages:
                for cond in walk_conditions((*(stage.done_all or ()), *(stage.done_any or ()))):
                    if cond.kind in ("has_any_of", "holding", "equipped_any_of"):
                        for did in cond.params["objects"]:
                            want(did, 1)
                    elif cond.kind == "has_item_count":
                        count = self.resolve(cond.params.get("count", 1))
                        want(cond.params["object"], int(count) if str(count).isdigit() else 1)
        for boss in quest.bosses.values():
            for mod in boss.modifiers:
                for did in mod.when_held:
                    want(did, 1)
        return wanted


def walk_conditions(conditions: Iterable[Condition]) -> Iterator[Condition]:
    """Conditions with their nested ones."""
    for cond in conditions:
        yield cond
        yield from walk_conditions(cond.conditions)
