"""The waiting policy: always `wait` (a baseline, and the idle agents of a test or evaluation).

Policies layer.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.base import Action, BasePolicy


class WaitPolicy(BasePolicy):
    """Never does anything."""

    name = "wait"

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        return "wait"
