"""The world part of a reference checkpoint (docs/mechanics/world-synthesis.md#saving-a-world)
installed onto a fresh world.

Helper of `reference.py`: overwrites a copy of the freshly generated world with the record's
container and writable instances, area contents, NPC instances, path locks and place unlocks. NPCs
the record marks as quest NPCs are left out (our quest rules own theirs and restart the quests).
"""

from __future__ import annotations

import re
from typing import Any

from agentodyssey_pz.checkpoint.reference_data import RecordProblem, at, counts, obj
from agentodyssey_pz.world.entities import ContainerInstance, Npc, WritableInstance
from agentodyssey_pz.world.serialize import dangling_references
from agentodyssey_pz.world.world import World

_INDEX = re.compile(r"^(.+)_(\d+)$")  # "<definition id>_<n>": an instance and its index


def install_world(world: World, data: dict) -> None:
    """Overwrite a copy of the fresh world with the record's instances, areas, NPCs and locks."""
    areas_rec = at(data, "area_instances", dict, "$.world")
    tutorial = world.auxiliary.get("tutorial_room") or {}
    ours = {a for a, area in world.areas.items() if area.place_id != tutorial.get("place_id")}
    if set(areas_rec) != ours:
        odd = sorted(set(areas_rec) - ours) or sorted(ours - set(areas_rec))
        raise RecordProblem(
            f"$.world.area_instances.{odd[0]}", "exactly the area ids of this world"
        )
    for pid, raw in at(data, "place_instances", dict, "$.world").items():
        if pid not in world.places:
            raise RecordProblem(f"$.world.place_instances.{pid}", "a place id of this world")
        world.places[pid].unlocked = at(raw, "unlocked", bool, f"$.world.place_instances.{pid}")
    _install_instances(world, data)
    for aid, raw in areas_rec.items():
        world.areas[aid].objects = counts(world, raw, "objects", f"$.world.area_instances.{aid}")
    _install_npcs(world, data, areas_rec)
    _install_paths(world, areas_rec, ours)
    problems = dangling_references(world)  # e.g. a combat or inventory naming a dropped id
    if problems:
        raise RecordProblem("$.world", f"a consistent world (in our terms: {problems[0]})")


def _install_instances(world: World, data: dict) -> None:
    """Container and writable instances are exactly the record's (crafted ones included)."""
    world.containers, world.writables = {}, {}
    for key, table in (
        ("container_instances", world.containers),
        ("writable_instances", world.writables),
    ):
        counters = world.container_count if table is world.containers else world.writable_count
        for iid, raw in at(data, key, dict, "$.world").items():
            path = f"$.world.{key}.{iid}"
            match = _INDEX.match(iid)
            kind = world.objects.get(match.group(1)) if match else None
            if not (
                kind and kind.is_instanced and kind.is_container == (table is world.containers)
            ):
                raise RecordProblem(
                    path, f"'<{key.split('_')[0]} definition id>_<n>' of this world"
                )
            name = at(raw, "name", str, path)
            if table is world.containers:
                table[iid] = ContainerInstance(iid, kind.id, name, {})
            else:
                table[iid] = WritableInstance(iid, kind.id, name, at(raw, "text", str, path))
            counters[kind.id] = max(counters.get(kind.id, 0), int(match.group(2)) + 1)
    world.reindex_objects()
    for iid, raw in data["container_instances"].items():  # contents may name later instances
        path = f"$.world.container_instances.{iid}"
        world.containers[iid].items = counts(world, raw, "inventory", path)


def _install_npcs(world: World, data: dict, areas_rec: dict) -> None:
    """Non-quest NPCs are the record's; quest NPCs stay ours (our quests restart)."""
    kept = {nid: npc for nid, npc in world.npcs.items() if npc.quest}
    imported: dict[str, Npc] = {}
    for nid, raw in at(data, "npc_instances", dict, "$.world").items():
        path = f"$.world.npc_instances.{nid}"
        if not at(obj(raw, path), "quest", bool, path, default=False):
            imported[nid] = _npc(world, nid, raw, path)
    placed: dict[str, str] = {}
    for aid, raw in areas_rec.items():
        path = f"$.world.area_instances.{aid}.npcs"
        listed = at(raw, "npcs", list, f"$.world.area_instances.{aid}", default=[])
        for nid in listed:
            if not isinstance(nid, str) or (
                nid not in imported and nid not in data["npc_instances"]
            ):
                raise RecordProblem(path, f"ids of $.world.npc_instances, got {nid!r}")
            if nid in placed:
                raise RecordProblem(path, f"NPC '{nid}' in one area only (also in {placed[nid]})")
            if nid in imported:
                placed[nid] = aid
        area = world.areas[aid]
        area.npcs = dict.fromkeys(
            [n for n in listed if n in imported] + [n for n in area.npcs if n in kept]
        )
    for nid, npc in imported.items():
        npc.area_id = placed.get(nid)
    world.npcs = {**imported, **kept}
    world.reindex_npcs()


def _npc(world: World, nid: str, raw: Any, path: str) -> Npc:
    """An NPC from the instance form (docs/world-format.md#7-npcs); its prototype must be ours."""
    match = _INDEX.match(nid)
    def_id = nid if nid in world.npc_protos else match.group(1) if match else None
    proto = world.npc_protos.get(def_id or "")
    if proto is None:
        raise RecordProblem(
            path, "an NPC id of this world's definition ('<npc id>' or '<npc id>_<n>')"
        )
    if not proto.unique and match:
        world.npc_count[proto.id] = max(world.npc_count.get(proto.id, 0), int(match.group(2)) + 1)
    old = world.npcs.get(nid)  # the reference keeps no max HP: ours, else the level's full HP
    level = at(raw, "level", int, path)
    full = old.max_hp if old else proto.hp_at(level)
    pattern = at(raw, "combat_pattern", list, path, default=list(proto.pattern))
    if not all(p in ("attack", "defend", "wait") for p in pattern):
        raise RecordProblem(f"{path}.combat_pattern", "a list of 'attack', 'defend' or 'wait'")
    fields = {k: at(raw, k, int, path) for k in ("level", "hp", "attack_power", "coins")}
    fields |= {k: at(raw, k, str, path) for k in ("name", "role", "description")}
    fields |= {k: at(raw, k, bool, path) for k in ("enemy", "unique")}
    return Npc(
        id=nid,
        def_id=proto.id,
        max_hp=max(full, fields["hp"]),
        dialogue=at(raw, "dialogue", str, path, default=""),
        inventory=counts(world, raw, "inventory", path, allowed=set(proto.loot)),
        combat_pattern=tuple(pattern),
        **fields,
    )


def _install_paths(world: World, areas_rec: dict, ours: set[str]) -> None:
    """Shared paths are the record's; a direction-pair is locked if either side says so."""
    found: dict[frozenset[str], tuple[bool, str | None]] = {}
    for aid, raw in areas_rec.items():
        base = f"$.world.area_instances.{aid}.neighbors"
        for to_id, p in at(raw, "neighbors", dict, base[: -len(".neighbors")], default={}).items():
            if to_id not in areas_rec:
                raise RecordProblem(f"{base}.{to_id}", "an area id of this world")
            locked = at(p, "locked", bool, f"{base}.{to_id}")
            key = at(p, "object_to_unlock", (str, type(None)), f"{base}.{to_id}", default=None)
            if key is not None and world.find_def(key) is None:
                raise RecordProblem(
                    f"{base}.{to_id}.object_to_unlock", "an object id of this world"
                )
            was = found.get(frozenset((aid, to_id)), (False, None))
            found[frozenset((aid, to_id))] = (was[0] or locked, was[1] or key)
    for a, b, attrs_ in list(world.graph.nx.edges(data=True)):
        if attrs_["owner"] is None and {a, b} <= ours and frozenset((a, b)) not in found:
            world.graph.disconnect(a, b)
    for pair, (locked, key) in found.items():
        a, b = sorted(pair)
        owner = (world.graph.path(a, b) or {}).get("owner")
        world.connect(a, b, locked=locked, key=key, owner=owner)
