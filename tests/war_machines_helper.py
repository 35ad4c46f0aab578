"""Staging AgentOdyssey's robot_kingdom (from the user's copy) for the `war_machines` pack's tests:
one game per test module, reset to a blank stage (empty grounds, no NPC on the map, both agents in
the courtyard) by `stage`."""

from __future__ import annotations

from typing import Any

from harness import clear_world, move_to, run_step, spawn_npc, step_rule

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement
from agentodyssey_pz.world.entities import Npc

WORLD = "agentodyssey:robot_kingdom"
YARD = "area_bastion_courtyard"  # spawn, level 1
BARRACKS = "area_bastion_barracks"  # level 2, next to the courtyard
CELLAR = "area_bastion_cellar"
AUTOMATON = "npc_scrap_automaton"  # enemy, pattern attack attack defend attack
KAEL = "npc_kael_ashworth"  # merchant
MARSHAL = "npc_old_marshal"  # quest role, friendly
GUIDE = "npc_side_quest_guide"
TRIALS = 4000


def new_game(agents: int = 2) -> Game:
    return Game(WORLD, agents, GameConfig(tutorial=False))


def stage(game: Game, seed: int = 0) -> Game:
    game.reset(seed)
    clear_world(game)
    for agent_id in game.agents:
        move_to(game, agent_id, YARD)
    return game


def foe(game: Game, area: str = YARD, agent_id: str | None = "agent_0", **stats: Any) -> Npc:
    """A scrap automaton here (level 1), engaged by the agent unless `agent_id` is None."""
    npc = spawn_npc(game, AUTOMATON, area, 1, **stats)
    if agent_id is not None:
        game.agents[agent_id].combats[npc.id] = Engagement(0, area)
    return npc


rule = step_rule  # the short names the pack's tests use
step = run_step
