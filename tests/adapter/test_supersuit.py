"""SuperSuit vectorisation: the env as a gymnasium vector env over two worker processes.

Vector observations only: text observations are for language agents, not for SuperSuit (its
concatenation of observations needs fixed-size arrays).
"""

from __future__ import annotations

import numpy as np
import pytest
import supersuit
from worlds_helper import bundled_worlds

import agentodyssey_pz

AGENTS = 3
COPIES = 2
STEPS = 1000
MAX_CYCLES = 300  # episodes end (and auto-reset in the workers) three times within the run


@pytest.mark.parametrize("world", bundled_worlds())
def test_concat_vec_envs_runs_masked_random_actions(world: str) -> None:
    env = agentodyssey_pz.parallel_env(world=world, num_agents=AGENTS, max_cycles=MAX_CYCLES)
    n_actions = env.action_space("agent_0").n
    obs_size = env.observation_space("agent_0")["observation"].shape[0]
    vec = supersuit.pettingzoo_env_to_vec_env_v1(env)
    venv = supersuit.concat_vec_envs_v1(vec, COPIES, num_cpus=2, base_class="gymnasium")
    n = AGENTS * COPIES
    try:
        assert venv.num_envs == n
        observations, _ = venv.reset(seed=0)
        rng = np.random.default_rng(0)
        truncated_steps = []
        for step in range(STEPS):
            masks = observations["action_mask"]
            assert masks.shape == (n, n_actions) and masks.dtype == np.int8
            assert masks.any(axis=1).all(), f"step {step}: an agent has no allowed action"
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            observations, rewards, terminations, truncations, infos = venv.step(actions)
            assert observations["observation"].shape == (n, obs_size)
            assert observations["observation"].dtype == np.float32
            assert ((observations["observation"] >= -1) & (observations["observation"] <= 1)).all()
            assert rewards.shape == (n,) and np.isfinite(rewards).all()
            assert rewards.dtype == np.float32
            assert terminations.shape == (n,) and terminations.dtype == np.bool_
            assert truncations.shape == (n,) and truncations.dtype == np.bool_
            assert len(infos) == n
            assert all("action_ok" in info for info in infos)
            if truncations.any():
                truncated_steps.append(step + 1)
                assert truncations.all()
        assert truncated_steps == [MAX_CYCLES, 2 * MAX_CYCLES, 3 * MAX_CYCLES]
    finally:
        venv.close()
