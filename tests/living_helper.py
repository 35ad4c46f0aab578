"""Stages for the tests of the `living_world` and `shifting_paths` packs (rules/living_world/,
rules/shifting_paths/), played on tests/data/worlds/living, a world that names both packs.

A stage is a cleared game (no ground objects, no NPCs on the map) whose packs' state is wiped, so a
test builds exactly what a rule sees; `step` runs one step rule on a result that may already hold
the tick's earlier events; `mirror` predicts the game generator's next draws.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from harness import blank_game, spawn_npc

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.validate import parse_definition

LIVING = Path(__file__).parent / "data" / "worlds" / "living"
PACK_STATE = (
    "day_cycle", "day_cycle_info", "modifier_bag", "food_respawn", "forgotten_caches",
    "scavengers", "rumor_mill", "soundscape", "enemy_respawn", "shifting_paths",
)  # fmt: skip
# The test world's areas (level, lit): green is the spawn area.
GREEN, STALLS, WELL = "area_green", "area_stalls", "area_well"  # 1 lit, 2 lit, 1 dark
REEDS, MIRE, KNOLL = "area_reeds", "area_mire", "area_knoll"  # 1 lit, 3 dark, 2 lit
MOUND, CRYPT = "area_mound", "area_crypt"  # 4 lit, 5 dark
WOLF, THIEF, KING = "npc_fen_wolf", "npc_bog_thief", "npc_barrow_king"  # enemies (king unique)
TINKER, WIDOW, REEVE = "npc_tinker", "npc_widow_marsh", "npc_reeve"  # merchants (the tinker roams)


def living_definition(**features: Any) -> WorldDefinition:
    """The test world with these `features` keys set (e.g. `rule_settings`)."""
    raw = json.loads((LIVING / "world.json").read_text(encoding="utf-8"))
    raw["features"].update(features)
    return parse_definition(raw, source="living-variant.json")


def stage(
    agents: int = 1, at: str | None = None, tick: int = 10, world: Any = LIVING, **config: Any
) -> Game:
    """The living world (or `world`), cleared, its packs' state wiped, every agent at `at`
    (default: spawn), `tick_index` set to `tick`, the generator seeded with 0."""
    game = blank_game(world, agents=agents, at=at, **config)
    for key in PACK_STATE:
        game.world.auxiliary.pop(key, None)
    for agent in game.agents.values():
        agent.progress.pop("craft_streak", None)
    game.tick_index = tick
    game.rng.seed(0)
    return game


def step(game: Game, name: str, res: RuleResult | None = None) -> RuleResult:
    """Run one step rule, on `res` if given (to put this tick's earlier events before it)."""
    if res is None:
        res = RuleResult(game.agent_ids, tracking=game.tracker is not None)
    ctx = RuleContext(game, game.world, None, "", (), game.tick_index)
    next(rule for rule in game.step_rules if rule.name == name).apply(ctx, res)
    return res


def with_events(game: Game, *events: tuple[str, str | None, dict[str, Any]]) -> RuleResult:
    """A result already holding these (type, agent id, payload) events."""
    res = RuleResult(game.agent_ids)
    for type_, agent_id, data in events:
        res.emit(type_, agent_id, data)
    return res


def mirror(game: Game) -> random.Random:
    """A generator in the game generator's state: what its next draws will be."""
    copy = random.Random()
    copy.setstate(game.rng.getstate())
    return copy


def events_of(res: RuleResult, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in res.events if e.type == type_]


def npc(game: Game, proto: str, area: str, level: int = 1, **overrides: Any) -> Npc:
    return spawn_npc(game, proto, area, level, **overrides)


def rule(game: Game, name: str) -> Any:
    return next(r for r in game.step_rules if r.name == name)
