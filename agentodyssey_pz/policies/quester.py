"""The quester: follows the main quest's objective stage by stage; reward component `quest`.

Policies layer. `QuestPlanner.play` works on the stage the quest engine expects next (the current
stage of a linear chapter, or the first open goal of a goal graph) and makes its conditions hold
(`questing`), picking up the rewards stages leave at its feet. Between steps it does its chores:
keys lying in its way, a meal when hurt and food for the road (`readiness`), a light (`lighting`),
a roomier bag when a recipe needs room, and help for teammates (`teamwork`). A plan that finds no
way on is a setback: it steps out of harm's way and waits SETBACK_PAUSE ticks (paths shift, grounds
and merchants fill again), and gives up with `Stuck` after MAX_SETBACKS at one stage. Without a
main quest, once the quest is complete, or for a while after it got stuck (the policy's detour), it
explores.
"""

from __future__ import annotations

import contextlib

from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import INFINITE, WAIT, Plan, Stuck, walk_conditions
from agentodyssey_pz.policies.scripted import ScriptedPolicy

MAX_SETBACKS = 15  # plans at one stage that found no way on before the planner gives up
SETBACK_PAUSE = 12  # ticks waited after such a plan before the next try


class QuestPlanner(Planner):
    """Plays one agent through the main quest (the test suite's end-to-end solver runs this)."""

    setbacks, setback_key = 0, None

    def progress_key(self) -> tuple:
        return self.stage_key()

    def play(self) -> Plan:
        if self.died_in is not None:
            with contextlib.suppress(Stuck):  # out of reach: carry on without my things
                yield from self.recover(self.died_in)
            self.died_in = None
        while not self.progress.get("complete"):
            yield from self.never_spin()
            if not self.has_quest() or self.game.tick_index < self.detour_until:
                start = self.issued
                yield from self.wander()
                if self.issued == start:  # nowhere to go: never loop without a command
                    yield WAIT
                continue
            if not self.progress:
                yield WAIT  # the quest starts for me at my first tick
                continue
            if self.agent.inventory_id is None:
                key = self.deaths, self.issued
                with contextlib.suppress(Stuck):  # none to be had yet: my two hands for now
                    yield from self.ensure_inventory(INFINITE)  # long errands need a bag
                if (self.deaths, self.issued) != key:
                    continue
            if self.rewards:
                rewards, self.rewards = self.rewards, {}
                yield from self.stow_loot(rewards)
                yield from self.ensure_inventory()
                continue
            key = self.issued
            yield from self.chores()
            if self.issued != key:
                continue
            stage = self.next_stage()
            if stage is None:
                yield WAIT
                continue
            if self.waits_for_team(stage):
                with contextlib.suppress(Stuck):
                    yield from self.retreat()
                yield WAIT
                continue
            try:
                yield from self.achieve(stage)
            except Stuck as exc:
                yield from self.setback(exc)
        yield from self.after_quest()

    def chores(self) -> Plan:
        """Between steps of the quest: keys lying here, a meal when hurt, food for the road, a
        roomier bag, and help for teammates (`teamwork`). A chore that cannot be done is left
        for a while (`block`)."""
        yield from self.take_openers()
        chores = (
            ("burn", self.burn_corpses),
            ("fuel", self.carry_fuel),
            ("light", self.carry_light),
            ("snack", self.snack),
            ("provision", self.provision),
            ("bigger bag", lambda: self.upgrade_inventory(self.stage_wants())),
            ("supply", self.supply_teammates),
            ("pass_on", self.pass_on),
            ("stations", self.build_stations_ahead),
        )
        for name, chore in chores:
            if self.is_blocked(name):
                continue
            try:
                yield from chore()
            except Stuck:
                self.block(name)

    def stage_wants(self) -> list[str]:
        """The objects my current stage asks me to have."""
        stage = self.next_stage()
        if stage is None:
            return []
        conditions = (*(stage.done_all or ()), *(stage.done_any or ()))
        return [d for c in walk_conditions(conditions) for d in self.wanted_by(c)]

    def setback(self, exc: Stuck) -> Plan:
        """A plan for the stage found no way on. Things change - paths shift, merchants and
        grounds fill again, another agent opens a lock - so I step out of harm's way, wait a
        while and try again; after MAX_SETBACKS at the same stage I give up (Stuck)."""
        key = self.stage_key()
        self.setbacks = self.setbacks + 1 if key == self.setback_key else 1
        self.setback_key = key
        if self.setbacks > MAX_SETBACKS:
            raise exc
        self.reserved.clear()
        with contextlib.suppress(Stuck):
            yield from self.retreat()
        for _ in range(SETBACK_PAUSE):
            yield WAIT

    def has_quest(self) -> bool:
        game = self.game
        return game.quests.main_quest is not None and game.is_enabled("main_quest")

    def after_quest(self) -> Plan:
        """The episode ends when the quest does; with the env still running (another policy's
        rules), explore."""
        while True:
            start = self.issued
            yield from self.wander()
            if self.issued == start:
                yield WAIT


class QuesterPolicy(ScriptedPolicy):
    """The main quest, stage by stage."""

    name = "quester"
    planner_class = QuestPlanner
    components = ("quest",)
