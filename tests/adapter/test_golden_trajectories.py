"""Recorded trajectories: the env plays exactly as it did when they were recorded.

Speed work must not change behaviour. Each case plays masked random actions (`rollouts.
run_trajectory`: seed 7, action seed 3, a garbage command every 7th tick) and compares the digest
of every tick (observations, rewards, terminations, truncations, infos, bit for bit) with the one
recorded in `tests/data/golden/trajectories.json`. The cases cover every bundled world with and
without the tutorial, 1 to 64 agents, the vector, text and text-only observations and text
actions. After an intended change of behaviour, record them again with
`AGENTODYSSEY_UPDATE_GOLDEN=1 pytest tests/adapter/test_golden_trajectories.py` and say why in the
commit.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from adapter.rollouts import run_trajectory, tick_digests
from harness import DATA

GOLDEN = DATA / "golden" / "trajectories.json"
UPDATE = os.environ.get("AGENTODYSSEY_UPDATE_GOLDEN") == "1"
DIGEST_CHARS = 16  # per tick: enough to tell any change, small enough to keep in the repository

CASES: dict[str, tuple[str, int, dict[str, Any]]] = {
    **{
        f"{world}-text": (world, 300, {"obs_mode": "text", "tutorial": False})
        for world in ("thornvale", "glasswick", "cinderdeep")
    },
    **{
        f"{world}-tutorial": (world, 150, {"tutorial": True})
        for world in ("thornvale", "glasswick", "cinderdeep")
    },
    "thornvale-1-agent": ("thornvale", 300, {"num_agents": 1, "tutorial": False}),
    "thornvale-16-agents-text": (
        "thornvale", 100, {"num_agents": 16, "obs_mode": "text", "tutorial": False}
    ),
    "thornvale-64-agents": ("thornvale", 40, {"num_agents": 64, "tutorial": False}),
    "thornvale-64-agents-text-only": (
        "thornvale", 30,
        {"num_agents": 64, "obs_mode": "text_only", "valid_actions_in_info": True,
         "tutorial": False},
    ),
    "thornvale-text-actions": (
        "thornvale", 200,
        {"obs_mode": "text", "action_mode": "text", "valid_actions_in_info": True,
         "tutorial": False},
    ),
}  # fmt: skip


def digests(case: str) -> list[str]:
    world, ticks, settings = CASES[case]
    trajectory = run_trajectory(world, 7, ticks, action_seed=3, **settings)
    return [d[:DIGEST_CHARS] for d in tick_digests(trajectory)]


def recorded() -> dict[str, list[str]]:
    return json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}


@pytest.mark.parametrize("case", CASES)
def test_the_env_plays_as_recorded(case: str) -> None:
    got = digests(case)
    if UPDATE:
        record = recorded()
        record[case] = got
        GOLDEN.write_text(json.dumps(dict(sorted(record.items())), indent=0) + "\n", "utf-8")
        pytest.skip("recorded again")
    want = recorded().get(case)
    assert want is not None, f"{case}: not recorded (AGENTODYSSEY_UPDATE_GOLDEN=1 records it)"
    assert len(got) == len(want), f"{case}: {len(got)} ticks played, {len(want)} recorded"
    first = next((t for t, (a, b) in enumerate(zip(got, want, strict=True)) if a != b), None)
    assert first is None, f"{case}: tick {first} differs from the recording (tick 0 is the reset)"


def test_every_recorded_case_is_still_played() -> None:
    assert set(recorded()) == set(CASES)
