"""Growing a world during play: merge new places, areas, objects and NPCs (`World.expand`).

Layer: world core. The expansion spec has the world-definition format (`places`, `objects`, `npcs`;
an area may list `existing_objects`). It is validated with the same loader and checks as world files
and applied only when it has no errors, so an expansion is atomic: it either happens entirely or not
at all. Specs whose id already exists are skipped (with a warning), as in the reference.

Fixed reference quirks (docs/mechanics/world-synthesis.md#quirk-expansion-fixes): the bridge end is
the furthest area with ties broken by area order (not set order); new unique NPCs are placed; a
place is never bridged twice; a new place with `unlocked: false` is bridged by a locked path, whose
key is the first object with usage `unlock` in definition order (no random draw, so the rest of the
expansion draws what the reference draws; with no such object the path stays open and a warning says
so, as a lock without a key is never made). As in the reference, a place spec may leave out
`unlocked` (default true) and `type`.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import attrs

from agentodyssey_pz.errors import Problem, Problems, WorldDefinitionError
from agentodyssey_pz.world import checks
from agentodyssey_pz.world.agents import INVENTORY
from agentodyssey_pz.world.entities import Area, Place
from agentodyssey_pz.world.schema import CONVERTER, NpcDef, ObjectDef, PlaceDef
from agentodyssey_pz.world.synthesis import (
    LIGHT_PROBABILITY,
    SynthesisOptions,
    choose_level,
    create_npc,
)
from agentodyssey_pz.world.validate import Parsed, structure_record
from agentodyssey_pz.world.world import World

UNLOCK_USAGE = "unlock"  # the usage of keys (a lockpick never locks a path)
MIN_UNITS_PER_AREA = 3
COIN_PROBABILITY = 0.4
NPC_SKIP_PROBABILITY = 0.4
MAX_NPC_LEVEL = 10
WORLD_PATH = "world"  # path prefix of existing records, whose own problems are not reported


@attrs.frozen
class ExpansionResult:
    place_names: list[str]
    area_names: list[str]
    warnings: list[Problem]


def _existing_records(world: World) -> Parsed:
    parsed = Parsed()
    parsed.objects = [(f"{WORLD_PATH}.objects", {}, o) for o in world.objects.values()]
    parsed.npcs = [(f"{WORLD_PATH}.npcs", {}, n) for n in world.npc_protos.values()]
    parsed.declared_objects = set(world.objects)
    parsed.declared_npcs = set(world.npc_protos)
    parsed.declared_areas = set(world.areas)
    parsed.declared_places = set(world.places)
    return parsed


def _new_records(
    spec: Any, key: str, cls: type, existing: set[str], problems: Problems
) -> list[tuple[str, dict[str, Any], Any]]:
    items = spec.get(key, []) if isinstance(spec, dict) else None
    if not isinstance(items, list):
        problems.error(f"$.{key}", "expected a list")
        return []
    out = []
    for i, raw in enumerate(items):
        path = f"$.{key}[{i}]"
        if cls is PlaceDef and isinstance(raw, dict):
            raw = {"unlocked": True, **raw}  # optional in expansion specs
        record = structure_record(raw, cls, path, problems)
        if record is None:
            continue
        if record.id in existing:
            problems.warn(f"{path}.id", f"'{record.id}' already exists; this spec is skipped")
            continue
        out.append((path, raw, record))
    return out


def check_expansion(world: World, spec: Any) -> tuple[Parsed, Problems]:
    """Validate an expansion spec against the world it would join."""
    problems = Problems()
    if not isinstance(spec, dict):
        problems.error("$", "an expansion must be a JSON object with places, objects and npcs")
        return Parsed(), problems
    parsed = _existing_records(world)
    new_objects = _new_records(spec, "objects", ObjectDef, set(world.objects), problems)
    new_npcs = _new_records(spec, "npcs", NpcDef, set(world.npc_protos), problems)
    new_places = _new_records(spec, "places", PlaceDef, set(world.places), problems)
    parsed.objects += new_objects
    parsed.npcs += new_npcs
    parsed.places = new_places
    parsed.declared_objects |= {o.id for _, _, o in new_objects}
    parsed.declared_npcs |= {n.id for _, _, n in new_npcs}
    parsed.declared_areas |= {a.id for _, _, p in new_places for a in p.areas}
    _check_new_areas(world, parsed, problems)
    _check_new_kind_names(world, new_objects, new_npcs, problems)
    scratch = Problems()
    for check in (
        checks.check_unique_ids,
        checks.check_names,
        checks.check_id_suffixes,
        checks.check_object_fields,
        checks.check_recipes,
        checks.check_npcs,
    ):
        check(parsed, scratch)
    problems.items += [p for p in scratch.items if not p.path.startswith(WORLD_PATH)]
    return parsed, problems


def _check_new_kind_names(
    world: World,
    new_objects: list[tuple[str, dict[str, Any], Any]],
    new_npcs: list[tuple[str, dict[str, Any], Any]],
    problems: Problems,
) -> None:
    """Names the generic name checks cannot judge here, as they skip problems found at the
    world's own records: a new kind whose instances (`<name>_<n>`) would take the name of a thing
    already in the world, and an object named `inventory` (the action catalogue, built with the
    env, gave that word to the equipped inventory)."""
    for kind, new, existing in (
        ("object", new_objects, [o.name for o in world.objects.values()]),
        ("NPC", new_npcs, [n.name for n in world.npc_protos.values()]),
    ):
        for path, _, record in new:
            clash = next(
                (n for n in existing if checks.INSTANCE_SUFFIX.sub("", n) == record.name != n),
                None,
            )
            if clash is not None:
                problems.error(
                    f"{path}.name",
                    f"{kind} name '{record.name}' would name its instances like the existing "
                    f"'{clash}'",
                )
            if kind == "object" and record.name == INVENTORY:
                problems.error(
                    f"{path}.name", "'inventory' names the equipped inventory; pick another name"
                )


def _check_new_areas(world: World, parsed: Parsed, problems: Problems) -> None:
    taken = set(world.areas) | set(world.places)
    names = {a.name for a in world.areas.values()}
    for path, _, place in parsed.places:
        if not place.areas:
            problems.error(f"{path}.areas", f"new place '{place.id}' has no areas")
        for i, area in enumerate(place.areas):
            where = f"{path}.areas[{i}]"
            if area.id in taken:
                problems.error(f"{where}.id", f"area id '{area.id}' is already used")
            if area.name in names:
                problems.error(f"{where}.name", f"area name '{area.name}' is already used")
            if area.level is not None and area.level < 1:
                problems.error(f"{where}.level", f"area level must be >= 1, got {area.level}")
            for j, oid in enumerate(area.existing_objects or ()):
                if oid not in parsed.declared_objects:
                    problems.error(f"{where}.existing_objects[{j}]", f"unknown object '{oid}'")
            taken.add(area.id)
            names.add(area.name)


def expand(
    world: World, spec: Any, seed: int, options: SynthesisOptions | None = None
) -> ExpansionResult:
    """Validate and merge an expansion; raises `WorldDefinitionError` (world untouched) if bad."""
    parsed, problems = check_expansion(world, spec)
    problems.raise_if_errors(WorldDefinitionError, "world expansion")
    options = options or SynthesisOptions()
    rng = random.Random(seed)
    existing_areas = list(world.areas)
    new_objects = [o for path, _, o in parsed.objects if not path.startswith(WORLD_PATH)]
    new_npcs = [n for path, _, n in parsed.npcs if not path.startswith(WORLD_PATH)]
    for obj in new_objects:
        world.add_object_def(obj)
    for proto in new_npcs:
        world.npc_protos[proto.id] = proto
        world.npc_count.setdefault(proto.id, 0)
    places = [_add_place(world, pdef, rng) for _, _, pdef in parsed.places]
    paths = [path for path, _, _ in parsed.places]
    _bridge(world, list(zip(paths, places, strict=True)), existing_areas, rng, problems)
    new_areas = [world.areas[a] for p in places for a in p.area_ids]
    world.added_areas.extend(area.id for area in new_areas)
    new_defs = [a for _, _, p in parsed.places for a in p.areas]
    for area, adef in zip(new_areas, new_defs, strict=True):
        _populate(world, area, adef.existing_objects or (), rng, options)
    _place_unique_npcs(world, new_npcs, new_areas, rng, options)
    return ExpansionResult(
        place_names=[p.name for p in places],
        area_names=[a.name for a in new_areas],
        warnings=problems.warnings,
    )


def _add_place(world: World, pdef: PlaceDef, rng: random.Random) -> Place:
    place = Place(pdef.id, pdef.name, pdef.unlocked, type=pdef.type)
    world.add_place(place)
    for adef in pdef.areas:
        drawn = rng.random() < LIGHT_PROBABILITY  # drawn for every area, as the reference does
        light = adef.light if adef.light is not None else drawn
        world.add_area(Area(adef.id, adef.name, adef.level or 1, light, place.id, type=adef.type))
    ids = list(place.area_ids)
    rng.shuffle(ids)
    for a, b in itertools.pairwise(ids):
        world.connect(a, b)
    return place


def _bridge(
    world: World,
    places: list[tuple[str, Place]],
    candidates: list[str],
    rng: random.Random,
    problems: Problems,
) -> None:
    """Link each new place by one path to the area furthest from spawn so far (locks ignored):
    open, or locked with the first `unlock` object when the place is locked."""
    candidates = list(candidates)
    key = next((o.id for o in world.objects.values() if o.usage == UNLOCK_USAGE), None)
    for path, place in places:
        far = world.graph.furthest(world.spawn_area, candidates) or world.spawn_area
        locked = not place.unlocked and key is not None
        if not place.unlocked and key is None:
            problems.warn(
                f"{path}.unlocked",
                "no object has usage 'unlock', so the locked place is bridged by an open path",
            )
        world.connect(far, rng.choice(place.area_ids), locked=locked, key=key if locked else None)
        candidates += place.area_ids  # later places may chain off this one


def _populate(
    world: World, area: Area, listed: tuple[str, ...], rng: random.Random, options: SynthesisOptions
) -> None:
    und = set(world.definition.initializations.undistributable_objects)

    def distributable(o: ObjectDef) -> bool:
        return o.id not in und and bool(o.areas)

    def put(obj: ObjectDef, count: int, station_cap: bool = True) -> None:
        if station_cap and obj.is_station and area.objects.get(obj.id, 0) > 0:
            return
        for oid, n in world.materialise(obj.id, count):
            area.add_objects(oid, n)

    for oid in listed:
        obj = world.objects[oid]
        if distributable(obj) and not obj.is_currency:
            put(obj, 1)
    have = sum(area.objects.values())
    pool = [
        o
        for o in world.objects.values()
        if distributable(o) and not o.is_currency and not o.is_container and not o.is_writable
    ]
    if have < MIN_UNITS_PER_AREA and pool:
        weights = [0.6 if abs(o.level - area.level) <= 1 else 0.1 for o in pool]
        for obj in rng.choices(pool, weights=weights, k=MIN_UNITS_PER_AREA - have):
            put(obj, 1)
    for obj in list(world.objects.values()):
        if distributable(obj) and area.id in obj.areas:
            put(obj, rng.randint(1, 2), station_cap=False)  # no cap in this step
    coins = [o.id for o in world.objects.values() if o.is_currency]
    if coins and rng.random() < COIN_PROBABILITY:
        area.add_objects(rng.choice(coins), rng.randint(1, max(1, area.level)))
    _populate_npcs(world, area, rng, options)


def _populate_npcs(world: World, area: Area, rng: random.Random, options: SynthesisOptions) -> None:
    level = area.level
    budget = rng.randint(max(1, level // 2), level + 1)
    for proto in [p for p in world.npc_protos.values() if not p.unique and not p.quest]:
        if budget <= 0:
            break
        if rng.random() < NPC_SKIP_PROBABILITY:
            continue
        npc_level = rng.choice([max(1, level - 1), level, min(level + 1, MAX_NPC_LEVEL)])
        index = world.take_npc_index(proto.id)
        npc = create_npc(world, proto, index, npc_level, rng, options)
        world.add_npc(npc, area.id)
        if npc.enemy:
            budget -= 1


def _place_unique_npcs(
    world: World,
    protos: list[NpcDef],
    areas: list[Area],
    rng: random.Random,
    options: SynthesisOptions,
) -> None:
    """Fixed quirk: the reference never places unique NPCs an expansion brings (e.g. a merchant)."""
    for proto in protos:
        if proto.unique and not proto.quest and areas:
            home = rng.choice(areas)
            world.add_npc(
                create_npc(world, proto, None, choose_level(rng, home.level), rng, options), home.id
            )


def expansion_to_dict(
    places: list[PlaceDef], objects: list[ObjectDef], npcs: list[NpcDef]
) -> dict[str, Any]:
    """Build an expansion spec from schema records (used by generators)."""
    return {
        "places": [CONVERTER.unstructure(p) for p in places],
        "objects": [CONVERTER.unstructure(o) for o in objects],
        "npcs": [CONVERTER.unstructure(n) for n in npcs],
    }
