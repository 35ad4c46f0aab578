"""The `saltglass` pack's other background rules (rules/saltglass/) on AgentOdyssey's saltglass:
the forge alert (inert as published; acting when a world names its stations), the resonance
imprint, the unattended collection and the salt mirages. Seeded stages; the draws checked one by
one against a copy of the generator, the mirage chance statistically (4.5 standard deviations,
harness.SIGMAS)."""

from __future__ import annotations

import json

import attrs
import pytest
from harness import agent, give, move_to, put_on_ground, spawn_npc, stage_fixtures, within
from saltglass_helper import (
    BASIN,
    FLATS,
    HALL,
    LIBRARY,
    OPEN_SALT,
    ORRERY,
    SPIRE,
    TIDEBOUND,
    VESIN,
    YARD,
    mirror,
    new_game,
    of_type,
    rule,
    stage,
    step,
)

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext

FORGE, RESONANCE = "forge_alert_step", "resonance_imprint_step"
UNATTENDED, MIRAGE = "collect_unattended_step", "salt_mirage_step"


shared, game = stage_fixtures(new_game, stage)


def apply_with(game, name: str, res: RuleResult) -> RuleResult:
    """Run one step rule on a result that already holds this tick's events."""
    rule(game, name).apply(RuleContext(game, game.world, None, "", (), game.tick_index), res)
    return res


def with_setting(game, monkeypatch, name: str, **settings) -> None:
    found = rule(game, name)
    monkeypatch.setattr(found, "settings", {**found.settings, **settings})


# ---------------------------------------------------------------------------- forge alert
def test_forge_alert_is_inert_as_published(game) -> None:
    """saltglass's stations are obj_workbench and obj_furnace: no id the rule looks for."""
    put_on_ground(game, HALL, "obj_workbench", 1)
    put_on_ground(game, HALL, "obj_furnace", 1)
    give(game, "agent_0", "obj_salt_shard", 2)
    for tick in range(20):
        game.tick_index = tick
        res = step(game, FORGE)
        assert not res.events and not res.feedback_text("agent_0")
    assert "forge_alert" not in game.world.auxiliary


def test_forge_alert_acts_when_a_world_names_its_stations(game, monkeypatch) -> None:
    with_setting(game, monkeypatch, FORGE, station_ids=["obj_workbench"])
    world = game.world
    game.tick_index = 10
    assert not step(game, FORGE).feedback_text("agent_0")  # no station here
    put_on_ground(game, HALL, "obj_workbench", 1)
    # Ingredient counts truncated: what needs only fractions (0.5 rustbar, 0.25 saltcloth, ...)
    # is always "covered"; in definition order, three named and the rest counted.
    free = [
        o.name
        for o in world.objects.values()
        if o.craft.ingredients and all(int(q) == 0 for q in o.craft.ingredients.values())
    ]
    res = step(game, FORGE)
    assert not res.events
    assert res.feedback_keys("agent_0") == ["forge_alert.ready"]
    text = res.feedback_text("agent_0")
    assert ", ".join(free[:3]) in text and f"(+{len(free) - 3} more)" in text
    assert world.auxiliary["forge_alert"] == {"agent_0|area_hall": 10, "agent_1|area_hall": 10}
    for tick in range(11, 18):  # 8-tick cooldown per agent and area
        game.tick_index = tick
        assert not step(game, FORGE).feedback_text("agent_0")
    game.tick_index = 18
    assert step(game, FORGE).feedback_text("agent_0")


def test_forge_alert_counts_what_is_carried(game, monkeypatch) -> None:
    with_setting(game, monkeypatch, FORGE, station_ids=["obj_workbench"], max_listed=50)
    world = game.world
    put_on_ground(game, HALL, "obj_workbench", 1)
    before = step(game, FORGE).feedback_text("agent_0")
    assert "glass_guard" not in before
    give(game, "agent_0", "obj_lens_shard", 2)  # hands
    give(game, "agent_0", "obj_saltcloth", 1)
    crate = world.spawn_on_ground(HALL, "obj_small_bag", 1)[0][0]  # a bag held in hand
    world.areas[HALL].remove_objects(crate, 1)
    agent(game).hands[crate] = 1
    world.containers[crate].items.update({"obj_saltcloth": 1, "obj_thread": 1})
    game.tick_index = 100
    text = step(game, FORGE).feedback_text("agent_0")
    assert "glass_guard" in text and "(+" not in text


# ---------------------------------------------------------------------------- resonance
def listened(area: str, agent_id: str = "agent_0", **data) -> RuleResult:
    res = RuleResult(["agent_0", "agent_1"])
    res.emit("saltglass_listened", agent_id, {"area_id": area, **data})
    return res


def imprints(game) -> dict:
    return game.world.auxiliary["resonance_imprint"]["imprints"]


def test_an_imprint_reaches_others_once(game) -> None:
    for agent_id in game.agents:
        move_to(game, agent_id, LIBRARY)
    game.tick_index = 7
    res = apply_with(game, RESONANCE, listened(LIBRARY, hint_type="none"))
    echo = "a whisper too faint to make out"
    assert imprints(game) == {LIBRARY: {"agent_id": "agent_0", "echo": echo, "step": 7}}
    (event,) = of_type(res, "resonance_echo_received")
    assert event.agent_id == "agent_1"
    assert event.data == {"area_id": LIBRARY, "from_agent": "agent_0", "echo": echo}
    assert res.feedback_keys("agent_1") == ["resonance.echo"]
    assert not res.feedback_text("agent_0")  # not one's own imprint
    game.tick_index = 8
    assert not step(game, RESONANCE).events  # delivered once per imprint
    state = game.world.auxiliary["resonance_imprint"]
    assert state["flags"] == {"agent_1|area_library": 7}
    json.dumps(state)  # string keys: the state saves (the published tuple keys do not)
    game.tick_index = 9
    res = apply_with(game, RESONANCE, listened(LIBRARY, "agent_0", hint_type="none"))
    assert len(of_type(res, "resonance_echo_received")) == 1  # a new imprint: heard again


def test_an_imprint_lasts_80_ticks(game) -> None:
    move_to(game, "agent_0", ORRERY)
    game.tick_index = 0
    apply_with(game, RESONANCE, listened(ORRERY, "agent_0", hint_type="none"))
    move_to(game, "agent_1", ORRERY)
    game.tick_index = 81
    assert not step(game, RESONANCE).events  # 81 ticks old
    game.tick_index = 80
    assert of_type(step(game, RESONANCE), "resonance_echo_received")  # 80: still there


def test_only_observatories_keep_imprints_and_only_there_are_they_heard(game) -> None:
    game.tick_index = 3
    apply_with(game, RESONANCE, listened(HALL, hint_type="none"))
    assert not game.world.auxiliary.get("resonance_imprint", {}).get("imprints")
    apply_with(game, RESONANCE, listened(SPIRE, hint_type="none"))
    assert SPIRE in imprints(game)
    move_to(game, "agent_1", HALL)
    assert not step(game, RESONANCE).events  # agent_1 is not in the spire


@pytest.mark.parametrize(
    ("kind", "data", "echo"),
    [
        ("saltglass_listened", {"hint_type": "nearby_object", "obj_id": "obj_lens_shard"},
         "a faint shape of lens_shard nearby"),
        ("saltglass_listened", {"hint_type": "locked_path", "to_area": SPIRE},
         "a sealed road toward the spire"),
        ("saltglass_listened", {"hint_type": "enemy_rhythm", "npc_id": "<tidebound>"},
         "a fighting rhythm of <tidebound>"),
        ("saltglass_listened", {"hint_type": "none"}, "a whisper too faint to make out"),
        ("refracted", {"glass_id": "obj_lens_shard", "reveals_count": 2},
         "traces of refracted light still in the glass"),
    ],
)  # fmt: skip
def test_the_echo_of_each_source(game, kind, data, echo) -> None:
    if data.get("npc_id") == "<tidebound>":
        npc = spawn_npc(game, TIDEBOUND, ORRERY, 1)
        data, echo = {**data, "npc_id": npc.id}, echo.replace("<tidebound>", npc.name)
    res = RuleResult(["agent_0", "agent_1"])
    res.emit(kind, "agent_0", {"area_id": ORRERY, **data})
    move_to(game, "agent_1", ORRERY)
    res = apply_with(game, RESONANCE, res)
    assert of_type(res, "resonance_echo_received")[0].data["echo"] == echo


def test_the_newest_imprint_of_a_tick_wins(game) -> None:
    res = listened(LIBRARY, "agent_0", hint_type="none")
    res.emit("refracted", "agent_1", {"area_id": LIBRARY, "glass_id": "x", "reveals_count": 0})
    apply_with(game, RESONANCE, res)
    assert imprints(game)[LIBRARY]["agent_id"] == "agent_1"


def test_listening_in_a_tick_echoes_to_the_other_agent(game) -> None:
    """Through the whole tick: the listen is an action, the echo comes at priority 5."""
    for agent_id in game.agents:
        move_to(game, agent_id, LIBRARY)
    result = game.tick({"agent_0": "listen saltglass", "agent_1": "wait"})
    (event,) = [e for e in result.events if e.type == "resonance_echo_received"]
    assert event.agent_id == "agent_1" and event.data["from_agent"] == "agent_0"


# ---------------------------------------------------------------------------- unattended
def collection(game) -> dict:
    return game.world.auxiliary["collect_unattended"]


def test_idle_counts_and_thresholds_in_world_order(game) -> None:
    future = mirror(game)
    step(game, UNATTENDED)
    drawn = {area: future.randint(20, 35) for area in (YARD, FLATS, BASIN)}  # hall: agents
    assert collection(game) == {
        "idle_steps": {HALL: 0, YARD: 1, FLATS: 1, BASIN: 1},
        "thresholds": drawn,
    }
    assert game.rng.getstate() == future.getstate()
    step(game, UNATTENDED)
    assert collection(game)["idle_steps"] == {HALL: 0, YARD: 2, FLATS: 2, BASIN: 2}
    assert game.rng.getstate() == future.getstate()  # thresholds drawn once
    move_to(game, "agent_1", FLATS)
    step(game, UNATTENDED)
    assert collection(game)["idle_steps"] == {HALL: 0, YARD: 3, FLATS: 0, BASIN: 3}


def at_threshold(game, area: str, idle: int = 24, threshold: int = 25) -> None:
    state = game.world.auxiliary.setdefault(
        "collect_unattended", {"idle_steps": {}, "thresholds": {}}
    )
    for other in OPEN_SALT:
        state["thresholds"].setdefault(other, 99)
    state["idle_steps"][area], state["thresholds"][area] = idle, threshold


def test_a_stack_left_alone_loses_35_percent(game) -> None:
    world = game.world
    counts = {"obj_coin": 10, "obj_salt_shard": 1, "obj_thread": 5, "obj_star_scrap": 20}
    for def_id, n in counts.items():
        put_on_ground(game, YARD, def_id, n)
    (paper,) = put_on_ground(game, YARD, "obj_paper", 1)
    at_threshold(game, YARD, idle=23)
    assert not step(game, UNATTENDED).events  # 24 < 25
    assert world.areas[YARD].objects[paper] == 1
    future = mirror(game)
    res = step(game, UNATTENDED)  # 25: collected
    assert [(e.type, e.agent_id, e.data) for e in res.events] == [
        ("unattended_collected", "env", {"area_id": YARD})
    ]
    assert world.areas[YARD].objects == {"obj_coin": 7, "obj_thread": 4, "obj_star_scrap": 13}
    assert not world.is_instance(paper)  # the paper instance is gone
    assert collection(game)["idle_steps"][YARD] == 0
    assert collection(game)["thresholds"][YARD] == future.randint(20, 35)


def test_quest_objects_merchants_and_bare_ground(game) -> None:
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_lens_shard"], quest=True))
    put_on_ground(game, YARD, "obj_lens_shard", 4)
    at_threshold(game, YARD)
    future = mirror(game)
    assert not step(game, UNATTENDED).events  # only a quest object: nothing taken
    assert world.areas[YARD].objects == {"obj_lens_shard": 4}
    assert collection(game)["thresholds"][YARD] == future.randint(20, 35)  # still reset
    assert collection(game)["idle_steps"][YARD] == 0
    spawn_npc(game, VESIN, FLATS, 1)  # a merchant's area is never counted
    put_on_ground(game, FLATS, "obj_coin", 5)
    at_threshold(game, FLATS)
    step(game, UNATTENDED)
    assert collection(game)["idle_steps"][FLATS] == 24
    assert world.areas[FLATS].objects == {"obj_coin": 5}


def test_a_mirage_is_taken_too(game) -> None:
    mirages = game.world.auxiliary.setdefault("salt_mirage", {"active": {}})["active"]
    mirages[BASIN] = {
        "obj_id": "_mirage_area_basin_3",
        "fake_name": "bench",
        "born_step": 3,
        "lifetime": 12,
        "on_ground": True,
    }
    at_threshold(game, BASIN)
    assert of_type(step(game, UNATTENDED), "unattended_collected")[0].data == {"area_id": BASIN}
    assert mirages[BASIN]["on_ground"] is False  # the record lives on until it expires


# ---------------------------------------------------------------------------- mirages
def active(game) -> dict:
    return game.world.auxiliary["salt_mirage"]["active"]


def test_mirages_follow_the_draws(game) -> None:
    """300 ticks against a copy of the generator: expiry, one chance per open-salt area without a
    mirage, the fake name among the non-quest definitions, the lifetime; and the rate."""
    names = [o.name for o in game.world.objects.values() if not o.quest]
    future, expected = mirror(game), {}
    chances = made = 0
    for s in range(300):
        game.tick_index = s
        step(game, MIRAGE)
        for area in list(expected):
            if s - expected[area]["born_step"] >= expected[area]["lifetime"]:
                del expected[area]
        for area in OPEN_SALT:
            if area in expected:
                continue
            chances += 1
            if future.random() >= 0.12:
                continue
            made += 1
            fake = future.choice(names)
            expected[area] = {
                "obj_id": f"_mirage_{area}_{s}",
                "fake_name": fake,
                "born_step": s,
                "lifetime": future.randint(8, 18),
                "on_ground": True,
            }
        assert active(game) == expected
    assert game.rng.getstate() == future.getstate()
    assert within(made, chances, 0.12) and made > 30


def test_a_mirage_expires_after_its_lifetime(game) -> None:
    game.world.auxiliary["salt_mirage"] = {
        "active": {
            YARD: {
                "obj_id": "_mirage_area_yard_10",
                "fake_name": "bench",
                "born_step": 10,
                "lifetime": 8,
                "on_ground": False,
            }
        }
    }
    game.rng.seed(1)
    with_chance = rule(game, MIRAGE)
    game.tick_index = 17
    step(game, MIRAGE)
    assert active(game)[YARD]["born_step"] == 10  # 7 < 8: still there (not redrawn)
    game.tick_index = 18
    step(game, MIRAGE)
    assert active(game).get(YARD, {}).get("born_step") != 10
    assert with_chance.settings["chance"] == 0.12


def test_the_guides_table_of_the_pack_matches_the_code(game) -> None:
    import re
    from pathlib import Path

    from agentodyssey_pz.resources import rules_dir

    guide = Path(__file__).resolve().parents[2] / "docs" / "rule-packs.md"
    table = re.search(
        r"<!-- saltglass-rules -->\n(?P<table>.*?)<!-- /", guide.read_text("utf-8"), re.S
    )
    assert table is not None
    rows = [
        (int(m["priority"]), m["name"], m["what"])
        for m in re.finditer(
            r"^\| (?P<priority>\d+) \| `(?P<name>\w+)` \| (?P<what>.*?) \|$", table["table"], re.M
        )
    ]
    namespace = game.rule_set.namespace_of(rules_dir() / "saltglass")
    assert namespace is not None
    pack = [r for r in game.step_rules if type(r).__module__.startswith(namespace + ".")]
    assert rows == [(r.priority, r.name, r.description) for r in pack]


def test_the_step_rules_run_in_the_published_order(game) -> None:
    assert [r.name for r in game.step_rules] == [
        "agent_attack_update_step",
        "tutorial_room_step",
        "combat_rhythm_step",
        "main_quest_step",
        "side_quest_step",
        "salt_glaze_step",
        "forge_alert_step",
        "new_craftable_feedback_step",
        "resonance_imprint_step",
        "active_attack_step",
        "collect_unattended_step",
        "salt_mirage_step",
        "death_and_respawn_step",
        "world_expansion_step",
    ]
