"""The evaluation report: its JSON schema, how it is built, checked and printed as a table.

Side module (evaluation). A report (`format` "agentodyssey_pz.evaluation", `version` 1) holds:

- `config`: world, episodes, steps, num_agents, policies (names, in the order given),
  assignment (agent -> policy), seed, seeds (one per episode: seed + e), env (the parallel_env
  settings).
- `episodes`: per episode: episode, seed, ticks, terminated, trajectory (log path or null),
  ranking (agent -> 1-based rank by score_total, ties share a rank), agents (agent -> metrics).
  Agent metrics: policy, steps, reward (the eight components and the four totals, summed over the
  episode), score_total, areas_explored, objects_crafted (distinct kinds), deaths, quest_stages,
  quest_complete, verbs (verb -> times used), action_entropy_bits (over verbs used),
  invalid_actions and invalid_action_rate (unparsable or unknown commands), ineffective_actions and
  ineffective_action_rate (actions that did not take effect), timing.
- `agents`: per agent over all episodes: policy, samples, mean (the scalar metrics, reward means,
  score_total_std; quest_complete's mean is a completion rate).
- `policies`: per policy that fields an agent, best first: rank, agents, samples, mean (as
  above), rating (OpenSkill Plackett-Luce: mu, sigma, ordinal = mu - 3 sigma, matches), timing.
  With fewer agents than policies, the policies of `config.policies` that no agent plays are left
  out (they would carry an unearned default rating); the table names them in a note.
- `llm` (optional, in an episode's agent metrics, in `agents` and in `policies`: only for agents
  played by language-model policies): steps, calls, input_tokens, output_tokens, seconds, retries,
  errors, format_errors, reasks, waited (reason -> steps: "budget", "server_error",
  "format_error"), cost (null without a price table); summed from the trajectory's `llm` records
  (`agentodyssey_pz.llm.accounting`). The table adds a "language-model calls" section.
- `curves`: `ticks` and `score_total` (policy -> mean cumulative score_total after each tick).
- `diagnostics`: AgentOdyssey's diagnostics (`evaluate.diagnostics`: object and action
  exploration, action diversity whole and windowed, invalid-action and format-error rates, tokens
  per step; compatible and corrected) from the trajectory logs: per episode and agent, and means
  per agent and per policy; null when the run wrote no logs.
- `challenge`: AgentOdyssey's challenge aggregate (`evaluate.challenge`): per game and policy,
  mean main reward (`quest`) and supplementary reward (`side_quest + exploration + craft +
  unique_kill`) over runs, with protocol warnings.
- `timing`: wall_seconds, ticks_per_second, agent_steps_per_second, workers.

Every `timing` object (and `workers`) varies between runs; `without_timing` drops them, and the
rest of a report is a function of the config alone. `schema()` returns the JSON Schema;
`validate(report)` checks a report against it and lists every problem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from agentodyssey_pz.evaluate import challenge, diagnostics
from agentodyssey_pz.evaluate.metrics import (
    REWARD_KEYS,
    SCALAR_METRICS,
    mean_curve,
    mean_metrics,
)
from agentodyssey_pz.evaluate.ratings import competition_ranks, leaderboard, rate_matches
from agentodyssey_pz.evaluate.runner import EvalConfig, policy_name
from agentodyssey_pz.llm.accounting import merge_totals

FORMAT = "agentodyssey_pz.evaluation"
VERSION = 1


def build_report(
    config: EvalConfig, episodes: Sequence[Mapping[str, Any]], wall_seconds: float
) -> dict[str, Any]:
    names = config.policy_names()
    assignment = {agent: policy_name(spec) for agent, spec in config.assignment().items()}
    episode_part = [_episode_entry(ep) for ep in episodes]
    samples: dict[str, list[Mapping[str, Any]]] = {}
    for ep in episode_part:
        for agent, metrics in ep["agents"].items():
            samples.setdefault(agent, []).append(metrics)
    agents = {
        agent: {
            "policy": assignment[agent],
            "samples": len(samples.get(agent, [])),
            "mean": mean_metrics(samples.get(agent, [])),
        }
        for agent in assignment
    }
    matches = [
        [(m["policy"], m["score_total"]) for m in ep["agents"].values()] for ep in episode_part
    ]
    unplayed = config.unplayed()
    _add_llm_totals(agents, samples)
    ratings = rate_matches(matches, [name for name in names if name not in unplayed])
    policies: dict[str, Any] = {}
    for rank, name in enumerate(leaderboard(ratings), start=1):
        mine = [a for a, p in assignment.items() if p == name]
        policy_samples = [m for a in mine for m in samples.get(a, [])]
        steps = sum(m["steps"] for m in policy_samples)
        seconds = sum(m["timing"]["policy_seconds"] for m in policy_samples)
        policies[name] = {
            "rank": rank,
            "agents": mine,
            "samples": len(policy_samples),
            "mean": mean_metrics(policy_samples),
            "rating": ratings[name],
            "timing": {"policy_seconds": seconds, "steps_per_second": steps / max(seconds, 1e-9)},
        }
    _add_llm_totals(policies, {name: [m for a in e["agents"] for m in samples.get(a, [])]
                               for name, e in policies.items()})  # fmt: skip
    curves = {
        name: mean_curve(
            [ep["curves"][a] for ep in episodes for a in assignment if assignment[a] == name]
        )
        for name in policies
    }
    ticks = sum(ep["ticks"] for ep in episodes)
    report = {
        "format": FORMAT,
        "version": VERSION,
        "config": {
            "world": config.world,
            "episodes": config.episodes,
            "steps": config.steps,
            "num_agents": config.num_agents,
            "policies": names,
            "assignment": assignment,
            "seed": config.seed,
            "seeds": config.seeds(),
            "env": config.env_settings(),
        },
        "episodes": episode_part,
        "agents": agents,
        "policies": policies,
        "curves": {"ticks": config.steps, "score_total": curves},
        "timing": {
            "wall_seconds": wall_seconds,
            "ticks_per_second": ticks / max(wall_seconds, 1e-9),
            "agent_steps_per_second": ticks * config.num_agents / max(wall_seconds, 1e-9),
            "workers": config.workers,
        },
    }
    report.update(diagnostics_and_challenge(report, episodes, assignment))
    return report


# ---------------------------------------------------------------------- diagnostics and challenge
def diagnostics_and_challenge(
    report: Mapping[str, Any], episodes: Sequence[Mapping[str, Any]], assignment: Mapping[str, str]
) -> dict[str, Any]:
    """The `diagnostics` section (from the trajectory logs; null without them) and the
    `challenge` section (AgentOdyssey's per-game main and supplementary reward)."""
    return {
        "diagnostics": diagnostics.report_section(episodes, assignment),
        "challenge": challenge.report_section(report["config"], report["episodes"]),
    }


def diagnostics_and_challenge_lines(report: Mapping[str, Any]) -> list[str]:
    """Table lines of both sections (headline figures per policy; the challenge by game)."""
    lines: list[str] = []
    section = report.get("diagnostics")
    if section:
        means = {name: entry["mean"] for name, entry in section["policies"].items()}
        lines += ["", *diagnostics.format_diagnostics(means)]
    if report.get("challenge"):
        lines += ["", *challenge.format_challenge(report["challenge"])]
    return lines


# ---------------------------------------------------------------------- language-model totals
_COUNT = {"type": "integer", "minimum": 0}
LLM_TOTALS = {
    "type": "object",
    "properties": {
        **{key: _COUNT for key in ("steps", "calls", "input_tokens", "output_tokens", "retries")},
        **{key: _COUNT for key in ("errors", "format_errors", "reasks")},
        "seconds": {"type": "number", "minimum": 0},
        "waited": {"type": "object", "additionalProperties": _COUNT},
        "cost": {"type": ["number", "null"]},
    },
}


def _add_llm_totals(
    entries: dict[str, Any], samples: Mapping[str, Sequence[Mapping[str, Any]]]
) -> None:
    """Give each entry whose samples carry `llm` totals their sum (over agents and episodes)."""
    for key, entry in entries.items():
        total = merge_totals(m.get("llm") for m in samples.get(key, []))
        if total is not None:
            entry["llm"] = total


def _with_llm(obj: dict[str, Any]) -> dict[str, Any]:
    """A schema object that may also carry `llm` totals (not required)."""
    return {**obj, "properties": {**obj["properties"], "llm": LLM_TOTALS}}


def llm_lines(report: Mapping[str, Any]) -> list[str]:
    """The table's section on language-model calls: per policy and agent, with budget notes."""
    rows, notes = [], []
    entries = [(n, e) for n, e in report["policies"].items() if "llm" in e]
    entries += [(f"  {a}", e) for a, e in report["agents"].items() if "llm" in e]
    for label, entry in entries:
        t = entry["llm"]
        cost = "-" if t["cost"] is None else f"{t['cost']:.4f}"
        waited = ", ".join(f"{k} {v}" for k, v in t["waited"].items()) or "-"
        rows.append([label, f"{t['calls']:,}", f"{t['input_tokens']:,}", f"{t['output_tokens']:,}",
                     f"{t['seconds']:.1f}", f"{t['retries']:,}", f"{t['errors']:,}",
                     f"{t['format_errors']:,}", cost, waited])  # fmt: skip
        if not label.startswith(" ") and t["waited"].get("budget"):
            notes.append(
                f"{label}: budget spent, its agents waited {t['waited']['budget']} step(s)"
            )
    if not rows:
        return []
    header = ["language-model calls", "calls", "in tok", "out tok", "seconds", "retries",
              "errors", "format", "cost", "waited (steps)"]  # fmt: skip
    return ["", *_columns(header, rows), *notes]


def _episode_entry(episode: Mapping[str, Any]) -> dict[str, Any]:
    agents = episode["agents"]
    ranks = competition_ranks([float(m["score_total"]) for m in agents.values()])
    return {
        "episode": episode["episode"],
        "seed": episode["seed"],
        "ticks": episode["ticks"],
        "terminated": episode["terminated"],
        "trajectory": episode["trajectory"],
        "ranking": dict(zip(agents, ranks, strict=True)),
        "agents": dict(agents),
        "timing": dict(episode["timing"]),
    }


def without_timing(report: Any) -> Any:
    """A copy without anything that varies between identical runs (timing, log paths)."""
    if isinstance(report, Mapping):
        return {
            k: without_timing(v) for k, v in report.items() if k not in ("timing", "trajectory")
        }
    if isinstance(report, list):
        return [without_timing(v) for v in report]
    return report


# ---------------------------------------------------------------------- schema and validation
def _obj(properties: Mapping[str, Any], *, extra: Any = False) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(properties),
        "additionalProperties": extra,
    }


def _map(values: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": values}


COUNT = {"type": "integer", "minimum": 0}
NUMBER = {"type": "number"}
RATE = {"type": "number", "minimum": 0, "maximum": 1}
STRING = {"type": "string"}


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a report."""
    reward_int = _obj({key: {"type": "integer"} for key in REWARD_KEYS})
    reward_num = _obj(dict.fromkeys(REWARD_KEYS, NUMBER))
    agent_episode = _obj(
        {
            "policy": STRING,
            "steps": COUNT,
            "reward": reward_int,
            "score_total": {"type": "integer"},
            "areas_explored": COUNT,
            "objects_crafted": COUNT,
            "deaths": COUNT,
            "quest_stages": COUNT,
            "quest_complete": {"type": "boolean"},
            "verbs": _map(COUNT),
            "action_entropy_bits": {"type": "number", "minimum": 0},
            "invalid_actions": COUNT,
            "invalid_action_rate": RATE,
            "ineffective_actions": COUNT,
            "ineffective_action_rate": RATE,
            "timing": _obj({"policy_seconds": NUMBER, "steps_per_second": NUMBER}),
        }
    )
    mean = _obj(
        {**dict.fromkeys(SCALAR_METRICS, NUMBER), "reward": reward_num, "score_total_std": NUMBER}
    )
    agent_episode = _with_llm(agent_episode)
    episode = _obj(
        {
            "episode": COUNT,
            "seed": {"type": "integer"},
            "ticks": COUNT,
            "terminated": {"type": "boolean"},
            "trajectory": {"type": ["string", "null"]},
            "ranking": _map({"type": "integer", "minimum": 1}),
            "agents": _map(agent_episode),
            "timing": _obj({"seconds": NUMBER, "env_seconds": NUMBER, "ticks_per_second": NUMBER}),
        }
    )
    policy = _with_llm(
        _obj(
            {
                "rank": {"type": "integer", "minimum": 1},
                "agents": {"type": "array", "items": STRING},
                "samples": COUNT,
                "mean": mean,
                "rating": _obj(
                    {
                        "mu": NUMBER,
                        "sigma": {"type": "number", "minimum": 0},
                        "ordinal": NUMBER,
                        "matches": COUNT,
                    }
                ),
                "timing": _obj({"policy_seconds": NUMBER, "steps_per_second": NUMBER}),
            }
        )
    )
    config = _obj(
        {
            "world": STRING,
            "episodes": {"type": "integer", "minimum": 1},
            "steps": {"type": "integer", "minimum": 1},
            "num_agents": {"type": "integer", "minimum": 1},
            "policies": {"type": "array", "items": STRING},
            "assignment": _map(STRING),
            "seed": {"type": "integer"},
            "seeds": {"type": "array", "items": {"type": "integer"}},
            "env": {"type": "object"},
        }
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "agentodyssey_pz evaluation report",
        **_obj(
            {
                "format": {"const": FORMAT},
                "version": {"const": VERSION},
                "config": config,
                "episodes": {"type": "array", "items": episode},
                "agents": _map(_with_llm(_obj({"policy": STRING, "samples": COUNT, "mean": mean}))),
                "policies": _map(policy),
                "curves": _obj(
                    {
                        "ticks": COUNT,
                        "score_total": _map({"type": "array", "items": NUMBER}),
                    }
                ),
                "diagnostics": diagnostics.section_schema(),
                "challenge": challenge.section_schema(),
                "timing": _obj(
                    {
                        "wall_seconds": NUMBER,
                        "ticks_per_second": NUMBER,
                        "agent_steps_per_second": NUMBER,
                        "workers": {"type": "integer", "minimum": 1},
                    }
                ),
            }
        ),
    }


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: (
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    ),
}


def validate(report: Any, spec: Mapping[str, Any] | None = None, path: str = "$") -> list[str]:
    """Every way `report` breaks the schema (the subset of JSON Schema `schema()` uses)."""
    spec = schema() if spec is None else spec
    problems: list[str] = []
    if "const" in spec and report != spec["const"]:
        problems.append(f"{path}: expected {spec['const']!r}, got {report!r}")
    if "type" in spec:
        kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
        if not any(_TYPES[k](report) for k in kinds):
            return [*problems, f"{path}: expected {' or '.join(kinds)}, got {report!r:.60}"]
    numeric = _TYPES["number"](report)  # bounds bind numbers only (JSON Schema), not null
    if numeric and "minimum" in spec and report < spec["minimum"]:
        problems.append(f"{path}: {report} is below {spec['minimum']}")
    if numeric and "maximum" in spec and report > spec["maximum"]:
        problems.append(f"{path}: {report} is above {spec['maximum']}")
    if isinstance(report, dict):
        properties = spec.get("properties", {})
        problems += [f"{path}: missing {k!r}" for k in spec.get("required", ()) if k not in report]
        extra = spec.get("additionalProperties", True)
        for key, value in report.items():
            if key in properties:
                problems += validate(value, properties[key], f"{path}.{key}")
            elif extra is False:
                problems.append(f"{path}: unexpected key {key!r}")
            elif isinstance(extra, Mapping):
                problems += validate(value, extra, f"{path}.{key}")
    if isinstance(report, list) and "items" in spec:
        for i, value in enumerate(report):
            problems += validate(value, spec["items"], f"{path}[{i}]")
    return problems


# ---------------------------------------------------------------------- the terminal table
POLICY_COLUMNS = (
    ("rank", "#", "{:d}"),
    ("samples", "n", "{:d}"),
    ("ordinal", "ordinal", "{:.2f}"),
    ("mu_sigma", "mu +- sigma", "{}"),
    ("score_total", "score", "{:.2f}"),
    ("areas_explored", "areas", "{:.2f}"),
    ("objects_crafted", "crafted", "{:.2f}"),
    ("action_entropy_bits", "entropy", "{:.2f}"),
    ("invalid_action_rate", "invalid%", "{:.1%}"),
    ("ineffective_action_rate", "no-effect%", "{:.1%}"),
    ("deaths", "deaths", "{:.2f}"),
    ("quest_stages", "stages", "{:.2f}"),
    ("quest_complete", "quest%", "{:.0%}"),
    ("steps_per_second", "steps/s", "{:,.0f}"),
)


UNRATED = "no rated match"


def counted(count: int, noun: str) -> str:
    """'1 agent', '2 agents', '1,000 agents'."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def run_summary(cfg: Mapping[str, Any]) -> str:
    """'2 episodes x 200 steps, 6 agents': what a report's run was."""
    return (
        f"{counted(cfg['episodes'], 'episode')} x {counted(cfg['steps'], 'step')}, "
        f"{counted(cfg['num_agents'], 'agent')}"
    )


def format_table(report: Mapping[str, Any]) -> str:
    """The report as readable text: a header, the policy leaderboard, and per-agent scores."""
    cfg, timing = report["config"], report["timing"]
    lines = [
        f"world {cfg['world']}: {run_summary(cfg)}, seeds {cfg['seeds'][0]}..{cfg['seeds'][-1]}; "
        f"{timing['wall_seconds']:.1f} s wall, {timing['ticks_per_second']:.1f} ticks/s, "
        f"{counted(timing['workers'], 'worker')}",
        "",
    ]
    rows = []
    for name, entry in report["policies"].items():
        mean, rating = entry["mean"], entry["rating"]
        values = {
            **mean,
            "rank": entry["rank"],
            "samples": entry["samples"],
            "ordinal": rating["ordinal"],
            "mu_sigma": f"{rating['mu']:.2f} +- {rating['sigma']:.2f}",
            "steps_per_second": entry["timing"]["steps_per_second"],
        }
        cells = {key: fmt.format(values[key]) for key, _, fmt in POLICY_COLUMNS}
        if rating["matches"] == 0:  # never met another policy: the prior, not a rating
            cells.update(ordinal="-", mu_sigma=UNRATED)
        rows.append([name, *cells.values()])
    lines += _columns(["policy", *(title for _, title, _ in POLICY_COLUMNS)], rows)
    if any(entry["rating"]["matches"] == 0 for entry in report["policies"].values()):
        lines.append(f"{UNRATED}: a rating compares policies that meet in an episode")
    unplayed = [name for name in cfg["policies"] if name not in report["policies"]]
    if unplayed:
        k, n = len(cfg["policies"]), cfg["num_agents"]
        lines.append(
            f"not rated (no agent played them; {n} agent{'s' if n != 1 else ''} for {k} "
            f"policies, agent_i plays policy i mod {k}): {', '.join(unplayed)}"
        )
    lines.append("")
    agent_rows = [
        [
            agent,
            entry["policy"],
            f"{entry['mean']['score_total']:.2f}",
            f"{entry['mean']['score_total_std']:.2f}",
            f"{entry['mean']['reward']['xp_total']:.1f}",
            f"{entry['mean']['areas_explored']:.2f}",
            f"{entry['mean']['quest_stages']:.2f}",
        ]
        for agent, entry in report["agents"].items()
    ]
    lines += _columns(["agent", "policy", "score", "sd", "xp", "areas", "stages"], agent_rows)
    lines += llm_lines(report)
    lines += diagnostics_and_challenge_lines(report)
    return "\n".join(lines)


def _columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = f"{cells[0]:<{widths[0]}}"
        rest = (f"{c:>{w}}" for c, w in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]
