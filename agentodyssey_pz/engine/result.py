"""`TickResult`: what one tick produced, per agent.

Layer: engine. Feedback text is joined only when asked for, so a training loop that never reads it
pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Mapping

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.events import Event
from agentodyssey_pz.rules.rewards import RewardBreakdown


class TickResult:
    """Feedback, reward breakdowns, events and flags of one tick."""

    __slots__ = (
        "_result",
        "action_ok",
        "bootstrap",
        "events",
        "invalid",
        "rewards",
        "terminated",
        "tick",
    )

    def __init__(
        self,
        tick: int,
        result: RuleResult,
        rewards: Mapping[str, RewardBreakdown],
        terminated: bool,
        bootstrap: bool,
    ) -> None:
        self.tick = tick  # ticks completed, this one included (0 after the bootstrap tick)
        self._result = result
        self.rewards = dict(rewards)
        self.terminated = terminated
        self.bootstrap = bootstrap
        # The tick's, read by every env step for every agent (plain slots, not properties).
        self.events: list[Event] = result.events
        # Per agent: the command was parsed, validated and its rule took effect.
        self.action_ok: dict[str, bool] = result.action_ok
        # Per agent: the command could not be parsed, named no verb, or had the wrong arity.
        self.invalid: dict[str, bool] = result.invalid

    def feedback(self, agent_id: str) -> str:
        return self._result.feedback_text(agent_id)

    def feedback_keys(self, agent_id: str) -> list[str]:
        return self._result.feedback_keys(agent_id)

    def events_of(self, agent_id: str, type_: str | None = None) -> list[Event]:
        return self._result.events_of(agent_id, type_)

    @property
    def rule_result(self) -> RuleResult:
        return self._result
