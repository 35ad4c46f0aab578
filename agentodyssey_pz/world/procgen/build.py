"""The working state of one generation run, and its geography: places of areas whose levels climb
from the spawn outward."""

from __future__ import annotations

import math
import random
from typing import Any

import attrs

from agentodyssey_pz.world.procgen.spec import ProcgenSpec
from agentodyssey_pz.world.wordbook import LANDFORMS, NameBook


@attrs.define
class Tier:
    """What later recipes of one material tier (= area level) build on."""

    level: int
    stem: str = ""  # shared by the tier's ore, ingot and most of its gear
    ingot: str = ""
    drop: str = ""
    smelter: str = ""  # station for the tier's ingots and smelted materials
    parts: list[str] = attrs.Factory(list)  # processed materials used as secondary ingredients
    raws: list[str] = attrs.Factory(list)


@attrs.define
class Build:
    """Working state of one generation run."""

    spec: ProcgenSpec
    rng: random.Random
    names: NameBook
    places: list[dict[str, Any]] = attrs.Factory(list)
    areas_by_level: dict[int, list[str]] = attrs.Factory(dict)  # non-spawn areas only
    spawn_area: str = ""
    objects: dict[str, dict[str, Any]] = attrs.Factory(dict)
    depth: dict[str, int] = attrs.Factory(dict)  # longest recipe chain ending in each object
    roles: dict[str, str] = attrs.Factory(dict)  # fixed role -> object id (bench, pen ...)
    tiers: list[Tier] = attrs.Factory(list)
    trophies: list[tuple[Tier, str]] = attrs.Factory(list)
    undistributable: list[str] = attrs.Factory(list)


def _place_sizes(spec: ProcgenSpec, rng: random.Random) -> list[int]:
    """Place sizes within `areas_per_place` adding up to exactly `target_areas`."""
    low, high = spec.areas_per_place
    count = math.ceil(spec.target_areas / ((low + high) / 2))
    count = min(max(count, math.ceil(spec.target_areas / high)), spec.target_areas // low)
    sizes = [low] * count
    for _ in range(spec.target_areas - low * count):
        sizes[rng.choice([i for i, size in enumerate(sizes) if size < high])] += 1
    return sizes


def _new_area(build: Build, index: int) -> dict[str, Any]:
    spec, rng = build.spec, build.rng
    # Levels climb along the line of places, so distance from the spawn means difficulty.
    level = 1 + index * spec.max_level // spec.target_areas
    name = build.names.word(rng.choice((2, 2, 3)))
    lit = index == 0 or rng.random() < spec.lit_area_fraction
    area = {"type": "area", "id": f"area_{name}", "name": name, "level": level, "light": lit}
    if index == 0:
        build.spawn_area = area["id"]
    else:
        build.areas_by_level.setdefault(level, []).append(area["id"])
    return area


def build_places(build: Build) -> None:
    spec, rng = build.spec, build.rng
    sizes = _place_sizes(spec, rng)
    locked_count = min(len(sizes) - 1, int(spec.locked_place_fraction * len(sizes) + 0.5))
    locked = set(rng.sample(range(1, len(sizes)), locked_count))
    first = 0
    for index, size in enumerate(sizes):
        name = f"{build.names.word().capitalize()} {rng.choice(LANDFORMS)}"
        areas = [_new_area(build, first + i) for i in range(size)]
        first += size
        place_id = "place_" + name.lower().replace(" ", "_")
        place = {"type": "place", "id": place_id, "name": name, "unlocked": index not in locked}
        build.places.append({**place, "areas": areas})


def pick_areas(build: Build, level: int, share: float) -> list[str]:
    """A random share (at least one) of the non-spawn areas of `level`, in definition order."""
    pool = build.areas_by_level[level]
    count = max(1, min(len(pool), round(len(pool) * share)))
    chosen = set(build.rng.sample(pool, count))
    return [area for area in pool if area in chosen]
