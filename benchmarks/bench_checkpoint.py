"""Env throughput with checkpointing on (journal every tick, snapshot every 100) and off.

Usage: python benchmarks/bench_checkpoint.py [--steps N] [--runs N] [--world NAME] [--agents N]
                                             [--level env|engine]

The PettingZoo parallel env in vector mode plays one stream of masked random discrete actions
(recorded once; checkpointing changes nothing in the game, so both variants replay the same
trajectory). `--level engine` replays the same commands through `Game.tick` alone (no
observations, masks or infos): the engine's own rate. Each run resets, steps, and closes the env;
every snapshot is fsynced before the step that made it returns, so the time covers everything made
durable. Prints steps per second (median of the runs, variants interleaved, order alternating),
the CPU time per step (steadier than wall-clock time on a shared machine, but blind to waiting for
the disk) and the slowdown by each measure.
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


def record_actions(args: argparse.Namespace) -> tuple[list[dict[str, int]], list[dict[str, Any]]]:
    """The stream of discrete actions, and the same stream as the commands the game received."""
    env = make_env(args, None)
    observations, _ = env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    stream, commands = [], []
    tick = env.game.tick

    def recording_tick(actions: dict[str, Any]) -> Any:
        commands.append(dict(actions))
        return tick(actions)

    env.game.tick = recording_tick
    for _ in range(args.steps):
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()
        }
        stream.append(actions)
        observations = env.step(actions)[0]
    return stream, commands


def timed(
    args: argparse.Namespace, stream: list[dict[str, Any]], folder: str | None
) -> tuple[float, float]:
    """(steps per second of wall-clock time, CPU microseconds per step on this thread)."""
    env = make_env(args, folder)
    env.reset(seed=args.seed)
    # "env": the PettingZoo step (observations, masks, infos); "engine": Game.tick alone.
    step = env.step if args.level == "env" else env.game.tick
    started, cpu = time.perf_counter(), time.thread_time()
    for actions in stream:
        step(actions)
    env.close()
    elapsed, cpu = time.perf_counter() - started, time.thread_time() - cpu
    return len(stream) / elapsed, cpu / len(stream) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="default")
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", choices=("env", "engine"), default="env")
    args = parser.parse_args()
    discrete, commands = record_actions(args)
    stream: list[dict[str, Any]] = discrete if args.level == "env" else commands
    off: list[tuple[float, float]] = []
    on: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench_checkpoint_") as root:
        for run in range(args.runs):
            # Alternate which variant goes first, so a drifting machine favours neither.
            if run % 2:
                on.append(timed(args, stream, root))
                off.append(timed(args, stream, None))
            else:
                off.append(timed(args, stream, None))
                on.append(timed(args, stream, root))
    rate_off, rate_on = (statistics.median(r for r, _ in runs) for runs in (off, on))
    cpu_off, cpu_on = (statistics.median(c for _, c in runs) for runs in (off, on))
    # Each run pair ran back to back: the median of their ratios shrugs off a noisy stretch.
    paired = statistics.median(a[0] / b[0] for a, b in zip(off, on, strict=True))
    print(
        f"world {args.world}, {args.agents} agents, {args.steps} steps, {args.runs} runs, "
        f"level {args.level}"
    )
    print(f"  checkpoints off : {rate_off:8.0f} steps/s  {cpu_off:6.0f} us CPU/step")
    print(f"  checkpoints on  : {rate_on:8.0f} steps/s  {cpu_on:6.0f} us CPU/step")
    print(
        f"  slowdown        : {rate_off / rate_on:.3f}x of the medians "
        f"({100 * (1 - rate_on / rate_off):.1f}% fewer steps/s), {paired:.3f}x median of "
        f"paired runs, {cpu_on / cpu_off:.3f}x CPU per step"
    )


if __name__ == "__main__":
    main()
