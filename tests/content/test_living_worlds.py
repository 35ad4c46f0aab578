"""The `living_world` and `shifting_paths` packs as whole games: the rule order of remnant and
mark, the guide's tables and mark's settings object (docs/rule-packs.md#bundled-packs), the
audit of the test world (exact masks, replay, another process, resume), and AgentOdyssey's own
remnant and mark worlds read from the user's copy, with their undefined ids patched as
docs/agentodyssey-games.md#ids-that-nothing-defines says (tests skip without a copy).
"""

from __future__ import annotations

import json
import random
import re
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from harness import state_of
from living_helper import LIVING, living_definition, stage

from agentodyssey_pz.audit import audit
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import CheckpointError
from agentodyssey_pz.resources import rules_dir
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.schema import WorldDefinition, definition_to_dict
from agentodyssey_pz.world.validate import parse_definition

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "rule-packs.md"
MARK_SETTINGS = re.compile(r"<!-- mark-rule-settings -->\n```json\n(?P<json>.*?)```", re.S)
RULES_TABLE = re.compile(r"<!-- living-world-rules -->\n(?P<table>.*?)<!-- /", re.S)
ROW = re.compile(r"^\| (?P<priority>\d+) \| `(?P<name>\w+)` \|", re.M)
# The order of step rules in a tick (AgentOdyssey's games; our quest rules have the base names;
# docs/mechanics/step-rules.md#order-of-the-step-rules).
REMNANT_ORDER = [
    "agent_attack_update_step", "tutorial_room_step", "combat_rhythm_step", "main_quest_step",
    "side_quest_step", "day_cycle_step", "food_respawn_step", "forgotten_caches_step",
    "carrion_scavengers_step", "continuous_crafting_momentum_step", "new_craftable_feedback_step",
    "rumor_mill_step", "soundscape_pressure_step", "wandering_patrols_step", "active_attack_step",
    "shifting_paths_step", "death_and_respawn_step", "enemy_respawn_step", "world_expansion_step",
]  # fmt: skip
MARK_ORDER = [name for name in REMNANT_ORDER if name != "shifting_paths_step"]


def mark_settings() -> dict[str, Any]:
    match = MARK_SETTINGS.search(GUIDE.read_text(encoding="utf-8"))
    assert match is not None
    return json.loads(match["json"])


def test_remnant_and_mark_run_their_rules_in_agentodysseys_order() -> None:
    assert [r.name for r in stage().step_rules] == REMNANT_ORDER
    mark = stage(world=living_definition(rule_packs=["living_world"]))
    assert [r.name for r in mark.step_rules] == MARK_ORDER


def test_the_guides_table_is_the_packs_rules() -> None:
    table = RULES_TABLE.search(GUIDE.read_text(encoding="utf-8"))
    assert table is not None
    rows = [(int(m["priority"]), m["name"]) for m in ROW.finditer(table["table"])]
    game = stage(world=living_definition(rule_packs=["living_world"]))
    namespace = game.rule_set.namespace_of(rules_dir() / "living_world")
    assert namespace is not None
    pack = [r for r in game.step_rules if type(r).__module__.startswith(namespace + ".")]
    assert rows == [(r.priority, r.name) for r in pack]


def test_marks_settings_object_sets_every_number() -> None:
    settings = mark_settings()
    game = stage(world=living_definition(rule_packs=["living_world"], rule_settings=settings))
    for rule in game.step_rules:
        for key, value in settings.get(rule.name, {}).items():
            assert rule.settings[key] == value
    assert {r.name for r in game.step_rules if r.name in settings} == set(settings)


def test_the_test_world_keeps_every_promise() -> None:
    report = audit(str(LIVING), ticks=160, states=6, seed=3)
    assert report.ok, report.text()
    assert report.resumed == 50


def test_the_test_world_keeps_every_promise_through_the_tutorial() -> None:
    report = audit(str(LIVING), ticks=120, states=4, seed=5, tutorial=True)
    assert report.ok, report.text()


def test_a_saved_game_goes_on_exactly(tmp_path: Path) -> None:
    """Every pack state is in the saved game: a loaded game and the original play on alike."""
    game = Game(LIVING, 3)
    game.reset(7)
    rng = random.Random(1)
    for _ in range(120):
        game.tick({a: random_command(game, a, rng) for a in game.agents})
    game.save(tmp_path / "state.json")
    loaded = Game.load(tmp_path / "state.json")
    for _ in range(150):
        actions = {a: random_command(game, a, rng) for a in game.agents}
        game.tick(actions)
        loaded.tick(actions)
    assert state_of(loaded) == state_of(game)
    assert "modifier_bag" in game.world.auxiliary


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("modifier_bag", {"ambush_prob_override": "often"}, "modifier_bag.ambush_prob_override"),
        ("soundscape", {"noise": {}}, "soundscape.quiet_steps: missing"),
        ("rumor_mill", {"notes": {"obj_paper_9": {"born_step": 1}}}, "notes.obj_paper_9.lifetime"),
        ("day_cycle_info", {"day": 1}, "day_cycle_info.hour: missing"),
    ],
)
def test_an_edited_save_with_bad_pack_state_is_refused(
    key: str, value: Any, problem: str, tmp_path: Path
) -> None:
    game = Game(LIVING, 1)
    game.reset(3)
    for _ in range(5):
        game.tick({"agent_0": "wait"})
    path = tmp_path / "state.json"
    game.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("sha256")  # edited on purpose: no digest to match
    data["state"]["world"]["auxiliary"][key] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CheckpointError, match=re.escape(problem)):
        Game.load(path)


def random_command(game: Game, agent_id: str, rng: random.Random) -> str:
    ctx = RuleContext(game, game.world, game.agents[agent_id], "", (), game.tick_index)
    commands = [c for rule in game.engine.rules.values() for c in rule.valid_commands(ctx)]
    return rng.choice(commands) if commands else "wait"


# ------------------------------------------------------------------- AgentOdyssey's own worlds
def published_world(published: Any, game: str, **features: Any) -> WorldDefinition:
    """AgentOdyssey's world file of `game`, its undefined ids patched (an NPC's item dropped, a
    recipe's ingredient given a placeholder: quest, no areas, undistributable, named `unknown`),
    no quests, with these features."""
    raw = published.read_json(f"assets/world_definitions/generated/{game}/default.json")
    objects = raw["entities"]["objects"]
    defined = {o["id"] for o in objects}
    for npc in raw["entities"]["npcs"]:
        npc["objects"] = [oid for oid in npc.get("objects", []) if oid in defined]
    for obj in list(objects):
        for oid in obj.get("craft", {}).get("ingredients", {}):
            if oid not in defined:
                defined.add(oid)
                objects.append({
                    "type": "object", "id": oid, "name": "unknown", "category": "material",
                    "usage": "craft", "value": 0, "size": 1, "quest": True,
                    "craft": {"ingredients": {}, "dependencies": []},
                })  # fmt: skip
                raw["initializations"]["undistributable_objects"].append(oid)
    raw["custom_events"] = []
    raw["features"] = {"synthesis": game, **features}
    return parse_definition(raw, source=f"agentodyssey {game}")


@pytest.mark.parametrize(
    ("name", "packs", "chances", "foods", "scout"),
    [
        ("remnant", ["living_world", "shifting_paths"], [0.05, 0.10, 0.15, 0.20, 0.25], 7,
         "npc_goblin_warrior"),
        ("mark", ["living_world"], [0.10, 0.20, 0.30], 6, "npc_scrap_goblin"),
    ],
)  # fmt: skip
def test_agentodysseys_worlds_play_with_the_packs(
    published: Any, name: str, packs: list[str], chances: list[float], foods: int, scout: str
) -> None:
    settings = mark_settings() if name == "mark" else {}
    definition = published_world(published, name, rule_packs=packs, rule_settings=settings)
    game = Game(definition, 3)
    game.reset(11)
    ambush = next(r for r in game.step_rules if r.name == "active_attack_step")
    levels = sorted(ambush.chances(game.world))
    assert [ambush.chances(game.world)[L] for L in levels] == pytest.approx(chances)
    food_module = import_module(type(
        next(r for r in game.step_rules if r.name == "food_respawn_step")).__module__)  # fmt: skip
    assert sum(len(areas) for _, areas in food_module.food_places(game.world)) == foods
    common = import_module(food_module.__name__.rsplit(".", 1)[0] + ".common")
    assert common.first_roaming_enemy(game.world).id == scout
    rng, seen = random.Random(2), set()
    for _ in range(400):
        result = game.tick({a: random_command(game, a, rng) for a in game.agents})
        seen |= {e.type for e in result.events}
    assert {"food_respawned", "area_noise_changed", "enemy_respawned"} <= seen
    if name == "remnant":
        assert seen & {"path_temporarily_locked", "path_temporarily_unlocked"}


def test_agentodysseys_remnant_keeps_every_promise(published: Any, tmp_path: Path) -> None:
    definition = published_world(
        published, "remnant", rule_packs=["living_world", "shifting_paths"]
    )
    folder = tmp_path / "remnant"
    folder.mkdir()
    (folder / "world.json").write_text(json.dumps(definition_to_dict(definition)), "utf-8")
    report = audit(str(folder), ticks=150, states=4, seed=2)
    assert report.ok, report.text()
