"""Resuming: checkpoint folders (snapshots + journals), damaged snapshots, and the env's resume
and pickling paths.

A folder written by `CheckpointWriter` resumes to the uninterrupted game, bit for bit, and keeps
going identically. A damaged newest snapshot falls back to the one before it and replays its
journals to the same state. The env journals each episode into its own folder with
`checkpoint_dir`; `reset(options={"resume": folder})` and `pickle` both continue a running env
exactly (observations, rewards, flags and infos compared for 200 steps).
"""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from checkpoint.crash_worker import AGENTS, actions_for, play_until

import agentodyssey_pz
from agentodyssey_pz.checkpoint import CheckpointWriter, resume
from agentodyssey_pz.checkpoint.journal import CheckpointWarning
from agentodyssey_pz.checkpoint.store import (
    journal_path,
    journal_ticks,
    snapshot_path,
    snapshot_ticks,
)
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.errors import CheckpointError

WORLD = "default"
SEED = 8
EVERY = 50
PLAYED = 180  # snapshots at 0, 50, 100, 150; the two newest are kept
CONTINUE = 120
ENV_STEPS = 130
ENV_CONTINUE = 200


def checkpointed(folder: Path, ticks: int = PLAYED) -> Game:
    """A game played for `ticks` with a checkpoint writer; the writer is closed (all on disk)."""
    game = Game(WORLD, AGENTS)
    game.reset(SEED)
    writer = CheckpointWriter(game, folder, snapshot_every=EVERY)
    play_until(game, SEED, ticks)
    writer.close()
    return game


def continue_both(first: Game, second: Game, ticks: int) -> None:
    for _ in range(ticks):
        tick = first.tick_index
        actions = actions_for(first, SEED, tick)
        assert actions_for(second, SEED, tick) == actions, f"tick {tick}: other actions offered"
        first.tick(actions)
        second.tick(actions)
    assert state_hash(first) == state_hash(second)


def damage(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


# ---------------------------------------------------------------------------- folders
def test_a_checkpoint_folder_keeps_the_two_newest_snapshots_and_their_journals(
    tmp_path: Path,
) -> None:
    checkpointed(tmp_path)
    assert snapshot_ticks(tmp_path) == [150, 100]
    assert journal_ticks(tmp_path) == [100, 150]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_resume_gives_the_uninterrupted_game_and_continues_identically(tmp_path: Path) -> None:
    game = checkpointed(tmp_path)
    resumed = resume(tmp_path, WORLD, snapshot_every=None)
    assert resumed.tick_index == PLAYED
    assert state_hash(resumed) == state_hash(game)
    continue_both(game, resumed, CONTINUE)


def test_a_resumed_game_keeps_journaling_and_resumes_again(tmp_path: Path) -> None:
    game = checkpointed(tmp_path)
    resumed = resume(tmp_path, WORLD, snapshot_every=EVERY)  # a fresh snapshot at tick 180
    continue_both(game, resumed, 40)  # crosses the snapshot at 200 (kept: 200, 180)
    resumed.recorder.close()
    assert snapshot_ticks(tmp_path) == [200, 180]
    assert journal_ticks(tmp_path) == [180, 200]  # the pre-resume 100 and 150 were pruned
    again = resume(tmp_path, WORLD, snapshot_every=None)
    assert again.tick_index == PLAYED + 40
    assert state_hash(again) == state_hash(game)


def test_a_damaged_newest_snapshot_falls_back_to_the_previous_one(tmp_path: Path) -> None:
    game = checkpointed(tmp_path)
    damage(snapshot_path(tmp_path, 150))
    with pytest.warns(CheckpointWarning, match="trying the previous snapshot"):
        resumed = resume(tmp_path, WORLD, snapshot_every=None)
    assert resumed.tick_index == PLAYED  # snapshot 100, then journals 100 and 150
    assert state_hash(resumed) == state_hash(game)
    continue_both(game, resumed, 30)


def test_resuming_at_the_start_of_a_damaged_segment_keeps_later_progress(tmp_path: Path) -> None:
    checkpointed(tmp_path)
    journal = journal_path(tmp_path, 150)
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace('"t":151', '"t":152')  # the checksum no longer matches
    journal.write_text("".join(lines), encoding="utf-8")
    with pytest.warns(CheckpointWarning, match="line 2 is damaged"):  # line 1: the header
        resumed = resume(tmp_path, WORLD, snapshot_every=EVERY)  # journaling goes on
    assert resumed.tick_index == 150
    play_until(resumed, SEED, 170)
    resumed.recorder.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CheckpointWarning)
        again = resume(tmp_path, WORLD, snapshot_every=None)
    assert again.tick_index == 170
    assert state_hash(again) == state_hash(resumed)


def test_no_readable_snapshot_is_an_error_naming_each_problem(tmp_path: Path) -> None:
    checkpointed(tmp_path)
    damage(snapshot_path(tmp_path, 150))
    snapshot_path(tmp_path, 100).write_text('{"format": "agentodyssey-snapshot", "version": 9}')
    with pytest.warns(CheckpointWarning), pytest.raises(CheckpointError) as caught:
        resume(tmp_path, WORLD, snapshot_every=None)
    message = str(caught.value)
    assert "no readable snapshot" in message
    assert "not valid JSON" in message and "version 9 is not supported" in message


def test_an_empty_folder_has_nothing_to_resume(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no snapshot found"):
        resume(tmp_path, WORLD)


def test_resuming_with_another_world_is_refused_not_papered_over(tmp_path: Path) -> None:
    checkpointed(tmp_path, ticks=60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "trying the previous snapshot" fallback
        with pytest.raises(CheckpointError, match="another world definition"):
            resume(tmp_path, "glasswick")


# ---------------------------------------------------------------------------- the env
def env_step_record(result: tuple[dict, ...]) -> dict[str, Any]:
    """Observations, rewards, flags and infos of one step, comparable with ==."""
    observations, rewards, terminations, truncations, infos = result
    return {
        "obs": {a: obs_record(o) for a, o in observations.items()},
        "rewards": rewards,
        "terminations": terminations,
        "truncations": truncations,
        "infos": infos,
    }


def obs_record(obs: dict[str, Any], *, text: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "observation": (obs["observation"].dtype.str, obs["observation"].tobytes()),
        "action_mask": (obs["action_mask"].dtype.str, obs["action_mask"].tobytes()),
    }
    if text and "text" in obs:
        out["text"] = obs["text"]
    return out


def masked(rng: np.random.Generator, observations: dict[str, Any]) -> dict[str, int]:
    return {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}


def make_env(**settings: Any) -> Any:
    return agentodyssey_pz.parallel_env(
        world=WORLD, num_agents=AGENTS, obs_mode="text", max_cycles=1000, **settings
    )


def step_both(first: Any, second: Any, obs_first: Any, obs_second: Any, steps: int) -> None:
    """Step two envs with masked random actions from equally seeded generators; compare all."""
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    for step in range(steps):
        actions = masked(rng_a, obs_first)
        assert masked(rng_b, obs_second) == actions, f"step {step}: masks differ"
        a, b = first.step(actions), second.step(actions)
        assert env_step_record(a) == env_step_record(b), f"step {step} after the resume"
        obs_first, obs_second = a[0], b[0]
    assert state_hash(first.game) == state_hash(second.game)


def test_the_env_journals_each_episode_into_its_own_folder(tmp_path: Path) -> None:
    env = make_env(checkpoint_dir=str(tmp_path), snapshot_every=EVERY)
    env.reset(seed=1)
    first = Path(env.checkpoint_folder)
    env.step(dict.fromkeys(env.agents, "wait"))
    env.reset(seed=2)
    second = Path(env.checkpoint_folder)
    env.step(dict.fromkeys(env.agents, "wait"))
    env.close()
    assert first.parent == second.parent == tmp_path and first != second
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.name, second.name]
    for folder in (first, second):
        assert snapshot_ticks(folder) == [0]
        # The header naming the snapshot, then the tick.
        assert len((folder / "journal-000000000.jsonl").read_text().splitlines()) == 2
    assert resume(first, WORLD, snapshot_every=None).seed == 1
    assert resume(second, WORLD, snapshot_every=None).seed != 1


def test_env_resume_from_a_checkpoint_folder_continues_identically(tmp_path: Path) -> None:
    running = make_env(checkpoint_dir=str(tmp_path), snapshot_every=EVERY)
    observations, _ = running.reset(seed=SEED)
    rng = np.random.default_rng(11)
    for _ in range(ENV_STEPS):
        observations = running.step(masked(rng, observations))[0]
    folder = running.checkpoint_folder
    running.close()  # the process ends here; the uninterrupted env keeps playing below
    resumed = make_env()
    resumed_obs, _ = resumed.reset(options={"resume": folder})
    assert resumed.agents == running.agents and resumed.num_cycles == ENV_STEPS
    assert {a: obs_record(o, text=False) for a, o in resumed_obs.items()} == {
        a: obs_record(o, text=False) for a, o in observations.items()
    }
    assert state_hash(resumed.game) == state_hash(running.game)
    step_both(running, resumed, observations, resumed_obs, ENV_CONTINUE)


def test_env_resume_from_one_snapshot_file_continues_identically(tmp_path: Path) -> None:
    running = make_env()
    observations, _ = running.reset(seed=SEED)
    rng = np.random.default_rng(12)
    for _ in range(60):
        observations = running.step(masked(rng, observations))[0]
    running.game.save(tmp_path / "snapshot.json")
    resumed = make_env()
    resumed_obs, _ = resumed.reset(options={"resume": str(tmp_path / "snapshot.json")})
    step_both(running, resumed, observations, resumed_obs, ENV_CONTINUE)


def test_a_pickled_running_env_continues_identically(tmp_path: Path) -> None:
    running = make_env(checkpoint_dir=str(tmp_path))
    observations, _ = running.reset(seed=SEED)
    rng = np.random.default_rng(13)
    for _ in range(ENV_STEPS):
        observations = running.step(masked(rng, observations))[0]
    copy = pickle.loads(pickle.dumps(running))
    assert copy.agents == running.agents and copy.num_cycles == running.num_cycles
    assert state_hash(copy.game) == state_hash(running.game)
    step_both(running, copy, observations, observations, ENV_CONTINUE)
    running.close()


def test_the_env_comparison_notices_another_trajectory() -> None:
    first, second = make_env(), make_env()
    obs_first, _ = first.reset(seed=SEED)
    obs_second, _ = second.reset(seed=SEED)
    second.game.rng.random()  # one extra draw: the two envs part ways as soon as chance is used
    with pytest.raises(AssertionError):
        step_both(first, second, obs_first, obs_second, ENV_CONTINUE)
