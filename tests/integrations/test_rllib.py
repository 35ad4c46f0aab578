"""RLlib integration (agentodyssey_pz.integrations.rllib): the masking module honours the env's
mask, and the PPO config trains one iteration on CPU with two env runners sharing one policy.
Skipped without ray[rllib] (the `[rllib]` extra)."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

import ray  # noqa: E402  (after the importorskips)

import agentodyssey_pz  # noqa: E402
from agentodyssey_pz.integrations.rllib import (  # noqa: E402
    MASKED_LOGIT,
    POLICY_ID,
    MaskedPPOTorchRLModule,
    make_env,
    ppo_config,
    shared_policy,
)

ENV = {"num_agents": 2, "max_cycles": 25}


def test_masking_module_gives_masked_actions_no_probability() -> None:
    env = agentodyssey_pz.parallel_env(tutorial=False, **ENV)
    observations, _ = env.reset(seed=0)
    space = env.observation_space("agent_0")
    module = MaskedPPOTorchRLModule(
        observation_space=space,
        action_space=env.action_space("agent_0"),
        inference_only=False,
        model_config={"fcnet_hiddens": [16, 16]},
    )
    obs = {k: torch.as_tensor(np.stack([o[k] for o in observations.values()])) for k in space}
    mask = obs["action_mask"].bool()
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        batch = {"obs": {k: v.clone() for k, v in obs.items()}}
        logits = forward(batch)["action_dist_inputs"]
        assert bool((logits[~mask] == MASKED_LOGIT).all())
        assert bool((logits[mask] > MASKED_LOGIT).all())
    values = module.compute_values({"obs": {k: v.clone() for k, v in obs.items()}})
    assert values.shape == (len(observations),)


def test_wrapped_env_and_policy_mapping() -> None:
    env = make_env({"tutorial": False, **ENV})
    observations, _ = env.reset(seed=3)
    assert set(observations) == {"agent_0", "agent_1"}
    assert {shared_policy(a) for a in observations} == {POLICY_ID}
    _, _, terminated, truncated, _ = env.step(dict.fromkeys(observations, 0))
    assert terminated["__all__"] is False and truncated["__all__"] is False


@pytest.fixture
def local_ray(monkeypatch: pytest.MonkeyPatch):
    # Ray starts workers at nice 15; on a busy machine they starve (minutes instead of seconds).
    monkeypatch.setenv("RAY_worker_niceness", "0")
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_one_training_iteration_with_two_env_runners(local_ray: None) -> None:
    config = ppo_config(
        ENV,
        num_env_runners=2,
        train_batch_size=100,
        minibatch_size=50,
        num_epochs=1,
        hidden=(32, 32),
    )
    algo = config.build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["fault_tolerance"]["num_healthy_workers"] == 2
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 100
    sampled = result["env_runners"]["num_module_steps_sampled_lifetime"]
    assert set(sampled) == {POLICY_ID}  # both agents feed the one shared policy
    learner = result["learners"][POLICY_ID]
    for key in ("total_loss", "policy_loss", "vf_loss", "entropy"):
        assert math.isfinite(learner[key]), (key, learner[key])
