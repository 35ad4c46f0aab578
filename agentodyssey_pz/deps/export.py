"""Exports of a dependency graph: JSON summary, node-link JSON, GraphML, DOT, Mermaid, SVG arcs.

Side module (docs/mechanics/dependency-tracking.md#exports). Every export draws producer -> consumer
(earlier -> later) and leaves the root `INIT` out. Fixes of the reference's export quirks: orders
are deterministic; DOT ids and labels are escaped; Mermaid ids are sanitised (`[^A-Za-z0-9_]` ->
`_`, de-duplicated) and labels use Mermaid entities (`#quot;`), escaped once; `write_all` writes
each file once. Nodes of the bootstrap tick (step -1) are a step like any other: the step views
declare `S_-1` whenever an edge names it, so every edge's ends are declared.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape as xml_escape

import networkx as nx

from agentodyssey_pz.engine.snapshot import write_atomically

if TYPE_CHECKING:
    from agentodyssey_pz.deps.tracker import DependencyTracker

MODES = ("action", "step")
MAX_STEP_HINTS = 8  # hints shown per step node in the step views; the rest are counted
XML_ATTR = {'"': "&quot;"}


# ---------------------------------------------------------------------------- shared views
def steps_present(tracker: DependencyTracker) -> list[int]:
    """Steps of every non-root node, sorted (the bootstrap tick is step -1)."""
    graph = tracker.graph
    return sorted({graph.nodes[n]["step"] for n in tracker.nodes()})


def step_edges(tracker: DependencyTracker) -> list[tuple[int, int]]:
    """(producer step, consumer step) pairs of the non-root edges between different steps."""
    graph = tracker.graph
    pairs = {(graph.nodes[p]["step"], graph.nodes[c]["step"]) for p, c in tracker.edges()}
    return sorted(pair for pair in pairs if pair[0] != pair[1])


def exported_graph(tracker: DependencyTracker) -> nx.DiGraph:
    """The graph without its root: nodes carry step, actor, rule, seq and hint."""
    out = nx.DiGraph()
    for node in tracker.nodes():
        out.add_node(node, **tracker.graph.nodes[node])
    out.add_edges_from(tracker.edges())
    return out


def summary(tracker: DependencyTracker) -> dict[str, Any]:
    """Rule pairs -> sorted [producer step, consumer step] lists, hints, steps."""
    graph = tracker.graph
    edges: dict[str, list[list[int]]] = {}
    for producer, consumer in tracker.edges():
        p, c = graph.nodes[producer], graph.nodes[consumer]
        edges.setdefault(f"{p['rule']} -> {c['rule']}", []).append([p["step"], c["step"]])
    for pairs in edges.values():
        pairs.sort()
    return {
        "edges": edges,
        "step_hints": {str(step): list(hints) for step, hints in tracker.step_hints.items()},
        "steps": steps_present(tracker),
    }


def node_link(tracker: DependencyTracker) -> dict[str, Any]:
    """networkx node-link data (`nx.node_link_graph` reads it back; edges under "edges")."""
    graph = tracker.graph
    return {
        "directed": True,
        "multigraph": False,
        "graph": {},
        "nodes": [{"id": n, **graph.nodes[n]} for n in tracker.nodes()],
        "edges": [{"source": p, "target": c} for p, c in tracker.edges()],
    }


def to_graphml(tracker: DependencyTracker) -> str:
    return "\n".join(nx.generate_graphml(exported_graph(tracker))) + "\n"


def _hint_block(hints: list[str], esc: Callable[[str], str]) -> list[str]:
    shown = [esc(h) for h in hints[:MAX_STEP_HINTS]]
    if len(hints) > MAX_STEP_HINTS:
        shown.append(f"... (+{len(hints) - MAX_STEP_HINTS} more)")
    return shown


def _check_mode(mode: str) -> bool:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode == "action"


# ---------------------------------------------------------------------------- DOT
def dot_escape(text: str) -> str:
    """Inside a quoted DOT string: backslash, quote and newline escaped (ids and labels alike)."""
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(tracker: DependencyTracker, mode: str = "action") -> str:
    lines = ["digraph deps {", '  rankdir="LR";', "  node [shape=box];"]
    graph = tracker.graph
    if _check_mode(mode):
        for node in tracker.nodes():
            a = graph.nodes[node]
            parts = [f"step {a['step']}", a["actor"], f"{a['rule']} ({a['seq']})"]
            parts += [a["hint"]] if a["hint"] else []
            label = "\\n".join(dot_escape(p) for p in parts)
            lines.append(f'  "{dot_escape(node)}" [label="{label}"];')
        lines += [f'  "{dot_escape(p)}" -> "{dot_escape(c)}";' for p, c in tracker.edges()]
    else:
        for step in steps_present(tracker):
            hints = _hint_block(tracker.step_hints.get(step, []), dot_escape)
            label = "\\n".join([f"step {step}", *hints])
            lines.append(f'  "S_{step}" [label="{label}"];')
        lines += [f'  "S_{p}" -> "S_{c}";' for p, c in step_edges(tracker)]
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- Mermaid
def mermaid_text(text: str) -> str:
    """Label text as Mermaid entities (Mermaid knows no backslash escapes); newlines -> <br/>."""
    for raw, entity in (
        ("#", "#35;"),
        ("&", "#38;"),
        ('"', "#quot;"),
        ("<", "#lt;"),
        (">", "#gt;"),
    ):
        text = text.replace(raw, entity)
    return text.replace("\n", "<br/>")


def mermaid_ids(names: list[str], prefix: str) -> dict[str, str]:
    """Each name -> `prefix` + the name with `[^A-Za-z0-9_]` replaced by `_`, made unique."""
    used: set[str] = set()
    out: dict[str, str] = {}
    for name in names:
        base = prefix + re.sub(r"[^A-Za-z0-9_]", "_", str(name))
        ident, k = base, 2
        while ident in used:
            ident, k = f"{base}_{k}", k + 1
        used.add(ident)
        out[name] = ident
    return out


def to_mermaid(tracker: DependencyTracker, mode: str = "step") -> str:
    lines = ["flowchart TD"]
    graph = tracker.graph
    if _check_mode(mode):
        ids = mermaid_ids(tracker.nodes(), "N_")
        for node, ident in ids.items():
            a = graph.nodes[node]
            label = mermaid_text(f"{a['step']}:{a['seq']} {a['actor']} {a['rule']}")
            if a["hint"]:
                label += "<br/>" + mermaid_text(a["hint"])
            lines.append(f'  {ident}["{label}"]')
        lines += [f"  {ids[p]} --> {ids[c]}" for p, c in tracker.edges()]
    else:
        steps = steps_present(tracker)
        ids = mermaid_ids([f"{s}" for s in steps], "S_")
        for step in steps:
            hints = _hint_block(tracker.step_hints.get(step, []), mermaid_text)
            lines.append(f'  {ids[str(step)]}["{"<br/>".join([f"step {step}", *hints])}"]')
        lines += [f"  {ids[str(p)]} --> {ids[str(c)]}" for p, c in step_edges(tracker)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- SVG arc diagram
SVG_DEFAULTS: dict[str, Any] = {
    "step_px": 70, "margin_x": 30, "margin_y": 30, "tick_len": 10, "base_arc": 80,
    "level_gap": 80, "font_size": 15, "show_all_steps": True, "background": "#ffffff",
    "axis_color": "#111111", "grid_color": "#e9e9e9", "arc_color": "#111111", "arc_width": 2.0,
    "arc_opacity": 0.65, "axis_width": 2.5, "tick_width": 2.0, "dot_radius": 3.0,
    "dot_stroke_width": 2.0,
    "font_family": "ui-sans-serif, system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial",
    "show_grid": True, "banded": True, "arrows": True,
}  # fmt: skip


def _arc_intervals(tracker: DependencyTracker, index: dict[int, int]) -> list[dict[str, Any]]:
    """One interval per connected pair of axis positions, packed in levels."""
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for src, dst in step_edges(tracker):
        if src not in index or dst not in index or index[src] == index[dst]:
            continue
        a, b = sorted((index[src], index[dst]))
        entry = found.setdefault((a, b), {"a": a, "b": b, "lr": False, "rl": False, "ex": []})
        entry["lr" if index[src] < index[dst] else "rl"] = True
        entry["ex"].append((src, dst))
    level_ends: list[int] = []
    for entry in sorted(found.values(), key=lambda e: (e["a"], e["b"])):
        level = next((i for i, end in enumerate(level_ends) if end <= entry["a"]), None)
        if level is None:
            level = len(level_ends)
            level_ends.append(entry["b"])
        level_ends[level] = entry["b"]
        entry["level"] = level
    return sorted(found.values(), key=lambda e: (e["a"], e["b"]))


def _svg_style(o: dict[str, Any]) -> list[str]:
    css = (
        f".bg {{ fill: {o['background']}; }} "
        f".axis {{ stroke: {o['axis_color']}; stroke-width: {o['axis_width']}; "
        "stroke-linecap: round; } "
        f".tick {{ stroke: {o['axis_color']}; stroke-width: {o['tick_width']}; }} "
        f".grid {{ stroke: {o['grid_color']}; stroke-width: 1; }} "
        f".label {{ fill: {o['axis_color']}; font-family: {o['font_family']}; "
        f"font-size: {o['font_size']}px; }} "
        f".dot {{ fill: {o['background']}; stroke: {o['axis_color']}; "
        f"stroke-width: {o['dot_stroke_width']}; }} "
        f".arc {{ stroke: {o['arc_color']}; stroke-width: {o['arc_width']}; "
        f"stroke-linecap: round; fill: none; opacity: {o['arc_opacity']}; }} "
        ".arcBelow { stroke-dasharray: 6 4; } .band { fill: rgba(0,0,0,0.03); }"
    )
    out = ["<defs>", f"<style><![CDATA[{css}]]></style>"]
    if o["arrows"]:
        for ident, size, color in (("arrow", 7, o["arc_color"]), ("axisArrow", 8, o["axis_color"])):
            out.append(
                f'<marker id="{ident}" viewBox="0 0 10 10" refX="9" refY="5" '
                f'markerWidth="{size}" markerHeight="{size}" orient="auto">'
                f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{xml_escape(str(color), XML_ATTR)}"/>'
                "</marker>"
            )
    return [*out, "</defs>"]


def to_axis_svg(tracker: DependencyTracker, **options: Any) -> str:
    """Steps on a horizontal axis, one arc per pair of connected steps."""
    unknown = set(options) - set(SVG_DEFAULTS)
    if unknown:
        raise TypeError(f"unknown SVG option(s): {', '.join(sorted(unknown))}")
    o = {**SVG_DEFAULTS, **options}
    present = steps_present(tracker)
    low, high = (min(present[0], 0), present[-1]) if present else (0, 0)
    axis = list(range(low, high + 1)) if o["show_all_steps"] else present or [0]
    intervals = _arc_intervals(tracker, {step: i for i, step in enumerate(axis)})
    above = [e["level"] // 2 for e in intervals if e["level"] % 2 == 0]
    below = [e["level"] // 2 for e in intervals if e["level"] % 2 == 1]
    width = 2 * o["margin_x"] + (len(axis) - 1) * o["step_px"] + 60
    top = (max(above) + 1) * o["level_gap"] + o["base_arc"] if above else o["base_arc"]
    bottom = (max(below) + 1) * o["level_gap"] + o["base_arc"] if below else o["base_arc"]
    axis_y = o["margin_y"] + top
    height = axis_y + bottom + o["margin_y"] + 60
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" preserveAspectRatio="xMidYMid meet">',
        *_svg_style(o),
        f'<rect class="bg" x="0" y="0" width="{width}" height="{height}"/>',
        *_svg_axis(o, axis, axis_y, height),
        *_svg_arcs(o, intervals, axis_y),
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def _x(o: dict[str, Any], i: int) -> float:
    return float(o["margin_x"] + i * o["step_px"])


def _svg_axis(o: dict[str, Any], axis: list[int], axis_y: int, height: int) -> list[str]:
    """Bands, the axis line, grid lines, and a tick, label and dot per step."""
    n, out = len(axis), []
    if o["banded"] and n >= 2:
        out += [
            f'<rect class="band" x="{_x(o, i)}" y="0" width="{o["step_px"]}" height="{height}"/>'
            for i in range(1, n - 1, 2)
        ]
    marker = ' marker-end="url(#axisArrow)"' if o["arrows"] else ""
    end = _x(o, n - 1) + 40
    out.append(
        f'<line class="axis" x1="{_x(o, 0)}" y1="{axis_y}" x2="{end}" y2="{axis_y}"{marker}/>'
    )
    if o["show_grid"]:
        y1, y2 = o["margin_y"] / 2, height - o["margin_y"] / 2
        out += [
            f'<line class="grid" x1="{_x(o, i)}" y1="{y1}" x2="{_x(o, i)}" y2="{y2}"/>'
            for i in range(n)
        ]
    half = o["tick_len"] / 2
    label_y = axis_y + half + o["font_size"] + 8
    for i, step in enumerate(axis):
        x = _x(o, i)
        out += [
            f'<line class="tick" x1="{x}" y1="{axis_y - half}" x2="{x}" y2="{axis_y + half}"/>',
            f'<text class="label" x="{x}" y="{label_y}" text-anchor="middle">{step}</text>',
            f'<circle class="dot" cx="{x}" cy="{axis_y}" r="{o["dot_radius"]}"/>',
        ]
    return out


def _svg_arcs(o: dict[str, Any], intervals: list[dict[str, Any]], axis_y: int) -> list[str]:
    """One quadratic arc per interval: even levels above the axis, odd ones below (dashed)."""
    out = []
    for e in intervals:
        sign = -1 if e["level"] % 2 == 0 else 1
        cy = axis_y + sign * (o["base_arc"] + (e["level"] // 2) * o["level_gap"])
        sx, ex = _x(o, e["a"]), _x(o, e["b"])
        if e["rl"] and not e["lr"]:
            sx, ex = ex, sx
        cls = "arc" if sign < 0 else "arc arcBelow"
        one_way = e["lr"] != e["rl"]
        end = ' marker-end="url(#arrow)"' if one_way and o["arrows"] else ""
        src, dst = e["ex"][0]
        title = xml_escape(f"{src} -> {dst}", XML_ATTR)
        out.append(
            f'<path class="{cls}" d="M {sx} {axis_y} Q {(sx + ex) / 2} {cy} {ex} {axis_y}"{end}>'
            f"<title>{title}</title></path>"
        )
    return out


# ---------------------------------------------------------------------------- files
def summary_text(tracker: DependencyTracker) -> str:
    """The JSON summary as written: 2-space indent, non-ASCII kept."""
    return json.dumps(summary(tracker), indent=2, ensure_ascii=False) + "\n"


def write_summary(tracker: DependencyTracker, path: str | Path) -> Path:
    """The JSON summary, written atomically (folders made as needed)."""
    write_atomically(path, summary_text(tracker))
    return Path(path)


def write_all(tracker: DependencyTracker, folder: str | Path, stem: str) -> dict[str, Path]:
    """Every format, each written once (atomically) into `folder`; returns format -> path."""
    folder = Path(folder)
    texts = {
        f"{stem}_dep.json": summary_text(tracker),
        f"{stem}_node_link.json": json.dumps(node_link(tracker), indent=2, ensure_ascii=False),
        f"{stem}.dot": to_dot(tracker, "action"),
        f"{stem}_steps.dot": to_dot(tracker, "step"),
        f"{stem}.mmd": to_mermaid(tracker, "step"),
        f"{stem}_actions.mmd": to_mermaid(tracker, "action"),
        f"{stem}.graphml": to_graphml(tracker),
        f"{stem}.svg": to_axis_svg(tracker),
    }
    kinds = (
        "json",
        "node_link",
        "dot",
        "dot_steps",
        "mermaid",
        "mermaid_actions",
        "graphml",
        "svg",
    )
    written: dict[str, Path] = {}
    for kind, (name, text) in zip(kinds, texts.items(), strict=True):
        write_atomically(folder / name, text)
        written[kind] = folder / name
    return written
