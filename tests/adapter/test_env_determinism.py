"""Determinism of the env: same world, seed and actions -> the same trajectory at EVERY tick.

PettingZoo's `parallel_seed_test` compares the first step only, so this is the real test: two envs
run 1,000 ticks of masked random actions (plus a garbage command now and then) with text
observations, and every observation (arrays and text), reward, termination, truncation and info is
compared tick by tick with `first_difference`, which names the first differing tick and key. Then
the same run in two fresh processes with other PYTHONHASHSEEDs must give the same per-tick digests.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from adapter.rollouts import (
    REFERENCE_TICKS,
    first_difference,
    record_step,
    reference_trajectory,
    run_trajectory,
    tick_digests,
    trajectory_digest,
)
from worlds_helper import bundled_worlds

WORLDS = bundled_worlds()
SCRIPT = Path(__file__).with_name("rollouts.py")
HASH_SEEDS = ("0", "4242")
TUTORIAL_TICKS = 300


@pytest.fixture(scope="module")
def references() -> dict[str, list]:
    """The reference trajectory of every bundled world, computed once for this module."""
    return {world: reference_trajectory(world) for world in WORLDS}


# ---------------------------------------------------------------------------- the helper itself
def _small_trajectory() -> list:
    return run_trajectory(WORLDS[0], seed=5, ticks=40, obs_mode="text")


def test_first_difference_finds_nothing_in_equal_trajectories() -> None:
    a = _small_trajectory()
    assert first_difference(a, copy.deepcopy(a)) is None
    assert trajectory_digest(a) == trajectory_digest(copy.deepcopy(a))


def test_first_difference_names_the_tick_and_key_of_a_text_change() -> None:
    a = _small_trajectory()
    b = run_trajectory(WORLDS[0], seed=5, ticks=40, obs_mode="text")
    step = list(b[37]["obs/agent_1/text"])
    step[1] += "!"
    b[37]["obs/agent_1/text"] = tuple(step)
    b[39]["rewards/agent_0"] = ("float", float(123).hex())  # a later difference is not reported
    assert first_difference(a, b) == (37, "obs/agent_1/text")
    assert trajectory_digest(a) != trajectory_digest(b)
    assert tick_digests(a)[:37] == tick_digests(b)[:37]


def test_first_difference_sees_one_flipped_array_value_and_a_sign_of_zero() -> None:
    observation = {"agent_0": {"observation": np.zeros(4, np.float32)}}
    result = (
        observation,
        {"agent_0": 0.0},
        {"agent_0": False},
        {"agent_0": False},
        {"agent_0": {}},
    )
    base = [record_step(result)] * 3
    flipped = copy.deepcopy(observation)
    flipped["agent_0"]["observation"][2] = -0.0  # equal as numbers, different bits
    changed = [*base[:2], record_step((flipped, *result[1:]))]
    assert first_difference(base, changed) == (2, "obs/agent_0/observation")


def test_first_difference_reports_a_missing_key_and_a_short_trajectory() -> None:
    a = _small_trajectory()
    b = copy.deepcopy(a)
    del b[12]["infos/agent_2/action_ok"]
    assert first_difference(a, b) == (12, "infos/agent_2/action_ok")
    assert first_difference(a, a[:20]) == (20, "<length>")


def test_different_seeds_give_different_trajectories() -> None:
    # Without the tutorial: its rooms are the same for every seed, so early ticks could agree.
    a = run_trajectory(WORLDS[0], seed=1, ticks=20, obs_mode="text", tutorial=False)
    b = run_trajectory(WORLDS[0], seed=2, ticks=20, obs_mode="text", tutorial=False)
    assert first_difference(a, b) is not None


# ---------------------------------------------------------------------------- the env
@pytest.mark.parametrize("world", WORLDS)
def test_two_envs_agree_at_every_tick(world: str, references: dict[str, list]) -> None:
    again = reference_trajectory(world)
    assert len(again) == REFERENCE_TICKS + 1  # the reset plus every step: nothing ended early
    assert first_difference(references[world], again) is None


@pytest.mark.parametrize("world", WORLDS)
def test_two_envs_agree_at_every_tick_with_the_world_default_tutorial(world: str) -> None:
    a = run_trajectory(world, seed=4, ticks=TUTORIAL_TICKS, obs_mode="text")
    b = run_trajectory(world, seed=4, ticks=TUTORIAL_TICKS, obs_mode="text")
    assert len(a) == TUTORIAL_TICKS + 1
    assert first_difference(a, b) is None


@pytest.mark.parametrize("world", WORLDS)
def test_a_reset_after_play_repeats_a_fresh_env(world: str) -> None:
    """Nothing leaks from one episode into the next (caches, counters, generators)."""
    fresh = run_trajectory(world, seed=9, ticks=200, obs_mode="text")
    reused = run_trajectory(world, seed=9, ticks=200, obs_mode="text", reset_twice=True)
    assert first_difference(fresh, reused) is None


def test_unseeded_resets_follow_the_first_seed() -> None:
    """reset(seed=s) then reset() draws the next episode seed from s: two envs agree."""
    import agentodyssey_pz

    first, second = (agentodyssey_pz.parallel_env(world=WORLDS[0]) for _ in range(2))
    for env in (first, second):
        env.reset(seed=77)
    a, _ = first.reset()
    b, _ = second.reset()
    for agent in first.agents:
        np.testing.assert_array_equal(a[agent]["observation"], b[agent]["observation"])


def test_the_same_trajectory_in_processes_with_other_hash_seeds(
    references: dict[str, list],
) -> None:
    procs = []
    for hash_seed in HASH_SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        procs.append(
            subprocess.Popen(
                [sys.executable, str(SCRIPT), *WORLDS],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                text=True,
            )
        )
    outputs = [proc.communicate() for proc in procs]
    for hash_seed, proc, (out, err) in zip(HASH_SEEDS, procs, outputs, strict=True):
        assert proc.returncode == 0, f"PYTHONHASHSEED={hash_seed}: {err[-2000:]}"
        digests = json.loads(out)
        for world in WORLDS:
            mine = tick_digests(references[world])
            theirs = digests[world]
            differing = next(
                (t for t, (x, y) in enumerate(zip(mine, theirs, strict=False)) if x != y), None
            )
            assert differing is None, f"{world}, PYTHONHASHSEED={hash_seed}: tick {differing}"
            assert len(theirs) == len(mine) == REFERENCE_TICKS + 1
