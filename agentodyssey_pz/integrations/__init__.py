"""Integrations with third-party software (side modules; nothing in the package imports them).
`rllib`: RLlib registration, a masking RLModule and a PPO config (the `[rllib]` extra).
`published_engine`: AgentOdyssey's own engine run as a black box in a child process, for the
outcome comparisons (benchmarks/compare_published_verbs.py, the world-parity tests)."""

from __future__ import annotations
