"""The README's two set-up commands, and CI running the second one verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README must open with a sh block of set-up commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_begins_with_exactly_two_setup_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = text.index("```sh")
    assert text[:first_block].count("\n") <= 2, "the set-up commands come first"
    commands = readme_commands()
    assert len(commands) == 2
    install_and_run, install_and_test = commands
    assert "pip install ." in install_and_run and "agentodyssey-pz" in install_and_run
    assert '".[test]"' in install_and_test and install_and_test.endswith("pytest")


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci
