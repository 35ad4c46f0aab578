"""The masked random policy: a uniformly drawn catalogue action among those possible now.

Policies layer. It reads only its observation: the discrete catalogue's mask, offered as
`action_mask` (discrete actions) or `catalogue_mask` (text actions), and returns an index, which the
env accepts in either action mode. With nothing possible (an all-zero mask, or no mask at all) it
waits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agentodyssey_pz.policies.base import Action, BasePolicy

MASK_KEYS = ("action_mask", "catalogue_mask")
FALLBACK = "wait"


class RandomPolicy(BasePolicy):
    """Uniform over the unmasked catalogue indices; seeded by `bind` (or the constructor)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.np_rng = np.random.default_rng(seed)

    def bind(self, env: Any, agent_id: str, seed: int) -> None:
        super().bind(env, agent_id, seed)
        self.np_rng = np.random.default_rng(seed)

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        mask = next((observation[k] for k in MASK_KEYS if k in observation), None)
        if mask is None:
            return FALLBACK
        allowed = np.flatnonzero(np.asarray(mask))
        if allowed.size == 0:
            return FALLBACK
        return int(allowed[self.np_rng.integers(allowed.size)])
