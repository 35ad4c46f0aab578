"""Typed access to a reference checkpoint record: every problem names its JSON path.

Helpers of `reference.py` and `reference_world.py`. A `RecordProblem` carries the path and what
was expected there; the importer turns it into a `CheckpointError` naming the file too, so no bare
KeyError or TypeError ever escapes from a malformed record.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.world.world import World

MISSING = object()
_KINDS = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
}


class RecordProblem(Exception):
    """A record problem at a JSON path; turned into CheckpointError (with the file) at the top."""

    def __init__(self, path: str, expected: str) -> None:
        super().__init__(f"{path}: expected {expected}")


def is_a(value: Any, kind: Any) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return False  # JSON true is not a number here
    return isinstance(value, kinds)


def obj(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise RecordProblem(path, f"an object, got {type(value).__name__}")
    return value


def at(data: Any, key: str, kind: Any, path: str, default: Any = MISSING) -> Any:
    """`data[key]` of type `kind`, or `default` when absent (required when no default)."""
    data = obj(data, path)
    here = f"{path}.{key}"
    names = " or ".join(
        _KINDS.get(k, "null") for k in (kind if isinstance(kind, tuple) else (kind,))
    )
    if key not in data or (data[key] is None and default is not MISSING):
        if default is MISSING:
            raise RecordProblem(here, f"{names} (missing)")
        return default
    if not is_a(data[key], kind):
        raise RecordProblem(here, f"{names}, got {type(data[key]).__name__}")
    return data[key]


def counts(world: World, raw: Any, key: str, path: str, allowed: set | None = None) -> dict:
    """An id -> positive count table whose ids are objects (or instances) of the world."""
    table = at(raw, key, dict, path, default={})
    for oid, n in table.items():
        if world.find_def(oid) is None and oid not in (allowed or ()):
            raise RecordProblem(f"{path}.{key}.{oid}", "an object or instance id of this world")
        if not is_a(n, int) or n <= 0:
            raise RecordProblem(f"{path}.{key}.{oid}", f"a positive integer count, got {n!r}")
    return dict(table)


def amounts(table: dict, known: Any, where: str) -> dict:
    for oid, n in table.items():
        if not known(oid) or not is_a(n, (int, float)) or n < 0:
            raise RecordProblem(f"$.curr_agents_state.{where}.{oid}", "a known object id -> amount")
    return dict(table)
