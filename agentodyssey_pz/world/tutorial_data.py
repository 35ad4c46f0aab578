"""Tutorial data: the `tutorial` section of quest data - object roles, tutorial NPCs, the steps.

Layer: world core. The tutorial teaches the verbs with ten object *roles*
(docs/mechanics/tutorial.md#roles); a section may name any of them in `roles`, the rest it uses are
inferred from the world's objects, or played by the section's `stand_ins` (`tutorial_roles.py`).

Steps hold an instruction template, setups (docs/mechanics/tutorial.md#setups) and completion
conditions written with the quest condition kinds. Object parameters may name a role as `$bag`; they
are resolved here, once per world. Everything else that starts with `$` is resolved per agent when
the tutorial runs: `$<role>`, `$<role>_name`, `$<role>_value`, `$bag_instance` / `$note_instance`
(the agent's own instances, named `$bag_name` / `$note_name`), `$merchant` / `$raider` (+ `_name`),
`$spawn`, `$spawn_name` and `$room`. Texts use the same names as `{bag_name}`; the completion text
may also use `{extra_verbs}` (the verbs the game's rule packs add, filled in by the rule).

`take_back` lists the kinds of objects taken back from an agent when it leaves (default: every
kind the tutorial handed it); of each, only what the tutorial handed out is taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.quest_checks import check_condition
from agentodyssey_pz.world.quest_records import (
    VARIABLE,
    Condition,
    forbid_unknown_keys,
    make_quest_converter,
)
from agentodyssey_pz.world.schema import NpcDef, ObjectDef, WorldDefinition
from agentodyssey_pz.world.tutorial_roles import (
    INSTANCE_ROLES,
    ROLES,
    check_crafting,
    resolve_roles,
    roles_used,
)

NPC_ROLES = ("merchant", "raider")
MERCHANT_ROLE = "merchant"
# Setup kinds -> (required parameters, optional parameters).
SETUP_KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(req.split()), frozenset(opt.split()))
    for kind, req, opt in (
        ("instance_on_ground", "role", ""),  # my BAG/NOTE on the floor unless I have it
        ("give_if_lacking", "objects", ""),  # n units, unless I have some or some lie here
        ("give_up_to", "objects", ""),  # top the floor up to (need - what I carry)
        ("ground_at_least", "objects", ""),  # at least n units on the floor
        ("ensure_npc", "npc", "stock"),  # once per step: my merchant/raider, stock added
        ("lock_exit", "", ""),  # my exit is locked with the KEY
    )
}
RUN_VARIABLES = ("step", "steps", "instruction", "items")  # filled in by the rule's texts
EXTRA_VERBS = "extra_verbs"  # only in `texts.completed`: the verbs the loaded packs add


@attrs.frozen
class SetupDef:
    kind: str
    role: str | None = None
    objects: dict[str, Any] = attrs.field(factory=dict)  # object id -> count (int or $variable)
    npc: str | None = None
    stock: dict[str, int] = attrs.field(factory=dict)


@attrs.frozen
class TutorialStep:
    id: str
    instruction: str
    hint: str = ""  # label of the step for the dependency tracker (`dep_tracker_hint`)
    setup: tuple[SetupDef, ...] = ()
    done_all: tuple[Condition, ...] | None = None
    done_any: tuple[Condition, ...] | None = None


@attrs.frozen
class TutorialNpc:
    """How the tutorial sets up one of its NPCs (built from the prototype `npc`)."""

    npc: str
    coins: int = 0
    hp: int | None = None
    attack: int | None = None
    description: str = ""
    dialogue: str = ""


@attrs.frozen
class TutorialTexts:
    intro: str
    instruction: str
    step_done: str
    warning: str
    completed: str
    left_early: str
    taken_back: str


@attrs.frozen
class TutorialDef:
    merchant: TutorialNpc
    raider: TutorialNpc
    texts: TutorialTexts
    steps: tuple[TutorialStep, ...]
    place_name: str = "Tutorial"
    room_name: str = "room"
    roles: dict[str, str] = attrs.field(factory=dict)  # after loading: every role -> object id
    npcs: tuple[NpcDef, ...] = ()
    objects: tuple[ObjectDef, ...] = ()
    undistributable: tuple[str, ...] = ()
    # Objects that play a role the world can neither give nor infer; one is added to the world
    # (as `objects`, undistributable) only when it is used.
    stand_ins: dict[str, ObjectDef] = attrs.field(factory=dict)
    # The kinds taken back from an agent that leaves (object ids; `$role`s resolved on loading);
    # None: every kind the tutorial handed it.
    take_back: tuple[str, ...] | None = None


def _make_converter() -> Any:
    # A new quest converter, not `QUEST_CONVERTER.copy()`: a copy's container hooks still call
    # the original converter, which knows nothing of the tutorial's strict records.
    converter = make_quest_converter()
    records = (SetupDef, TutorialStep, TutorialNpc, TutorialTexts, TutorialDef)
    forbid_unknown_keys(converter, records)
    return converter


TUTORIAL_CONVERTER = _make_converter()


# ---------------------------------------------------------------------------- loading
def load_section(
    raw: Any, definition: WorldDefinition, path: str, problems: Problems
) -> TutorialDef | None:
    """Structure and check a tutorial section against its world; None (with problems) on error.
    A shape error does not stop the checks of the parts that have the right shape, down to each
    step: a malformed step leaves the other steps checked."""
    from agentodyssey_pz.world.validate import section_parts

    section, parts = section_parts(raw, TutorialDef, path, problems, TUTORIAL_CONVERTER)
    if "steps" not in parts and isinstance(raw, dict) and isinstance(raw.get("steps"), list):
        parts["steps"] = _well_formed_steps(raw["steps"])
    errors_before = len(problems.errors)
    checked = _check_parts(parts, definition, _used_roles(raw), path, problems)
    if section is None or checked is None or len(problems.errors) > errors_before:
        return None
    roles, steps, take_back = checked
    world_ids = {o.id for o in (*definition.entities.objects, *section.objects)}
    added = tuple(
        stand_in
        for role, stand_in in section.stand_ins.items()
        if roles.get(role) == stand_in.id and stand_in.id not in world_ids
    )
    return attrs.evolve(
        section,
        roles=roles,
        steps=steps,
        take_back=take_back,
        objects=section.objects + added,
        undistributable=section.undistributable + tuple(o.id for o in added),
    )


def _used_roles(raw: Any) -> set[str]:
    """The roles the raw section refers to anywhere but in its object and NPC records (its steps,
    texts, NPC settings, take-back list)."""
    if not isinstance(raw, dict):
        return set(ROLES)
    strings: list[str] = []
    todo = [v for k, v in raw.items() if k not in ("roles", "objects", "npcs", "stand_ins")]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            strings.append(item)
        elif isinstance(item, dict):
            strings.extend(k for k in item if isinstance(k, str))
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return roles_used(strings)


def _check_parts(
    parts: dict[str, Any],
    definition: WorldDefinition,
    used: set[str],
    path: str,
    problems: Problems,
) -> tuple[dict[str, str], tuple[TutorialStep, ...], tuple[str, ...] | None] | None:
    """The references of every well-formed part; (roles, steps with roles resolved, take-back
    ids), or None when a part they need is malformed or wrong. Without the section's own objects
    and NPCs the names are unknown, and checking references would only produce guesses."""
    if "objects" not in parts or "npcs" not in parts or "stand_ins" not in parts:
        return None
    errors_before = len(problems.errors)
    # The world's records, then the section's new ones (as they are added to the world).
    objects = {o.id: o for o in definition.entities.objects}
    objects.update((o.id, o) for o in parts["objects"] if o.id not in objects)
    stand_ins = parts["stand_ins"]
    for role in stand_ins:
        if role not in ROLES:
            problems.error(
                f"{path}.stand_ins.{role}", f"unknown role (expected {', '.join(ROLES)})"
            )
    npcs = {n.id: n for n in (*definition.entities.npcs, *parts["npcs"])}
    roles = None
    if "roles" in parts:
        roles = resolve_roles(
            objects, parts["roles"], f"{path}.roles", problems, used=used, stand_ins=stand_ins
        )
        for role, oid in (roles or {}).items():
            if oid not in objects:  # a stand-in the world does not define
                objects[oid] = stand_ins[role]
    _check_npcs(parts, npcs, path, problems)
    for i, oid in enumerate(parts.get("undistributable", ())):
        if oid not in objects:
            problems.error(f"{path}.undistributable[{i}]", f"unknown object '{oid}'")
    if roles is None:
        return None
    names = _Names(
        objects=set(objects),
        npcs=set(npcs),
        variables=run_variable_kinds(roles),
        areas={a.id for _, a in definition.iter_areas()},
    )
    if "texts" in parts:
        _check_texts(parts["texts"], names, f"{path}.texts", problems)
    take_back = _load_take_back(parts.get("take_back"), roles, names, path, problems)
    if "steps" not in parts:
        return None
    if not parts["steps"]:
        problems.error(f"{path}.steps", "the tutorial needs at least one step")
    indexed = [(i, step) for i, step in enumerate(parts["steps"]) if isinstance(step, TutorialStep)]
    steps = tuple(
        _load_step(step, roles, names, f"{path}.steps[{i}]", problems) for i, step in indexed
    )
    _check_unique_ids(indexed, f"{path}.steps", problems)
    if len(problems.errors) == errors_before and len(indexed) == len(parts["steps"]):
        # The crafting steps are checked in order, once every step is well formed.
        values = {f"{role}_value": objects[oid].value for role, oid in roles.items()}
        check_crafting(steps, objects, values, f"{path}.steps", problems)
    return roles, steps, take_back


def _load_take_back(
    given: tuple[str, ...] | None,
    roles: dict[str, str],
    names: _Names,
    path: str,
    problems: Problems,
) -> tuple[str, ...] | None:
    """The take-back list with its `$role`s resolved; unknown objects are errors."""
    if given is None:
        return None
    resolved = []
    for i, ref in enumerate(given):
        oid = _role_id(ref, roles)
        if oid not in names.objects:
            problems.error(f"{path}.take_back[{i}]", f"unknown object '{ref}'")
        elif oid not in resolved:
            resolved.append(oid)
    return tuple(resolved)


def _well_formed_steps(raw_steps: list[Any]) -> list[TutorialStep | object]:
    """Each raw step structured on its own (`MALFORMED` where its shape is wrong, an error
    already reported), so the well-formed ones are still checked."""
    from agentodyssey_pz.world.validate import MALFORMED, structure_or

    return [structure_or(r, TutorialStep, TUTORIAL_CONVERTER, MALFORMED) for r in raw_steps]


@attrs.define
class _Names:
    """What the data may refer to (duck-types the scope `quest_checks.check_condition` reads)."""

    objects: set[str]
    npcs: set[str]
    variables: dict[str, str]
    areas: set[str] = attrs.Factory(set)
    bosses: set[str] = attrs.Factory(set)
    stages: set[str] = attrs.Factory(set)


def run_variable_kinds(roles: Iterable[str] = ROLES) -> dict[str, str]:
    """Every `$name` a step may use (with the given roles filled), with its kind (as quest
    scopes name kinds)."""
    kinds = {"spawn": "area", "room": "area", "spawn_name": "value"}
    for role in roles:
        kinds.update({role: "object", f"{role}_name": "value", f"{role}_value": "value"})
    for role in INSTANCE_ROLES:
        kinds[f"{role}_instance"] = "value"  # bag, note and key are always filled
    for role in NPC_ROLES:
        kinds.update({role: "npc", f"{role}_name": "value"})
    return kinds


def _check_npcs(
    parts: dict[str, Any], npcs: dict[str, NpcDef], path: str, problems: Problems
) -> None:
    for field, enemy in (("merchant", False), ("raider", True)):
        if field not in parts:
            continue
        proto = npcs.get(parts[field].npc)
        where = f"{path}.{field}.npc"
        if proto is None:
            problems.error(where, f"unknown NPC '{parts[field].npc}'")
        elif proto.enemy != enemy:
            problems.error(where, f"the {field} must {'' if enemy else 'not '}be an enemy")
        elif field == "merchant" and proto.role != MERCHANT_ROLE:
            problems.error(
                where, f"the merchant's role must be '{MERCHANT_ROLE}', not '{proto.role}'"
            )
        elif proto.unique:
            problems.error(where, f"the {field} must not be unique: every agent meets its own")


def _check_texts(texts: TutorialTexts, names: _Names, path: str, problems: Problems) -> None:
    for field in attrs.fields(TutorialTexts):
        extra = (EXTRA_VERBS,) if field.name == "completed" else ()
        _check_template(getattr(texts, field.name), names, f"{path}.{field.name}", problems, extra)


def _check_template(
    text: str, names: _Names, path: str, problems: Problems, extra: tuple[str, ...] = ()
) -> None:
    for name in VARIABLE.findall(text):
        if name in names.variables or name in RUN_VARIABLES or name in extra:
            continue
        if name == EXTRA_VERBS:
            problems.error(path, f"'{{{name}}}' is only filled in texts.completed")
        else:
            problems.error(path, f"unknown variable '{{{name}}}' in text")


def _check_unique_ids(steps: list[tuple[int, TutorialStep]], path: str, problems: Problems) -> None:
    seen: dict[str, int] = {}
    for i, step in steps:
        if step.id in seen:
            problems.error(
                f"{path}[{i}].id", f"duplicate step id '{step.id}' (first at [{seen[step.id]}])"
            )
        seen.setdefault(step.id, i)


# ---------------------------------------------------------------------------- steps
def _load_step(
    step: TutorialStep, roles: dict[str, str], names: _Names, path: str, problems: Problems
) -> TutorialStep:
    _check_template(step.instruction, names, f"{path}.instruction", problems)
    if step.done_all is None and not step.done_any:
        problems.error(path, "a step needs done_all or done_any")
    conditions: dict[str, tuple[Condition, ...] | None] = {}
    for field in ("done_all", "done_any"):
        given = getattr(step, field)
        if given is None:
            conditions[field] = None
            continue
        resolved = tuple(_resolve_condition(c, roles) for c in given)
        for i, cond in enumerate(resolved):
            check_condition(cond, names, f"{path}.{field}[{i}]", problems)
            _check_payloads(cond, names, f"{path}.{field}[{i}]", problems)
        conditions[field] = resolved
    setup = tuple(
        _load_setup(s, roles, names, f"{path}.setup[{i}]", problems)
        for i, s in enumerate(step.setup)
    )
    return attrs.evolve(step, setup=setup, **conditions)


def _role_id(value: Any, roles: dict[str, str]) -> Any:
    """`$bag` -> the bag's object id; anything else unchanged."""
    if isinstance(value, str) and value.startswith("$") and value[1:] in roles:
        return roles[value[1:]]
    return value


def _resolve_condition(cond: Condition, roles: dict[str, str]) -> Condition:
    params = dict(cond.params)
    if isinstance(params.get("objects"), list):
        params["objects"] = [_role_id(v, roles) for v in params["objects"]]
    if "object" in params:
        params["object"] = _role_id(params["object"], roles)
    nested = tuple(_resolve_condition(c, roles) for c in cond.conditions)
    return Condition(cond.kind, params, nested)


def _check_payloads(cond: Condition, names: _Names, path: str, problems: Problems) -> None:
    payload = cond.params.get("payload")
    for key, value in payload.items() if isinstance(payload, dict) else ():
        if isinstance(value, str) and value.startswith("$") and value[1:] not in names.variables:
            problems.error(f"{path}.payload.{key}", f"unknown variable '{value}'")
    for i, nested in enumerate(cond.conditions):
        _check_payloads(nested, names, f"{path}.conditions[{i}]", problems)


def _load_setup(
    setup: SetupDef, roles: dict[str, str], names: _Names, path: str, problems: Problems
) -> SetupDef:
    spec = SETUP_KINDS.get(setup.kind)
    if spec is None:
        problems.error(
            f"{path}.kind", f"unknown setup kind '{setup.kind}' (one of {', '.join(SETUP_KINDS)})"
        )
        return setup
    required, optional = spec
    present = {f for f in ("role", "npc") if getattr(setup, f) is not None}
    present |= {f for f in ("objects", "stock") if getattr(setup, f)}
    for missing in sorted(required - present):
        problems.error(f"{path}.{missing}", f"'{setup.kind}' needs '{missing}'")
    for extra in sorted(present - required - optional):
        problems.error(f"{path}.{extra}", f"'{setup.kind}' has no parameter '{extra}'")
    if setup.role is not None and setup.role not in INSTANCE_ROLES:
        problems.error(
            f"{path}.role", f"expected one of {', '.join(INSTANCE_ROLES)}, got '{setup.role}'"
        )
    if setup.npc is not None and setup.npc not in NPC_ROLES:
        problems.error(f"{path}.npc", f"expected one of {', '.join(NPC_ROLES)}, got '{setup.npc}'")
    objects = _resolve_counts(setup.objects, roles, names, f"{path}.objects", problems)
    stock = _resolve_counts(setup.stock, roles, names, f"{path}.stock", problems)
    return attrs.evolve(setup, objects=objects, stock=stock)


def _resolve_counts(
    counts: dict[str, Any], roles: dict[str, str], names: _Names, path: str, problems: Problems
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, count in counts.items():
        oid = _role_id(key, roles)
        if oid not in names.objects:
            problems.error(f"{path}.{key}", f"unknown object '{key}'")
        if isinstance(count, str) and count.startswith("$"):
            if names.variables.get(count[1:]) != "value":
                problems.error(f"{path}.{key}", f"'{count}' is not a number variable")
        elif type(count) is not int or count <= 0:
            problems.error(f"{path}.{key}", f"expected a positive whole number, got {count!r}")
        out[oid] = count
    return out
