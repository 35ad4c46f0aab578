"""The game the crash test kills, and the action stream every checkpoint test plays.

Run as a script (`python crash_worker.py <folder> <world> <seed> <last_tick> <snapshot_every>`), it
plays a 3-agent game with automatic checkpointing into `<folder>` until `<last_tick>` ticks are
done (the crash test kills it long before). It imports only the package, so it runs in a fresh
process without the test harness.

`actions_for(game, seed, tick)` is a deterministic function of (seed, tick) and the game's state:
a generator seeded from (seed, tick) picks, per agent, one of its listed valid commands (now and
then a garbage command instead). Two games in the same state at the same tick get the same
actions, whichever process or resume path brought them there.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from agentodyssey_pz.checkpoint import CheckpointWriter
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.observe.masks import valid_actions

AGENTS = 3
VALID_SHARE = 0.9  # the rest are garbage commands (the invalid path is journaled too)
GARBAGE: tuple[Any, ...] = (None, "", "dance", "pick up", 'write "unclosed', "craft -1 x")
TICK_STRIDE = 1_000_003  # keeps (seed, tick) generator seeds apart for ticks below a million


def actions_for(game: Game, seed: int, tick: int) -> dict[str, Any]:
    """Every agent's action for `tick` (the number of ticks played before it)."""
    rng = random.Random(seed * TICK_STRIDE + tick)
    actions: dict[str, Any] = {}
    for agent_id in game.agent_ids:
        if rng.random() < VALID_SHARE:
            commands = [c for cs in valid_actions(game, agent_id).values() for c in cs]
            actions[agent_id] = rng.choice(commands)
        else:
            actions[agent_id] = rng.choice(GARBAGE)
    return actions


def play_until(game: Game, seed: int, last_tick: int) -> None:
    """Tick with `actions_for` until `last_tick` ticks are done (or the episode ends)."""
    while game.tick_index < last_tick and not game.terminated:
        game.tick(actions_for(game, seed, game.tick_index))


def main(argv: list[str]) -> None:
    folder, world, seed, last_tick, every = (
        argv[0],
        argv[1],
        int(argv[2]),
        int(argv[3]),
        int(argv[4]),
    )
    game = Game(world, AGENTS)
    game.reset(seed)
    writer = CheckpointWriter(game, folder, snapshot_every=every)
    play_until(game, seed, last_tick)
    writer.close()


if __name__ == "__main__":
    main(sys.argv[1:])
