"""Dependency tracking: which earlier action made a later one possible, per item unit.

A side module on top of the engine (docs/mechanics/dependency-tracking.md). Switch it on per game:

    from agentodyssey_pz import Game
    from agentodyssey_pz.deps import DependencyTracker

    game = Game("default", 3, tracker_factory=DependencyTracker)
    game.reset(0)
    ...  # game.tick(...)
    game.tracker.export("dep_graphs")  # JSON summary, node-link, GraphML, DOT, Mermaid, SVG

`tracker.py` holds the tokens, nodes and edges; `export.py` the file formats.
"""

from __future__ import annotations

from agentodyssey_pz.deps.tracker import ROOT, DependencyTracker, TokenShortfallError

__all__ = ["ROOT", "DependencyTracker", "TokenShortfallError"]
