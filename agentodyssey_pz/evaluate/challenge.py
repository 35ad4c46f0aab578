"""AgentOdyssey's challenge aggregate: main and supplementary reward per game, averaged over runs.

Side module (evaluation). The published challenge scores an agent's run of a game by two sums of
its reward components over the run:

- main reward: `quest` (main-quest stages completed);
- supplementary reward: `side_quest + exploration + craft + unique_kill`.

Repeat kills, trades and deaths count in neither. Here a run is one agent's episode; per game
(the world played) and policy the aggregate is the mean over every run of it, never the best run,
with the standard deviation beside it. Warnings say where a set of runs strays from the
challenge's protocol: more than `MAX_STEPS` steps, runs of one game with different settings or
step counts, several agents sharing a world (the challenge plays one), a world that is not one of
the challenge's games, a single run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

MAIN = ("quest",)
SUPPLEMENTARY = ("side_quest", "exploration", "craft", "unique_kill")
MAX_STEPS = 500  # the challenge's longest run
CHALLENGE_GAMES = ("agentodyssey:remnant", "agentodyssey:mark", "agentodyssey:metropolis")
# Settings that differ between runs by design (not a protocol break).
RUN_SETTINGS_IGNORED = ("seed",)


@attrs.frozen
class Run:
    """One agent's episode of one game: what the aggregate needs."""

    game: str
    policy: str
    agent: str
    episode: int
    steps: int  # the episode's step limit
    agents: int  # agents sharing the world
    reward: Mapping[str, int]  # components summed over the episode
    settings: Mapping[str, Any] = attrs.field(factory=dict)  # env settings (JSON)


def main_reward(reward: Mapping[str, Any]) -> int:
    return sum(int(reward.get(key, 0)) for key in MAIN)


def supplementary_reward(reward: Mapping[str, Any]) -> int:
    return sum(int(reward.get(key, 0)) for key in SUPPLEMENTARY)


def aggregate(runs: Iterable[Run]) -> dict[str, Any]:
    """{"games": {game: {policy: {runs, main, main_std, supplementary, supplementary_std,
    steps}}}, "warnings": [...]} over the runs (games and policies in first-seen order)."""
    grouped: dict[str, dict[str, list[Run]]] = {}
    for run in runs:
        grouped.setdefault(run.game, {}).setdefault(run.policy, []).append(run)
    games: dict[str, Any] = {}
    for game, policies in grouped.items():
        games[game] = {}
        for policy, mine in policies.items():
            mains = [float(main_reward(r.reward)) for r in mine]
            supps = [float(supplementary_reward(r.reward)) for r in mine]
            games[game][policy] = {
                "runs": len(mine),
                "main": _mean(mains),
                "main_std": _std(mains),
                "supplementary": _mean(supps),
                "supplementary_std": _std(supps),
                "steps": max(r.steps for r in mine),
            }
    return {"max_steps": MAX_STEPS, "games": games, "warnings": protocol_warnings(grouped)}


def protocol_warnings(grouped: Mapping[str, Mapping[str, Sequence[Run]]]) -> list[str]:
    """Where the runs stray from the challenge's protocol, one line each."""
    out: list[str] = []
    for game, policies in grouped.items():
        runs = [r for mine in policies.values() for r in mine]
        longest = max(r.steps for r in runs)
        if longest > MAX_STEPS:
            out.append(
                f"{game}: runs of {longest:,} steps; the challenge plays at most {MAX_STEPS}"
            )
        if len({r.steps for r in runs}) > 1:
            steps = sorted({r.steps for r in runs})
            out.append(f"{game}: runs of different lengths ({', '.join(map(str, steps))} steps)")
        if len({_settings_key(r.settings) for r in runs}) > 1:
            out.append(f"{game}: runs with different env settings; their means do not compare")
        crowded = max(r.agents for r in runs)
        if crowded > 1:
            out.append(
                f"{game}: {crowded} agents share each world; the challenge plays one agent, so "
                "other agents' actions change these rewards"
            )
        if game not in CHALLENGE_GAMES:
            out.append(f"{game}: not one of the challenge's games ({', '.join(CHALLENGE_GAMES)})")
        for policy, mine in policies.items():
            if len(mine) == 1:
                out.append(f"{game}: {policy} has a single run, a mean of one")
    return out


def _settings_key(settings: Mapping[str, Any]) -> str:
    import json

    kept = {k: v for k, v in settings.items() if k not in RUN_SETTINGS_IGNORED}
    return json.dumps(kept, sort_keys=True, default=str)


def runs_from_report(config: Mapping[str, Any], episodes: Sequence[Mapping[str, Any]]) -> list[Run]:
    """The runs of an evaluation report's `config` and `episodes`."""
    return [
        Run(
            game=str(config["world"]),
            policy=str(metrics["policy"]),
            agent=agent,
            episode=int(episode["episode"]),
            steps=int(config["steps"]),
            agents=int(config["num_agents"]),
            reward=dict(metrics["reward"]),
            settings=dict(config["env"]),
        )
        for episode in episodes
        for agent, metrics in episode["agents"].items()
    ]


def runs_from_log(header: Mapping[str, Any], steps: Sequence[Mapping[str, Any]]) -> list[Run]:
    """The runs of one trajectory log (one per agent of its header)."""
    from agentodyssey_pz.evaluate.metrics import reward_totals
    from agentodyssey_pz.evaluate.trajectory import records_by_agent

    by_agent = records_by_agent(steps)
    return [
        Run(
            game=str(header["world"]),
            policy=str(policy),
            agent=agent,
            episode=int(header["episode"]),
            steps=int(header["steps"]),
            agents=int(header["num_agents"]),
            reward=reward_totals(by_agent.get(agent, [])),
            settings=dict(header.get("env", {})),
        )
        for agent, policy in header["policies"].items()
    ]


def format_challenge(section: Mapping[str, Any]) -> list[str]:
    """The aggregate as table lines (and its warnings)."""
    from agentodyssey_pz.evaluate.report import _columns

    rows = [
        [
            game,
            policy,
            f"{entry['runs']:d}",
            f"{entry['main']:.2f} +- {entry['main_std']:.2f}",
            f"{entry['supplementary']:.2f} +- {entry['supplementary_std']:.2f}",
            f"{entry['steps']:d}",
        ]
        for game, policies in section["games"].items()
        for policy, entry in policies.items()
    ]
    lines = ["challenge (AgentOdyssey's aggregate: means over runs, never the best run)"]
    lines += _columns(["game", "policy", "runs", "main", "supplementary", "steps"], rows)
    lines += [f"warning: {w}" for w in section["warnings"]]
    return lines


def _mean(values: Sequence[float]) -> float:
    return round(math.fsum(values) / len(values), 6) + 0.0 if values else 0.0


def _std(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return round(math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)), 6)


def report_section(config: Mapping[str, Any], episodes: Sequence[Mapping[str, Any]]) -> dict:
    """The report's `challenge` section, from its `config` and `episodes` entries."""
    return aggregate(runs_from_report(config, episodes))


def section_schema() -> dict[str, Any]:
    """JSON Schema of the `challenge` section."""
    number = {"type": "number"}
    count = {"type": "integer", "minimum": 0}
    entry = {
        "type": "object",
        "properties": {
            "runs": count,
            "main": number,
            "main_std": {"type": "number", "minimum": 0},
            "supplementary": number,
            "supplementary_std": {"type": "number", "minimum": 0},
            "steps": count,
        },
        "required": ["runs", "main", "main_std", "supplementary", "supplementary_std", "steps"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "max_steps": count,
            "games": {
                "type": "object",
                "additionalProperties": {"type": "object", "additionalProperties": entry},
            },
            "warnings": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["max_steps", "games", "warnings"],
        "additionalProperties": False,
    }
