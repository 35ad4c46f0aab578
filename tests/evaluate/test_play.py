"""Playing in the terminal: through a pipe (the CLI in a subprocess) and through `play()` with
in-memory streams."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from agentodyssey_pz.play import play


def run_play(script: str, **settings) -> tuple[dict[str, int], str]:
    out = io.StringIO()
    settings.setdefault("others", "wait")
    final = play(stdin=io.StringIO(script), stdout=out, **settings)
    return final, out.getvalue()


def test_the_cli_plays_through_a_pipe(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "agentodyssey_pz", "play", "--others", "wait", "--seed", "1"]
    done = subprocess.run(
        command,
        input="help\nwait\nlook\nquit\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("You are agent_0")
    assert "Valid actions now:" in out and "wait <" not in out
    assert "  wait" in out  # the verb list
    assert "> wait\n" in out and "I waited." in out  # echoed, then played
    # The observation after `wait` is shown again by `look`: the same text twice.
    after_wait = out.split("> wait\n", 1)[1].split("> look\n")
    assert after_wait[0].strip() and after_wait[1].startswith(after_wait[0].rstrip("\n")[:200])
    assert out.count("Current Time: 0001-01-01 08:10:00") == 2  # look spends no time
    assert "> quit\n" in out and "Score: score_total 0" in out


def test_help_lists_verbs_with_parameters_and_numbered_valid_actions() -> None:
    _, out = run_play("help\n")
    assert "craft <amount> <obj_name>" in out
    assert "enter <area_name>" in out
    valid = out.split("Valid actions now:\n", 1)[1]
    assert valid.startswith("    1. enter ")
    assert "wait" in valid


def test_a_number_runs_that_valid_action() -> None:
    _, out = run_play("help\n1\n")
    chosen = out.split("    1. ", 1)[1].split("\n", 1)[0]
    assert f"> 1\n({chosen})\n" in out
    assert "I could not" not in out
    _, out = run_play("999\n")
    assert "There is no valid action 999" in out
    assert "Current Time: 0001-01-01 08:10:00" not in out  # no tick was played


def test_play_ends_with_the_episode_and_at_the_end_of_the_input() -> None:
    final, out = run_play("wait\nwait\nwait\n", steps=2)
    assert out.count("I waited.") == 3  # the bootstrap tick's wait, then two played
    assert "The episode is over: the time is up." in out
    assert final["score_total"] == 0 and set(final) >= {"exploration", "death", "xp_total"}
    _, out = run_play("")  # nothing to read: the intro, then the score
    assert "I wake on cold ground" in out and out.rstrip().endswith("(nothing yet).")


def test_play_reports_reward_and_other_policies_move() -> None:
    final, out = run_play("help\n1\nscore\n", others="random", agents=3, seed=2)
    assert "+1 exploration" in out  # `enter` is the first valid action: a new area
    assert final["exploration"] == 1
    assert "Score: score_total 1" in out


def test_invalid_commands_are_the_games_feedback_not_errors() -> None:
    _, out = run_play("sing loudly\n")
    assert "Invalid action: I could not act on 'sing loudly'" in out
