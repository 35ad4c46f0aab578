"""AEC factories: `env()` (wrapped, the usual entry point) and `raw_env()`, as PettingZoo envs
offer.

Layer: adapter. The AEC env is PettingZoo's conversion of the ParallelEnv, wrapped like the
standard environments: out-of-bounds checks for discrete actions, then order enforcement.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import parallel_to_aec, wrappers
from pettingzoo.utils.env import AECEnv

from agentodyssey_pz.adapter.parallel import parallel_env


def raw_env(preset: str | None = None, **settings: Any) -> AECEnv:
    return parallel_to_aec(parallel_env(preset, **settings))


def env(preset: str | None = None, **settings: Any) -> AECEnv:
    aec = raw_env(preset, **settings)
    if settings.get("action_mode", "discrete") == "discrete":
        aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)
