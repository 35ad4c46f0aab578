"""Published world definitions: quest entities injected in AgentOdyssey's order, ids that nothing
defines repaired (`fix_undefined_ids`), the synthesis variant named.

`fix_undefined_ids` is checked on data built here; `published_world` on the user's copy of
AgentOdyssey (skipped without one). That the repaired definitions synthesise exactly as
AgentOdyssey's own engine does is test_published_parity.py's job.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz.world.published.definition import (
    fix_undefined_ids,
    placeholder_object,
    published_world,
)
from agentodyssey_pz.world.published.games import GAMES, game_spec
from agentodyssey_pz.world.published.locate import PublishedCopy
from agentodyssey_pz.world.validate import check_definition, parse_definition
from agentodyssey_pz.world.world import World


def crafted(oid: str, ingredients: dict[str, float]) -> dict[str, Any]:
    return {"type": "object", "id": oid, "name": oid.removeprefix("obj_"), "category": "weapon",
            "usage": "attack", "value": 5, "size": 2, "attack": 4,
            "craft": {"ingredients": ingredients, "dependencies": []}}  # fmt: skip


def trader(items: list[str]) -> dict[str, Any]:
    return {"type": "npc", "id": "npc_mason", "name": "mason", "role": "craftsman",
            "objects": items}  # fmt: skip


def world_with(tiny_raw: dict[str, Any], objects: list[Any], npcs: list[Any]) -> dict[str, Any]:
    raw = copy.deepcopy(tiny_raw)
    raw["entities"]["objects"] += objects
    raw["entities"]["npcs"] += npcs
    return raw


# ------------------------------------------------------------------ fix_undefined_ids
def test_nothing_to_fix_means_no_warning_and_no_change(tiny_raw: dict[str, Any]) -> None:
    raw = copy.deepcopy(tiny_raw)
    assert fix_undefined_ids(raw) == []
    assert raw == tiny_raw


def test_an_undefined_npc_item_is_removed_with_a_warning(tiny_raw: dict[str, Any]) -> None:
    raw = world_with(tiny_raw, [], [trader(["obj_pear", "obj_chunk", "obj_cider", "obj_chunk"])])
    assert check_definition(copy.deepcopy(raw))[0] is None  # "unknown object" before the fix
    warnings = fix_undefined_ids(raw)
    assert warnings == [
        "NPC 'npc_mason': item 'obj_chunk' is defined nowhere; removed from its objects"
    ]
    assert raw["entities"]["npcs"][-1]["objects"] == ["obj_pear", "obj_cider"]
    assert [o["id"] for o in raw["entities"]["objects"]] == [
        o["id"] for o in tiny_raw["entities"]["objects"]
    ]
    parse_definition(raw)


def test_an_undefined_ingredient_gets_a_placeholder(tiny_raw: dict[str, Any]) -> None:
    raw = world_with(tiny_raw, [crafted("obj_club", {"obj_pear": 1, "obj_strip": 1})], [])
    raw["initializations"]["undistributable_objects"] = ["obj_cider"]
    assert check_definition(copy.deepcopy(raw))[0] is None  # "unknown ingredient" before
    warnings = fix_undefined_ids(raw)
    assert warnings == [
        "object 'obj_strip', an ingredient of 'obj_club', is defined nowhere: added as a "
        "placeholder named 'unknown', so 'obj_club' can never be crafted"
    ]
    placeholder = raw["entities"]["objects"][-1]
    assert placeholder == placeholder_object("obj_strip", set())
    assert {k: placeholder[k] for k in ("id", "name", "category", "value", "quest")} == {
        "id": "obj_strip",
        "name": "unknown",
        "category": "material",
        "value": 0,
        "quest": True,
    }
    assert "areas" not in placeholder and "craft" not in placeholder
    assert raw["initializations"]["undistributable_objects"] == ["obj_cider", "obj_strip"]
    # The recipe keeps its ingredient: the club stays uncraftable.
    assert raw["entities"]["objects"][-2]["craft"]["ingredients"] == {"obj_pear": 1, "obj_strip": 1}
    definition = parse_definition(raw)
    assert definition.entities.objects[-1].quest


def test_an_id_both_item_and_ingredient_is_removed_first_then_defined(
    tiny_raw: dict[str, Any],
) -> None:
    """mark's obj_oak_plank: once the placeholder defines it, an NPC still listing it would draw
    a count for it; removing it first keeps the draws as AgentOdyssey makes them."""
    raw = world_with(
        tiny_raw,
        [crafted("obj_buckler", {"obj_plank": 2})],
        [trader(["obj_pear", "obj_plank", "obj_press"])],
    )
    warnings = fix_undefined_ids(raw)
    assert len(warnings) == 2
    assert warnings[0].startswith("NPC 'npc_mason': item 'obj_plank'")
    assert warnings[1].startswith("object 'obj_plank', an ingredient of 'obj_buckler'")
    assert raw["entities"]["npcs"][-1]["objects"] == ["obj_pear", "obj_press"]
    assert raw["entities"]["objects"][-1]["id"] == "obj_plank"
    parse_definition(raw)


def test_two_placeholders_get_distinct_names(tiny_raw: dict[str, Any]) -> None:
    raw = world_with(tiny_raw, [crafted("obj_club", {"obj_strip": 1, "obj_chunk": 1})], [])
    fix_undefined_ids(raw)
    names = [o["name"] for o in raw["entities"]["objects"][-2:]]
    assert names == ["unknown", "unknown_chunk"]
    parse_definition(raw)


def test_odd_shapes_are_left_to_the_validator(tiny_raw: dict[str, Any]) -> None:
    raw = copy.deepcopy(tiny_raw)
    raw["entities"]["npcs"].append({"id": "npc_odd", "objects": "obj_pear"})
    raw["entities"]["objects"].append({"id": "obj_odd", "craft": []})
    raw["entities"]["objects"].append("not an object")
    assert fix_undefined_ids(raw) == []
    for odd in ({}, {"entities": []}, {"entities": {"objects": {}}}):
        kept = copy.deepcopy(odd)
        assert fix_undefined_ids(odd) == [] and odd == kept
    odd = world_with(tiny_raw, [crafted("obj_club", {"obj_strip": 1})], [])
    odd["initializations"] = "not an object"
    assert len(fix_undefined_ids(odd)) == 1 and odd["initializations"] == "not an object"


@pytest.mark.parametrize("seed", range(20))
def test_the_placeholder_changes_nothing_synthesis_makes(
    tiny_raw: dict[str, Any], seed: int
) -> None:
    """The repaired world synthesises exactly as the same world whose recipe names only defined
    ingredients: the placeholder is in no pool and nothing carries it."""
    fixed = world_with(tiny_raw, [crafted("obj_club", {"obj_pear": 1, "obj_strip": 1})], [])
    fix_undefined_ids(fixed)
    plain = world_with(tiny_raw, [crafted("obj_club", {"obj_pear": 1})], [])
    ours, theirs = (World.generate(parse_definition(r), seed).to_dict() for r in (fixed, plain))
    for data in (ours, theirs):
        del data["definition"]
    assert ours == theirs
    assert "obj_strip" not in str(ours)


# ------------------------------------------------------------------ published_world
# What AgentOdyssey's environment appends to each world (its quests' entities, in order).
INJECTED = {
    "base": (
        ["obj_water_sword"],
        ["obj_heart_of_the_ocean"],
        ["npc_quest_chronicler", "npc_boss_cinder_reaver", "npc_quest_tide_merchant",
         "npc_boss_ember_warden", "npc_quest_wayfarer_guide", "npc_side_quest_guide"],
    ),
    "remnant": (
        ["obj_water_sword", "obj_prism_lens", "obj_storm_crest", "obj_confluence_key"],
        ["obj_heart_of_the_ocean", "obj_prism_lens", "obj_storm_crest", "obj_confluence_key"],
        ["npc_quest_chronicler", "npc_boss_cinder_reaver", "npc_quest_tide_merchant",
         "npc_boss_ember_warden", "npc_quest_anvil_judge", "npc_boss_iron_answer",
         "npc_boss_wind_answer", "npc_boss_confluence_warden", "npc_quest_wayfarer_guide",
         "npc_side_quest_guide"],
    ),
    "mark": (
        ["obj_tear_of_forest"],
        ["obj_tear_of_forest"],
        ["npc_quest_librarian_v2", "npc_quest_contact_v2", "npc_boss_page_gnawer_v2",
         "npc_boss_root_warden_v2", "npc_quest_wayfarer_guide_v2"],
    ),
    "metropolis": (
        ["obj_evidence_dossier", "obj_forged_subpoena", "obj_midnight_cipher_fragment",
         "obj_codex_override_key", "obj_verdict_blade", "obj_amended_charter"],
        ["obj_evidence_dossier", "obj_forged_subpoena", "obj_midnight_cipher_fragment",
         "obj_codex_override_key", "obj_verdict_blade", "obj_amended_charter"],
        ["npc_quest_archivist_lune", "npc_quest_witness_marron", "npc_corrupt_bailiff",
         "npc_advocate_sentinel", "npc_boss_chief_magistrate_vosk", "npc_quest_wayfarer_guide",
         "npc_side_quest_guide"],
    ),
    "quarantine": (
        ["obj_patient_file", "obj_morgue_keycard", "obj_lab_access_code", "obj_antivirus_serum"],
        ["obj_patient_file", "obj_morgue_keycard", "obj_lab_access_code", "obj_antivirus_serum"],
        ["npc_quest_nurse_chen", "npc_ward_zombie_1", "npc_ward_zombie_2", "npc_morgue_licker",
         "npc_lab_zombie_1", "npc_lab_zombie_2", "npc_boss_tyrant", "npc_quest_wayfarer_guide",
         "npc_side_quest_guide"],
    ),
    "robot_kingdom": (
        ["obj_quest_recon_report", "obj_quest_gate_cipher", "obj_quest_war_banner",
         "obj_quest_demon_core", "obj_quest_suppression_charge", "obj_quest_marshals_orders"],
        ["obj_quest_recon_report", "obj_quest_gate_cipher", "obj_quest_war_banner",
         "obj_quest_demon_core", "obj_quest_suppression_charge", "obj_quest_marshals_orders"],
        ["npc_quest_scout_lyra", "npc_quest_forgemaster_dren", "npc_boss_scrap_warden",
         "npc_boss_infernal_architect", "npc_quest_ember_pack_1", "npc_quest_iron_ravager_1",
         "npc_quest_iron_ravager_2", "npc_quest_scrap_auto_1", "npc_quest_colossus_guard",
         "npc_quest_wayfarer_guide", "npc_side_quest_guide"],
    ),
    "saltglass": (
        ["obj_survey_seal"],
        ["obj_survey_seal"],
        ["npc_quest_guide", "npc_quest_wayfarer_guide", "npc_side_quest_guide"],
    ),
}  # fmt: skip
# The placeholders the repair appends after them.
PLACEHOLDERS = {"remnant": ["obj_wooden_strip"], "mark": ["obj_oak_plank"]}
VARIANT = {"remnant": "remnant", "mark": "mark", "quarantine": "quarantine"}


@pytest.mark.parametrize("game", GAMES)
def test_published_world_appends_the_quest_entities_in_order(
    published: PublishedCopy, game: str
) -> None:
    raw = published.read_json(game_spec(game).world_file)
    made = published_world(published, game)
    objects, undistributable, npcs = INJECTED[game]
    placeholders = PLACEHOLDERS.get(game, [])
    entities = made.definition["entities"]
    n_obj, n_npc = len(raw["entities"]["objects"]), len(raw["entities"]["npcs"])
    assert [o["id"] for o in entities["objects"][n_obj:]] == objects + placeholders
    assert [n["id"] for n in entities["npcs"][n_npc:]] == npcs
    assert all(n.get("quest") is True for n in entities["npcs"][n_npc:])
    old_und = raw["initializations"].get("undistributable_objects", [])
    assert made.definition["initializations"]["undistributable_objects"] == (
        old_und + undistributable + placeholders
    )
    assert (made.definition.get("features") or {}).get("synthesis") == VARIANT.get(game)
    assert len(made.warnings) == 2 * len(placeholders)
    # Everything else is the file as it is.
    for key in ("places",):
        assert entities[key] == raw["entities"][key]
    assert made.definition["custom_events"] == raw["custom_events"]


@pytest.mark.parametrize("game", ["remnant", "mark"])
def test_published_world_repairs_what_nothing_defines(published: PublishedCopy, game: str) -> None:
    made = published_world(published, game)
    npc, item, product = {
        "remnant": ("npc_old_mason", "obj_stone_chunk", "obj_stone_sword"),
        "mark": ("npc_gideon_brick", "obj_oak_plank", "obj_wooden_buckler"),
    }[game]
    assert made.warnings[0].startswith(f"NPC '{npc}': item '{item}'")
    assert f"so '{product}' can never be crafted" in made.warnings[1]
    npcs = {n["id"]: n for n in made.definition["entities"]["npcs"]}
    assert item not in npcs[npc]["objects"]


@pytest.mark.parametrize("game", GAMES)
def test_published_definitions_validate(published: PublishedCopy, game: str) -> None:
    definition = parse_definition(published_world(published, game).definition)
    assert definition.features.synthesis == VARIANT.get(game)


def test_published_world_reads_a_fresh_copy_each_time(published: PublishedCopy) -> None:
    first = published_world(published, "remnant")
    first.definition["entities"]["objects"].clear()
    assert published_world(published, "remnant").definition["entities"]["objects"]


def test_a_changed_copy_is_warned_about(published: PublishedCopy, tmp_path: Path) -> None:
    """A copy whose files differ from version 0.1.0's still loads, with a warning naming them."""
    world_file = game_spec("saltglass").world_file
    for rel in (world_file, "games/generated/saltglass/rules/step_rules"):
        source, target = published.path(rel), tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    edited = json.loads((tmp_path / world_file).read_text(encoding="utf-8"))
    edited["entities"]["places"][0]["name"] += " (edited)"
    (tmp_path / world_file).write_text(json.dumps(edited), encoding="utf-8")
    made = published_world(PublishedCopy(tmp_path, "a test copy"), "saltglass")
    assert made.warnings == (
        f"{world_file} differs from AgentOdyssey 0.1.0's: this world may not be the published one",
    )


def test_an_unknown_game_is_refused(published: PublishedCopy) -> None:
    with pytest.raises(KeyError, match="no published game 'atlantis'"):
        published_world(published, "atlantis")
