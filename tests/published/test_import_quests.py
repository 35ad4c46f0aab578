"""Translating the published main quests into our quest data (world/published/quests.py)."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published import locate
from agentodyssey_pz.world.published.games import GAMES
from agentodyssey_pz.world.published.pyconst import NotData, class_constants
from agentodyssey_pz.world.published.quests import (
    bootstrap_variables,
    main_quest_section,
    side_quests_section,
)


def section(published, name: str) -> dict:
    spec = GAMES[name]
    return main_quest_section(published, spec, published.read_json(spec.world_file))


def stages(quest: dict) -> dict[str, dict]:
    return {s["id"]: s for c in quest["chapters"] for s in c["stages"]}


def test_remnant_quest_shape(published) -> None:
    quest = section(published, "remnant")
    assert [len(c["stages"]) for c in quest["chapters"]] == [4, 4, 6, 5, 5]
    st = stages(quest)
    assert st["ch3_temper_in_dark"]["done_all"][1] == {
        "kind": "killed_matching", "n": 3, "enemy_only": True, "dark_area": True,
        "min_area_level": 1,
    }  # fmt: skip
    assert st["ch4_variety_in_blood"]["done_any"] == [
        {"kind": "killed_each_role", "roles": ["goblin", "bandit", "beast"], "enemy_only": True}
    ]
    assert st["ch4_leave_light_behind"]["done_any"] == [{"kind": "lit_dark_areas", "k": 2}]
    trade = st["ch2_trade"]["done_all"][1]
    assert trade["kind"] == "any_of"
    assert trade["conditions"][1] == {"kind": "has_any_of", "objects": ["obj_heart_of_the_ocean"]}
    # A boss stage: the boss is there when the stage is reached and when the one before completes.
    assert st["ch1_boss"]["on_start"] == [{"spawn_boss": "ch1_boss_npc"}]
    assert {"spawn_boss": "ch1_boss_npc"} in st["ch1_discover_shrine"]["on_complete"]
    assert st["ch1_boss"]["done_any"][0] == {
        "kind": "boss_already_defeated",
        "boss": "ch1_boss_npc",
    }
    assert {"give": {"$currency": 12}} in st["ch1_boss"]["on_complete"]
    assert {"give": {"obj_prism_lens": 1}, "unless_possessed": True} in st["ch3_boss"][
        "on_complete"
    ]
    assert st["ch5_final_boss"]["quest_complete"] is True
    discover = st["ch1_discover_shrine"]["done_all"][0]
    assert discover["history"] == "episode" and discover["k"] == "$ch1_explore_min"
    assert quest["guide"]["name_order"] == "shuffled" and len(quest["guide"]["names"]) == 10
    assert all(b["shared"] for b in quest["bosses"].values()) and len(quest["bosses"]) == 5
    fire = quest["bosses"]["ch2_boss_npc"]["modifiers"]
    assert fire[0]["max_hp"] == 150 and fire[1]["attack"] == 45


def test_remnant_variables_come_from_its_bootstrap(published) -> None:
    setup = {s["let"]: s for s in section(published, "remnant")["setup"]}
    assert setup["ch2_salt_word"] == {"let": "ch2_salt_word", "value": "brine"}
    assert setup["ch5_chronicle_text"]["value"] == "brine temper stillness"
    assert setup["ch1_guide_area"] == {"let": "ch1_guide_area", "area": "area_castle_library"}
    assert setup["ch1_shrine_candidate_areas"]["areas"] == [
        "area_castle_armory", "area_forest_plain", "area_forest_hills"
    ]  # fmt: skip
    assert setup["ch2_merchant_npc"]["stock"] == {
        "obj_heart_of_the_ocean": 1, "obj_sea_salt_crystal": 4
    }  # fmt: skip
    assert setup["ch2_merchant_npc"]["min_coins"] == 400
    order = [s["let"] for s in section(published, "remnant")["setup"]]
    assert order.index("ch1_guide_npc") == order.index("ch1_guide_area") + 1  # placed when known


def test_mark_quest_shape(published) -> None:
    quest = section(published, "mark")
    assert [len(c["stages"]) for c in quest["chapters"]] == [10, 7]
    st = stages(quest)
    promise = st["ch1_write_promise"]["done_all"][0]
    assert promise == {
        "kind": "writable_text_equals_in_inventory",
        "text": "$ch1_promise_line",
        "match": "contains",
    }
    assert {"give": {"obj_torch": 2}} in st["ch1_craft_torch"]["on_complete"]
    assert quest["guide"] == {**quest["guide"], "name_order": "shuffled", "remind_every": 30}
    assert len(quest["guide"]["names"]) == 20
    warden = quest["bosses"]["ch2_boss_npc"]
    assert (warden["hp"], warden["attack"]) == (160, 36)
    assert warden["modifiers"][0]["attack_cap"] == 30 and warden["modifiers"][0]["once"] is True
    setup = {s["let"]: s for s in quest["setup"]}
    assert setup["ch1_area_2"] == {"let": "ch1_area_2", "area": "area_market_stalls"}
    assert setup["ch1_explore_min"] == {"let": "ch1_explore_min", "value": 3}
    assert setup["ch1_promise_line"]["value"] == "kindness"
    assert setup["ch2_contact_npc"]["stock"] == {"obj_tear_of_forest": 1}
    # No stage summons the first boss: it is there once its own stage is reached, as published.
    summons = [e for s in st.values() for e in s.get("on_complete", ()) if "spawn_boss" in e]
    assert summons == [{"spawn_boss": "ch2_boss_npc"}]
    assert st["ch1_boss"]["on_start"] == [{"spawn_boss": "ch1_boss_npc"}]
    assert st["ch2_boss"]["on_start"] == [{"spawn_boss": "ch2_boss_npc"}]
    assert [s["id"] for s in st.values() if "on_start" in s] == ["ch1_boss", "ch2_boss"]


def test_base_quest_picks_its_areas(published) -> None:
    quest = section(published, "base")
    assert [len(c["stages"]) for c in quest["chapters"]] == [5, 4]
    setup = {s["let"]: s for s in quest["setup"]}
    assert setup["ch1_guide_area"]["pick_area"] is True
    assert setup["ch2_lair_candidate_areas"]["pick_areas"] == 3
    assert setup["ch2_boss_area"]["farthest_of"] == "$ch2_lair_candidate_areas"
    assert setup["ch1_oath_number"]["value"] == "750"
    # base never generates ch1_explore_min: one visited candidate is enough, as published.
    discover = stages(quest)["ch1_discover_shrine"]["done_all"][0]
    assert "k" not in discover and "history" not in discover
    assert "guide" not in setup  # the guide is built in (`$guide`), never a setup variable


def test_texts_use_our_variables(published) -> None:
    quest = section(published, "remnant")
    text = json.dumps(quest)
    assert "{ch1_guide_name}" not in text and "{mq_guide_name}" not in text
    assert "{ch1_guide_npc}" in text or "{guide}" in text


def test_side_quests_keep_the_published_broker_and_pay(published) -> None:
    defaults = {"unlock_after": 9, "texts": {"unlocked": "ours"}}
    side = side_quests_section(published, GAMES["remnant"], defaults)
    assert side["unlock_after"] == 2
    assert side["rewards"] == {"collect": [1, 3], "craft": [3, 6], "talk": [1, 3], "trade": [3, 6]}
    assert side["guide"]["npc"] == "npc_side_quest_guide"
    assert side["guide"]["fallback_name"] not in side["guide"]["names"]
    assert side["texts"] == {"unlocked": "ours"}


def changed_copy(published, tmp_path: Path, monkeypatch, game: str, old: str, new: str):
    spec = GAMES[game]
    root = tmp_path / "ao"
    for rel in (spec.world_file, spec.quest_module):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(published.path(rel), root / rel)
    module = root / spec.quest_module
    text = module.read_text(encoding="utf-8")
    assert old in text
    module.write_text(text.replace(old, new, 1), encoding="utf-8")
    monkeypatch.setenv(locate.HOME_VARIABLE, str(root))
    return locate.find_published()


def test_an_unknown_condition_kind_is_refused_by_name(published, tmp_path, monkeypatch) -> None:
    copy = changed_copy(
        published, tmp_path, monkeypatch, "mark", '"type": "in_area_with_npc"', '"type": "seance"'
    )
    with pytest.raises(PublishedGameError, match="condition state/seance has no translation"):
        section(copy, "mark")


def test_an_unknown_bootstrap_form_is_refused_by_name(published, tmp_path, monkeypatch) -> None:
    copy = changed_copy(
        published,
        tmp_path,
        monkeypatch,
        "remnant",
        '"ch2_salt_word"] = "brine"',
        '"ch2_salt_word"] = "br" + input()',
    )
    with pytest.raises(PublishedGameError, match="variable 'ch2_salt_word' is computed"):
        section(copy, "remnant")


def test_bootstrap_statement_forms() -> None:
    module = ast.parse(
        "class MainQuestStepRule:\n"
        "    AREAS = ['a', 'b']\n"
        "    N = 3\n"
        "    def _bootstrap(self):\n"
        "        self._generated['lit'] = 'x'\n"
        "        self._generated['const'] = self.N\n"
        "        self._generated['copy'] = list(self.AREAS)\n"
        "        self._generated['num'] = int(self.N)\n"
        "        self._generated['first'] = self.AREAS[0]\n"
        "        self._generated['code'] = pick(1)\n"
        "        self._other['x'] = 1\n"
    )
    constants = class_constants(module, "MainQuestStepRule")
    found = bootstrap_variables(module, constants)
    assert found == {
        "lit": "x", "const": 3, "copy": ["a", "b"], "num": 3, "first": "a", "code": NotData
    }  # fmt: skip


# ---------------------------------------------------------------------------- quarantine
def test_quarantine_quest_shape(published) -> None:
    quest = section(published, "quarantine")
    assert [len(c["stages"]) for c in quest["chapters"]] == [7, 11]
    assert quest["bosses"] == {}  # its quest enemies are pre-placed NPCs
    st = stages(quest)
    assert len(st) == 18 and len([s for s in st.values() if "requires" in s]) == 8  # parents
    assert st["ch1_root"]["requires"] == ["ch1_prepare", "ch1_reach_morgue"]
    assert "done_any" not in st["ch1_root"] and "done_all" not in st["ch1_root"]
    assert st["ch1_root"]["chapter_complete"] is True and st["ch2_root"]["quest_complete"] is True
    assert quest["chapters"][0]["root_goal"] == st["ch1_root"]["objective"]
    assert st["ch1_arm_yourself"]["done_all"] == [
        {"kind": "has_category", "category": "weapon", "where": "hands+equipped+inventory"}
    ]
    assert st["ch1_get_keycard"]["done_all"] == [
        {"kind": "npc_dead", "npc": "$ch1_ward_zombie_2"},
        {"kind": "has_any_of", "objects": ["obj_morgue_keycard"]},
    ]
    assert st["ch2_defeat_licker"]["done_all"][0] == {"kind": "npc_dead", "npc": "$ch2_licker_npc"}
    assert st["ch2_get_chemicals"]["done_all"] == [
        {"kind": "has_item_count", "object": "obj_chemical", "count": "$ch2_chemical_count"}
    ]
    assert st["ch2_write_code"]["done_all"] == [
        {"kind": "paper_text_equals_in_hands", "text": "$ch2_access_code_text", "where": "hands"}
    ]
    deploy = st["ch2_deploy_serum"]["done_all"]
    assert deploy[0] == {"kind": "npc_dead", "npc": "$ch2_tyrant_npc"}
    assert deploy[1] == {
        "kind": "all_of",
        "conditions": [
            {"kind": "npc_dead", "npc": "$ch2_tyrant_npc"},
            {"kind": "in_area", "area": "$ch2_reactor_area"},
            {
                "kind": "object_on_ground",
                "objects": ["$ch2_serum_obj"],
                "area": "$ch2_reactor_area",
            },
        ],
    }
    # `spawns_boss_key` names no boss: nothing is spawned (as published).
    assert not any("on_complete" in s or "on_start" in s for s in st.values())
    # Every placeholder of the texts is one of our variables.
    text = json.dumps(quest)
    assert "{ch1_nurse_npc_name}" not in text and "{mq_guide_name}" not in text
    assert "{ch1_nurse_npc}" in text


def test_quarantine_setup_picks_five_areas_and_places_seven_npcs(published) -> None:
    setup = section(published, "quarantine")["setup"]
    by_let = {s["let"]: s for s in setup}
    picked = [s["let"] for s in setup if s.get("pick_area")]
    assert picked == [
        "ch1_nurse_area", "ch1_ward_area", "ch1_morgue_area", "ch2_lab_entrance_area",
        "ch2_reactor_area",
    ]  # fmt: skip
    assert by_let["ch2_morgue_area"] == {"let": "ch2_morgue_area", "area": "$ch1_morgue_area"}
    placed = [(s["let"], s["place_npc"], s["in"]) for s in setup if "place_npc" in s]
    assert placed == [
        ("ch1_nurse_npc", "npc_quest_nurse_chen", "$ch1_nurse_area"),
        ("ch1_ward_zombie_1", "npc_ward_zombie_1", "$ch1_ward_area"),
        ("ch1_ward_zombie_2", "npc_ward_zombie_2", "$ch1_ward_area"),
        ("ch2_licker_npc", "npc_morgue_licker", "$ch2_morgue_area"),
        ("ch2_lab_zombie_1", "npc_lab_zombie_1", "$ch2_lab_entrance_area"),
        ("ch2_lab_zombie_2", "npc_lab_zombie_2", "$ch2_lab_entrance_area"),
        ("ch2_tyrant_npc", "npc_boss_tyrant", "$ch2_reactor_area"),
    ]
    assert by_let["ch2_access_code_text"]["value"] == "ECLIPSE-47"
    assert by_let["ch2_chemical_count"]["value"] == 2
    assert by_let["ch2_serum_obj"]["value"] == "obj_antivirus_serum"


def test_quarantine_in_a_game(published) -> None:
    """Seed 0 as the spec gives it: the reactor is the lab chamber, the ward zombie with the
    keycard has 65 HP / 25 attack at level 2, the tyrant 310 / 75 at level 4; quest enemies go on
    with the world's numbering of their display name; the morgues are one area."""
    game = Game("agentodyssey:quarantine", 2, GameConfig(tutorial=False))
    game.reset(seed=0)
    world, found = game.world, game.world.auxiliary["main_quest"]["vars"]
    assert found["ch2_reactor_area"] == "area_lab_chamber"
    assert found["ch2_morgue_area"] == found["ch1_morgue_area"]
    keeper = world.npcs[found["ch1_ward_zombie_2"]]
    assert (keeper.hp, keeper.attack_power, keeper.level) == (65, 25, 2)
    assert keeper.inventory["obj_morgue_keycard"] >= 1 and keeper.enemy
    tyrant = world.npcs[found["ch2_tyrant_npc"]]
    assert (tyrant.name, tyrant.hp, tyrant.attack_power) == ("tyrant", 310, 75)
    zombies = [world.npcs[found[k]].name for k in ("ch1_ward_zombie_1", "ch1_ward_zombie_2")]
    world_zombies = [n.name for n in world.npcs.values() if n.def_id == "npc_zombie"]
    assert zombies == ["zombie_3", "zombie_4"] and len(world_zombies) == 3
    licker = world.npcs[found["ch2_licker_npc"]]
    assert licker.area_id == found["ch2_morgue_area"]
    # The quest nurse never takes the world merchant's name (both are `nurse_chen` published).
    nurse = world.npcs[found["ch1_nurse_npc"]]
    assert nurse.name != "nurse_chen" and world.npcs["npc_nurse_chen"].name == "nurse_chen"


QUARANTINE_BAD = [
    ("'area_key': 'ch2_reactor_area',", "", "custom/serum_deployed_in_reactor has no 'area_key'"),
    ("'category': 'weapon',", "", "state/has_category has no 'category'"),
    (
        "'boss_key': 'ch1_ward_zombie_2',",
        "",
        "state/boss_already_defeated has no 'boss_key'",
    ),
    (
        "'base_obj_key': 'ch2_chemical_obj',",
        "'base_obj_key': 'ch1_ward_area',",
        "has_item_count: 'ch1_ward_area' is not a fixed object id",
    ),
    ("'text_key': 'ch2_access_code_text',", "", "paper_text_equals_in_hands has no 'text_key'"),
]


@pytest.mark.parametrize(("old", "new", "message"), QUARANTINE_BAD)
def test_quarantine_wrong_data_is_refused_by_name(
    published, tmp_path, monkeypatch, old: str, new: str, message: str
) -> None:
    copy = changed_copy(published, tmp_path, monkeypatch, "quarantine", old, new)
    with pytest.raises(PublishedGameError, match=message):
        section(copy, "quarantine")


# ---------------------------------------------------------------------------- saltglass
def test_saltglass_quest_shape(published) -> None:
    quest = section(published, "saltglass")
    assert [len(c["stages"]) for c in quest["chapters"]] == [9]
    st = stages(quest)
    assert len([s for s in st.values() if "requires" in s]) == 4
    root = st["ch1_restore_chart"]
    assert root["chapter_complete"] is True and root["quest_complete"] is True
    assert quest["chapters"][0]["root_goal"] == root["objective"]
    assert quest["bosses"] == {}
    assert st["ch1_record_oath"]["done_any"] == [
        {"kind": "paper_text_equals_in_hands", "text": "$ch1_oath_text", "where": "hands+equipped"}
    ]
    assert st["ch1_buy_paper"]["done_any"] == [
        {"kind": "event", "type": "object_bought", "objects": ["obj_paper"]}
    ]
    assert st["ch1_buy_seal"]["done_any"] == [
        {"kind": "has_any_of", "objects": ["obj_survey_seal"]}
    ]
    assert st["ch1_deliver_chart"]["done_all"] == [
        {"kind": "paper_with_text_in_area", "text": "$ch1_oath_text",
         "area": "$ch1_delivery_area", "object": "obj_paper"},
        {"kind": "object_on_ground", "objects": ["$ch1_survey_seal_obj"],
         "area": "$ch1_delivery_area"},
    ]  # fmt: skip
    text = json.dumps(quest)
    assert "{ch1_guide_name}" not in text and "{ch1_guide_npc}" in text
    setup = {s["let"]: s for s in quest["setup"]}
    assert [k for k, s in setup.items() if s.get("pick_area")] == [
        "ch1_guide_area", "ch1_market_area", "ch1_delivery_area"
    ]  # fmt: skip
    assert setup["ch1_guide_npc"]["place_npc"] == "npc_quest_guide"
    assert setup["ch1_merchant_npc"] == {
        "let": "ch1_merchant_npc", "place_npc": "npc_vesin", "in": "$ch1_market_area",
        "stock": {"obj_survey_seal": 1}, "stay_put": True,
    }  # fmt: skip
    assert setup["ch1_oath_text"]["value"] == "THE SKY REMEMBERS"


def test_saltglass_adopts_vesin_where_the_world_placed_him(published) -> None:
    for seed in range(4):
        game = Game("agentodyssey:saltglass", 2, GameConfig(tutorial=False))
        game.reset(seed=seed)
        found = game.world.auxiliary["main_quest"]["vars"]
        vesin = game.world.npcs["npc_vesin"]
        assert found["ch1_merchant_npc"] == "npc_vesin"
        assert vesin.inventory["obj_survey_seal"] >= 1
        assert game.world.npcs[found["ch1_guide_npc"]].name == "sere"
        assert found["ch1_guide_area"] != found["ch1_delivery_area"]
        if seed == 0:  # synthesis put him in the basin; the unused market pick is the yard
            assert (vesin.area_id, found["ch1_market_area"]) == ("area_basin", "area_yard")


SALTGLASS_BAD = [
    ("'area_key': 'ch1_delivery_area',\n                            },",
     "},", "custom/paper_with_text_dropped_in_area has no 'area_key'"),
    ("'obj_key': 'ch1_survey_seal_obj',", "", "custom/object_in_area has no 'obj_key'"),
    ("'obj_id': 'obj_paper',", "", "event/object_bought has no 'obj_id'"),
    ("'text_key': 'ch1_oath_text',\n                                'area_key'",
     "'area_key'", "paper_with_text_dropped_in_area has no 'text_key'"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "message"), SALTGLASS_BAD)
def test_saltglass_wrong_data_is_refused_by_name(
    published, tmp_path, monkeypatch, old: str, new: str, message: str
) -> None:
    copy = changed_copy(published, tmp_path, monkeypatch, "saltglass", old, new)
    with pytest.raises(PublishedGameError, match=message):
        section(copy, "saltglass")
