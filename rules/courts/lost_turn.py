"""The lost turn of an objection without a law to cite or overruled (`objection_skip_turn`).

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. An agent
whose flag is set plays `wait` on its next turn whatever it asked for (the engine's lost-turn
hook, docs/rule-packs.md#lost-turns): the flag is cleared and the agent told it is stunned; its
listings offer only `wait` meanwhile, and its own command counts as not taken unless it was
`wait`. The contempt rule then sees a `wait`, as published.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import Command
from agentodyssey_pz.rules.state_shape import MapOf

from .common import SKIP_TURN

WAIT = Command("wait", ())


class ObjectionLostTurn(BaseStepRule):
    name = "objection_lost_turn"
    priority = 9
    description = "An agent whose objection failed loses its next turn (it waits)."
    state_key = SKIP_TURN
    state_shape = MapOf(bool)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        pass  # the work happens before the actions (`forced_command`)

    def forced_command(self, game: Any, agent: Any) -> Command | None:
        flags = game.world.auxiliary.get(SKIP_TURN)
        return WAIT if flags and flags.get(agent.id, False) else None

    def on_forced(self, ctx: RuleContext, res: RuleResult) -> None:
        ctx.world.auxiliary[SKIP_TURN][ctx.actor.id] = False
        res.say(
            ctx.actor.id,
            "file_objection.stunned",
            "Still reeling from the court's rebuke, I am stunned and lose this turn.",
        )
