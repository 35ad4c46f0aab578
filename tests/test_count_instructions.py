"""benchmarks/count_instructions.py: the trajectory it measures runs in every mode, and without
valgrind it says what it needs instead of failing inside a subprocess. (The count itself needs
valgrind and a minute; it is a figure, not a test.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "count_instructions.py"


@pytest.mark.parametrize("mode", ["vector", "text", "text_only"])
def test_the_measured_trajectory_plays(mode: str) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--play", "20", "--mode", mode, "--agents", "2"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def test_without_valgrind_it_names_what_is_missing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--steps", "10"],
        capture_output=True, text=True, check=False, timeout=120,
        env={"PATH": str(tmp_path)},  # an empty folder: no valgrind, no setarch
    )  # fmt: skip
    assert done.returncode == 2
    assert "valgrind" in done.stderr and "setarch" in done.stderr
    assert "Traceback" not in done.stderr
