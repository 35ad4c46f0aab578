"""Finding a run's episodes, and clear errors (never a traceback) for what is not a run."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from agentodyssey_pz import cli
from agentodyssey_pz.viewer.build import write_pages
from agentodyssey_pz.viewer.source import (
    CHECKPOINT_KIND,
    TRAJECTORY_KIND,
    ViewerError,
    find_episodes,
)


def test_an_evaluation_folder_gives_its_logs(evaluation: Path) -> None:
    found = find_episodes(evaluation)
    assert [(s.kind, s.name) for s in found] == [(TRAJECTORY_KIND, "episode-0000")]
    assert find_episodes(evaluation / "trajectories") == found
    assert find_episodes(found[0].path) == found


def test_a_checkpoint_folder_and_its_root(checkpoint: Path) -> None:
    found = find_episodes(checkpoint)
    assert [(s.kind, s.path) for s in found] == [(CHECKPOINT_KIND, checkpoint)]
    assert find_episodes(checkpoint.parent) == found


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "no such file or folder"),
        (lambda p: p, "no run found here"),
        (lambda p: write(p / "x.jsonl", "not json\n"), "not a trajectory log"),
        (lambda p: write(p / "x.jsonl", ""), "not a trajectory log"),
        (lambda p: write(p / "x.jsonl", json.dumps({"kind": "step"}) + "\n"), "episode header"),
        (lambda p: write_bytes(p / "x.jsonl", b"\xff\xfe\x00binary"), "not UTF-8"),
        (lambda p: write(p / "report.json", "{}"), "without trajectory logs"),
    ],
)  # fmt: skip
def test_what_is_not_a_run_is_refused_by_name(tmp_path: Path, make, message: str) -> None:
    path = make(tmp_path)
    if path.name == "report.json":
        path = path.parent
    with pytest.raises(ViewerError, match=message):
        find_episodes(path)


def test_a_damaged_log_body_is_refused_on_the_command_line(
    evaluation: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "episode-0000.jsonl"
    lines = (evaluation / "trajectories" / "episode-0000.jsonl").read_text().splitlines()
    log.write_text("\n".join([*lines[:5], "{broken", *lines[5:]]) + "\n")
    assert cli.main(["view", str(log)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not JSON" in err and "Traceback" not in err


def test_a_damaged_checkpoint_is_refused_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "episode-00001"
    folder.mkdir()
    write(folder / "snapshot-000000000.json", "{not a snapshot")
    assert cli.main(["view", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "no snapshot could be read" in err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


JUNK = (None, 0, -1, 2.5, 10**12, True, "", "x", [], [1], {}, {"a": 1}, "\u2028</script>")


def damaged(value: object, rng: random.Random) -> object:
    """`value` with one nested value (not the whole) replaced by junk."""
    places: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            keys = list(node)
        elif isinstance(node, list):
            keys = list(range(len(node)))
        else:
            return
        for key in keys:
            places.append((node, key))
            walk(node[key])  # type: ignore[index]

    walk(value)
    if places:
        node, key = rng.choice(places)
        node[key] = rng.choice(JUNK)  # type: ignore[index]
    return value


def test_a_log_with_junk_values_is_shown_or_refused_by_name(
    evaluation: Path, tmp_path: Path
) -> None:
    lines = (evaluation / "trajectories" / "episode-0000.jsonl").read_text().splitlines()
    rng = random.Random(7)
    outcomes = set()
    for trial in range(30):
        records = [json.loads(line) for line in lines[:13]]  # the header and 4 ticks of 3 agents
        n = rng.randrange(len(records))
        records[n] = damaged(records[n], rng)
        log = tmp_path / f"episode-{trial:04d}.jsonl"
        log.write_text("\n".join(json.dumps(r) for r in records) + "\n")
        try:
            write_pages(log, tmp_path / f"{trial}.html")
            outcomes.add("shown")
        except ViewerError as exc:
            assert str(exc).startswith(str(log)) or str(log) in str(exc), exc
            outcomes.add("refused")
    assert outcomes == {"shown", "refused"}
