"""The action journal: one checksummed line per tick; damaged lines are found and dropped.

A torn last line (a process killed mid-write) and a flipped byte in a middle line both fail the
line's CRC: reading stops there with a CheckpointWarning naming the line, and a resume replays
exactly the ticks before it (its state equals the uninterrupted game's at that tick).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from checkpoint.crash_worker import AGENTS, actions_for, play_until

from agentodyssey_pz.checkpoint import CheckpointWriter, resume
from agentodyssey_pz.checkpoint.journal import (
    CheckpointWarning,
    JournalWriter,
    decode_action,
    encode_action,
    format_line,
    parse_line,
    read_journal,
)
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.rules.parse import Command

WORLD = "default"
SEED = 5
TICKS = 40


# ---------------------------------------------------------------------------- lines
ACTIONS: list[tuple[Any, Any]] = [
    ("pick up coin", "pick up coin"),
    (None, None),
    ("", ""),
    ("écrire « guillemets » 🍐", "écrire « guillemets » 🍐"),
    (Command("craft", ("1", "rope")), Command("craft", ("1", "rope"))),
    (("enter", ["north gate"]), Command("enter", ("north gate",))),
    (7, None),  # not a command: journaled as unusable, replayed as "no command" (invalid too)
    ({"verb": "x"}, None),
]


@pytest.mark.parametrize(("action", "replayed"), ACTIONS)
def test_an_action_survives_the_journal(action: Any, replayed: Any) -> None:
    line = format_line(12, {"agent_0": action})
    assert line.endswith("\n") and line.count("\n") == 1
    record = parse_line(line)
    assert record is not None and record["t"] == 12
    assert record["a"]["agent_0"] == encode_action(action)
    assert decode_action(record["a"]["agent_0"]) == replayed


def test_what_is_not_a_command_is_journaled_as_unusable() -> None:
    assert encode_action(7) == {"unusable": "7"}
    assert encode_action(("craft", ("1", "rope"))) == {"verb": "craft", "params": ["1", "rope"]}


def test_a_line_is_a_crc32_of_its_json() -> None:
    line = format_line(3, {"agent_0": "wait", "agent_1": None})
    crc, payload = line.rstrip("\n").split(" ", 1)
    assert int(crc, 16) == zlib.crc32(payload.encode("utf-8"))
    assert json.loads(payload) == {"t": 3, "a": {"agent_0": "wait", "agent_1": None}}


def flip(text: str, index: int) -> str:
    return text[:index] + chr(ord(text[index]) ^ 0x01) + text[index + 1 :]


@pytest.mark.parametrize("index", [0, 5, 9, 15, 30, -3])
def test_a_flipped_byte_anywhere_fails_the_check(index: int) -> None:
    line = format_line(42, {"agent_0": "pick up coin", "agent_1": "wait"})
    assert parse_line(flip(line, index % (len(line) - 1))) is None


def signed(payload: str) -> str:
    """A line with a correct checksum over any payload."""
    return f"{zlib.crc32(payload.encode('utf-8')):08x} {payload}\n"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "\n",
        "deadbeef\n",
        "nothex!! {}\n",
        "1234567 {}\n",
        signed("[1, 2]"),  # correct checksums over records of the wrong shape
        signed('{"t": "1", "a": {}}'),
        signed('{"t": 1}'),
        signed('{"t": 1, "a": []}'),
        signed("{not json"),
    ],
)
def test_malformed_lines_are_rejected(bad: str) -> None:
    assert parse_line(bad) is None


# ---------------------------------------------------------------------------- files
def write_journal(path: Path, ticks: int) -> None:
    writer = JournalWriter(path)
    for t in range(1, ticks + 1):
        writer.append(t, {"agent_0": f"say {t}", "agent_1": None})
    writer.close()


def test_every_appended_line_reaches_the_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    writer = JournalWriter(path)
    writer.append(1, {"agent_0": "wait"})
    # Not closed: the line is already with the operating system (survives a killed process).
    assert path.read_text(encoding="utf-8") == format_line(1, {"agent_0": "wait"})
    writer.close()


def test_a_torn_last_line_is_dropped_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    write_journal(path, 10)
    data = path.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last_start + (len(data) - last_start) // 2])
    with pytest.warns(CheckpointWarning, match="line 10 is damaged"):
        records = list(read_journal(path))
    assert [r["t"] for r in records] == list(range(1, 10))


def test_a_flipped_byte_in_a_middle_line_stops_reading_there(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    write_journal(path, 10)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = flip(lines[4], 20)
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.warns(CheckpointWarning, match="line 5 is damaged"):
        records = list(read_journal(path))
    assert [r["t"] for r in records] == [1, 2, 3, 4]  # the good lines after it are not used


def test_bytes_that_are_not_utf8_are_a_damaged_line(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    write_journal(path, 3)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"say 2", b"say \xff"))
    with pytest.warns(CheckpointWarning, match="line 2 is damaged"):
        assert [r["t"] for r in read_journal(path)] == [1]


def test_an_intact_journal_reads_without_warnings(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    write_journal(path, 10)
    assert [r["t"] for r in read_journal(path)] == list(range(1, 11))  # warnings are errors here
    assert list(read_journal(tmp_path / "missing.jsonl")) == []


# ---------------------------------------------------------------------------- replay
def journaled_game(folder: Path, ticks: int = TICKS) -> list[str]:
    """Play with a checkpoint writer (no snapshot after the first); the state hash after each
    tick (index = tick)."""
    game = Game(WORLD, AGENTS)
    game.reset(SEED)
    writer = CheckpointWriter(game, folder, snapshot_every=10_000)
    hashes = [state_hash(game)]
    for _ in range(ticks):
        game.tick(actions_for(game, SEED, game.tick_index))
        hashes.append(state_hash(game))
    writer.close()
    return hashes


def only_journal(folder: Path) -> Path:
    (journal,) = folder.glob("journal-*.jsonl")
    return journal


def test_a_resume_replays_the_whole_journal(tmp_path: Path) -> None:
    hashes = journaled_game(tmp_path)
    game = resume(tmp_path, WORLD, snapshot_every=None)
    assert game.tick_index == TICKS
    assert state_hash(game) == hashes[TICKS]


def test_a_resume_after_a_torn_last_line_stops_at_the_tick_before(tmp_path: Path) -> None:
    hashes = journaled_game(tmp_path)
    journal = only_journal(tmp_path)
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 25])  # the last line loses its end
    with pytest.warns(CheckpointWarning, match=f"line {TICKS + 1} is damaged"):  # +1: header
        game = resume(tmp_path, WORLD, snapshot_every=None)
    assert game.tick_index == TICKS - 1
    assert state_hash(game) == hashes[TICKS - 1]


def test_a_resume_after_a_flipped_byte_stops_at_the_tick_before_it(tmp_path: Path) -> None:
    hashes = journaled_game(tmp_path)
    journal = only_journal(tmp_path)
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = 17  # the tick; its line is the one after it (the first line is the header)
    lines[damaged] = flip(lines[damaged], 12)
    journal.write_text("".join(lines), encoding="utf-8")
    with pytest.warns(CheckpointWarning, match=f"line {damaged + 1} is damaged"):
        game = resume(tmp_path, WORLD, snapshot_every=None)
    assert game.tick_index == damaged - 1
    assert state_hash(game) == hashes[damaged - 1]
    assert state_hash(game) != hashes[TICKS]


def test_a_missing_line_stops_the_replay_with_a_warning(tmp_path: Path) -> None:
    hashes = journaled_game(tmp_path)
    journal = only_journal(tmp_path)
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[10]  # tick 10 (after the header line) is gone; every remaining line is intact
    journal.write_text("".join(lines), encoding="utf-8")
    with pytest.warns(CheckpointWarning, match="journal skips to tick 11"):
        game = resume(tmp_path, WORLD, snapshot_every=None)
    assert game.tick_index == 9
    assert state_hash(game) == hashes[9]


def test_unusable_and_command_actions_replay_exactly(tmp_path: Path) -> None:
    game = Game(WORLD, AGENTS)
    game.reset(SEED)
    writer = CheckpointWriter(game, tmp_path, snapshot_every=10_000)
    play_until(game, SEED, 5)
    result = game.tick({"agent_0": 7, "agent_1": Command("wait"), "agent_2": ("defend", [])})
    assert result.invalid["agent_0"] and result.action_ok["agent_1"] and result.action_ok["agent_2"]
    play_until(game, SEED, 12)
    writer.close()
    resumed = resume(tmp_path, WORLD, snapshot_every=None)
    assert resumed.tick_index == 12
    assert state_hash(resumed) == state_hash(game)


def test_lines_are_exactly_the_json_of_their_record() -> None:
    """The cached line assembly writes what `json.dumps` would, for every kind of action."""
    import json
    import random

    rng = random.Random(3)
    kinds = [
        "wait",
        """write 'Ünïcode "quoted"' slate_0""",
        None,
        Command("pick_up", ("coin",)),
        Command("write", ('he said "hi"\n\\', "label_0")),
        ("craft", ("1", "rope")),
        ["craft", ["2", "rope"]],
        7,
        {"odd": 1},
    ]
    for tick in range(300):
        actions = {f"agent_{i}": rng.choice(kinds) for i in range(rng.randint(0, 5))}
        line = format_line(tick, actions)
        payload = line.rstrip("\n").split(" ", 1)[1]
        expected = {"t": tick, "a": {aid: encode_action(a) for aid, a in actions.items()}}
        assert payload == json.dumps(expected, ensure_ascii=False, separators=(",", ":"))
        assert parse_line(line) == json.loads(json.dumps(expected))
