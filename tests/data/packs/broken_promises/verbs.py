"""Test rule pack `broken_promises`: three verbs that break the listing contract, for the audit.

`chant` takes effect on even ticks only and lists itself so, but claims `lists_from_reach`: kept
listings go stale while an agent's reach stays the same. `boast` is always listed, yet refuses an
agent with empty hands: its mask and list lie. `juggle` is never offered but raises when tried
with something in hand. (Imports only the rule framework, as a pack must.)
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Chant(BaseActionRule):
    name = "chant"
    verb = "chant"
    params = ()
    param_min = param_max = 0
    description = "Chant (on even ticks only; test pack verb)."
    catalogue = CatalogueShape("none")
    lists_from_reach = True  # wrong: its listings read the clock

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [()] if ctx.step_index % 2 == 0 else []

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        if ctx.step_index % 2:
            return res.fail(ctx.actor.id, "chant.odd", "I cannot chant on an odd tick.")
        res.say(ctx.actor.id, "chant.done", "I chanted.")
        return None


class Boast(BaseActionRule):
    name = "boast"
    verb = "boast"
    params = ()
    param_min = param_max = 0
    description = "Boast of what I hold (test pack verb)."
    catalogue = CatalogueShape("none")

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        if not ctx.actor.hands:  # the default listings offer it anyway
            return res.fail(ctx.actor.id, "boast.empty", "I hold nothing to boast of.")
        res.say(ctx.actor.id, "boast.done", "I boasted.")
        return None


class Juggle(BaseActionRule):
    name = "juggle"
    verb = "juggle"
    params = ()
    param_min = param_max = 0
    description = "Juggle (crashes with something in hand; test pack verb)."
    catalogue = CatalogueShape("none")

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return []  # never offered

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        if ctx.actor.hands:
            raise KeyError("the juggling balls")  # a bug: even a masked entry stops the game
        return res.fail(ctx.actor.id, "juggle.nothing", "I have nothing to juggle.")
