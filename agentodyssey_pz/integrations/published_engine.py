"""AgentOdyssey's own engine, run as a black box in a child process, to compare outcomes with it.

Side module (nothing in the package imports it): the parity tests (tests/published_engine.py: its
world generator) and the verb comparison (benchmarks/compare_published_verbs.py: its env) share
this runner. The user's copy of AgentOdyssey (`world.published.locate`) is run, never imported
here: a child Python process (this interpreter; working directory and first `sys.path` entry =
the copy's root, as AgentOdyssey expects) reads one JSON request on stdin, runs the caller's
program, which calls only AgentOdyssey's documented interface, and writes one JSON document. The
child needs AgentOdyssey's own dependencies beside it (gymnasium, numpy, termcolor, psutil).

A caller's program runs after `CHILD_PRELUDE`, which gives it `request` (the parsed request, with
`root`), `out` (the real stdout: AgentOdyssey prints and logs while it works, and that must not mix
with the answer, so the program redirects stdout while AgentOdyssey runs and writes its JSON to
`out` at the end) and `load(module)` (imports one of AgentOdyssey's modules quietly, or exits with
`CANNOT_IMPORT` saying why).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

CHILD_PRELUDE = r"""
import contextlib, importlib, io, json, logging, os, sys
request = json.load(sys.stdin)
root = request["root"]
sys.path.insert(0, root)
os.chdir(root)
logging.disable(logging.CRITICAL)
out = sys.stdout

def load(name):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return importlib.import_module(name)
    except Exception as exc:
        print(f"cannot import AgentOdyssey's {name}: {exc!r}", file=sys.stderr)
        sys.exit(2)
"""

# Exit status of the child when AgentOdyssey cannot be imported (a missing dependency ...).
CANNOT_IMPORT = 2
INSTALL_HINT = (
    "it needs gymnasium, numpy, termcolor and psutil installed beside it: "
    "pip install gymnasium numpy termcolor psutil"
)


class EngineUnavailable(Exception):
    """AgentOdyssey's engine could not be run (the message says why and what to install)."""


def engine_package(folder: str) -> str:
    """The Python package of a game's engine in the copy, from its folder under `games/` (`base`,
    `generated/robot_kingdom` ...; `GameSpec.folder`)."""
    return "games." + folder.replace("/", ".")


def run_child(
    root: str | Path, program: str, request: dict[str, Any], *, what: str, timeout: float
) -> Any:
    """Run `program` (after `CHILD_PRELUDE`) in a child process in the copy at `root`, with
    `request` (and `root`) as its JSON input; return the JSON it wrote. `what` names the run in
    errors (e.g. AgentOdyssey's package). Raises EngineUnavailable when AgentOdyssey's modules
    cannot be imported, RuntimeError (with the end of its error output) when the child fails, and
    subprocess.TimeoutExpired after `timeout` seconds."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_PRELUDE + program],
        input=json.dumps({**request, "root": str(root)}),
        capture_output=True,
        text=True,
        cwd=root,
        timeout=timeout,
        check=False,
    )
    if done.returncode == CANNOT_IMPORT:
        raise EngineUnavailable(f"{done.stderr.strip()} ({INSTALL_HINT})")
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"AgentOdyssey's {what} failed:\n{tail}")
    return json.loads(done.stdout)
