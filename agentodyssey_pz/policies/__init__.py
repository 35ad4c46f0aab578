"""Policies: the protocol (`Policy`), and scripted baselines that play the game (see `registry`)."""

from __future__ import annotations

from agentodyssey_pz.policies.base import Action, BasePolicy, Policy

__all__ = ["Action", "BasePolicy", "Policy"]
