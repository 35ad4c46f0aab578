"""A checkpoint folder belongs to one run: a new run never writes into another's files, envs that
share a root claim distinct episode folders, a journal that cannot be written stops the game
cleanly, and a resumed env picks up exactly where the run was (ended episodes, settings, the
seeds of later episodes)."""

from __future__ import annotations

import errno
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agentodyssey_pz
from agentodyssey_pz.checkpoint import CheckpointWriter, resume
from agentodyssey_pz.checkpoint import journal as journal_module
from agentodyssey_pz.checkpoint.journal import CheckpointWarning, read_journal
from agentodyssey_pz.checkpoint.store import snapshot_path
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.errors import CheckpointError, ConfigError, RuleError


def make_env(**settings: Any) -> Any:
    settings.setdefault("tutorial", False)
    return agentodyssey_pz.parallel_env(num_agents=2, **settings)


def wait_all(env: Any) -> tuple[dict, ...]:
    return env.step(dict.fromkeys(env.agents, "wait"))


# ---------------------------------------------------------------------------- one run per folder
def test_a_new_run_is_refused_a_folder_that_holds_another(tmp_path: Path) -> None:
    first = Game("default", 2)
    first.reset(1)
    CheckpointWriter(first, tmp_path, 10).close()
    second = Game("default", 2)
    second.reset(2)
    with pytest.raises(CheckpointError, match=r"already holds a checkpointed run \(1 snapshot"):
        CheckpointWriter(second, tmp_path, 10)
    assert resume(tmp_path, "default", snapshot_every=None).seed == 1  # the first run, intact


def test_envs_sharing_a_root_claim_distinct_episode_folders(tmp_path: Path) -> None:
    envs = [make_env(checkpoint_dir=str(tmp_path)) for _ in range(2)]
    folders = []
    for round_ in range(3):
        for k, env in enumerate(envs):  # each env counts from 1: they meet on every number
            env.reset(seed=10 * round_ + k)
            folders.append(env.checkpoint_folder)
    assert len(set(folders)) == 6
    for env in envs:
        env.close()


def test_a_checkpoint_root_that_cannot_hold_folders_is_a_config_error(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    env = make_env(checkpoint_dir=str(afile))
    with pytest.raises(ConfigError, match=r"^checkpoint_dir: cannot make an episode folder in"):
        env.reset(seed=0)


# ---------------------------------------------------------------------------- a failing journal
def test_a_journal_write_that_fails_stops_the_game_and_leaves_whole_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = make_env(checkpoint_dir=str(tmp_path), snapshot_every=1000)
    env.reset(seed=4)
    for _ in range(5):
        wait_all(env)
    folder = Path(env.checkpoint_folder)
    real_write = os.write

    def disk_full(fd: int, data: Any) -> int:  # half a line gets out, then the disk is full
        real_write(fd, bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module.os, "write", disk_full)
    with pytest.raises(CheckpointError, match=r"tick 6 was played but could not be checkpointed "
                       r"\(No space left on device"):  # fmt: skip
        wait_all(env)
    monkeypatch.undo()
    with pytest.raises(RuleError, match="stopped after tick 6, whose checkpoint could not be"):
        wait_all(env)
    journal = folder / "journal-000000000.jsonl"
    assert journal.read_bytes().endswith(b"\n")  # the torn half line was cut off again
    assert [record["t"] for record in read_journal(journal)] == [1, 2, 3, 4, 5]
    assert resume(folder, "default", snapshot_every=None).tick_index == 5
    env.reset(seed=5)  # a reset starts afresh
    wait_all(env)


# ---------------------------------------------------------------------------- resuming with the env
def test_resuming_an_episode_that_was_truncated_gives_no_agents(tmp_path: Path) -> None:
    env = make_env(checkpoint_dir=str(tmp_path), max_cycles=6)
    env.reset(seed=2)
    while env.agents:
        wait_all(env)
    resumed = make_env(max_cycles=6)
    observations, _ = resumed.reset(options={"resume": env.checkpoint_folder})
    assert (resumed.agents, observations, resumed.num_cycles) == ([], {}, 6)


@pytest.mark.parametrize(
    ("saved", "mine", "named"),
    [
        ({"tutorial": False}, {"tutorial": None}, "tutorial=False; this env has tutorial=None"),
        ({"start_hp": 300}, {}, "start_hp=300; this env has start_hp=100"),
    ],
)
def test_resuming_with_other_settings_is_refused_naming_them(
    tmp_path: Path, saved: dict[str, Any], mine: dict[str, Any], named: str
) -> None:
    env = agentodyssey_pz.parallel_env(world="glasswick", checkpoint_dir=str(tmp_path), **saved)
    env.reset(seed=0)
    other = agentodyssey_pz.parallel_env(world="glasswick", **mine)
    with pytest.raises(ConfigError, match=f"played with {named}: create the env with the"):
        other.reset(options={"resume": env.checkpoint_folder})


def test_resuming_with_another_max_cycles_is_refused_naming_it(tmp_path: Path) -> None:
    """It was taken silently: a run saved at tick 130 of 300 resumed in a 100-cycle env came back
    already over."""
    env = make_env(checkpoint_dir=str(tmp_path), max_cycles=300)
    env.reset(seed=0)
    for _ in range(3):
        wait_all(env)
    folder = env.checkpoint_folder
    with pytest.raises(
        ConfigError, match="played with max_cycles=300; this env has max_cycles=100"
    ):
        make_env(max_cycles=100).reset(options={"resume": folder})
    same = make_env(max_cycles=300)
    same.reset(options={"resume": folder})
    assert same.num_cycles == 3 and same.agents
    # A folder from before episode.json held max_cycles resumes under the env's own.
    (Path(folder) / "episode.json").write_text('{"seed_stream": null}', encoding="utf-8")
    older = make_env(max_cycles=100)
    older.reset(options={"resume": folder})
    assert older.num_cycles == 3 and older.agents


def test_the_episodes_after_a_resumed_one_get_the_uninterrupted_runs_seeds(
    tmp_path: Path,
) -> None:
    def later_seeds(env: Any) -> list[int]:
        seeds = []
        for _ in range(3):
            env.reset()
            seeds.append(env.game.seed)
        return seeds

    running = make_env(checkpoint_dir=str(tmp_path / "a"))
    running.reset(seed=123)
    running.reset()  # episode 2, interrupted below after some ticks
    for _ in range(4):
        wait_all(running)
    folder = running.checkpoint_folder
    expected = later_seeds(running)
    resumed = make_env()
    resumed.reset(options={"resume": folder})
    assert later_seeds(resumed) == expected
    (Path(folder) / "episode.json").write_text("{nonsense", encoding="utf-8")
    again = make_env()
    with pytest.warns(CheckpointWarning, match="episode.json: unreadable"):
        again.reset(options={"resume": folder})


def test_a_resumed_env_journals_into_a_new_folder_with_the_same_seed_stream(
    tmp_path: Path,
) -> None:
    running = make_env(checkpoint_dir=str(tmp_path))
    running.reset(seed=9)
    wait_all(running)
    resumed = make_env(checkpoint_dir=str(tmp_path))
    resumed.reset(options={"resume": running.checkpoint_folder})
    assert resumed.checkpoint_folder != running.checkpoint_folder
    assert (Path(resumed.checkpoint_folder) / "episode.json").read_text() == (
        Path(running.checkpoint_folder) / "episode.json"
    ).read_text()


# ---------------------------------------------------------------------------- snapshots
def test_a_snapshot_whose_name_and_tick_disagree_is_not_trusted(tmp_path: Path) -> None:
    game = Game("default", 2)
    game.reset(3)
    writer = CheckpointWriter(game, tmp_path, 5)
    for _ in range(12):
        game.tick(dict.fromkeys(game.agent_ids, "wait"))
    writer.close()
    snapshot_path(tmp_path, 10).rename(snapshot_path(tmp_path, 11))  # holds tick 10
    with pytest.warns(CheckpointWarning, match=r"holds tick 10, not 11; trying the previous"):
        resumed = resume(tmp_path, "default", snapshot_every=None)
    assert resumed.tick_index == 12  # from snapshot 5 and its journals
    assert state_hash(resumed) == state_hash(game)


def test_saving_before_reset_or_onto_a_folder_is_refused_clearly(tmp_path: Path) -> None:
    game = Game("default", 2)
    with pytest.raises(RuntimeError, match="nothing to save yet: call reset"):
        game.save(tmp_path / "early.json")
    game.reset(0)
    with pytest.raises(CheckpointError, match="is a folder; name the file to save the game in"):
        game.save(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game.save(tmp_path / "fine.json")
    assert np.isfinite(Game.load(tmp_path / "fine.json", "default").tick_index)


# ------------------------------------------------------------------------ journals and snapshots
def journaled(folder: Path, seed: int, ticks: int = 8) -> Game:
    game = Game("default", 2)
    game.reset(seed)
    writer = CheckpointWriter(game, folder, 1000)
    for _ in range(ticks):
        game.tick(dict.fromkeys(game.agent_ids, "wait"))
    writer.close()
    return game


def test_a_journal_of_another_run_is_not_replayed_onto_this_snapshot(tmp_path: Path) -> None:
    journaled(tmp_path / "a", 1)
    journaled(tmp_path / "b", 2)
    name = "journal-000000000.jsonl"
    (tmp_path / "a" / name).write_bytes((tmp_path / "b" / name).read_bytes())
    with pytest.warns(CheckpointWarning, match=r"follows another snapshot than snapshot-0+\.json"):
        resumed = resume(tmp_path / "a", "default", snapshot_every=None)
    assert (resumed.seed, resumed.tick_index) == (1, 0)


def test_a_journal_without_a_header_from_an_earlier_version_still_replays(tmp_path: Path) -> None:
    game = journaled(tmp_path, 3)
    journal = tmp_path / "journal-000000000.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[1:]), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resumed = resume(tmp_path, "default", snapshot_every=None)
    assert state_hash(resumed) == state_hash(game)


def test_the_command_line_shows_checkpoint_warnings_without_source_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agentodyssey_pz import cli

    journaled(tmp_path, 5)
    journal = tmp_path / "journal-000000000.jsonl"
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 10])  # the last line is torn
    with warnings.catch_warnings():
        warnings.simplefilter("always")  # this suite turns warnings into errors
        shown = warnings.showwarning
        assert cli.main(["resume", str(tmp_path), "--ticks", "0"]) == 0
        assert warnings.showwarning is shown  # put back for whoever called
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and "line 9 is damaged" in err
    assert "warnings.warn" not in err and "read_journal" not in err


def test_going_on_in_a_folder_removes_the_temporary_file_of_a_killed_snapshot_write(
    tmp_path: Path,
) -> None:
    journaled(tmp_path, 6)
    leftover = tmp_path / ".snapshot-000000008.json.k3x9.tmp"  # as write_atomically names them
    leftover.write_text('{"half": ', encoding="utf-8")
    mine = tmp_path / "notes.tmp"
    mine.write_text("keep", encoding="utf-8")
    resume(tmp_path, "default", snapshot_every=10).recorder.close()
    assert not leftover.exists() and mine.read_text(encoding="utf-8") == "keep"
