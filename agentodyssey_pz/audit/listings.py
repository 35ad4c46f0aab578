"""The listing checks of an audit: kept listings against fresh ones, and actions tried on copies.

Sits on top, with the rest of `agentodyssey_pz.audit`. Copies are made by pickling the live game in
memory (this process's own objects, never a file).
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from agentodyssey_pz.audit.darkness import check_hidden
from agentodyssey_pz.audit.report import KEPT, MASK, RAISED, VALID, Findings
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import RuleError, RulePackError
from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.observe.masks import MaskOptions, action_mask, resolve_entry, valid_actions
from agentodyssey_pz.rules.parse import Command, command_text
from agentodyssey_pz.world.darkness import in_darkness


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def compare_kept(
    game: Game,
    catalogue: ActionCatalogue,
    agent: str,
    observation: dict[str, Any],
    info: dict[str, Any],
    findings: Findings,
    tick: int,
) -> None:
    """The env's mask and list against ones built afresh (no kept listings, no shared memo)."""
    mask = observation["action_mask"]
    fresh_mask = action_mask(game, agent, catalogue)
    for i in np.flatnonzero(mask != fresh_mask):
        entry = catalogue.entries[int(i)]
        findings.add(
            KEPT,
            entry.verb,
            f"tick {tick}, {agent}: the env's mask has {entry.label!r} "
            f"{'on' if mask[i] else 'off'}, a fresh mask {'on' if fresh_mask[i] else 'off'}",
        )
    listed, fresh = info["valid_actions"], valid_actions(game, agent)
    if listed == fresh:
        return
    for phrase in dict.fromkeys([*listed, *fresh]):
        kept, anew = listed.get(phrase, []), fresh.get(phrase, [])
        if kept != anew:
            only_kept = [c for c in kept if c not in anew][:3]
            only_fresh = [c for c in anew if c not in kept][:3]
            findings.add(
                KEPT,
                findings.verb_of.get(phrase, phrase),
                f"tick {tick}, {agent}: the env listed {len(kept)} {phrase!r} command(s), a fresh "
                f"list {len(anew)}; only in the env's: {only_kept}, only in the fresh: "
                f"{only_fresh}",
            )


def try_state(
    game: Game,
    catalogue: ActionCatalogue,
    agent: str,
    mask: np.ndarray,
    info: dict[str, Any],
    rng: np.random.Generator,
    masked_sample: int,
    valid_sample: int,
    findings: Findings,
    tick: int,
) -> int:
    """Try entries and listed commands of `agent` on copies of this state; the number tried.

    In the dark (`world.darkness`) the promise holds one way (docs/rule-packs.md, "Listings in
    the dark"): unmasked entries must take effect, masked ones may (acting blind), so they are
    tried only for the `raised` check."""
    try:
        frozen = pickle.dumps(game)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:  # e.g. a lambda in a rule
        raise RulePackError(
            f"cannot copy the game to try actions on it ({type(exc).__name__}: {exc}); a rule "
            "holds something that cannot be copied. `--states 0` checks the kept listings only"
        ) from exc
    # What each verb reports in this state, to run an entry as the env would (a fresh listing).
    options: MaskOptions = {}
    action_mask(game, agent, catalogue, options=options)
    dark = in_darkness(game.world, game.agents[agent])
    if dark:
        check_hidden(game, frozen, catalogue, agent, findings, tick)
    bound = [i for i in range(len(catalogue)) if i not in catalogue.unbound]
    on = [i for i in bound if mask[i]]
    off = [i for i in bound if not mask[i]]
    picked_off = rng.choice(off, size=min(masked_sample, len(off)), replace=False) if off else []
    for index in [*on, *(int(i) for i in picked_off)]:
        copy = pickle.loads(frozen)
        command = resolve_entry(copy, agent, catalogue, index, options)
        entry = catalogue.entries[index]
        try:
            ok, feedback = outcome(copy, agent, command)
        except RuleError as exc:
            findings.add(RAISED, entry.verb, f"tick {tick}, {agent}: entry {index}: {exc}")
            continue
        if ok != bool(mask[index]) and (mask[index] or not dark):
            state = "unmasked but refused" if mask[index] else "masked but taken"
            findings.add(
                MASK,
                entry.verb,
                f"tick {tick}, {agent}: entry {index} {entry.label!r} ({state}; ran "
                f"{command_text(game.engine.rules[command.verb].verb, command.params)!r}): "
                f"{feedback!r}",
            )
    listed = [(phrase, c) for phrase, lines in info["valid_actions"].items() for c in lines]
    picked = rng.choice(len(listed), size=min(valid_sample, len(listed)), replace=False)
    for i in picked:
        phrase, text = listed[int(i)]
        verb = findings.verb_of.get(phrase, phrase)
        try:
            ok, feedback = outcome(pickle.loads(frozen), agent, text)
        except RuleError as exc:
            findings.add(RAISED, verb, f"tick {tick}, {agent}: {text!r}: {exc}")
            continue
        if not ok:
            findings.add(
                VALID,
                verb,
                f"tick {tick}, {agent}: listed {text!r} was refused: {feedback!r}",
            )
    return len(on) + len(picked_off) + len(picked)


def outcome(game: Game, agent: str, command: Command | str) -> tuple[bool, str]:
    """Whether `command` takes effect for `agent` with the others waiting, and its feedback."""
    actions: dict[str, Any] = dict.fromkeys(game.agent_ids, "wait")
    actions[agent] = command
    result = game.tick(actions)
    return bool(result.action_ok[agent]), result.feedback(agent).strip()
