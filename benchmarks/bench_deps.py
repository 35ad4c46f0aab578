"""Tick throughput with the dependency tracker off and on, and the cost of the hook when off.

Usage: python benchmarks/bench_deps.py [--ticks N] [--runs N] [--world NAME] [--agents N]

One action stream (seeded random valid commands, recorded once) is replayed in three kinds of game,
interleaved, several times each:
  no hook   the tick without the tracker hook (`run_rules` + `finish_tick`, patched in)
  off       today's engine, no tracker (`Game(...)`)
  on        today's engine with `tracker_factory=DependencyTracker`
Tracking changes no game state, so every variant plays the same trajectory (checked by state hash).
Prints ticks per second (median of the runs), the on/off ratio and off versus no hook: the off
path costs one branch per tick, so those two should agree within the noise.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

import agentodyssey_pz.engine.game as game_module
from agentodyssey_pz.deps import DependencyTracker
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.engine.tick import (
    ProgressSnapshot,
    RuleResult,
    finish_tick,
    run_rules,
    run_tick,
)
from agentodyssey_pz.observe.masks import valid_actions


def run_tick_without_hook(
    game: Game, actions: Mapping[str, Any], *, bootstrap: bool = False
) -> TickResult:
    """`engine.tick.run_tick` without the tracker hook (the branch and the tracking flag): the
    same rule phase and tail, so the comparison isolates what the hook costs when off."""
    res = RuleResult(game.agent_ids)
    before = {aid: ProgressSnapshot.of(a) for aid, a in game.agents.items()}
    run_rules(game, actions, res, bootstrap)
    return finish_tick(game, before, res, bootstrap)


def record_actions(world: str, agents: int, seed: int, ticks: int) -> list[dict[str, str]]:
    game = Game(world, agents)
    game.reset(seed)
    rng = random.Random(seed)
    stream = []
    for _ in range(ticks):
        actions = {
            a: rng.choice([c for cs in valid_actions(game, a).values() for c in cs])
            for a in game.agent_ids
        }
        stream.append(actions)
        game.tick(actions)
    return stream


def timed(make: Callable[[], Game], seed: int, stream: list[dict[str, str]]) -> tuple[float, str]:
    """Ticks per second over the stream (reset excluded) and the final state hash."""
    game = make()
    game.reset(seed)
    started = time.perf_counter()
    for actions in stream:
        game.tick(actions)
    elapsed = time.perf_counter() - started
    return len(stream) / elapsed, state_hash(game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", default="default")
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--ticks", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    stream = record_actions(args.world, args.agents, args.seed, args.ticks)

    def plain() -> Game:
        return Game(args.world, args.agents)

    def tracked() -> Game:
        return Game(args.world, args.agents, tracker_factory=DependencyTracker)

    variants: dict[str, tuple[Callable[[], Game], Any]] = {
        "no hook": (plain, run_tick_without_hook),
        "off": (plain, run_tick),
        "on": (tracked, run_tick),
    }
    samples: dict[str, list[float]] = {name: [] for name in variants}
    hashes: set[str] = set()
    names = list(variants)
    for round_ in range(args.runs):
        # Interleaved and rotated, so drifts in machine load hit every variant alike.
        for name in names[round_ % 3 :] + names[: round_ % 3]:
            make, tick_function = variants[name]
            game_module.run_tick = tick_function
            try:
                rate, digest = timed(make, args.seed, stream)
            finally:
                game_module.run_tick = run_tick
            samples[name].append(rate)
            hashes.add(digest)
    if len(hashes) != 1:
        raise SystemExit("the variants played different games: tracking changed the state")
    game = tracked()
    game.reset(args.seed)
    for actions in stream:
        game.tick(actions)
    nodes, edges = len(game.tracker.nodes()), len(game.tracker.edges())

    median = {name: statistics.median(values) for name, values in samples.items()}
    best = {name: max(values) for name, values in samples.items()}
    print(f"world {args.world}, {args.agents} agents, {args.ticks} ticks, {args.runs} runs")
    print(f"  {'':8} {'median':>9} {'best':>9}  ticks/s")
    for name in samples:
        print(f"  {name:8} {median[name]:9.0f} {best[name]:9.0f}")
    for label, a, b in (("tracker on / off", "on", "off"), ("off / no hook", "off", "no hook")):
        ratio_median, ratio_best = median[a] / median[b], best[a] / best[b]
        print(f"  {label:17}: {ratio_median:.3f} (median), {ratio_best:.3f} (best)")
    print(f"  graph after the run: {nodes} nodes, {edges} edges")


if __name__ == "__main__":
    main()
