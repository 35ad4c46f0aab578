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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agentodyssey_pz.evaluate import EvalConfig, run_episode
from agentodyssey_pz.viewer import write_pages

POLICIES = "explorer,crafter,fighter,trader,random,wait"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
TARGET_BYTES, TARGET_SECONDS = 3_000_000, 2.0


@contextmanager
def headless_chromium(width: int = 1366, height: int = 768) -> Iterator[Any]:
    """A Selenium session of the system's Chromium and chromedriver (found on PATH)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    names = ("chromium", "chromium-browser", "google-chrome")
    browser = next(filter(None, map(shutil.which, names)), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        raise SystemExit(
            "needs chromium and chromedriver (apt-get install chromium chromium-driver)"
        )
    profile = tempfile.mkdtemp(prefix="viewer-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*CHROMIUM_FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield session
    finally:
        session.quit()
        shutil.rmtree(profile, ignore_errors=True)


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
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
