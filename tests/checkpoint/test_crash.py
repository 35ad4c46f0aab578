"""A game killed with SIGKILL resumes to exactly the uninterrupted game.

`crash_worker.py` plays in a subprocess with automatic checkpointing (a snapshot every 50 ticks, a
journal line every tick) and an action stream that is a deterministic function of (seed, tick).
The test watches the journal grow and kills the worker once it has passed a chosen tick (several
trials, different ticks on both sides of snapshot boundaries); it then resumes the folder here,
plays on with the same action stream to a fixed final tick and compares the canonical state hash
with an uninterrupted run's.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from checkpoint.crash_worker import AGENTS, play_until

from agentodyssey_pz.checkpoint import resume
from agentodyssey_pz.checkpoint.journal import CheckpointWarning, parse_header
from agentodyssey_pz.checkpoint.store import journal_path, journal_ticks
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")

WORKER = Path(__file__).with_name("crash_worker.py")
WORLD = "default"
SEED = 21
SNAPSHOT_EVERY = 50
FINAL_TICK = 450
WORKER_LAST_TICK = 100_000  # the worker never gets there: it is killed first
# Kill once the journal has passed these ticks: before, on and after snapshot boundaries.
KILL_AFTER = (73, 150, 199, 327)
POLL_SECONDS = 0.002
DEADLINE_SECONDS = 120  # only against a hung worker; all trials take a few seconds


def journaled_tick(folder: Path) -> int:
    """Ticks the worker has journaled so far: the newest segment's start plus its full lines."""
    ticks = journal_ticks(folder)
    if not ticks:
        return -1
    newest = ticks[-1]
    try:
        data = journal_path(folder, newest).read_bytes()
    except FileNotFoundError:  # pruned between listing and reading
        return -1
    lines = data.count(b"\n")
    header = lines and parse_header(data.split(b"\n", 1)[0].decode("utf-8", "replace"))
    return newest + lines - (1 if header else 0)  # the first line names the snapshot


def start_worker(folder: Path) -> subprocess.Popen[bytes]:
    args = [folder, WORLD, SEED, WORKER_LAST_TICK, SNAPSHOT_EVERY]
    return subprocess.Popen(
        [sys.executable, str(WORKER), *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


@pytest.fixture(scope="module")
def killed_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, int]]:
    """All trials at once (the workers start in parallel): kill target -> (folder, the journaled
    tick when the worker was killed). Each worker is watched through its journal and killed
    with SIGKILL as soon as it has passed its target."""
    root = tmp_path_factory.mktemp("crash")
    running = {k: (root / f"kill-after-{k}", None) for k in KILL_AFTER}
    procs = {k: start_worker(folder) for k, (folder, _) in running.items()}
    killed: dict[int, tuple[Path, int]] = {}
    try:
        deadline = time.monotonic() + DEADLINE_SECONDS
        while len(killed) < len(procs):
            for target, proc in procs.items():
                folder = running[target][0]
                if target in killed or journaled_tick(folder) < target:
                    if target not in killed and proc.poll() is not None:
                        err = proc.stderr.read().decode() if proc.stderr else ""
                        pytest.fail(f"the worker ended before tick {target}:\n{err}")
                    continue
                kill(proc)
                assert proc.returncode == -signal.SIGKILL
                killed[target] = (folder, journaled_tick(folder))
            if time.monotonic() > deadline:
                pytest.fail("a worker made no progress")
            time.sleep(POLL_SECONDS)  # polling the journals, not waiting blindly
    finally:
        for proc in procs.values():
            kill(proc)
    return killed


@pytest.fixture(scope="module")
def uninterrupted_hash() -> str:
    game = Game(WORLD, AGENTS)
    game.reset(SEED)
    play_until(game, SEED, FINAL_TICK)
    assert game.tick_index == FINAL_TICK
    return state_hash(game)


@pytest.mark.parametrize("kill_after", KILL_AFTER)
def test_a_killed_game_resumes_to_the_uninterrupted_game(
    kill_after: int, killed_runs: dict[int, tuple[Path, int]], uninterrupted_hash: str
) -> None:
    folder, killed_at = killed_runs[kill_after]
    assert kill_after <= killed_at < FINAL_TICK
    with warnings.catch_warnings():
        # A line torn by the kill is dropped with a CheckpointWarning; that is allowed here.
        warnings.simplefilter("ignore", CheckpointWarning)
        game = resume(folder, WORLD, snapshot_every=None)
    # Every whole journal line was with the operating system before the kill: none is lost.
    assert game.tick_index == killed_at
    play_until(game, SEED, FINAL_TICK)
    assert game.tick_index == FINAL_TICK
    assert state_hash(game) == uninterrupted_hash


def test_the_journal_watch_counts_whole_lines_across_segments(tmp_path: Path) -> None:
    assert journaled_tick(tmp_path) == -1
    journal_path(tmp_path, 0).write_text("a\nb\n")
    journal_path(tmp_path, 50).write_text("c\nd\npartial")
    assert journaled_tick(tmp_path) == 52
