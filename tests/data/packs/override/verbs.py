"""Test rule pack `override`: replaces the base `inspect` and adds `shout`.

Imports only the rule framework (nothing from the base pack's files), as a pack must.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Inspect(BaseActionRule):
    name = "inspect"
    verb = "inspect"
    params = ("object_name",)
    param_min = param_max = 1
    description = "Look at something (test override)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        res.say(ctx.actor.id, "inspect.override", f"I glance at {ctx.params[0]}.")


class Shout(BaseActionRule):
    name = "shout"
    verb = "shout"
    params = ("words",)
    param_min = param_max = 1
    description = "Shout something (test pack verb)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent = ctx.actor
        res.say(agent.id, "shout.done", f"I shouted '{ctx.params[0]}'.")
        res.emit("shouted", agent.id, {"words": ctx.params[0], "area_id": agent.area_id})
