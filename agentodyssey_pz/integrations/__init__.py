"""Integrations with third-party training frameworks (side modules; nothing in the package imports
them). `rllib`: RLlib registration, a masking RLModule and a PPO config (the `[rllib]` extra)."""

from __future__ import annotations
