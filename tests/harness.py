"""Building small game states and acting in them, for rule tests.

`act` runs one command through the action-rule engine only (no step rules), so a test sees exactly
what the verb did. `state_of` gives the whole game state as data, to assert that a failing command
left everything untouched.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import game_state_data
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.parse import ParseFailure
from agentodyssey_pz.world.agents import AgentState, add_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc

DATA = Path(__file__).parent / "data"
TINY = DATA / "tiny_world.json"


def make_game(world: Any = TINY, agents: int = 1, seed: int = 0, **config: Any) -> Game:
    """A reset game (bootstrap tick done). Extra keywords are GameConfig fields."""
    game = Game(world, agents, GameConfig(**config))
    game.reset(seed)
    return game


def clear_world(game: Game) -> None:
    """Empty every ground and take every NPC off the map: a blank stage for a rule test."""
    for area in game.world.areas.values():
        area.objects.clear()
        for npc_id in list(area.npcs):
            game.world.remove_npc_from_map(npc_id)


def act(game: Game, agent_id: str, command: Any) -> RuleResult:
    """Run one command for one agent through the action rules only; returns the RuleResult."""
    res = RuleResult(game.agent_ids, tracking=game.tracker is not None)
    from agentodyssey_pz.engine.tick import resolve_command

    parsed = resolve_command(game, command)
    if isinstance(parsed, ParseFailure):
        game.engine.reject(agent_id, command, parsed, res)
        return res
    agent = game.agents[agent_id]
    ctx = RuleContext(game, game.world, agent, parsed.verb, parsed.params, game.tick_index)
    game.engine.dispatch(ctx, res)
    return res


def state_of(game: Game) -> dict[str, Any]:
    """The whole game state as plain data (deep copy)."""
    return copy.deepcopy(game_state_data(game))


def agent(game: Game, agent_id: str = "agent_0") -> AgentState:
    return game.agents[agent_id]


def give(game: Game, agent_id: str, def_id: str, count: int = 1) -> list[str]:
    """Put units of a definition in an agent's hands (instances for containers/writables).

    Returns the ids placed."""
    placed = game.world.materialise(def_id, count)
    for oid, n in placed:
        add_count(game.agents[agent_id].hands, oid, n)
    return [oid for oid, _ in placed]


def put_on_ground(game: Game, area_id: str, def_id: str, count: int = 1) -> list[str]:
    return [oid for oid, _ in game.world.spawn_on_ground(area_id, def_id, count)]


def move_to(game: Game, agent_id: str, area_id: str) -> None:
    game.move_agent(game.agents[agent_id], area_id)


def spawn_npc(game: Game, proto_id: str, area_id: str, level: int = 1, **overrides: Any) -> Npc:
    """A fresh NPC instance of a prototype in an area (next instance index for non-unique ones)."""
    world = game.world
    proto = world.npc_protos[proto_id]
    index = None if proto.unique else world.npc_count.get(proto_id, 0)
    if index is not None:
        world.npc_count[proto_id] = index + 1
    import random

    npc = create_npc(world, proto, index, level, random.Random(0), SynthesisOptions())
    for key, value in overrides.items():
        setattr(npc, key, value)
    world.add_npc(npc, area_id)
    return npc


def run_steps(game: Game) -> RuleResult:
    """Run only the step rules once (as the step phase of a tick would), without advancing time."""
    from agentodyssey_pz.engine.tick import run_step_rules

    res = RuleResult(game.agent_ids, tracking=game.tracker is not None)
    run_step_rules(game, res)
    return res


def step_rule(game: Game, name: str) -> Any:
    """The game's step-rule instance with that name."""
    return next(rule for rule in game.step_rules if rule.name == name)


def run_step(game: Game, name: str) -> RuleResult:
    """Run one step rule alone."""
    res = RuleResult(game.agent_ids, tracking=game.tracker is not None)
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    step_rule(game, name).apply(ctx, res)
    return res
