"""benchmarks/bench_vs_published.py: our env and AgentOdyssey's engine side by side. With the
published copy (tests/published_copy.py: skipped without one), a tiny run prints a row per mode
with positive rates on both sides and writes them as JSON; without the copy, or with a copy whose
engine cannot be imported, it says so in one message and exits 2 (no traceback). Its figures are
timings, not tested."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from published_copy import published_copy

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_vs_published.py"
RATE = r"[\d,]+"


def run(argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *argv],
        capture_output=True, text=True, check=False, timeout=600, env={**os.environ, **env},
    )  # fmt: skip


def test_a_tiny_run_prints_each_mode_with_both_sides_rates(tmp_path: Path) -> None:
    published_copy()
    out = tmp_path / "vs.json"
    done = run(["--agents", "1", "--ticks", "5", "--runs", "1", "--json", str(out)])
    if done.returncode == 2 and "needs gymnasium" in done.stderr:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("agentodyssey:base against AgentOdyssey's games/base: 5 ticks")
    assert "tutorial off on both" in lines[0]
    assert lines[1].split()[:3] == ["agents", "mode", "(ours)"]
    for mode in ("vector", "text_only", "text"):
        (line,) = [ln for ln in lines if ln.split()[1:2] == [mode]]
        found = re.fullmatch(
            rf" *1  {mode} +({RATE}) +{RATE}-{RATE} +({RATE}) +{RATE}-{RATE} +(\d+\.\d\d)x +"
            rf"\d+\.\d\dx-\d+\.\d\dx +\d+\.\d\dx +\d+/\d+",
            line,
        )
        assert found, line
        ours, theirs, ratio = (float(g.replace(",", "")) for g in found.groups())
        assert ours > 0 and theirs > 0 and ratio > 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert [(r["agents"], r["mode"]) for r in document["rows"]] == [
        (1, "vector"), (1, "text_only"), (1, "text"),
    ]  # fmt: skip
    for row in document["rows"]:
        assert row["ours"]["median"] > 0 and row["theirs"]["median"] > 0
        assert row["ratio"] == pytest.approx(row["ours"]["median"] / row["theirs"]["median"])
        assert row["ratio_cpu"] > 0
        assert row["ours"]["listed_per_agent_step"] >= 1  # "wait" at least
        assert row["theirs"]["listed_per_agent_step"] >= 1


def test_without_a_copy_it_says_how_to_get_one(tmp_path: Path) -> None:
    done = run(["--agents", "1", "--ticks", "5", "--runs", "1"], AGENTODYSSEY_HOME=str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "AgentOdyssey's published copy is needed" in done.stderr
    assert "pip install --no-deps agentodyssey==0.1.0" in done.stderr


def test_a_missing_dependency_of_their_engine_is_one_message(tmp_path: Path) -> None:
    for folder in ("games/base", "assets/world_definitions/base", "assets/env_configs/base"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "games/__init__.py").write_text("")
    (tmp_path / "games/base/__init__.py").write_text("")
    (tmp_path / "games/base/env.py").write_text("import gymnasium_missing_for_this_test\n")
    world = {"custom_events": ["main_quest", "side_quest"]}  # all the script reads before
    (tmp_path / "assets/world_definitions/base/default.json").write_text(json.dumps(world))
    (tmp_path / "assets/env_configs/base/initial.json").write_text("{}")
    done = run(["--agents", "1", "--ticks", "5", "--runs", "1"], AGENTODYSSEY_HOME=str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot import AgentOdyssey's games.base.env" in done.stderr
    assert "gymnasium_missing_for_this_test" in done.stderr
    assert "pip install gymnasium numpy termcolor psutil" in done.stderr
