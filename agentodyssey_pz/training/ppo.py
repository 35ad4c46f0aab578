"""Masked PPO: the actor-critic network, the masked categorical, GAE and the clipped update.

Side module (top level; needs the `[train]` extra, i.e. torch). A compact CleanRL-style learner
(vwxyzjn/cleanrl: cleanrl/ppo.py; the masking follows Huang & Ontañón, "A Closer Look at Invalid
Action Masking in Policy Gradient Algorithms"): one policy is shared by every agent, so each
agent-step is one sample. Invalid actions get a logit of -1e9 before the softmax, which gives them
probability exactly 0 and no gradient.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from agentodyssey_pz.training.rollout import EpisodeRecord, Rollout, RolloutCollector

MASKED_LOGIT = -1e9


@attrs.frozen
class PPOConfig:
    """Hyper-parameters of the learner: CleanRL's defaults, except a fixed minibatch size and a
    wider network."""

    learning_rate: float = 2.5e-4
    anneal_lr: bool = True  # linear decay to 0 over the run
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    clip_vloss: bool = True
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    update_epochs: int = 4
    minibatch_size: int = 512  # agent-steps per gradient step
    norm_adv: bool = True
    target_kl: float | None = None  # stop the epochs early past this approximate KL
    hidden: int = 256


def layer_init(layer: nn.Linear, std: float = math.sqrt(2), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights and a constant bias (the PPO implementation-details default)."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


def masked_categorical(logits: torch.Tensor, mask: torch.Tensor) -> Categorical:
    """A categorical over the unmasked actions: masked logits are replaced by -1e9."""
    return Categorical(logits=torch.where(mask, logits, torch.full_like(logits, MASKED_LOGIT)))


class ActorCritic(nn.Module):
    """Two tanh MLPs (actor and critic) over the observation vector."""

    def __init__(self, obs_size: int, n_actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.obs_size, self.n_actions, self.hidden = obs_size, n_actions, hidden
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)),
            nn.Tanh(),
            layer_init(nn.Linear(hidden, n_actions), std=0.01),
        )

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        """State values, shape (batch,)."""
        return self.critic(obs).squeeze(-1)

    def distribution(self, obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        """The masked action distribution for a batch of observations."""
        return masked_categorical(self.actor(obs), mask)

    def act(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        action: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(action, log-probability, entropy, value); samples an action (from `generator`, else
        torch's global one) unless one is given."""
        dist = self.distribution(obs, mask)
        if action is None:
            action = torch.multinomial(dist.probs, 1, generator=generator).squeeze(-1)
        return action, dist.log_prob(action), dist.entropy(), self.value(obs)


def compute_gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    next_value: torch.Tensor,
    gamma: float,
    lam: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimates and returns for a (steps, slots) rollout.

    `dones[t]` is 1 where the episode ended after step t (the next observation belongs to a new
    episode, so nothing is bootstrapped across it); `next_value` is the value of the observation
    after the last step. Truncation is folded into `rewards` by the collector (it adds gamma * V of
    the final observation), so time limits are not treated as failures.
    """
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        following = next_value if t == steps - 1 else values[t + 1]
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * following * alive - values[t]
        last = delta + gamma * lam * alive * last
        advantages[t] = last
    return advantages, advantages + values


def flatten(
    rollout: Rollout, advantages: torch.Tensor, returns: torch.Tensor
) -> dict[str, torch.Tensor]:
    """A (steps, slots) rollout as the flat batch `ppo_update` takes (one row per agent-step)."""
    return {
        "obs": rollout.obs.reshape(-1, rollout.obs.shape[-1]),
        "mask": rollout.mask.reshape(-1, rollout.mask.shape[-1]),
        "actions": rollout.actions.reshape(-1),
        "logprobs": rollout.logprobs.reshape(-1),
        "values": rollout.values.reshape(-1),
        "advantages": advantages.reshape(-1),
        "returns": returns.reshape(-1),
    }


def ppo_update(
    model: ActorCritic,
    optimizer: torch.optim.Optimizer,
    batch: dict[str, torch.Tensor],
    config: PPOConfig,
    generator: torch.Generator | None = None,
) -> dict[str, float]:
    """Clipped-surrogate PPO epochs over a flat batch; returns the last epoch's mean statistics.

    `batch` holds flat tensors: obs, mask (bool), actions, logprobs, values, advantages, returns.
    """
    size = batch["actions"].shape[0]
    stats: dict[str, list[float]] = {
        k: [] for k in ("loss", "policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac")
    }
    for _ in range(config.update_epochs):
        stats = {k: [] for k in stats}
        order = torch.randperm(size, generator=generator)
        for start in range(0, size, config.minibatch_size):
            idx = order[start : start + config.minibatch_size]
            step = _minibatch_loss(model, {k: v[idx] for k, v in batch.items()}, config)
            optimizer.zero_grad()
            step["loss"].backward()
            nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
            optimizer.step()
            for k, v in step.items():
                stats[k].append(float(v.detach()))
        if config.target_kl is not None and np.mean(stats["approx_kl"]) > config.target_kl:
            break
    return {k: float(np.mean(v)) for k, v in stats.items()}


def _minibatch_loss(
    model: ActorCritic, mb: dict[str, torch.Tensor], config: PPOConfig
) -> dict[str, Any]:
    _, logprob, entropy, value = model.act(mb["obs"], mb["mask"], mb["actions"])
    log_ratio = logprob - mb["logprobs"]
    ratio = log_ratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).mean()
        clipfrac = ((ratio - 1.0).abs() > config.clip_coef).float().mean()
    adv = mb["advantages"]
    if config.norm_adv and adv.numel() > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg_loss = torch.max(
        -adv * ratio, -adv * torch.clamp(ratio, 1 - config.clip_coef, 1 + config.clip_coef)
    ).mean()
    if config.clip_vloss:
        clipped = mb["values"] + torch.clamp(
            value - mb["values"], -config.clip_coef, config.clip_coef
        )
        v_loss = (
            0.5 * torch.max((value - mb["returns"]) ** 2, (clipped - mb["returns"]) ** 2).mean()
        )
    else:
        v_loss = 0.5 * ((value - mb["returns"]) ** 2).mean()
    ent = entropy.mean()
    loss = pg_loss - config.ent_coef * ent + config.vf_coef * v_loss
    return {
        "loss": loss,
        "policy_loss": pg_loss.detach(),
        "value_loss": v_loss.detach(),
        "entropy": ent.detach(),
        "approx_kl": approx_kl,
        "clipfrac": clipfrac,
    }


class PPOTrainer:
    """The loop: collect a rollout from every env, compute GAE, run the PPO epochs."""

    def __init__(
        self,
        env_kwargs: Mapping[str, Any],
        num_envs: int = 8,
        num_steps: int = 128,
        config: PPOConfig | None = None,
        seed: int = 0,
    ) -> None:
        self.config = config or PPOConfig()
        self.num_steps = num_steps
        # Every random draw comes from generators seeded here; torch's global one is left as it was.
        self.generator = torch.Generator().manual_seed(seed)
        self.collector = RolloutCollector(env_kwargs, num_envs, seed)
        with torch.random.fork_rng():
            torch.manual_seed(seed)
            self.model = ActorCritic(
                self.collector.obs_size, self.collector.n_actions, self.config.hidden
            )
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=self.config.learning_rate, eps=1e-5
        )
        self.episodes: list[EpisodeRecord] = []

    @property
    def batch_size(self) -> int:
        """Agent-steps per iteration."""
        return self.num_steps * self.collector.num_slots

    @property
    def agent_steps(self) -> int:
        return self.collector.agent_steps

    def iteration(self, progress: float = 0.0) -> dict[str, float]:
        """One collect-and-update round; `progress` in [0, 1] drives the learning-rate decay."""
        cfg = self.config
        if cfg.anneal_lr:
            for group in self.optimizer.param_groups:
                group["lr"] = cfg.learning_rate * max(0.0, 1.0 - progress)
        rollout, episodes = self.collector.collect(
            self.model, self.num_steps, cfg.gamma, self.generator
        )
        self.episodes += episodes
        advantages, returns = compute_gae(
            rollout.rewards, rollout.values, rollout.dones, rollout.next_value,
            cfg.gamma, cfg.gae_lambda,
        )  # fmt: skip
        batch = flatten(rollout, advantages, returns)
        stats = ppo_update(self.model, self.optimizer, batch, cfg, self.generator)
        stats["agent_steps"] = float(self.agent_steps)
        stats["episodes"] = float(len(episodes))
        if episodes:
            stats["score_total"] = float(np.mean([e.score_total for e in episodes]))
        return stats
