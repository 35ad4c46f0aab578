"""Trajectory logs: one JSONL file per episode, and `replay` to re-run and check one.

Side module (evaluation). The first line of a log is the episode header; then one line per tick per
agent, in tick order and agent order:

    {"kind": "episode", "format": "agentodyssey_pz.trajectory", "version": 2, "episode": 0,
     "seed": 1000, "world": "default", "num_agents": 6, "steps": 200,
     "policies": {"agent_0": "explorer", ...}, "env": {<parallel_env keyword settings>}}
    {"kind": "step", "episode": 0, "tick": 1, "agent": "agent_0", "policy": "explorer",
     "action": 17 | "craft 1 rope" | null, "command": "enter orchard", "verb": "enter" | null,
     "feedback": "...", "reward": {<eight components>, "total", "xp_total", "rl_total",
     "score_total"}, "flags": {"action_ok", "invalid_action", "terminated", "truncated"},
     "area": "<area id after the tick>",
     "progress": {"areas_visited", "crafted_kinds", "deaths", "quest_stages", "quest_complete",
                  "level", "hp"}}

Version 2 (version 1 logs read and replay the same): the header may carry `"llm": {policy name:
its LLMSettings as a dict}`, and the step of an agent played by a language-model policy carries
`"llm": {...}`, the policy's record of the turn (tokens, seconds, format error, re-ask, why it
waited, cost, reasoning, and every call with its messages and response: `agentodyssey_pz.llm.policy`
documents the fields).

`action` is what the policy returned (a catalogue index or a text command); `command` is its text
(the catalogue label for an index). `replay(path)` builds the env from the header, resets it with
the logged seed, feeds the logged actions and compares every tick's reward breakdown, flags and
area with the log.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs
import numpy as np

from agentodyssey_pz.rules.parse import Command, command_text

FORMAT = "agentodyssey_pz.trajectory"
VERSION = 2
READABLE_VERSIONS = (1, 2)  # 2 added the optional `llm` fields; a version 1 log reads the same
QUEST_KEY = "main_quest"  # the base pack's per-agent quest progress (agent.progress[QUEST_KEY])


class TrajectoryWriter:
    """Writes one episode's log, a line at a time (flushed on close)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh: TextIO | None = open(self.path, "w", encoding="utf-8")  # noqa: SIM115

    def write(self, record: Mapping[str, Any]) -> None:
        if self._fh is None:
            raise ValueError(f"{self.path}: the log is closed")
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            self._fh.write(line)
        except UnicodeEncodeError:
            # A lone surrogate (a model's broken answer, say) has no UTF-8 form: this one line is
            # written with \u escapes instead, which read back to the same string.
            self._fh.write(json.dumps(record, separators=(",", ":")) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self) -> TrajectoryWriter:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def header_record(
    episode: int,
    seed: int,
    world: str,
    steps: int,
    policies: Mapping[str, str],
    env_settings: Mapping[str, Any],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "kind": "episode",
        "format": FORMAT,
        "version": VERSION,
        "episode": episode,
        "seed": seed,
        "world": world,
        "num_agents": len(policies),
        "steps": steps,
        "policies": dict(policies),
        "env": dict(env_settings),
        **dict(extra or {}),
    }


def progress_of(agent: Any) -> dict[str, Any]:
    """The game's own progress counters of one agent (what the metrics report)."""
    quest = agent.progress.get(QUEST_KEY) or {}
    return {
        "areas_visited": len(agent.visited),
        "crafted_kinds": len(agent.crafted),
        "deaths": agent.deaths,
        "quest_stages": len(quest.get("completed", ())),
        "quest_complete": bool(quest.get("complete", False)),
        "level": agent.level,
        "hp": agent.hp,
    }


def loggable_action(env: Any, action: Any) -> int | str | None:
    """A policy's action as JSON: an index, a text command, or None for anything unusable (what
    is logged is what the env is given, so a replay feeds the very same actions)."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, str):
        return action
    if isinstance(action, Command) and action.verb in env.game.engine.rules:
        return command_text(env.game.engine.rules[action.verb].verb, action.params)
    return None


def describe_action(
    env: Any, agent: str, action: int | str | None
) -> tuple[str | None, str | None]:
    """(command text, verb id) of a logged action; the verb is None when it names none."""
    if isinstance(action, int):
        if 0 <= action < len(env.catalogue):
            return env.action_name(agent, action), env.catalogue.entries[action].verb
        return None, None
    if isinstance(action, str):
        parsed = env.game.engine.parse(action)
        return action, parsed.verb if isinstance(parsed, Command) else None
    return None, None


class StepRecorder:
    """Builds one tick's step records: created with the actions before the step (their commands
    are described in the state they were chosen in), read after it."""

    def __init__(
        self,
        env: Any,
        episode: int,
        policies: Mapping[str, str],
        actions: Mapping[str, int | str | None],
    ) -> None:
        self.env, self.episode, self.policies = env, episode, policies
        self.actions = dict(actions)
        self.described = {a: describe_action(env, a, act) for a, act in self.actions.items()}

    def records(
        self,
        infos: Mapping[str, Any],
        terminations: Mapping[str, bool],
        truncations: Mapping[str, bool],
    ) -> list[dict[str, Any]]:
        env = self.env
        result = env._last  # the adapter's last TickResult: feedback text is not in the infos
        out = []
        for agent, action in self.actions.items():
            command, verb = self.described[agent]
            info, body = infos[agent], env.game.agents[agent]
            out.append(
                {
                    "kind": "step",
                    "episode": self.episode,
                    "tick": env.num_cycles,
                    "agent": agent,
                    "policy": self.policies[agent],
                    "action": action,
                    "command": command,
                    "verb": verb,
                    "feedback": result.feedback(agent),
                    "reward": dict(info["reward_breakdown"]),
                    "flags": {
                        "action_ok": bool(info["action_ok"]),
                        "invalid_action": bool(info["invalid_action"]),
                        "terminated": bool(terminations[agent]),
                        "truncated": bool(truncations[agent]),
                    },
                    "area": body.area_id,
                    "progress": progress_of(body),
                }
            )
        return out


def read_trajectory(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, step records) of a log; ValueError when it is not one."""
    header: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not JSON ({exc.msg})") from exc
            kind = record.get("kind") if isinstance(record, dict) else None
            if kind == "episode" and header is None:
                header = record
            elif kind == "step" and header is not None:
                steps.append(record)
            else:
                raise ValueError(f"{path}:{number}: expected a {FORMAT} episode header then steps")
    if header is None or header.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} log")
    if header.get("version") not in READABLE_VERSIONS:
        expected = " or ".join(map(str, READABLE_VERSIONS))
        raise ValueError(f"{path}: log version {header.get('version')}, expected {expected}")
    return header, steps


def records_by_agent(steps: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {}
    for record in steps:
        out.setdefault(record["agent"], []).append(record)
    return out


@attrs.frozen
class ReplayResult:
    """What `replay` found: ticks re-run, values compared, and every difference."""

    path: str
    ticks: int
    checked: int
    mismatches: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def replay(path: str | os.PathLike[str], *, max_mismatches: int = 50) -> ReplayResult:
    """Re-run a logged episode from its seed and actions; compare breakdowns, flags and areas."""
    header, steps = read_trajectory(path)
    mismatches: list[str] = []
    checked = 0
    ticks = 0
    for tick, env, infos, logged in replayed_ticks(header, steps):
        ticks = tick
        for agent, record in logged.items():
            info = infos.get(agent)
            if info is None:
                mismatches.append(f"tick {tick} {agent}: no longer in the episode")
                continue
            replayed = {
                "reward": dict(info["reward_breakdown"]),
                "action_ok": info["action_ok"],
                "invalid_action": info["invalid_action"],
                "area": env.game.agents[agent].area_id,
            }
            expected = {
                "reward": dict(record["reward"]),
                "action_ok": record["flags"]["action_ok"],
                "invalid_action": record["flags"]["invalid_action"],
                "area": record["area"],
            }
            for key, value in expected.items():
                checked += 1
                if replayed[key] != value:
                    mismatches.append(
                        f"tick {tick} {agent} {key}: log {value}, replay {replayed[key]}"
                    )
        if len(mismatches) >= max_mismatches:
            break
    return ReplayResult(str(path), ticks, checked, tuple(mismatches))


def replayed_ticks(
    header: Mapping[str, Any], steps: Sequence[Mapping[str, Any]], until: int | None = None
) -> Iterator[tuple[int, Any, dict[str, Any], dict[str, Mapping[str, Any]]]]:
    """Yield (tick, env, infos, logged records by agent) after re-running each logged tick."""
    env = replay_env(header)
    by_tick: dict[int, dict[str, Mapping[str, Any]]] = {}
    for record in steps:
        by_tick.setdefault(int(record["tick"]), {})[record["agent"]] = record
    for tick in sorted(by_tick):
        if until is not None and tick > until:
            break
        logged = by_tick[tick]
        _, _, _, _, infos = env.step({agent: r["action"] for agent, r in logged.items()})
        yield tick, env, infos, logged


def replay_env(header: Mapping[str, Any]) -> Any:
    """A fresh env built from a log header and reset with its seed (at tick 0)."""
    from agentodyssey_pz.adapter.parallel import parallel_env

    env = parallel_env(**header["env"])
    env.reset(seed=int(header["seed"]))
    return env


def state_at(path: str | os.PathLike[str], tick: int) -> Any:
    """The env of a logged episode re-run up to `tick` (0: just after reset)."""
    header, steps = read_trajectory(path)
    if tick <= 0:
        return replay_env(header)
    last, env = 0, None
    for last, env, _, _ in replayed_ticks(header, steps, until=tick):  # noqa: B007
        pass
    if env is None or last < tick:
        raise ValueError(f"{path}: the log ends at tick {last}, before tick {tick}")
    return env
