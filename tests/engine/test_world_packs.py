"""World packs: how `Game` finds a world, and what a world folder brings.

A world is a JSON file, a folder (world.json, optional quests.json, optional rules/ pack), a
bundled world's name, or "default". The test folder `tests/data/worlds/packdemo/` has a two-area
harbour, a one-stage main quest in quests.json (walk into the shed), and a rules/ pack with an init
rule (counts its runs in world_state, records the tick it ran at, puts three shells on the spawn
ground) and a verb `stamp <word>` that writes world_state through `set_world_state`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest
from harness import DATA, TINY

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import game_state_data, state_hash
from agentodyssey_pz.engine.worldpack import load_world_pack
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.observe.text import tick_observation
from agentodyssey_pz.resources import DEFAULT_WORLD, resolve_world_file, rules_dir
from agentodyssey_pz.world.validate import load_definition, parse_definition

PACKDEMO = DATA / "worlds" / "packdemo"


def changes(result: Any) -> list[tuple[str | None, dict[str, Any]]]:
    return [(e.agent_id, e.data) for e in result.events if e.type == "world_state_changed"]


def demo(agents: int = 2, seed: int = 0) -> tuple[Game, Any]:
    game = Game(PACKDEMO, agents)
    return game, game.reset(seed)


# ------------------------------------------------------------------------------ finding a world
def test_a_json_file() -> None:
    game = Game(TINY, 1)
    assert (game.pack.name, game.pack.rule_packs, game.pack.quest_data) == ("tiny_world", (), None)
    assert game.pack.definition == load_definition(TINY)
    game.reset(0)
    assert game.world.spawn_area == "area_gate"


def test_a_folder_given_as_path_or_string_or_its_world_json() -> None:
    packs = [
        load_world_pack(PACKDEMO),
        load_world_pack(str(PACKDEMO)),
        load_world_pack(PACKDEMO / "world.json"),
    ]
    for pack in packs:
        assert pack.name == "packdemo"
        assert pack.rule_packs == (str(PACKDEMO / "rules"),)
        assert pack.quest_data == json.loads((PACKDEMO / "quests.json").read_text(encoding="utf-8"))
        assert pack.definition == packs[0].definition


@pytest.mark.parametrize("name", ["default", DEFAULT_WORLD])
def test_a_bundled_name_and_default(name: str) -> None:
    game = Game(name, 1)
    assert game.pack.name == DEFAULT_WORLD
    assert game.pack.definition == load_definition(resolve_world_file(DEFAULT_WORLD))
    assert game.pack.source == str(resolve_world_file(DEFAULT_WORLD))
    game.reset(0)
    assert game.tick_index == 0


def test_an_unknown_world_names_the_bundled_ones() -> None:
    with pytest.raises(FileNotFoundError, match=f"default.*{DEFAULT_WORLD}"):
        Game("no_such_world", 1)


@pytest.mark.parametrize("source", ["file", "folder", "definition", "procgen"])
def test_a_world_plays_with_the_bundled_packs_it_names(source: str, tmp_path: Path) -> None:
    """`features.rule_packs` names bundled packs (rules/<name>/), whatever form the world takes;
    they load after the base pack and before the world folder's own."""
    raw = json.loads(Path(TINY).read_text(encoding="utf-8"))
    raw.setdefault("features", {})["rule_packs"] = ["lockpicking"]
    (tmp_path / "world.json").write_text(json.dumps(raw), encoding="utf-8")
    world: Any = {
        "file": tmp_path / "world.json",
        "folder": tmp_path,
        "definition": parse_definition(raw),
        "procgen": "procgen:small:3",
    }[source]
    game = Game(world, 1)
    assert game.pack.rule_packs[0] == str(rules_dir() / "lockpicking")
    assert "lockpick" in game.engine.rules and "lockpick" in game.engine.verb_list
    assert "lockpick" not in Game(TINY, 1).engine.rules


def test_a_definition_built_in_code_cannot_name_a_path_as_a_pack() -> None:
    """The loader refuses such a name; a definition built in code is checked again at use."""
    definition = load_definition(TINY)
    bad = attrs.evolve(
        definition, features=attrs.evolve(definition.features, rule_packs=("../packs",))
    )
    with pytest.raises(ConfigError, match="not a bundled rule pack"):
        Game(bad, 1)


def test_a_folder_without_rules_or_quests(tmp_path: Path) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    shutil.copy(PACKDEMO / "world.json", folder / "world.json")
    game = Game(folder, 1)
    assert (game.pack.rule_packs, game.pack.quest_data) == ((), None)
    assert "stamp" not in game.engine.rules and game.init_rules == []
    game.reset(0)
    assert game.world_state == {}


# ------------------------------------------------------------------------------ the folder's pack
def test_the_quests_file_drives_the_main_quest() -> None:
    game, _ = demo()
    assert game.quests.main_quest.title == "The Demo Errand"
    result = game.tick({"agent_0": "enter shed", "agent_1": "wait"})
    assert [e.type for e in result.events_of("agent_0")] == [
        "area_entered", "quest_stage_advanced", "main_quest_complete",
    ]  # fmt: skip
    assert result.terminated


def test_the_pack_verb_dispatches_and_writes_world_state() -> None:
    game, _ = demo()
    assert "stamp" in game.engine.rules
    result = game.tick({"agent_0": "stamp ahoy", "agent_1": "wait"})
    assert (result.invalid["agent_0"], result.action_ok["agent_0"]) == (False, True)
    assert result.feedback_keys("agent_0") == ["stamp.done"]
    assert changes(result) == [
        ("env", {"key": "stamp", "old": None, "new": "ahoy"}),
        ("env", {"key": "stamps", "old": None, "new": 1}),
    ]
    result = game.tick({"agent_0": "wait", "agent_1": 'stamp "fair winds"'})
    assert changes(result) == [
        ("env", {"key": "stamp", "old": "ahoy", "new": "fair winds"}),
        ("env", {"key": "stamps", "old": 1, "new": 2}),
    ]
    assert game.world_state == {"init_runs": 1, "init_tick": -1, "stamp": "fair winds", "stamps": 2}


def test_the_pack_verb_is_listed_after_the_base_verbs() -> None:
    game, _ = demo()
    actions = valid_actions(game, "agent_0")
    assert list(actions)[-2:] == ["wait", "stamp"] and actions["stamp"] == ["stamp ahoy"]


def test_the_init_rule_runs_once_after_reset_before_the_first_observation() -> None:
    game, boot = demo()
    assert boot.bootstrap
    assert changes(boot) == [
        ("env", {"key": "init_runs", "old": None, "new": 1}),
        ("env", {"key": "init_tick", "old": None, "new": -1}),  # during the bootstrap tick
    ]
    first = tick_observation(
        game, "agent_0", boot.feedback("agent_0"), bootstrap=True, terminated=False
    )
    assert "On the ground here I see: 2 coin, 3 shell." in first
    for _ in range(5):
        result = game.tick({"agent_0": "wait", "agent_1": "wait"})
        assert changes(result) == []
    assert game.world_state["init_runs"] == 1
    assert game.world.areas[game.world.spawn_area].objects["obj_demo_shell"] == 3
    # A new episode starts from an empty world_state: the rule runs once again, not twice.
    boot = game.reset(1)
    assert game.world_state == {"init_runs": 1, "init_tick": -1}
    assert [data["key"] for _, data in changes(boot)] == ["init_runs", "init_tick"]


def test_world_state_is_part_of_the_game_state_and_its_hash() -> None:
    one, _ = demo()
    two, _ = demo()
    assert game_state_data(one)["world_state"] == {"init_runs": 1, "init_tick": -1}
    assert state_hash(one) == state_hash(two)
    one.tick({"agent_0": "stamp ahoy", "agent_1": "wait"})
    two.tick({"agent_0": "stamp ahoy", "agent_1": "wait"})
    assert game_state_data(one)["world_state"]["stamp"] == "ahoy"
    assert state_hash(one) == state_hash(two)
    one.tick({"agent_0": "stamp alpha", "agent_1": "wait"})
    two.tick({"agent_0": "stamp omega", "agent_1": "wait"})
    data_one, data_two = game_state_data(one), game_state_data(two)
    assert (
        data_one["world_state"]["stamp"] == "alpha" and data_two["world_state"]["stamp"] == "omega"
    )
    assert {k: v for k, v in data_one.items() if k != "world_state"} == {
        k: v for k, v in data_two.items() if k != "world_state"
    }
    assert state_hash(one) != state_hash(two)  # world_state alone tells them apart
    json.dumps(data_one["world_state"])  # plain JSON
