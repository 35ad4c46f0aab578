"""The area graph's layout: every area once, the same picture every time, locks and dark areas."""

from __future__ import annotations

import json

import pytest
from published_copy import published_copy
from worlds_helper import bundled_worlds

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.viewer.layout import area_layout


def world_of(name: str, seed: int = 0):
    game = Game(name, 2)
    game.reset(seed)
    return game.world


@pytest.mark.parametrize("name", [*bundled_worlds(), "procgen:small"])
def test_every_area_place_and_path_once_and_deterministic(name: str) -> None:
    world = world_of(name)
    first = area_layout(world)
    assert json.dumps(first) == json.dumps(area_layout(world_of(name)))
    assert sorted(a["id"] for a in first["areas"]) == sorted(world.areas)
    assert {a["place"] for a in first["areas"]} <= {p["id"] for p in first["places"]}
    assert len(first["paths"]) == world.graph.edge_count
    locked = {frozenset((a, b)) for a, b, d in world.graph.nx.edges(data=True) if d["locked"]}
    assert {frozenset((p["a"], p["b"])) for p in first["paths"] if p["locked"]} == locked
    x, y, w, h = first["view"]
    for area in first["areas"]:  # inside its place's box, and inside the view
        box = next(p["box"] for p in first["places"] if p["id"] == area["place"])
        assert box[0] <= area["x"] <= box[0] + box[2] and box[1] <= area["y"] <= box[1] + box[3]
        assert x <= area["x"] <= x + w and y <= area["y"] <= y + h


def test_the_default_world_has_a_locked_place_and_path_with_its_key() -> None:
    drawn = area_layout(world_of("default"))
    assert any(p["locked"] for p in drawn["places"])
    assert any(p["locked"] and p["key"] for p in drawn["paths"])
    assert not drawn["darkness"] and not any(a["dark"] for a in drawn["areas"])


def test_dark_areas_are_marked_in_a_world_with_darkness() -> None:
    published_copy()
    world = world_of("agentodyssey:remnant")
    drawn = area_layout(world)
    assert drawn["darkness"]
    dark = {a["id"] for a in drawn["areas"] if a["dark"]}
    assert dark and dark == {a.id for a in world.areas.values() if not a.light}
