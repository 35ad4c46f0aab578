"""Test rule pack `hashorder`: a step rule whose outcome follows the order of a set of strings,
which differs between processes with other string hashes (for the audit's check across
processes). Imports only the rule framework, as a pack must."""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class SetOrder(BaseStepRule):
    name = "set_order_step"
    priority = 50
    description = "Counts kills by where each agent falls in a set's order (test pack; hash order)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        # Wrong: a set's order follows the strings' hashes. Nineteen strings, so that another
        # process almost never puts all three agents where this one does.
        order = list({*ctx.game.agents, *(f"word_{i}" for i in range(16))})
        for agent_id, agent in ctx.game.agents.items():
            agent.kills += order.index(agent_id)
