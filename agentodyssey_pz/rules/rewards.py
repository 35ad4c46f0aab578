"""`RewardBreakdown` (a tick's reward as named parts) and the `RewardFunction` interface.

Layer: rule framework. The eight components and the four totals are the reference's
(docs/mechanics/rewards.md#the-reward-breakdown) exactly. A reward function reads the progress
snapshot taken before the tick and the tick's events; it never changes game state (XP and levels are
applied by the engine from `xp_total`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, NamedTuple

import attrs

from agentodyssey_pz.world.agents import AgentState

try:  # a compiled build (scripts/build_mypyc.py) reads it; the pure one runs without it
    from mypy_extensions import mypyc_attr
except ImportError:

    def mypyc_attr(*_: Any, **__: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


COMPONENTS = (
    "exploration",
    "craft",
    "kill",
    "unique_kill",
    "trade",
    "quest",
    "side_quest",
    "death",
)


@attrs.define(slots=True)
class RewardBreakdown:
    """One agent's reward for one tick (or accumulated over many), as counts per component."""

    exploration: int = 0
    craft: int = 0
    kill: int = 0
    unique_kill: int = 0
    trade: int = 0
    quest: int = 0
    side_quest: int = 0
    death: int = 0

    @property
    def total(self) -> int:
        return (
            self.kill
            + self.craft
            + self.exploration
            + self.quest
            + self.side_quest
            + self.trade
            + self.unique_kill
            - self.death
        )

    @property
    def xp_total(self) -> int:
        """Experience earned: 5 per kill, new craft, new area and side quest; 10 per new trade;
        20 per quest stage."""
        return (
            5 * self.craft
            + 5 * self.kill
            + 5 * self.exploration
            + 5 * self.side_quest
            + 10 * self.trade
            + 20 * self.quest
        )

    @property
    def rl_total(self) -> int:
        """The shaped scalar meant for RL: XP plus 5 per unique kill minus 10 per death."""
        return self.xp_total + 5 * self.unique_kill - 10 * self.death

    @property
    def score_total(self) -> int:
        """Progress without repeat kills: `total - kill`."""
        return self.total - self.kill

    def components(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COMPONENTS}

    def as_dict(self) -> dict[str, int]:
        """Components and the four totals (built in one go: every info dict carries one)."""
        e, c, k, u = self.exploration, self.craft, self.kill, self.unique_kill
        t, q, s, d = self.trade, self.quest, self.side_quest, self.death
        total = k + c + e + q + s + t + u - d
        xp_total = 5 * c + 5 * k + 5 * e + 5 * s + 10 * t + 20 * q
        return {
            "exploration": e,
            "craft": c,
            "kill": k,
            "unique_kill": u,
            "trade": t,
            "quest": q,
            "side_quest": s,
            "death": d,
            "total": total,
            "xp_total": xp_total,
            "rl_total": xp_total + 5 * u - 10 * d,
            "score_total": total - k,
        }

    def add(self, other: RewardBreakdown) -> None:
        """Accumulate another breakdown into this one (the totals are linear, so they add too)."""
        self.exploration += other.exploration
        self.craft += other.craft
        self.kill += other.kill
        self.unique_kill += other.unique_kill
        self.trade += other.trade
        self.quest += other.quest
        self.side_quest += other.side_quest
        self.death += other.death

    @property
    def is_zero(self) -> bool:
        return not (
            self.exploration
            or self.craft
            or self.kill
            or self.unique_kill
            or self.trade
            or self.quest
            or self.side_quest
            or self.death
        )


class ProgressSnapshot(NamedTuple):
    """The tracked progress of one agent at the start of a tick (what rewards are diffed against).

    A named tuple: one is made per agent per tick, so it must be cheap."""

    visited: int
    kills: int
    unique_kills: int
    crafted_kinds: int
    traded_kinds: int
    area_id: str

    @classmethod
    def of(cls, agent: AgentState) -> ProgressSnapshot:
        # tuple.__new__ directly: a named tuple's own __new__ is a Python function, one call more
        # per agent per tick.
        return tuple.__new__(
            cls,
            (
                len(agent.visited),
                agent.kills,
                len(agent.unique_kills),
                len(agent.crafted),
                len(agent.traded),
                agent.area_id,
            ),
        )


# A world pack's reward function subclasses it; see rules.base's rule classes.
@mypyc_attr(native_class=False)
class RewardFunction(ABC):
    """Turns one tick into a `RewardBreakdown` per agent."""

    @abstractmethod
    def compute(
        self, game: Any, before: Mapping[str, ProgressSnapshot], res: Any
    ) -> dict[str, RewardBreakdown]:
        """`game` is the GameView, `before` the snapshots taken at the start of the tick, `res`
        the tick's RuleResult (events and feedback)."""
