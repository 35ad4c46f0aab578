"""Staging AgentOdyssey's saltglass (from the user's copy) for the `saltglass` pack's tests: one
game per test module, reset to a blank stage (empty grounds, no NPC on the map, both agents in the
hall) by `stage`."""

from __future__ import annotations

import random
import sys
from types import ModuleType
from typing import Any

from harness import clear_world, move_to, run_step, step_rule

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult

WORLD = "agentodyssey:saltglass"
HALL, YARD, LIBRARY, ARMORY = "area_hall", "area_yard", "area_library", "area_armory"
FLATS, BASIN, ORRERY, SPIRE = "area_flats", "area_basin", "area_orrery", "area_spire"
OPEN_SALT = (HALL, YARD, FLATS, BASIN)  # world order
OBSERVATORIES = (LIBRARY, ORRERY, SPIRE)
LENS, GUARD, VEST, PAPER, PEN = (
    "obj_lens_shard",
    "obj_glass_guard",
    "obj_wrap_vest",
    "obj_paper",
    "obj_pen",
)
TIDEBOUND = "npc_tidebound"  # enemy, pattern attack defend attack wait
VESIN = "npc_vesin"  # the merchant


def new_game(agents: int = 2, **config: Any) -> Game:
    return Game(WORLD, agents, GameConfig(tutorial=False, **config))


RULE_STATES = ("salt_mirage", "collect_unattended", "resonance_imprint", "forge_alert")


def stage(game: Game, seed: int = 0, at: str = HALL) -> Game:
    """Reset, then a blank stage: no ground, no NPC on the map, the background rules' world
    states of the bootstrap tick dropped (a mirage may have formed)."""
    game.reset(seed)
    clear_world(game)
    for key in RULE_STATES:
        game.world.auxiliary.pop(key, None)
    for agent_id in game.agents:
        move_to(game, agent_id, at)
    return game


rule = step_rule  # the short names the pack's tests use
step = run_step


def pack_module(game: Game, module: str) -> ModuleType:
    """A module of the saltglass pack as the game loaded it."""
    name = type(game.engine.rules["listen"]).__module__
    return sys.modules[f"{name.rsplit('.', 1)[0]}.{module}"]


def mirror(game: Game) -> random.Random:
    """A generator in the game's state: what the next draws will be."""
    copy_ = random.Random()
    copy_.setstate(game.rng.getstate())
    return copy_


def of_type(res: RuleResult, kind: str) -> list[Any]:
    return [e for e in res.events if e.type == kind]
