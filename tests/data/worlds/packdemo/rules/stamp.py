"""Test world pack `packdemo`: the extra verb `stamp <word>`.

Writes the word and a running count into the persistent `world_state` through the game API
(`set_world_state`, which emits `world_state_changed`). Imports only the rule framework.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext


class Stamp(BaseActionRule):
    name = "stamp"
    verb = "stamp"
    params = ("word",)
    param_min = param_max = 1
    description = "Stamp a word into the harbor log (test pack verb)."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, word = ctx.game, ctx.params[0]
        game.set_world_state("stamp", word, res)
        game.set_world_state("stamps", game.world_state.get("stamps", 0) + 1, res)
        res.say(ctx.actor.id, "stamp.done", f"I stamped '{word}' into the harbor log.")

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [("ahoy",)]
