"""What the viewer shows of a game at one tick, read off the engine's state: one "frame".

Side module (viewer). A frame is a plain JSON-compatible dict:

    {"tick": t,
     "agents": {agent: {"area", "hp", "max_hp", "level", "xp", "score", "dark",
                        "hands", "equipped", "inventory"}},     # names -> counts
     "steps": {agent: {"command", "feedback", "ok", "invalid", "reward", "llm"}},   # not at tick 0
     "obs": {agent: text},          # what the agent read after the tick (the next choice's view)
     "events": [[agent or "", type, text], ...],
     "locked": [[area, area], ...]}  # locked paths after the tick

Also here: what the page shows of a language-model turn (`llm_summary`), the dates areas first
exist (`AreaClock`) and the dependency graph as the page keeps it (`dependency_data`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

# Event types the feed shows (kills, crafts, trades, quest stages, deaths, levels, unlocked paths).
FEED_EVENTS = {
    "npc_killed": "kill",
    "object_crafted": "craft",
    "object_bought": "trade",
    "object_sold": "trade",
    "quest_stage_advanced": "quest",
    "main_quest_complete": "quest",
    "side_quest_completed": "quest",
    "tutorial_completed": "quest",
    "agent_died": "death",
    "agent_leveled_up": "level",
    "path_unlocked": "path",
}
REWARD_PARTS = ("exploration", "craft", "kill", "unique_kill", "trade", "quest", "side_quest",
                "death")  # fmt: skip


class AreaClock:
    """Notes the tick at which each area first exists (areas are never removed by the game's
    own rules; a removed one keeps its tick)."""

    def __init__(self, world: Any, tick: int) -> None:
        self.since = dict.fromkeys(world.areas, tick)

    def after(self, world: Any, tick: int) -> None:
        if len(world.areas) != len(self.since):  # one comparison on most ticks
            for area_id in world.areas:
                self.since.setdefault(area_id, tick)


def dependency_data(tracker: Any, agents: Sequence[str]) -> dict[str, Any]:
    """The tracker's graph as the page shows it: the nodes that have an edge, each
    [tick, agent index or -1 for the world's rules, rule, hint], and [producer, consumer] pairs
    of node indices. A node's tick is its step index + 1 (the tick whose action it was)."""
    graph = tracker.graph
    pairs = tracker.edges()
    used = list(dict.fromkeys(n for pair in pairs for n in pair))
    index = {node: i for i, node in enumerate(used)}
    who = {agent: i for i, agent in enumerate(agents)}
    nodes = []
    for node in used:
        data = graph.nodes[node]
        nodes.append([int(data["step"]) + 1, who.get(data["actor"], -1), str(data["rule"]),
                      str(data.get("hint") or "")])  # fmt: skip
    return {"nodes": nodes, "edges": [[index[p], index[c]] for p, c in pairs]}


def agent_view(game: Any, agent: Any, score: int) -> dict[str, Any]:
    from agentodyssey_pz.world.darkness import in_darkness

    world = game.world
    inventory: dict[str, int] = {}
    if agent.inventory_id is not None and agent.inventory_id in world.containers:
        inventory = named(world, world.containers[agent.inventory_id].items)
    return {
        "area": agent.area_id,
        "hp": agent.hp,
        "max_hp": agent.max_hp,
        "level": agent.level,
        "xp": agent.xp,
        "score": score,
        "dark": bool(in_darkness(world, agent)),
        "hands": named(world, agent.hands),
        "equipped": named(world, agent.equipped),
        "inventory": inventory,
    }


def named(world: Any, items: Mapping[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for oid, count in items.items():
        name = world.name_of(oid)
        out[name] = out.get(name, 0) + int(count)
    return out


def locked_paths(world: Any) -> list[list[str]]:
    from agentodyssey_pz.world.graph import LOCKED, OWNER

    out = []
    for a, b, data in world.graph.nx.edges(data=True):
        if data.get(LOCKED) and data.get(OWNER) is None:
            out.append(sorted((a, b)))
    return sorted(out)


def feed_events(world: Any, events: Sequence[Any]) -> list[list[str]]:
    out = []
    for event in events:
        if event.type in FEED_EVENTS:
            out.append([event.agent_id or "", event.type, describe_event(world, event.data)])
    return out


def describe_event(world: Any, data: Mapping[str, Any]) -> str:
    """An event's payload as words: object and NPC names alone, `in <area>`, `key value`."""
    parts = []
    for key, value in data.items():
        if isinstance(value, str):
            if key.endswith("area_id"):
                area = world.areas.get(value)
                parts.append(f"in {area.name if area is not None else value}")
            elif key.endswith("npc_id"):
                npc = world.npcs.get(value)
                parts.append(npc.name if npc is not None else value)
            elif key.endswith("obj_id"):
                parts.append(world.name_of(value))
            else:
                parts.append(f"{key.replace('_', ' ')} {value}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{key.replace('_', ' ')} {value}")
    return ", ".join(parts)


def observation(game: Any, agent_id: str, feedback: str, *, bootstrap: bool = False) -> str:
    from agentodyssey_pz.observe.text import tick_observation

    return tick_observation(
        game, agent_id, feedback, bootstrap=bootstrap, terminated=bool(game.terminated)
    )


def nonzero_reward(breakdown: Mapping[str, Any]) -> dict[str, int]:
    return {part: int(breakdown[part]) for part in REWARD_PARTS if breakdown.get(part)}


def llm_summary(record: Any) -> dict[str, Any] | None:
    """What the page shows of a language-model turn: prompt size, answer, tokens, errors."""
    if not isinstance(record, Mapping):
        return None
    calls = [c for c in record.get("calls") or () if isinstance(c, Mapping)]
    act = next((c for c in calls if c.get("purpose") == "act"), calls[0] if calls else {})
    prompt_chars = 0
    for message in act.get("messages") or ():
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, str):
            prompt_chars += len(content)
    answers = [c.get("response") for c in calls if c.get("purpose") in ("act", "reask")]
    errors = [str(c["error"]) for c in calls if c.get("error")]
    out = {
        "prompt_chars": prompt_chars,
        "input_tokens": record.get("input_tokens"),
        "output_tokens": record.get("output_tokens"),
        "format_error": bool(record.get("format_error")),
        "reasked": bool(record.get("reasked")),
        "waited": record.get("waited"),
        "cost": record.get("cost"),
        "seconds": record.get("seconds"),
        "answer": "\n---\n".join(a for a in answers if isinstance(a, str)),
        "reasoning": record.get("reasoning") if isinstance(record.get("reasoning"), str) else None,
        "errors": "\n".join(errors) or None,
    }
    return {k: v for k, v in out.items() if v is not None and v != "" and finite(v)}


def finite(value: Any) -> bool:
    """False for a number JSON cannot hold (NaN, infinities) or a non-JSON value."""
    if isinstance(value, (bool, str, int)):
        return True
    return isinstance(value, float) and math.isfinite(value)


def frame(game: Any, tick: int, scores: Mapping[str, int], steps: Mapping[str, Any],
          obs: Mapping[str, str], events: list[list[str]]) -> dict[str, Any]:  # fmt: skip
    return {
        "tick": tick,
        "agents": {a: agent_view(game, game.agents[a], scores[a]) for a in game.agent_ids},
        "steps": dict(steps),
        "obs": dict(obs),
        "events": events,
        "locked": locked_paths(game.world),
    }
