"""Reference checks shared by every quest section: `$variables` of the right kind, areas, NPCs,
objects, stage and boss names in texts and conditions, each problem reported with its JSON path.

Layer: world core.
"""

from __future__ import annotations

from typing import Any

import attrs

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.quest_records import (
    AREA_LIST_KINDS,
    CONDITION_KINDS,
    LIGHT_OBJECT,
    OBJECT_VARIABLE_KINDS,
    TEXT_MATCHES,
    VARIABLE,
    VISIT_HISTORIES,
    WHERE_SCOPES,
    Condition,
)

# The kind of a variable whose setup step is malformed (already reported): any use of it is let
# through, so one mistake does not cascade into errors wherever the variable is used.
ANY_KIND = "any"


@attrs.define
class QuestScope:
    """What names a quest section may use, for checking references."""

    objects: set[str]
    npcs: set[str]
    areas: set[str]
    variables: dict[str, str]  # name -> kind: area, areas, npc, value (or ANY_KIND)
    bosses: set[str] = attrs.Factory(set)
    stages: set[str] = attrs.Factory(set)
    # Variables whose value the data fixes (`value` steps): name -> value, so a `$variable` used
    # as an object id can be checked to hold one.
    values: dict[str, Any] = attrs.Factory(dict)


def check_ref(
    value: Any, kinds: tuple[str, ...], scope: QuestScope, path: str, problems: Problems
) -> bool:
    """A `$variable` of one of `kinds`; returns False (after reporting) when it is not one."""
    if not (isinstance(value, str) and value.startswith("$")):
        return False
    name = value[1:]
    kind = scope.variables.get(name)
    if kind is None:
        problems.error(path, f"unknown variable '{value}' (define it in setup)")
    elif kind != ANY_KIND and kind not in kinds:
        problems.error(
            path,
            f"'{value}' is {kind_phrase(kind)}, expected {' or '.join(map(kind_phrase, kinds))}",
        )
    return True


def kind_phrase(kind: str) -> str:
    return {
        "area": "an area",
        "areas": "a list of areas",
        "npc": "an NPC",
        "value": "a value",
        "object": "an object",
    }[kind]


def check_area_ref(value: Any, scope: QuestScope, path: str, problems: Problems) -> None:
    if not check_ref(value, ("area",), scope, path, problems) and (
        not isinstance(value, str) or value not in scope.areas
    ):
        problems.error(path, f"unknown area {value!r}")


def check_area_or_list_ref(value: Any, scope: QuestScope, path: str, problems: Problems) -> None:
    """An area, or a `$variable` holding an area or a list of areas."""
    if not check_ref(value, ("area", "areas"), scope, path, problems) and (
        not isinstance(value, str) or value not in scope.areas
    ):
        problems.error(path, f"unknown area {value!r}")


def check_object_ref(value: Any, scope: QuestScope, path: str, problems: Problems) -> None:
    """An object id, or a `$variable` holding one (an object variable, or a value the data fixes
    to an object id)."""
    if not check_ref(value, ("object", "value"), scope, path, problems):
        if not isinstance(value, str) or value not in scope.objects:
            problems.error(path, f"unknown object {value!r}")
        return
    name = value[1:]
    fixed = getattr(scope, "values", {})  # the tutorial's scope has no fixed values
    if scope.variables.get(name) == "value" and name in fixed:
        held = fixed[name]
        if not isinstance(held, str) or held not in scope.objects:
            problems.error(path, f"'{value}' holds {held!r}, which is no object id")


def check_choice(value: Any, choices: Any, path: str, problems: Problems) -> None:
    if not isinstance(value, str) or value not in choices:
        expected = ", ".join(f"'{c}'" for c in choices)
        problems.error(path, f"expected one of {expected}, got {value!r}")


def check_text(text: str, scope: QuestScope, path: str, problems: Problems) -> None:
    for name in VARIABLE.findall(text):
        if name not in scope.variables:
            problems.error(path, f"unknown variable '{{{name}}}' in text")


def check_npc_ref(value: Any, scope: QuestScope, path: str, problems: Problems) -> None:
    if not check_ref(value, ("npc",), scope, path, problems):
        problems.error(path, f"expected a variable naming an NPC (e.g. '$merchant'), got {value!r}")


def check_int_ref(value: Any, scope: QuestScope, path: str, problems: Problems) -> None:
    if not check_ref(value, ("value",), scope, path, problems):
        if type(value) is not int or value < 0:
            problems.error(path, f"expected a whole number >= 0 or a $variable, got {value!r}")
        return
    fixed = getattr(scope, "values", {})  # the tutorial's scope has no fixed values
    held = fixed.get(value[1:], 0)
    if type(held) is not int or held < 0:
        problems.error(path, f"'{value}' holds {held!r}, which is no whole number >= 0")


def _check_param(
    kind: str, name: str, value: Any, scope: QuestScope, path: str, problems: Problems
) -> None:
    """Check one condition parameter by its name (each name has one meaning in every kind; two
    kinds also take a list of areas as `area`, one takes variables among its `objects`)."""
    if name == "area":
        if kind in AREA_LIST_KINDS:
            check_area_or_list_ref(value, scope, path, problems)
        else:
            check_area_ref(value, scope, path, problems)
    elif name == "areas":
        if not check_ref(value, ("areas",), scope, path, problems):
            if not isinstance(value, list) or not value:
                problems.error(path, "expected a $variable or a list of areas")
            else:
                for i, area in enumerate(value):
                    check_area_ref(area, scope, f"{path}[{i}]", problems)
    elif name == "npc":
        check_npc_ref(value, scope, path, problems)
    elif name == "npcs":
        if not isinstance(value, list) or not value:
            problems.error(path, "expected a list of $variables naming NPCs")
        else:
            for i, npc in enumerate(value):
                check_npc_ref(npc, scope, f"{path}[{i}]", problems)
    elif name == "objects" and kind in OBJECT_VARIABLE_KINDS:
        if not isinstance(value, list) or not value:
            problems.error(path, "expected a non-empty list of object ids or $variables")
        else:
            for i, oid in enumerate(value):
                check_object_ref(oid, scope, f"{path}[{i}]", problems)
    elif name in ("objects", "object", "light_object"):
        ids = value if name == "objects" else [value]
        if not isinstance(ids, list) or not ids:
            problems.error(path, "expected a non-empty list of object ids")
        for oid in ids if isinstance(ids, list) else ():
            if not isinstance(oid, str) or oid not in scope.objects:
                problems.error(path, f"unknown object {oid!r}")
    elif name in ("text", "carrying_text"):
        if not check_ref(value, ("value",), scope, path, problems) and not isinstance(value, str):
            problems.error(path, f"expected text or a $variable, got {value!r}")
    elif name in ("k", "n", "count", "coins", "min_level", "min_area_level"):
        check_int_ref(value, scope, path, problems)
    elif name in ("enemy_only", "dark_area", "include_current"):
        if not isinstance(value, bool):
            problems.error(path, f"expected true or false, got {value!r}")
    elif name == "match":
        check_choice(value, TEXT_MATCHES, path, problems)
    elif name in ("where", "carrying_where"):
        check_choice(value, WHERE_SCOPES, path, problems)
    elif name == "history":
        check_choice(value, VISIT_HISTORIES, path, problems)
    elif name == "roles":
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(role, str) and role for role in value)
        ):
            problems.error(path, "expected a non-empty list of NPC roles")
    elif name == "payload":
        if not isinstance(value, dict):
            problems.error(path, "expected an object of event payload keys and values")
    elif name == "stage":
        if not isinstance(value, str) or value not in scope.stages:
            problems.error(path, f"unknown stage {value!r}")
    elif name == "boss":
        if not isinstance(value, str) or value not in scope.bosses:
            problems.error(path, f"unknown boss {value!r}")
    elif not isinstance(value, str) or not value:  # type, category
        problems.error(path, f"expected a non-empty string, got {value!r}")


def check_condition(cond: Condition, scope: QuestScope, path: str, problems: Problems) -> None:
    spec = CONDITION_KINDS.get(cond.kind)
    if spec is None:
        problems.error(f"{path}.kind", f"unknown condition kind '{cond.kind}'")
        return
    required, optional = spec
    present = set(cond.params) | ({"conditions"} if cond.conditions else set())
    for missing in sorted(required - present):
        problems.error(f"{path}.{missing}", f"'{cond.kind}' needs '{missing}'")
    for extra in sorted(present - required - optional):
        problems.error(f"{path}.{extra}", f"'{cond.kind}' has no parameter '{extra}'")
    for name, value in cond.params.items():
        if name in required | optional:
            _check_param(cond.kind, name, value, scope, f"{path}.{name}", problems)
    if (
        cond.kind == "lit_dark_areas"
        and "light_object" not in cond.params
        and LIGHT_OBJECT not in scope.objects
    ):
        problems.error(
            f"{path}.light_object", f"no light_object given, and the world has no {LIGHT_OBJECT}"
        )
    if "carrying_where" in cond.params and "carrying_text" not in cond.params:
        problems.error(f"{path}.carrying_where", "'carrying_where' goes with 'carrying_text'")
    for i, nested in enumerate(cond.conditions):
        check_condition(nested, scope, f"{path}.conditions[{i}]", problems)
