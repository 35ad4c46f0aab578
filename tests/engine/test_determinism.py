"""Determinism: same world, seed and actions -> same trajectory, tick by tick and across processes.

Three agents play 2,000 ticks of a seeded random mix of listed valid commands and garbage. Two games
are compared at every tick (text observations, reward breakdowns, invalid / action_ok flags, events,
termination) by `first_difference`, which names the first differing tick, agent and field, and at
the end by the canonical state hash. A second process (with another PYTHONHASHSEED) must reach the
same digest and hash.

Run as a script (`python test_determinism.py <world> <seed> <ticks>`) it prints that process's
digest and hash as JSON; it imports only the package, so it runs without the test harness.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import canonical_json, state_hash
from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.observe.text import tick_observation

WORLD = "default"
AGENTS = 3
TICKS = 2000
SUBPROCESS_TICKS = 600
VALID_SHARE = 0.85  # the rest are garbage commands
GARBAGE: tuple[Any, ...] = (
    None, "", "   ", "dance", "pick up", "wait now", 'write "unclosed', "ENTER nowhere",
    "take out", "craft -1 nothing", "attack", "\u00dfpick up \u00e9l\u00e8ve", 7,
)  # fmt: skip

Record = dict[str, Any]  # one tick: {"tick", "terminated", "agents": {id: {field: value}}}


def choose(game: Game, agent_id: str, rng: random.Random) -> Any:
    if rng.random() < VALID_SHARE:
        commands = [c for cs in valid_actions(game, agent_id).values() for c in cs]
        return rng.choice(commands)
    return rng.choice(GARBAGE)


def record(game: Game, result: Any) -> Record:
    agents = {
        aid: {
            "text": tick_observation(
                game,
                aid,
                result.feedback(aid),
                bootstrap=result.bootstrap,
                terminated=result.terminated,
            ),
            "reward": result.rewards[aid].as_dict(),
            "invalid": result.invalid[aid],
            "action_ok": result.action_ok[aid],
        }
        for aid in game.agent_ids
    }
    events = [[e.type, e.agent_id, e.data] for e in result.events]
    return {
        "tick": result.tick,
        "terminated": result.terminated,
        "events": events,
        "agents": agents,
    }


def play(world: str, seed: int, ticks: int, action_seed: int = 99) -> Iterator[Record]:
    """Yield the bootstrap record, then one per tick; the last item is the final state hash."""
    game = Game(world, AGENTS)
    yield record(game, game.reset(seed))
    rng = random.Random(action_seed)
    for _ in range(ticks):
        result = game.tick({aid: choose(game, aid, rng) for aid in game.agent_ids})
        yield record(game, result)
        if result.terminated:
            break
    yield {"state_hash": state_hash(game)}


def run(world: str, seed: int, ticks: int, action_seed: int = 99) -> tuple[list[Record], str]:
    *records, final = play(world, seed, ticks, action_seed)
    return records, final["state_hash"]


def first_difference(a: list[Record], b: list[Record]) -> str | None:
    """A message naming the first tick (and agent and field) where two trajectories differ."""
    for ra, rb in zip(a, b, strict=False):  # unequal lengths reported below
        tick = ra["tick"]
        if rb["tick"] != tick or rb["terminated"] != ra["terminated"]:
            return f"tick {tick}: tick index or termination differs"
        if ra.get("events") != rb.get("events"):
            return f"tick {tick}: events differ"
        for aid in sorted(set(ra["agents"]) | set(rb["agents"])):
            fa, fb = ra["agents"].get(aid), rb["agents"].get(aid)
            if fa is None or fb is None:
                return f"tick {tick}, {aid}: present in only one trajectory"
            for field in sorted(set(fa) | set(fb)):
                if fa.get(field) != fb.get(field):
                    va, vb = fa.get(field), fb.get(field)
                    return f"tick {tick}, {aid}: {field} differs: {va!r} != {vb!r}"
    if len(a) != len(b):
        return (
            f"tick {min(len(a), len(b))}: one trajectory ends there ({len(a)} vs {len(b)} records)"
        )
    return None


def digest(records: list[Record]) -> str:
    return hashlib.sha256(canonical_json(records).encode("utf-8")).hexdigest()


# ------------------------------------------------------------------------------ the helper
def test_first_difference_names_the_tick_agent_and_field() -> None:
    def rec(tick: int, text: str, reward: int = 0) -> Record:
        agents = {
            "agent_0": {"text": "x", "reward": 0},
            "agent_1": {"text": text, "reward": reward},
        }
        return {"tick": tick, "terminated": False, "agents": agents}

    base = [rec(0, "a"), rec(1, "b"), rec(2, "c")]
    assert first_difference(base, [rec(0, "a"), rec(1, "b"), rec(2, "c")]) is None
    assert first_difference(base, [rec(0, "a"), rec(1, "B"), rec(2, "C")]) == (
        "tick 1, agent_1: text differs: 'b' != 'B'"
    )
    assert first_difference(base, [rec(0, "a"), rec(1, "b"), rec(2, "c", reward=1)]) == (
        "tick 2, agent_1: reward differs: 0 != 1"
    )
    assert first_difference(base, base[:2]) == "tick 2: one trajectory ends there (3 vs 2 records)"
    ended = [rec(0, "a"), {**rec(1, "b"), "terminated": True}]
    assert first_difference(base, ended) == "tick 1: tick index or termination differs"
    noisy = [rec(0, "a"), rec(1, "b"), {**rec(2, "c"), "events": [["agent_died", "agent_1", {}]]}]
    assert first_difference(base, noisy) == "tick 2: events differ"


# ------------------------------------------------------------------------------ one process
def test_same_seed_and_actions_give_the_same_trajectory_for_2000_ticks() -> None:
    first, first_hash = run(WORLD, 5, TICKS)
    second, second_hash = run(WORLD, 5, TICKS)
    assert len(first) == TICKS + 1  # bootstrap + every tick (no termination by random play)
    assert first_difference(first, second) is None
    assert first_hash == second_hash
    # The run exercised what it claims to: garbage, accepted commands and rewards all occurred.
    flags = [f for r in first[1:] for f in r["agents"].values()]
    assert sum(f["invalid"] for f in flags) > 0.1 * len(flags)
    assert sum(f["action_ok"] for f in flags) > 0.5 * len(flags)
    assert sum(f["reward"]["exploration"] for f in flags) >= 3


def test_a_different_seed_gives_a_different_trajectory() -> None:
    base, base_hash = run(WORLD, 5, 50)
    other_world, other_world_hash = run(WORLD, 6, 50)
    assert first_difference(base, other_world) is not None
    assert base_hash != other_world_hash
    other_actions, other_actions_hash = run(WORLD, 5, 50, action_seed=100)
    assert first_difference(base, other_actions) is not None
    assert base_hash != other_actions_hash


# ------------------------------------------------------------------------------ two processes
def in_subprocess(hash_seed: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, __file__, WORLD, "5", str(SUBPROCESS_TICKS)],
        env=env, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return json.loads(out.stdout)


def test_another_process_with_another_hash_seed_gives_the_same_trajectory() -> None:
    records, final = run(WORLD, 5, SUBPROCESS_TICKS)
    here = {"digest": digest(records), "state_hash": final}
    assert in_subprocess("1") == here
    assert in_subprocess("4242") == here


def main(argv: list[str]) -> None:
    world, seed, ticks = argv[0], int(argv[1]), int(argv[2])
    records, final = run(world, seed, ticks)
    print(json.dumps({"digest": digest(records), "state_hash": final}))


if __name__ == "__main__":
    main(sys.argv[1:])
