"""The replay viewer's page of a 6-agent, 1,000-tick episode: its size, the time to build it, and
the time it takes to open in headless Chromium.

Usage: python benchmarks/bench_viewer.py [--agents N] [--steps N] [--runs N] [--world NAME]
                                         [--policies a,b,...] [--keep FOLDER]

Plays one evaluation episode (the default policies less the quester, whose finished quest would
end the episode early; `--policies` to choose), writes its trajectory log, then builds the page
(`agentodyssey_pz.viewer.write_pages`: the replay, the deltas, the HTML) `--runs` times and opens
it `--runs` times in a fresh headless Chromium (the distribution's, through its chromedriver;
nothing is downloaded). The load time is the page's own clock (`performance.now()`, counted from
the start of navigation) when its script has built the whole view (`data-ready`); medians are
printed. The issue's targets: under 3 MB and under 2 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from agentodyssey_pz.evaluate import EvalConfig, run_episode
from agentodyssey_pz.viewer import write_pages
from agentodyssey_pz.viewer.browser import INSTALL_HINT, BrowserUnavailable, headless_chromium

POLICIES = "explorer,crafter,fighter,trader,random,wait"
TARGET_BYTES, TARGET_SECONDS = 3_000_000, 2.0


def open_and_wait(session: Any, url: str) -> float:
    """Open a page; the seconds from navigation to its view being built (the page's clock)."""
    session.get(url)
    for _ in range(1000):
        ready = session.execute_script("return document.body.getAttribute('data-ready-ms')")
        if ready is not None:
            return float(ready) / 1000
        time.sleep(0.01)
    raise RuntimeError(f"{url} never finished loading")


def play(folder: Path, args: argparse.Namespace) -> Path:
    config = EvalConfig(
        world=args.world,
        episodes=1,
        steps=args.steps,
        num_agents=args.agents,
        policies=tuple(args.policies.split(",")),
        seed=args.seed,
        trajectory_dir=str(folder / "trajectories"),
    )
    result = run_episode(config, 0)
    print(f"episode: {args.world}, {args.agents} agents, {result['ticks']:,} ticks "
          f"({args.policies})")  # fmt: skip
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=6)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--world", default="default")
    parser.add_argument("--policies", default=POLICIES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, default=None, help="write the run and page here")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    try:
        play(folder, args)
        log = folder / "trajectories" / "episode-0000.jsonl"
        builds = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            pages = write_pages(folder)
            builds.append(time.perf_counter() - t0)
        size = sum(p.stat().st_size for p in pages)
        print(f"log: {log.stat().st_size / 1e6:.2f} MB")
        print(f"page: {size / 1e6:.2f} MB in {len(pages)} file(s) "
              f"({'under' if size < TARGET_BYTES else 'OVER'} the 3 MB target)")  # fmt: skip
        print(f"build (replay, deltas, HTML): median {statistics.median(builds):.2f} s "
              f"of {args.runs}")  # fmt: skip
        loads = []
        for _ in range(args.runs):
            with headless_chromium() as session:
                loads.append(open_and_wait(session, pages[0].as_uri()))
        median = statistics.median(loads)
        print(f"open in headless Chromium: median {median:.2f} s (min {min(loads):.2f}, max "
              f"{max(loads):.2f}) of {args.runs}, a fresh browser each "
              f"({'under' if median < TARGET_SECONDS else 'OVER'} the 2 s target)")  # fmt: skip
        if args.keep:
            print(f"page: {pages[0]}")
    except BrowserUnavailable as exc:
        raise SystemExit(
            f"bench_viewer needs a headless Chromium: {exc} ({INSTALL_HINT})"
        ) from None
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
