"""Small main quests on the tiny world, for testing the quest engine's features one at a time.

`quest_game` writes the tiny world (with fixed light: the gate and the vats lit, the rows and the
vault dark) and a main quest made of the given stages, setup, bosses and NPCs into a folder, and
returns a reset game. The quest NPCs below are always added: a guide, an enemy brute (non-unique,
with a combat rhythm), a friendly fence (a merchant) and a unique quest hermit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from harness import TINY

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.resources import rules_dir
from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.world.quest_records import QUEST_CONVERTER, Condition

GATE, ROWS, VATS, VAULT = "area_gate", "area_rows", "area_vats", "area_vault"
GUIDE = {"npc": "npc_q_guide", "names": ["Ada", "Bram", "Cleo", "Dov", "Eli"]}
NPCS = [
    {"id": "npc_q_guide", "name": "q_guide", "role": "guide", "enemy": False, "unique": False},
    {
        "id": "npc_q_brute",
        "name": "brute",
        "role": "bandit",
        "enemy": True,
        "unique": False,
        "objects": ["obj_pear", "obj_pear", "obj_label"],
        "base_hp": 40,
        "slope_hp": 10,
        "base_attack_power": 5,
        "slope_attack_power": 2,
        "combat_pattern": ["attack", "wait"],
    },
    {
        "id": "npc_q_fence",
        "name": "fence",
        "role": "merchant",
        "enemy": False,
        "unique": True,
        "objects": ["obj_cider"],
    },
    {"id": "npc_q_hermit", "name": "hermit", "role": "sage", "enemy": False, "unique": True},
]
# A stage that never completes (it waits for itself).
STAY = {
    "id": "stay",
    "objective": "Stay.",
    "done_all": [{"kind": "stage_completed", "stage": "stay"}],
}


def tiny_world() -> dict[str, Any]:
    world = json.loads(Path(TINY).read_text(encoding="utf-8"))
    lights = {GATE: True, ROWS: False, VATS: True, VAULT: False}
    for place in world["entities"]["places"]:
        for area in place["areas"]:
            area["light"] = lights[area["id"]]
    world["custom_events"] = ["main_quest"]
    return world


def quest_data(
    stages: list[dict[str, Any]],
    *,
    setup: list[dict[str, Any]] | None = None,
    bosses: dict[str, Any] | None = None,
    npcs: list[dict[str, Any]] | None = None,
    guide: dict[str, Any] | None = None,
    chapters: list[dict[str, Any]] | None = None,
    objects: list[dict[str, Any]] | None = None,
    undistributable: list[str] | None = None,
) -> dict[str, Any]:
    """A main quest section: one chapter of `stages` (a last stage that never completes added,
    with `quest_complete`), unless `chapters` are given."""
    if chapters is None:
        last = {**STAY, "quest_complete": True}
        chapters = [{"id": "one", "title": "One", "stages": [*stages, last]}]
    return {
        "title": "Tests",
        "guide": guide or GUIDE,
        "npcs": NPCS + (npcs or []),
        "objects": objects or [],
        "undistributable": undistributable or [],
        "setup": setup or [],
        "bosses": bosses or {},
        "chapters": chapters,
    }


def quest_game(
    tmp_path: Path,
    stages: list[dict[str, Any]],
    *,
    agents: int = 1,
    seed: int = 0,
    world: dict[str, Any] | None = None,
    config: dict[str, Any] | None = None,
    **quest: Any,
) -> Game:
    """A reset game of the tiny world with the quest; every agent's quest has begun (the
    bootstrap tick begins it) and every agent stands at the gate."""
    (tmp_path / "world.json").write_text(json.dumps(world or tiny_world()), encoding="utf-8")
    data = {"main_quest": quest_data(stages, **quest)}
    (tmp_path / "quests.json").write_text(json.dumps(data), encoding="utf-8")
    game = Game(tmp_path / "world.json", agents, GameConfig(**(config or {})))
    game.reset(seed)
    return game


def waits(game: Game, **actions: str) -> dict[str, str]:
    """Every agent waits, except those given a command."""
    return {agent_id: actions.get(agent_id, "wait") for agent_id in game.agents}


def progress(game: Game, agent_id: str = "agent_0") -> dict[str, Any]:
    return game.agents[agent_id].progress["main_quest"]


def completed(game: Game, agent_id: str = "agent_0") -> list[str]:
    return list(progress(game, agent_id)["completed"])


def variables(game: Game) -> dict[str, Any]:
    return game.world.auxiliary["main_quest"]["vars"]


def base_module(game: Game, name: str) -> ModuleType:
    """A module of the base rule pack as the game loaded it (`conditions`, `quest_bosses` ...)."""
    namespace = game.rule_set.namespace_of(rules_dir() / "base")
    assert namespace is not None
    return sys.modules[f"{namespace}.{name}"]


def holds(game: Game, raw: dict[str, Any], agent_id: str = "agent_0", res: Any = None) -> bool:
    """Whether a condition (as written in quest data) holds for the agent now, judged as the main
    quest judges it (its variables, its progress, the quest's shared state; `res`: this tick's
    events, none by default)."""
    conditions = base_module(game, "conditions")
    state = game.world.auxiliary["main_quest"]
    own = progress(game, agent_id)
    scope = conditions.QuestScope(
        game.world,
        game.agents[agent_id],
        res if res is not None else RuleResult(game.agent_ids),
        state["vars"],
        own,
        own["bosses_defeated"],
        {"guide": own.get("guide")},
        state,
    )
    return bool(conditions.holds(QUEST_CONVERTER.structure(raw, Condition), scope))
