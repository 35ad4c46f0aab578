"""`Planner`: the scripted player's whole toolbox, and the loop that runs one goal with it.

Policies layer. The planner combines the mixins (moving, carrying, getting things, money, fighting,
bosses, getting ready for a fight, writing, reading the quest, teamwork, burning corpses, a light
in the dark) over the driver in `planning`. Its `play` keeps the body in order - fetch my things
back after a death, keep an inventory, take up rewards dropped at my feet - and between those
chores runs `round`, one step of the goal a subclass pursues (explore, craft, fight, trade, quest).
When the goal has nothing to do, or a detour was asked for after the goal got stuck, it explores
instead.

The mixins' methods are typed `self: Any`: each calls the others' through the one composite object
(`goto` fetches keys with `obtain`, `obtain` fights with `fight` ...), which no single mixin knows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from agentodyssey_pz.policies.aftermath import Aftermath
from agentodyssey_pz.policies.bosses import BossReading
from agentodyssey_pz.policies.carrying import Carrying
from agentodyssey_pz.policies.fighting import Fighting
from agentodyssey_pz.policies.lighting import Lighting
from agentodyssey_pz.policies.money import Money
from agentodyssey_pz.policies.navigation import BLOCKED_TICKS, Navigation
from agentodyssey_pz.policies.planning import WAIT, Plan, PlannerCore, Stuck
from agentodyssey_pz.policies.questing import QuestReading
from agentodyssey_pz.policies.readiness import Readiness
from agentodyssey_pz.policies.sourcing import Sourcing
from agentodyssey_pz.policies.teamwork import Teamwork
from agentodyssey_pz.policies.writing import Writing

DETOUR_TICKS = 30  # after the goal got stuck: explore this long before trying it again
IDLE_TICKS = 10  # with nothing to do, wait this long before looking for something again
MAX_SPINS = 20  # turns of a play loop without a command before it waits anyway


class Planner(
    Navigation,
    Carrying,
    Sourcing,
    Money,
    Fighting,
    BossReading,
    Readiness,
    Writing,
    QuestReading,
    Teamwork,
    Aftermath,
    Lighting,
    PlannerCore,
):
    """A scripted player for one agent of one game; `command()` gives its next command."""

    def __init__(self, game: Any, agent_id: str) -> None:
        self.blocked: dict[str, int] = {}  # area or definition -> tick until which it is skipped
        self.detour_until = -1
        self.no_inventory_until = -1
        self.idle_until = -1
        self._spin_mark, self._spins = -1, 0
        super().__init__(game, agent_id)

    def play(self) -> Plan:
        if self.died_in is not None:
            with contextlib.suppress(Stuck):  # out of reach: carry on without my things
                yield from self.recover(self.died_in)
            self.died_in = None
        while True:
            yield from self.never_spin()
            if self.agent.inventory_id is None and self.game.tick_index >= self.no_inventory_until:
                key = self.deaths, self.issued
                with contextlib.suppress(Stuck):
                    yield from self.ensure_inventory()
                if self.agent.inventory_id is None:  # none in reach: do not try every tick
                    self.no_inventory_until = self.game.tick_index + BLOCKED_TICKS
                if (self.deaths, self.issued) != key:
                    continue
            if self.rewards:
                rewards, self.rewards = self.rewards, {}
                yield from self.stow_loot(rewards)
                continue
            start, now = self.issued, self.game.tick_index
            if now < self.idle_until:
                yield WAIT
                continue
            if now < self.detour_until:
                yield from self.wander()
            else:
                yield from self.round()
            if self.issued == start:  # nothing to do: look again in a while
                self.idle_until = self.game.tick_index + IDLE_TICKS
                yield WAIT

    def never_spin(self) -> Plan:
        """A guard for the play loops: after MAX_SPINS turns without a command, wait once (a
        chore that keeps finding nothing to do must not hang the caller)."""
        if self.issued != self._spin_mark:
            self._spin_mark, self._spins = self.issued, 0
            return
        self._spins += 1
        if self._spins > MAX_SPINS:
            self._spins = 0
            yield WAIT

    def round(self) -> Plan:
        """One step of the goal; yields nothing when there is nothing to do. Default: explore."""
        yield from self.wander()

    def wander(self) -> Plan:
        """Explore; with every area I can get into visited, stay out of enemies' way."""
        moved = yield from self.explore()
        if not moved:
            yield from self.retreat()

    def attempt(self, options: Iterable[tuple[str, Callable[[], Plan]]]) -> Plan:
        """Follow the first option (key, plan) that gets going; an option whose plan is stuck is
        skipped for a while (`block`). Returns whether one got going."""
        for key, plan in options:
            if self.is_blocked(key):
                continue
            start = self.issued
            try:
                yield from plan()
                return True
            except Stuck:
                self.block(key)
                if self.issued != start:
                    return True
        return False

    def detour(self) -> None:
        """The goal got stuck: drop the plan and explore for a while."""
        self.detour_until = self.game.tick_index + DETOUR_TICKS
        self.restart()

    def is_blocked(self, what: str) -> bool:
        return self.blocked.get(what, -1) > self.game.tick_index

    def block(self, what: str) -> None:
        self.blocked[what] = self.game.tick_index + BLOCKED_TICKS
