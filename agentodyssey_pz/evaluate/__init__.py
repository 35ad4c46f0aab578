"""Multi-agent evaluation: policies on agents over seeded episodes, metrics, ratings, reports.

A side module on top of every layer (`agentodyssey-pz evaluate` on the command line):

    from agentodyssey_pz.evaluate import EvalConfig, evaluate, format_table
    report = evaluate(EvalConfig(episodes=4, steps=200, policies=("explorer", "random")))
    print(format_table(report))

`runner` plays episodes (serial or in processes), `metrics` turns trajectory records into numbers,
`ratings` rates policies with OpenSkill, `report` builds, checks and prints the JSON report,
`trajectory` writes and replays logs, `plot` draws score over time (with matplotlib).
"""

from __future__ import annotations

from agentodyssey_pz.evaluate.plot import PLOT_UNAVAILABLE, has_matplotlib, plot_scores
from agentodyssey_pz.evaluate.report import (
    format_table,
    schema,
    validate,
    without_timing,
)
from agentodyssey_pz.evaluate.runner import (
    DEFAULT_POLICIES,
    EvalConfig,
    evaluate,
    run_episode,
)
from agentodyssey_pz.evaluate.trajectory import ReplayResult, read_trajectory, replay, state_at

__all__ = [
    "DEFAULT_POLICIES",
    "PLOT_UNAVAILABLE",
    "EvalConfig",
    "ReplayResult",
    "evaluate",
    "format_table",
    "has_matplotlib",
    "plot_scores",
    "read_trajectory",
    "replay",
    "run_episode",
    "schema",
    "state_at",
    "validate",
    "without_timing",
]
