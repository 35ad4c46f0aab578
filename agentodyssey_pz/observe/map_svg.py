"""An SVG map of a synthesised world's area graph, written by hand (no plotting library).

Layer: observe (what a person sees of the world; the env's render() can keep one up to date).
Areas are circles coloured and labelled by level, grouped in one box
per place (a locked place's box is dashed); paths are lines, locked ones dashed with their key's
name, personal ones (tutorial rooms) dotted; the spawn area has a ring; agents, when shown, are
numbered dots around the area they stand in.

Positions come from networkx spring layouts with a fixed seed: one layout of the places (two
places are linked when a path joins them), one of each place's areas inside its box, then boxes
are pushed apart until none overlap. Same world, same seed: the same picture.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import networkx as nx
import numpy as np

from agentodyssey_pz.world.graph import KEY, LOCKED, OWNER
from agentodyssey_pz.world.world import World

NODE_RADIUS = 14.0
NODE_SPACING = 70.0  # typical distance between areas of one place
BOX_PADDING = 34.0  # room around a place's areas inside its box (labels, title)
BOX_GAP = 40.0  # minimum room between place boxes
MARGIN = 40.0
LEVEL_COLOURS = ("#8fd19e", "#c6e377", "#f2d675", "#f4b76b", "#ec8a6a", "#d9677e", "#a96cc9")
AGENT_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
SEPARATION_ROUNDS = 300
LEGEND = (
    "L<n>: area level (colour too); boxes: places, dashed when locked; ringed: spawn",
    "red dashed: locked path, labelled with its key; dotted: personal path; dots: agents",
)
HALO = 'stroke="#ffffff" stroke-width="3" paint-order="stroke"'  # text stays readable over lines
# Agent dots sit on a ring around their area, right side first, clear of the labels above/below.
AGENT_SLOTS_DEG = (0, -40, 40, 180, 220, 140, -80, 260, -120, 120)


def layout(world: World, seed: int = 0) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(area id -> centre, place id -> box [x0, y0, x1, y1]) in SVG units."""
    places = [p for p in world.places.values() if any(a in world.areas for a in p.area_ids)]
    local: dict[str, dict[str, np.ndarray]] = {}
    half: list[np.ndarray] = []
    for place in places:
        ids = [a for a in place.area_ids if a in world.areas]
        local[place.id] = _local_layout(world.graph.nx.subgraph(ids), ids, seed)
        points = np.array(list(local[place.id].values()))
        size = np.abs(points).max(axis=0) + BOX_PADDING
        size[0] = max(size[0], _label_width(_place_label(place)) / 2 + 8)
        half.append(size)
    sizes = np.array(half) if half else np.zeros((0, 2))
    centres = _place_centres(world, places, sizes, seed)
    positions: dict[str, np.ndarray] = {}
    boxes: dict[str, np.ndarray] = {}
    for place, centre, size in zip(places, centres, sizes, strict=True):
        for area_id, offset in local[place.id].items():
            positions[area_id] = centre + offset
        boxes[place.id] = np.concatenate([centre - size, centre + size])
    return positions, boxes


def _place_label(place: Any) -> str:
    return place.name + ("" if place.unlocked else " (locked)")


def _label_width(text: str) -> float:
    return 7.2 * len(text) + 16  # bold 12px sans-serif, roughly


def _local_layout(graph: nx.Graph, ids: Sequence[str], seed: int) -> dict[str, np.ndarray]:
    if len(ids) == 1:
        return {ids[0]: np.zeros(2)}
    sub = nx.Graph()
    sub.add_nodes_from(ids)
    sub.add_edges_from(graph.edges)
    pos = nx.spring_layout(sub, seed=seed, k=1.5 / np.sqrt(len(ids)))
    points = np.array([pos[a] for a in ids])
    points -= points.mean(axis=0)
    # Scale so the closest pair of areas sits NODE_SPACING apart.
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
    closest = gaps[np.triu_indices(len(ids), 1)].min()
    points *= NODE_SPACING / max(float(closest), 1e-6)
    return {a: points[i] for i, a in enumerate(ids)}


def _place_centres(world: World, places: Sequence[Any], sizes: np.ndarray, seed: int) -> np.ndarray:
    if not places:
        return np.zeros((0, 2))
    index = {p.id: i for i, p in enumerate(places)}
    graph = nx.Graph()
    graph.add_nodes_from(range(len(places)))
    for a, b in world.graph.nx.edges:
        pa, pb = world.areas[a].place_id, world.areas[b].place_id
        if pa != pb and pa in index and pb in index:
            graph.add_edge(index[pa], index[pb])
    if len(places) == 1:
        return np.zeros((1, 2))
    pos = nx.spring_layout(graph, seed=seed)
    centres = np.array([pos[i] for i in range(len(places))], dtype=float)
    centres *= float(sizes.max()) * np.sqrt(len(places))
    return _separate(centres, sizes)


def _separate(centres: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Push overlapping boxes apart along the axis of least overlap until none overlap."""
    n = len(centres)
    for _ in range(SEPARATION_ROUNDS):
        delta = centres[:, None, :] - centres[None, :, :]
        need = sizes[:, None, :] + sizes[None, :, :] + BOX_GAP
        overlap = need - np.abs(delta)
        clash = (overlap > 0).all(axis=-1) & ~np.eye(n, dtype=bool)
        if not clash.any():
            break
        axis = np.argmin(overlap, axis=-1)  # push along the axis that needs the smaller move
        push = np.zeros_like(delta)
        rows, cols = np.nonzero(clash)
        ax = axis[rows, cols]
        direction = np.sign(delta[rows, cols, ax])
        # Coincident centres: split by index so the push has a direction.
        direction[direction == 0] = np.where(rows[direction == 0] < cols[direction == 0], -1, 1)
        push[rows, cols, ax] = direction * overlap[rows, cols, ax] / 2
        centres = centres + push.sum(axis=1)
    return centres


def map_svg(
    world: World,
    *,
    seed: int = 0,
    agents: Mapping[str, str] | None = None,
    title: str | None = None,
) -> str:
    """The SVG text. `agents` maps agent ids to the area each stands in (None: no agents)."""
    positions, boxes = layout(world, seed)
    if positions:
        corners = np.array(list(boxes.values()))
        x0, y0 = corners[:, :2].min(axis=0) - MARGIN
        x1, y1 = corners[:, 2:].max(axis=0) + MARGIN
    else:
        x0, y0, x1, y1 = 0.0, 0.0, 200.0, 100.0
    y0 -= 62  # the title and the legend
    x1 = max(x1, x0 + 5.6 * max(len(line) for line in LEGEND) + 24)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{x0:.1f} {y0:.1f} {x1 - x0:.1f} {y1 - y0:.1f}" '
        f'width="{x1 - x0:.0f}" height="{y1 - y0:.0f}" font-family="sans-serif">',
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
        'fill="#ffffff"/>',
    ]
    heading = title or f"{len(world.areas)} areas, {len(boxes)} places"
    parts.append(
        f'<text class="title" x="{x0 + 12:.1f}" y="{y0 + 22:.1f}" '
        f'font-size="16">{escape(heading)}</text>'
    )
    for row, line in enumerate(LEGEND):
        parts.append(
            f'<text class="legend" x="{x0 + 12:.1f}" y="{y0 + 40 + 14 * row:.1f}" '
            f'font-size="11" fill="#555">{escape(line)}</text>'
        )
    parts += _place_boxes(world, boxes)
    parts += _paths(world, positions)
    parts += _areas(world, positions)
    if agents:
        parts += _agents(agents, positions)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _place_boxes(world: World, boxes: Mapping[str, np.ndarray]) -> list[str]:
    out = []
    for place_id, (bx0, by0, bx1, by1) in boxes.items():
        place = world.places[place_id]
        dash = "" if place.unlocked else ' stroke-dasharray="8 5"'
        label = _place_label(place)
        out.append(
            f'<g class="place" data-place={quoteattr(place_id)}>'
            f'<rect x="{bx0:.1f}" y="{by0:.1f}" width="{bx1 - bx0:.1f}" height="{by1 - by0:.1f}" '
            f'rx="12" fill="#f4f6fa" stroke="#7d8799"{dash}/>'
            f'<text x="{bx0 + 8:.1f}" y="{by0 + 16:.1f}" font-size="12" font-weight="bold" '
            f'fill="#3a4252">{escape(label)}</text></g>'
        )
    return out


def _paths(world: World, positions: Mapping[str, np.ndarray]) -> list[str]:
    out = []
    for a, b, data in world.graph.nx.edges(data=True):
        (ax, ay), (bx, by) = positions[a], positions[b]
        kind, style = "path", 'stroke="#8a94a6" stroke-width="2"'
        if data.get(OWNER) is not None:
            kind, style = (
                "path personal",
                'stroke="#b0b7c3" stroke-width="1.5" stroke-dasharray="2 4"',
            )
        elif data.get(LOCKED):
            kind, style = "path locked", 'stroke="#c0392b" stroke-width="2" stroke-dasharray="7 5"'
        out.append(
            f'<line class="{kind}" data-from={quoteattr(a)} data-to={quoteattr(b)} '
            f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" {style}/>'
        )
        if data.get(LOCKED) and data.get(OWNER) is None:
            key = data.get(KEY)
            found = world.objects.get(key) if key is not None else None
            name = found.name if found is not None else (key or "locked")
            out.append(
                f'<text class="key" x="{(ax + bx) / 2:.1f}" y="{(ay + by) / 2 - 4:.1f}" '
                f'font-size="10" fill="#c0392b" text-anchor="middle" {HALO}>{escape(name)}</text>'
            )
    return out


def _areas(world: World, positions: Mapping[str, np.ndarray]) -> list[str]:
    out = []
    for area_id, (x, y) in positions.items():
        area = world.areas[area_id]
        colour = LEVEL_COLOURS[(max(area.level, 1) - 1) % len(LEVEL_COLOURS)]
        spawn = area_id == world.spawn_area
        ring = (
            f'<circle class="spawn" cx="{x:.1f}" cy="{y:.1f}" r="{NODE_RADIUS + 4:.1f}" '
            'fill="none" stroke="#222" stroke-width="2"/>'
            if spawn
            else ""
        )
        name = f"{area.name} (spawn)" if spawn else area.name
        weight = ' font-weight="bold"' if spawn else ""
        out.append(
            f'<g class="area" data-area={quoteattr(area_id)} data-level="{area.level}">'
            f"{ring}"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE_RADIUS:.1f}" fill="{colour}" '
            'stroke="#333" stroke-width="1"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" text-anchor="middle">'
            f"L{area.level}</text>"
            f'<text x="{x:.1f}" y="{y + NODE_RADIUS + 15:.1f}" font-size="11"{weight} '
            f'text-anchor="middle" {HALO}>{escape(name)}</text></g>'
        )
    return out


def _agents(agents: Mapping[str, str], positions: Mapping[str, np.ndarray]) -> list[str]:
    out = []
    by_area: dict[str, list[tuple[int, str]]] = {}
    for index, (agent_id, area_id) in enumerate(agents.items()):
        if area_id in positions:
            by_area.setdefault(area_id, []).append((index, agent_id))
    for area_id, present in by_area.items():
        x, y = positions[area_id]
        for k, (index, agent_id) in enumerate(present):
            ring, slot = divmod(k, len(AGENT_SLOTS_DEG))
            angle = np.radians(AGENT_SLOTS_DEG[slot] + 17 * ring)
            radius = NODE_RADIUS + 11 + 15 * ring
            ax, ay = x + radius * np.cos(angle), y + radius * np.sin(angle)
            colour = AGENT_COLOURS[index % len(AGENT_COLOURS)]
            out.append(
                f'<g class="agent" data-agent={quoteattr(agent_id)} data-area={quoteattr(area_id)}>'
                f"<title>{escape(agent_id)}</title>"
                f'<circle cx="{ax:.1f}" cy="{ay:.1f}" r="7" fill="{colour}" stroke="#fff"/>'
                f'<text x="{ax:.1f}" y="{ay + 3.5:.1f}" font-size="9" fill="#fff" '
                f'text-anchor="middle">{escape(agent_id.rsplit("_", 1)[-1])}</text></g>'
            )
    return out


def write_map(
    game: Any,
    path: str | os.PathLike[str],
    *,
    seed: int = 0,
    show_agents: bool = True,
    title: str | None = None,
) -> Path:
    """Write the map of a started `Game` (or an env holding one as `.game`) to `path`."""
    game = getattr(game, "game", game)
    agents = {a.id: a.area_id for a in game.agents.values()} if show_agents else None
    if title is None:
        title = f"seed {game.seed}, tick {max(game.tick_index, 0)}"
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(map_svg(game.world, seed=seed, agents=agents, title=title), encoding="utf-8")
    return target
