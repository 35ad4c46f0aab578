"""The quest guide's reminders (`remind_every`) and name order (`name_order`),
docs/world-format.md#111-main-quest."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from harness import move_to
from quest_world import GATE, GUIDE, ROWS, VATS, VAULT, completed, progress, quest_game, waits

from agentodyssey_pz.engine.game import Game

STAGES = [
    {"id": "one", "objective": "Reach the vats.", "done_all": [{"kind": "in_area", "area": VATS}]},
    {
        "id": "two",
        "objective": "Reach the vault.",
        "done_all": [{"kind": "in_area", "area": VAULT}],
    },
]


def reminded(game: Game, ticks: int, moves: dict[int, str]) -> list[int]:
    """The ticks (counted from 1) on which agent_0 was reminded; `moves`: tick -> the area
    agent_0 is put in just before it."""
    out = []
    for tick in range(1, ticks + 1):
        if tick in moves:
            move_to(game, "agent_0", moves[tick])
        if "quest.reminder" in game.tick(waits(game)).feedback_keys("agent_0"):
            out.append(tick)
    return out


def test_the_guide_comes_back_every_n_ticks_counted_from_the_stage_start(tmp_path: Path) -> None:
    game = quest_game(tmp_path, STAGES, guide={**GUIDE, "remind_every": 3})
    guide = game.world.npcs[progress(game)["guide"]]
    assert reminded(game, 3, {2: ROWS}) == [3]  # the quest began on the bootstrap tick
    assert guide.area_id == ROWS  # it came to the agent
    # `two` starts on tick 5: reminders on ticks 8 and 11, not 6 and 9.
    assert reminded(game, 8, {2: VATS}) == [5, 8]  # ticks 4 .. 11 here numbered 1 .. 8
    assert completed(game) == ["one"]


def test_a_goal_graph_counts_from_the_last_time_new_goals_became_active(tmp_path: Path) -> None:
    chapters = [
        {
            "id": "g",
            "title": "G",
            "stages": [
                {"id": "a", "objective": "a", "done_all": [{"kind": "in_area", "area": VATS}]},
                {"id": "b", "objective": "b", "requires": ["a"],
                 "done_all": [{"kind": "in_area", "area": VAULT}]},
                {"id": "end", "objective": "e", "requires": ["b"], "quest_complete": True,
                 "done_all": [{"kind": "stage_completed", "stage": "end"}]},
            ],
        }
    ]  # fmt: skip
    game = quest_game(tmp_path, [], chapters=chapters, guide={**GUIDE, "remind_every": 4})
    assert reminded(game, 6, {2: VATS}) == [6]  # `b` became active on tick 2


def test_no_reminders_without_remind_every(tmp_path: Path) -> None:
    game = quest_game(tmp_path, STAGES)
    assert reminded(game, 40, {}) == []
    assert "remind_from" not in progress(game)


def guide_names(game: Game) -> dict[str, str]:
    return {a: game.world.npcs[progress(game, a)["guide"]].name for a in game.agents}


@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_shuffled_names_follow_the_seed_and_sorted_agent_ids(tmp_path: Path, seed: int) -> None:
    guide = {**GUIDE, "name_order": "shuffled"}
    game = quest_game(tmp_path, [], guide=guide, agents=3, seed=seed)
    pool = list(GUIDE["names"])
    random.Random(seed ^ 0xA5A5A5A5).shuffle(pool)
    assert guide_names(game) == {"agent_0": pool[0], "agent_1": pool[1], "agent_2": pool[2]}
    again = quest_game(tmp_path, [], guide=guide, agents=3, seed=seed)
    assert guide_names(again) == guide_names(game)
    listed = quest_game(tmp_path, [], agents=3, seed=seed)
    assert guide_names(listed) == {"agent_0": "Ada", "agent_1": "Bram", "agent_2": "Cleo"}
    assert listed.rng.getstate() == game.rng.getstate()  # the game's generator is not used


def test_shuffled_names_do_not_depend_on_when_each_quest_starts(tmp_path: Path) -> None:
    """agent_0's quest starts late: it still gets the first name of the shuffled pool, and the
    others theirs."""
    guide = {**GUIDE, "name_order": "shuffled"}
    game = quest_game(tmp_path, [], guide=guide, agents=3, seed=5)
    expected = guide_names(game)
    late = quest_game(tmp_path, [], guide=guide, agents=3, seed=5)
    body = late.agents["agent_0"]
    late.world.delete_npc(progress(late)["guide"])
    body.progress.pop("main_quest")
    late.world.auxiliary["main_quest"]["guide_names"].pop("agent_0")
    late.tick(waits(late))
    assert guide_names(late) == expected


def test_shuffled_names_spread_over_the_pool(tmp_path: Path) -> None:
    """Over 200 seeds, the first agent's name is each of the five names about a fifth of the time
    (each between 10% and 30%)."""
    counts = dict.fromkeys(GUIDE["names"], 0)
    for seed in range(200):
        pool = list(GUIDE["names"])
        random.Random(seed ^ 0xA5A5A5A5).shuffle(pool)
        counts[pool[0]] += 1
    assert all(20 <= n <= 60 for n in counts.values()), counts
    game = quest_game(tmp_path, [], guide={**GUIDE, "name_order": "shuffled"}, seed=199)
    assert guide_names(game)["agent_0"] == pool[0]
    assert game.world.npcs[progress(game)["guide"]].area_id == GATE
