"""PettingZoo's own checks (`pettingzoo.test`) on every bundled world; observations in their space.

Which combinations run, and why the others do not apply:

- `parallel_seed_test` and `max_cycles_test` sample actions without a mask, so they run in all six
  (obs_mode x action_mode) combinations.
- `parallel_api_test` and `api_test` run in all six combinations: with `action_mode="text"` the
  catalogue's mask is offered as "catalogue_mask" (not "action_mask", which samplers would pass to
  the `Text` space), so PettingZoo samples free text commands.
- `seed_test` and `render_test` run with discrete actions in both observation modes (the text
  action mode adds nothing they check beyond the two above).

`api_test` warns about every Dict observation ("Observation is not a NumPy array", "should be
gymnasium.spaces.box or gymnasium.spaces.discrete"): PettingZoo's own action-masked envs are
exempted from that by name only. Those two messages are ignored, narrowly; any other warning fails.
"""

from __future__ import annotations

import contextlib
import functools
import io
import types

import numpy as np
import pytest
from adapter.rollouts import catalogue_mask
from gymnasium import spaces
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from worlds_helper import bundled_worlds

import agentodyssey_pz

WORLDS = bundled_worlds()
OBS_MODES = ("vector", "text", "text_only")
ACTION_MODES = ("discrete", "text")

DICT_OBSERVATION_WARNINGS = (
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
    # With action_mode="text" the action space is a gymnasium Text space, as the issue asks.
    "ignore:Action space for each agent probably should be gymnasium.spaces.box:UserWarning",
)


def quiet(check, *args, **kwargs) -> None:
    """PettingZoo's checks print progress; keep the test output readable."""
    with contextlib.redirect_stdout(io.StringIO()):
        check(*args, **kwargs)


@pytest.mark.parametrize("action_mode", ACTION_MODES)
@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("world", WORLDS)
def test_parallel_api_test(world: str, obs_mode: str, action_mode: str) -> None:
    # max_cycles below num_cycles: the episode ends inside the check, so the end of episode
    # (agents emptied, all truncated) is checked too.
    env = agentodyssey_pz.parallel_env(
        world=world, obs_mode=obs_mode, action_mode=action_mode, max_cycles=150
    )
    quiet(parallel_api_test, env, num_cycles=200)
    assert env.agents == []  # the check really reached the end


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@pytest.mark.parametrize("action_mode", ACTION_MODES)
@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("world", WORLDS)
def test_api_test_on_the_aec_env(world: str, obs_mode: str, action_mode: str) -> None:
    env = agentodyssey_pz.env(
        world=world, obs_mode=obs_mode, action_mode=action_mode, max_cycles=100
    )
    quiet(api_test, env, num_cycles=150)


@pytest.mark.parametrize("action_mode", ACTION_MODES)
@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("world", WORLDS)
def test_parallel_seed_test(world: str, obs_mode: str, action_mode: str) -> None:
    # Only the first step is compared by this check; test_env_determinism.py covers every tick.
    factory = functools.partial(
        agentodyssey_pz.parallel_env, world=world, obs_mode=obs_mode, action_mode=action_mode
    )
    quiet(parallel_seed_test, factory, num_cycles=50)


@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("world", WORLDS)
def test_aec_seed_test(world: str, obs_mode: str) -> None:
    factory = functools.partial(agentodyssey_pz.env, world=world, obs_mode=obs_mode, max_cycles=60)
    quiet(seed_test, factory, num_cycles=50)


@pytest.mark.parametrize("action_mode", ACTION_MODES)
@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("world", WORLDS)
def test_max_cycles_test(world: str, obs_mode: str, action_mode: str) -> None:
    settings = {"world": world, "obs_mode": obs_mode, "action_mode": action_mode}
    module = types.SimpleNamespace(
        parallel_env=functools.partial(agentodyssey_pz.parallel_env, **settings),
        env=functools.partial(agentodyssey_pz.env, **settings),
    )
    quiet(max_cycles_test, module)


def _is_ansi_frame(frame: object) -> bool:
    return isinstance(frame, str) and frame.startswith("=== tick ") and "--- agent_0 ---" in frame


@pytest.mark.parametrize("obs_mode", OBS_MODES)
@pytest.mark.parametrize("world", WORLDS)
def test_render_test(world: str, obs_mode: str) -> None:
    factory = functools.partial(agentodyssey_pz.env, world=world, obs_mode=obs_mode)
    quiet(render_test, factory, custom_tests={"ansi": _is_ansi_frame})


def test_render_without_a_render_mode_warns_and_returns_none() -> None:
    env = agentodyssey_pz.parallel_env(world=WORLDS[0])
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render\\(\\) does nothing without a render_mode"):
        assert env.render() is None


# ---------------------------------------------------------------------------- spaces
STEPS_IN_SPACE = 300


def _check_in_space(env, observations: dict, step: int) -> None:
    for agent, obs in observations.items():
        space = env.observation_space(agent)
        assert space.contains(obs), f"step {step}, {agent}: observation outside its space"
        assert set(obs) == set(space.spaces), (step, agent, set(obs))
        for key, sub in space.spaces.items():
            if isinstance(sub, spaces.Box):
                assert obs[key].dtype == sub.dtype, (step, agent, key, obs[key].dtype)
                assert np.isfinite(obs[key]).all(), (step, agent, key)
            else:
                assert isinstance(obs[key], str), (step, agent, key)


@pytest.mark.parametrize(
    ("obs_mode", "action_mode"),
    [
        ("vector", "discrete"),
        ("text", "discrete"),
        ("text", "text"),
        ("text_only", "discrete"),
        ("text_only", "text"),
    ],
)
@pytest.mark.parametrize("world", WORLDS)
def test_observations_stay_in_their_space(world: str, obs_mode: str, action_mode: str) -> None:
    """Every observation of every agent at every step of a masked random walk (plus garbage)."""
    env = agentodyssey_pz.parallel_env(world=world, obs_mode=obs_mode, action_mode=action_mode)
    rng = np.random.default_rng(11)
    for agent in env.possible_agents:
        env.action_space(agent).seed(int(rng.integers(2**31)))
    observations, _ = env.reset(seed=3)
    _check_in_space(env, observations, 0)
    for step in range(1, STEPS_IN_SPACE + 1):
        actions = {}
        for agent in env.agents:
            obs = observations[agent]
            if "action_mask" in obs or "catalogue_mask" in obs:
                index = int(rng.choice(np.flatnonzero(catalogue_mask(obs))))
            else:  # a text-only observation for text actions has no mask
                index = int(rng.integers(len(env.catalogue)))
            if action_mode == "text" and step % 3 == 0:
                actions[agent] = env.action_space(agent).sample()  # random text
            elif action_mode == "text":
                actions[agent] = env.action_name(agent, index)  # the entry's label as text
            else:
                actions[agent] = index
        observations, *_ = env.step(actions)
        _check_in_space(env, observations, step)
        state = env.state()
        assert env.state_space.contains(state), step
