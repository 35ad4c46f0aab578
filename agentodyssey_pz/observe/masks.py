"""What an agent may do now: valid-action lists for language agents (and, later, action masks).

Layer: observe. Every verb rule enumerates the parameters it would accept (`valid_params`), computed
from the same state the rule reads, so a listed command is always accepted by the engine (with the
other agents idle). Lists are built only when asked for.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

import numpy as np

from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import Command

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

# The spec's grouping order (observations-and-loop 10), with `talk to` and `defend` added as it
# recommends; verbs of other packs follow in rule order.
VERB_ORDER = (
    "enter",
    "pick_up",
    "drop",
    "attack",
    "talk_to",
    "store",
    "take_out",
    "discard",
    "equip",
    "unequip",
    "inspect",
    "craft",
    "buy",
    "sell",
    "write",
    "defend",
    "wait",
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


def _verb_context(game: Game, agent_id: str, verb: str) -> RuleContext:
    return RuleContext(game, game.world, game.agents[agent_id], verb, (), game.tick_index)


def action_mask(
    game: Game,
    agent_id: str,
    catalogue: ActionCatalogue,
    out: np.ndarray,
    options: dict[int, Command] | None = None,
) -> np.ndarray:
    """Fill `out` (int8, one slot per catalogue entry) with 1 where the entry would take effect now.

    Exact by construction: an entry is set only from a parameter tuple its verb's own
    `valid_params` produced (amounts "1", containers "inventory"), and execution resolves the entry
    to that same tuple. `options`, when given, receives entry -> that command, so executing a
    discrete action in the same state needs no search (`resolve_entry` with the options)."""
    out.fill(0)
    rules = game.engine.rules
    world = game.world
    agent = game.agents[agent_id]
    keys_of = catalogue.keys_of_params
    valid: list[int] = []
    ctx = RuleContext(game, world, agent, "", (), game.tick_index)
    for verb in catalogue.verbs:
        ctx.action = verb
        params_list = rules[verb].valid_params(ctx, all_amounts=False)
        if not params_list:
            continue
        for index, params in keys_of(world, verb, params_list):
            valid.append(index)
            if options is not None and index not in options:
                options[index] = Command(verb, tuple(params))
    if valid:
        out[valid] = 1
    return out


def resolve_entry(
    game: Game,
    agent_id: str,
    catalogue: ActionCatalogue,
    index: int,
    options: dict[int, Command] | None = None,
) -> Command:
    """The concrete command a catalogue entry means for this agent now.

    The first parameter tuple of the verb's `valid_params` that maps to the entry (looked up in
    `options` when the mask of this very state filled them); if the entry is not possible now, its
    canonical form (definition names), which the rule refuses with feedback."""
    if options is not None:
        found = options.get(index)
        return found if found is not None else canonical_command(game, catalogue, index)
    entry = catalogue.entries[index]
    rule = game.engine.rules[entry.verb]
    if entry.target is not None:
        for params in rule.valid_params(
            _verb_context(game, agent_id, entry.verb), all_amounts=False
        ):
            if catalogue.key_of_params(game.world, entry.verb, params) == index:
                return Command(entry.verb, tuple(params))
    return canonical_command(game, catalogue, index)


def canonical_command(game: Game, catalogue: ActionCatalogue, index: int) -> Command:
    """An entry's command with definition names (what its label says)."""
    entry = catalogue.entries[index]
    words = entry.label.split(" ")
    return Command(entry.verb, tuple(words[len(game.engine.rules[entry.verb].verb.split(" ")) :]))
