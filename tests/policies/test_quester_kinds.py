"""The quest planner satisfies each condition kind, and what it holds against a boss with
modifiers.

Each case is a one-stage quest on the tiny world (`quest_world.quest_game`: gate and vats lit,
rows and vault dark; a brute bandit, a fence merchant and a hermit placed by the setup below),
played by the test solver (`quest_solver.QuestSolver`, the quester policy's planner) with text
commands through `Game.tick` only, until the stage completes. The solver raises `Stuck` when it
finds no way on, which fails the case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import give
from quest_solver import QuestSolver, Stuck, run
from quest_world import GATE, ROWS, VATS, VAULT, completed, holds, quest_game

from agentodyssey_pz.engine.game import Game

MAX_TICKS = 400
SETUP = [
    {"let": "fence", "place_npc": "npc_q_fence", "in": GATE, "min_coins": 20},
    {"let": "brute", "place_npc": "npc_q_brute", "in": ROWS},
    {"let": "vault", "area": VAULT},
    {"let": "cellar", "areas": [VATS, GATE]},
    {"let": "word", "value": "Brine"},
]


def stage(*conditions: dict[str, Any], any_of: bool = False) -> dict[str, Any]:
    key = "done_any" if any_of else "done_all"
    return {"id": "target", "objective": "Do it.", key: list(conditions)}


def play(tmp_path: Path, *conditions: dict[str, Any], **quest: Any) -> Game:
    """A one-agent game whose quest's first stage is `conditions`, played until it completes."""
    game = quest_game(tmp_path, [stage(*conditions)], setup=SETUP, **quest)
    assert not any(holds(game, c) for c in conditions)  # there is something to do
    solver = QuestSolver(game, "agent_0")
    for _ in range(MAX_TICKS):
        run(game, {"agent_0": solver}, 1)
        if completed(game) == ["target"]:
            return game
    raise AssertionError(f"the stage did not complete in {MAX_TICKS} ticks: {solver.log[-20:]}")


CASES = {
    "killed_matching in the dark": {
        "kind": "killed_matching", "n": 1, "enemy_only": True, "dark_area": True,
        "min_area_level": 1,
    },
    "killed_each_role": {"kind": "killed_each_role", "roles": ["bandit"], "enemy_only": True},
    "lit_dark_areas": {"kind": "lit_dark_areas", "k": 2, "light_object": "obj_quill"},
    "talked_to, then somewhere": {"kind": "talked_to", "npc": "$fence", "area": VATS},
    "talked_to carrying a text": {
        "kind": "talked_to", "npc": "$fence", "carrying_text": "$word",
        "carrying_where": "hands",
    },
    "bought_from": {"kind": "bought_from", "npc": "$fence", "objects": ["obj_cider"]},
    "npc_dead": {"kind": "npc_dead", "npc": "$brute"},
    "object_on_ground": {"kind": "object_on_ground", "objects": ["obj_pear"], "area": "$vault"},
    "area_clear": {"kind": "area_clear", "area": ROWS},
    "equipped_min_level": {"kind": "equipped_min_level", "category": "armor", "min_level": 1},
    "a text contained, in hand": {
        "kind": "writable_text_equals_in_inventory", "text": "$word", "match": "contains",
        "where": "hands",
    },
    "has_category in hand": {"kind": "has_category", "category": "weapon", "where": "hands"},
    "visited since the episode began": {
        "kind": "visited_k_of_area_set", "areas": "$cellar", "k": 2, "history": "episode",
    },
    "stamped_areas_in_order": {
        "kind": "stamped_areas_in_order", "areas": [VATS, GATE], "object": "obj_pear",
    },
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_the_planner_satisfies_the_kind(tmp_path: Path, name: str) -> None:
    play(tmp_path, CASES[name])


def test_the_planner_fills_an_npcs_purse_by_buying_from_it(tmp_path: Path) -> None:
    (tmp_path / "probe").mkdir()
    probe = quest_game(tmp_path / "probe", [], setup=SETUP)
    fence = probe.world.auxiliary["main_quest"]["vars"]["fence"]
    wanted = probe.world.npcs[fence].coins + 1  # a purchase brings at least one coin
    game = play(tmp_path, {"kind": "npc_coins_at_least", "npc": "$fence", "coins": wanted})
    assert game.world.npcs[fence].coins >= wanted


def test_a_stage_wanting_a_shared_boss_dead_fights_it(tmp_path: Path) -> None:
    bosses = {"warden": {"npc": "npc_q_brute", "in": VATS, "hp": 30, "attack": 4, "shared": True}}
    raw = {
        "id": "target",
        "objective": "Beat the warden.",
        "done_any": [{"kind": "boss_already_defeated", "boss": "warden"}],
        "on_start": [{"spawn_boss": "warden"}],
    }
    game = quest_game(tmp_path, [raw], setup=SETUP, bosses=bosses)
    solver = QuestSolver(game, "agent_0")
    run(game, {"agent_0": solver}, MAX_TICKS // 2)
    assert completed(game) == ["target"]
    assert game.world.auxiliary["main_quest"]["defeated"] == {"warden": True}


ENRAGED = {
    "warden": {
        "npc": "npc_q_brute", "in": VATS, "hp": 60, "attack": 4, "shared": True,
        "modifiers": [
            {"when_held": ["obj_pruner"], "attack": 60},
            {"when_held": ["obj_label"], "unless_held": ["obj_pruner"], "max_hp": 20},
        ],
    },
}  # fmt: skip


def boss_game(tmp_path: Path) -> tuple[Game, QuestSolver, Any]:
    raw = {
        "id": "target",
        "objective": "Beat the warden.",
        "done_any": [{"kind": "boss_already_defeated", "boss": "warden"}],
        "on_start": [{"spawn_boss": "warden"}],
    }
    game = quest_game(tmp_path, [raw], setup=SETUP, bosses=ENRAGED)
    solver = QuestSolver(game, "agent_0")
    warden = game.world.npcs[game.world.auxiliary["main_quest"]["shared_bosses"]["warden"]]
    return game, solver, warden


def test_a_weapon_that_enrages_the_boss_stays_out_of_hand(tmp_path: Path) -> None:
    game, solver, warden = boss_game(tmp_path)
    give(game, "agent_0", "obj_pruner")  # my best weapon, but it raises the warden's attack to 60
    assert solver.best_weapon() == "obj_pruner"
    assert solver.boss_stats(warden, ("obj_pruner",)) == (60, 60)
    held, cost = solver.hand_setup(warden)
    assert "obj_pruner" not in held and cost < solver.fight_cost(warden, its_attack=60)


def test_what_weakens_the_boss_is_held_beside_the_weapon(tmp_path: Path) -> None:
    game, solver, warden = boss_game(tmp_path)
    [label] = give(game, "agent_0", "obj_label")
    assert solver.boss_stats(warden, ("obj_label",)) == (4, 20)
    assert solver.boss_stats(warden, ("obj_label", "obj_pruner")) == (60, 60)
    held, _ = solver.hand_setup(warden)
    assert held == ("obj_label",)
    assert label in game.agents["agent_0"].hands


RELIC = {
    "id": "obj_q_relic", "name": "relic", "category": "material", "usage": "quest", "value": 5,
    "size": 1, "level": 1, "quest": True, "craft": {"ingredients": {}, "dependencies": []},
}  # fmt: skip


def test_after_its_setbacks_the_planner_gives_up_and_says_why(tmp_path: Path) -> None:
    """A stage no plan can reach (a relic nothing gives): the planner steps aside and waits
    SETBACK_PAUSE ticks after each failed plan (the world may change), MAX_SETBACKS times; then
    the solver raises Stuck naming what it could not get."""
    from agentodyssey_pz.policies.quester import MAX_SETBACKS, SETBACK_PAUSE

    wanted = {"kind": "has_any_of", "objects": ["obj_q_relic"]}
    game = quest_game(
        tmp_path, [stage(wanted)], setup=SETUP, objects=[RELIC], undistributable=["obj_q_relic"]
    )
    solver = QuestSolver(game, "agent_0")
    with pytest.raises(Stuck, match="no source for obj_q_relic"):
        run(game, {"agent_0": solver}, MAX_TICKS)
    assert solver.setbacks == MAX_SETBACKS + 1
    assert game.tick_index >= MAX_SETBACKS * SETBACK_PAUSE
    assert solver.log.count("wait") >= MAX_SETBACKS * SETBACK_PAUSE
