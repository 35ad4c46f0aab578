"""Training on one machine: a masked PPO learner with one policy shared by all agents.

Side module on top of the package (needs the `[train]` extra: torch). Nothing in the package imports
it. `benchmarks/train_ppo.py` drives it end to end.
"""

from __future__ import annotations

from agentodyssey_pz.training.ppo import (
    ActorCritic,
    PPOConfig,
    PPOTrainer,
    compute_gae,
    masked_categorical,
    ppo_update,
)
from agentodyssey_pz.training.rollout import (
    SCORE_WEIGHTS,
    EpisodeRecord,
    Rollout,
    RolloutCollector,
    bootstrap_ci,
    evaluate_policy,
    model_chooser,
    random_chooser,
)

__all__ = [
    "SCORE_WEIGHTS",
    "ActorCritic",
    "EpisodeRecord",
    "PPOConfig",
    "PPOTrainer",
    "Rollout",
    "RolloutCollector",
    "bootstrap_ci",
    "compute_gae",
    "evaluate_policy",
    "masked_categorical",
    "model_chooser",
    "ppo_update",
    "random_chooser",
]
