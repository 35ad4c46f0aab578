"""The whole-game checks of an audit: the same game on a replay, and the same game after a resume.

Sits on top, with the rest of `agentodyssey_pz.audit`. A rule that draws from an unseeded generator
(Python's `random` module, the clock) makes two plays of the same seed and actions differ; a rule
that keeps state outside the saved game (an attribute of its own) makes a game loaded from a
snapshot go on differently from the original. Both break promises the env makes (determinism,
exact resume), and both show as the first path where the games' states differ.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from agentodyssey_pz.audit.report import REPLAY, RESUME, Findings
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import game_state_data, state_hash
from agentodyssey_pz.evaluate.report import counted
from agentodyssey_pz.observe.masks import valid_actions

SHOWN_VALUE = 60  # characters of each differing value a report shows


def state_difference(a: Game, b: Game, a_hash: str | None = None) -> str | None:
    """Where two games' states differ first, as a path and the two values; None if they do not.
    `a_hash`: `a`'s state hash, when the caller has it."""
    if (a_hash if a_hash is not None else state_hash(a)) == state_hash(b):
        return None
    return first_difference(game_state_data(a), game_state_data(b)) or "(the states differ)"


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The first path (in sorted key order) where two plain-data values differ, with both."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys(), key=str):
            if key not in a or key not in b:
                return f"{path}/{key}: only in the {'second' if key in b else 'first'}"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}/{i}")
            if found is not None:
                return found
        return None
    if a == b and type(a) is type(b):
        return None
    return f"{path or '/'}: {_short(a)} against {_short(b)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN_VALUE else f"{text[: SHOWN_VALUE - 3]}..."


def check_resume(
    game: Game,
    world: Any,
    rule_packs: list[str],
    ticks: int,
    seed: int,
    findings: Findings,
) -> int:
    """Save `game`, load it back, and play both `ticks` ticks of the same random valid commands,
    comparing their states after the load and after every tick; the ticks played (`game` is
    played on: the caller is done with it)."""
    with tempfile.TemporaryDirectory(prefix="agentodyssey-audit-") as folder:
        path = Path(folder) / "snapshot.json"
        game.save(path)
        loaded = Game.load(path, world, rule_packs=rule_packs)
    start = game.tick_index
    difference = state_difference(game, loaded)
    if difference is not None:
        findings.add(RESUME, "", f"right after loading a snapshot of tick {start}: {difference}")
        return 0
    rng = random.Random(seed)
    for played in range(1, ticks + 1):
        if game.terminated:
            return played - 1
        actions = {}
        for agent in game.agent_ids:
            listed = [c for lines in valid_actions(game, agent).values() for c in lines]
            actions[agent] = rng.choice(listed)
        game.tick(actions)
        loaded.tick(actions)
        difference = state_difference(game, loaded)
        if difference is not None:
            findings.add(
                RESUME,
                "",
                f"{counted(played, 'tick')} after loading a snapshot of tick {start}, the loaded "
                f"game differs from the original at {difference}",
            )
            return played
    return ticks


class Replay:
    """A second env of the same configuration, reset with the same seeds and stepped with the same
    actions as the audited one: its game must stay the same. Each call gets the audited game and
    its state hash (which the audit keeps anyway). Stops comparing at the first difference (one is
    enough to report, and later ones follow from it)."""

    def __init__(self, env: Any, findings: Findings) -> None:
        self.env, self.findings = env, findings
        self.live = True

    def reset(self, seed: int, original: Game, original_hash: str, tick: int) -> None:
        if self.live:
            self.env.reset(seed=seed)
            self._compare(original, original_hash, tick, "after a reset with the same seed")

    def step(self, actions: dict[str, Any], original: Game, original_hash: str, tick: int) -> None:
        if self.live:
            self.env.step(actions)
            self._compare(original, original_hash, tick, "after the same actions")

    def _compare(self, original: Game, original_hash: str, tick: int, when: str) -> None:
        difference = state_difference(original, self.env.game, original_hash)
        if difference is not None:
            self.findings.add(
                REPLAY, "", f"tick {tick}, {when}, a second game differs at {difference}"
            )
            self.live = False
