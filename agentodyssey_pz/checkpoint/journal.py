"""The action journal: one line per tick, each with its own checksum.

A line is `<crc32 as 8 hex digits> <JSON>`, the JSON holding the tick number reached and every
agent's action as the engine received it. A segment's first line names the snapshot it follows
(the SHA-256 of that file), so a resume never replays a journal onto another run's snapshot.
Lines are flushed to the operating system every tick, so a killed process loses at most the tick
it was in. A truncated or corrupt tail (a torn last line, a flipped byte) fails its checksum and is
dropped with a warning; the ticks before it replay exactly.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import warnings
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from agentodyssey_pz.rules.parse import Command


class CheckpointWarning(UserWarning):
    """Something in a checkpoint was damaged and skipped; the rest was used."""


def encode_action(action: Any) -> Any:
    """An action as JSON: text and None as they are, commands as {verb, params}."""
    if action is None or isinstance(action, str):
        return action
    if isinstance(action, Command):
        return {"verb": action.verb, "params": list(action.params)}
    if isinstance(action, (tuple, list)) and len(action) == 2:
        return {"verb": action[0], "params": list(action[1])}
    return {"unusable": repr(action)[:200]}  # replays as an invalid action, as it was


def decode_action(data: Any) -> Any:
    if data is None or isinstance(data, str):
        return data
    if isinstance(data, dict) and "verb" in data:
        return Command(str(data["verb"]), tuple(str(p) for p in data.get("params", ())))
    return None


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# Agents repeat their commands: each is encoded once.
@functools.lru_cache(maxsize=1 << 14, typed=True)
def _action_json(action: Any) -> str:
    return _json(encode_action(action))


@functools.lru_cache(maxsize=4096)
def _key_json(agent_id: str) -> str:
    return _json(agent_id) + ":"


def format_line(tick: int, actions: Mapping[str, Any]) -> str:
    """`<crc32> {"t":tick,"a":{agent: action, ...}}`: exactly `json.dumps` of that record
    (compact separators), assembled from cached pieces - this runs every tick."""
    parts = []
    for aid, action in actions.items():
        try:
            encoded = _action_json(action)
        except TypeError:  # unhashable (a list pair, say): encode it afresh
            encoded = _json(encode_action(action))
        parts.append(_key_json(aid) + encoded)
    return _checked(f'{{"t":{int(tick)},"a":{{{",".join(parts)}}}}}')


def format_header(snapshot_digest: str) -> str:
    """The first line of a segment: the SHA-256 of the snapshot file it follows, so a resume
    never replays one run's actions onto another run's snapshot."""
    return _checked(_json({"snapshot": snapshot_digest}))


def _checked(payload: str) -> str:
    return f"{zlib.crc32(payload.encode('utf-8')):08x} {payload}\n"


def _payload(line: str) -> Any:
    crc, _, payload = line.rstrip("\n").partition(" ")
    if len(crc) != 8 or not payload:
        return None
    try:
        if int(crc, 16) != zlib.crc32(payload.encode("utf-8")):
            return None
        return json.loads(payload)
    except ValueError:
        return None


def _record(line: str, **types: type) -> dict[str, Any] | None:
    """The record of a line with keys of these types, or None (a broken checksum or JSON, or
    another kind of record)."""
    record = _payload(line)
    if isinstance(record, dict) and all(isinstance(record.get(k), t) for k, t in types.items()):
        return record
    return None


def parse_header(line: str) -> dict[str, Any] | None:
    return _record(line, snapshot=str)


def journal_header(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The segment's header (`snapshot`), or None (none, or a journal from before headers)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return parse_header(fh.readline())
    except OSError:
        return None


def parse_line(line: str) -> dict[str, Any] | None:
    """The record of a tick's line, or None when its checksum or JSON is broken."""
    return _record(line, t=int, a=dict)


def read_journal(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Valid records in order; stops (with a warning) at the first damaged line."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for number, line in enumerate(fh, 1):
                if number == 1 and parse_header(line) is not None:
                    continue
                record = parse_line(line)
                if record is None:
                    warnings.warn(
                        f"{path}: line {number} is damaged (checksum or JSON); it and everything "
                        "after it are dropped",
                        CheckpointWarning,
                        stacklevel=2,
                    )
                    return
                yield record
    except FileNotFoundError:
        return


class JournalWriter:
    """Appends one line per tick, each handed to the OS at once (one `write` call)."""

    def __init__(self, path: str | os.PathLike[str], header: str | None = None) -> None:
        """`header`: a first line (`format_header`)."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Truncated: a segment starts right after the snapshot of its tick, so a file of that
        # name is a stale leftover (e.g. a damaged one a resume stopped in), not to be extended.
        # A raw descriptor, no Python buffer: every line reaches the OS in its own write, which
        # survives a killed process (fsync would cost milliseconds per tick).
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_BINARY", 0)
        self._fd: int | None = os.open(self.path, flags, 0o644)
        if header is not None:
            os.write(self._fd, header.encode("utf-8"))

    def append(self, tick: int, actions: Mapping[str, Any]) -> None:
        """Write one line; if the OS refuses part of it (a full disk), the part written is cut
        off again, so the journal still ends after its last whole line."""
        assert self._fd is not None, "journal closed"
        data = format_line(tick, actions).encode("utf-8")
        end = os.lseek(self._fd, 0, os.SEEK_END)
        try:
            written = os.write(self._fd, data)
            while written < len(data):  # a short write (signals, a disk filling) - finish it
                written += os.write(self._fd, data[written:])
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, end)
            raise

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
