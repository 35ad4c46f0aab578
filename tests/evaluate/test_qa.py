"""Episodic-memory and world-knowledge QA: deterministic questions in AgentOdyssey's categories,
right reference answers (checked against the log and the world), and the scorer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz.evaluate import EvalConfig, evaluate
from agentodyssey_pz.evaluate.qa import (
    EPISODIC,
    MAX_CHOICES,
    WORLD,
    PerfectAnswerer,
    Question,
    RandomAnswerer,
    ask,
    is_right,
    questions_from_log,
    score,
)
from agentodyssey_pz.evaluate.trajectory import read_trajectory, records_by_agent, replay_env


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("qa")
    config = EvalConfig(
        episodes=1,
        steps=120,
        num_agents=2,
        policies=("crafter", "random"),
        seed=4,
        trajectory_dir=str(folder),
    )
    evaluate(config)
    return folder / "episode-0000.jsonl"


@pytest.fixture(scope="module")
def questions(log: Path) -> tuple[list[Question], list[Question]]:
    return questions_from_log(log, "agent_0", per_category=5)


def test_questions_are_deterministic(log: Path, questions) -> None:
    assert questions_from_log(log, "agent_0", per_category=5) == questions
    other = questions_from_log(log, "agent_0", per_category=5, seed=1)
    assert other != questions
    assert {q.category for q in other[0]} == {q.category for q in questions[0]}


def test_categories_and_choices(questions) -> None:
    episodic, world = questions
    assert {q.category for q in episodic} <= set(EPISODIC)
    assert {"visited_area", "acquired_object", "action_at_time_location", "next_action"} <= {
        q.category for q in episodic
    }
    assert {q.category for q in world} == set(WORLD)
    for q in episodic + world:
        assert 1 <= len(q.choices) <= MAX_CHOICES
        assert len(set(q.choices)) == len(q.choices)
        assert 0 <= q.answer < len(q.choices)
        assert sum(1 for c in q.choices if c == q.reference) == 1
    counts: dict[str, int] = {}
    for q in episodic + world:
        counts[q.category] = counts.get(q.category, 0) + 1
    assert max(counts.values()) <= 5


def test_episodic_references_are_what_happened(log: Path, questions) -> None:
    episodic, _ = questions
    header, steps = read_trajectory(log)
    records = records_by_agent(steps)["agent_0"]
    commands = [r["command"] for r in records if r.get("command")]
    end = replay_env(header)
    for tick in sorted({int(s["tick"]) for s in steps}):
        end.step({s["agent"]: s["action"] for s in steps if int(s["tick"]) == tick})
    world, agent = end.game.world, end.game.agents["agent_0"]
    visited = {world.areas[a].name for a in agent.visited}
    for q in episodic:
        if q.category == "visited_area":
            assert q.reference in visited
            assert not (set(q.choices) - {q.reference}) & visited  # no other right answer
        elif q.category == "acquired_object":
            assert q.reference in {world.objects[o].name for o in agent.acquired}
        elif q.category == "next_action":
            done = q.question.split("order: ")[1].split(". What")[0].split("; ")
            assert any(
                commands[i : i + 5] == done and commands[i + 5] == q.reference
                for i in range(len(commands) - 5)
            )
        elif q.category == "action_at_time_location":
            assert q.reference in commands


def test_world_references_are_the_world(log: Path, questions) -> None:
    _, world_qs = questions
    game = replay_env(read_trajectory(log)[0]).game
    world = game.world
    by_name = {o.name: o for o in world.objects.values()}
    for q in world_qs:
        if q.category == "craft_ingredient":
            product = by_name[q.question.split("crafting ")[1].removesuffix(" take?")]
            needs = {world.objects[i].name for i in product.craft.ingredients}
            assert q.reference in needs and not (set(q.choices) - {q.reference}) & needs
        elif q.category == "spatial_connection":
            name = q.question.split("next to ")[1].removesuffix("?")
            (area,) = [a for a in world.areas.values() if a.name == name]
            near = {world.areas[n].name for n in world.graph.neighbors(area.id)}
            assert q.reference in near
        elif q.category == "action_rules":
            assert q.reference in {r.verb for r in game.engine.rules.values()}
        elif q.category == "step_rules":
            assert q.reference in {r.description for r in game.step_rules}


def test_perfect_and_random_answerers(questions) -> None:
    everything = questions[0] + questions[1]
    perfect = ask(PerfectAnswerer(everything), everything)
    assert perfect["accuracy"] == 1.0 and perfect["correct"] == perfect["count"]
    assert set(perfect["categories"]) == {q.category for q in everything}
    chance = ask(RandomAnswerer(seed=3), everything)
    assert chance == ask(RandomAnswerer(seed=3), everything)  # seeded
    assert chance["accuracy"] < 0.5
    assert ask(PerfectAnswerer([]), everything)["accuracy"] == 0.0  # knows nothing


QUESTION = Question("craft_ingredient_quantity", "How many?", ("3", "1", "2"), 2)
NAMED = Question("visited_area", "Which?", ("Mill Yard", "Weir"), 0)


def test_scoring_rules() -> None:
    assert is_right(QUESTION, "2") and is_right(QUESTION, " 2\n")
    assert not is_right(QUESTION, "1")  # a number is a choice number, never a choice's text
    assert is_right(NAMED, "0") and is_right(NAMED, "mill yard") and not is_right(NAMED, "Weir")
    assert not is_right(NAMED, "") and not is_right(NAMED, "0. Mill Yard")
    result = score([QUESTION, NAMED, NAMED], ["2", "1", "MILL YARD"])
    assert result == {
        "correct": 2,
        "count": 3,
        "accuracy": 0.666667,
        "categories": {
            "craft_ingredient_quantity": {"correct": 1, "count": 1, "accuracy": 1.0},
            "visited_area": {"correct": 1, "count": 2, "accuracy": 0.5},
        },
    }
    assert score([], [])["accuracy"] == 0.0
    with pytest.raises(ValueError, match="1 answers to 2 questions"):
        score([QUESTION, NAMED], ["0"])


def test_prompts_list_numbered_choices() -> None:
    assert NAMED.prompt.splitlines()[:3] == ["Which?", "0. Mill Yard", "1. Weir"]
    assert NAMED.as_dict() == {
        "category": "visited_area",
        "question": "Which?",
        "choices": ["Mill Yard", "Weir"],
        "answer": 0,
    }


class Broken:
    def answer_questions(self, questions: list[str]) -> Any:
        return [1 for _ in questions]


def test_bad_answerers_and_agents_get_clear_errors(log: Path) -> None:
    with pytest.raises(ValueError, match="must return a list of strings"):
        ask(Broken(), [QUESTION])
    with pytest.raises(ValueError, match="no agent 'agent_9' in this log"):
        questions_from_log(log, "agent_9")
