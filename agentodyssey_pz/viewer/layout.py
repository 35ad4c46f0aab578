"""The area graph's drawing: where each area, place box and path goes, worked out in Python.

Side module (viewer). The positions are those of the SVG map (`observe.map_svg.layout`: seeded
networkx spring layouts, one of the places and one of each place's areas, boxes pushed apart), so
the same world and seed always give the same picture. The page draws them as inline SVG, one
element per area carrying its id (`data-area`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentodyssey_pz.observe.map_svg import MARGIN, NODE_RADIUS, layout
from agentodyssey_pz.world.graph import KEY, LOCKED, OWNER


def area_layout(
    world: Any, seed: int = 0, since: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """Plain data for the page: areas, places, paths and the view box (numbers rounded to 0.1).
    `since`: the tick each area first existed (areas a world expansion added later are hidden
    before it); without it every area is there from the start."""
    from agentodyssey_pz.world.darkness import has_darkness

    positions, boxes = layout(world, seed)
    darkness = has_darkness(world)
    areas = []
    for area_id, (x, y) in positions.items():
        area = world.areas[area_id]
        areas.append(
            {
                "id": area_id,
                "name": area.name,
                "place": area.place_id,
                "level": int(area.level),
                "x": round(float(x), 1),
                "y": round(float(y), 1),
                "dark": bool(darkness and not area.light),
                "spawn": area_id == world.spawn_area,
                "since": int((since or {}).get(area_id, 0)),
            }
        )
    places = []
    for place_id, (x0, y0, x1, y1) in boxes.items():
        place = world.places[place_id]
        places.append(
            {
                "id": place_id,
                "name": place.name,
                "locked": not place.unlocked,
                "box": [round(float(v), 1) for v in (x0, y0, x1 - x0, y1 - y0)],
            }
        )
    paths = []
    for a, b, data in world.graph.nx.edges(data=True):
        if a not in positions or b not in positions:
            continue
        key = data.get(KEY)
        found = world.objects.get(key) if key is not None else None
        paths.append(
            {
                "a": a,
                "b": b,
                "personal": data.get(OWNER) is not None,
                "key": found.name if found is not None else key,
                "locked": bool(data.get(LOCKED)),
            }
        )
    if boxes:
        xs = [p["box"][0] for p in places] + [p["box"][0] + p["box"][2] for p in places]
        ys = [p["box"][1] for p in places] + [p["box"][1] + p["box"][3] for p in places]
        view = [min(xs) - MARGIN, min(ys) - MARGIN, max(xs) - min(xs) + 2 * MARGIN,
                max(ys) - min(ys) + 2 * MARGIN]  # fmt: skip
    else:
        view = [0.0, 0.0, 200.0, 100.0]
    return {
        "areas": areas,
        "places": places,
        "paths": paths,
        "view": [round(float(v), 1) for v in view],
        "radius": NODE_RADIUS,
        "darkness": darkness,
    }
