"""Stages for the tests of the bundled pack `outbreak` (rules/outbreak/), on AgentOdyssey's
quarantine world read from the user's copy (`agentodyssey:quarantine`, which names the pack)."""

from __future__ import annotations

from harness import blank_game

from agentodyssey_pz.engine.game import Game

WORLD = "agentodyssey:quarantine"
LOBBY, WARD, MORGUE, ROOFTOP = (
    "area_hospital_lobby",
    "area_hospital_ward",
    "area_hospital_morgue",
    "area_hospital_rooftop",
)

# The world states the pack's rules keep (`world.auxiliary`).
PACK_KEYS = (
    "barricaded_paths",
    "stunned_npcs",
    "area_corpses",
    "area_corruption",
    "corruption_spawn_cooldown",
    "in_darkness",
    "light_fuel",
    "quarantine_lockdown",
)


def drop_pack_state(game: Game) -> None:
    """Forget every world state of the pack (as if its rules had never run)."""
    for key in PACK_KEYS:
        game.world.auxiliary.pop(key, None)


def ward(seed: int = 0, reuse: Game | None = None, agents: int = 1, at: str = WARD) -> Game:
    """quarantine cleared (no objects, no NPCs on the map, none of the pack's state), every agent
    at `at` (the ward is lit on seed 0), full health, no combats."""
    if reuse is None:
        game = blank_game(WORLD, agents=agents, seed=seed, at=at, tutorial=False)
    else:
        from harness import restage

        game = reuse
        restage(game, seed)
        for body in game.agents.values():
            game.move_agent(body, at)
    drop_pack_state(game)
    for body in game.agents.values():
        body.combats.clear()
        body.hands.clear()
    return game
