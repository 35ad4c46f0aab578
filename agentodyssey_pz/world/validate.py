"""Loading and validating world definitions: JSON -> checked, frozen `WorldDefinition`.

Layer: world core. Every problem is collected (type errors from the cattrs converter, then the
semantic checks of `checks.py`) and reported at once in one `WorldDefinitionError`, each with its
JSON path. A definition with errors is never returned half-built.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import cattrs

from agentodyssey_pz.errors import DataError, Problem, Problems, WorldDefinitionError
from agentodyssey_pz.world import checks
from agentodyssey_pz.world.schema import (
    CONVERTER,
    AreaDef,
    Entities,
    Features,
    GraphDef,
    Initializations,
    NpcDef,
    ObjectDef,
    PlaceDef,
    WorldDefinition,
)
from agentodyssey_pz.world.strict_json import JSON_KEY, SchemaTypeError

LOG = logging.getLogger("agentodyssey_pz.world")

# `quests` may hold a world's quest data inline (instead of a quests.json next to the world).
TOP_LEVEL_KEYS = ("entities", "initializations", "custom_events", "features", "graph", "quests")
ENTITY_KEYS = ("places", "objects", "npcs")


def _describe(exc: BaseException, _: Any) -> str:
    if isinstance(exc, KeyError):
        return "missing required key"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        keys = sorted(exc.extra_fields)
        return f"unknown key{'s' if len(keys) > 1 else ''}: {', '.join(keys)}"
    if isinstance(exc, SchemaTypeError):
        return str(exc)
    if isinstance(exc, (TypeError, ValueError)):
        return f"invalid value ({exc})"
    return f"invalid value ({type(exc).__name__}: {exc})"


_MAP_KEY = re.compile(r"\['([^'\]]*)'\]")


def _dotted(path: str) -> str:
    """cattrs writes map keys as ['key']; the semantic checks write .key - use one notation."""
    return _MAP_KEY.sub(r".\1", path)


# What structuring a malformed record raises.
STRUCTURE_ERRORS = (
    cattrs.BaseValidationError,
    SchemaTypeError,
    KeyError,
    TypeError,
    ValueError,
    cattrs.ForbiddenExtraKeysError,
)


def structure_record(
    raw: Any, cls: Any, path: str, problems: Problems, converter: cattrs.Converter = CONVERTER
) -> Any | None:
    """Structure one record, reporting each type error with its path; None when it failed."""
    try:
        return converter.structure(raw, cls)
    except STRUCTURE_ERRORS as exc:
        for line in cattrs.transform_error(exc, path=path, format_exception=_describe):
            message, _, where = line.rpartition(" @ ")
            problems.error(_dotted(where) or path, message or line)
        return None


def structure_parts(raw: Any, cls: Any, converter: cattrs.Converter) -> dict[str, Any]:
    """After `cls` failed to structure from `raw` (its errors already reported): each field that
    structures on its own, by attribute name; absent fields take their defaults, malformed ones
    are left out. The reference checks then run over the parts that have the right shape, so one
    pass reports both kinds of mistake."""
    if not isinstance(raw, dict):
        return {}
    attrs.resolve_types(cls)
    parts: dict[str, Any] = {}
    for field in attrs.fields(cls):
        if not field.init:
            continue
        key = field.metadata.get(JSON_KEY, field.name)
        if key not in raw:
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                parts[field.name] = default.factory()
            elif default is not attrs.NOTHING:
                parts[field.name] = default
            continue
        value = structure_or(raw[key], field.type, converter, MALFORMED)
        if value is not MALFORMED:
            parts[field.name] = value
    return parts


MALFORMED = object()  # `structure_or`'s fallback where None could be a structured value


def structure_or(raw: Any, cls: Any, converter: cattrs.Converter, fallback: Any = None) -> Any:
    """`raw` structured as `cls`, or `fallback` if it has the wrong shape (reported elsewhere)."""
    try:
        return converter.structure(raw, cls)
    except STRUCTURE_ERRORS:
        return fallback


def section_parts(
    raw: Any, cls: Any, path: str, problems: Problems, converter: cattrs.Converter
) -> tuple[Any | None, dict[str, Any]]:
    """A quest-data section structured (its shape errors reported), and its parts by field name
    for the reference checks: the record's fields, or after a shape error each field that
    structures on its own (`structure_parts`)."""
    record = structure_record(raw, cls, path, problems, converter)
    if record is None:
        return None, structure_parts(raw, cls, converter)
    return record, {f.name: getattr(record, f.name) for f in attrs.fields(cls) if f.init}


@attrs.define
class Parsed:
    """Records that structured cleanly, each with its JSON path and raw dict (for key presence)."""

    places: list[tuple[str, dict[str, Any], PlaceDef]] = attrs.Factory(list)
    objects: list[tuple[str, dict[str, Any], ObjectDef]] = attrs.Factory(list)
    npcs: list[tuple[str, dict[str, Any], NpcDef]] = attrs.Factory(list)
    initializations: Initializations | None = None
    features: Features | None = None
    graph: GraphDef | None = None
    custom_events: tuple[str, ...] = ()
    # Ids declared anywhere, even in records with type errors, so one bad field does not cascade
    # into "unknown id" errors everywhere the record is referenced.
    declared_objects: set[str] = attrs.Factory(set)
    declared_npcs: set[str] = attrs.Factory(set)
    declared_areas: set[str] = attrs.Factory(set)
    declared_places: set[str] = attrs.Factory(set)


def declared_ids(raw_list: Any) -> set[str]:
    """The string ids of a raw list of records, even of records that are malformed otherwise."""
    if not isinstance(raw_list, list):
        return set()
    return {r["id"] for r in raw_list if isinstance(r, dict) and isinstance(r.get("id"), str)}


def _structure_list(
    raw: Mapping[str, Any], key: str, cls: type, path: str, problems: Problems
) -> list[tuple[str, dict[str, Any], Any]]:
    items = raw.get(key, [])
    if not isinstance(items, list):
        problems.error(f"{path}.{key}", "expected a list")
        return []
    out = []
    for i, item in enumerate(items):
        item_path = f"{path}.{key}[{i}]"
        record = structure_record(item, cls, item_path, problems)
        if record is not None:
            out.append((item_path, item, record))
    return out


def _parse(raw: Any, problems: Problems) -> Parsed:
    parsed = Parsed()
    if not isinstance(raw, dict):
        problems.error("$", "a world definition must be a JSON object")
        return parsed
    for key in ("entities", "initializations"):
        if key not in raw:
            problems.error(f"$.{key}", "missing required key")
    entities = raw.get("entities", {})
    if not isinstance(entities, dict):
        problems.error("$.entities", "expected an object with places, objects and npcs")
        entities = {}
    parsed.places = _structure_list(entities, "places", PlaceDef, "$.entities", problems)
    parsed.objects = _structure_list(entities, "objects", ObjectDef, "$.entities", problems)
    parsed.npcs = _structure_list(entities, "npcs", NpcDef, "$.entities", problems)
    parsed.declared_objects = declared_ids(entities.get("objects"))
    parsed.declared_npcs = declared_ids(entities.get("npcs"))
    raw_places = entities.get("places") if isinstance(entities.get("places"), list) else []
    parsed.declared_places = declared_ids(raw_places)
    for place in raw_places:
        if isinstance(place, dict):
            parsed.declared_areas |= declared_ids(place.get("areas"))
    if "initializations" in raw:
        parsed.initializations = structure_record(
            raw["initializations"], Initializations, "$.initializations", problems
        )
    parsed.features = structure_record(raw.get("features", {}), Features, "$.features", problems)
    if raw.get("graph") is not None:
        parsed.graph = structure_record(raw["graph"], GraphDef, "$.graph", problems)
    events = structure_record(
        raw.get("custom_events", []), tuple[str, ...], "$.custom_events", problems
    )
    parsed.custom_events = events or ()
    for key in raw:
        if key not in TOP_LEVEL_KEYS:
            hint = checks.did_you_mean(key, TOP_LEVEL_KEYS)
            problems.warn(f"$.{key}", f"unknown top-level key '{key}'{hint} (kept, not used)")
    for key in entities:
        if key not in ENTITY_KEYS:
            hint = checks.did_you_mean(key, ENTITY_KEYS)
            problems.warn(f"$.entities.{key}", f"unknown field '{key}'{hint}: it is ignored")
    return parsed


def _apply_aliases(parsed: Parsed, problems: Problems) -> None:
    """`attack_power` on an object is read as `attack` (one generated world writes it that way)."""
    for i, (path, raw, obj) in enumerate(parsed.objects):
        alias = obj.extras.get("attack_power")
        if "attack" not in raw and type(alias) is int:
            problems.warn(
                f"{path}.attack_power", f"object '{obj.id}': read 'attack_power' as 'attack'"
            )
            parsed.objects[i] = (path, raw, attrs.evolve(obj, attack=alias))


def check_definition(
    raw: Any, *, required_object_ids: Iterable[str] = (), source: str | None = None
) -> tuple[WorldDefinition | None, list[Problem]]:
    """Validate raw JSON data; returns (definition or None when there are errors, all problems)."""
    problems = Problems()
    parsed = _parse(raw, problems)
    _apply_aliases(parsed, problems)
    checks.run_all(parsed, problems, tuple(required_object_ids))
    if problems.errors:
        return None, problems.items
    definition = WorldDefinition(
        entities=Entities(
            places=tuple(p for _, _, p in parsed.places),
            objects=tuple(o for _, _, o in parsed.objects),
            npcs=tuple(n for _, _, n in parsed.npcs),
            extras={
                k: v for k, v in raw["entities"].items() if k not in ("places", "objects", "npcs")
            },
        ),
        initializations=parsed.initializations or Initializations(),
        custom_events=parsed.custom_events,
        features=parsed.features or Features(),
        graph=parsed.graph,
        extras={k: v for k, v in raw.items() if k not in TOP_LEVEL_KEYS or k == "quests"},
        source=source,
    )
    return definition, problems.items


def parse_definition(
    raw: Any, *, required_object_ids: Iterable[str] = (), source: str | None = None
) -> WorldDefinition:
    """Validate and build a definition; raises `WorldDefinitionError` listing every problem."""
    definition, problems = check_definition(
        raw, required_object_ids=required_object_ids, source=source
    )
    if definition is None:
        raise WorldDefinitionError([p for p in problems if p.severity == "error"], source)
    for problem in problems:
        LOG.warning("%s%s", f"{source}: " if source else "", problem)
    return definition


# Deepest nesting of lists and objects accepted in a JSON file (the bundled worlds and quest data
# nest about ten levels; Python's JSON parser and the loaders recurse once per level).
MAX_JSON_DEPTH = 100


def _position(text: str, index: int) -> str:
    line_start = text.rfind("\n", 0, index) + 1
    line = text.count("\n", 0, index) + 1
    return f"line {line}, column {index - line_start + 1}"


def _json_depth(data: Any) -> int:
    """How deeply lists and objects nest in `data` (iterative: no recursion limit)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            if depth <= MAX_JSON_DEPTH:
                children = value.values() if isinstance(value, dict) else value
                stack.extend((child, depth + 1) for child in children)
    return deepest


def read_json(
    path: str | os.PathLike[str], error_type: type[DataError] = WorldDefinitionError
) -> Any:
    """Read a JSON file written by a person. Anything that stops it from being read (missing,
    not UTF-8, a syntax error with line and column, a number too long to convert, nesting too deep
    to load) becomes an `error_type` (a `WorldDefinitionError`, or `QuestDataError` for quest
    files) naming the file."""
    path = Path(path)

    def refuse(message: str) -> DataError:
        return error_type([Problem("$", message)], str(path))

    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise refuse(f"cannot read file: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise refuse("file is not UTF-8 text") from exc
    try:
        return parse_json_text(text)
    except ValueError as exc:
        raise refuse(str(exc)) from exc


def parse_json_text(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """JSON text to data; ValueError with a message a person can act on for what stops it (a
    syntax error with line and column, a number too long to convert, nesting deeper than
    `max_depth`), never a RecursionError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        # (json's "Unterminated string starting at" already ends with its preposition)
        raise ValueError(f"not valid JSON ({exc.msg.removesuffix(' at')} at {where})") from exc
    except RecursionError as exc:
        raise ValueError(
            f"lists and objects are nested too deeply to load (at most {max_depth} levels)"
        ) from exc
    except ValueError as exc:  # a number with more digits than Python converts
        limit = sys.get_int_max_str_digits()
        found = re.search(rf"\d{{{limit + 1},}}", text) if limit else None
        if found is None:
            raise ValueError(f"not valid JSON ({exc})") from exc
        raise ValueError(
            f"the number at {_position(text, found.start())} has {len(found.group())} digits "
            f"(at most {limit} are allowed)"
        ) from exc
    if _json_depth(data) > max_depth:
        raise ValueError(f"lists and objects are nested more than {max_depth} levels deep")
    return data


def load_definition(
    path: str | os.PathLike[str], *, required_object_ids: Iterable[str] = ()
) -> WorldDefinition:
    """Read and validate a world-definition JSON file."""
    return parse_definition(
        read_json(path), required_object_ids=required_object_ids, source=str(path)
    )


__all__ = [
    "AreaDef",
    "Parsed",
    "check_definition",
    "load_definition",
    "parse_definition",
    "read_json",
    "structure_record",
]
