"""Per-agent evaluation metrics, computed from trajectory step records alone.

Side module (evaluation). Everything here reads the records that the runner writes to the
trajectory log (one per tick per agent, see `trajectory`), so a report's numbers can always be
recomputed from the log. Timing is not a metric: it lives apart, since it is not reproducible.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agentodyssey_pz.rules.rewards import COMPONENTS, RewardBreakdown

TOTALS = ("total", "xp_total", "rl_total", "score_total")
REWARD_KEYS = (*COMPONENTS, *TOTALS)
# Per agent-episode numbers averaged over samples (booleans count as 0/1, so a mean is a rate).
SCALAR_METRICS = (
    "score_total",
    "areas_explored",
    "objects_crafted",
    "action_entropy_bits",
    "invalid_action_rate",
    "ineffective_action_rate",
    "deaths",
    "quest_stages",
    "quest_complete",
    "steps",
)


def reward_totals(records: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The eight components summed over the records, and the four totals of that sum."""
    total = RewardBreakdown()
    for record in records:
        reward = record["reward"]
        total.add(RewardBreakdown(**{c: int(reward[c]) for c in COMPONENTS}))
    return total.as_dict()


def entropy_bits(counts: Mapping[str, int]) -> float:
    """Shannon entropy (bits) of a distribution given by counts; 0 for none or one kind."""
    n = sum(counts.values())
    if n <= 0:
        return 0.0
    value = -sum((c / n) * math.log2(c / n) for c in counts.values() if c > 0)
    return round(value + 0.0, 6)  # + 0.0 turns -0.0 into 0.0


def agent_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Metrics of one agent over one episode, from its step records in tick order.

    Progress figures (areas, crafted kinds, deaths, quest) are the game's own counters as logged
    on the last record; rewards are sums; rates are per step."""
    steps = len(records)
    reward = reward_totals(records)
    verbs = Counter(r["verb"] for r in records if r.get("verb") is not None)
    invalid = sum(bool(r["flags"]["invalid_action"]) for r in records)
    ineffective = sum(not r["flags"]["action_ok"] for r in records)
    last = records[-1]["progress"] if records else {}
    return {
        "steps": steps,
        "reward": reward,
        "score_total": reward["score_total"],
        "areas_explored": int(last.get("areas_visited", 0)),
        "objects_crafted": int(last.get("crafted_kinds", 0)),
        "deaths": int(last.get("deaths", 0)),
        "quest_stages": int(last.get("quest_stages", 0)),
        "quest_complete": bool(last.get("quest_complete", False)),
        "verbs": dict(sorted(verbs.items())),
        "action_entropy_bits": entropy_bits(verbs),
        "invalid_actions": invalid,
        "invalid_action_rate": _rate(invalid, steps),
        "ineffective_actions": ineffective,
        "ineffective_action_rate": _rate(ineffective, steps),
    }


def score_curve(records: Sequence[Mapping[str, Any]], ticks: int) -> list[int]:
    """Cumulative score_total after each tick 1..ticks (carried forward after the last record)."""
    curve: list[int] = []
    score = 0
    by_tick = {int(r["tick"]): int(r["reward"]["score_total"]) for r in records}
    for tick in range(1, ticks + 1):
        score += by_tick.get(tick, 0)
        curve.append(score)
    return curve


def mean_metrics(samples: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Means over agent-episode metric dicts: the scalar metrics and every reward key."""
    n = len(samples)
    out: dict[str, Any] = {}
    for key in SCALAR_METRICS:
        out[key] = _mean([float(s[key]) for s in samples]) if n else 0.0
    out["reward"] = {
        key: _mean([float(s["reward"][key]) for s in samples]) if n else 0.0 for key in REWARD_KEYS
    }
    out["score_total_std"] = _std([float(s["score_total"]) for s in samples])
    return out


def mean_curve(curves: Sequence[Sequence[int]]) -> list[float]:
    """Element-wise mean of equally long curves."""
    if not curves:
        return []
    return [_round(sum(values) / len(values)) for values in zip(*curves, strict=True)]


def _rate(count: int, steps: int) -> float:
    return _round(count / steps) if steps else 0.0


def _mean(values: Sequence[float]) -> float:
    return _round(math.fsum(values) / len(values)) if values else 0.0


def _std(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return _round(math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)))


def _round(value: float) -> float:
    # Rounded so that reports compare equal across processes and read well as JSON.
    return round(value, 6) + 0.0
