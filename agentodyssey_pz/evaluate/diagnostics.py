"""Diagnostics of play, computed from trajectory logs the way AgentOdyssey defines them.

Side module (evaluation). Per agent and episode, from its step records (and, for the figures that
need the world, a replay of the log: `replay_facts`):

Compatible figures (AgentOdyssey's published diagnostic definitions, re-expressed):

- Actions considered: the logged command text of every step the agent did not start in a
  tutorial room. Each is mapped to a verb by *case-sensitive prefix matching* against the rule
  set's verb phrases, in rule order (the first phrase the text starts with wins); a command that
  starts with no phrase is dropped.
- `action_exploration`: distinct matched verbs / verbs of the rule set.
- `action_diversity`: Shannon entropy (natural log) of the matched verbs' frequencies divided by
  ln(number of verbs of the rule set), clipped to [0, 1].
- `action_diversity_window`: the same score over every run of K = 100 consecutive matched
  actions (windows starting at 0, 1, ..., n - K); its mean. No window (null) when fewer than K.
- `object_exploration`: object kinds the engine records as acquired (`agent.acquired`, kept by
  the rule pack's new-craftable rule: outside tutorials, kinds carried in hand, worn, in the
  inventory or in a held container) / object definitions of the world.
- `invalid_action_rate`: steps flagged invalid (unparsable or unknown command) / all steps,
  tutorial steps included (AgentOdyssey counts them here, though it leaves them out above).

Corrected figures (`*_corrected`), beside them, for flaws of those definitions:

- Verbs come from the engine's own parse of each command (`verb` in the log): case and extra
  spaces do not matter, aliases count, and a phrase that begins another phrase cannot steal it.
  The compatible matching drops "Pick up stick" and " wait" (their count is `dropped_actions`).
- `action_exploration_corrected` counts a verb once an action of it took effect (`action_ok`):
  a refused `craft` is not an explored craft.
- `action_diversity_window_corrected` windows K consecutive *steps* (so a dropped or unparsed
  action does not stretch a window over more ticks), and a run shorter than K gets one window of
  all of it instead of none.
- With a single verb, ln(1) = 0: AgentOdyssey divides by zero; both figures say 0.
- `object_exploration_corrected` counts every kind seen carried after a tick outside tutorials,
  whatever the rule pack records (the published games' rule records a kind only in a tick when
  some newly carried kind is an ingredient, so lone non-ingredients go unnoticed).

Language-model figures, from the `llm` field of step records (scripted agents have none: their
format-error rate is 0 and their token and time figures are null, not 0): `format_error_rate`
(answers that could not be parsed / steps), `input_tokens_per_step`, `output_tokens_per_step`,
`timing.seconds_per_step` (model seconds; under `timing` since they vary between identical runs),
and their totals.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from agentodyssey_pz.evaluate.replay_facts import EpisodeFacts, replay_facts
from agentodyssey_pz.evaluate.trajectory import records_by_agent

WINDOW = 100  # AgentOdyssey's window of consecutive actions for windowed diversity

# Per agent-episode figures (null where undefined) that means are taken of.
FIGURES = (
    "object_exploration",
    "object_exploration_corrected",
    "action_exploration",
    "action_exploration_corrected",
    "action_diversity",
    "action_diversity_corrected",
    "action_diversity_window",
    "action_diversity_window_corrected",
    "invalid_action_rate",
    "format_error_rate",
    "input_tokens_per_step",
    "output_tokens_per_step",
)
# Figures that vary between identical runs (a model's latency): kept under "timing".
TIMING_FIGURES = ("seconds_per_step", "llm_seconds")
# Sizes of what a figure is a share of (the same for every agent of a world).
TOTALS = ("verbs_total", "objects_total")
# Counts beside them (summed over samples).
COUNTS = (
    "steps",
    "tutorial_steps",
    "dropped_actions",
    "windows",
    "windows_corrected",
    "llm_steps",
    "format_errors",
    "input_tokens",
    "output_tokens",
)


# ---------------------------------------------------------------------- the definitions
def prefix_verb(command: str | None, phrases: Sequence[str]) -> str | None:
    """AgentOdyssey's matching: the first phrase (in order) the command text starts with,
    case-sensitively; None when there is none (the action is dropped)."""
    if not command:
        return None
    for phrase in phrases:
        if command.startswith(phrase):
            return phrase
    return None


def diversity(actions: Sequence[str], verbs_total: int) -> float:
    """Entropy (natural log) of the actions' frequencies over ln(verbs_total), within [0, 1];
    0 for no actions or fewer than two verbs."""
    if not actions or verbs_total < 2:
        return 0.0
    n = len(actions)
    entropy = -math.fsum((c / n) * math.log(c / n) for c in Counter(actions).values())
    return _round(min(1.0, max(0.0, entropy / math.log(verbs_total))))


def window_scores(actions: Sequence[str], verbs_total: int, k: int = WINDOW) -> list[float]:
    """AgentOdyssey's windowed diversity: a score per window of k consecutive actions; none when
    there are fewer than k."""
    return [diversity(actions[i : i + k], verbs_total) for i in range(len(actions) - k + 1)]


def step_window_scores(
    verbs: Sequence[str | None], verbs_total: int, k: int = WINDOW
) -> list[float]:
    """Corrected windowed diversity: windows of k consecutive steps (steps without a verb count
    towards the window but not the entropy); a shorter run is one window."""
    if not verbs:
        return []
    starts = range(max(1, len(verbs) - k + 1))
    return [diversity([v for v in verbs[i : i + k] if v is not None], verbs_total) for i in starts]


def _rate(count: int, total: int) -> float:
    return _round(count / total) if total else 0.0


def _mean_or_none(values: Sequence[float]) -> float | None:
    return _round(math.fsum(values) / len(values)) if values else None


def _round(value: float) -> float:
    return round(value, 6) + 0.0


# ---------------------------------------------------------------------- one agent, one episode
def agent_diagnostics(
    records: Sequence[Mapping[str, Any]],
    verbs: Sequence[str],
    *,
    verb_ids: Mapping[str, str] | None = None,
    tutorial: Sequence[bool] | None = None,
    acquired: int | None = None,
    carried: int | None = None,
    object_kinds: int | None = None,
    k: int = WINDOW,
) -> dict[str, Any]:
    """The diagnostics of one agent's step records of one episode (in tick order).

    `verbs`: the rule set's verb phrases in rule order; `verb_ids`: logged verb id -> phrase
    (default: the id with `_` read as a space); `tutorial`: per record, whether the agent started
    it in a tutorial room (default: never); `acquired`, `carried`, `object_kinds`: object counts
    from a replay (None: object exploration is null)."""
    verb_ids = verb_ids or {}
    tutorial = list(tutorial) if tutorial is not None else [False] * len(records)
    if len(tutorial) != len(records):
        raise ValueError(f"tutorial flags for {len(tutorial)} records, got {len(records)}")
    played = [r for r, t in zip(records, tutorial, strict=True) if not t]
    total = len(verbs)
    matched = [prefix_verb(r.get("command"), verbs) for r in played]
    compatible = [v for v in matched if v is not None]
    parsed = [_phrase(r.get("verb"), verb_ids) for r in played]
    effective = {v for v, r in zip(parsed, played, strict=True) if v and r["flags"]["action_ok"]}
    windows = window_scores(compatible, total, k)
    windows_corrected = step_window_scores(parsed, total, k)
    invalid = sum(bool(r["flags"]["invalid_action"]) for r in records)
    out: dict[str, Any] = {
        "steps": len(records),
        "tutorial_steps": len(records) - len(played),
        "dropped_actions": len(played) - len(compatible),
        "verbs_total": total,
        "objects_total": object_kinds,
        "object_exploration": _share(acquired, object_kinds),
        "object_exploration_corrected": _share(carried, object_kinds),
        "action_exploration": _rate(len(set(compatible)), total),
        "action_exploration_corrected": _rate(len(effective), total),
        "action_diversity": diversity(compatible, total),
        "action_diversity_corrected": diversity([v for v in parsed if v is not None], total),
        "action_diversity_window": _mean_or_none(windows),
        "action_diversity_window_corrected": _mean_or_none(windows_corrected),
        "windows": len(windows),
        "windows_corrected": len(windows_corrected),
        "invalid_action_rate": _rate(invalid, len(records)),
    }
    out.update(llm_figures(records))
    return out


def _phrase(verb_id: Any, verb_ids: Mapping[str, str]) -> str | None:
    if not isinstance(verb_id, str) or not verb_id:
        return None
    return verb_ids.get(verb_id, verb_id.replace("_", " "))


def _share(count: int | None, total: int | None) -> float | None:
    if count is None or not total:
        return None
    return _round(count / total)


def llm_figures(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Format errors, tokens and model seconds of the records that carry an `llm` field."""
    calls = [r["llm"] for r in records if isinstance(r.get("llm"), Mapping)]
    errors = sum(bool(c.get("format_error")) for c in calls)
    out: dict[str, Any] = {
        "llm_steps": len(calls),
        "format_errors": errors,
        "format_error_rate": _rate(errors, len(records)),
        "input_tokens": None,
        "output_tokens": None,
        "input_tokens_per_step": None,
        "output_tokens_per_step": None,
        "timing": {"seconds_per_step": None, "llm_seconds": None},
    }
    if not calls:
        return out
    for key in ("input_tokens", "output_tokens"):
        values = [int(c[key]) for c in calls if isinstance(c.get(key), int)]
        if values:
            out[key] = sum(values)
            out[f"{key}_per_step"] = _round(sum(values) / len(calls))
    seconds = [float(c["seconds"]) for c in calls if isinstance(c.get("seconds"), (int, float))]
    if seconds:
        out["timing"] = {
            "seconds_per_step": _round(math.fsum(seconds) / len(calls)),
            "llm_seconds": _round(math.fsum(seconds)),
        }
    return out


# ---------------------------------------------------------------------- episodes and means
def episode_diagnostics(
    header: Mapping[str, Any],
    steps: Sequence[Mapping[str, Any]],
    *,
    replay: bool = True,
    k: int = WINDOW,
    facts: EpisodeFacts | None = None,
) -> dict[str, dict[str, Any]]:
    """Agent -> diagnostics of one logged episode. With `replay` (the default) the log is played
    again for the world's facts (object exploration, tutorial steps, the rule set's verbs);
    without, object exploration is null, no step counts as a tutorial step and the verbs are
    those of a fresh env built from the header."""
    if facts is None:
        facts = replay_facts(header, steps) if replay else None
    if facts is not None:
        verbs, game = facts.verbs, facts.env.game
    else:
        from agentodyssey_pz.evaluate.trajectory import replay_env

        game = replay_env(header).game
        verbs = tuple(rule.verb for rule in game.engine.rules.values())
    verb_ids = {key: rule.verb for key, rule in game.engine.rules.items()}
    out = {}
    for agent, records in records_by_agent(steps).items():
        mine = facts.agents.get(agent) if facts is not None else None
        out[agent] = agent_diagnostics(
            records,
            verbs,
            verb_ids=verb_ids,
            tutorial=[b.tutorial for b in mine.before] if mine is not None else None,
            acquired=len(mine.acquired) if mine is not None else None,
            carried=len(mine.carried) if mine is not None else None,
            object_kinds=facts.object_kinds if facts is not None else None,
            k=k,
        )
    return out


def mean_diagnostics(samples: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Means of the figures over agent-episode samples (nulls left out; null when all are), and
    sums of the counts (a null count stays null when every sample's is)."""
    out: dict[str, Any] = {}
    for key in FIGURES:
        out[key] = _mean_or_none([float(s[key]) for s in samples if s.get(key) is not None])
    for key in TOTALS:
        values = [int(s[key]) for s in samples if s.get(key) is not None]
        out[key] = max(values) if values else None
    for key in COUNTS:
        values = [int(s[key]) for s in samples if s.get(key) is not None]
        out[key] = sum(values) if values else None
    timing = [s.get("timing") or {} for s in samples]
    out["timing"] = {
        "seconds_per_step": _mean_or_none(
            [float(t["seconds_per_step"]) for t in timing if t.get("seconds_per_step") is not None]
        ),
        "llm_seconds": _sum_or_none([t.get("llm_seconds") for t in timing]),
    }
    return out


def _sum_or_none(values: Sequence[Any]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return _round(math.fsum(present)) if present else None


# ---------------------------------------------------------------------- the report's section
def report_section(
    episodes: Sequence[Mapping[str, Any]], assignment: Mapping[str, str]
) -> dict[str, Any] | None:
    """The report's `diagnostics`: per episode (from its trajectory log), per agent and per policy
    (means over agent-episodes). None when an episode wrote no log."""
    from agentodyssey_pz.evaluate.trajectory import read_trajectory

    if not episodes or any(not ep.get("trajectory") for ep in episodes):
        return None
    per_episode = []
    samples: dict[str, list[Mapping[str, Any]]] = {}
    for ep in episodes:
        header, steps = read_trajectory(ep["trajectory"])
        agents = episode_diagnostics(header, steps)
        per_episode.append({"episode": ep["episode"], "agents": agents})
        for agent, figures in agents.items():
            samples.setdefault(agent, []).append(figures)
    by_policy: dict[str, list[Mapping[str, Any]]] = {}
    for agent, policy in assignment.items():
        by_policy.setdefault(policy, []).extend(samples.get(agent, []))
    return {
        "window": WINDOW,
        "episodes": per_episode,
        "agents": {
            agent: {
                "policy": policy,
                "samples": len(samples.get(agent, [])),
                "mean": mean_diagnostics(samples.get(agent, [])),
            }
            for agent, policy in assignment.items()
        },
        "policies": {
            policy: {"samples": len(mine), "mean": mean_diagnostics(mine)}
            for policy, mine in by_policy.items()
        },
    }


def section_schema() -> dict[str, Any]:
    """JSON Schema of the report's `diagnostics` section (null without trajectory logs)."""
    rate = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
    count = {"type": ["integer", "null"], "minimum": 0}
    number = {"type": ["number", "null"], "minimum": 0}
    shares = FIGURES[:10]  # the exploration, diversity and rate figures lie in [0, 1]

    def obj(properties: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": dict(properties),
            "required": list(properties),
            "additionalProperties": False,
        }

    timing = obj(dict.fromkeys(TIMING_FIGURES, number))
    figures = obj(
        {
            **{k: rate if k in shares else number for k in FIGURES},
            **dict.fromkeys((*TOTALS, *COUNTS), count),
            "timing": timing,
        }
    )
    mean = figures
    return {
        **obj(
            {
                "window": {"type": "integer", "minimum": 1},
                "episodes": {
                    "type": "array",
                    "items": obj(
                        {
                            "episode": {"type": "integer", "minimum": 0},
                            "agents": {"type": "object", "additionalProperties": figures},
                        }
                    ),
                },
                "agents": {
                    "type": "object",
                    "additionalProperties": obj(
                        {"policy": {"type": "string"}, "samples": count, "mean": mean}
                    ),
                },
                "policies": {
                    "type": "object",
                    "additionalProperties": obj({"samples": count, "mean": mean}),
                },
            }
        ),
        "type": ["object", "null"],
    }


# Headline columns of the printed table: (key, title, format).
HEADLINE = (
    ("object_exploration", "OE", "{:.1%}"),
    ("action_exploration", "AE", "{:.1%}"),
    ("action_exploration_corrected", "AE*", "{:.1%}"),
    ("action_diversity", "AD", "{:.3f}"),
    ("action_diversity_window", f"AD@{WINDOW}", "{:.3f}"),
    ("action_diversity_window_corrected", f"AD@{WINDOW}*", "{:.3f}"),
    ("invalid_action_rate", "invalid%", "{:.1%}"),
    ("format_error_rate", "format%", "{:.1%}"),
    ("input_tokens_per_step", "in tok/step", "{:,.0f}"),
    ("output_tokens_per_step", "out tok/step", "{:,.0f}"),
)


def format_diagnostics(rows: Mapping[str, Mapping[str, Any]], first: str = "policy") -> list[str]:
    """Table lines of mean figures by policy (or agent): the headline columns, "-" for null."""
    from agentodyssey_pz.evaluate.report import _columns

    body = []
    for name, mean in rows.items():
        cells = [name]
        for key, _, fmt in HEADLINE:
            value = mean.get(key)
            cells.append("-" if value is None else fmt.format(value))
        seconds = (mean.get("timing") or {}).get("seconds_per_step")
        cells.append("-" if seconds is None else f"{seconds:.2f}")
        body.append(cells)
    lines = ["diagnostics (AgentOdyssey's definitions; * corrected, see evaluate.diagnostics)"]
    lines += _columns([first, *(title for _, title, _ in HEADLINE), "s/step"], body)
    return lines


# ---------------------------------------------------------------------- logs on disk
REQUIRED = ("agent", "tick", "reward", "flags")  # what every step record must carry
REQUIRED_FLAGS = ("action_ok", "invalid_action")


HEADER_KEYS = ("world", "episode", "seed", "steps", "num_agents", "policies", "env")


def check_header(path: Any, header: Mapping[str, Any]) -> None:
    """ValueError naming the header fields a log lacks (a replay and the challenge read them)."""
    missing = [key for key in HEADER_KEYS if key not in header]
    if missing:
        raise ValueError(f"{path}: the episode header lacks {', '.join(missing)}")
    if not isinstance(header["policies"], Mapping) or not isinstance(header["env"], Mapping):
        raise ValueError(f"{path}: the episode header's policies and env must be objects")


def check_records(path: Any, steps: Sequence[Mapping[str, Any]]) -> None:
    """ValueError naming the first step record (1-based, after the header) that lacks a field
    the diagnostics read; `command`, `verb` and `llm` may be missing (they read as absent)."""
    for number, record in enumerate(steps, start=1):
        missing = [key for key in REQUIRED if key not in record]
        flags = record.get("flags")
        if not missing and isinstance(flags, Mapping):
            missing = [f"flags.{key}" for key in REQUIRED_FLAGS if key not in flags]
        elif not missing:
            missing = ["flags (an object)"]
        if missing:
            raise ValueError(f"{path}: step record {number} lacks {', '.join(missing)}")


def find_logs(paths: Sequence[Any]) -> list[Any]:
    """The log files named: files as given, folders as their episode-*.jsonl (sorted)."""
    from pathlib import Path

    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            logs = sorted(path.glob("episode-*.jsonl"))
            if not logs:
                raise ValueError(f"{path}: a folder without episode-*.jsonl logs")
            found += logs
        elif path.is_file():
            found.append(path)
        else:
            raise ValueError(f"{path}: no such log file or folder")
    if not found:
        raise ValueError("no logs given")
    return found


def diagnose_logs(paths: Sequence[Any], *, replay: bool = True) -> dict[str, Any]:
    """Diagnostics and the challenge aggregate of trajectory logs (files or folders):
    {"logs", "window", "episodes": [{log, world, episode, agents: {agent: figures}}],
     "policies": {policy: {samples, mean}}, "challenge": {...}}."""
    from agentodyssey_pz.evaluate import challenge
    from agentodyssey_pz.evaluate.trajectory import read_trajectory

    logs = find_logs(paths)
    episodes = []
    by_policy: dict[str, list[Mapping[str, Any]]] = {}
    runs = []
    for log in logs:
        header, steps = read_trajectory(log)
        check_header(log, header)
        check_records(log, steps)
        agents = episode_diagnostics(header, steps, replay=replay)
        episodes.append(
            {
                "log": str(log),
                "world": header["world"],
                "episode": header["episode"],
                "agents": agents,
            }
        )
        for agent, figures in agents.items():
            by_policy.setdefault(str(header["policies"].get(agent, "?")), []).append(figures)
        runs += challenge.runs_from_log(header, steps)
    return {
        "logs": [str(log) for log in logs],
        "window": WINDOW,
        "episodes": episodes,
        "policies": {
            policy: {"samples": len(mine), "mean": mean_diagnostics(mine)}
            for policy, mine in by_policy.items()
        },
        "challenge": challenge.aggregate(runs),
    }


def format_diagnosis(result: Mapping[str, Any]) -> str:
    """`diagnose_logs`'s result as text: figures by policy, then the challenge aggregate."""
    from agentodyssey_pz.evaluate import challenge
    from agentodyssey_pz.evaluate.report import counted

    means = {name: entry["mean"] for name, entry in result["policies"].items()}
    lines = [f"{counted(len(result['logs']), 'log')}", ""]
    lines += format_diagnostics(means)
    lines += ["", *challenge.format_challenge(result["challenge"])]
    return "\n".join(lines)
