"""What the main quest records for the conditions that look back in time
(docs/world-format.md#111-main-quest): kill records (`killed_matching`, `killed_each_role`), dark
areas lit (`lit_dark_areas`), talks (`talked_to`), purchases (`bought_from`) and NPCs anyone killed
(`npc_dead`). Recorded in real ticks, from this agent's own events only, from the tick its quest
starts, kept small, saved with the game and checked when a saved game loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import DATA, equip_inventory, give, hold_crate, move_to, spawn_npc
from quest_world import (
    GATE,
    ROWS,
    VATS,
    VAULT,
    completed,
    holds,
    progress,
    quest_game,
    variables,
    waits,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.events import QUEST_STAGE_ADVANCED

SMITE = {"rule_packs": (str(DATA / "packs" / "smite"),)}  # `smite <npc>` kills anyone here
RECORD_KEYS = ("kills", "lit", "talked", "bought")


def quest_rule(game: Game) -> Any:
    return next(rule for rule in game.step_rules if rule.name == "main_quest_step")


def smite(game: Game, agent_id: str, npc_name: str) -> Any:
    result = game.tick(waits(game, **{agent_id: f"smite {npc_name}"}))
    assert result.action_ok[agent_id], result.feedback(agent_id)
    return result


# ---------------------------------------------------------------------------- kills
KILLS_STAGE = {
    "id": "dark_kills",
    "objective": "Fight in the dark.",
    "done_all": [
        {"kind": "killed_matching", "n": 3, "enemy_only": True, "dark_area": True,
         "min_area_level": 2},
    ],
}  # fmt: skip


@pytest.fixture
def killing(tmp_path: Path) -> Game:
    setup = [
        {"let": "hermit", "place_npc": "npc_q_hermit", "in": GATE},
        {"let": "brute", "place_npc": "npc_q_brute", "in": ROWS},
    ]
    game = quest_game(tmp_path, [KILLS_STAGE], setup=setup, agents=2, config=SMITE)
    for area in game.world.areas.values():  # only the NPCs the test puts there
        for npc_id in list(area.npcs):
            if game.world.npcs[npc_id].def_id == "npc_wasp":
                game.world.remove_npc_from_map(npc_id)
    return game


def test_kill_records_pass_every_filter_given(killing: Game) -> None:
    game = killing
    smite(game, "agent_0", "hermit")  # not an enemy, role sage, lit level-1 gate
    move_to(game, "agent_0", ROWS)
    body = game.agents["agent_0"]
    body.attack = 1000  # killed with `attack`: any verb's kill is recorded
    brute = game.world.npcs[variables(game)["brute"]]
    result = game.tick(waits(game, agent_0=f"attack {brute.name}"))
    assert result.events_of("agent_0", "npc_killed")
    move_to(game, "agent_0", VAULT)  # dark, level 3
    for _ in range(2):
        wasp = spawn_npc(game, "npc_wasp", VAULT)  # role beast
        smite(game, "agent_0", wasp.name)
    assert completed(game) == ["dark_kills"]  # the brute (level 2), two wasps (level 3)
    move_to(game, "agent_1", VATS)
    other = spawn_npc(game, "npc_wasp", VATS)
    smite(game, "agent_1", other.name)  # another agent's kill is its own
    records = progress(game)["kills"]
    assert sorted((r["role"], r["enemy"], r["dark"], r["level"], r["count"]) for r in records) == [
        ("bandit", True, True, 2, 1),
        ("beast", True, True, 3, 2),
        ("sage", False, False, 1, 1),
    ]
    assert progress(game, "agent_1")["kills"] == [
        {"enemy": True, "role": "beast", "dark": False, "level": 2, "count": 1}
    ]
    matching: dict[str, Any] = {"kind": "killed_matching"}
    expected = [
        ({"n": 4}, True), ({"n": 5}, False),
        ({"n": 3, "enemy_only": True}, True), ({"n": 4, "enemy_only": True}, False),
        ({"n": 3, "dark_area": True}, True), ({"n": 4, "dark_area": True}, False),
        ({"n": 2, "min_area_level": 3}, True), ({"n": 3, "min_area_level": 3}, False),
        ({"n": 4, "min_area_level": 0}, True),
        ({"n": 2, "roles": ["beast"]}, True), ({"n": 3, "roles": ["beast"]}, False),
        ({"n": 2, "roles": ["bandit", "sage"]}, True),
        ({"n": 2, "roles": ["sage"], "enemy_only": True}, False),
    ]  # fmt: skip
    for params, want in expected:
        assert holds(game, {**matching, **params}) is want, params
    each: dict[str, Any] = {"kind": "killed_each_role"}
    assert holds(game, {**each, "roles": ["bandit", "beast"]})
    assert not holds(game, {**each, "roles": ["bandit", "beast", "goblin"]})
    assert holds(game, {**each, "roles": ["sage"]})
    assert not holds(game, {**each, "roles": ["sage"], "enemy_only": True})
    assert holds(game, {**each, "roles": ["beast"]}, "agent_1")
    assert not holds(game, {**each, "roles": ["bandit"]}, "agent_1")


def test_the_stage_completes_in_the_tick_of_the_kill_that_makes_it(killing: Game) -> None:
    game = killing
    move_to(game, "agent_0", VAULT)
    wasps = [spawn_npc(game, "npc_wasp", VAULT) for _ in range(3)]
    smite(game, "agent_0", wasps[0].name)
    smite(game, "agent_0", wasps[1].name)
    assert completed(game) == []
    result = smite(game, "agent_0", wasps[2].name)
    assert completed(game) == ["dark_kills"]
    assert result.events_of("agent_0", QUEST_STAGE_ADVANCED)


def test_kills_count_from_the_tick_the_quest_starts(killing: Game) -> None:
    """An agent still in the tutorial has no quest: its kills then are not recorded. The tick its
    quest begins, they are."""
    game = killing
    late = game.agents["agent_1"]
    late.progress.pop("main_quest")
    late.tutorial_passed = False
    move_to(game, "agent_1", VAULT)
    wasps = [spawn_npc(game, "npc_wasp", VAULT) for _ in range(2)]
    smite(game, "agent_1", wasps[0].name)
    assert "main_quest" not in late.progress
    late.tutorial_passed = True
    smite(game, "agent_1", wasps[1].name)  # the tick its quest begins
    assert progress(game, "agent_1")["kills"] == [
        {"enemy": True, "role": "beast", "dark": True, "level": 3, "count": 1}
    ]


# ---------------------------------------------------------------------------- lit dark areas
def test_dark_areas_are_recorded_while_a_light_is_in_hand(tmp_path: Path) -> None:
    stage = {
        "id": "lights",
        "objective": "Carry the key through the dark.",
        "done_all": [{"kind": "lit_dark_areas", "k": 2, "light_object": "obj_key"}],
    }
    game = quest_game(tmp_path, [stage])
    body = game.agents["agent_0"]
    give(game, "agent_0", "obj_key")
    game.tick(waits(game))  # the gate is lit: nothing
    assert "lit" not in progress(game)
    move_to(game, "agent_0", ROWS)
    game.tick(waits(game))
    game.tick(waits(game))
    assert progress(game)["lit"] == {"obj_key": [ROWS]}  # once per area
    move_to(game, "agent_0", VAULT)
    body.hands.clear()
    equip_inventory(game, {"obj_key": 1})  # carried, but not in hand
    game.tick(waits(game))
    assert progress(game)["lit"] == {"obj_key": [ROWS]} and completed(game) == []
    give(game, "agent_0", "obj_key")
    game.tick(waits(game))
    assert progress(game)["lit"] == {"obj_key": [ROWS, VAULT]}
    assert completed(game) == ["lights"]


def test_the_default_light_is_the_torch(tmp_path: Path) -> None:
    torch = {
        "id": "obj_torch", "name": "torch", "category": "tool", "usage": "light", "value": 2,
        "size": 1, "level": 1, "craft": {"ingredients": {}, "dependencies": []},
    }  # fmt: skip
    stage = {"id": "lights", "objective": "o", "done_all": [{"kind": "lit_dark_areas", "k": 1}]}
    game = quest_game(tmp_path, [stage], objects=[torch])
    move_to(game, "agent_0", ROWS)
    give(game, "agent_0", "obj_key")
    game.tick(waits(game))
    assert completed(game) == []
    give(game, "agent_0", "obj_torch")
    game.tick(waits(game))
    assert progress(game)["lit"] == {"obj_torch": [ROWS]} and completed(game) == ["lights"]


# ---------------------------------------------------------------------------- talks
@pytest.fixture
def talking(tmp_path: Path) -> Game:
    setup = [
        {"let": "hermit", "place_npc": "npc_q_hermit", "in": GATE},
        {"let": "fence", "place_npc": "npc_q_fence", "in": GATE},
        {"let": "cipher", "value": "Nine Ravens"},
    ]
    stage = {"id": "talk", "objective": "o", "done_all": [{"kind": "talked_to", "npc": "$hermit"}]}
    return quest_game(tmp_path, [stage], setup=setup, agents=2)


def test_a_talk_counts_from_its_own_tick_and_only_for_the_talker(talking: Game) -> None:
    game = talking
    game.tick(waits(game, agent_1="talk to hermit"))
    assert completed(game) == [] and completed(game, "agent_1") == ["talk"]
    game.tick(waits(game, agent_0="talk to fence"))
    assert completed(game) == []
    assert "talked" not in progress(game)  # only the NPCs conditions name are recorded
    result = game.tick(waits(game, agent_0="talk to hermit"))
    assert result.action_ok["agent_0"] and completed(game) == ["talk"]
    assert progress(game)["talked"] == [variables(game)["hermit"]]


def test_talked_to_with_an_area_and_a_text_carried_now(talking: Game) -> None:
    game = talking
    talked = {"kind": "talked_to", "npc": "$hermit"}
    game.tick(waits(game, agent_0="talk to hermit"))
    assert holds(game, talked)
    assert not holds(game, {"kind": "talked_to", "npc": "$fence"})
    assert not holds(game, {**talked, "area": VATS})
    move_to(game, "agent_0", VATS)  # the talk was at the gate: the area is checked now
    assert holds(game, {**talked, "area": VATS}) and not holds(game, {**talked, "area": GATE})
    carrying = {**talked, "carrying_text": "$cipher"}
    assert not holds(game, carrying)
    crate = hold_crate(game)
    label = game.world.new_instance("obj_label")
    game.world.writables[label].text = "nine ravens"
    game.world.containers[crate].items[label] = 1  # in a container in hand
    assert not holds(game, carrying)  # default: hands and inventory
    assert holds(game, {**carrying, "carrying_where": "hands+inventory+held"})
    del game.world.containers[crate].items[label]
    game.world.containers[equip_inventory(game)].items[label] = 1
    assert holds(game, carrying)
    assert not holds(game, {**carrying, "carrying_where": "hands"})


# ---------------------------------------------------------------------------- purchases
def test_bought_from_the_npc_and_of_the_objects(tmp_path: Path) -> None:
    setup = [
        {"let": "fence", "place_npc": "npc_q_fence", "in": GATE, "stock": {"obj_cider": 2}},
        {"let": "hermit", "place_npc": "npc_q_hermit", "in": GATE},
    ]
    stage = {
        "id": "buy",
        "objective": "o",
        "done_all": [{"kind": "bought_from", "npc": "$fence", "objects": ["obj_cider"]}],
    }
    other = {"kind": "bought_from", "npc": "$hermit"}
    game = quest_game(tmp_path, [stage], setup=setup, agents=2)
    give(game, "agent_0", "obj_coin", 20)
    give(game, "agent_1", "obj_coin", 20)
    result = game.tick(waits(game, agent_0="buy 1 cider fence"))
    assert result.action_ok["agent_0"], result.feedback("agent_0")
    assert completed(game) == ["buy"] and completed(game, "agent_1") == []
    assert progress(game)["bought"] == [[variables(game)["fence"], "obj_cider"]]
    assert holds(game, {"kind": "bought_from", "npc": "$fence"})
    assert not holds(game, {"kind": "bought_from", "npc": "$fence", "objects": ["obj_pear"]})
    assert not holds(game, other)
    game.tick(waits(game))
    assert completed(game) == ["buy"]  # a record, not an event: it keeps holding


# ---------------------------------------------------------------------------- NPCs dead
def test_any_agents_kill_makes_an_npc_dead_for_everyone_for_good(tmp_path: Path) -> None:
    setup = [
        {"let": "brute", "place_npc": "npc_q_brute", "in": ROWS},
        {"let": "hermit", "place_npc": "npc_q_hermit", "in": ROWS},
    ]
    stage = {"id": "dead", "objective": "o", "done_all": [{"kind": "npc_dead", "npc": "$brute"}]}
    game = quest_game(tmp_path, [stage], setup=setup, agents=2, config=SMITE)
    move_to(game, "agent_1", ROWS)
    smite(game, "agent_1", "hermit")
    assert "killed" not in game.world.auxiliary["main_quest"]  # nobody asks about the hermit
    brute = game.world.npcs[variables(game)["brute"]]
    smite(game, "agent_1", brute.name)
    assert completed(game) == ["dead"] and completed(game, "agent_1") == ["dead"]
    assert game.world.auxiliary["main_quest"]["killed"] == [brute.id]
    brute.hp = brute.max_hp  # back on its feet
    game.world.place_npc(brute.id, ROWS)
    assert holds(game, {"kind": "npc_dead", "npc": "$brute"})


# ---------------------------------------------------------------------------- saving
def test_records_are_saved_and_a_damaged_record_is_refused(killing: Game, tmp_path: Path) -> None:
    game = killing
    move_to(game, "agent_0", VAULT)
    smite(game, "agent_0", spawn_npc(game, "npc_wasp", VAULT).name)
    game.save(tmp_path / "saved.json")
    loaded = Game.load(tmp_path / "saved.json", rule_packs=SMITE["rule_packs"])
    assert loaded.agents["agent_0"].progress == game.agents["agent_0"].progress
    rule = quest_rule(game)
    assert rule.check_saved_state(game.world, game.agents) == []
    progress(game)["kills"][0]["count"] = "1"
    progress(game, "agent_1")["talked"] = [3]
    problems = rule.check_saved_state(game.world, game.agents)
    assert problems == [
        "agents.agent_0.progress.main_quest.kills[0].count: expected int, got a string",
        "agents.agent_1.progress.main_quest.talked[0]: expected str, got an integer",
    ], problems


def test_a_quest_without_these_kinds_records_nothing(tmp_path: Path) -> None:
    stage = {"id": "walk", "objective": "o", "done_all": [{"kind": "in_area", "area": VAULT}]}
    game = quest_game(tmp_path, [stage], config=SMITE)
    move_to(game, "agent_0", ROWS)
    give(game, "agent_0", "obj_key")
    wasp = spawn_npc(game, "npc_wasp", ROWS)
    smite(game, "agent_0", wasp.name)
    assert not set(RECORD_KEYS) & set(progress(game))
    assert "killed" not in game.world.auxiliary["main_quest"]
