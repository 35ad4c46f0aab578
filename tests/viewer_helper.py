"""Runs for the viewer's tests: a small evaluation, a hostile one, a checkpoint folder.

Each is made once per test session (they replay in well under a second each)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from agentodyssey_pz.evaluate import EvalConfig, run_episode
from agentodyssey_pz.evaluate.trajectory import read_trajectory

# What a run may hold that a page must show as text and never run.
HOSTILE = [
    "</script><script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 1">',
    '" \' ` \\" &amp; &lt; <!-- --> <![CDATA[ ]]>',
    "control \x00\x01\x07\x1b[31m\x7f characters \u2028 line \u2029 separators",
    "<svg onload=window.__pwned=1>",
    "javascript:window.__pwned=1",
]
LONG_LINE = "x" * 100_000
# A lone surrogate: JSON logs can hold one ("\\ud800"); it is written into the log afterwards, as
# the trajectory writer cannot encode one (a policy answering one stops the evaluation).
LONE_SURROGATE = "lone \ud800 surrogate"


class HostilePolicy:
    """Types hostile text as its command, every tick."""

    name = "hostile"

    def __init__(self) -> None:
        self.turn = 0

    def __call__(self, observation: Any, info: Any) -> str:
        self.turn += 1
        return HOSTILE[self.turn % len(HOSTILE)]


def play_episode(trajectories: Path, **config: Any) -> None:
    """Episode 0 of a one-episode evaluation, its log written into `trajectories`."""
    run_episode(EvalConfig(episodes=1, trajectory_dir=str(trajectories), **config), 0)


def small_evaluation(folder: Path, *, steps: int = 30, agents: int = 3) -> Path:
    """An evaluation-like folder (trajectories/episode-0000.jsonl) of scripted policies."""
    play_episode(
        folder / "trajectories",
        steps=steps,
        num_agents=agents,
        policies=("explorer", "crafter", "random"),
        seed=4,
    )
    (folder / "report.json").write_text("{}\n", encoding="utf-8")
    return folder


def tracked_evaluation(folder: Path, *, steps: int = 24) -> Path:
    """An evaluation folder of a run with dependency tracking on (crafts that use pick-ups)."""
    play_episode(
        folder / "trajectories",
        steps=steps,
        num_agents=2,
        policies=("crafter", "explorer"),
        seed=4,
        env={"track_dependencies": True},
    )
    return folder


def hostile_log(folder: Path, *, steps: int = 12) -> Path:
    """A log played by the hostile policy beside a scripted one, then given hostile feedback,
    a hostile language-model record and a 100,000-character line (replays only read actions)."""
    play_episode(folder, steps=steps, num_agents=2, policies=(HostilePolicy, "explorer"), seed=1)
    path = folder / "episode-0000.jsonl"
    header, steps_ = read_trajectory(path)
    for record in steps_:
        tick, agent = record["tick"], record["agent"]
        text = HOSTILE[tick % len(HOSTILE)]
        long = tick == 3 and agent == "agent_0"
        record["feedback"] = f"{text}\n{LONG_LINE if long else text}"
        if tick == 4 and agent == "agent_1":
            record["feedback"] += "\n" + LONE_SURROGATE
        if agent == "agent_0":
            record["llm"] = {
                "input_tokens": 12,
                "output_tokens": 5,
                "format_error": tick % 2 == 0,
                "reasked": False,
                "waited": None,
                "cost": None,
                "reasoning": text,
                "calls": [
                    {
                        "purpose": "act",
                        "messages": [{"role": "user", "content": text}],
                        "response": text,
                        "error": None,
                    }
                ],
            }
    header["policies"] = {a: HOSTILE[0] for a in header["policies"]}
    lines = [json.dumps(header), *(json.dumps(r) for r in steps_)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def checkpoint_run(folder: Path, *, ticks: int = 130, agents: int = 2) -> Path:
    """A checkpoint episode folder (it keeps the snapshots of ticks 0 and 100) of random
    valid discrete actions."""
    import numpy as np

    import agentodyssey_pz

    env = agentodyssey_pz.parallel_env(
        world="default", num_agents=agents, max_cycles=ticks, checkpoint_dir=str(folder)
    )
    observations, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)
    while env.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()
        }
        observations, *_ = env.step(actions)
    env.close()
    return folder / "episode-00001"


# ---------------------------------------------------------------------------- reading pages
DATA_OPEN = '<script type="application/json" id="run-data">'


class Elements(HTMLParser):
    """Every start tag and its attributes, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, Any]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def embedded(html: str) -> Any:
    start = html.index(DATA_OPEN) + len(DATA_OPEN)
    return json.loads(html[start : html.index("</script>", start)])


def expanding_evaluation(folder: Path, *, steps: int = 150) -> Path:
    """A run whose world grows: explorers on the small procedural world with world expansion
    (it adds areas after the tick the world is fully explored, about tick 60 here)."""
    play_episode(
        folder / "trajectories",
        world="procgen:small",
        steps=steps,
        num_agents=3,
        policies=("explorer",),
        seed=1,
        env={"world_expansion": True},
    )
    return folder


# Names from a world file (area names may hold no whitespace: they are command parameters).
HOSTILE_AREA_NAMES = [
    "</script><script>window.__pwned=1</script>",
    "<img/src=x/onerror=window.__pwned=1>",
    "\"'&amp;<b>bold</b>",
    "<svg/onload=window.__pwned=1>",
]
HOSTILE_KEY_NAME = "<i/onmouseover=window.__pwned=1>key"


def hostile_world_run(folder: Path, *, steps: int = 15) -> Path:
    """An evaluation folder of random agents in tests/data/tiny_world.json renamed with hostile
    place, area and key names."""
    world = json.loads((Path(__file__).parent / "data" / "tiny_world.json").read_text())
    names = iter(HOSTILE_AREA_NAMES)
    for n, place in enumerate(world["entities"]["places"]):
        place["name"] = HOSTILE[n]
        for area in place["areas"]:
            area["name"] = next(names)
    for obj in world["entities"]["objects"]:
        if obj["id"] == "obj_key":
            obj["name"] = HOSTILE_KEY_NAME
    path = folder / "hostile_world.json"
    path.write_text(json.dumps(world), encoding="utf-8")
    play_episode(
        folder / "trajectories",
        world=str(path),
        steps=steps,
        num_agents=2,
        policies=("random",),
        seed=0,
    )
    return folder
