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


# ---------------------------------------------------------------------------------- metropolis
def test_metropolis_goal_graph_chapters(published) -> None:
    quest = section(published, "metropolis")
    assert [len(c["stages"]) for c in quest["chapters"]] == [7, 9, 15]
    st = stages(quest)
    assert st["ch1_root"]["requires"] == ["ch1_meet_archivist", "ch1_gather_evidence"]
    assert "done_all" not in st["ch1_root"] and st["ch1_root"]["done_any"] == []
    assert st["ch1_root"]["chapter_complete"] is True
    assert st["ch3_root"]["quest_complete"] is True
    leaves = [s for s in st.values() if "requires" not in s]
    assert len(leaves) == 17 and all(s.get("done_all") or s.get("done_any") for s in leaves)
    # The headline is the root stage's objective.
    first = quest["chapters"][0]
    assert first["root_goal"] == st["ch1_root"]["objective"]
    # Placeholders point at our variables: the NPCs' names and the agent's own guide.
    assert "{ch1_archivist_npc}" in st["ch1_talk_archivist"]["objective"]
    assert "{guide}" in quest["intro"]
    # No boss table: the three foes stand in the world from the start (placed), never spawned.
    assert quest["bosses"] == {}
    assert not any("on_complete" in s or "on_start" in s for s in st.values())


def test_metropolis_setup_picks_places_and_values(published) -> None:
    setup = section(published, "metropolis")["setup"]
    by = {s["let"]: s for s in setup}
    order = [s["let"] for s in setup]
    assert by["ch1_aldiss_area"] == {"let": "ch1_aldiss_area", "pick_area": True}
    assert by["ch2_bailiff_area"] == {"let": "ch2_bailiff_area", "pick_areas": 2, "keep": "first"}
    assert by["ch2_bench_area"] == {"let": "ch2_bench_area", "pick_areas": 2}
    assert by["ch3_vosk_candidate_areas"]["pick_areas"] == 4
    assert by["ch3_vosk_area"]["farthest_of"] == "$ch3_vosk_candidate_areas"
    assert order.index("ch3_vosk_candidate_areas") + 1 == order.index("ch3_vosk_area")
    assert by["ch1_courthouse_areas"]["areas"][0] == "area_lobby"
    assert by["ch1_archivist_area"] == {"let": "ch1_archivist_area", "area": "area_clerks_office"}
    assert by["ch3_cipher_count"] == {"let": "ch3_cipher_count", "value": 2}
    # The five NPCs are placed right after their areas, the dossier after everything.
    placed = {
        "ch1_archivist_npc": "npc_quest_archivist_lune",
        "ch2_bailiff_npc": "npc_corrupt_bailiff",
        "ch2_advocate_npc": "npc_advocate_sentinel",
        "ch2_witness_npc": "npc_quest_witness_marron",
        "ch3_vosk_npc": "npc_boss_chief_magistrate_vosk",
    }
    for var, npc in placed.items():
        area = var.replace("_npc", "_area")
        assert by[var] == {"let": var, "place_npc": npc, "in": f"${area}"}
        assert order.index(var) == order.index(area) + 1
    assert setup[-1] == {
        "let": "ch1_dossier", "place_object": "obj_evidence_dossier", "in": "area_lobby",
        "unless_anywhere_on_ground": True,
    }  # fmt: skip


def test_metropolis_condition_translations(published) -> None:
    st = stages(section(published, "metropolis"))
    talk = {"kind": "talked_to", "npc": "$ch1_archivist_npc"}
    assert st["ch1_talk_archivist"]["done_all"] == [talk]
    # Its "in area" talk tests no area.
    assert st["ch2_find_witness"]["done_all"] == [{"kind": "talked_to", "npc": "$ch2_witness_npc"}]
    assert st["ch1_deliver_dossier"]["done_all"] == [
        {"kind": "object_on_ground", "objects": ["$ch1_deliver_obj"], "area": "$ch1_evidence_area"}
    ]
    weapons = ["obj_gavel_club", "obj_marble_mace", "obj_statute_pike", "obj_iron_gavel"]
    assert st["ch2_arm_yourself"]["done_all"] == [
        {
            "kind": "any_of",
            "conditions": [
                {"kind": "equipped_any_of", "objects": weapons},
                {"kind": "holding", "objects": weapons},
            ],
        }
    ]
    # Kills by anyone, at any time, count (the fixed softlock).
    assert st["ch2_defeat_bailiff"]["done_all"] == [{"kind": "npc_dead", "npc": "$ch2_bailiff_npc"}]
    vosk = {"kind": "npc_dead", "npc": "$ch3_vosk_npc"}
    assert st["ch3_defeat_vosk"]["done_any"] == [vosk, vosk]
    assert st["ch2_record_cipher"]["done_all"] == [
        {
            "kind": "paper_text_equals_in_hands",
            "text": "$ch2_cipher_text",
            "where": "hands+inventory+held",
        }
    ]
    assert st["ch3_get_cipher_fragments"]["done_all"] == [
        {
            "kind": "has_item_count",
            "object": "obj_midnight_cipher_fragment",
            "count": "$ch3_cipher_count",
        }
    ]
    assert st["ch3_get_craft_materials"]["done_all"] == [
        {
            "kind": "all_of",
            "conditions": [
                {"kind": "has_item_count", "object": "obj_iron_bar", "count": 3},
                {"kind": "has_item_count", "object": "obj_statute_shard", "count": 2},
                {"kind": "has_item_count", "object": "obj_verdict_essence", "count": 1},
            ],
        }
    ]
    here = "$ch3_antechamber_area"
    assert st["ch3_invoke_cipher"]["done_all"] == [
        {
            "kind": "all_of",
            "conditions": [
                {"kind": "in_area", "area": here},
                {
                    "kind": "any_of",
                    "conditions": [
                        {
                            "kind": "paper_text_equals_in_area",
                            "text": "$ch3_invoke_text",
                            "area": here,
                        },
                        {
                            "kind": "paper_text_equals_in_hands",
                            "text": "$ch3_invoke_text",
                            "where": "hands",
                        },
                    ],
                },
            ],
        }
    ]
    assert st["ch3_restore_charter"]["done_all"] == [
        {
            "kind": "all_of",
            "conditions": [
                {"kind": "in_area", "area": "$ch3_vosk_area"},
                {
                    "kind": "writable_text_equals_in_inventory",
                    "text": "$ch3_restoration_text",
                    "object": "obj_amended_charter",
                    "where": "hands+inventory+held",
                },
            ],
        }
    ]
    assert st["ch3_unlock_vault"]["done_all"] == [{"kind": "in_area", "area": here}]


# ---------------------------------------------------------------- robot_kingdom
def test_robot_kingdom_goal_graph_chapters(published) -> None:
    quest = section(published, "robot_kingdom")
    assert [len(c["stages"]) for c in quest["chapters"]] == [7, 9, 13, 11]
    st = stages(quest)
    # 40 stages (the published stage table; its summary's "38" miscounts), 16 of them parents
    # without a condition of their own.
    assert len(st) == 40
    assert sum(1 for s in st.values() if not s.get("done_all") and not s.get("done_any")) == 16
    assert st["ch1_root"]["requires"] == ["ch1_explore_bastion", "ch1_receive_orders"]
    assert st["ch1_root"]["chapter_complete"] is True and st["ch1_root"]["done_any"] == []
    assert st["ch4_root"]["quest_complete"] is True
    # The root stage's objective heads each chapter's list of goals.
    assert quest["chapters"][0]["root_goal"] == st["ch1_root"]["objective"]
    # A stage with both requirements and a condition (checked once active).
    assert st["ch3_pickup_key"]["requires"] == ["ch3_kill_ravager_2"]
    assert st["ch3_pickup_key"]["done_all"] == [{"kind": "has_any_of", "objects": ["obj_key"]}]
    assert st["ch3_clear_entrance"]["requires"] == ["ch3_kill_ravager_1", "ch3_kill_ember"]
    assert st["ch3_clear_entrance"]["done_all"] == [
        {"kind": "area_clear", "area": "$ch3_entrance_area"}
    ]
    assert "{ch1_marshal_npc}" in st["ch1_talk_marshal"]["objective"]
    assert "{guide}" in quest["intro"]


def test_robot_kingdom_condition_translations(published) -> None:
    st = stages(section(published, "robot_kingdom"))

    def only(stage: str) -> dict:
        (cond,) = st[stage].get("done_all") or st[stage]["done_any"][:1]
        return cond

    assert only("ch1_visit_areas") == {
        "kind": "visited_k_of_area_set", "areas": "$ch1_bastion_areas", "k": "$ch1_visit_count"
    }  # fmt: skip
    assert st["ch1_find_equipment"]["done_all"] == [
        {"kind": "has_category", "category": c, "where": "hands+equipped+inventory"}
        for c in ("weapon", "armor")
    ]
    assert only("ch1_talk_marshal") == {"kind": "talked_to", "npc": "$ch1_marshal_npc"}
    assert only("ch1_record_cipher") == {
        "kind": "paper_text_equals_in_hands", "text": "$ch1_cipher_code", "where": "hands"
    }  # fmt: skip
    assert only("ch2_meet_lyra") == {
        "kind": "talked_to", "npc": "$ch2_lyra_npc", "carrying_text": "$ch1_cipher_code",
        "carrying_where": "hands+inventory",
    }  # fmt: skip
    assert only("ch3_find_dren") == {
        "kind": "talked_to", "npc": "$ch3_dren_npc", "area": "$ch3_forge_area"
    }  # fmt: skip
    assert only("ch4_sell_to_vessa") == {"kind": "bought_from", "npc": "$ch4_vessa_npc"}
    assert only("ch2_craft_banner") == {
        "kind": "object_on_ground", "objects": ["$ch2_banner_obj"], "area": "$ch2_rally_area"
    }  # fmt: skip
    assert only("ch4_sabotage_furnace") == {
        "kind": "object_on_ground",
        "objects": ["obj_oil_bomb", "obj_hellfire_bomb", "obj_cog_assembly"],
        "area": "$ch4_furnace_area_sabotage",
    }
    assert only("ch2_buy_supplies") == {
        "kind": "npc_coins_at_least", "npc": "$ch2_merchant_npc", "coins": 15
    }  # fmt: skip
    assert only("ch3_craft_suppression") == {
        "kind": "has_any_of", "objects": ["obj_quest_suppression_charge"]
    }  # fmt: skip
    assert only("ch3_upgrade_armor") == {
        "kind": "equipped_min_level", "category": "armor", "min_level": 4
    }  # fmt: skip
    assert only("ch4_reach_gate") == {"kind": "in_area", "area": "$ch4_gate_area"}
    # Kills of placed NPCs: anyone's, at any time (published: this agent's, this tick).
    for stage, var in [
        ("ch2_kill_scrap", "$ch2_scrap_npc"),
        ("ch3_kill_ravager_1", "$ch3_ravager1_npc"),
        ("ch3_kill_ember", "$ch3_ember_npc"),
        ("ch3_kill_ravager_2", "$ch3_ravager2_npc"),
    ]:
        assert only(stage) == {"kind": "npc_dead", "npc": var}
    # A boss's kill and its recorded defeat both read as the shared boss's defeat.
    assert (
        st["ch2_defeat_warden"]["done_any"]
        == [{"kind": "boss_already_defeated", "boss": "ch2_warden_npc"}] * 2
    )


def test_robot_kingdom_setup_and_bosses(published) -> None:
    quest = section(published, "robot_kingdom")
    setup = {s["let"]: s for s in quest["setup"]}
    order = [s["let"] for s in quest["setup"]]
    assert setup["ch1_cipher_code"]["value"] == "IRON-VEIL-7"
    assert setup["ch1_bastion_areas"] == {"let": "ch1_bastion_areas", "pick_areas": 3}
    assert setup["ch1_visit_count"]["value"] == 3
    firsts = {
        "ch1_marshal_area": 1, "ch2_lyra_area": 1, "ch2_scrap_area": 2, "ch2_merchant_area": 2,
        "ch2_warden_area": 2, "ch3_entrance_area": 3, "ch3_forge_area": 4,
        "ch3_scrapyard_area": 4, "ch4_gate_area": 5, "ch4_furnace_area": 6, "ch4_core_area": 6,
    }  # fmt: skip
    for var, n in firsts.items():
        assert setup[var] == {"let": var, "pick_areas": n, "keep": "first"}
    assert order.index("ch1_marshal_area") < order.index("ch2_lyra_area")  # picks in order
    for alias, area in [
        ("ch2_rally_area", "ch2_scrap_area"),
        ("ch4_furnace_area_sabotage", "ch4_furnace_area"),
        ("ch4_core_area_final", "ch4_core_area"),
    ]:
        assert setup[alias]["area"] == f"${area}"
        assert order.index(alias) > order.index(area)
    assert setup["ch2_banner_obj"]["value"] == "obj_quest_war_banner"
    assert setup["ch4_demon_core_obj"]["value"] == "obj_quest_demon_core"
    placed = [(s["let"], s["place_npc"], s["in"]) for s in quest["setup"] if "place_npc" in s]
    assert [p[1] for p in placed] == [
        "npc_old_marshal", "npc_quest_scout_lyra", "npc_quest_scrap_auto_1",
        "npc_kael_ashworth", "npc_boss_scrap_warden", "npc_quest_iron_ravager_1",
        "npc_quest_ember_pack_1", "npc_quest_forgemaster_dren", "npc_quest_iron_ravager_2",
        "npc_quest_colossus_guard", "npc_vessa_ironhand", "npc_boss_infernal_architect",
    ]  # fmt: skip
    assert ("ch3_ember_npc", "npc_quest_ember_pack_1", "$ch3_entrance_area") in placed
    for var, _, area in placed:
        assert order.index(var) == order.index(area[1:]) + 1 or area == "$ch3_entrance_area"
    bosses = quest["bosses"]
    assert set(bosses) == {"ch2_warden_npc", "ch4_colossus_npc", "ch4_architect_npc"}
    assert bosses["ch4_colossus_npc"] == {
        "npc": "npc_quest_colossus_guard", "in": "$ch4_gate_area", "shared": True,
        "placed": "$ch4_colossus_npc", "reset_hp_on_defeat": "stage_start",
    }  # fmt: skip
    assert all("hp" not in b and "attack" not in b for b in bosses.values())  # level-scaled
    st = stages(quest)
    assert st["ch4_final_battle"]["on_start"] == [{"spawn_boss": "ch4_architect_npc"}]
    assert {"spawn_boss": "ch2_warden_npc"} in st["ch2_defeat_warden"]["on_complete"]
    assert quest["guide"]["npc"] == "npc_quest_wayfarer_guide"
    assert quest["guide"]["names"][0] == "alex_smith" and "name_order" not in quest["guide"]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "'npc_key': 'ch2_bailiff_npc',",
            "'npc_key': 'ch2_bailiff_area',",
            "not an NPC metropolis places",
        ),
        ("'materials': {", "'materials': [], 'x': {", "'materials' is not a map"),
        (
            "'count_key': 'ch3_cipher_count',",
            "'count_key': 'ch9_nothing',",
            "'ch9_nothing' is not a bootstrap value",
        ),
        ("'obj_id': 'obj_amended_charter',", "'object_id': 'obj_amended_charter',", "lacks obj_id"),
        (
            "'root_goal': 'ch2_root'",
            "'root_goal': 'ch2_roof'",
            "root goal 'ch2_roof' is not a stage",
        ),
    ],
)
def test_metropolis_wrong_data_is_refused_clearly(
    published, tmp_path, monkeypatch, old: str, new: str, message: str
) -> None:
    copy = changed_copy(published, tmp_path, monkeypatch, "metropolis", old, new)
    with pytest.raises(PublishedGameError, match=message):
        section(copy, "metropolis")


# Base HP and the loader's default slope (enemies 20, others 50) of metropolis's quest NPCs.
STATS = {
    "npc_quest_archivist_lune": (100, 50),
    "npc_corrupt_bailiff": (60, 20),
    "npc_advocate_sentinel": (80, 20),
    "npc_quest_witness_marron": (80, 50),
    "npc_boss_chief_magistrate_vosk": (200, 20),
}


def test_metropolis_setup_plays_out(published) -> None:
    """The variables once the game starts: the five NPCs at their areas with their prototype's
    stats at the area's level, the dossier in the lobby, Vosk in the farthest of his four."""
    from agentodyssey_pz.engine.config import GameConfig
    from agentodyssey_pz.engine.game import Game

    game = Game("agentodyssey:metropolis", 2, GameConfig(tutorial=False))
    game.reset(seed=3)
    world, values = game.world, game.world.auxiliary["main_quest"]["vars"]
    for var in ("ch1_archivist", "ch2_bailiff", "ch2_advocate", "ch2_witness", "ch3_vosk"):
        npc = world.npcs[values[f"{var}_npc"]]
        assert npc.area_id == values[f"{var}_area"]
        level = world.areas[npc.area_id].level
        # Prototype stats at the area's level (a level-2 bailiff 80 HP).
        base, slope = STATS[world.npc_protos[npc.def_id].id]
        assert npc.max_hp == base + slope * (level - 1)
    bailiff = world.npcs[values["ch2_bailiff_npc"]]
    assert bailiff.enemy and bailiff.inventory.get("obj_midnight_cipher_fragment", 0) >= 1
    assert values["ch2_bailiff_area"] in world.areas  # keep: first -> one area
    assert isinstance(values["ch2_bench_area"], list) and len(values["ch2_bench_area"]) == 2
    dist = world.graph.hop_distances(world.spawn_area)
    far = max(dist[a] for a in values["ch3_vosk_candidate_areas"])
    assert dist[values["ch3_vosk_area"]] == far
    assert any(o.startswith("obj_evidence_dossier") for o in world.areas["area_lobby"].objects)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("'threshold': 15,", "'threshold': 'many',", "npc_has_coins has no whole-number"),
        ("'min_level': 4,", "'min_level': -1,", "equipped_armor_level has no whole-number"),
        ("'obj_key': 'ch2_banner_obj',", "'object': 'x',", "object_in_area names no object"),
        ("'talked_to_npc_in_area'", "'talked_to_npc_far_away'", "talked_to_npc_far_away has no"),
    ],
)
def test_robot_kingdom_wrong_data_is_refused_by_name(
    published, tmp_path, monkeypatch, old: str, new: str, message: str
) -> None:
    copy = changed_copy(published, tmp_path, monkeypatch, "robot_kingdom", old, new)
    with pytest.raises(PublishedGameError, match=message):
        section(copy, "robot_kingdom")


# ---------------------------------------------------------------------------- quarantine
def test_quarantine_quest_shape(published) -> None:
    quest = section(published, "quarantine")
    assert [len(c["stages"]) for c in quest["chapters"]] == [7, 11]
    assert quest["bosses"] == {}  # its quest enemies are pre-placed NPCs
    st = stages(quest)
    assert len(st) == 18 and len([s for s in st.values() if "requires" in s]) == 8  # parents
    assert st["ch1_root"]["requires"] == ["ch1_prepare", "ch1_reach_morgue"]
    assert st["ch1_root"]["done_any"] == [] and "done_all" not in st["ch1_root"]
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
    """Seed 0 as AgentOdyssey makes it: the reactor is the lab chamber, the ward zombie with the
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
