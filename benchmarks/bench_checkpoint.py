"""Env throughput with checkpointing on (journal every tick, snapshot every 100) and off.

Usage: python benchmarks/bench_checkpoint.py [--steps N] [--runs N] [--world NAME] [--agents N]

The PettingZoo parallel env in vector mode plays one stream of masked random discrete actions
(recorded once; checkpointing changes nothing in the game, so both variants replay the same
trajectory). Each run resets, steps, and closes the env; with `checkpoint_dir` the close waits for
the last snapshot to reach the disk, so the time covers everything made durable. Prints steps per
second (median of the runs, variants interleaved) and the slowdown.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any

import numpy as np

import agentodyssey_pz

SNAPSHOT_EVERY = 100


def make_env(args: argparse.Namespace, checkpoint_dir: str | None) -> Any:
    return agentodyssey_pz.parallel_env(
        world=args.world,
        num_agents=args.agents,
        obs_mode="vector",
        max_cycles=args.steps + 1,
        checkpoint_dir=checkpoint_dir,
        snapshot_every=SNAPSHOT_EVERY,
    )


def record_actions(args: argparse.Namespace) -> list[dict[str, int]]:
    env = make_env(args, None)
    observations, _ = env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    stream = []
    for _ in range(args.steps):
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()
        }
        stream.append(actions)
        observations = env.step(actions)[0]
    return stream


def timed(args: argparse.Namespace, stream: list[dict[str, int]], folder: str | None) -> float:
    env = make_env(args, folder)
    env.reset(seed=args.seed)
    started = time.perf_counter()
    for actions in stream:
        env.step(actions)
    env.close()
    return len(stream) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="default")
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    stream = record_actions(args)
    off: list[float] = []
    on: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench_checkpoint_") as root:
        for _ in range(args.runs):
            off.append(timed(args, stream, None))
            on.append(timed(args, stream, root))
    median_off, median_on = statistics.median(off), statistics.median(on)
    print(f"world {args.world}, {args.agents} agents, {args.steps} steps, {args.runs} runs")
    print(f"  checkpoints off : {median_off:8.0f} steps/s  (spread {max(off) - min(off):.0f})")
    print(f"  checkpoints on  : {median_on:8.0f} steps/s  (spread {max(on) - min(on):.0f})")
    fewer = 100 * (1 - median_on / median_off)
    print(f"  slowdown        : {median_off / median_on:.3f}x ({fewer:.1f}% fewer steps/s)")


if __name__ == "__main__":
    main()
