"""Test rule pack `groping`: two verbs offered in the dark (`dark_safe`), one honest, one not.

`grope` works only in the dark and lists itself so: an honest dark-safe verb whose listing depends
on the light, and reach-only (`lists_from_reach`), so the env must not hand out a listing of the
light in the dark for the same reach. `peek` claims `dark_safe` but lists itself only while
something is in hand, which darkness hides: the audit's darkness check names it. (Imports only the
rule framework and the world, as a pack must.)
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.darkness import in_darkness


class Grope(BaseActionRule):
    name = "grope"
    verb = "grope"
    description = "Feel my way around (in the dark only; test pack verb)."
    catalogue = CatalogueShape("none")
    lists_from_reach = True
    dark_safe = True

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [()] if in_darkness(ctx.world, ctx.actor) else []

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        if not in_darkness(ctx.world, ctx.actor):
            return res.fail(ctx.actor.id, "grope.light", "I can see: no need to grope about.")
        res.say(ctx.actor.id, "grope.done", "I groped about in the dark.")
        return None


class Peek(BaseActionRule):
    name = "peek"
    verb = "peek"
    description = "Peek at what I hold (test pack verb)."
    catalogue = CatalogueShape("none")
    dark_safe = True  # wrong: its listing reads the hands

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [()] if ctx.actor.hands else []

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        if not ctx.actor.hands:
            return res.fail(ctx.actor.id, "peek.empty", "I hold nothing to peek at.")
        res.say(ctx.actor.id, "peek.done", "I peeked at what I hold.")
        return None
