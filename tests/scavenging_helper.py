"""Stages for the tests of the bundled packs `scavenging` and `lockpicking` (remnant's settings).

`scrapyard` (tests/data/worlds/scrapyard) is a small world that names both packs: food (with and
without `hp_restore`, edible by category, by usage and by `hp_restore` alone), recipes with every
kind of quantity the salvage table distinguishes, a container and a writable with recipes, a dart
with an `attack_power`, remnant's two picking tools (usage `unlock`, matched by definition id), a
merchant, a craftsman and two enemies. `remnant_world` writes AgentOdyssey's remnant world from the
user's copy with the two undefined ids patched (as the importer does) and both packs named.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from harness import DATA, blank_game, restage

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext

SCRAPYARD = DATA / "worlds" / "scrapyard"
GATE, HEAP, SHED, DOOR = "area_yard_gate", "area_yard_heap", "area_yard_shed", "area_strong_door"
# remnant's settings of the lockpick rule (its tools are matched by definition id).
REMNANT_LOCKPICK = {
    "lockpick": "obj_lockpick",
    "wrench": "obj_tension_wrench",
    "tools_by_id": True,
    "tool_in_events": False,
    "hurt_event": True,
}
REMNANT_FILE = "assets/world_definitions/generated/remnant/default.json"


def yard(seed: int = 0, reuse: Game | None = None, agents: int = 1, at: str = GATE) -> Game:
    """The scrapyard cleared (no objects; no NPCs, even off the map, so the next NPC of each
    prototype is `<name>_0`), every agent at `at` (`reuse`: a game to reset instead of building a
    new one)."""
    if reuse is None:
        game = blank_game(SCRAPYARD, agents=agents, seed=seed, at=at)
    else:
        game = reuse
        restage(game, seed)
        for body in game.agents.values():
            game.move_agent(body, at)
    for npc_id in list(game.world.npcs):
        game.world.delete_npc(npc_id)
    game.world.npc_count.clear()
    return game


def mirror(game: Game) -> random.Random:
    """A generator in the game's state: what the next draws will be."""
    copy_ = random.Random()
    copy_.setstate(game.rng.getstate())
    return copy_


def pack_module(game: Game, verb: str, module: str | None = None) -> ModuleType:
    """The module of the game's rule for `verb`, or another module of the same pack."""
    name = type(game.engine.rules[verb]).__module__
    if module is not None:
        name = f"{name.rsplit('.', 1)[0]}.{module}"
    return sys.modules[name]


def listed(game: Game, verb: str, agent_id: str = "agent_0") -> list[tuple[str, ...]]:
    ctx = RuleContext(game, game.world, game.agents[agent_id], verb, (), game.tick_index)
    return game.engine.rules[verb].valid_params(ctx)


def mask_targets(game: Game, verb: str, agent_id: str = "agent_0") -> list[tuple[Any, tuple]]:
    ctx = RuleContext(game, game.world, game.agents[agent_id], verb, (), game.tick_index)
    return game.engine.rules[verb].mask_targets(ctx)


def equip_sack(game: Game, contents: dict[str, int], agent_id: str = "agent_0") -> str:
    """A fresh sack holding `contents` (plain ids), worn as the agent's inventory; its id."""
    cid = game.world.new_instance("obj_sack")
    game.world.containers[cid].items.update(contents)
    body = game.agents[agent_id]
    body.equipped[cid] = 1
    body.inventory_id = cid
    return cid


def remnant_raw(published: Any) -> dict[str, Any]:
    """AgentOdyssey's remnant world, read from the user's copy, with its two undefined ids made
    harmless as the importer does (the NPC item removed, the ingredient given a placeholder
    definition), no quests, and the two packs named with remnant's lockpick settings."""
    raw = copy.deepcopy(published.read_json(REMNANT_FILE))
    for npc in raw["entities"]["npcs"]:
        npc["objects"] = [o for o in npc.get("objects", []) if o != "obj_stone_chunk"]
    raw["entities"]["objects"].append(
        {
            "type": "object",
            "id": "obj_wooden_strip",
            "name": "unknown",
            "category": "material",
            "usage": "craft",
            "size": 1,
            "value": 0,
            "quest": True,
            "areas": [],
            "craft": {"ingredients": {}, "dependencies": []},
        }
    )
    raw["initializations"]["undistributable_objects"].append("obj_wooden_strip")
    raw["custom_events"] = []
    raw["features"] = {
        "rule_packs": ["scavenging", "lockpicking"],
        "rule_settings": {"lockpick": dict(REMNANT_LOCKPICK)},
    }
    return raw


def remnant_world(published: Any, folder: Path) -> Path:
    """`remnant_raw` written as `folder/world.json`; returns the folder (a world path)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "world.json").write_text(json.dumps(remnant_raw(published)), encoding="utf-8")
    return folder
