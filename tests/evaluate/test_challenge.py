"""AgentOdyssey's challenge aggregate: main reward = quest, supplementary = side_quest +
exploration + craft + unique_kill, means over runs (never the best run), protocol warnings; the same
numbers from a report and from its logs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentodyssey_pz.evaluate import EvalConfig, evaluate
from agentodyssey_pz.evaluate.challenge import (
    MAX_STEPS,
    Run,
    aggregate,
    format_challenge,
    main_reward,
    runs_from_log,
    runs_from_report,
    supplementary_reward,
)
from agentodyssey_pz.evaluate.trajectory import read_trajectory

REWARD = {
    "exploration": 5,
    "craft": 2,
    "kill": 7,
    "unique_kill": 1,
    "trade": 3,
    "quest": 2,
    "side_quest": 1,
    "death": 4,
}


def run(policy: str = "a", episode: int = 0, game: str = "agentodyssey:remnant",
        steps: int = 500, agents: int = 1, **reward: int) -> Run:  # fmt: skip
    return Run(game, policy, "agent_0", episode, steps, agents, {**REWARD, **reward}, {"x": 1})


def test_main_and_supplementary_leave_kills_trades_and_deaths_out() -> None:
    assert main_reward(REWARD) == 2
    assert supplementary_reward(REWARD) == 1 + 5 + 2 + 1
    assert main_reward({}) == supplementary_reward({}) == 0


def test_means_over_runs_never_the_best() -> None:
    runs = [run(episode=0, quest=0, craft=0), run(episode=1, quest=3, craft=6), run("b")]
    result = aggregate(runs)
    entry = result["games"]["agentodyssey:remnant"]["a"]
    assert entry["runs"] == 2
    assert entry["main"] == 1.5  # (0 + 3) / 2, not 3
    assert entry["main_std"] == 2.12132
    assert entry["supplementary"] == 10.0  # (7 + 13) / 2
    assert entry["supplementary_std"] == 4.242641
    assert entry["steps"] == 500
    assert result["games"]["agentodyssey:remnant"]["b"]["runs"] == 1
    assert result["max_steps"] == MAX_STEPS == 500
    assert result["warnings"] == ["agentodyssey:remnant: b has a single run, a mean of one"]


def test_protocol_warnings() -> None:
    runs = [
        run(game="default", steps=600, agents=3),
        run(game="default", episode=1, steps=200, agents=3),
    ]
    runs.append(Run("default", "a", "agent_1", 2, 200, 3, REWARD, {"x": 2}))
    warnings = aggregate(runs)["warnings"]
    assert warnings == [
        "default: runs of 600 steps; the challenge plays at most 500",
        "default: runs of different lengths (200, 600 steps)",
        "default: runs with different env settings; their means do not compare",
        "default: 3 agents share each world; the challenge plays one agent, so other agents' "
        "actions change these rewards",
        "default: not one of the challenge's games (agentodyssey:remnant, agentodyssey:mark, "
        "agentodyssey:metropolis)",
    ]


def test_seeds_do_not_count_as_different_settings() -> None:
    first = Run("agentodyssey:mark", "a", "agent_0", 0, 100, 1, REWARD, {"seed": 1, "x": 1})
    second = Run("agentodyssey:mark", "a", "agent_0", 1, 100, 1, REWARD, {"seed": 2, "x": 1})
    assert aggregate([first, second])["warnings"] == []


def test_the_printed_table() -> None:
    lines = format_challenge(aggregate([run(), run(episode=1, quest=4)]))
    assert lines[0].startswith("challenge (AgentOdyssey's aggregate")
    assert lines[1].split() == ["game", "policy", "runs", "main", "supplementary", "steps"]
    assert lines[3].split() == ["agentodyssey:remnant", "a", "2", "3.00", "+-", "1.41",
                                "9.00", "+-", "0.00", "500"]  # fmt: skip


def test_report_and_logs_give_the_same_aggregate(tmp_path: Path) -> None:
    config = EvalConfig(episodes=2, steps=30, num_agents=3, seed=5, trajectory_dir=str(tmp_path))
    report = evaluate(config)
    from_logs: list[Any] = []
    for path in sorted(tmp_path.glob("episode-*.jsonl")):
        from_logs += runs_from_log(*read_trajectory(path))
    from_report = runs_from_report(report["config"], report["episodes"])
    assert [(r.policy, r.agent, r.episode, dict(r.reward)) for r in from_logs] == [
        (r.policy, r.agent, r.episode, dict(r.reward)) for r in from_report
    ]
    assert aggregate(from_logs)["games"] == report["challenge"]["games"]
    section = report["challenge"]["games"]["default"]
    for policy, entry in section.items():
        mine = [m for ep in report["episodes"] for m in ep["agents"].values()
                if m["policy"] == policy]  # fmt: skip
        expected = sum(m["reward"]["quest"] for m in mine) / len(mine)
        assert entry["main"] == round(expected, 6) and entry["runs"] == len(mine)
