"""Shapes of the state rules keep in a saved game, checked when a checkpoint is loaded.

Layer: rules (framework). Rules keep their own state as plain JSON-like data in
`agent.progress[key]` and `world.auxiliary[key]`. A snapshot's digest refuses a damaged file; a
snapshot edited on purpose (its digest deleted) is checked against the shapes the rules declare
(`BaseStepRule.state_key`, `progress_shape`, `state_shape`), so an edit cannot make a rule fail
in the middle of a tick.

A shape is a type (`None` for null; `int` never accepts a bool, `float` accepts an int, `object`
anything), `ListOf(shape)`, `MapOf(shape)`, `Pair(a, b)` (a list of two), `Record(required,
optional)` (an object with these keys), or a tuple of shapes (any one of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.strict_json import json_type_name
from agentodyssey_pz.world.world import World


@attrs.frozen
class ListOf:
    item: Any


@attrs.frozen
class MapOf:
    value: Any


@attrs.frozen
class Pair:
    first: Any
    second: Any


@attrs.frozen
class Record:
    required: Mapping[str, Any]
    optional: Mapping[str, Any] = attrs.field(factory=dict)
    empty_ok: bool = False  # {} stands for "not started yet"


def _is(value: Any, kind: Any) -> bool:
    if kind is None:
        return value is None
    if kind is int:
        return type(value) is int
    if kind is float:
        return type(value) in (int, float)
    return isinstance(value, kind)


def _type_name(kind: Any) -> str:
    return "null" if kind is None else getattr(kind, "__name__", str(kind))


def shape_problems(value: Any, shape: Any, path: str) -> list[str]:
    """Every place where `value` departs from `shape`, as "path: what is wrong"."""
    got = json_type_name(value)
    if isinstance(shape, tuple):  # alternatives: the first that fits
        problems: list[str] = []
        for alternative in shape:
            found = shape_problems(value, alternative, path)
            if not found:
                return []
            problems = problems or found
        return problems
    if isinstance(shape, Record):
        if not isinstance(value, dict):
            return [f"{path}: expected an object, got {got}"]
        if not value and shape.empty_ok:
            return []
        out = [f"{path}.{key}: missing" for key in shape.required if key not in value]
        for key, sub in (*shape.required.items(), *shape.optional.items()):
            if key in value:
                out += shape_problems(value[key], sub, f"{path}.{key}")
        return out
    if isinstance(shape, ListOf):
        if not isinstance(value, list):
            return [f"{path}: expected a list, got {got}"]
        return [
            p for i, v in enumerate(value) for p in shape_problems(v, shape.item, f"{path}[{i}]")
        ]
    if isinstance(shape, MapOf):
        if not isinstance(value, dict):
            return [f"{path}: expected an object, got {got}"]
        return [p for k, v in value.items() for p in shape_problems(v, shape.value, f"{path}.{k}")]
    if isinstance(shape, Pair):
        if not isinstance(value, list) or len(value) != 2:
            return [f"{path}: expected a list of two, got {got}"]
        return shape_problems(value[0], shape.first, f"{path}[0]") + shape_problems(
            value[1], shape.second, f"{path}[1]"
        )
    if _is(value, shape):
        return []
    return [f"{path}: expected {_type_name(shape)}, got {got}"]


def rule_state_problems(
    world: World,
    agents: Mapping[str, AgentState],
    key: str,
    progress: Any,
    auxiliary: Any,
) -> list[str]:
    """A rule's state under `key`: each agent's `progress[key]` and the world's `auxiliary[key]`,
    where present, against their shapes."""
    out: list[str] = []
    if progress is not None:
        for agent in agents.values():
            if key in agent.progress:
                where = f"agents.{agent.id}.progress.{key}"
                out += shape_problems(agent.progress[key], progress, where)
    if auxiliary is not None and key in world.auxiliary:
        out += shape_problems(world.auxiliary[key], auxiliary, f"world.auxiliary.{key}")
    return out
