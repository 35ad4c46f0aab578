"""Pictures of a world: `write_map(game, path)` writes an SVG map of the area graph."""

from __future__ import annotations

from agentodyssey_pz.viz.map_svg import layout, map_svg, write_map

__all__ = ["layout", "map_svg", "write_map"]
