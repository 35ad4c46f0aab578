"""Exports of the dependency graph parse back to the graph they came from.

docs/mechanics/dependency-tracking.md#exports. networkx reads the node-link JSON and the GraphML
into graphs with the tracker's nodes, attributes and edges; DOT and Mermaid are parsed line by line
(every node declared once, every edge line well formed and between declared nodes, ids escaped or
sanitised); the SVG is well-formed XML with the arc geometry; `export(folder)` writes every file
exactly once.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from conftest import load_raw

import agentodyssey_pz.deps.export as export_module
from agentodyssey_pz.deps import ROOT, DependencyTracker
from agentodyssey_pz.deps.export import mermaid_ids, step_edges, steps_present
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.rules.events import Event
from agentodyssey_pz.world.validate import parse_definition

SVG = "{http://www.w3.org/2000/svg}"
QUOTED = r'"((?:[^"\\]|\\.)*)"'
DOT_NODE = re.compile(rf"^  {QUOTED} \[label={QUOTED}\];$")
DOT_EDGE = re.compile(rf"^  {QUOTED} -> {QUOTED};$")
MERMAID_NODE = re.compile(r'^  ([A-Za-z0-9_]+)\["([^"]*)"\]$')
MERMAID_EDGE = re.compile(r"^  ([A-Za-z0-9_]+) --> ([A-Za-z0-9_]+)$")


# ---------------------------------------------------------------------------- graphs to export
def craft_chain() -> DependencyTracker:
    raw = load_raw("tiny_world.json")
    raw["initializations"]["spawn"]["objects"]["obj_pear"] = 1
    game = Game(parse_definition(raw), 2, tracker_factory=lambda: DependencyTracker(strict=True))
    game.reset(0)
    for command in [
        "pick up pear",
        "craft 2 cider",
        "pick up cider",
        "pick up cider",
        "craft 1 key",
    ]:
        assert game.tick({"agent_0": command, "agent_1": "wait"}).action_ok["agent_0"]
    return game.tracker


def random_game(ticks: int = 150) -> DependencyTracker:
    game = Game("default", 3, tracker_factory=DependencyTracker)
    game.reset(3)
    rng = random.Random(3)
    for _ in range(ticks):
        game.tick({
            a: rng.choice([c for cs in valid_actions(game, a).values() for c in cs])
            for a in game.agent_ids
        })  # fmt: skip
    return game.tracker


def move(src: tuple[str, str], dst: tuple[str, str]) -> Event:
    return Event("track.move", "x", {"obj_id": "obj_x", "amount": 1,
                                     "src": {"kind": src[0], "id": src[1]},
                                     "dst": {"kind": dst[0], "id": dst[1]}})  # fmt: skip


def awkward() -> DependencyTracker:
    """Names full of characters DOT, Mermaid and XML care about; one step with many hints."""
    t = DependencyTracker(strict=True)
    t.spawn_tokens("obj_x", 2, ("area", "a"), ROOT)
    t.process(0, 'ag "q" \\', "pick up", [move(("area", "a"), ("hand", "h"))],
              hint='say "hi" \\ back\nslash <b>&amp; #1 é')  # fmt: skip
    t.process(0, "ag-q", "pick up", [move(("area", "a"), ("hand", "h"))])
    t.process(1, "a:b", 'd"rop', [move(("hand", "h"), ("area", "a"))], hint="end")
    t.process(2, "end", "graph", [move(("area", "a"), ("hand", "h"))])
    for i in range(11):
        t.process(3, "env", f"rule_{i}", [], hint=f"hint {i}")
    t.process(4, "agent_0", "drop", [move(("hand", "h"), ("area", "b"))])
    return t


TRACKERS = {"chain": craft_chain, "random": random_game, "awkward": awkward}


@pytest.fixture(scope="module", params=list(TRACKERS))
def tracker(request: pytest.FixtureRequest) -> DependencyTracker:
    return TRACKERS[request.param]()


def attributes(graph: nx.DiGraph) -> dict[str, dict[str, Any]]:
    return {n: dict(graph.nodes[n]) for n in graph.nodes}


def expected_nodes(tracker: DependencyTracker) -> dict[str, dict[str, Any]]:
    return {n: dict(tracker.graph.nodes[n]) for n in tracker.nodes()}


# ---------------------------------------------------------------------------- JSON and GraphML
def test_the_node_link_json_reads_back_into_the_same_graph(
    tracker: DependencyTracker, tmp_path: Path
) -> None:
    paths = tracker.export(tmp_path)
    data = json.loads(paths["node_link"].read_text(encoding="utf-8"))
    graph = nx.node_link_graph(data)
    assert isinstance(graph, nx.DiGraph) and graph.is_directed()
    assert attributes(graph) == expected_nodes(tracker)
    assert sorted(graph.edges) == sorted(tracker.edges())
    assert ROOT not in graph


def test_the_graphml_reads_back_into_the_same_graph(
    tracker: DependencyTracker, tmp_path: Path
) -> None:
    paths = tracker.export(tmp_path)
    graph = nx.read_graphml(paths["graphml"])
    assert attributes(graph) == expected_nodes(tracker)  # step and seq come back as ints
    assert sorted(graph.edges) == sorted(tracker.edges())


def test_the_json_summary_matches_the_edges(tracker: DependencyTracker, tmp_path: Path) -> None:
    paths = tracker.export(tmp_path)
    summary = json.loads(paths["json"].read_text(encoding="utf-8"))
    assert summary == tracker.to_dict()
    nodes = tracker.graph.nodes
    expected: Counter[tuple[str, int, int]] = Counter(
        (f"{nodes[p]['rule']} -> {nodes[c]['rule']}", nodes[p]["step"], nodes[c]["step"])
        for p, c in tracker.edges()
    )
    found = Counter((key, s, d) for key, pairs in summary["edges"].items() for s, d in pairs)
    assert found == expected
    assert all(pairs == sorted(pairs) for pairs in summary["edges"].values())
    assert summary["steps"] == steps_present(tracker)
    assert paths["json"].read_text(encoding="utf-8").startswith('{\n  "edges"')  # indent 2


def test_the_json_keeps_non_ascii_text(tmp_path: Path) -> None:
    paths = awkward().export(tmp_path)
    assert "é" in paths["json"].read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- DOT
def dot_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def parse_dot(text: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Declared node id -> label, and edges, of our DOT files; fails on any other line."""
    lines = text.splitlines()
    assert lines[:3] == ["digraph deps {", '  rankdir="LR";', "  node [shape=box];"]
    assert lines[-1] == "}"
    nodes: dict[str, str] = {}
    edges: list[tuple[str, str]] = []
    for line in lines[3:-1]:
        if node := DOT_NODE.match(line):
            ident = dot_unescape(node.group(1))
            assert ident not in nodes, f"{ident!r} declared twice"
            nodes[ident] = dot_unescape(node.group(2))
        elif edge := DOT_EDGE.match(line):
            edges.append((dot_unescape(edge.group(1)), dot_unescape(edge.group(2))))
        else:
            pytest.fail(f"not a node or edge line: {line!r}")
    assert {n for e in edges for n in e} <= set(nodes), "an edge names an undeclared node"
    return nodes, edges


def test_action_dot_declares_every_node_once_and_every_edge(tracker: DependencyTracker) -> None:
    nodes, edges = parse_dot(tracker.to_dot())
    assert list(nodes) == tracker.nodes()
    assert edges == tracker.edges()
    for node, label in nodes.items():
        a = tracker.graph.nodes[node]
        head = f"step {a['step']}\n{a['actor']}\n{a['rule']} ({a['seq']})"
        assert label == (f"{head}\n{a['hint']}" if a["hint"] else head)


def test_step_dot_collapses_edges_by_step(tracker: DependencyTracker) -> None:
    nodes, edges = parse_dot(tracker.to_dot("step"))
    assert list(nodes) == [f"S_{s}" for s in steps_present(tracker)]
    assert edges == [(f"S_{p}", f"S_{c}") for p, c in step_edges(tracker)]
    assert all(p != c for p, c in edges)


def test_step_views_show_eight_hints_and_count_the_rest() -> None:
    t = awkward()
    nodes, _ = parse_dot(t.to_dot("step"))
    assert nodes["S_3"] == "\n".join(["step 3", *(f"hint {i}" for i in range(8)), "... (+3 more)"])
    mermaid = dict(parse_mermaid(t.to_mermaid("step"))[0])
    assert mermaid["S_3"].endswith("hint 7<br/>... (+3 more)")


def test_an_unknown_mode_is_refused() -> None:
    t = awkward()
    with pytest.raises(ValueError, match="mode must be one of action, step"):
        t.to_dot("steps")
    with pytest.raises(ValueError, match="mode must be one of action, step"):
        t.to_mermaid("node")


# ---------------------------------------------------------------------------- Mermaid
def parse_mermaid(text: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    lines = text.splitlines()
    assert lines[0] == "flowchart TD"
    nodes: list[tuple[str, str]] = []
    edges: list[tuple[str, str]] = []
    for line in lines[1:]:
        if node := MERMAID_NODE.match(line):
            nodes.append((node.group(1), node.group(2)))
        elif edge := MERMAID_EDGE.match(line):
            edges.append((edge.group(1), edge.group(2)))
        else:
            pytest.fail(f"not a node or edge line: {line!r}")
    ids = [n for n, _ in nodes]
    assert len(ids) == len(set(ids)), "a node is declared twice"
    assert {n for e in edges for n in e} <= set(ids), "an edge names an undeclared node"
    for _, label in nodes:  # only our own line breaks are markup; text uses entities
        assert not re.search(r"[<>]", label.replace("<br/>", "")), label
    return nodes, edges


def test_action_mermaid_declares_every_node_once_with_sanitised_ids(
    tracker: DependencyTracker,
) -> None:
    nodes, edges = parse_mermaid(tracker.to_mermaid("action"))
    by_node = dict(zip(tracker.nodes(), (n for n, _ in nodes), strict=True))
    assert edges == [(by_node[p], by_node[c]) for p, c in tracker.edges()]


def test_step_mermaid_declares_every_step_once(tracker: DependencyTracker) -> None:
    nodes, edges = parse_mermaid(tracker.to_mermaid())
    by_step = dict(zip(steps_present(tracker), (n for n, _ in nodes), strict=True))
    assert edges == [(by_step[p], by_step[c]) for p, c in step_edges(tracker)]


def test_mermaid_text_uses_entities() -> None:
    nodes, _ = parse_mermaid(awkward().to_mermaid("action"))
    label = nodes[0][1]
    assert label == (
        "0:0 ag #quot;q#quot; \\ pick up<br/>say #quot;hi#quot; \\ back<br/>slash "
        "#lt;b#gt;#38;amp; #35;1 é"
    )


def test_mermaid_ids_are_sanitised_and_unique() -> None:
    ids = mermaid_ids(["a b", "a_b", "a-b", "a_b_2", "-1", "é"], "N_")
    assert list(ids.values()) == ["N_a_b", "N_a_b_2", "N_a_b_3", "N_a_b_2_2", "N__1", "N__"]


# ---------------------------------------------------------------------------- SVG
def test_the_svg_arc_diagram_follows_the_spec_geometry() -> None:
    root = ET.fromstring(craft_chain().to_axis_svg())
    # Steps -1..4 on the axis; arcs 0->1, 1->2, 1->3, 2->4, 3->4 pack into two levels.
    assert (root.get("width"), root.get("height")) == ("470", "440")
    assert root.get("viewBox") == "0 0 470 440"
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert labels == ["-1", "0", "1", "2", "3", "4"]
    arcs = [p for p in root.iter(f"{SVG}path") if "arc" in (p.get("class") or "")]
    assert [p.find(f"{SVG}title").text for p in arcs] == [
        "0 -> 1", "1 -> 2", "1 -> 3", "2 -> 4", "3 -> 4",
    ]  # fmt: skip
    assert [p.get("class") for p in arcs] == ["arc", "arc", "arc arcBelow", "arc", "arc arcBelow"]
    assert arcs[0].get("d") == "M 100.0 190 Q 135.0 110 170.0 190"
    assert all(p.get("marker-end") == "url(#arrow)" for p in arcs)


def test_the_svg_is_well_formed_for_any_graph(tracker: DependencyTracker) -> None:
    root = ET.fromstring(tracker.to_axis_svg(show_all_steps=False, arrows=False, banded=False))
    assert root.tag == f"{SVG}svg"
    labels = [int(t.text or "") for t in root.iter(f"{SVG}text")]
    assert labels == steps_present(tracker)
    arcs = [p for p in root.iter(f"{SVG}path") if "arc" in (p.get("class") or "")]
    pairs = {tuple(sorted(pair)) for pair in step_edges(tracker)}
    assert len(arcs) == len(pairs)
    assert not [p for p in root.iter(f"{SVG}path") if p.get("marker-end")]


def test_an_unknown_svg_option_is_refused() -> None:
    with pytest.raises(TypeError, match="unknown SVG option"):
        awkward().to_axis_svg(colour="red")


# ---------------------------------------------------------------------------- files
def test_export_writes_every_format_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: Counter[Path] = Counter()
    real = export_module.write_atomically

    def counting(path: Path, text: str) -> None:
        writes[Path(path)] += 1
        real(path, text)

    monkeypatch.setattr(export_module, "write_atomically", counting)
    paths = craft_chain().export(tmp_path / "deps", stem="run_7")
    assert set(paths) == {
        "json", "node_link", "dot", "dot_steps", "mermaid", "mermaid_actions", "graphml", "svg",
    }  # fmt: skip
    assert sorted(writes.values()) == [1] * 8 and set(writes) == set(paths.values())
    assert sorted(p.name for p in (tmp_path / "deps").iterdir()) == sorted(
        [
            "run_7_dep.json", "run_7_node_link.json", "run_7.dot", "run_7_steps.dot",
            "run_7.mmd", "run_7_actions.mmd", "run_7.graphml", "run_7.svg",
        ]
    )  # fmt: skip


def test_no_export_mentions_the_root(tmp_path: Path) -> None:
    paths = random_game(60).export(tmp_path)
    for path in paths.values():
        assert ROOT not in path.read_text(encoding="utf-8"), path.name


# ---------------------------------------------------------------------------- periodic export
def play_discrete(env: Any, ticks: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    observations, _ = env.reset(seed=seed)
    for _ in range(ticks):
        observations, *_ = env.step(
            {
                a: rng.choice([int(i) for i in observations[a]["action_mask"].nonzero()[0]])
                for a in env.agents
            }
        )


def test_save_dep_graph_steps_writes_the_summary_every_n_ticks(tmp_path: Path) -> None:
    """After every non-bootstrap tick whose number is a multiple of N, the JSON summary
    goes to `dep_graphs/dependency_graph_step_<tick>_dep.json` (2-space indent)."""
    import agentodyssey_pz

    env = agentodyssey_pz.parallel_env(
        num_agents=2, tutorial=False, save_dep_graph_steps=4, dep_graph_dir=str(tmp_path)
    )
    play_discrete(env, 9)
    folder = tmp_path / "dep_graphs"
    assert sorted(p.name for p in folder.iterdir()) == [
        "dependency_graph_step_4_dep.json",
        "dependency_graph_step_8_dep.json",
    ]
    text = (folder / "dependency_graph_step_8_dep.json").read_text(encoding="utf-8")
    assert text.startswith('{\n  "edges"')
    data = json.loads(text)
    assert set(data) == {"edges", "step_hints", "steps"} and max(data["steps"]) == 7
    assert env.unwrapped.game.tracker is not None  # the option turns tracking on


def test_the_summary_goes_to_the_episode_folder_or_the_working_directory(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import agentodyssey_pz

    journaled = agentodyssey_pz.parallel_env(
        num_agents=1, tutorial=False, save_dep_graph_steps=2, checkpoint_dir=str(tmp_path / "ck")
    )
    play_discrete(journaled, 2)
    episode = Path(journaled.unwrapped.checkpoint_folder)
    assert (episode / "dep_graphs" / "dependency_graph_step_2_dep.json").is_file()
    journaled.close()
    monkeypatch.chdir(tmp_path)
    plain = agentodyssey_pz.parallel_env(num_agents=1, tutorial=False, save_dep_graph_steps=2)
    play_discrete(plain, 2)
    assert (tmp_path / "dep_graphs" / "dependency_graph_step_2_dep.json").is_file()


def test_the_summary_goes_on_after_resuming_a_checkpoint_folder(tmp_path: Path) -> None:
    """The resumed game keeps its tracker (it was dropped on a folder resume before)."""
    import agentodyssey_pz

    settings = {"num_agents": 1, "tutorial": False, "save_dep_graph_steps": 2}
    first = agentodyssey_pz.parallel_env(checkpoint_dir=str(tmp_path / "ck"), **settings)
    play_discrete(first, 2)
    folder = first.unwrapped.checkpoint_folder
    first.close()
    again = agentodyssey_pz.parallel_env(dep_graph_dir=str(tmp_path / "out"), **settings)
    again.reset(options={"resume": folder})
    assert again.unwrapped.game.tracker is not None
    for _ in range(2):
        again.step({"agent_0": "wait"})
    assert (tmp_path / "out" / "dep_graphs" / "dependency_graph_step_4_dep.json").is_file()
