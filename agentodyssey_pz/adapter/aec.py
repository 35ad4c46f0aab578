"""AEC factories: `env()` (wrapped, the usual entry point) and `raw_env()`, as PettingZoo envs
offer.

Layer: adapter. The AEC env is PettingZoo's conversion of the ParallelEnv, wrapped like the
standard environments: out-of-bounds checks for discrete actions, then order enforcement. The
conversion is taught two things it cannot know about this env: a reset may give no agents
(resuming a checkpoint whose episode had ended), and rewards may be vectors (`vector_reward`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils import AgentSelector, wrappers
from pettingzoo.utils.conversions import parallel_to_aec_wrapper
from pettingzoo.utils.env import AECEnv

from agentodyssey_pz.adapter.parallel import parallel_env
from agentodyssey_pz.rules.rewards import COMPONENTS


class OdysseyAEC(parallel_to_aec_wrapper):
    """PettingZoo's parallel-to-AEC conversion, with this env's empty resets and vector rewards."""

    def _zero_reward(self) -> Any:
        """A reward of nothing in the env's shape (PettingZoo's conversion writes a plain 0)."""
        if self.env.config.vector_reward:
            return np.zeros(len(COMPONENTS), dtype=np.float32)
        return 0.0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._observations, self.infos = self.env.reset(seed=seed, options=options)
        self.agents = list(self.env.agents)
        self._live_agents = list(self.agents)
        self._actions = dict.fromkeys(self.agents)
        self._agent_selector = AgentSelector(self._live_agents)
        # A resumed episode that had already ended has nobody to select (and agent_iter stops).
        self.agent_selection = self._agent_selector.reset() if self.agents else None
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.rewards = {agent: self._zero_reward() for agent in self.agents}
        self._cumulative_rewards = {agent: self._zero_reward() for agent in self.agents}
        self.new_agents, self.new_values = [], {}

    def _clear_rewards(self) -> None:
        for agent in self.rewards:
            self.rewards[agent] = self._zero_reward()


class IndexInBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's check that a discrete action lies in the action space; a text command passes
    through, as the env takes ints or text in any mode."""

    def step(self, action: Any) -> None:
        if isinstance(action, str):
            self.env.step(action)
        else:
            super().step(action)


def raw_env(preset: str | None = None, **settings: Any) -> AECEnv:
    return OdysseyAEC(parallel_env(preset, **settings))


def env(preset: str | None = None, **settings: Any) -> AECEnv:
    aec = raw_env(preset, **settings)
    if settings.get("action_mode", "discrete") == "discrete":
        aec = IndexInBounds(aec)
    return wrappers.OrderEnforcingWrapper(aec)
