"""Writing the pages of a run: one HTML file per episode, split when one would be too big.

Side module (viewer): what `agentodyssey-pz view RUN` and `evaluate` call. An episode whose page
would pass `max_bytes` (default 4 MB; a 6-agent, 1,000-tick evaluation episode makes about
0.5 MB) is cut into parts of consecutive ticks, `<name>.part1.html`, `<name>.part2.html`, ...;
each part says so at its top and links the others, and each starts with the full state of its
first tick.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentodyssey_pz.viewer.deltas import encode
from agentodyssey_pz.viewer.layout import area_layout
from agentodyssey_pz.viewer.page import render_page
from agentodyssey_pz.viewer.record import RecordedRun, record
from agentodyssey_pz.viewer.source import (
    CHECKPOINT_KIND,
    TRAJECTORY_FOLDER,
    EpisodeSource,
    ViewerError,
    find_episodes,
)

MAX_PAGE_BYTES = 4_000_000
VIEWER_FOLDER = "viewer"  # under an evaluation's output folder


def page_data(run: RecordedRun, layout: dict[str, Any], frames: Sequence[dict[str, Any]],
              part: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    meta = run.meta
    bits = [meta["world"]]
    if meta.get("episode") is not None:
        bits.append(f"episode {meta['episode']}")
    if meta.get("seed") is not None:
        bits.append(f"seed {meta['seed']}")
    agents = meta["agents"]
    subtitle = (
        f"{meta['source']} {meta['path']} · {len(agents)} agent{'s' * (len(agents) != 1)} · "
        f"ticks {frames[0]['tick']} to {frames[-1]['tick']}"
    )
    return {
        "title": ", ".join(bits),
        "subtitle": subtitle,
        "notes": list(run.notes),
        "policies": dict(meta.get("policies") or {}),
        "layout": layout,
        "run": encode(frames, agents),
        "part": part,
        "deps": deps_within(run.deps, frames[0]["tick"], frames[-1]["tick"]),
    }


def deps_within(deps: dict[str, Any] | None, first: int, last: int) -> dict[str, Any] | None:
    """The dependency edges with an end in ticks first..last, and their nodes (renumbered)."""
    if deps is None:
        return None
    nodes = deps["nodes"]
    edges = [e for e in deps["edges"] if any(first <= nodes[n][0] <= last for n in e)]
    kept = list(dict.fromkeys(n for e in edges for n in e))
    index = {n: i for i, n in enumerate(kept)}
    return {"nodes": [nodes[n] for n in kept], "edges": [[index[p], index[c]] for p, c in edges]}


def split_pages(
    run: RecordedRun, layout: dict[str, Any], max_bytes: int, target: Path
) -> dict[Path, str]:
    """The parts of a run whose page would pass `max_bytes` (file -> HTML), as few as keep each
    within it (measured as written; a part of a single tick may still pass it). Parts after the
    first start one frame early: their base is the state before their first step."""
    count = 2
    while True:
        size = math.ceil((len(run.frames) - 1) / count)
        bounds = [(max(0, s - 1), min(len(run.frames) - 1, s + size - 1))
                  for s in range(1, len(run.frames), size)]  # fmt: skip
        bounds[0] = (0, bounds[0][1])
        pages = part_pages(run, layout, bounds, target)
        if max(len(html.encode("utf-8")) for html in pages.values()) <= max_bytes or size <= 1:
            return pages
        count = max(count + 1, math.ceil(count * 1.5))


def part_pages(
    run: RecordedRun, layout: dict[str, Any], bounds: Sequence[tuple[int, int]], target: Path
) -> dict[Path, str]:
    """The HTML of each part (file -> text): `<target stem>.part<k>.html`, each saying which
    ticks it holds and linking the others."""
    files = [target.with_name(f"{target.stem}.part{k + 1}.html") for k in range(len(bounds))]
    out = {}
    for k, (first, last) in enumerate(bounds):
        part = {
            "index": k,
            "files": [f.name for f in files],
            "message": (
                f"This run is too big for one page ({len(run.frames) - 1:,} ticks), so it is "
                f"split in {len(bounds)} parts of consecutive ticks; this is part {k + 1} "
                f"(ticks {run.frames[first]['tick']} to {run.frames[last]['tick']})."
            ),
        }
        out[files[k]] = render_page(page_data(run, layout, run.frames[first : last + 1], part))
    return out


def episode_pages(source: EpisodeSource, target: Path, *, max_bytes: int = MAX_PAGE_BYTES,
                  world: Any = None, rule_packs: Sequence[str] = ()) -> list[Path]:  # fmt: skip
    """Replay one episode and write its page, or its parts when one page would pass
    `max_bytes`; `target` is the .html file of a whole page."""
    run = record(source, world=world, rule_packs=rule_packs)
    layout = area_layout(run.world, since=run.since)
    whole = render_page(page_data(run, layout, run.frames))
    if len(whole.encode("utf-8")) <= max_bytes or len(run.frames) <= 2:
        pages = {target: whole}
    else:
        pages = split_pages(run, layout, max_bytes, target)
    for path, html in pages.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
    return list(pages)


def default_target(run: Path, source: EpisodeSource, many: bool) -> Path:
    """Where an episode's page goes without -o: an evaluation's under `viewer/`, a log's beside
    it, a checkpoint folder's beside the folder."""
    if (
        run.is_dir()
        and source.kind != CHECKPOINT_KIND
        and source.path.parent.name == TRAJECTORY_FOLDER
    ):
        return source.path.parent.parent / VIEWER_FOLDER / f"{source.name}.html"
    if source.kind == CHECKPOINT_KIND:
        return source.path.parent / f"{source.name}.html"
    return source.path.with_suffix(".html")


def write_pages(
    run: str | os.PathLike[str],
    output: str | os.PathLike[str] | None = None,
    *,
    max_bytes: int = MAX_PAGE_BYTES,
    world: Any = None,
    rule_packs: Sequence[str] = (),
) -> list[Path]:
    """Write the page(s) of every episode of a run; return the files written.

    `output`: for a run of one episode, the HTML file (or a folder to put it in); for several, the
    folder for all of them. Default: see `default_target`."""
    sources = find_episodes(run)
    many = len(sources) > 1
    written: list[Path] = []
    for source in sources:
        if output is None:
            target = default_target(Path(run), source, many)
        else:
            out = Path(output)
            if many or out.is_dir() or out.suffix.lower() not in (".html", ".htm"):
                if out.exists() and not out.is_dir():
                    raise ViewerError(f"{out}: the run has {len(sources)} episodes: -o must name "
                                      "a folder, not a file")  # fmt: skip
                target = out / f"{source.name}.html"
            else:
                target = out
        written += episode_pages(source, target, max_bytes=max_bytes, world=world,
                                 rule_packs=rule_packs)  # fmt: skip
    return written


def remove_stale_pages(folder: Path, keep: Sequence[Path]) -> list[Path]:
    """Delete pages an earlier evaluation left in `folder` that are not among `keep`."""
    if not folder.is_dir():
        return []
    kept = {p.resolve() for p in keep}
    stale = [p for p in folder.glob("episode-*.html") if p.resolve() not in kept]
    for path in stale:
        path.unlink()
    return sorted(stale)
