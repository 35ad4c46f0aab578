"""Issue 35's spike: compile the hot path with mypyc, in place (the .so files land beside the
sources and win over them on import; delete them, or run with --clean, for the pure build).

Usage (from the repository root, in a venv with mypy, setuptools and a C compiler):
    python scripts/build_mypyc.py          # build the modules below in place
    python scripts/build_mypyc.py --clean  # remove the build outputs: back to the pure package

Not part of the package: nothing imports it, `pip install .` never runs it. The .so, .c and
build/ outputs are ignored by git.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What one env step touches most (benchmarks/profile_hot_path.py). Round 1: the first nine.
MODULES = [
    "agentodyssey_pz/engine/tick.py",
    "agentodyssey_pz/rules/dispatch.py",
    "agentodyssey_pz/rules/parse.py",
    "agentodyssey_pz/rules/context.py",
    "agentodyssey_pz/observe/masks.py",
    "agentodyssey_pz/observe/encode.py",
    "agentodyssey_pz/observe/listing_cache.py",
    "agentodyssey_pz/world/world.py",
    "agentodyssey_pz/world/agents.py",
    # round 2
    "agentodyssey_pz/rules/base.py",
    "agentodyssey_pz/engine/game.py",
    "agentodyssey_pz/observe/text.py",
    "agentodyssey_pz/rules/rewards.py",
    "agentodyssey_pz/world/darkness.py",
    "agentodyssey_pz/world/graph.py",
    "agentodyssey_pz/world/entities.py",
    "agentodyssey_pz/rules/events.py",
    "agentodyssey_pz/engine/result.py",
    "agentodyssey_pz/rules/targets.py",
    "agentodyssey_pz/rules/kills.py",
]
# Not compiled: adapter/parallel.py (mypyc: "Multiple assignment in class bodies not supported",
# the read-only dict's `__setitem__ = __delitem__ = _refuse`), the rule packs under rules/ (loaded
# by path), observe/catalogue.py (built once per env).


def clean() -> None:
    for pattern in ("*.so", "*.c"):
        for path in ROOT.glob(pattern):
            path.unlink()
    for path in (ROOT / "agentodyssey_pz").rglob("*.so"):
        path.unlink()
    shutil.rmtree(ROOT / "build", ignore_errors=True)


def build(modules: list[str]) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    setup(
        name="agentodyssey-pz-mypyc-spike",
        packages=[],
        py_modules=[],
        ext_modules=mypycify(
            ["--follow-imports=silent", "--ignore-missing-imports", *modules], opt_level="3"
        ),
        script_args=["build_ext", "--inplace"],
    )


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    if "--clean" in sys.argv[1:]:
        clean()
    else:
        chosen = [a for a in sys.argv[1:] if a.endswith(".py")] or MODULES
        build(chosen)
