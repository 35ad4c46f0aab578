"""Playing an episode again to record what the viewer shows at every tick.

Side module (viewer). A trajectory log holds each tick's command, feedback, flags, reward, area,
level and HP, but not what the agents carried, the text they read, the tick's events or which
paths were locked; a checkpoint folder holds only actions. Both are played again in this project's
engine (a log through `trajectory.replay_env`, a checkpoint from its oldest kept snapshot and its
journal), and after every tick the state is read off the game: nothing is guessed.

The result, a `RecordedRun`, holds one full `frame` per tick (tick 0: after the reset or the
snapshot). Frames are plain JSON-compatible dicts:

    {"tick": t,
     "agents": {agent: {"area", "hp", "max_hp", "level", "xp", "score", "dark",
                        "hands", "equipped", "inventory"}},     # names -> counts
     "steps": {agent: {"command", "feedback", "ok", "invalid", "reward", "llm"}},   # not at tick 0
     "obs": {agent: text},          # what the agent read after the tick (the next choice's view)
     "events": [[agent or "", type, text], ...],
     "locked": [[area, area], ...]}  # locked paths after the tick

`deltas` turns them into what the page embeds.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import AgentOdysseyError
from agentodyssey_pz.viewer.source import (
    CHECKPOINT_KIND,
    EpisodeSource,
    ViewerError,
)

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


@attrs.define
class RecordedRun:
    """One episode, played again: what it is, its world (at the end) and a frame per tick."""

    meta: dict[str, Any]
    world: Any  # the World after the last tick (every area that ever existed is in it)
    frames: list[dict[str, Any]]
    notes: list[str] = attrs.Factory(list)  # said on the page (divergences, what is missing)
    deps: dict[str, Any] | None = None  # the dependency graph, when the run tracked one
    # area id -> the tick it first existed (world expansion adds areas as the game goes on)
    since: dict[str, int] = attrs.Factory(dict)


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


def record(
    source: EpisodeSource, *, world: Any = None, rule_packs: Sequence[str] = ()
) -> RecordedRun:
    """Play one episode again and record it; ViewerError for anything unreadable."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if source.kind == CHECKPOINT_KIND:
                run = record_checkpoint(source.path, world=world, rule_packs=rule_packs)
            else:
                run = record_trajectory(source.path)
    except ViewerError:
        raise
    except (AgentOdysseyError, ValueError, LookupError, TypeError, AttributeError, OSError) as exc:
        # A log or checkpoint damaged or edited by hand: its values are not what the game wrote.
        raise ViewerError(f"{source.path}: cannot replay it: {exc!s}") from exc
    run.notes += [f"warning: {w.message}" for w in caught]
    return run


# ---------------------------------------------------------------------------- reading the game
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


# ---------------------------------------------------------------------------- trajectory logs
def record_trajectory(path: Path) -> RecordedRun:
    from agentodyssey_pz.evaluate.trajectory import read_trajectory, replay_env

    try:
        header, steps = read_trajectory(path)
    except (ValueError, KeyError) as exc:
        raise ViewerError(str(exc)) from None
    except UnicodeDecodeError:
        raise ViewerError(f"{path}: not a trajectory log (not UTF-8 text)") from None
    # The valid-action lists only go into infos, which the replay does not read: not asked for.
    settings = {**dict(header.get("env") or {}), "valid_actions_in_info": False}
    try:
        env = replay_env({**header, "env": settings})
    except (AgentOdysseyError, ValueError, KeyError, TypeError) as exc:
        raise ViewerError(f"{path}: cannot rebuild its env from the header: {exc}") from exc
    game = env.game
    notes: list[str] = []
    scores = dict.fromkeys(game.agent_ids, 0)
    first = {a: observation(game, a, game_feedback(env, a), bootstrap=True) for a in game.agent_ids}
    frames = [frame(game, 0, scores, {}, first, [])]
    clock = AreaClock(game.world, 0)
    diverged = False
    for tick, logged in ticks_of(steps):
        if game.terminated:
            notes.append(f"the replayed game ended before tick {tick}; the page stops there")
            break
        observations, *_ = env.step({agent: r.get("action") for agent, r in logged.items()})
        result = env._last
        steps_now, obs = {}, {}
        for agent, r in logged.items():
            if agent not in scores:
                continue
            reward = r.get("reward") or {}
            scores[agent] += int(reward.get("score_total", 0))
            feedback = str(r.get("feedback") or "")
            flags = r.get("flags") or {}
            steps_now[agent] = {
                "command": r.get("command"),
                "feedback": feedback,
                "ok": bool(flags.get("action_ok")),
                "invalid": bool(flags.get("invalid_action")),
                "reward": nonzero_reward(reward),
                "llm": llm_summary(r.get("llm")),
            }
            seen = observations.get(agent)  # the env's text, as the agent read it (shortened
            if isinstance(seen, Mapping) and isinstance(seen.get("text"), str):  # if too long)
                obs[agent] = seen["text"]
            else:  # a log of an env without text observations
                obs[agent] = observation(game, agent, result.feedback(agent))
            replayed = game.agents[agent].area_id
            if not diverged and r.get("area") != replayed:
                diverged = True
                notes.append(
                    f"the replay left the log at tick {tick}: {agent} is in {replayed!s}, the log "
                    f"says {r.get('area')!s}; positions shown are the log's, the rest the replay's"
                )
        current = frame(game, tick, scores, steps_now, obs, feed_events(game.world, result.events))
        for agent, r in logged.items():  # the log's own figures win where it has them
            view = current["agents"].get(agent)
            if view is None:
                continue
            view["area"] = r.get("area", view["area"])
            progress = r.get("progress") or {}
            for key in ("hp", "level"):
                if isinstance(progress.get(key), int):
                    view[key] = progress[key]
        frames.append(current)
        clock.after(game.world, tick)
    meta = {
        "source": "trajectory log",
        "path": str(path),
        "world": str(header.get("world")),
        "seed": header.get("seed"),
        "episode": header.get("episode"),
        "policies": dict(header.get("policies") or {}),
        "agents": list(game.agent_ids),
    }
    run = RecordedRun(meta, game.world, frames, notes, since=clock.since)
    if game.tracker is not None:
        run.deps = dependency_data(game.tracker, game.agent_ids)
    return run


def game_feedback(env: Any, agent: str) -> str:
    last = getattr(env, "_last", None)
    return last.feedback(agent) if last is not None else ""


def ticks_of(
    steps: Sequence[Mapping[str, Any]],
) -> Iterator[tuple[int, dict[str, Mapping[str, Any]]]]:
    by_tick: dict[int, dict[str, Mapping[str, Any]]] = {}
    for record in steps:
        by_tick.setdefault(int(record["tick"]), {})[str(record["agent"])] = record
    for tick in sorted(by_tick):
        yield tick, by_tick[tick]


# ---------------------------------------------------------------------------- checkpoint folders
def record_checkpoint(
    folder: Path, *, world: Any = None, rule_packs: Sequence[str] = ()
) -> RecordedRun:
    """From the oldest snapshot the folder keeps (it keeps two), through its journals."""
    from agentodyssey_pz.checkpoint.journal import decode_action, read_journal
    from agentodyssey_pz.checkpoint.store import (
        journal_path,
        journal_ticks,
        snapshot_path,
        snapshot_ticks,
    )
    from agentodyssey_pz.engine.game import Game

    ticks = sorted(snapshot_ticks(folder))
    if not ticks:
        raise ViewerError(f"{folder}: no snapshot-*.json in this checkpoint folder")
    errors = []
    game, start = None, 0
    for tick in ticks:
        try:
            game = Game.load(snapshot_path(folder, tick), world, rule_packs=rule_packs)
            start = tick
            break
        except AgentOdysseyError as exc:
            errors.append(str(exc))
    if game is None:
        raise ViewerError(f"{folder}: no snapshot could be read: " + "; ".join(errors))
    notes = list(errors)
    if start > 0:
        notes.append(
            f"a checkpoint folder keeps only its last snapshots: this page starts at tick {start}"
        )
    scores = {a: game.scores[a].score_total for a in game.agent_ids}
    first = {a: observation(game, a, "") for a in game.agent_ids}
    frames = [frame(game, start, scores, {}, first, [])]
    clock = AreaClock(game.world, start)
    for journal_tick in (t for t in journal_ticks(folder) if t >= start):
        for entry in read_journal(journal_path(folder, journal_tick)):
            if entry["t"] <= game.tick_index:
                continue
            if entry["t"] != game.tick_index + 1 or game.terminated:
                notes.append(f"the journal stops making sense at tick {entry['t']}; the page ends")
                break
            actions = {aid: decode_action(a) for aid, a in entry["a"].items() if aid in game.agents}
            result = game.tick(actions)
            steps_now, obs = {}, {}
            for agent in game.agent_ids:
                breakdown = result.rewards[agent].as_dict()
                scores[agent] += breakdown["score_total"]
                feedback = result.feedback(agent)
                steps_now[agent] = {
                    "command": command_of(game, actions.get(agent)),
                    "feedback": feedback,
                    "ok": bool(result.action_ok.get(agent)),
                    "invalid": bool(result.invalid.get(agent)),
                    "reward": nonzero_reward(breakdown),
                    "llm": None,
                }
                obs[agent] = observation(game, agent, feedback)
            events = feed_events(game.world, result.events)
            frames.append(frame(game, result.tick, scores, steps_now, obs, events))
            clock.after(game.world, result.tick)
    meta = {
        "source": "checkpoint folder",
        "path": str(folder),
        "world": str(game.pack.name),
        "seed": game.seed,
        "episode": None,
        "policies": {},
        "agents": list(game.agent_ids),
    }
    return RecordedRun(meta, game.world, frames, notes, since=clock.since)


def command_of(game: Any, action: Any) -> str | None:
    from agentodyssey_pz.rules.parse import Command, command_text

    if isinstance(action, str):
        return action
    if isinstance(action, Command) and action.verb in game.engine.rules:
        return command_text(game.engine.rules[action.verb].verb, action.params)
    return None
