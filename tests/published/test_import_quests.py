"""Translating the published main quests into our quest data (world/published/quests.py)."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

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
