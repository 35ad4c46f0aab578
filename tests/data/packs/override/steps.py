"""Test rule pack `override`: step rules whose class names, definition order and priorities all
disagree with their (priority, name) order, which is the order they must run in.

Each emits a `pack_step` event naming itself, so a tick shows the order they ran in.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


def mark(rule: BaseStepRule, res: RuleResult) -> None:
    res.emit("pack_step", "env", {"name": rule.name})


class Gamma(BaseStepRule):
    name = "pack_aa"
    priority = 50

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        mark(self, res)


class Beta(BaseStepRule):
    name = "pack_bb"
    priority = 50

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        mark(self, res)


class Delta(BaseStepRule):
    name = "pack_cc"
    priority = 3

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        mark(self, res)


class Alpha(BaseStepRule):
    name = "pack_zz"
    priority = -5

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        mark(self, res)
