"""The checkpoint folder: snapshots every K ticks, a journal segment after each, and resuming.

Layout: `snapshot-<tick>.json` (atomic writes) and `journal-<tick>.jsonl` (the ticks after that
snapshot). The two newest snapshots and their journals are kept, so a damaged newest snapshot falls
back to the one before it, whose journal then replays up to the present. Resuming loads the newest
readable snapshot and replays its journal(s): the result is the uninterrupted game, bit for bit
(the journal holds every action; everything random comes from generators saved in the snapshot).
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agentodyssey_pz.checkpoint.journal import (
    CheckpointWarning,
    JournalWriter,
    decode_action,
    format_header,
    journal_header,
    read_journal,
)
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.engine.snapshot import snapshot_text, write_atomically
from agentodyssey_pz.errors import CheckpointError

SNAPSHOT = re.compile(r"^snapshot-(\d+)\.json$")
JOURNAL = re.compile(r"^journal-(\d+)\.jsonl$")
KEEP_SNAPSHOTS = 2


def snapshot_path(folder: Path, tick: int) -> Path:
    return folder / f"snapshot-{tick:09d}.json"


def journal_path(folder: Path, tick: int) -> Path:
    return folder / f"journal-{tick:09d}.jsonl"


def snapshot_ticks(folder: Path) -> list[int]:
    """Ticks of the snapshots in a folder, newest first."""
    return _ticks(folder, SNAPSHOT)


def journal_ticks(folder: Path) -> list[int]:
    return sorted(_ticks(folder, JOURNAL))


def _ticks(folder: Path, pattern: re.Pattern[str]) -> list[int]:
    if not folder.is_dir():
        return []
    found = [int(m.group(1)) for p in folder.iterdir() if (m := pattern.match(p.name))]
    return sorted(found, reverse=True)


class CheckpointWriter:
    """Attached to a game: journals every tick, snapshots every `snapshot_every` ticks.

    Everything happens on the caller's thread. A background writer thread was tried and measured
    slower: while another thread lives, every system call that releases the interpreter lock (one
    journal write per tick) costs several times more, which outweighs the fsync it would hide
    (about a millisecond, once per `snapshot_every` ticks). A snapshot is on disk before the
    files it makes redundant are pruned, so the snapshots and journals present always cover every
    tick."""

    def __init__(
        self,
        game: Game,
        folder: str | os.PathLike[str],
        snapshot_every: int = 100,
        *,
        continuing: bool = False,
    ) -> None:
        """`continuing`: the game was resumed from this folder and goes on in it; otherwise the
        folder must hold no checkpointed run (its files would be mistaken for this one's)."""
        if snapshot_every <= 0:
            raise ValueError(f"snapshot_every must be positive, got {snapshot_every}")
        self.game = game
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.snapshot_every = snapshot_every
        # The folder is listed once; from then on this writer knows what it has put there.
        self._snapshots = sorted(snapshot_ticks(self.folder))
        self._journals = journal_ticks(self.folder)
        if continuing:  # what a process killed while writing a snapshot left behind
            for leftover in self.folder.glob(".snapshot-*.json.*.tmp"):
                leftover.unlink(missing_ok=True)
        elif self._snapshots or self._journals:
            raise CheckpointError(
                f"{self.folder} already holds a checkpointed run "
                f"({len(self._snapshots)} snapshot(s), {len(self._journals)} journal(s)); "
                "journal a new run into an empty folder, or resume that one"
            )
        self._journal: JournalWriter | None = None
        self.snapshot()
        game.recorder = self

    def snapshot(self) -> None:
        """A snapshot of now, a fresh journal segment after it (headed by the snapshot's
        digest), and old files pruned."""
        tick = self.game.tick_index
        text = snapshot_text(self.game).encode("utf-8")
        write_atomically(snapshot_path(self.folder, tick), text)
        if self._journal is not None:
            self._journal.close()
        header = format_header(hashlib.sha256(text).hexdigest())
        self._journal = JournalWriter(journal_path(self.folder, tick), header)
        for path in self._forget_stale(tick):
            path.unlink(missing_ok=True)

    def _forget_stale(self, tick: int) -> list[Path]:
        """The files made redundant by snapshot `tick`: all but the newest `KEEP_SNAPSHOTS`
        snapshots, and the journals older than the oldest snapshot kept."""
        for known in (self._snapshots, self._journals):
            if tick not in known:
                known.append(tick)
                known.sort()
        stale = [snapshot_path(self.folder, t) for t in self._snapshots[:-KEEP_SNAPSHOTS]]
        self._snapshots = self._snapshots[-KEEP_SNAPSHOTS:]
        oldest_kept = self._snapshots[0]
        stale += [journal_path(self.folder, t) for t in self._journals if t < oldest_kept]
        self._journals = [t for t in self._journals if t >= oldest_kept]
        return stale

    def record(self, actions: Mapping[str, Any], result: TickResult) -> None:
        """Called by the game after each tick."""
        assert self._journal is not None
        self._journal.append(result.tick, actions)
        if result.tick % self.snapshot_every == 0 and not result.terminated:
            self.snapshot()

    def close(self) -> None:
        """Stop journaling (every line and snapshot is already with the OS)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if self.game.recorder is self:
            self.game.recorder = None


def resume(
    folder: str | os.PathLike[str],
    world: Any = None,
    *,
    rule_packs: Sequence[str] = (),
    reward_function: Any = None,
    snapshot_every: int | None = 100,
    tracker_factory: Any = None,
    expansion_generator: Any = None,
) -> Game:
    """Rebuild the game saved in a checkpoint folder and replay its journal.

    With `snapshot_every`, journaling continues in the same folder (a fresh snapshot first). Code
    the game was given (rule packs, reward function, tracker factory, expansion generator) is
    named again here, as for `Game.load`."""
    folder = Path(folder)
    ticks = snapshot_ticks(folder)
    if not ticks:
        raise CheckpointError(f"{folder}: no snapshot found (expected snapshot-<tick>.json files)")
    code = {
        "rule_packs": rule_packs,
        "reward_function": reward_function,
        "tracker_factory": tracker_factory,
        "expansion_generator": expansion_generator,
    }
    game, start = _newest_loadable(folder, ticks, world, code)
    for tick in (t for t in journal_ticks(folder) if t >= start):
        path = journal_path(folder, tick)
        if tick == start and not _follows(path, snapshot_path(folder, start)):
            warnings.warn(
                f"{path} follows another snapshot than {snapshot_path(folder, start).name} (a "
                f"file of another run?); it is not replayed: the game resumes at tick {start}",
                CheckpointWarning,
                stacklevel=2,
            )
            break
        for record in read_journal(path):
            if record["t"] <= game.tick_index:
                continue  # already inside the snapshot
            if record["t"] != game.tick_index + 1:
                warnings.warn(
                    f"{folder}: journal skips to tick {record['t']}; replay stops at "
                    f"{game.tick_index}",
                    CheckpointWarning,
                    stacklevel=2,
                )
                break
            if game.terminated:
                break
            game.tick({aid: decode_action(a) for aid, a in record["a"].items()})
    if snapshot_every is not None:
        CheckpointWriter(game, folder, snapshot_every, continuing=True)
    return game


def _follows(journal: Path, snapshot: Path) -> bool:
    """Whether a journal segment was written after this very snapshot file (a segment from
    before journals had headers is taken on trust)."""
    header = journal_header(journal)
    if header is None:
        return True
    try:
        digest = hashlib.sha256(snapshot.read_bytes()).hexdigest()
    except OSError:
        return False
    return header["snapshot"] == digest


def _newest_loadable(
    folder: Path, ticks: list[int], world: Any, code: dict[str, Any]
) -> tuple[Game, int]:
    """The newest snapshot that loads, with the code the game was given (`Game.load`'s keyword
    arguments), and its tick."""
    errors = []
    for n, tick in enumerate(ticks, 1):
        path = snapshot_path(folder, tick)
        try:
            game = Game.load(path, world, **code)
            if game.tick_index != tick:  # a renamed file: its journal would not follow it
                raise CheckpointError(f"{path}: holds tick {game.tick_index}, not {tick}")
            return game, tick
        except CheckpointError as exc:
            if "another world definition" in str(exc) or "rule pack" in str(exc):
                raise  # a wrong world is the caller's mistake, not damage: do not paper over it
            errors.append(str(exc))
            then = "trying the previous snapshot" if n < len(ticks) else "no other snapshot"
            warnings.warn(f"{exc}; {then}", CheckpointWarning, stacklevel=3)
    raise CheckpointError(f"{folder}: no readable snapshot:\n  " + "\n  ".join(errors))
