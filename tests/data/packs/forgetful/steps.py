"""Test rule pack `forgetful`: a step rule counting ticks in an attribute of its own, outside the
saved game, so a game loaded from a snapshot goes on differently (for the audit's resume check).
Imports only the rule framework, as a pack must."""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Tally(BaseStepRule):
    name = "tally_step"
    priority = 50
    description = "Writes its own tick count into every agent's kills (test pack; state unsaved)."

    def __init__(self) -> None:
        self.calls = 0  # wrong: a loaded game starts again from 0

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        self.calls += 1
        for agent in ctx.game.agents.values():
            agent.kills = self.calls
