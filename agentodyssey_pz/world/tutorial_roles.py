"""Tutorial roles: which of a world's objects play the ten parts the tutorial teaches with.

Layer: world core. The roles (spec step-rules 9.1) are BAG, NOTE, COIN, PEN, LOG, BAR, BENCH,
FURNACE, BLANK and KEY. A tutorial section may name any of them in `roles`; every role it leaves out
is inferred from the world's objects by structure (first match in definition order):

    bag      a container of level 1
    note     a writable one can write on whose recipe needs no station
    coin     the currency
    pen      a tool of usage `write`
    log      the cheapest level-1 raw material a merchant pays for (value >= MIN_LOG_VALUE)
    key      `obj_key` (the spec's well-known id), else the first object of usage `unlock`
    blank    the key's ingredient          bar      the blank's ingredient
    bench    the key's station (else the blank's)   furnace  the bar's station

A role that is neither given nor inferable, or that cannot play its part (a key needing two
blanks, a blank needing a station the tutorial never puts down ...) is an error with its JSON path.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.schema import ObjectDef

ROLES = ("bag", "note", "coin", "pen", "log", "bar", "bench", "furnace", "blank", "key")
INSTANCE_ROLES = ("bag", "note")  # every agent gets its own instance of these
WELL_KNOWN_KEY = "obj_key"  # spec world-definition 7: the id the base rules know as the key
UNLOCK_USAGE, WRITE_USAGE = "unlock", "write"
# The base merchants pay floor(value / 2): a cheaper LOG could be bought but never sold (step 21).
MIN_LOG_VALUE = 2
INFERRED_FROM = {"blank": ("key",), "bar": ("blank",), "bench": ("key",), "furnace": ("bar",)}


def resolve_roles(
    objects: dict[str, ObjectDef], given: dict[str, str], path: str, problems: Problems
) -> dict[str, str] | None:
    """Every role -> object id: the given ones (checked), the rest inferred; None on any error."""
    roles: dict[str, str] = {}
    failed = False
    for role in given:
        if role not in ROLES:
            problems.error(f"{path}.{role}", f"unknown role (expected {', '.join(ROLES)})")
            failed = True
    for role in ("coin", "bag", "note", "pen", "log", "key", "blank", "bar", "bench", "furnace"):
        if any(source not in roles for source in INFERRED_FROM.get(role, ())) and role not in given:
            failed = True  # the role it is inferred from failed and was reported
            continue
        if role in given:
            oid = given[role]
            reason = "unknown object" if oid not in objects else _unfit(role, objects[oid])
            if reason:
                problems.error(f"{path}.{role}", f"'{oid}' cannot be the {role}: {reason}")
                failed = True
                continue
        else:
            oid, reason = _infer(role, objects, roles)
            if oid is None:
                problems.error(
                    f"{path}.{role}", f"no {role} given and none can be inferred: {reason}"
                )
                failed = True
                continue
        roles[role] = oid
    if not failed:
        failed = not _check_recipes(roles, objects, path, problems)
    return None if failed else roles


def _first(objects: dict[str, ObjectDef], test: Any) -> str | None:
    return next((o.id for o in objects.values() if test(o)), None)


def _first_station(obj: ObjectDef | None, objects: dict[str, ObjectDef]) -> str | None:
    if obj is None:
        return None
    return next((d for d in obj.craft.dependencies if d in objects and objects[d].is_station), None)


def _is_log(o: ObjectDef) -> bool:
    return (
        o.category == "material"
        and not o.craft.ingredients
        and o.level == 1
        and not o.quest
        and o.value is not None
        and o.value >= MIN_LOG_VALUE
    )


def _infer(
    role: str, objects: dict[str, ObjectDef], roles: dict[str, str]
) -> tuple[str | None, str]:
    """(object id, "") or (None, why not)."""

    def ingredient(of: str) -> str | None:
        obj = objects.get(roles.get(of, ""))
        return next(iter(obj.craft.ingredients), None) if obj is not None else None

    if role == "bag":
        return _first(
            objects, lambda o: o.is_container and o.level == 1
        ), "the world has no container of level 1"
    if role == "note":
        found = _first(objects, lambda o: _is_note(o) and not o.craft.dependencies)
        return found, "the world has no writable (with room to write) whose recipe needs no station"
    if role == "coin":
        return _first(objects, lambda o: o.is_currency), "the world has no currency"
    if role == "pen":
        return _first(
            objects, lambda o: o.usage == WRITE_USAGE
        ), f"the world has no object of usage '{WRITE_USAGE}'"
    if role == "log":
        logs = sorted((o for o in objects.values() if _is_log(o)), key=lambda o: o.value or 0)
        return (logs[0].id if logs else None), (
            f"the world has no level-1 raw material worth at least {MIN_LOG_VALUE}"
        )
    if role == "key":
        found = WELL_KNOWN_KEY if WELL_KNOWN_KEY in objects else None
        found = found or _first(objects, lambda o: o.usage == UNLOCK_USAGE)
        return found, f"the world has no '{WELL_KNOWN_KEY}' and no object of usage '{UNLOCK_USAGE}'"
    if role in ("blank", "bar"):
        source = {"blank": "key", "bar": "blank"}[role]
        return ingredient(source), f"the {source} '{roles[source]}' has no recipe"
    if role == "bench":
        key, blank = objects[roles["key"]], objects.get(roles.get("blank", ""))
        found = _first_station(key, objects) or _first_station(blank, objects)
        return found, f"neither the key '{key.id}' nor the blank is crafted at a station"
    found = _first_station(objects.get(roles["bar"]), objects)
    return found, f"the bar '{roles['bar']}' is crafted at no station"


def _is_note(o: ObjectDef) -> bool:
    return o.is_writable and not o.is_prewritten and o.text_limit > len(o.text)


def _unfit(role: str, obj: ObjectDef) -> str:
    """Why an object given for a role cannot play it ("" if it can)."""
    checks = {
        "bag": (obj.is_container, "it is not a container"),
        "note": (_is_note(obj), "it is not a writable with room to write on"),
        "coin": (obj.is_currency, "it is not a currency"),
        "pen": (obj.usage == WRITE_USAGE, f"its usage is not '{WRITE_USAGE}'"),
        "log": (
            obj.value is not None and obj.value >= MIN_LOG_VALUE,
            f"it must be worth at least {MIN_LOG_VALUE} (bought, then sold)",
        ),
        "bench": (obj.is_station, "it is not a station"),
        "furnace": (obj.is_station, "it is not a station"),
    }
    ok, reason = checks.get(role, (True, ""))
    return "" if ok else reason


def _check_recipes(
    roles: dict[str, str], objects: dict[str, ObjectDef], path: str, problems: Problems
) -> bool:
    """The crafting chain the steps walk: KEY <- 1 BLANK <- up to 1 BAR, at BENCH/FURNACE."""
    ok = True
    stations = {roles["bench"], roles["furnace"]}
    for product, part in (("key", "blank"), ("blank", "bar")):
        recipe = objects[roles[product]].craft
        if set(recipe.ingredients) != {roles[part]} or recipe.ingredients[roles[part]] > 1:
            problems.error(
                f"{path}.{product}",
                f"the {product} '{roles[product]}' must be crafted from at most 1 {part} "
                f"('{roles[part]}') and nothing else, got {dict(recipe.ingredients)}",
            )
            ok = False
        missing = [d for d in recipe.dependencies if d not in stations]
        if missing:
            problems.error(
                f"{path}.{product}",
                f"the {product} '{roles[product]}' needs {', '.join(missing)}, which the tutorial "
                f"never puts down (it places the bench '{roles['bench']}' and the furnace "
                f"'{roles['furnace']}')",
            )
            ok = False
    return ok
