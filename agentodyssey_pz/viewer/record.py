"""Playing an episode again to record what the viewer shows at every tick.

Side module (viewer). A trajectory log holds each tick's command, feedback, flags, reward, area,
level and HP, but not what the agents carried, the text they read, the tick's events or which
paths were locked; a checkpoint folder holds only actions. Both are played again in this project's
engine (a log through `trajectory.replay_env`, a checkpoint from its oldest kept snapshot and its
journal), and after every tick the state is read off the game (`frames`): nothing is guessed.

The result, a `RecordedRun`, holds one full frame per tick (the first: after the reset or the
snapshot); `deltas` turns them into what the page embeds.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import AgentOdysseyError
from agentodyssey_pz.viewer.frames import (
    AreaClock,
    dependency_data,
    feed_events,
    frame,
    llm_summary,
    nonzero_reward,
    observation,
)
from agentodyssey_pz.viewer.source import CHECKPOINT_KIND, EpisodeSource, ViewerError


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
    # What the game warned of (damaged checkpoint lines, changed rule packs ...) goes on the page.
    run.notes += [f"warning: {w.message}" for w in caught if issubclass(w.category, UserWarning)]
    return run


# ---------------------------------------------------------------------------- trajectory logs
def record_trajectory(path: Path) -> RecordedRun:
    from agentodyssey_pz.evaluate.trajectory import read_trajectory, replay_env

    try:
        header, steps = read_trajectory(path)
    except UnicodeDecodeError:  # a ValueError too: first
        raise ViewerError(f"{path}: not a trajectory log (not UTF-8 text)") from None
    except (ValueError, KeyError) as exc:
        raise ViewerError(str(exc)) from None
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
