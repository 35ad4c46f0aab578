"""Test rule pack `tutorial_extras`: two verbs the base pack lacks, and a replacement of one it has.

The tutorial's completion text lists the verbs a game's packs add (`{extra_verbs}`): `juggle` and
`whistle` are listed, in name order; the louder `wait` keeps the base verb's name, so it is not.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Whistle(BaseActionRule):
    name = "whistle"
    verb = "whistle"
    description = "Whistle a tune (test pack verb)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        res.say(ctx.actor.id, "whistle.done", "I whistled.")


class Juggle(BaseActionRule):
    name = "juggle"
    verb = "juggle"
    params = ("obj_name", "count")
    param_min = param_max = 2
    description = "Juggle some things (test pack verb)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        res.say(ctx.actor.id, "juggle.done", f"I juggled {ctx.params[1]} {ctx.params[0]}.")


class LoudWait(BaseActionRule):
    name = "wait"  # replaces the base `wait`: not an extra verb
    verb = "wait"
    description = "Wait, loudly (test pack verb)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        res.say(ctx.actor.id, "wait.done", "I waited, loudly.")
