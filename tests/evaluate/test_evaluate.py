"""Evaluation: the report agrees with the trajectory logs, runs are reproducible (serial, in
processes), ratings order policies by results, the report fits its schema, the table prints, and
a log replays.

The policies here are small stubs with known behaviour (a wanderer that always scores by
exploring, a waiter that never scores), so the tests check the evaluation machinery, not the
bundled scripted policies.
"""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agentodyssey_pz import cli
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.evaluate import (
    EvalConfig,
    evaluate,
    format_table,
    plot,
    replay,
    schema,
    validate,
    without_timing,
)
from agentodyssey_pz.evaluate.ratings import competition_ranks, leaderboard, rate_matches
from agentodyssey_pz.policies.base import BasePolicy
from agentodyssey_pz.rules.rewards import COMPONENTS


class Wanderer(BasePolicy):
    """Enters an unvisited neighbour when it can, another neighbour otherwise."""

    name = "wanderer"

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int | str:
        entries = self.env.catalogue.entries
        valid = np.flatnonzero(observation["action_mask"])
        enters = [int(i) for i in valid if entries[i].verb == "enter"]
        fresh = [i for i in enters if entries[i].target not in self.me.visited]
        pool = fresh or enters
        return self.rng.choice(pool) if pool else "wait"


class Waiter(BasePolicy):
    name = "waiter"

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int | str:
        return "wait"


class MaskRandom(BasePolicy):
    """A random unmasked catalogue index."""

    name = "mask_random"

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int | str:
        return int(self.rng.choice(list(np.flatnonzero(observation["action_mask"]))))


class TextRandom(BasePolicy):
    """A random valid text command, or now and then a command the game cannot parse."""

    name = "text_random"

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int | str:
        options = [c for cmds in info["valid_actions"].values() for c in cmds]
        return self.rng.choice([*options, "sing loudly"])


STUBS = (Wanderer, Waiter, MaskRandom, TextRandom)


def small_config(**changes: Any) -> EvalConfig:
    settings: dict[str, Any] = {
        "episodes": 3,
        "steps": 30,
        "num_agents": 5,
        "policies": STUBS,
        "seed": 7,
    }
    settings.update(changes)
    return EvalConfig(**settings)


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("trajectories")
    return evaluate(small_config(trajectory_dir=str(folder))), folder


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return lines[0], lines[1:]


# ---------------------------------------------------------------------- report versus log
def recomputed(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """An agent's metrics worked out from its log lines, independently of the metrics module."""
    parts = {c: sum(s["reward"][c] for s in steps) for c in COMPONENTS}
    score = (
        parts["exploration"] + parts["craft"] + parts["unique_kill"] + parts["trade"]
        + parts["quest"] + parts["side_quest"] - parts["death"]
    )  # fmt: skip
    verbs = Counter(s["verb"] for s in steps if s["verb"] is not None)
    n = sum(verbs.values())
    entropy = -sum(c / n * math.log2(c / n) for c in verbs.values()) if n else 0.0
    last = steps[-1]["progress"]
    return {
        "steps": len(steps),
        "components": parts,
        "score_total": score,
        "entropy": entropy,
        "verbs": dict(verbs),
        "invalid_rate": sum(s["flags"]["invalid_action"] for s in steps) / len(steps),
        "ineffective_rate": sum(not s["flags"]["action_ok"] for s in steps) / len(steps),
        "areas": last["areas_visited"],
        "crafted": last["crafted_kinds"],
        "deaths": last["deaths"],
        "stages": last["quest_stages"],
        "quest_complete": last["quest_complete"],
    }


def test_report_numbers_equal_those_recomputed_from_the_logs(logged) -> None:
    report, folder = logged
    logs = sorted(folder.glob("episode-*.jsonl"))
    assert len(logs) == len(report["episodes"]) == 3
    scores_by_policy: dict[str, list[int]] = {}
    for entry, log in zip(report["episodes"], logs, strict=True):
        header, steps = read_log(log)
        assert header["seed"] == entry["seed"] and header["episode"] == entry["episode"]
        assert {s["tick"] for s in steps} == set(range(1, entry["ticks"] + 1))
        for agent, metrics in entry["agents"].items():
            mine = [s for s in steps if s["agent"] == agent]
            expect = recomputed(mine)
            assert metrics["steps"] == expect["steps"] == entry["ticks"]
            assert {c: metrics["reward"][c] for c in COMPONENTS} == expect["components"]
            assert metrics["score_total"] == metrics["reward"]["score_total"]
            assert metrics["score_total"] == expect["score_total"], agent
            assert metrics["action_entropy_bits"] == pytest.approx(expect["entropy"], abs=1e-6)
            assert metrics["verbs"] == expect["verbs"]
            assert metrics["invalid_action_rate"] == pytest.approx(expect["invalid_rate"], abs=1e-6)
            assert metrics["ineffective_action_rate"] == pytest.approx(
                expect["ineffective_rate"], abs=1e-6
            )
            assert metrics["areas_explored"] == expect["areas"]
            assert metrics["objects_crafted"] == expect["crafted"]
            assert metrics["deaths"] == expect["deaths"]
            assert metrics["quest_stages"] == expect["stages"]
            assert metrics["quest_complete"] == expect["quest_complete"]
            assert {s["policy"] for s in mine} == {metrics["policy"]}
            scores_by_policy.setdefault(metrics["policy"], []).append(expect["score_total"])
    for name, scores in scores_by_policy.items():
        entry = report["policies"][name]
        assert entry["samples"] == len(scores)
        mean = sum(scores) / len(scores)
        assert entry["mean"]["score_total"] == pytest.approx(mean, abs=1e-6)
        # The score curve ends at the mean final score.
        assert report["curves"]["score_total"][name][-1] == pytest.approx(mean, abs=1e-6)


def test_logs_cover_verbs_and_flags_the_stubs_produce(logged) -> None:
    # The recomputation above must see real variety, or it would prove little.
    _, folder = logged
    steps = [s for log in folder.glob("*.jsonl") for s in read_log(log)[1]]
    assert any(s["flags"]["invalid_action"] for s in steps)  # "sing loudly"
    assert any(s["reward"]["exploration"] for s in steps)
    assert len({s["verb"] for s in steps}) >= 4
    assert {type(s["action"]) for s in steps} == {int, str}


def test_agents_get_policies_in_turn_and_episodes_their_seeds(logged) -> None:
    report, _ = logged
    cfg = report["config"]
    assert cfg["policies"] == ["wanderer", "waiter", "mask_random", "text_random"]
    assert cfg["assignment"] == {
        "agent_0": "wanderer",
        "agent_1": "waiter",
        "agent_2": "mask_random",
        "agent_3": "text_random",
        "agent_4": "wanderer",
    }
    assert cfg["seeds"] == [7, 8, 9] == [e["seed"] for e in report["episodes"]]
    assert report["policies"]["wanderer"]["agents"] == ["agent_0", "agent_4"]


# ---------------------------------------------------------------------- reproducibility
def test_same_seeds_give_the_same_report_serially() -> None:
    first, second = evaluate(small_config()), evaluate(small_config())
    assert without_timing(first) == without_timing(second)


def test_workers_give_the_serial_results_in_episode_order(logged) -> None:
    serial, _ = logged
    parallel = evaluate(small_config(workers=2))  # no logs: diagnostics all the same
    assert parallel["timing"]["workers"] == 2
    assert [e["episode"] for e in parallel["episodes"]] == [0, 1, 2]
    assert without_timing(parallel) == without_timing(serial)


def test_other_seeds_give_other_results(logged) -> None:
    # Shows the comparisons above can fail.
    report, _ = logged
    other = evaluate(small_config(seed=100))
    assert without_timing(other) != without_timing(report)


# ---------------------------------------------------------------------- ratings
def test_competition_ranks_share_ties_and_skip_after_them() -> None:
    assert competition_ranks([5, 7, 7, 1]) == [3, 1, 1, 4]
    assert competition_ranks([2, 2]) == [1, 1]


def test_ratings_rank_a_policy_that_always_wins_above_one_that_never_does() -> None:
    matches = [[("loser", 0), ("winner", 3 + i), ("middle", 1)] for i in range(8)]
    ratings = rate_matches(matches)
    assert leaderboard(ratings) == ["winner", "middle", "loser"]
    assert ratings["winner"]["ordinal"] > ratings["loser"]["ordinal"]
    assert ratings["winner"]["sigma"] < 25 / 3  # uncertainty shrinks with evidence
    assert ratings["winner"]["matches"] == 8


def test_policies_without_rated_matches_come_last() -> None:
    ratings = rate_matches([[("a", 0), ("b", 5)]], policies=["idle", "a", "b"])
    assert leaderboard(ratings) == ["b", "a", "idle"]
    assert ratings["idle"] == {"mu": 25.0, "sigma": 8.333333, "ordinal": 0.0, "matches": 0}


def test_tied_policies_keep_equal_ratings() -> None:
    ratings = rate_matches([[("a", 1), ("b", 1)]] * 5)
    assert ratings["a"]["mu"] == pytest.approx(ratings["b"]["mu"])


def test_a_policy_with_several_agents_gets_the_mean_of_their_updates() -> None:
    single = rate_matches([[("a", 2), ("b", 1)]])
    double = rate_matches([[("a", 2), ("b", 1), ("a", 2)]])
    assert double["a"]["mu"] > 25 > double["b"]["mu"]
    assert double["a"]["matches"] == single["a"]["matches"] == 1


def test_evaluation_ranks_the_stub_that_always_scores_first() -> None:
    report = evaluate(EvalConfig(episodes=4, steps=25, num_agents=2, policies=(Waiter, Wanderer)))
    for episode in report["episodes"]:  # the premise: the wanderer wins every episode
        assert episode["ranking"] == {"agent_0": 2, "agent_1": 1}
    assert list(report["policies"]) == ["wanderer", "waiter"]
    wanderer, waiter = report["policies"]["wanderer"], report["policies"]["waiter"]
    assert wanderer["rank"] == 1 and waiter["rank"] == 2
    assert wanderer["rating"]["ordinal"] > waiter["rating"]["ordinal"]
    assert wanderer["rating"]["matches"] == 4


# ---------------------------------------------------------------------- schema and table
def test_the_report_validates_against_its_schema(logged) -> None:
    report, _ = logged
    assert validate(report) == []
    assert validate(json.loads(json.dumps(report))) == []  # and after a JSON round trip
    spec = schema()
    assert spec["properties"]["version"] == {"const": report["version"]}
    json.dumps(spec)


def test_validation_reports_broken_reports(logged) -> None:
    report, _ = logged
    broken = copy.deepcopy(report)
    del broken["policies"]["waiter"]["rating"]["mu"]
    broken["episodes"][0]["agents"]["agent_0"]["invalid_action_rate"] = 2.0
    broken["version"] = 99
    broken["extra"] = True
    problems = validate(broken)
    assert any("rating: missing 'mu'" in p for p in problems)
    assert any("invalid_action_rate: 2.0 is above 1" in p for p in problems)
    assert any("version" in p for p in problems)
    assert any("unexpected key 'extra'" in p for p in problems)


def test_the_table_lists_every_policy_and_agent(logged) -> None:
    report, _ = logged
    table = format_table(report)
    lines = table.splitlines()
    assert "3 episodes x 30 steps" in lines[0]
    for name in report["policies"]:
        assert any(line.startswith(name) for line in lines)
    for agent in report["agents"]:
        assert any(line.startswith(agent) for line in lines)
    assert "ordinal" in table and "entropy" in table


def test_unknown_policy_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no-such-policy"):
        evaluate(EvalConfig(episodes=1, steps=1, policies=("no-such-policy",)))
    with pytest.raises(ConfigError, match="episodes"):
        EvalConfig(episodes=0)
    with pytest.raises(ConfigError, match="distinct"):
        evaluate(EvalConfig(episodes=1, steps=1, policies=(Waiter, Waiter)))


# ---------------------------------------------------------------------- replay
def test_replay_reruns_a_log_and_finds_it_identical(logged) -> None:
    _, folder = logged
    for log in sorted(folder.glob("*.jsonl")):
        result = replay(log)
        assert result.ok, result.mismatches[:3]
        assert result.ticks == 30 and result.checked == 30 * 5 * 4


def test_replay_reports_a_log_that_does_not_match(logged, tmp_path: Path) -> None:
    _, folder = logged
    source = sorted(folder.glob("*.jsonl"))[0]
    lines = source.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[12])
    record["reward"]["exploration"] += 1
    lines[12] = json.dumps(record)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = replay(tampered)
    assert not result.ok
    assert result.mismatches == (
        f"tick {record['tick']} {record['agent']} reward: log {record['reward']}, replay "
        f"{ {**record['reward'], 'exploration': record['reward']['exploration'] - 1} }",
    )


# ---------------------------------------------------------------------- plot and command line
def test_plot_is_skipped_with_a_message_without_matplotlib(
    logged, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report, _ = logged
    monkeypatch.setattr(plot, "has_matplotlib", lambda: False)
    assert plot.plot_scores(report, tmp_path / "scores.png") is None
    assert "matplotlib" in plot.PLOT_UNAVAILABLE
    assert not (tmp_path / "scores.png").exists()


def test_plot_is_written_with_matplotlib(logged, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report, _ = logged
    for suffix in ("png", "svg"):
        written = plot.plot_scores(report, tmp_path / f"scores.{suffix}")
        assert written is not None and written.stat().st_size > 0


def test_cli_evaluate_prints_the_table_and_writes_report_and_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentodyssey_pz.policies import registry

    monkeypatch.setattr(registry, "REGISTRY", registry.PolicyRegistry())
    registry.register_policy("stub_wanderer", Wanderer)
    registry.register_policy("stub_waiter", Waiter)
    out = tmp_path / "run"
    argv = ["evaluate", "--episodes", "2", "--steps", "10", "--agents", "2", "--quiet"]
    argv += ["--policies", "stub_wanderer,stub_waiter", "-o", str(out), "--plot", "svg"]
    assert cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "stub_wanderer" in printed and "ordinal" in printed
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert validate(report) == []
    assert sorted(p.name for p in (out / "trajectories").iterdir()) == [
        "episode-0000.jsonl",
        "episode-0001.jsonl",
    ]
    has_plot = (out / "scores.svg").exists()
    assert has_plot == plot.has_matplotlib()
    assert ("plot skipped" in printed) != has_plot


def test_no_arguments_run_the_default_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    monkeypatch.setattr(cli, "cmd_evaluate", lambda args: seen.append(args) or 0)
    assert cli.main([]) == 0
    (args,) = seen
    assert (args.episodes, args.steps, args.agents) == (4, 200, 6)
    assert args.policies == "explorer,crafter,fighter,trader,quester,random"


def test_python_m_evaluates_the_bundled_policies_alike_in_two_processes(tmp_path: Path) -> None:
    # Different hash seeds: set and dict orders of strings differ between the two processes, so
    # a policy (or the game) whose choices depend on them gives a different report.
    reports = []
    for hash_seed in ("0", "1"):
        out = tmp_path / f"out-{hash_seed}"
        command = [sys.executable, "-m", "agentodyssey_pz", "evaluate", "--episodes", "1"]
        command += ["--steps", "40", "--plot", "none", "--quiet", "-o", str(out)]
        done = subprocess.run(
            command,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=180,  # a guard against a policy that never returns, not a speed limit
            check=False,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.returncode == 0, done.stderr
        for name in ("explorer", "crafter", "fighter", "trader", "quester", "random"):
            assert name in done.stdout
        reports.append(json.loads((out / "report.json").read_text(encoding="utf-8")))
    assert without_timing(reports[0]) == without_timing(reports[1])


def test_a_lone_surrogate_in_a_record_is_logged_and_read_back(tmp_path: Path) -> None:
    """A model may answer with a lone surrogate, which has no UTF-8 form: the log still takes the
    line (escaped) and every other line stays plain UTF-8."""
    from agentodyssey_pz.evaluate.trajectory import TrajectoryWriter

    writer = TrajectoryWriter(tmp_path / "episode-0000.jsonl")
    writer.write({"command": "look \ud800 here"})
    writer.write({"command": "café"})
    writer.close()
    raw = (tmp_path / "episode-0000.jsonl").read_bytes()
    lines = [json.loads(line) for line in raw.decode("utf-8").splitlines()]
    assert lines == [{"command": "look \ud800 here"}, {"command": "café"}]
    assert "café".encode() in raw
