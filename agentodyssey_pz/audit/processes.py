"""The audit's check across processes: the walk played again in another Python process, whose
string hashes differ (PYTHONHASHSEED), must give the same game at every tick.

Sits on top, with the rest of `agentodyssey_pz.audit`. A rule whose outcome follows the order of a
set of strings (or of anything hashed by value) plays alike within one process, where the replay
check cannot see it, and differently in the next one: a training run could not be reproduced, nor a
checkpoint resumed elsewhere exactly. Run as `python -m agentodyssey_pz.audit.processes`, this
module is the other process: it reads the walk (env settings, seeds, actions) as JSON on standard
input and writes the state hash after every tick, or the whole state of one tick, as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import agentodyssey_pz
from agentodyssey_pz.audit.continuity import first_difference
from agentodyssey_pz.audit.report import PROCESSES, Findings
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import game_state_data, state_hash
from agentodyssey_pz.errors import RulePackError

WORKER_TIMEOUT = 1800  # seconds: a long walk of a large world, on a slow machine


def play_walk(walk: dict[str, Any]) -> Iterator[Game]:
    """The walk's game after its reset (tick 0) and after each of its ticks: its env made from
    `walk["env"]`, reset with `walk["seed"]`, stepped with `walk["actions"]` (per tick, agent ->
    catalogue index) and reset again at the ticks `walk["resets"]` names, with the seeds it
    gives."""
    env = agentodyssey_pz.parallel_env(**walk["env"])
    env.reset(seed=walk["seed"])
    yield env.game
    resets = {int(tick): seed for tick, seed in walk["resets"].items()}
    for tick, actions in enumerate(walk["actions"], 1):
        env.step(actions)
        if tick in resets:
            env.reset(seed=resets[tick])
        yield env.game


def other_process(walk: dict[str, Any], dump_at: int | None = None) -> Any:
    """Play the walk in a new Python process with other string hashes: its state hash after every
    tick, or (with `dump_at`) its whole state after that tick."""
    mine = os.environ.get("PYTHONHASHSEED", "random")
    env = {**os.environ, "PYTHONHASHSEED": "2" if mine == "1" else "1"}
    request = json.dumps({"walk": walk, "dump_at": dump_at})
    try:
        done = subprocess.run(
            [sys.executable, "-m", "agentodyssey_pz.audit.processes"],
            input=request, capture_output=True, text=True, env=env, timeout=WORKER_TIMEOUT,
            check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        raise RulePackError(
            f"the replay in another process took more than {WORKER_TIMEOUT} s; "
            "--no-other-process skips it"
        ) from exc
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(nothing on its standard error)"])[-1]
        raise RulePackError(f"the replay in another process failed: {last}")
    return json.loads(done.stdout)


def check_other_process(walk: dict[str, Any], hashes: list[str], findings: Findings) -> None:
    """Compare the walk's state hashes (`hashes[t]` after tick t, 0 the reset) with another
    process's; at the first difference, name the path where the states differ."""
    theirs = other_process(walk)
    for tick, (mine, other) in enumerate(zip(hashes, theirs, strict=True)):
        if mine != other:
            # Both as JSON gives them (tuples as lists, keys as strings), to compare alike.
            here = next(plain_state(g) for t, g in enumerate(play_walk(walk)) if t == tick)
            there = other_process(walk, dump_at=tick)
            where = first_difference(here, there) or "(the states differ)"
            findings.add(
                PROCESSES,
                "",
                f"{'the reset' if tick == 0 else f'tick {tick}'}: the same walk in another "
                f"process (other string hashes) differs at {where}; does a rule follow the order "
                "of a set?",
            )
            return


def plain_state(game: Game) -> Any:
    return json.loads(json.dumps(game_state_data(game)))


def main() -> None:
    request = json.loads(sys.stdin.read())
    walk, dump_at = request["walk"], request["dump_at"]
    if dump_at is None:
        json.dump([state_hash(game) for game in play_walk(walk)], sys.stdout)
        return
    for tick, game in enumerate(play_walk(walk)):
        if tick == dump_at:
            json.dump(plain_state(game), sys.stdout)
            return


if __name__ == "__main__":
    main()
