"""Runtime records of a world: areas, places, NPC instances, container and writable instances.

Layer: world core. These are the mutable state the rules change every tick, so they are slotted
attrs classes holding plain dicts and lists (cheap to read, JSON-friendly to save). Definitions
(what a thing *is*) stay in the frozen schema records; these hold what a thing's copy *has* now.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NewType

import attrs

if TYPE_CHECKING:
    from agentodyssey_pz.world.schema import NpcDef

AreaId = NewType("AreaId", str)
PlaceId = NewType("PlaceId", str)
ObjectId = NewType("ObjectId", str)  # a definition id (`obj_rope`) or an instance id (`obj_bag_0`)
NpcId = NewType("NpcId", str)

_INSTANCE_SUFFIX = re.compile(r"_\d+$")


def definition_id(instance_or_def_id: str) -> str:
    """Recover a definition id from an instance id by stripping a final `_<digits>` segment."""
    return _INSTANCE_SUFFIX.sub("", instance_or_def_id)


@attrs.define(slots=True)
class Area:
    """One area: its ground (id -> count, in arrival order) and the NPCs standing in it."""

    id: str
    name: str
    level: int
    light: bool
    place_id: str
    objects: dict[str, int] = attrs.Factory(dict)
    # An insertion-ordered set (values are always None): membership and removal are O(1), and the
    # order is the order NPCs arrived, which is the order observations list them.
    npcs: dict[str, None] = attrs.Factory(dict)
    type: str = "area"

    def add_objects(self, object_id: str, count: int) -> None:
        self.objects[object_id] = self.objects.get(object_id, 0) + count

    def remove_objects(self, object_id: str, count: int) -> None:
        left = self.objects[object_id] - count
        if left > 0:
            self.objects[object_id] = left
        else:
            del self.objects[object_id]


@attrs.define(slots=True)
class Place:
    id: str
    name: str
    unlocked: bool
    area_ids: list[str] = attrs.Factory(list)
    neighbors: list[str] = attrs.Factory(list)  # places linked by at least one path
    type: str = "place"


@attrs.define(slots=True)
class Npc:
    """An NPC instance. Its stats start from its prototype at its level; rules change them."""

    id: str
    def_id: str
    name: str
    level: int
    hp: int
    max_hp: int
    attack_power: int
    coins: int
    enemy: bool
    unique: bool
    role: str
    quest: bool = False
    description: str = ""
    dialogue: str = ""
    inventory: dict[str, int] = attrs.Factory(dict)
    combat_pattern: tuple[str, ...] = ()
    area_id: str | None = None  # None once it has left the map (killed or removed)
    # A personal NPC (an agent's own quest guide or boss) exists only for that agent: others do not
    # see it, cannot act on it, and it never acts on them. None = everyone's. The world files a
    # placed NPC under its owner (`World.visible_npcs`): change it with `World.set_npc_owner`.
    owner: str | None = None

    def is_visible_to(self, agent_id: str) -> bool:
        return self.owner is None or self.owner == agent_id

    @property
    def is_alive(self) -> bool:
        return self.hp > 0


def npc_instance(
    proto: NpcDef,
    index: int | None,
    level: int,
    *,
    coins: int,
    inventory: dict[str, int],
    **changes: Any,
) -> Npc:
    """An instance of `proto` at `level` (docs/mechanics/world-synthesis.md#npc-instances): full HP
    and attack by the prototype's scaling, everything else copied from it. `index` None keeps the
    prototype's id and name (a unique NPC), else both get `_<index>`; `changes` override any
    field."""
    suffix = "" if index is None else f"_{index}"
    hp = proto.hp_at(level)
    fields: dict[str, Any] = {
        "id": proto.id + suffix,
        "def_id": proto.id,
        "name": proto.name + suffix,
        "level": level,
        "hp": hp,
        "max_hp": hp,
        "attack_power": proto.attack_at(level),
        "coins": coins,
        "enemy": proto.enemy,
        "unique": proto.unique,
        "role": proto.role,
        "quest": proto.quest,
        "description": proto.description,
        "dialogue": proto.dialogue,
        "inventory": inventory,
        "combat_pattern": proto.pattern,
    }
    fields.update(changes)
    return Npc(**fields)


@attrs.define(slots=True)
class ContainerInstance:
    """A container copy: its contents (id -> count; writable instances count 1 each)."""

    id: str
    def_id: str
    name: str
    items: dict[str, int] = attrs.Factory(dict)


@attrs.define(slots=True)
class WritableInstance:
    id: str
    def_id: str
    name: str
    text: str = ""
