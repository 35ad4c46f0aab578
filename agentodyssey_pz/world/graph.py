"""The area graph: a networkx graph of areas whose edges are paths carrying lock state and key.

Layer: world core. A path is one undirected edge, so unlocking it from either side unlocks both
directions (the reference writes the two directions separately but always alike). Each area's
neighbours are listed in the order its paths were created, as observations show them; edges carry a
creation number so a saved graph is rebuilt with exactly the same neighbour order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import networkx as nx

# Edge attributes.
LOCKED = "locked"
KEY = "key"
ORDER = "order"
OWNER = (
    "owner"  # a personal path: only this agent sees and uses it (tutorial rooms); None = everyone
)


class AreaGraph:
    """Areas as nodes, paths as edges (`locked`: bool, `key`: object id or None)."""

    __slots__ = ("_adj", "_next_order", "nx")

    def __init__(self) -> None:
        self.nx: nx.Graph = nx.Graph()
        self._adj = self.nx._adj  # the plain dict-of-dicts: no view objects on the hot path
        self._next_order = 0

    def add_area(self, area_id: str) -> None:
        self.nx.add_node(area_id)

    def remove_area(self, area_id: str) -> None:
        self.nx.remove_node(area_id)

    def connect(
        self,
        a: str,
        b: str,
        *,
        locked: bool = False,
        key: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Create the path a<->b, or overwrite its lock state (keeping its neighbour order)."""
        if self.nx.has_edge(a, b):
            self.nx.edges[a, b].update({LOCKED: locked, KEY: key, OWNER: owner})
            return
        self.nx.add_edge(a, b, **{LOCKED: locked, KEY: key, OWNER: owner, ORDER: self._next_order})
        self._next_order += 1

    def disconnect(self, a: str, b: str) -> None:
        self.nx.remove_edge(a, b)

    def neighbors(self, area_id: str) -> Mapping[str, dict[str, Any]]:
        """Neighbour id -> path attributes, in the order the paths were created (every path,
        personal ones included; see `visible_neighbors`)."""
        return self._adj[area_id]

    def visible_neighbors(self, area_id: str, agent_id: str) -> list[str]:
        """Neighbours an agent can see and walk to: every path but other agents' personal ones."""
        seen = []  # a plain loop: a few paths, asked for every agent's text every tick
        for n, d in self._adj[area_id].items():
            owner = d[OWNER]
            if owner is None or owner == agent_id:
                seen.append(n)
        return seen

    def path(self, a: str, b: str) -> dict[str, Any] | None:
        return self._adj[a].get(b)

    def is_locked(self, a: str, b: str) -> bool:
        return bool(self._adj[a][b][LOCKED])

    def set_locked(self, a: str, b: str, locked: bool) -> None:
        self._adj[a][b][LOCKED] = locked

    def __contains__(self, area_id: object) -> bool:
        return area_id in self._adj

    def __len__(self) -> int:
        return self.nx.number_of_nodes()

    @property
    def edge_count(self) -> int:
        return self.nx.number_of_edges()

    def hop_distances(self, source: str) -> dict[str, int]:
        """Breadth-first hop counts from `source` over every path, locks ignored."""
        if source not in self._adj:
            return {}
        return dict(nx.single_source_shortest_path_length(self.nx, source))

    def furthest(self, source: str, candidates: Iterable[str]) -> str | None:
        """The candidate furthest from `source` (locks ignored); ties go to the earliest candidate.

        Unreachable candidates count as distance -1, so a reachable one always wins.
        """
        dist = self.hop_distances(source)
        best, best_d = None, -2
        for cand in candidates:
            d = dist.get(cand, -1)
            if d > best_d:
                best, best_d = cand, d
        return best

    def diameter(self) -> int:
        """Longest shortest path over the graph (locks ignored); 0 for an empty or single area.

        Computed per connected component, so a disconnected graph reports its widest part.
        """
        best = 0
        for component in nx.connected_components(self.nx):
            if len(component) > 1:
                best = max(best, _component_diameter(self.nx.subgraph(component)))
        return best

    def is_connected(self) -> bool:
        return len(self) > 0 and nx.is_connected(self.nx)

    def to_data(self) -> dict[str, Any]:
        """Plain data: nodes in insertion order, edges in creation order."""
        edges = sorted(self.nx.edges(data=True), key=lambda e: e[2][ORDER])
        return {
            "areas": list(self.nx.nodes),
            "paths": [[a, b, d[LOCKED], d[KEY], d[OWNER]] for a, b, d in edges],
            "next_order": self._next_order,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> AreaGraph:
        graph = cls()
        graph.nx.add_nodes_from(data["areas"])
        for a, b, locked, key, owner in data["paths"]:
            graph.connect(a, b, locked=locked, key=key, owner=owner)
        order = data["next_order"]
        if type(order) is not int or order < len(graph.nx.edges):
            raise ValueError(
                f"graph: 'next_order' must be a whole number >= the paths, got {order!r}"
            )
        graph._next_order = order
        return graph


def _component_diameter(graph: nx.Graph) -> int:
    # Trees (the random connectivity makes trees) need only two sweeps; otherwise use networkx's
    # exact eccentricity bounds.
    if graph.number_of_edges() == graph.number_of_nodes() - 1:
        far, _ = _bfs_far(graph, next(iter(graph)))
        _, d = _bfs_far(graph, far)
        return d
    return nx.diameter(graph, usebounds=True)


def _bfs_far(graph: nx.Graph, source: str) -> tuple[str, int]:
    seen = {source: 0}
    queue = deque([source])
    far = source
    while queue:
        u = queue.popleft()
        for v in graph.adj[u]:
            if v not in seen:
                seen[v] = seen[u] + 1
                if seen[v] > seen[far]:
                    far = v
                queue.append(v)
    return far, seen[far]
