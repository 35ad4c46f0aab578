"""Rollout collection over several envs, and evaluation of a policy over seeded episodes.

Side module (training; needs torch). Every (env, agent) pair is one sample slot: `num_envs` envs of
`n` agents give `num_envs * n` agent-steps per env step, all acted by one shared policy. The agent
set of this env never shrinks within an episode (agents respawn), and an episode ends for all
agents at once, so the slot layout is fixed; an env that ends is reset on the spot (its later
episodes draw seeds from the stream its first `reset(seed=...)` started).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import torch

import agentodyssey_pz

if TYPE_CHECKING:
    from agentodyssey_pz.training.ppo import ActorCritic

SCORE_KEY = "score_total"
# Env `reward_weights` that make the training reward the evaluation metric: score_total's parts
# (every component once, repeat kills not at all, deaths negative). The env's default rl_total
# weights pay 5 per repeat kill and 20 per quest stage instead.
SCORE_WEIGHTS: dict[str, float] = {
    "exploration": 1.0,
    "craft": 1.0,
    "kill": 0.0,
    "unique_kill": 1.0,
    "trade": 1.0,
    "quest": 1.0,
    "side_quest": 1.0,
    "death": -1.0,
}

# A batch chooser: (observations (n, obs), masks (n, actions) bool) -> action indices (n,).
Chooser = Callable[[np.ndarray, np.ndarray], np.ndarray]


@attrs.frozen
class EpisodeRecord:
    """One finished env episode, for the learning curve."""

    agent_steps: int  # agent-steps collected (over all envs) when it ended
    score_total: float  # mean over its agents of the episode's summed score_total
    reward: float  # mean over its agents of the summed (weighted) training reward


@attrs.frozen
class Rollout:
    """A (steps, slots) block of experience as torch tensors, plus the value after its end."""

    obs: torch.Tensor
    mask: torch.Tensor
    actions: torch.Tensor
    logprobs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor
    dones: torch.Tensor
    next_value: torch.Tensor


class RolloutCollector:
    """Steps `num_envs` ParallelEnvs in lock-step with one shared policy."""

    def __init__(self, env_kwargs: Mapping[str, Any], num_envs: int, seed: int = 0) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs: expected a positive integer, got {num_envs!r}")
        self.envs = [agentodyssey_pz.parallel_env(**env_kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.agents: list[str] = list(first.possible_agents)
        space = first.observation_space(self.agents[0])
        self.obs_size = int(space["observation"].shape[0])
        self.n_actions = int(space["action_mask"].shape[0])
        slots = num_envs * len(self.agents)
        self.obs = np.zeros((slots, self.obs_size), dtype=np.float32)
        self.mask = np.zeros((slots, self.n_actions), dtype=bool)
        self._score = np.zeros(slots)
        self._reward = np.zeros(slots)
        self.agent_steps = 0
        for e, env in enumerate(self.envs):
            observations, _ = env.reset(seed=seed + e)
            self._write(e, observations, self.obs, self.mask)

    @property
    def num_slots(self) -> int:
        return self.obs.shape[0]

    def _write(
        self, e: int, observations: Mapping[str, Any], obs: np.ndarray, mask: np.ndarray
    ) -> None:
        base = e * len(self.agents)
        for j, agent in enumerate(self.agents):
            obs[base + j] = observations[agent]["observation"]
            mask[base + j] = observations[agent]["action_mask"]

    @torch.no_grad()
    def collect(
        self,
        model: ActorCritic,
        num_steps: int,
        gamma: float,
        generator: torch.Generator | None = None,
    ) -> tuple[Rollout, list[EpisodeRecord]]:
        """`num_steps` env steps in every env (actions sampled from `generator`); returns the
        rollout and the episodes that ended."""
        slots = self.num_slots
        buf_obs = torch.zeros((num_steps, slots, self.obs_size))
        buf_mask = torch.zeros((num_steps, slots, self.n_actions), dtype=torch.bool)
        names = ("actions", "logprobs", "values", "rewards", "dones")
        buf = {k: torch.zeros((num_steps, slots)) for k in names}
        buf["actions"] = buf["actions"].long()
        episodes: list[EpisodeRecord] = []
        for t in range(num_steps):
            obs, mask = torch.from_numpy(self.obs), torch.from_numpy(self.mask)
            buf_obs[t], buf_mask[t] = obs, mask
            action, logprob, _, value = model.act(obs, mask, generator=generator)
            buf["actions"][t], buf["logprobs"][t], buf["values"][t] = action, logprob, value
            rewards, dones, truncated = self._step(action.numpy(), episodes)
            if truncated:  # bootstrap through the time limit from the final observation
                idx = torch.tensor([i for i, _ in truncated])
                final = torch.from_numpy(np.stack([o for _, o in truncated]))
                rewards[idx] += gamma * model.value(final)
            buf["rewards"][t], buf["dones"][t] = rewards, dones
        next_value = model.value(torch.from_numpy(self.obs))
        rollout = Rollout(buf_obs, buf_mask, **buf, next_value=next_value)
        return rollout, episodes

    def _step(
        self, actions: np.ndarray, episodes: list[EpisodeRecord]
    ) -> tuple[torch.Tensor, torch.Tensor, list[tuple[int, np.ndarray]]]:
        n = len(self.agents)
        rewards = torch.zeros(self.num_slots)
        dones = torch.zeros(self.num_slots)
        truncated: list[tuple[int, np.ndarray]] = []
        self.agent_steps += self.num_slots
        for e, env in enumerate(self.envs):
            base = e * n
            step = {a: int(actions[base + j]) for j, a in enumerate(self.agents)}
            observations, rew, term, _, infos = env.step(step)
            for j, agent in enumerate(self.agents):
                rewards[base + j] = rew[agent]
                self._score[base + j] += infos[agent]["reward_breakdown"][SCORE_KEY]
                self._reward[base + j] += rew[agent]
            if env.agents:
                self._write(e, observations, self.obs, self.mask)
                continue
            if not any(term.values()):
                truncated += [
                    (base + j, observations[a]["observation"]) for j, a in enumerate(self.agents)
                ]
            dones[base : base + n] = 1.0
            part = slice(base, base + n)
            episodes.append(
                EpisodeRecord(
                    self.agent_steps,
                    float(self._score[part].mean()),
                    float(self._reward[part].mean()),
                )
            )
            self._score[part] = 0.0
            self._reward[part] = 0.0
            observations, _ = env.reset()
            self._write(e, observations, self.obs, self.mask)
        return rewards, dones, truncated


def random_chooser(seed: int = 0) -> Chooser:
    """The masked-random policy: uniform over each row's unmasked actions."""
    rng = np.random.default_rng(seed)

    def choose(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        # The arg-max of i.i.d. uniforms restricted to the unmasked entries is uniform among them.
        return np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)

    return choose


def model_chooser(model: ActorCritic, seed: int = 0, deterministic: bool = False) -> Chooser:
    """The trained policy: samples its masked distribution (or takes its mode)."""
    generator = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def choose(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        dist = model.distribution(torch.from_numpy(obs), torch.from_numpy(mask))
        if deterministic:
            return dist.probs.argmax(dim=1).numpy()
        return torch.multinomial(dist.probs, 1, generator=generator).squeeze(1).numpy()

    return choose


def evaluate_policy(
    choose: Chooser,
    env_kwargs: Mapping[str, Any],
    seeds: Iterable[int],
    breakdowns: list[dict[str, float]] | None = None,
) -> list[float]:
    """Mean (over agents) episode score_total of one episode per seed, every agent playing
    `choose`. With `breakdowns`, each episode's mean reward components are appended to it."""
    env = agentodyssey_pz.parallel_env(**env_kwargs)
    agents = list(env.possible_agents)
    scores: list[float] = []
    for seed in seeds:
        observations, _ = env.reset(seed=int(seed))
        totals: dict[str, float] = {}
        while env.agents:
            obs = np.stack([observations[a]["observation"] for a in agents])
            mask = np.stack([observations[a]["action_mask"] for a in agents]).astype(bool)
            actions = choose(obs, mask)
            step = {a: int(actions[j]) for j, a in enumerate(agents)}
            observations, _, _, _, infos = env.step(step)
            for agent in agents:
                for key, value in infos[agent]["reward_breakdown"].items():
                    totals[key] = totals.get(key, 0.0) + value / len(agents)
        scores.append(float(totals.get(SCORE_KEY, 0.0)))
        if breakdowns is not None:
            breakdowns.append(totals)
    env.close()
    return scores


def bootstrap_ci(
    values: Iterable[float], confidence: float = 0.95, resamples: int = 10_000, seed: int = 0
) -> tuple[float, float, float]:
    """(mean, low, high): the sample mean and its percentile-bootstrap confidence interval."""
    data = np.asarray(list(values), dtype=np.float64)
    if data.size == 0:
        raise ValueError("bootstrap_ci needs at least one value")
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return float(data.mean()), float(low), float(high)
