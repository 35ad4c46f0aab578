"""Staging AgentOdyssey's metropolis (from the user's copy) for the `courts` pack's tests: one game
per test module (`harness.stage_fixtures`), reset to a quiet stage by `stage` (no NPC on the map,
no loose things, empty hands, both agents in the lobby), and the documents its verbs read."""

from __future__ import annotations

from harness import clear_world, give, move_to

from agentodyssey_pz.engine.game import Game

WORLD = "agentodyssey:metropolis"
LOBBY, CLERKS, EVIDENCE = "area_lobby", "area_clerks_office", "area_evidence_room"
COURT, MARKET = "area_courtroom", "area_market_square"


def new_game(agents: int = 2) -> Game:
    return Game(WORLD, agents)


def stage(game: Game, seed: int = 0) -> Game:
    game.reset(seed)
    clear_world(game)
    for agent in game.agents.values():
        agent.hands.clear()
        move_to(game, agent.id, LOBBY)
    return game


def held_doc(game: Game, text: str, agent_id: str = "agent_0") -> str:
    """A paper in the agent's hands with `text` written on it."""
    [oid] = give(game, agent_id, "obj_paper")
    game.world.writables[oid].text = text
    return oid


def doc_on_ground(game: Game, area_id: str, text: str) -> str:
    """A paper lying in `area_id` with `text` written on it."""
    [(oid, _)] = game.world.spawn_on_ground(area_id, "obj_paper", 1)
    game.world.writables[oid].text = text
    return oid
