"""Synthesis time per bundled world and per procedural preset (median of several runs).

Usage: python benchmarks/bench_synthesis.py [--runs N]
Prints one line per world: areas, objects, NPC instances, median and spread of World.generate in ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from agentodyssey_pz.resources import bundled_world_names, resolve_world_file
from agentodyssey_pz.world.procgen import PRESETS, generate_definition
from agentodyssey_pz.world.validate import load_definition, parse_definition
from agentodyssey_pz.world.world import World


def time_generate(definition, runs: int) -> tuple[float, float, World]:
    samples = []
    world = None
    for seed in range(runs):
        started = time.perf_counter()
        world = World.generate(definition, seed)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), max(samples) - min(samples), world


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    rows = [(name, load_definition(resolve_world_file(name))) for name in bundled_world_names()]
    rows += [(f"preset:{p}", parse_definition(generate_definition(p, 0))) for p in PRESETS]
    print(
        f"{'world':18} {'areas':>6} {'objects':>8} {'npcs':>6} {'median ms':>10} {'spread ms':>10}"
    )
    for name, definition in rows:
        median, spread, world = time_generate(definition, args.runs)
        print(
            f"{name:18} {len(world.areas):6d} {len(world.objects):8d} {len(world.npcs):6d} "
            f"{median:10.2f} {spread:10.2f}"
        )


if __name__ == "__main__":
    main()
