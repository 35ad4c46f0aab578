"""RLlib integration: the env through RLlib's PettingZoo wrapper, one masked PPO policy for all.

Side module (needs the `[rllib]` extra: ray[rllib] and torch). RLlib is used as it is: the env is
registered with `ray.tune.registry.register_env` behind
`ray.rllib.env.wrappers.pettingzoo_env.ParallelPettingZooEnv`; every agent maps to one policy
(`POLICY_ID`, parameter sharing); sampling is spread over RLlib's own env runners. Masking follows
RLlib's action-masking example (ray: rllib/examples/rl_modules/classes/action_masking_rlm.py): the
module's networks see only `obs["observation"]`, and the logits of actions that
`obs["action_mask"]` rules out are replaced by -1e9 before the action distribution is built.

    from agentodyssey_pz.integrations.rllib import ppo_config
    algo = ppo_config({"num_agents": 3, "tutorial": False}, num_env_runners=2).build_algo()
    result = algo.train()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym

import agentodyssey_pz

INSTALL = 'pip install "agentodyssey-pz[rllib]"'

# torch and ray are the `[rllib]` extra: say so, rather than leave a bare ModuleNotFoundError.
try:
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
        DefaultPPOTorchRLModule,
    )
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
    from ray.tune.registry import register_env
except ModuleNotFoundError as exc:
    raise ImportError(f"{__name__} needs {exc.name!r}, which is not installed: {INSTALL}") from exc

ENV_NAME = "agentodyssey_pz"
POLICY_ID = "shared"
OBS_KEY = "observation"
MASK_KEY = "action_mask"
MASKED_LOGIT = -1e9
SCORE_METRIC = "score_total_mean"


def make_env(env_config: Mapping[str, Any]) -> ParallelPettingZooEnv:
    """The RLlib env: `parallel_env(**env_config)` (EnvConfig keywords) wrapped for RLlib."""
    return ParallelPettingZooEnv(agentodyssey_pz.parallel_env(**dict(env_config)))


def register(name: str = ENV_NAME) -> str:
    """Register the env with RLlib (Tune's registry) under `name`; returns the name."""
    register_env(name, make_env)
    return name


def shared_policy(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Policy mapping: every agent plays the one shared policy."""
    return POLICY_ID


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module over `obs["observation"]`, with `obs["action_mask"]` applied."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or not {OBS_KEY, MASK_KEY} <= set(
            observation_space.spaces
        ):
            raise ValueError(
                f"MaskedPPOTorchRLModule needs a Dict observation space with {OBS_KEY!r} and "
                f"{MASK_KEY!r}, got {observation_space!r}"
            )
        # The default networks are built for the inner vector only (set back in `setup`).
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = self._split(batch)
        return _mask_logits(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = self._split(batch)
        return _mask_logits(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = self._split(batch)
        return _mask_logits(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        self._split(batch)
        return super().compute_values(batch, embeddings)

    @staticmethod
    def _split(batch: dict[str, Any]) -> torch.Tensor:
        """Move the mask out of the observation dict (kept in the batch for later passes: the
        learner computes values first and trains on the same, already split batch)."""
        obs = batch[Columns.OBS]
        if isinstance(obs, Mapping):
            batch[MASK_KEY] = obs[MASK_KEY]
            batch[Columns.OBS] = obs[OBS_KEY]
        return batch[MASK_KEY]


def _mask_logits(outputs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
    logits = outputs[Columns.ACTION_DIST_INPUTS]
    outputs[Columns.ACTION_DIST_INPUTS] = torch.where(
        mask.bool(), logits, torch.full_like(logits, MASKED_LOGIT)
    )
    return outputs


class ScoreCallback(RLlibCallback):
    """Logs each episode's score_total (mean over agents) as `score_total_mean`."""

    def on_episode_step(self, *, episode: Any, **kwargs: Any) -> None:
        infos = episode.get_infos(-1)
        scores = episode.custom_data.setdefault("score_total", {})
        for agent, info in infos.items():
            breakdown = info.get("reward_breakdown") if isinstance(info, Mapping) else None
            if breakdown is not None:
                scores[agent] = scores.get(agent, 0) + breakdown["score_total"]

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        scores = episode.custom_data.get("score_total")
        if scores and metrics_logger is not None:
            mean = sum(scores.values()) / len(scores)
            metrics_logger.log_value(SCORE_METRIC, mean, reduce="mean", window=100)


def ppo_config(
    env_config: Mapping[str, Any] | None = None,
    *,
    num_env_runners: int = 2,
    num_envs_per_env_runner: int = 1,
    train_batch_size: int = 4000,
    minibatch_size: int = 500,
    num_epochs: int = 4,
    lr: float = 2.5e-4,
    hidden: tuple[int, ...] = (256, 256),
    seed: int | None = 0,
) -> PPOConfig:
    """An RLlib PPO config: the registered env, one masked policy shared by all agents, CPU only.

    `env_config` holds `parallel_env` keywords (default: tutorial off, as for MARL);
    `train_batch_size` counts agent-steps per training iteration.
    """
    settings = {"tutorial": False, **dict(env_config or {})}
    return (
        PPOConfig()
        .environment(register(), env_config=settings)
        .env_runners(
            num_env_runners=num_env_runners,
            num_envs_per_env_runner=num_envs_per_env_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0, num_gpus_per_learner=0)
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=shared_policy)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    POLICY_ID: RLModuleSpec(
                        module_class=MaskedPPOTorchRLModule,
                        model_config={
                            "fcnet_hiddens": list(hidden),
                            "fcnet_activation": "tanh",
                            "vf_share_layers": False,
                        },
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=train_batch_size,
            minibatch_size=minibatch_size,
            num_epochs=num_epochs,
            lr=lr,
            gamma=0.99,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .callbacks(ScoreCallback)
        .debugging(seed=seed)
    )
