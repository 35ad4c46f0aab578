"""`World`: the state of one synthesised world and the operations rules use to change it.

Layer: world core. Lookups that run every tick are O(1): an area's ground is a dict, its NPCs an
ordered set, and `def_of` maps every object id - definition or instance - to its definition. Name
tables are kept in step with every instance created or removed, so actions resolve names in O(1).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from agentodyssey_pz.world.entities import (
    Area,
    ContainerInstance,
    Npc,
    Place,
    WritableInstance,
    definition_id,
)
from agentodyssey_pz.world.graph import OWNER, AreaGraph
from agentodyssey_pz.world.npc_groups import NpcGroups
from agentodyssey_pz.world.schema import NpcDef, ObjectDef, WorldDefinition
from agentodyssey_pz.world.variants import Variant, variant_named

if TYPE_CHECKING:
    from agentodyssey_pz.world.synthesis import SynthesisOptions


class World:
    """Areas, paths, object and NPC instances, and the lookup tables over them."""

    def __init__(self, definition: WorldDefinition, spawn_area: str) -> None:
        self.definition = definition
        self.spawn_area = spawn_area
        # The generator that built it (`features.synthesis`); NPCs created later follow it too.
        # Taken from the definition, which a snapshot keeps, so a loaded world has it as well.
        self.variant: Variant = variant_named(definition.features.synthesis)
        self.objects: dict[str, ObjectDef] = {o.id: o for o in definition.entities.objects}
        self.npc_protos: dict[str, NpcDef] = {n.id: n for n in definition.entities.npcs}
        self.places: dict[str, Place] = {}
        self.areas: dict[str, Area] = {}
        # Areas world expansion added, in the order it added them (tutorial rooms are not here).
        self.added_areas: list[str] = []
        self.graph = AreaGraph()
        self.npcs: dict[str, Npc] = {}
        self._npc_groups = NpcGroups()  # placed NPCs by area and owner (`npc_groups`)
        # Per area, the number of the last change to its NPCs (`NpcGroups.arrivals`); per viewer,
        # what it saw last (area, that number, the ids): most ticks nobody comes or goes, and the
        # answer is the same.
        self._npc_changes: dict[str, int] = {}
        self._seen: dict[str | None, tuple[str, int, tuple[str, ...]]] = {}
        self.containers: dict[str, ContainerInstance] = {}
        self.writables: dict[str, WritableInstance] = {}
        # Next instance index per definition (indices are never reused, even after removal).
        self.container_count: dict[str, int] = {}
        self.writable_count: dict[str, int] = {}
        self.npc_count: dict[str, int] = {}
        # Free-form, JSON-compatible data that rules keep between ticks (quest geography ...).
        self.auxiliary: dict[str, Any] = {}
        self.obj_name_to_id: dict[str, str] = {}
        self.npc_name_to_id: dict[str, str] = {}
        self.products_of: dict[str, list[str]] = {}
        # Product id -> the ingredients its recipe needs a positive amount of (a quick subset test
        # rules out most recipes before any arithmetic).
        self.needs: dict[str, frozenset[str]] = {}
        self._def_of: dict[str, ObjectDef] = {}
        # Object id -> (definition id, name) when its name leads back to it, else None; filled on
        # demand and dropped whenever a name is added or removed (`_names_changed`).
        self._listing: dict[str, tuple[str, str] | None] = {}
        # Facts that rules work out from names and definitions alone, memoised under keys of their
        # own (`rules.context.WorldTable` classes); emptied with `_listing` whenever those change.
        self.derived: dict[Any, Any] = {}
        # Counts those changes (definitions and recipes included): equal revisions of one World
        # mean the same names and definitions, which cached listings rely on (`agents.reach_key`).
        self.names_revision = 0
        self._area_names: dict[str, str] | None = None
        self.reindex_objects()

    @classmethod
    def generate(
        cls, definition: WorldDefinition, seed: int, options: SynthesisOptions | None = None
    ) -> World:
        """Synthesise a world from a definition and a seed (see `synthesis.py`)."""
        from agentodyssey_pz.world.synthesis import generate

        return generate(definition, seed, options)

    def expand(self, spec: Any, seed: int, options: SynthesisOptions | None = None) -> Any:
        """Merge new places, areas, objects and NPCs (see `expansion.py`); atomic."""
        from agentodyssey_pz.world.expansion import expand

        return expand(self, spec, seed, options)

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-compatible data (see `serialize.py`)."""
        from agentodyssey_pz.world.serialize import world_to_data

        return world_to_data(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> World:
        from agentodyssey_pz.world.serialize import world_from_data

        return world_from_data(data)

    @property
    def synthesis(self) -> str:
        """The name of the world's synthesis variant (`base`, `quarantine`, `remnant`, `mark`)."""
        return self.variant.name

    # ----------------------------------------------------------------- derived tables
    def reindex_objects(self) -> None:
        """Rebuild the name table, `def_of` and the ingredient -> products index from scratch."""
        self._names_changed()
        self.obj_name_to_id = {o.name: o.id for o in self.objects.values()}
        self._def_of = dict(self.objects)
        instances: list[ContainerInstance | WritableInstance] = [*self.containers.values()]
        instances += self.writables.values()
        for inst in instances:
            self.obj_name_to_id[inst.name] = inst.id
            self._def_of[inst.id] = self.objects[inst.def_id]
        self._currency_id = next((o.id for o in self.objects.values() if o.is_currency), None)
        self.products_of = {}
        self.needs = {}
        for obj in self.objects.values():  # definition order, so listings are reproducible
            for ingredient in obj.craft.ingredients:
                self.products_of.setdefault(ingredient, []).append(obj.id)
            self.needs[obj.id] = _needs(obj)

    def _names_changed(self) -> None:
        self._listing.clear()
        self.derived.clear()
        self.names_revision += 1

    def reindex_npcs(self) -> None:
        """Rebuild the name table and the per-area owner groups from the NPC records."""
        self.npc_name_to_id = {npc.name: npc.id for npc in self.npcs.values()}
        self.reindex_npc_areas()

    def reindex_npc_areas(self) -> None:
        """Rebuild the per-area owner groups from `Area.npcs` (after a load or an import)."""
        self._npc_groups = NpcGroups()
        self._npc_changes = {}
        self._seen = {}
        for area_id, area in self.areas.items():
            for npc_id in area.npcs:
                self._file_npc(self.npcs[npc_id], area_id)

    def def_of(self, object_id: str) -> ObjectDef:
        """The definition of a definition id or an instance id (KeyError when unknown)."""
        return self._def_of[object_id]

    def find_def(self, object_id: str) -> ObjectDef | None:
        return self._def_of.get(object_id)

    def name_of(self, object_id: str) -> str:
        inst = self.containers.get(object_id) or self.writables.get(object_id)
        return inst.name if inst is not None else self._def_of[object_id].name

    def listing(self, object_id: str) -> tuple[str, str] | None:
        """(definition id, name) of an object whose own name leads back to it, so a command can
        name it; None when another object's entry shadows that name (or the id is unknown)."""
        try:
            return self._listing[object_id]
        except KeyError:
            pass
        obj = self._def_of.get(object_id)
        found = None
        if obj is not None:
            name = self.name_of(object_id)
            if self.obj_name_to_id.get(name) == object_id:
                found = (obj.id, name)
        self._listing[object_id] = found
        return found

    def additions(self) -> tuple[list[str], list[str], list[str]]:
        """What world expansion added, in the order it added it: (area ids, object definition ids,
        NPC prototype ids). `objects` and `npc_protos` list the definition's first, then these."""
        entities = self.definition.entities
        objects = list(itertools.islice(self.objects, len(entities.objects), None))
        protos = list(itertools.islice(self.npc_protos, len(entities.npcs), None))
        return list(self.added_areas), objects, protos

    def addition_counts(self) -> tuple[int, int, int]:
        """How many of each `additions()` there are, in O(1)."""
        entities = self.definition.entities
        return (
            len(self.added_areas),
            len(self.objects) - len(entities.objects),
            len(self.npc_protos) - len(entities.npcs),
        )

    def is_instance(self, object_id: str) -> bool:
        return object_id in self.containers or object_id in self.writables

    # ----------------------------------------------------------------- building
    def add_place(self, place: Place) -> None:
        self.places[place.id] = place

    def add_area(self, area: Area) -> None:
        self.areas[area.id] = area
        self.graph.add_area(area.id)
        self.places[area.place_id].area_ids.append(area.id)

    def area_named(self, name: str) -> str | None:
        """The id of the (first) area with that name; O(1) while the areas stay as they were.

        The index is rebuilt on a miss or a removed area, which is how added and removed areas
        show (a tutorial room gone, an expansion area new, in any numbers). New areas come last,
        so an area found that still exists is still the first of its name."""
        index = self._area_names
        if index is not None:
            area_id = index.get(name)
            if area_id is not None and area_id in self.areas:
                return area_id
        index = self._area_names = {}
        for area in self.areas.values():
            index.setdefault(area.name, area.id)
        return index.get(name)

    def named_neighbors(self, area_id: str, agent_id: str) -> list[tuple[str, str, dict[str, Any]]]:
        """(neighbour id, name, path) of each neighbour the agent may use (not another agent's
        personal path), in path order, only the first of each name: what a command naming a
        neighbouring area resolves to."""
        areas, seen = self.areas, set()
        out = []
        for neighbor, path in self.graph.neighbors(area_id).items():
            owner = path[OWNER]
            if owner is not None and owner != agent_id:
                continue
            name = areas[neighbor].name
            if name not in seen:
                seen.add(name)
                out.append((neighbor, name, path))
        return out

    def take_npc_index(self, proto_id: str) -> int:
        """The next instance index of an NPC prototype (never reused)."""
        index = self.npc_count.get(proto_id, 0)
        self.npc_count[proto_id] = index + 1
        return index

    def connect(
        self,
        a: str,
        b: str,
        *,
        locked: bool = False,
        key: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Create (or overwrite) the path a<->b and record that the two places are neighbours."""
        self.graph.connect(a, b, locked=locked, key=key, owner=owner)
        pa, pb = self.areas[a].place_id, self.areas[b].place_id
        if pa != pb:
            if pb not in self.places[pa].neighbors:
                self.places[pa].neighbors.append(pb)
            if pa not in self.places[pb].neighbors:
                self.places[pb].neighbors.append(pa)

    def add_object_def(self, obj: ObjectDef) -> None:
        """Register a definition created at run time (world expansion)."""
        self.objects[obj.id] = obj
        self._def_of[obj.id] = obj
        self._names_changed()
        if obj.is_currency or self._currency_id == obj.id:  # added or redefined money
            self._currency_id = next((o.id for o in self.objects.values() if o.is_currency), None)
        self.obj_name_to_id[obj.name] = obj.id
        self.needs[obj.id] = _needs(obj)
        for ingredient in obj.craft.ingredients:
            products = self.products_of.setdefault(ingredient, [])
            if obj.id not in products:
                products.append(obj.id)

    # ----------------------------------------------------------------- object instances
    def new_instance(self, def_id: str) -> str:
        """Create a fresh container or writable instance (not placed anywhere); returns its id."""
        obj = self.objects[def_id]
        counters = self.container_count if obj.is_container else self.writable_count
        index = counters.get(def_id, 0)
        counters[def_id] = index + 1
        inst_id, inst_name = f"{def_id}_{index}", f"{obj.name}_{index}"
        if obj.is_container:
            self.containers[inst_id] = ContainerInstance(
                inst_id, def_id, inst_name, dict(obj.inventory or {})
            )
        else:
            self.writables[inst_id] = WritableInstance(inst_id, def_id, inst_name, obj.text)
        self.obj_name_to_id[inst_name] = inst_id
        self._def_of[inst_id] = obj
        self._names_changed()
        return inst_id

    def delete_instance(self, inst_id: str) -> None:
        """Forget an instance entirely (its name stops resolving). Callers remove it from places."""
        inst = self.containers.pop(inst_id, None) or self.writables.pop(inst_id, None)
        if inst is not None:
            if self.obj_name_to_id.get(inst.name) == inst_id:
                del self.obj_name_to_id[inst.name]
            del self._def_of[inst_id]
            self._names_changed()

    def materialise(self, def_id: str, count: int) -> list[tuple[str, int]]:
        """Bring `count` units of a definition into existence as (id, count) entries to place.

        Containers and writables become `count` new instances; anything else is one stacked entry.
        """
        if count <= 0:
            return []
        if self.objects[def_id].is_instanced:
            return [(self.new_instance(def_id), 1) for _ in range(count)]
        return [(def_id, count)]

    def spawn_on_ground(self, area_id: str, def_id: str, count: int) -> list[tuple[str, int]]:
        """Create `count` units of a definition on an area's ground; returns what was placed."""
        placed = self.materialise(def_id, count)
        area = self.areas[area_id]
        for oid, n in placed:
            area.add_objects(oid, n)
        return placed

    # ----------------------------------------------------------------- NPCs
    def add_npc(self, npc: Npc, area_id: str | None) -> None:
        taken = self.npc_name_to_id.get(npc.name)
        if taken is not None and taken != npc.id:
            npc.name = self.free_npc_name(npc.name)
        self.npcs[npc.id] = npc
        self.npc_name_to_id[npc.name] = npc.id
        if area_id is not None:
            self.place_npc(npc.id, area_id)

    def free_npc_name(self, name: str) -> str:
        """`<stem>_<k>` with the first k no NPC is named yet (the stem is `name` without a final
        `_<digits>`): a quest NPC that copies a world NPC's name (two `zombie` prototypes) gets
        the next number of that name, never another NPC's."""
        stem = definition_id(name)
        k = 0
        while f"{stem}_{k}" in self.npc_name_to_id:
            k += 1
        return f"{stem}_{k}"

    def place_npc(self, npc_id: str, area_id: str) -> None:
        """Put an NPC in an area, taking it out of wherever it stood."""
        npc = self.npcs[npc_id]
        if npc.area_id is not None:
            self.areas[npc.area_id].npcs.pop(npc_id, None)
            self._unfile_npc(npc_id, npc.area_id)
        self.areas[area_id].npcs[npc_id] = None
        npc.area_id = area_id
        self._file_npc(npc, area_id)

    def remove_npc_from_map(self, npc_id: str) -> None:
        """Take an NPC off the map; it stays in `npcs` (a killed NPC keeps its record and name)."""
        npc = self.npcs[npc_id]
        if npc.area_id is not None:
            self.areas[npc.area_id].npcs.pop(npc_id, None)
            self._unfile_npc(npc_id, npc.area_id)
            npc.area_id = None

    def set_npc_owner(self, npc_id: str, owner: str | None) -> None:
        """Make an NPC personal to an agent (None: everyone's), wherever it stands."""
        npc = self.npcs[npc_id]
        area_id = npc.area_id
        if area_id is None:
            npc.owner = owner
            return
        arrival = self._npc_groups.arrival_of(npc_id)  # its place in line stays where it was
        self._unfile_npc(npc_id, area_id)
        npc.owner = owner
        self._file_npc(npc, area_id, arrival)

    def _file_npc(self, npc: Npc, area_id: str, arrival: int | None = None) -> None:
        self._npc_changes[area_id] = self._npc_groups.file(npc.id, npc.owner, area_id, arrival)

    def _unfile_npc(self, npc_id: str, area_id: str) -> None:
        change = self._npc_groups.unfile(npc_id, area_id)
        if change is not None:
            self._npc_changes[area_id] = change

    def visible_npcs(self, area_id: str, viewer: str | None) -> tuple[str, ...]:
        """Ids of the NPCs in the area that `viewer` can see (everyone's, and its own personal
        ones; None: everyone's only), in arrival order. The cost grows with what the viewer
        sees, not with the other agents' personal NPCs standing there."""
        changes = self._npc_changes.get(area_id, 0)
        seen = self._seen.get(viewer)
        if seen is not None and seen[0] == area_id and seen[1] == changes:
            return seen[2]
        ids = self._npc_groups.visible(area_id, viewer)
        self._seen[viewer] = (area_id, changes, ids)
        return ids

    def delete_npc(self, npc_id: str) -> None:
        self.remove_npc_from_map(npc_id)
        npc = self.npcs.pop(npc_id)
        if self.npc_name_to_id.get(npc.name) == npc_id:
            del self.npc_name_to_id[npc.name]

    def rename_npc(self, npc_id: str, name: str) -> None:
        npc = self.npcs[npc_id]
        if self.npc_name_to_id.get(npc.name) == npc_id:
            del self.npc_name_to_id[npc.name]
        npc.name = name
        self.npc_name_to_id[name] = npc_id

    def npc_here(self, name: str, area_id: str, viewer: str | None = None) -> Npc | None:
        """The NPC of that name if it stands in the area (and, given a viewer, is not another
        agent's personal NPC), else None."""
        npc_id = self.npc_name_to_id.get(name)
        if npc_id is None or npc_id not in self.areas[area_id].npcs:
            return None
        npc = self.npcs[npc_id]
        return npc if viewer is None or npc.is_visible_to(viewer) else None

    def npcs_seen_by(self, area_id: str, viewer: str) -> list[Npc]:
        """NPCs in the area that `viewer` can see, in arrival order."""
        npcs, seen = self.npcs, []
        for npc_id in self.visible_npcs(area_id, viewer):  # a plain loop: a few, every agent's text
            seen.append(npcs[npc_id])
        return seen

    # ----------------------------------------------------------------- queries
    def dist_areas(self) -> list[Area]:
        """Every area except the spawn area, in definition order."""
        return [a for a in self.areas.values() if a.id != self.spawn_area]

    @property
    def currency_id(self) -> str | None:
        """The money of this world: the first object definition of category `currency`."""
        return self._currency_id

    @property
    def currency_name(self) -> str | None:
        """The word texts use for this world's money (`features.currency_name`), None when the
        world does not name it (texts then use the currency definition's name)."""
        return self.definition.features.currency_name

    def neighbor_names(self, area_id: str) -> list[str]:
        return [self.areas[n].name for n in self.graph.neighbors(area_id)]

    def objects_by_category(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for obj in self.objects.values():
            counts[obj.category] = counts.get(obj.category, 0) + 1
        return counts

    def total_units(self, areas: Iterable[Area] | None = None) -> dict[str, int]:
        """Units per definition id lying on the ground (instances counted under their kind)."""
        totals: dict[str, int] = {}
        for area in self.areas.values() if areas is None else areas:
            for oid, n in area.objects.items():
                did = self._def_of[oid].id
                totals[did] = totals.get(did, 0) + n
        return totals


def _needs(obj: ObjectDef) -> frozenset[str]:
    return frozenset(i for i, q in obj.craft.ingredients.items() if q > 0)
