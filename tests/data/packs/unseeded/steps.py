"""Test rule pack `unseeded`: a step rule drawing from Python's global `random`, not the game's
seeded generator, so two plays of the same seed and actions differ (for the audit's replay check).
Imports only the rule framework, as a pack must."""

from __future__ import annotations

import random

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Jitter(BaseStepRule):
    name = "jitter_step"
    priority = 50
    description = "Counts a kill now and then, at random (test pack; wrongly unseeded)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        for agent in ctx.game.agents.values():
            agent.kills += random.randint(0, 1)  # wrong: the game's own generator is ctx.game.rng
