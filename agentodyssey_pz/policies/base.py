"""The policy protocol: what an agent's controller looks like to the env and to evaluation.

A side module on top of the adapter. A policy is anything callable as `policy(observation, info)`
returning an action: a discrete index or a text command (the env accepts both in either mode). A
language-model agent is just such a callable reading `observation["text"]`.

Policies that want to see more than their observation (the scripted baselines read the game state,
as scripted bots in games do) implement `bind(env, agent_id, seed)`, which evaluation calls once per
episode before the first action.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol, runtime_checkable

Action = int | str


@runtime_checkable
class Policy(Protocol):
    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> Action: ...


class BasePolicy:
    """Base class of the bundled policies: a name, an optional env binding, a seeded generator."""

    name: ClassVar[str] = "policy"

    def __init__(self) -> None:
        self.env: Any = None
        self.agent_id: str | None = None
        self.rng = random.Random(0)

    def bind(self, env: Any, agent_id: str, seed: int) -> None:
        """Called at the start of every episode: the env, which agent this policy plays, a seed."""
        self.env, self.agent_id = env, agent_id
        self.rng = random.Random(seed)

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        raise NotImplementedError

    @property
    def game(self) -> Any:
        """The headless game behind the bound env (scripted policies read its state)."""
        return self.env.game

    @property
    def me(self) -> Any:
        """This policy's agent state."""
        return self.env.game.agents[self.agent_id]
