"""A world is checked as a whole, as playing it loads it: its definition, its quest data (a
folder's quests.json or inline `quests`) and the default quest sections its custom events pull in.
Every problem names the file that holds it and its JSON path; unreadable JSON (huge numbers, deep
nesting) is a data error naming the file, never a bare ValueError or RecursionError.

docs/world-format.md: extra fields, custom events
(docs/world-format.md#9-features-and-custom-events) and
docs/world-format.md#common-mistakes-the-validator-catches.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from conftest import load_raw

from agentodyssey_pz.cli import main as cli_main
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.worldpack import check_world, load_world_pack
from agentodyssey_pz.errors import QuestDataError, WorldDefinitionError
from agentodyssey_pz.world.validate import MAX_JSON_DEPTH, check_definition, parse_definition

BAD_MAIN_QUEST = {"main_quest": {"title": "x"}}


def write_world(folder: Path, raw: dict[str, Any], quests: Any = None) -> Path:
    """A world folder holding `raw` as world.json (and `quests` as quests.json when given)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "world.json").write_text(json.dumps(raw), encoding="utf-8")
    if quests is not None:
        (folder / "quests.json").write_text(json.dumps(quests), encoding="utf-8")
    return folder


def without_currency(events: list[str]) -> dict[str, Any]:
    """The tiny world with its coin turned into a plain material: no currency object at all."""
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"][0]["category"] = "material"
    raw["entities"]["objects"][0]["usage"] = "craft"
    raw["custom_events"] = events
    return raw


def run_validate(world: Path | str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli_main(["validate", str(world)])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ 1. validate checks quests
def test_validate_refuses_a_folder_whose_quest_data_cannot_load(tmp_path, capsys) -> None:
    folder = write_world(tmp_path / "w", load_raw("tiny_world.json"), BAD_MAIN_QUEST)
    code, out, err = run_validate(folder, capsys)
    quests = folder / "quests.json"
    assert code == 1
    assert "valid" not in out
    assert f"error: {quests}: $.main_quest.guide: missing required key" in err
    assert f"error: {quests}: $.main_quest.chapters: missing required key" in err
    assert f"{folder / 'world.json'}: 2 error(s); the world cannot be loaded" in err


def test_validate_refuses_side_quests_in_a_world_without_currency(tmp_path, capsys) -> None:
    path = tmp_path / "poor.json"
    path.write_text(json.dumps(without_currency(["side_quest"])), encoding="utf-8")
    code, out, err = run_validate(path, capsys)
    assert code == 1
    assert "valid" not in out
    line = next(x for x in err.splitlines() if x.startswith("error:"))
    # In the world's own file (no other file named), at the event that pulled the section in.
    assert line.startswith("error: $.custom_events[0]: 'side_quest' uses the default side_quests ")
    assert "side_quests.json" in line
    assert "no object of category 'currency'" in line
    assert f"{path}: 1 error(s); the world cannot be loaded" in err


def test_validate_refuses_inline_quest_data_with_its_path_in_the_world_file(
    tmp_path, capsys
) -> None:
    raw = load_raw("tiny_world.json")
    raw["quests"] = BAD_MAIN_QUEST
    path = tmp_path / "inline.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    code, _, err = run_validate(path, capsys)
    assert code == 1
    assert "error: $.quests.main_quest.guide: missing required key" in err


def test_validate_still_accepts_a_folder_with_good_quest_data(tmp_path, capsys) -> None:
    raw = load_raw("tiny_world.json")
    raw["custom_events"] = ["side_quest"]
    folder = write_world(tmp_path / "w", raw)
    code, out, err = run_validate(folder, capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == f"{folder / 'world.json'}: valid"


# ------------------------------------------------------------------ 2. the right file is named
def test_quest_errors_of_a_folder_world_name_its_quests_json(tmp_path) -> None:
    folder = write_world(tmp_path / "w", load_raw("tiny_world.json"), BAD_MAIN_QUEST)
    for load in (load_world_pack, Game):
        with pytest.raises(QuestDataError) as info:
            load(folder)
        assert info.value.source == str(folder / "quests.json")
        assert [p.path for p in info.value.problems] == [
            "$.main_quest.guide",
            "$.main_quest.chapters",
        ]
        assert str(info.value).startswith(f"invalid quest data in {folder / 'quests.json'}:")


def test_a_world_lacking_what_a_default_section_needs_is_blamed_not_the_defaults(
    tmp_path,
) -> None:
    path = tmp_path / "poor.json"
    path.write_text(json.dumps(without_currency(["main_quest", "side_quest"])), encoding="utf-8")
    with pytest.raises(QuestDataError) as info:
        Game(path)
    assert info.value.source == str(path)
    (problem,) = info.value.problems
    assert problem.path == "$.custom_events[1]"
    assert "'side_quest' uses the default side_quests section" in problem.message
    assert (
        "whose $.rewards needs what this world lacks: side quests pay in the world's currency"
        in problem.message
    )
    # The same report from `check_world`, which `validate` prints.
    report = check_world(path)
    assert report.definition is None
    assert report.errors == [(str(path), problem)]


def test_a_default_section_turned_on_by_the_game_config_also_blames_the_world(
    tmp_path,
) -> None:
    from agentodyssey_pz.engine.config import GameConfig

    path = tmp_path / "poor.json"
    path.write_text(json.dumps(without_currency([])), encoding="utf-8")
    with pytest.raises(QuestDataError) as info:
        Game(path, 1, GameConfig(side_quest=True))
    assert info.value.source == str(path)
    assert [p.path for p in info.value.problems] == ["$"]
    assert info.value.problems[0].message.startswith(
        "the game's setting side_quest=True uses the default side_quests section ("
    )
    assert "whose $.rewards needs what this world lacks" in str(info.value)


def test_the_default_tutorial_never_refuses_a_world_it_cannot_serve(caplog) -> None:
    """It is switched off with a warning instead (docs/world-format.md#113-tutorial); `validate` and
    loading both go on."""
    from agentodyssey_pz.engine.config import GameConfig

    caplog.set_level(logging.WARNING, "agentodyssey_pz.world")
    tiny = Path(__file__).resolve().parents[1] / "data" / "tiny_world.json"
    game = Game(tiny, 1, GameConfig(tutorial=True))
    assert game.quests.tutorial is None
    assert "the game's setting tutorial=True uses the default tutorial section" in caplog.text
    assert "so the tutorial is switched off: $.roles.furnace: no furnace given" in caplog.text


def test_quest_data_that_is_not_json_is_a_quest_data_error_naming_quests_json(tmp_path) -> None:
    folder = write_world(tmp_path / "w", load_raw("tiny_world.json"))
    (folder / "quests.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(QuestDataError) as info:
        Game(folder)
    assert info.value.source == str(folder / "quests.json")
    assert "not valid JSON" in info.value.problems[0].message


# ------------------------------------------------------------------ 3. unreadable JSON
def test_a_number_too_long_to_convert_is_a_definition_error_naming_the_file(
    tmp_path, capsys
) -> None:
    path = tmp_path / "huge.json"
    text = json.dumps(load_raw("tiny_world.json"), indent=1)
    path.write_text(text.replace('"size": 0', '"size": ' + "9" * 5000, 1), encoding="utf-8")
    with pytest.raises(WorldDefinitionError) as info:
        Game(path)
    assert info.value.source == str(path)
    (problem,) = info.value.problems
    assert problem.path == "$"
    assert "has 5000 digits (at most" in problem.message
    assert "line " in problem.message
    code, _, err = run_validate(path, capsys)
    assert code == 1
    assert "has 5000 digits" in err
    assert f"{path}: 1 error(s)" in err


@pytest.mark.parametrize("depth", [100_000, MAX_JSON_DEPTH + 1])
def test_deeply_nested_json_is_a_definition_error_not_a_recursion_error(
    tmp_path, capsys, depth: int
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "]" * depth, encoding="utf-8")
    with pytest.raises(WorldDefinitionError) as info:
        load_world_pack(path)
    assert info.value.source == str(path)
    assert "nested" in info.value.problems[0].message
    code, _, err = run_validate(path, capsys)
    assert code == 1
    assert "Traceback" not in err
    assert "error: $: lists and objects are nested" in err


def test_deeply_nested_quest_data_is_a_quest_data_error(tmp_path) -> None:
    folder = write_world(tmp_path / "w", load_raw("tiny_world.json"))
    (folder / "quests.json").write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    with pytest.raises(QuestDataError) as info:
        Game(folder)
    assert info.value.source == str(folder / "quests.json")
    assert "nested" in info.value.problems[0].message


# ------------------------------------------------------------------ 4. unknown fields, empty ids
def test_a_misspelt_craft_field_is_a_warning_with_a_suggestion(tmp_path, capsys, caplog) -> None:
    raw = load_raw("tiny_world.json")
    craft = raw["entities"]["objects"][3]["craft"]  # obj_cider
    craft["ingrediants"] = craft.pop("ingredients")
    definition, problems = check_definition(raw)
    assert definition is not None  # extras are accepted: the world still loads
    (warning,) = [p for p in problems if "ingrediants" in p.message]
    assert warning.severity == "warning"
    assert warning.path == "$.entities.objects[3].craft.ingrediants"
    assert warning.message == (
        "object 'obj_cider': unknown field 'ingrediants' in its craft recipe "
        "(did you mean 'ingredients'?): it is ignored, so the object cannot be crafted"
    )
    with caplog.at_level(logging.WARNING, logger="agentodyssey_pz.world"):
        parse_definition(raw, source="w.json")
    assert "w.json: $.entities.objects[3].craft.ingrediants: object 'obj_cider'" in caplog.text
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    code, out, _ = run_validate(path, capsys)
    assert code == 0
    assert f"warning: {warning}" in out.splitlines()


@pytest.mark.parametrize(
    ("where", "key", "path", "fragment"),
    [
        (("entities", "places", 0), "unlockd", "$.entities.places[0].unlockd", "'unlocked'"),
        (("initializations", "spawn"), "objets", "$.initializations.spawn.objets", "'objects'"),
        (("entities",), "npc", "$.entities.npc", "'npcs'"),
        ((), "custom_event", "$.custom_event", "'custom_events'"),
    ],
)
def test_unknown_fields_of_fixed_records_are_warnings(where, key, path, fragment) -> None:
    raw = load_raw("tiny_world.json")
    record = raw
    for step in where:
        record = record[step]
    record[key] = 1
    definition, problems = check_definition(raw)
    assert definition is not None
    (warning,) = [p for p in problems if p.path == path]
    assert warning.severity == "warning"
    assert f"(did you mean {fragment}?)" in warning.message


def test_object_extras_are_kept_silently_unless_they_look_misspelt() -> None:
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"][8]["glint"] = "silver"  # an extra attribute
    raw["entities"]["objects"][9]["defence"] = 2  # apron: 'defense' misspelt
    _, problems = check_definition(raw)
    assert [(p.path, p.severity) for p in problems] == [
        ("$.entities.objects[9].defence", "warning")
    ]
    assert "unknown field 'defence' (did you mean 'defense'?)" in problems[0].message


def test_an_empty_id_is_itself_reported(capsys, tmp_path) -> None:
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"][7]["id"] = ""  # quill: referenced nowhere else
    _, problems = check_definition(raw)
    assert ("$.entities.objects[7].id", "object id must not be empty") in [
        (p.path, p.message) for p in problems if p.severity == "error"
    ]
    path = tmp_path / "empty_id.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    code, _, err = run_validate(path, capsys)
    assert code == 1
    assert "error: $.entities.objects[7].id: object id must not be empty" in err


# ------------------------------------------------------------------ 5. empty folder
def test_an_empty_folder_is_named_as_lacking_world_json(tmp_path, capsys) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    code, _, err = run_validate(folder, capsys)
    assert code == 1
    assert f"error: no world.json in {folder}" in err
    with pytest.raises(FileNotFoundError, match=f"no world.json in {folder}"):
        Game(folder)


def test_validate_takes_procedural_worlds_like_the_env(capsys) -> None:
    code, out, _ = run_validate("procgen:small:7", capsys)
    assert code == 0 and "procgen:small:7: valid" in out
    code, _, err = run_validate("small", capsys)
    assert code == 1 and "the procedural world of that name is 'procgen:small'" in err
    code, _, err = run_validate("procgen:bogus", capsys)
    assert code == 1 and "'procgen:bogus' is not 'procgen:<preset>[:<seed>]'" in err


def test_an_npc_instance_never_takes_another_npcs_name(tiny_definition) -> None:
    """`add_npc` gives an instance whose name is taken the next free number of that name."""
    import attrs

    from agentodyssey_pz.world.world import World

    world = World.generate(tiny_definition, 0)
    some = next(iter(world.npcs.values()))
    stem = some.name.rsplit("_", 1)[0] if some.name[-1].isdigit() else some.name
    clone = attrs.evolve(some, id="npc_quest_copy_0", area_id=None)
    world.add_npc(clone, None)
    assert clone.name != some.name and clone.name.startswith(f"{stem}_")
    assert world.npc_name_to_id[some.name] == some.id
    assert world.npc_name_to_id[clone.name] == clone.id
    assert world.free_npc_name("brand_new") == "brand_new_0"
