"""World state <-> plain JSON-compatible data, through cattrs.

Layer: world core. Instances are saved as their own records (definition id, name, contents or text)
rather than as copies of their definition, so nothing is lost or nested on a round trip (the
reference drops instance recipes and nests extras one level deeper per save). Name and definition
tables are rebuilt on load; NPC names are saved because rules rename NPCs (quest guides).
"""

from __future__ import annotations

import copy
from typing import Any

import cattrs

from agentodyssey_pz.errors import Problem, WorldStateError
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Area, ContainerInstance, Npc, Place, WritableInstance
from agentodyssey_pz.world.graph import AreaGraph
from agentodyssey_pz.world.schema import (
    CONVERTER as SCHEMA_CONVERTER,
)
from agentodyssey_pz.world.schema import NpcDef, ObjectDef, WorldDefinition
from agentodyssey_pz.world.strict_json import strict_converter
from agentodyssey_pz.world.world import World

FORMAT_VERSION = 1


def _make_converter() -> cattrs.Converter:
    conv = strict_converter()
    # An area's NPCs are an ordered set in memory and a list on disk.
    ordered_set = dict[str, None]
    conv.register_unstructure_hook_func(lambda t: t == ordered_set, list)
    conv.register_structure_hook_func(lambda t: t == ordered_set, lambda ids, _: dict.fromkeys(ids))
    return conv


STATE_CONVERTER = _make_converter()


def world_to_data(world: World, *, include_definition: bool = True) -> dict[str, Any]:
    """Plain data. Without the definition (which never changes) the result is smaller; pass the
    definition back to `world_from_data` then."""
    defined_objects = {o.id for o in world.definition.entities.objects}
    defined_npcs = {n.id for n in world.definition.entities.npcs}
    unstructure = STATE_CONVERTER.unstructure
    return {
        "format": FORMAT_VERSION,
        "definition": SCHEMA_CONVERTER.unstructure(world.definition)
        if include_definition
        else None,
        "spawn_area": world.spawn_area,
        "added_objects": [
            SCHEMA_CONVERTER.unstructure(o)
            for o in world.objects.values()
            if o.id not in defined_objects
        ],
        "added_npc_protos": [
            SCHEMA_CONVERTER.unstructure(n)
            for n in world.npc_protos.values()
            if n.id not in defined_npcs
        ],
        "places": [unstructure(p) for p in world.places.values()],
        "areas": [unstructure(a) for a in world.areas.values()],
        "added_areas": list(world.added_areas),
        "graph": world.graph.to_data(),
        "npcs": [unstructure(n) for n in world.npcs.values()],
        "npc_names": dict(world.npc_name_to_id),
        "containers": [unstructure(c) for c in world.containers.values()],
        "writables": [unstructure(w) for w in world.writables.values()],
        "container_count": dict(world.container_count),
        "writable_count": dict(world.writable_count),
        "npc_count": dict(world.npc_count),
        "auxiliary": copy.deepcopy(world.auxiliary),
    }


def world_from_data(data: dict[str, Any], definition: WorldDefinition | None = None) -> World:
    """Rebuild a world saved by `world_to_data`; malformed data raises `WorldStateError`."""
    try:
        return _build(data, definition)
    except WorldStateError:
        raise
    except (cattrs.BaseValidationError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise WorldStateError([Problem("$", f"cannot rebuild the world: {exc!r}")]) from exc


def _build(data: dict[str, Any], given: WorldDefinition | None) -> World:
    if data.get("format") != FORMAT_VERSION:
        raise WorldStateError(
            [
                Problem(
                    "$.format",
                    f"unsupported world format {data.get('format')!r}, expected {FORMAT_VERSION}",
                )
            ]
        )
    structure = STATE_CONVERTER.structure
    definition = (
        given
        if given is not None
        else SCHEMA_CONVERTER.structure(data["definition"], WorldDefinition)
    )
    world = World(definition, data["spawn_area"])
    for raw in data["added_objects"]:
        obj = SCHEMA_CONVERTER.structure(raw, ObjectDef)
        world.objects[obj.id] = obj
    for raw in data["added_npc_protos"]:
        proto = SCHEMA_CONVERTER.structure(raw, NpcDef)
        world.npc_protos[proto.id] = proto
    world.places = {p.id: p for p in (structure(r, Place) for r in data["places"])}
    world.areas = {a.id: a for a in (structure(r, Area) for r in data["areas"])}
    world.added_areas = list(data.get("added_areas", ()))  # absent in states saved before it was
    world.graph = AreaGraph.from_data(data["graph"])
    world.npcs = {n.id: n for n in (structure(r, Npc) for r in data["npcs"])}
    world.containers = {
        c.id: c for c in (structure(r, ContainerInstance) for r in data["containers"])
    }
    world.writables = {w.id: w for w in (structure(r, WritableInstance) for r in data["writables"])}
    world.container_count = _counts(data, "container_count")
    world.writable_count = _counts(data, "writable_count")
    world.npc_count = _counts(data, "npc_count")
    world.auxiliary = copy.deepcopy(data["auxiliary"])
    world.reindex_objects()
    names = data["npc_names"]
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise WorldStateError([Problem("$.npc_names", "expected an object of name -> NPC id")])
    world.npc_name_to_id = dict(names)
    problems = dangling_references(world)
    if problems:
        raise WorldStateError(problems)
    world.reindex_npc_areas()
    return world


def _counts(data: dict[str, Any], key: str) -> dict[str, int]:
    """A saved table of next instance indices: definition id -> a whole number >= 0."""
    table = data[key]
    if not isinstance(table, dict) or not all(type(n) is int and n >= 0 for n in table.values()):
        raise WorldStateError([Problem(f"$.{key}", "expected an object of id -> whole number")])
    return dict(table)


def dangling_references(world: World) -> list[Problem]:
    """Every id the state mentions must exist: saved data is checked before anyone uses it."""
    problems: list[Problem] = []

    def bad(path: str, message: str) -> None:
        problems.append(Problem(path, message))

    if world.spawn_area not in world.areas:
        bad("$.spawn_area", f"unknown area '{world.spawn_area}'")
    if set(world.graph.nx.nodes) != set(world.areas):
        bad("$.graph.areas", "the graph's areas differ from the world's areas")
    for pid, place in world.places.items():
        for aid in place.area_ids:
            if aid not in world.areas:
                bad(f"$.places.{pid}", f"unknown area '{aid}'")
    for aid, area in world.areas.items():
        if area.place_id not in world.places:
            bad(f"$.areas.{aid}.place_id", f"unknown place '{area.place_id}'")
        problems += bad_units(world, area.objects, f"$.areas.{aid}.objects")
        for npc_id in area.npcs:
            if npc_id not in world.npcs:
                bad(f"$.areas.{aid}.npcs", f"unknown NPC '{npc_id}'")
    for i, aid in enumerate(world.added_areas):
        if aid not in world.areas:
            bad(f"$.added_areas[{i}]", f"unknown area '{aid}'")
    for npc_id, npc in world.npcs.items():
        if npc.area_id is not None and npc_id not in world.areas.get(npc.area_id, _NO_AREA).npcs:
            bad(f"$.npcs.{npc_id}.area_id", f"NPC is not listed in area '{npc.area_id}'")
        if npc.def_id not in world.npc_protos:
            bad(f"$.npcs.{npc_id}.def_id", f"unknown NPC prototype '{npc.def_id}'")
        problems += bad_units(world, npc.inventory, f"$.npcs.{npc_id}.inventory", zero_ok=True)
    for cid, container in world.containers.items():
        for oid in container.items:
            if world.find_def(oid) is None:
                bad(f"$.containers.{cid}.items.{oid}", "unknown object")
    return problems


def agent_dangling_references(world: World, agent: AgentState) -> list[Problem]:
    """Every id a saved agent mentions must exist in its world, and every count it carries be
    positive: an edited file is refused on load, not by a rule in the middle of a tick."""
    where = f"$.agents.{agent.id}"
    problems: list[Problem] = []

    def bad(path: str, message: str) -> None:
        problems.append(Problem(f"{where}.{path}", message))

    if agent.area_id not in world.areas:
        bad("area_id", f"unknown area '{agent.area_id}'")
    if agent.inventory_id is not None and agent.inventory_id not in world.containers:
        bad("inventory_id", f"unknown container '{agent.inventory_id}'")
    for field in ("hands", "equipped"):
        problems += bad_units(world, getattr(agent, field), f"{where}.{field}")
    for npc_id, engagement in agent.combats.items():
        if npc_id not in world.npcs or engagement.area_id not in world.areas:
            bad(f"combats.{npc_id}", f"unknown NPC or area ('{engagement.area_id}')")
    for area_id in agent.visited:
        if area_id not in world.areas:
            bad("visited", f"unknown area '{area_id}'")
    for field in ("crafted", "traded", "acquired", "craft_credit"):
        for def_id in getattr(agent, field):
            if def_id not in world.objects:
                bad(field, f"unknown object definition '{def_id}'")
    return problems


def bad_units(
    world: World, store: dict[str, int], path: str, zero_ok: bool = False
) -> list[Problem]:
    """Entries of a store (object id -> units) naming no object or holding too few units: stores
    keep no empty entries, while a merchant's stock may run out (`zero_ok`)."""
    least, wrong = (0, "negative") if zero_ok else (1, "non-positive")
    return [
        Problem(f"{path}.{oid}", f"unknown object or {wrong} count ({count})")
        for oid, count in store.items()
        if world.find_def(oid) is None or count < least
    ]


class _NoArea:
    npcs: dict[str, None] = {}


_NO_AREA = _NoArea()
