"""The `evaluate` and `generate` commands refuse user mistakes with a clear `error: ...` naming the
option or path and exit status 1 (no traceback), before any episode runs; a closed standard output
ends a command quietly; policies that no agent plays are not rated.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz import cli
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.evaluate import (
    EvalConfig,
    evaluate,
    format_table,
    runner,
    validate,
    without_timing,
)
from agentodyssey_pz.policies.base import BasePolicy


class Waiter(BasePolicy):
    name = "waiter"

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int | str:
        return "wait"


class Idler(Waiter):
    name = "idler"


class Wanderer(Waiter):
    name = "wanderer"


@pytest.fixture
def no_episodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make running an episode a test failure: the errors below must come before any."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an episode ran before the mistake was reported")

    monkeypatch.setattr(runner, "run_episode", refuse)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


QUICK = ["evaluate", "--episodes", "1", "--steps", "2", "--quiet", "--plot", "none"]


# ---------------------------------------------------------------------- 1: the output folder
def test_an_output_path_that_is_a_file_is_refused_before_any_episode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_episodes: None
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep me\n", encoding="utf-8")
    status, out, err = run_cli([*QUICK, "-o", str(afile)], capsys)
    assert status == 1
    assert err == f"error: --output: {str(afile)!r} exists and is not a folder\n"
    assert out == ""
    assert afile.read_text(encoding="utf-8") == "keep me\n"


def test_an_output_folder_below_a_file_is_refused_before_any_episode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_episodes: None
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    status, _, err = run_cli([*QUICK, "-o", str(afile / "run")], capsys)
    assert status == 1
    assert err == (
        f"error: --output: cannot create {str(afile / 'run')!r}: {str(afile)!r} is not a folder\n"
    )


def test_a_trajectories_path_that_is_a_file_is_refused_before_any_episode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_episodes: None
) -> None:
    (tmp_path / "trajectories").write_text("", encoding="utf-8")
    status, _, err = run_cli([*QUICK, "-o", str(tmp_path)], capsys)
    assert status == 1
    assert (
        err == f"error: --output: {str(tmp_path / 'trajectories')!r} exists and is not a folder\n"
    )


def test_an_unwritable_file_is_an_error_naming_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    target = afile / "world.json"
    status, out, err = run_cli(["generate", "small", "-o", str(target)], capsys)
    assert (status, out) == (1, "")
    assert err.startswith(f"error: {afile}") and err.count("\n") == 1


# ---------------------------------------------------------------------- 2: a closed pipe
def run_into_a_closed_pipe(argv: list[str], cwd: Path) -> tuple[int, str]:
    """Run the command line whose reader closed its end before it wrote: every write meets a
    broken pipe, as when `| head -1` has read its line and gone. (status, standard error)"""
    command = [sys.executable, "-m", "agentodyssey_pz", *argv]
    with subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        err = process.stderr.read().decode()
        return process.wait(timeout=300), err  # a guard against a hang, not a speed limit


def test_generate_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    status, err = run_into_a_closed_pipe(["generate", "small"], tmp_path)
    assert err == ""
    assert status == 141  # as a tool killed by SIGPIPE


# ---------------------------------------------------------------------- 3: policies without agents
UNPLAYED_NOTE = (
    "not rated (no agent played them; 1 agent for 6 policies, agent_i plays policy i mod 6): "
    "crafter, fighter, trader, quester, random"
)


def test_policies_no_agent_plays_are_left_unrated_alike_with_any_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = []
    for workers in ("1", "2"):
        out = tmp_path / f"out-{workers}"
        argv = ["evaluate", "--agents", "1", "--episodes", "2", "--steps", "3", "--quiet"]
        argv += ["--plot", "none", "--workers", workers, "-o", str(out)]
        status, printed, err = run_cli(argv, capsys)
        assert (status, err) == (0, "")
        rows = [line.split()[0] for line in printed.splitlines()[4:] if line]
        # The only row (it met no other policy: no rating), then the two notes.
        assert rows[:3] == ["explorer", "no", "not"]
        assert UNPLAYED_NOTE in printed.splitlines()
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
        assert validate(report) == []
        assert list(report["policies"]) == ["explorer"]
        assert list(report["curves"]["score_total"]) == ["explorer"]
        assert report["config"]["policies"] == list(runner.DEFAULT_POLICIES)
        reports.append(without_timing(report))
    assert reports[0] == reports[1]


def test_every_rated_policy_fields_an_agent() -> None:
    config = EvalConfig(episodes=2, steps=3, num_agents=2, policies=(Waiter, Idler, Wanderer))
    assert config.unplayed() == ["wanderer"]
    report = evaluate(config)
    assert validate(report) == []
    assert {name: entry["samples"] for name, entry in report["policies"].items()} == {
        "waiter": 2,
        "idler": 2,
    }
    assert [entry["rank"] for entry in report["policies"].values()] == [1, 2]
    note = "not rated (no agent played them; 2 agents for 3 policies, agent_i plays policy i mod 3)"
    assert f"{note}: wanderer" in format_table(report).splitlines()


def test_no_note_when_every_policy_plays() -> None:
    report = evaluate(EvalConfig(episodes=1, steps=2, num_agents=2, policies=(Waiter, Idler)))
    assert sorted(report["policies"]) == ["idler", "waiter"]
    assert "not rated" not in format_table(report)


# ---------------------------------------------------------------------- 4: option names
@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--episodes", "0", "expected a positive integer, got 0"),
        ("--steps", "-3", "expected a positive integer, got -3"),
        ("--agents", "0", "expected a positive integer, got 0"),
        ("--agents", "20000", "at most 10,000 agents, got 20,000"),
        ("--workers", "0", "expected a positive integer, got 0"),
    ],
)
def test_a_bad_evaluate_option_is_named_in_its_error(
    option: str,
    value: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_episodes: None,
) -> None:
    argv = ["evaluate", "--quiet", "-o", str(tmp_path / "out"), f"{option}={value}"]
    status, out, err = run_cli(argv, capsys)
    assert (status, out, err) == (1, "", f"error: {option}: {message}\n")


# --seed is refused by argparse, as every seed flag is (test_cli_flags.py).
def test_the_api_refuses_a_negative_seed_naming_it() -> None:
    with pytest.raises(ConfigError, match=r"^seed: expected a non-negative integer, got -1$"):
        EvalConfig(seed=-1)


def test_an_option_that_is_no_number_is_named_by_argparse(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["evaluate", "--seed", "abc"])
    assert exit_info.value.code == 2
    assert "argument --seed: invalid int value: 'abc'" in capsys.readouterr().err


# ---------------------------------------------------------------------- 5: a preset as world
def test_a_preset_name_as_world_suggests_its_procedural_world(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_episodes: None
) -> None:
    status, _, err = run_cli([*QUICK, "--world", "small", "-o", str(tmp_path / "out")], capsys)
    assert status == 1
    assert err.startswith("error: --world: no world 'small': ")
    assert err.endswith("; the procedural world of that name is 'procgen:small'\n")


def test_an_unknown_world_is_refused_before_any_episode(no_episodes: None) -> None:
    with pytest.raises(ConfigError, match=r"^world: no world 'nowhere': ") as exc_info:
        evaluate(EvalConfig(world="nowhere", episodes=1, steps=1, workers=2))
    message = str(exc_info.value)  # the form of a procedural world, not a made-up preset
    assert "procgen:nowhere" not in message and "procgen:<small|medium|large>[:<seed>]" in message


# ---------------------------------------------------------------------- 6: earlier results
def test_a_report_path_that_cannot_be_replaced_is_refused_before_any_episode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_episodes: None
) -> None:
    (tmp_path / "report.json").mkdir()  # not replaceable by anyone, root included
    status, out, err = run_cli([*QUICK, "-o", str(tmp_path)], capsys)
    assert (status, out) == (1, "")
    assert err == f"error: --output: cannot replace {str(tmp_path / 'report.json')!r}: " \
        "Is a directory\n"  # fmt: skip


def test_an_earlier_runs_extra_logs_and_plots_are_removed_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "trajectories"
    logs.mkdir()
    for name in ("episode-0000.jsonl", "episode-0001.jsonl", "episode-0002.jsonl"):
        (logs / name).write_text("{}\n", encoding="utf-8")
    (tmp_path / "scores.svg").write_text("<svg/>", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    argv = ["evaluate", "--episodes", "1", "--steps", "2", "--quiet", "--plot", "none"]
    status, out, err = run_cli([*argv, "-o", str(tmp_path)], capsys)
    assert (status, err) == (0, "")
    assert sorted(p.name for p in logs.iterdir()) == ["episode-0000.jsonl"]  # this run's own
    assert (logs / "episode-0000.jsonl").read_text(encoding="utf-8") != "{}\n"
    assert not (tmp_path / "scores.svg").exists()
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"  # not ours: kept
    assert f"removed 3 file(s) an earlier evaluation left in {tmp_path}" in out


def test_without_trajectories_an_earlier_runs_logs_are_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "trajectories"
    logs.mkdir()
    (logs / "episode-0000.jsonl").write_text("{}\n", encoding="utf-8")
    argv = [*QUICK, "--no-trajectories", "-o", str(tmp_path)]
    status, _, _ = run_cli(argv, capsys)
    assert status == 0
    assert list(logs.iterdir()) == []


def test_the_report_is_written_even_when_stdout_is_closed(tmp_path: Path) -> None:
    status, err = run_into_a_closed_pipe([*QUICK, "-o", str(tmp_path / "out")], tmp_path)
    assert (status, err) == (141, "")
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert validate(report) == []


# ---------------------------------------------------------------------- 7: owned settings, unrated
@pytest.mark.parametrize(
    ("setting", "field"),
    [("world", "world"), ("num_agents", "num_agents"), ("max_cycles", "steps")],
)
def test_env_settings_the_evaluation_sets_itself_are_refused(setting: str, field: str) -> None:
    with pytest.raises(ConfigError, match=rf"^env: '{setting}' is set by the evaluation itself; "
                       rf"use {field}=\.\.\.$"):  # fmt: skip
        EvalConfig(env={setting: 2})


def test_other_env_settings_pass_through() -> None:
    config = EvalConfig(env={"tutorial": False})
    assert config.env_settings()["tutorial"] is False


def test_a_policy_that_met_no_other_shows_no_rating() -> None:
    report = evaluate(EvalConfig(episodes=1, steps=2, num_agents=1, policies=(Waiter,)))
    table = format_table(report).splitlines()
    row = next(line for line in table if line.startswith("waiter"))
    assert row.split()[3:7] == ["-", "no", "rated", "match"]
    assert "no rated match: a rating compares policies that meet in an episode" in table
    two = format_table(evaluate(EvalConfig(episodes=1, steps=2, num_agents=2,
                                           policies=(Waiter, Idler))))  # fmt: skip
    assert "no rated match" not in two
