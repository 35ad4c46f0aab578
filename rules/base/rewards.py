"""The default reward function (docs/mechanics/rewards.md#the-default-reward-function).

Rule pack `base`. Diff-based parts compare the agent's tracked progress with the snapshot taken at
the start of the tick; event-based parts count this tick's events about the agent. An agent standing
in the tutorial room gets an all-zero breakdown (one exclusion rule for every part; the reference
still counts the event-based parts there;
docs/mechanics/rewards.md#quirk-the-tutorial-room-pays-nothing-at-all).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentodyssey_pz.rules.base import mypyc_attr
from agentodyssey_pz.rules.events import AGENT_DIED, QUEST_STAGE_ADVANCED, SIDE_QUEST_COMPLETED
from agentodyssey_pz.rules.rewards import ProgressSnapshot, RewardBreakdown, RewardFunction


@mypyc_attr(native_class=False)  # spike: packs subclass it
class DefaultRewardFunction(RewardFunction):
    def compute(
        self, game: Any, before: Mapping[str, ProgressSnapshot], res: Any
    ) -> dict[str, RewardBreakdown]:
        out: dict[str, RewardBreakdown] = {}
        for agent_id, agent in game.agents.items():
            if game.in_tutorial_room(agent):
                out[agent_id] = RewardBreakdown()
                continue
            prev = before[agent_id]
            # Progress a pack takes back never counts below zero. Comparisons, not max(): this
            # runs for every agent on every tick, and 3.11's max() is a slow call.
            kills = agent.kills - prev.kills
            unique_kills = len(agent.unique_kills) - prev.unique_kills
            crafted = len(agent.crafted) - prev.crafted_kinds
            traded = len(agent.traded) - prev.traded_kinds
            breakdown = RewardBreakdown(
                exploration=len(agent.visited) - prev.visited,
                kill=kills if kills > 0 else 0,
                unique_kill=unique_kills if unique_kills > 0 else 0,
                craft=crafted if crafted > 0 else 0,
                trade=traded if traded > 0 else 0,
            )
            for event in res.by_agent.get(agent_id, ()):
                kind = event.type
                if kind == AGENT_DIED:
                    breakdown.death += 1
                elif kind == QUEST_STAGE_ADVANCED:
                    breakdown.quest += 1
                elif kind == SIDE_QUEST_COMPLETED:
                    breakdown.side_quest += 1
            out[agent_id] = breakdown
        return out
