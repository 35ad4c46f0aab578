"""docs/world-format.md stays true: its example world loads, plays and behaves as documented.

The example world is extracted from the `<!-- file: NAME -->` blocks of the document into a folder,
validated with `agentodyssey-pz validate`, played with masked random actions, and the facts the
document states about it are checked on synthesised worlds: the locked path and its key, the
recipes and their station, the merchant's stock and prices, the enemy's stats and loot, the quest.
Every reference table marked `<!-- fields: Class -->` must list exactly the JSON keys of that schema
class, and every `json` block of the document must parse, so the document cannot drift silently.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

import agentodyssey_pz
from agentodyssey_pz.cli import main as cli_main
from agentodyssey_pz.world import quest_records, schema, side_quest_data, tutorial_data
from agentodyssey_pz.world.strict_json import JSON_KEY
from agentodyssey_pz.world.validate import TOP_LEVEL_KEYS

DOC = Path(__file__).resolve().parents[2] / "docs" / "world-format.md"

FILE_BLOCK = re.compile(r"<!-- file: ([\w.-]+) -->\s*```json\n(.*?)\n```", re.S)
FIELDS_MARKER = re.compile(r"<!-- fields: ([\w ]+) -->\n((?:\|.*\n)+)")
JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.S)

SEEDS = range(6)
RANDOM_TICKS = 300


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def record_classes() -> dict[str, type]:
    """Every record class a reference table may document, by name."""
    classes = [
        *schema.SCHEMA_CLASSES,
        *quest_records.QUEST_RECORDS,
        *side_quest_data.RECORDS,
        tutorial_data.SetupDef,
        tutorial_data.TutorialStep,
        tutorial_data.TutorialNpc,
        tutorial_data.TutorialTexts,
        tutorial_data.TutorialDef,
    ]
    return {cls.__name__: cls for cls in classes}


NOT_JSON = getattr(schema, "NOT_JSON", "not_json")  # metadata of fields outside the format


def json_fields(cls: type) -> set[str]:
    """The JSON keys a record reads (its init fields, renamed ones by their key; not `extras`,
    not fields outside the JSON format)."""
    return {
        f.metadata.get(JSON_KEY, f.name)
        for f in attrs.fields(cls)
        if f.init and f.name != "extras" and not f.metadata.get(NOT_JSON)
    }


def documented_fields(table: str) -> set[str]:
    """The names in a table's first column: each cell's backticked words (`done_all` / `done_any`
    documents both), header and separator rows skipped."""
    names: set[str] = set()
    for row in table.strip().splitlines()[2:]:
        first_cell = row.split("|")[1]
        names.update(re.findall(r"`([^`]+)`", first_cell))
    return names


def reference_tables() -> list[tuple[str, set[str]]]:
    return [(m.group(1), documented_fields(m.group(2))) for m in FIELDS_MARKER.finditer(doc_text())]


@pytest.fixture(scope="module")
def example_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document's example world, written out as a world folder."""
    folder = tmp_path_factory.mktemp("doc_world") / "fernholt"
    folder.mkdir()
    blocks = FILE_BLOCK.findall(doc_text())
    assert [name for name, _ in blocks] == ["world.json", "quests.json"]
    for name, body in blocks:
        (folder / name).write_text(body + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def example_env(example_world: Path) -> Any:
    return agentodyssey_pz.parallel_env(world=str(example_world), num_agents=2, tutorial=False)


# ---------------------------------------------------------------------------- the document itself
def test_every_json_block_of_the_document_parses() -> None:
    blocks = JSON_BLOCK.findall(doc_text())
    assert len(blocks) >= 10
    for body in blocks:
        json.loads(body)


def test_reference_tables_list_exactly_the_schema_fields() -> None:
    classes = record_classes()
    tables = reference_tables()
    documented = {name for name, _ in tables}
    # Every world-definition record has its table (a new one must be documented), and so do the
    # main quest's records.
    expected_tables = {cls.__name__ for cls in schema.SCHEMA_CLASSES} | {
        "MainQuestDef",
        "GuideDef",
        "SetupStep",
        "BossDef",
        "BossModifier",
        "ChapterDef",
        "StageDef",
        "Effect",
        "condition kinds",
    }
    assert expected_tables <= documented
    for name, fields in tables:
        if name == "WorldDefinition":
            # The top level also accepts `quests` (inline quest data), which is no schema field.
            assert fields == set(TOP_LEVEL_KEYS), name
            assert json_fields(schema.WorldDefinition) <= fields
        elif name == "condition kinds":
            assert fields == set(quest_records.CONDITION_KINDS), name
        else:
            assert name in classes, f"the table marked {name!r} names no schema class"
            assert fields == json_fields(classes[name]), name


def test_documented_condition_parameters_match_the_loader() -> None:
    """Each condition row names the kind's required and optional parameters."""
    table = next(
        m.group(2) for m in FIELDS_MARKER.finditer(doc_text()) if m.group(1) == "condition kinds"
    )
    for row in table.strip().splitlines()[2:]:
        cells = row.split("|")
        kind = re.findall(r"`([^`]+)`", cells[1])[0]
        required, optional = quest_records.CONDITION_KINDS[kind]
        params = cells[2]
        before, _, after = params.partition("optional")
        assert set(re.findall(r"`([^`]+)`", before)) == required, kind
        assert set(re.findall(r"`([a-z_]+)`", after)) - {"1"} >= optional, kind


# ---------------------------------------------------------------------------- the example world
def test_example_world_validates(example_world: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["validate", str(example_world)]) == 0
    out = capsys.readouterr()
    assert "valid" in out.out
    assert "warning" not in out.out + out.err


def test_validate_reports_quest_problems_with_the_file_and_path(
    example_world: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As documented: `validate` checks quests.json too, naming the file and the JSON path."""
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "world.json").write_text((example_world / "world.json").read_text())
    quests = json.loads((example_world / "quests.json").read_text())
    quests["main_quest"]["chapters"][0]["stages"][1]["done_all"][0]["area"] = "$crypy"
    (broken / "quests.json").write_text(json.dumps(quests))
    assert cli_main(["validate", str(broken)]) == 1
    err = capsys.readouterr().err
    assert f"{broken / 'quests.json'}: $.main_quest.chapters[0].stages[1].done_all[0].area" in err
    assert "unknown variable '$crypy'" in err


def test_example_world_plays_with_masked_random_actions(example_env: Any) -> None:
    rng = np.random.default_rng(0)
    observations, _ = example_env.reset(seed=11)
    for _ in range(RANDOM_TICKS):
        if not example_env.agents:
            break
        actions = {
            agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
            for agent in example_env.agents
        }
        observations, rewards, *_ = example_env.step(actions)
        assert set(rewards) <= {"agent_0", "agent_1"}
    assert example_env.game.stopped is None


def test_example_recipes_and_station_are_as_written(example_env: Any) -> None:
    example_env.reset(seed=0)
    objects = example_env.game.world.objects
    assert dict(objects["obj_iron_bar"].craft.ingredients) == {"obj_iron_ore": 2}
    assert dict(objects["obj_iron_sword"].craft.ingredients) == {"obj_iron_bar": 2}
    assert dict(objects["obj_crypt_key"].craft.ingredients) == {"obj_iron_bar": 1}
    for product in ("obj_iron_bar", "obj_iron_sword", "obj_crypt_key"):
        assert objects[product].craft.dependencies == ("obj_forge",)
    assert objects["obj_forge"].is_station
    assert objects["obj_crypt_key"].usage == "unlock"


@pytest.mark.parametrize("seed", SEEDS)
def test_example_synthesis_facts_hold_for_every_seed(example_env: Any, seed: int) -> None:
    example_env.reset(seed=seed)
    world = example_env.game.world
    # Two places, five areas; the spawn area is level 1 and holds exactly its listed objects.
    assert len(world.places) == 2 and len(world.areas) == 5
    green = world.areas["area_green"]
    assert green.level == 1 and green.place_id == "place_fernholt"
    coins = {oid: n for oid, n in green.objects.items() if not oid.startswith("obj_satchel_")}
    assert coins == {"obj_coin": 20}
    assert sum(oid.startswith("obj_satchel_") for oid in green.objects) == 1
    # The fixed graph: the smithy-crypt_gate path is locked with crypt_key, the others are open.
    assert world.graph.is_locked("area_smithy", "area_crypt_gate")
    assert world.graph.path("area_smithy", "area_crypt_gate")["key"] == "obj_crypt_key"
    for a, b in (("area_green", "area_smithy"), ("area_green", "area_mine")):
        assert not world.graph.is_locked(a, b)
    assert world.graph.edge_count == 4
    # Local objects: the forge always stands in the smithy, ore lies in the level-2 mine.
    assert world.areas["area_smithy"].objects.get("obj_forge") == 1
    assert world.areas["area_mine"].objects.get("obj_iron_ore", 0) >= 2
    # Rat tails come only from rats (undistributable).
    assert all("obj_rat_tail" not in area.objects for area in world.areas.values())
    # The merchant stands at spawn and sells at least one of each listed object.
    brenna = world.npcs["npc_smith_brenna"]
    assert brenna.area_id == "area_green" and brenna.role == "merchant"
    assert set(brenna.inventory) == {"obj_iron_ore", "obj_leather_cap", "obj_crypt_key"}
    assert min(brenna.inventory.values()) >= 1
    assert [
        world.objects[o].value for o in ("obj_iron_ore", "obj_leather_cap", "obj_crypt_key")
    ] == [
        3,
        10,
        12,
    ]
    # Rats: non-unique enemies away from spawn, stats by level, rat tails as loot.
    for npc in world.npcs.values():
        if npc.def_id != "npc_crypt_rat":
            continue
        assert npc.enemy and re.fullmatch(r"crypt_rat_\d+", npc.name)
        assert npc.area_id != "area_green"
        assert npc.max_hp == 30 + 10 * (npc.level - 1)
        assert npc.attack_power == 4 + 2 * (npc.level - 1)
        assert set(npc.inventory) == {"obj_rat_tail"}


def test_example_lock_opens_with_the_key_bought_from_the_merchant(example_env: Any) -> None:
    """One agent carries the coins in the satchel, buys the key and two ore from the smith,
    crafts a bar at the forge and walks through the locked gate, using up the key."""
    example_env.reset(seed=0)
    game = example_env.game
    world = game.world
    satchel = next(o for o in world.areas["area_green"].objects if o.startswith("obj_satchel_"))
    satchel_name = world.name_of(satchel)
    commands = [
        f"pick up {satchel_name}",
        f"equip {satchel_name}",
        "store 20 coin inventory",
        "buy 1 crypt_key smith_brenna",
        "buy 2 iron_ore smith_brenna",
        "store 2 iron_ore inventory",
        "pick up crypt_key",
        "enter smithy",
        "craft 1 iron_bar",
        "enter crypt_gate",
    ]
    for command in commands:
        _, _, _, _, infos = example_env.step({"agent_0": command, "agent_1": "wait"})
        assert infos["agent_0"]["action_ok"], command
    agent = game.agents["agent_0"]
    assert agent.area_id == "area_crypt_gate"
    assert not world.graph.is_locked("area_smithy", "area_crypt_gate")
    assert not world.graph.is_locked("area_crypt_gate", "area_smithy")
    assert "obj_crypt_key" not in agent.hands
    assert world.areas["area_smithy"].objects.get("obj_iron_bar") == 1


def test_example_main_quest_is_loaded_with_its_guides(example_env: Any) -> None:
    example_env.reset(seed=0)
    game = example_env.game
    quest = game.quests.main_quest
    assert quest.title == "The Crypt Bell" and len(quest.chapters) == 1
    assert [s.id for s in quest.chapters[0].stages] == ["arm", "descend", "silence"]
    assert game.quests.side_quests is None and game.quests.tutorial is None
    variables = game.world.auxiliary["main_quest"]["vars"]
    assert variables["crypt"] == "area_ossuary" and variables["currency"] == "obj_coin"
    guides = {n.owner: n for n in game.world.npcs.values() if n.def_id == "npc_quest_sexton"}
    assert guides["agent_0"].name == "Aldo" and guides["agent_1"].name == "Berit"
    assert guides["agent_0"].dialogue.startswith(
        "Forge an iron_sword at Fernholt Village, smithy. (Hint:"
    )
    # Quest NPCs are added to the world as quest NPCs and never placed by synthesis.
    assert game.definition.entities.npcs[-1].id == "npc_boss_bell_ghoul"
    assert all(n.quest for n in game.definition.entities.npcs if n.id.startswith("npc_boss_"))
    assert not any(n.def_id == "npc_boss_bell_ghoul" for n in game.world.npcs.values())
