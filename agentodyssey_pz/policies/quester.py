"""The quester: follows the main quest's objective stage by stage; reward component `quest`.

Policies layer. `QuestPlanner.play` works on the stage the quest engine expects next (the current
stage of a linear chapter, or the first open goal of a goal graph) and makes its conditions hold
(`questing`), picking up the rewards stages leave at its feet. Without a main quest, once the quest
is complete, or for a while after it got stuck, it explores.
"""

from __future__ import annotations

from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import INFINITE, WAIT, Plan
from agentodyssey_pz.policies.scripted import ScriptedPolicy


class QuestPlanner(Planner):
    """Plays one agent through the main quest (the test suite's end-to-end solver runs this)."""

    def progress_key(self) -> tuple:
        return self.stage_key()

    def play(self) -> Plan:
        if self.died_in is not None:
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
                yield from self.ensure_inventory(INFINITE)  # long errands need a bag
                if (self.deaths, self.issued) != key:
                    continue
            if self.rewards:
                rewards, self.rewards = self.rewards, {}
                yield from self.stow_loot(rewards)
                yield from self.ensure_inventory()
                continue
            stage = self.next_stage()
            if stage is None:
                yield WAIT
                continue
            yield from self.achieve(stage)
        yield from self.after_quest()

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
