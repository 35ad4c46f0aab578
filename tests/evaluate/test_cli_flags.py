"""The `play`, `map`, `validate`, `generate` and `resume` commands name the flag a user got wrong,
before anything runs: a value out of range is refused by argparse (`error: argument --flag: ...`,
status 2), a mistake found later by the command (`error: --flag: ...`, status 1). Help texts show
the defaults; counts read '1 agent', not '1 agents'.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import agentodyssey_pz
from agentodyssey_pz import cli
from agentodyssey_pz.evaluate.report import counted, run_summary


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused_by_argparse(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line argparse printed (after its usage line) for a refused flag."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0].startswith("usage: ") and "Traceback" not in captured.err
    return lines[-1]


# ---------------------------------------------------------------------- 1: play names its flags
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "0"], "--agents: expected a positive integer, got 0"),
        (["--agents", "20000"], "--agents: at most 10,000 agents, got 20,000"),
        (["--steps", "0"], "--steps: expected a positive integer, got 0"),
        (["--world", "nowhere"], "--world: no world 'nowhere': "),
    ],
)
def test_play_names_the_flag_before_the_game_starts(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["play", *argv], capsys)
    assert (status, out) == (1, "")  # no banner: refused before the game starts
    assert err.startswith(f"error: {message}") and err.count("\n") == 1


def test_play_says_others_takes_one_policy(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["play", "--others", "explorer,random"], capsys)
    assert (status, out) == (1, "")
    assert err.startswith("error: --others: unknown policy 'explorer,random'; known policies: ")
    assert "explorer" in err.split("known policies: ")[1]
    assert err.endswith("(one policy name: it plays every agent but agent_0)\n")


def test_the_play_api_refuses_a_negative_seed_before_the_banner() -> None:
    import io

    from agentodyssey_pz.errors import ConfigError
    from agentodyssey_pz.play import play

    out = io.StringIO()
    with pytest.raises(ConfigError, match=r"^seed: expected a non-negative integer, got -1$"):
        play(seed=-1, stdin=io.StringIO("quit\n"), stdout=out)
    assert out.getvalue() == ""


# ---------------------------------------------------------------------- 2: one type for seeds
@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "--seed", "-1"],
        ["generate", "small", "--seed", "-2"],
        ["map", "--seed", "-1"],
        ["evaluate", "--seed", "-1"],
        ["play", "--seed", "-1"],
        ["resume", "folder", "--seed", "-1"],
    ],
)
def test_every_seed_flag_refuses_a_negative_seed_naming_it(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused_by_argparse([*argv, "-o", str(tmp_path / "out")] if argv[0] == "map" else argv,
                               capsys)  # fmt: skip
    assert line.endswith(f"error: argument --seed: expected a non-negative integer, got {argv[-1]}")


@pytest.mark.parametrize("value", ["-5", str(2**32)])
def test_the_layout_seed_is_refused_outside_numpys_range(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused_by_argparse(["map", "--layout-seed", value, "-o", str(tmp_path / "m.svg")],
                               capsys)  # fmt: skip
    assert line.endswith(
        f"error: argument --layout-seed: expected an integer from 0 to 4294967295, got {value}"
    )


def test_the_largest_layout_seed_and_a_huge_world_seed_are_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["map", "--seed", str(10**30), "--layout-seed", str(2**32 - 1)]
    status, _, err = run_cli([*argv, "-o", str(tmp_path / "m.svg")], capsys)
    assert (status, err) == (0, "")
    assert (tmp_path / "m.svg").is_file()


def test_a_negative_tick_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused_by_argparse(["map", "--tick", "-1", "-o", str(tmp_path / "m.svg")], capsys)
    assert line.endswith("error: argument --tick: expected a non-negative integer, got -1")


def test_a_seed_that_is_no_number_keeps_argparses_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = refused_by_argparse(["validate", "--seed", "abc"], capsys)
    assert line.endswith("error: argument --seed: invalid int value: 'abc'")


# ---------------------------------------------------------------------- 3: resume
@pytest.fixture(scope="module")
def checkpoint_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkpoint root as `parallel_env(checkpoint_dir=...)` leaves it: two episode folders."""
    root = tmp_path_factory.mktemp("runs") / "ckpt"
    env = agentodyssey_pz.parallel_env(num_agents=1, max_cycles=3, checkpoint_dir=str(root))
    for seed in range(2):
        env.reset(seed=seed)
        while env.agents:
            env.step(dict.fromkeys(env.agents, 0))
    env.close()
    return root


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ticks", "-3"], "argument --ticks: expected a non-negative integer, got -3"),
        (
            ["--snapshot-every", "0"],
            "argument --snapshot-every: expected a positive integer, got 0",
        ),
        (["--rule-pack", "nosuch"], "argument --rule-pack: folder 'nosuch' does not exist"),
    ],
)
def test_resume_refuses_a_bad_flag_naming_it(
    argv: list[str],
    message: str,
    checkpoint_root: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(checkpoint_root)
    line = refused_by_argparse(["resume", "episode-00001", *argv], capsys)
    assert line.endswith(f"error: {message}")


def test_a_rule_pack_that_is_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "pack.py"
    afile.write_text("", encoding="utf-8")
    line = refused_by_argparse(["play", "--rule-pack", str(afile)], capsys)
    assert line.endswith(f"error: argument --rule-pack: {str(afile)!r} is not a folder")


@pytest.mark.parametrize("flag", [["--from-step", "3"], ["--checkpoint-dir", "elsewhere"]])
def test_reference_only_flags_are_refused_without_reference(
    flag: list[str], checkpoint_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["resume", str(checkpoint_root / "episode-00001"), *flag], capsys)
    assert (status, out) == (1, "")
    assert err == f"error: {flag[0]}: only applies with --reference\n"


def test_resuming_a_missing_folder_says_it_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["resume", str(tmp_path / "nope")], capsys)
    assert (status, out) == (1, "")
    assert err == f"error: {tmp_path / 'nope'}: the folder does not exist\n"


def test_resuming_a_checkpoint_root_points_at_its_episode_folders(
    checkpoint_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["resume", str(checkpoint_root)], capsys)
    assert (status, out) == (1, "")
    newest = checkpoint_root / "episode-00002"
    assert err == (
        f"error: {checkpoint_root}: holds no snapshot but 2 episode folders (episode-00001 to "
        f"episode-00002); resume one of them, e.g. {newest}\n"
    )


def test_resume_reports_one_agent_in_the_singular_and_no_empty_parts(
    checkpoint_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["resume", str(checkpoint_root / "episode-00001")], capsys)
    assert status == 0
    assert out.splitlines()[0].endswith(" at tick 3 (0001-01-01 08:30:00), 1 agent")
    assert "agent_0: score_total 0\n" in out  # no dangling comma when nothing was scored


# ---------------------------------------------------------------------- 4: play --history
def test_a_history_file_in_a_missing_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nodir" / "history"
    line = refused_by_argparse(["play", "--history", str(path)], capsys)
    assert line.endswith(
        f"error: argument --history: folder {str(tmp_path / 'nodir')!r} does not exist"
    )


def test_a_history_path_that_is_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused_by_argparse(["play", "--history", str(tmp_path)], capsys)
    assert line.endswith(f"error: argument --history: {str(tmp_path)!r} is a folder, not a file")


# ---------------------------------------------------------------------- 5: help texts
def help_text(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    assert exit_info.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines where it likes


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("evaluate", ["--episodes EPISODES", "(default: 4)"]),
        ("evaluate", ["--steps STEPS", "(default: 200)"]),
        ("evaluate", ["--agents AGENTS", "(default: 6)"]),
        ("evaluate", ["--workers WORKERS", "(default: 1)"]),
        ("evaluate", ["--seed SEED", "(default: 0)"]),
        ("map", ["-o OUTPUT, --output OUTPUT", "SVG file to write (default: map.svg)"]),
        ("map", ["--layout-seed LAYOUT_SEED", "(default: 0)"]),
        ("play", ["--agents AGENTS", "(default: 2)"]),
        ("play", ["--others OTHERS", "(default: random)"]),
        ("play", ["--steps STEPS", "(default: 1000)"]),
        ("resume", ["--snapshot-every SNAPSHOT_EVERY", "(default: 100)"]),
        ("generate", ["--seed SEED", "(default: 0)"]),
    ],
)
def test_help_shows_the_defaults(
    command: str, shown: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    flag, default = shown
    text = help_text(command, capsys)
    match = re.search(re.escape(flag) + r" ([^-]|-(?!-))*", text)  # the flag's own help
    assert match is not None and default in match.group(0), text


def test_counts_are_singular_for_one() -> None:
    assert counted(1, "area") == "1 area"
    assert counted(2, "area") == "2 areas"
    assert counted(1_000, "agent") == "1,000 agents"
    one = {"episodes": 1, "steps": 1, "num_agents": 1}
    assert run_summary(one) == "1 episode x 1 step, 1 agent"  # the report's table and plot title
