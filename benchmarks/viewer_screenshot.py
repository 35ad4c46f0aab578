"""The README's and docs' picture of the replay viewer: docs/images/viewer.png.

Usage: python benchmarks/viewer_screenshot.py [-o docs/images/viewer.png] [--tick 120]
                                              [--agent agent_4] [--width 1366] [--height 768]

Plays one evaluation episode (the default world, 6 agents with the six default policies, seed 0,
200 ticks), writes its viewer page, opens it in headless Chromium (the system's, as
bench_viewer.py does) at `#t=<tick>&a=<agent>` on a laptop-sized window and saves a screenshot.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from bench_viewer import open_and_wait

from agentodyssey_pz.evaluate import DEFAULT_POLICIES, EvalConfig, run_episode
from agentodyssey_pz.viewer import write_pages
from agentodyssey_pz.viewer.browser import headless_chromium

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-o", "--output", type=Path, default=ROOT / "docs" / "images" / "viewer.png"
    )
    parser.add_argument("--tick", type=int, default=120)
    parser.add_argument("--agent", default="agent_4")
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=768)
    args = parser.parse_args()
    temporary = Path(tempfile.mkdtemp(prefix="viewer-shot-"))
    args.output = args.output.resolve()
    here = os.getcwd()
    try:
        os.chdir(temporary)  # the page names its log as given: evaluation/trajectories/...
        folder = Path("evaluation")
        config = EvalConfig(episodes=1, steps=200, num_agents=6, policies=DEFAULT_POLICIES,
                            seed=0, trajectory_dir=str(folder / "trajectories"))  # fmt: skip
        run_episode(config, 0)
        (page,) = write_pages(folder)
        page = page.resolve()
        args.output.parent.mkdir(parents=True, exist_ok=True)
        with headless_chromium(args.width, args.height) as session:
            open_and_wait(session, f"{page.as_uri()}#t={args.tick}&a={args.agent}")
            session.save_screenshot(str(args.output))
        print(f"wrote {args.output}")
    finally:
        os.chdir(here)
        shutil.rmtree(temporary, ignore_errors=True)


if __name__ == "__main__":
    main()
