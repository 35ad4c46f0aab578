"""Shared fixtures: the tiny hand-written world, bundled worlds, seeded worlds."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz.world.validate import parse_definition

DATA = Path(__file__).parent / "data"


def load_raw(name: str) -> dict[str, Any]:
    """A hand-written test world from tests/data as raw JSON data (a fresh copy each call)."""
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


# Values of every JSON type, for fuzzing loaders: replacing a valid value with one of these.
JSON_JUNK = (None, 0, -1, 2.5, 10**12, True, "", "x", "$nope", "{nope}", [], [1], [None], [{}],
             {}, {"a": 1})  # fmt: skip


def damage_json(data: Any, rng: random.Random) -> None:
    """Replace one value anywhere inside `data` (not `data` itself) by a random junk value."""
    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        if isinstance(value, (dict, list)):
            for key, child in value.items() if isinstance(value, dict) else enumerate(value):
                paths.append((*path, key))
                walk(child, (*path, key))

    walk(data, ())
    *parents, last = rng.choice(paths)
    for key in parents:
        data = data[key]
    data[last] = copy.deepcopy(rng.choice(JSON_JUNK))


def damaged_copies(data: Any, seed: Any, count: int, most: int = 3) -> Iterator[Any]:
    """`count` deep copies of `data`, each with 1..`most` values replaced by junk (seeded)."""
    rng = random.Random(seed)
    for _ in range(count):
        copied = copy.deepcopy(data)
        for _ in range(rng.randint(1, most)):
            damage_json(copied, rng)
        yield copied


@pytest.fixture(scope="session")
def published():
    """The user's copy of AgentOdyssey (tests/published_copy.py: skipped without one)."""
    from published_copy import published_copy

    return published_copy()


@pytest.fixture
def tiny_raw() -> dict[str, Any]:
    return load_raw("tiny_world.json")


@pytest.fixture
def tiny_definition(tiny_raw: dict[str, Any]):
    return parse_definition(copy.deepcopy(tiny_raw))
