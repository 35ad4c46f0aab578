"""Events: typed records of what happened in a tick, emitted by rules and read by rewards and
quests.

Layer: rule framework. Event type names and payload keys follow the reference
(docs/mechanics/index.md#events) exactly, because other rules, the reward function and the
dependency tracker consume them.
"""

from __future__ import annotations

from typing import Any

import attrs

WORLD_AGENT = "env"  # agent_id of events about the world rather than one agent

# Event types other systems consume (the full list: docs/mechanics/index.md#events).
AGENT_DIED = "agent_died"
QUEST_STAGE_ADVANCED = "quest_stage_advanced"
SIDE_QUEST_COMPLETED = "side_quest_completed"
MAIN_QUEST_COMPLETE = "main_quest_complete"
AGENT_LEVELED_UP = "agent_leveled_up"
WORLD_STATE_CHANGED = "world_state_changed"
TRACK_MOVE = "track.move"
TRACK_SPAWN = "track.spawn"
TRACK_CONSUME = "track.consume"
TRACK_UTILIZE = "track.utilize"


@attrs.define(slots=True)
class Event:
    type: str
    agent_id: str | None
    data: dict[str, Any] = attrs.Factory(dict)


def location(kind: str, ident: str) -> dict[str, str]:
    """A tracking location: kind is area, hand, equip or container."""
    return {"kind": kind, "id": ident}
