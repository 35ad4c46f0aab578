"""Tutorial roles: which of a world's objects play the ten parts the tutorial teaches with.

Layer: world core. The roles (docs/mechanics/tutorial.md#roles) are BAG, NOTE, COIN, PEN, LOG, BAR,
BENCH, FURNACE, BLANK and KEY. A tutorial section may name any of them in `roles`; every role it
uses but leaves out is inferred from the world's objects by structure (first match in definition
order):

    bag      a container of level 1
    note     a writable one can write on whose recipe needs no station
    coin     the currency
    pen      a tool of usage `write`
    log      the cheapest level-1 raw material a merchant pays for (value >= MIN_LOG_VALUE)
    key      `obj_key` (the well-known id), else the first object of usage `unlock`
    blank    the key's ingredient          bar      the blank's ingredient
    bench    the key's station (else the blank's)   furnace  the bar's station

A role the section never uses (no `$bar`, `{bar_name}` ... anywhere in it) is left out unless
given: AgentOdyssey's games craft their keys from other things than a blank of a bar. BAG, NOTE
and KEY are always used (every room gets its own BAG and NOTE, and its exit opens with the KEY).
A used role that is neither given nor inferable is played by the section's stand-in for it, if it
has one (`stand_ins`, added to the world only then); otherwise it is an error with its JSON path.

`check_crafting` checks the crafting steps the section actually has: what each crafts must be
craftable from what the tutorial hands out by then, at stations it has put down.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.schema import ObjectDef

ROLES = ("bag", "note", "coin", "pen", "log", "bar", "bench", "furnace", "blank", "key")
INSTANCE_ROLES = ("bag", "note")  # every agent gets its own instance of these
ALWAYS_USED = ("bag", "note", "key")  # the rule itself needs them (instances, the exit's key)
WELL_KNOWN_KEY = "obj_key"  # the id the base rules know as the key
UNLOCK_USAGE, WRITE_USAGE = "unlock", "write"
# The base merchants pay floor(value / 2): a cheaper LOG could be bought but never sold (step 21).
MIN_LOG_VALUE = 2
INFERRED_FROM = {"blank": ("key",), "bar": ("blank",), "bench": ("key",), "furnace": ("bar",)}
INFERENCE_ORDER = ("coin", "bag", "note", "pen", "log", "key", "blank", "bar", "bench", "furnace")
# `$bag`, `$bag_name`, `{bag_name}`, `$log_value`, `{note_instance}` ... name a role.
ROLE_REFERENCE = re.compile(
    r"[${](" + "|".join(ROLES) + r")(?:_name|_value|_instance)?(?![A-Za-z0-9_])"
)
# Setup kinds that put units of objects on the floor (`objects`: id -> count).
HANDOUT_KINDS = ("give_if_lacking", "give_up_to", "ground_at_least")
CRAFTED_EVENT = "object_crafted"


def roles_used(texts: Iterable[str]) -> set[str]:
    """The roles these strings of a section refer to (plus the ones the rule always needs)."""
    used = set(ALWAYS_USED)
    for text in texts:
        used.update(ROLE_REFERENCE.findall(text))
    return used


def resolve_roles(
    objects: Mapping[str, ObjectDef],
    given: Mapping[str, str],
    path: str,
    problems: Problems,
    *,
    used: Iterable[str] = ROLES,
    stand_ins: Mapping[str, ObjectDef] | None = None,
) -> dict[str, str] | None:
    """Role -> object id for every role given or used: the given ones (checked), the used ones
    inferred, or else played by their stand-ins; None on any error. `objects` are the world's and
    the section's (a stand-in of an id the world defines is the world's object)."""
    stand_ins = stand_ins or {}
    roles: dict[str, str] = {}
    failed: set[str] = set()  # roles with an error already reported
    why_not: dict[str, str] = {}  # roles that could not be inferred, and why
    for role in given:
        if role not in ROLES:
            problems.error(f"{path}.{role}", f"unknown role (expected {', '.join(ROLES)})")
            failed.add(role)
    wanted = _wanted(set(used) | set(given), given)
    for role in INFERENCE_ORDER:
        if role not in wanted:
            continue
        if role in given:
            oid = given[role]
            reason = "unknown object" if oid not in objects else _unfit(role, objects[oid])
            if reason:
                problems.error(f"{path}.{role}", f"'{oid}' cannot be the {role}: {reason}")
                failed.add(role)
            else:
                roles[role] = oid
            continue
        sources = INFERRED_FROM.get(role, ())
        if any(source in failed for source in sources):
            failed.add(role)  # the role it is inferred from failed and was reported
            continue
        missing = [source for source in sources if source not in roles]
        if missing:
            oid, reason = (
                None,
                f"the {missing[0]} it follows from is not there: {why_not[missing[0]]}",
            )
        else:
            oid, reason = _infer(role, objects, roles)
        if oid is None and role in stand_ins:
            stand_in = objects.get(stand_ins[role].id, stand_ins[role])
            unfit = _unfit(role, stand_in)
            if unfit:
                problems.error(
                    f"{path}.{role}", f"the stand-in '{stand_in.id}' cannot be the {role}: {unfit}"
                )
                failed.add(role)
                continue
            oid = stand_in.id
        if oid is not None:
            roles[role] = oid
        elif role in used:
            problems.error(f"{path}.{role}", f"no {role} given and none can be inferred: {reason}")
            failed.add(role)
        else:
            why_not[role] = reason  # only wanted to infer another role from
    return None if failed else {role: roles[role] for role in ROLES if role in roles}


def _wanted(used: set[str], given: Mapping[str, str]) -> set[str]:
    """The used roles and, for each one to infer, the roles it is inferred from."""
    wanted, todo = set(), list(used)
    while todo:
        role = todo.pop()
        if role in wanted:
            continue
        wanted.add(role)
        if role not in given:
            todo.extend(INFERRED_FROM.get(role, ()))
    return wanted


def _first(objects: Mapping[str, ObjectDef], test: Any) -> str | None:
    return next((o.id for o in objects.values() if test(o)), None)


def _first_station(obj: ObjectDef | None, objects: Mapping[str, ObjectDef]) -> str | None:
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
    role: str, objects: Mapping[str, ObjectDef], roles: dict[str, str]
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


# ---------------------------------------------------------------------------- crafting steps
def check_crafting(
    steps: Iterable[Any],
    objects: Mapping[str, ObjectDef],
    values: Mapping[str, Any],
    path: str,
    problems: Problems,
) -> None:
    """Every crafting step (one whose conditions wait for `object_crafted` of some object) must
    be playable from what the tutorial gives: each ingredient of what it crafts handed out by a
    setup of that step or an earlier one (at least the recipe's quantity) or crafted by an earlier
    step, and each station put down by such a setup. `steps` have their roles resolved to ids;
    `values` gives the number a `$variable` count stands for (one it lacks is not limited)."""
    handed: dict[str, float] = {}  # object id -> most units one setup hands out
    crafted: set[str] = set()
    for i, step in enumerate(steps):
        for setup in step.setup:
            if setup.kind not in HANDOUT_KINDS:
                continue
            for oid, count in setup.objects.items():
                handed[oid] = max(handed.get(oid, 0), _count(count, values))
        products = list(_crafted_products(step))
        for product in products:
            _check_product(step, product, objects, handed, crafted, f"{path}[{i}]", problems)
        crafted.update(products)


def _count(count: Any, values: Mapping[str, Any]) -> float:
    """The units a setup's count stands for; unlimited when unknown (a `$variable` without a
    number, or a count the setup checks already refused)."""
    if isinstance(count, str):
        count = values.get(count[1:])
    if isinstance(count, (int, float)) and not isinstance(count, bool):
        return float(count)
    return math.inf


def _crafted_products(step: Any) -> Iterator[str]:
    """The objects whose `object_crafted` event a step's conditions wait for."""
    todo = [*(step.done_all or ()), *(step.done_any or ())]
    while todo:
        cond = todo.pop(0)
        if cond.kind == "event" and cond.params.get("type") == CRAFTED_EVENT:
            yield from (o for o in cond.params.get("objects", ()) if isinstance(o, str))
        elif cond.kind != "not":
            todo.extend(cond.conditions)


def _check_product(
    step: Any,
    product: str,
    objects: Mapping[str, ObjectDef],
    handed: dict[str, float],
    crafted: set[str],
    path: str,
    problems: Problems,
) -> None:
    obj = objects.get(product)
    if obj is None:
        return  # an unknown object: reported by the condition checks
    what = f"step '{step.id}' crafts '{product}'"
    if not obj.craft.ingredients:
        problems.error(path, f"{what}, which has no recipe")
        return
    for ingredient, quantity in obj.craft.ingredients.items():
        available = max(handed.get(ingredient, 0), 1 if ingredient in crafted else 0)
        if available < quantity:
            problems.error(
                path,
                f"{what}, whose recipe needs {quantity:g} '{ingredient}': no setup of this step or "
                f"an earlier one hands out that many, and no earlier step crafts it",
            )
    for station in obj.craft.dependencies:
        if station not in handed:
            problems.error(
                path,
                f"{what} at '{station}', which no setup of this step or an earlier one puts down",
            )
