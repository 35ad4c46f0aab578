"""Instructions per env step (valgrind's callgrind): a steady measure of the hot path's cost.

Usage: python benchmarks/count_instructions.py [--mode vector|text|text_only] [--steps 300]
                                               [--agents 3] [--world default]

Wall-clock speed on a shared VM drifts by 20-40% within minutes; the number of instructions a step
executes does not (two runs of the same code agree within about 0.5%). This script plays
`bench_env.py`'s trajectory (masked random actions in vector mode; in the text modes a random verb,
then a random command from the valid-action list) twice under callgrind, for 0 steps and for
`--steps` steps, with address-space randomisation off, `PYTHONHASHSEED=0` and one BLAS thread, and
prints the difference per step: start-up and the first reset cancel out. To compare two commits,
run it in a checkout of each. Needs valgrind and setarch (util-linux).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys

from bench_env import RUNNERS  # this folder is first on sys.path

import agentodyssey_pz

MODES = tuple(RUNNERS)


def play(world: str, agents: int, mode: str, steps: int) -> None:
    """The measured trajectory (seed 0), without valgrind: `bench_env.py`'s own loops."""
    RUNNERS[mode](world, agents, steps, 0)


def instructions(args: argparse.Namespace, steps: int) -> int:
    """What callgrind counts for a run of `steps` steps in a fresh process."""
    command = [
        "setarch", platform.machine(), "-R",  # no address-space randomisation
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--play", str(steps), "--mode", args.mode,
        "--agents", str(args.agents), "--world", args.world,
    ]  # fmt: skip
    blas = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
    single_thread = dict.fromkeys(blas, "1")
    env = {**os.environ, "PYTHONHASHSEED": "0", **single_thread}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"error: the run under valgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, default="vector")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--world", default="default")
    parser.add_argument("--play", type=int, default=None, help=argparse.SUPPRESS)  # the inner run
    args = parser.parse_args()
    if args.play is not None:
        play(args.world, args.agents, args.mode, args.play)
        return
    if args.steps < 1:
        parser.error("--steps: at least 1")
    missing = [tool for tool in ("valgrind", "setarch") if shutil.which(tool) is None]
    if missing:
        parser.error(f"needs {' and '.join(missing)} on PATH (e.g. apt install valgrind)")
    per_step = (instructions(args, args.steps) - instructions(args, 0)) / args.steps
    print(
        f"{args.mode}, {args.world} world, {args.agents} agents, {args.steps} steps: "
        f"{per_step:,.0f} instructions per step ({agentodyssey_pz.__file__})"
    )


if __name__ == "__main__":
    main()
