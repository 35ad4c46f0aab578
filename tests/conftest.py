"""Shared fixtures: the tiny hand-written world, bundled worlds, seeded worlds."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from agentodyssey_pz.world.validate import parse_definition

DATA = Path(__file__).parent / "data"


def load_raw(name: str) -> dict[str, Any]:
    """A hand-written test world from tests/data as raw JSON data (a fresh copy each call)."""
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture
def tiny_raw() -> dict[str, Any]:
    return load_raw("tiny_world.json")


@pytest.fixture
def tiny_definition(tiny_raw: dict[str, Any]):
    return parse_definition(copy.deepcopy(tiny_raw))
