"""Finding the episodes of a run: what `agentodyssey-pz view RUN` accepts.

Side module (viewer). A run is one of
- an evaluation's output folder (`report.json` beside `trajectories/episode-*.jsonl`), or any folder
  of trajectory logs: one episode per log;
- one trajectory log (`episode-0000.jsonl`, `agentodyssey_pz.evaluate.trajectory`);
- a checkpoint episode folder (`snapshot-*.json` and `journal-*.jsonl`,
  `agentodyssey_pz.checkpoint.store`), or a checkpoint root holding `episode-*` folders: one
  episode per folder.

Nothing is read here beyond names and a log's first line: `record` replays each episode.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import attrs

from agentodyssey_pz.errors import AgentOdysseyError

TRAJECTORY_FOLDER = "trajectories"  # under an evaluation's output folder (cli.TRAJECTORY_FOLDER)
TRAJECTORY_KIND, CHECKPOINT_KIND = "trajectory", "checkpoint"


class ViewerError(AgentOdysseyError):
    """A run the viewer cannot read: missing, empty, damaged or of no known kind."""


@attrs.frozen
class EpisodeSource:
    """One episode of a run: a trajectory log or a checkpoint episode folder."""

    kind: str  # TRAJECTORY_KIND or CHECKPOINT_KIND
    path: Path
    name: str  # a file stem for its page: episode-0000, episode-00001, ...


def find_episodes(run: str | os.PathLike[str]) -> list[EpisodeSource]:
    """The episodes of a run, in order; ViewerError naming the path when there are none."""
    path = Path(run)
    if not path.exists():
        raise ViewerError(f"{path}: no such file or folder")
    if path.is_file():
        check_trajectory_file(path)
        return [EpisodeSource(TRAJECTORY_KIND, path, path.stem)]
    if not path.is_dir():
        raise ViewerError(f"{path}: neither a file nor a folder")
    if any(path.glob("snapshot-*.json")):
        return [EpisodeSource(CHECKPOINT_KIND, path, path.name)]
    logs = sorted((path / TRAJECTORY_FOLDER).glob("episode-*.jsonl")) or sorted(
        path.glob("episode-*.jsonl")
    )
    if logs:
        for log in logs:
            check_trajectory_file(log)
        return [EpisodeSource(TRAJECTORY_KIND, log, log.stem) for log in logs]
    folders = sorted(p for p in path.glob("episode-*") if p.is_dir() and any(p.glob("snapshot-*")))
    if folders:
        return [EpisodeSource(CHECKPOINT_KIND, p, p.name) for p in folders]
    if (path / "report.json").is_file():
        raise ViewerError(
            f"{path}: an evaluation folder without trajectory logs (it was run with "
            "--no-trajectories?); the viewer needs trajectories/episode-*.jsonl"
        )
    raise ViewerError(
        f"{path}: no run found here (expected an evaluation folder, a trajectory log "
        "episode-*.jsonl, or a checkpoint folder with snapshot-*.json)"
    )


def check_trajectory_file(path: Path) -> None:
    """Refuse a file whose first line is not a trajectory log's header (cheap: one line)."""
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
    except UnicodeDecodeError:
        raise ViewerError(f"{path}: not a trajectory log (not UTF-8 text)") from None
    except OSError as exc:
        raise ViewerError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("kind") != "episode":
        raise ViewerError(f"{path}: not a trajectory log (its first line is not an episode header)")
