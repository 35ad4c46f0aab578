"""What an agent may do now: valid-action lists for language agents (and, later, action masks).

Layer: observe. Every verb rule enumerates the parameters it would accept (`valid_params`), computed
from the same state the rule reads, so a listed command is always accepted by the engine (with the
other agents idle). Lists are built only when asked for.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from agentodyssey_pz.rules.context import RuleContext

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

# The spec's grouping order (observations-and-loop 10), with `talk to` and `defend` added as it
# recommends; verbs of other packs follow in rule order.
VERB_ORDER = (
    "enter", "pick_up", "drop", "attack", "talk_to", "store", "take_out", "discard", "equip",
    "unequip", "inspect", "craft", "buy", "sell", "write", "defend", "wait",
)


def command_text(verb_phrase: str, params: tuple[str, ...]) -> str:
    """A command string the parser reads back to exactly these parameters."""
    return " ".join([verb_phrase, *(shlex.quote(p) for p in params)])


def valid_actions(game: Game, agent_id: str) -> dict[str, list[str]]:
    """Verb phrase -> every command this agent could issue now with effect, in the spec's order."""
    agent = game.agents[agent_id]
    rules = game.engine.rules
    order = [v for v in VERB_ORDER if v in rules] + [v for v in rules if v not in VERB_ORDER]
    out: dict[str, list[str]] = {}
    for verb_id in order:
        rule = rules[verb_id]
        ctx = RuleContext(game, game.world, agent, verb_id, (), game.tick_index)
        params_list = rule.valid_params(ctx)
        if params_list:
            out[rule.verb] = [command_text(rule.verb, p) for p in params_list]
    return out
