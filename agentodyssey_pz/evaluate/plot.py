"""Plot of an evaluation: mean cumulative score_total over ticks, one line per policy.

Side module (evaluation). Needs matplotlib (the `plot` extra); without it `plot_scores` returns
None and `PLOT_UNAVAILABLE` says how to get it. The format follows the file suffix (.png or .svg).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentodyssey_pz.evaluate.report import run_summary

PLOT_UNAVAILABLE = (
    "plot skipped: matplotlib is not installed (pip install 'agentodyssey-pz[plot]' to get it)"
)
FORMATS = (".png", ".svg")


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def plot_scores(report: Mapping[str, Any], path: str | os.PathLike[str]) -> Path | None:
    """Write the score-over-time plot; the path written, or None without matplotlib."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise ValueError(f"{target}: the plot is written as .png or .svg")
    if not has_matplotlib():
        return None
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window
    import matplotlib.pyplot as plt

    curves = report["curves"]["score_total"]
    cfg = report["config"]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=120)
    try:
        for name, values in curves.items():
            ax.plot(range(1, len(values) + 1), values, label=name, linewidth=1.6)
        ax.set_xlabel("tick")
        ax.set_ylabel("mean cumulative score_total")
        ax.set_title(f"{cfg['world']}: {run_summary(cfg)}")
        ax.grid(alpha=0.3)
        if curves:
            ax.legend(loc="upper left", fontsize="small")
        fig.tight_layout()
        target.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(target, metadata={"Date": None} if target.suffix.lower() == ".svg" else None)
    finally:
        plt.close(fig)
    return target
