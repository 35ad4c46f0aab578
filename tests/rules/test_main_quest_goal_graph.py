"""The main quest's goal-graph chapters (docs/mechanics/quests.md#goal-graph-chapters): every stage
done in a tick completes before the chapter or the quest may close, and stages without conditions
close their parents. Also, in any chapter, `$guide` in a condition is each agent's own guide."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness import TINY

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.resources import default_quest_file
from agentodyssey_pz.rules.events import MAIN_QUEST_COMPLETE, QUEST_STAGE_ADVANCED

HERE, FAR = "area_gate", "area_vault"


def stage(stage_id: str, where: str, **extra: Any) -> dict[str, Any]:
    done = {"done_all": [{"kind": "in_area", "area": where}]} if where else {}
    return {"id": stage_id, "objective": f"reach {stage_id}", **done, **extra}


def chapter(chapter_id: str, *stages: dict[str, Any]) -> dict[str, Any]:
    return {"id": chapter_id, "title": chapter_id.title(), "intro": "i", "stages": list(stages)}


def quest_game(tmp_path: Path, chapters: list[dict[str, Any]], agents: int = 1) -> Game:
    """The tiny world with a main quest of the given chapters (the default quest's guide)."""
    world = json.loads(Path(TINY).read_text(encoding="utf-8"))
    world["custom_events"] = ["main_quest"]
    base = json.loads(default_quest_file("main_quest").read_text(encoding="utf-8"))
    quest = {key: base[key] for key in ("title", "intro", "completion_text", "guide")}
    quest["npcs"] = [n for n in base["npcs"] if n["id"] == base["guide"]["npc"]]
    quest["setup"], quest["chapters"] = [], chapters
    (tmp_path / "world.json").write_text(json.dumps(world), encoding="utf-8")
    (tmp_path / "quests.json").write_text(json.dumps({"main_quest": quest}), encoding="utf-8")
    game = Game(tmp_path / "world.json", agents)
    game.reset(0)
    assert all(agent.area_id == HERE for agent in game.agents.values())
    return game


def advanced(result: Any) -> list[tuple[Any, bool]]:
    return [
        (e.data["stage"], e.data.get("auto_complete", False))
        for e in result.events_of("agent_0", QUEST_STAGE_ADVANCED)
    ]


def coins_here(game: Game) -> int:
    return game.world.areas[HERE].objects.get("obj_coin", 0)  # quest rewards land at my feet


def test_every_stage_done_in_the_tick_completes_before_the_chapter_closes(tmp_path: Path) -> None:
    """`a` closes the chapter, but `b`, done in the same tick, still pays its
    coins and its event (the chapter closed at the first finished stage before)."""
    game = quest_game(
        tmp_path,
        [
            chapter(
                "one",
                stage("a", HERE, chapter_complete=True),
                stage("b", HERE, on_complete=[{"give": {"obj_coin": 3}}]),
                stage("later", FAR, requires=["a", "b"]),
            ),
            chapter("two", stage("x", FAR, quest_complete=True)),
        ],
    )
    before = coins_here(game)
    result = game.tick({"agent_0": "wait"})
    assert advanced(result) == [("a", False), ("b", False)]
    progress = game.agents["agent_0"].progress["main_quest"]
    assert progress["chapter"] == 1 and coins_here(game) == before + 3


def test_quest_completion_wins_over_chapter_completion_in_the_same_tick(tmp_path: Path) -> None:
    game = quest_game(
        tmp_path,
        [
            chapter(
                "one",
                stage("a", HERE, chapter_complete=True),
                stage("b", HERE, quest_complete=True),
                stage("later", FAR, requires=["a"]),
            ),
            chapter("two", stage("x", FAR, quest_complete=True)),
        ],
    )
    result = game.tick({"agent_0": "wait"})
    assert advanced(result) == [("a", False), ("b", False)]
    assert result.events_of("agent_0", MAIN_QUEST_COMPLETE)
    assert game.agents["agent_0"].progress["main_quest"]["complete"]


def test_a_parent_without_conditions_closes_when_its_sub_goals_are_done(tmp_path: Path) -> None:
    """The cascade auto-completes the parent, in the same tick."""
    game = quest_game(
        tmp_path,
        [
            chapter(
                "one",
                stage("a", HERE),
                stage("b", HERE),
                stage("parent", "", requires=["a", "b"], quest_complete=True),
            ),
        ],
    )
    result = game.tick({"agent_0": "wait"})
    assert advanced(result) == [("a", False), ("b", False), ("parent", True)]
    assert game.agents["agent_0"].progress["main_quest"]["complete"]


def test_a_condition_naming_the_guide_reads_each_agents_own_guide(tmp_path: Path) -> None:
    """`$guide` in a condition is the agent's own guide, not another agent's (each agent has one;
    the shared quest variables are not copied per agent, so this is resolved on top of them)."""
    meet = {"done_all": [{"kind": "in_area_with_npc", "npc": "$guide"}]}
    game = quest_game(
        tmp_path,
        [chapter("one", stage("meet", "", **meet), stage("end", FAR, quest_complete=True))],
        agents=2,
    )
    guide_of = {a: game.agents[a].progress["main_quest"]["guide"] for a in ("agent_0", "agent_1")}
    assert guide_of["agent_0"] != guide_of["agent_1"]
    game.world.place_npc(guide_of["agent_0"], FAR)  # agent_1's guide still stands here
    result = game.tick({"agent_0": "wait", "agent_1": "wait"})
    done = {a: game.agents[a].progress["main_quest"]["completed"] for a in ("agent_0", "agent_1")}
    assert done == {"agent_0": [], "agent_1": ["meet"]}
    assert not result.events_of("agent_0", QUEST_STAGE_ADVANCED)
    game.world.place_npc(guide_of["agent_0"], HERE)
    game.tick({"agent_0": "wait", "agent_1": "wait"})
    assert game.agents["agent_0"].progress["main_quest"]["completed"] == ["meet"]
