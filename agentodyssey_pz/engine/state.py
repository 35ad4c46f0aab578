"""The whole state of a game as plain data, and a canonical hash of it.

Layer: engine. Used to compare trajectories (determinism tests), and by checkpoints. Agents are
unstructured with cattrs; the world with its own serializer; the rule generator's full state is
included, so two games with equal data continue identically.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

import cattrs

from agentodyssey_pz.world.rng import state_to_data

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

_CONVERTER = cattrs.Converter()


def game_state_data(game: Game, *, include_definition: bool = True) -> dict[str, Any]:
    """Everything that changes during play (and, by default, the world's definition too)."""
    from agentodyssey_pz.world.serialize import world_to_data

    return {
        "tick_index": game.tick_index,
        "seed": game.seed,
        "terminated": game.terminated,
        "rng": state_to_data(game.rng),
        "world": world_to_data(game.world, include_definition=include_definition),
        "agents": [_CONVERTER.unstructure(a) for a in game.agents.values()],
        "world_state": game.world_state,
        "scores": {aid: s.components() for aid, s in game.scores.items()},
    }


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(game: Game) -> str:
    """SHA-256 of the canonical JSON of the whole game state."""
    return hashlib.sha256(canonical_json(game_state_data(game)).encode("utf-8")).hexdigest()
