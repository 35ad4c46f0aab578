"""Running a script in a fresh interpreter with some modules made unimportable: what a user without
an optional extra (torch, ray) sees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_without(
    module: str, script: Path, argv: list[str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """Run `script` with `argv` in a new interpreter in which `module` cannot be imported."""
    code = (
        f"import runpy, sys; sys.modules[{module!r}] = None; "  # None: the import fails
        f"sys.argv = [{str(script)!r}, *{argv!r}]; runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang, not a speed limit
        check=False,
    )
