"""benchmarks/bench_env.py: the `--versus` comparison plays both worlds in every mode and prints
each one's rate and the cost ratio. (Its figures are timings, not tested.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_env.py"


def test_versus_prints_each_mode_s_rates_and_cost_ratio() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--versus", "glasswick", "--steps", "10", "--runs", "1"],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert "default against glasswick, 3 agents, 10 steps per run; 5 paired runs" in lines
    for mode in ("vector", "text", "text_only"):
        (line,) = [ln for ln in lines if ln.split()[0] == mode]
        found = re.fullmatch(
            rf"{mode} +default +[\d,]+ agent-steps/s, glasswick +[\d,]+; cost x\d+\.\d\d", line
        )
        assert found, line
