"""The discrete action catalogue: a fixed list of canonical commands derived from a world
definition.

Layer: observe. Entry i is a (verb id, target) pair - `wait`, `defend`, `enter <area>`, `pick_up
<object kind>`, `craft 1 <kind>`, `attack <NPC prototype>`, `buy 1 <kind>` ... - fixed for the life
of
an env, so `Discrete(len(catalogue))` never changes. Targets are kinds (definition ids): at
execution
an entry resolves to the concrete command the verb would accept now (the first instance of that kind
in reach, the first NPC of that prototype here, the first merchant that trades it), using the verb's
own `valid_params`, so a discrete action means exactly what the same text command means.

Entries and the verbs' parameter tuples meet through `key_of_params`: it maps a tuple
(`("1", "rope", "inventory")` for `store`) to the entry key (`("store", "obj_rope")`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.world import World

INVENTORY = "inventory"
ONE = "1"

# How each verb's entries are made and how its parameters map to an entry key.
#   target: "none" (one entry), "area", "object", "craftable", "npc", "equippable", "tradable"
#   amount: position of the amount parameter (entries use amount "1"), or None
#   name: position of the parameter naming the target
#   container: position of a container parameter that must be "inventory", or None
VERB_SHAPES: dict[str, dict[str, Any]] = {
    "wait": {"target": "none"},
    "defend": {"target": "none"},
    "enter": {"target": "area", "name": 0},
    "pick_up": {"target": "object", "name": 0},
    "drop": {"target": "object", "name": 0},
    "equip": {"target": "equippable", "name": 0},
    "unequip": {"target": "equippable", "name": 0},
    "inspect": {"target": "object", "name": 0},
    "craft": {"target": "craftable", "amount": 0, "name": 1},
    "attack": {"target": "npc", "name": 0},
    "talk_to": {"target": "npc", "name": 0},
    "buy": {"target": "tradable", "amount": 0, "name": 1},
    "sell": {"target": "tradable", "amount": 0, "name": 1},
    "store": {"target": "storable", "amount": 0, "name": 1, "container": 2},
    "take_out": {"target": "storable", "name": 0, "container": 1},
    "discard": {"target": "storable", "amount": 0, "name": 1, "container": 2},
}


@attrs.frozen
class Entry:
    verb: str  # verb id
    target: str | None  # definition id (area, object or NPC prototype); None for wait/defend
    label: str  # human-readable canonical command, e.g. "craft 1 rope"


def _targets(kind: str, definition: WorldDefinition) -> list[tuple[str, str]]:
    """(definition id, display name) of every target of a kind, in definition order."""
    objects = definition.entities.objects
    if kind == "area":
        return [(a.id, a.name) for _, a in definition.iter_areas()]
    if kind == "npc":
        return [(n.id, n.name) for n in definition.entities.npcs]
    if kind == "object":
        return [(o.id, o.name) for o in objects]
    if kind == "craftable":
        return [(o.id, o.name) for o in objects if o.is_craftable]
    if kind == "equippable":
        return [(o.id, o.name) for o in objects if o.category in ("armor", "container")]
    if kind == "tradable":
        return [(o.id, o.name) for o in objects if o.value is not None and not o.is_instanced]
    if kind == "storable":
        return [(o.id, o.name) for o in objects if o.size is not None and not o.is_container]
    return []


def _label(verb_phrase: str, shape: dict[str, Any], name: str) -> str:
    parts = [verb_phrase]
    if "amount" in shape:
        parts.append(ONE)
    parts.append(name)
    if shape.get("container") is not None:
        parts.append(INVENTORY)
    return " ".join(parts)


class ActionCatalogue:
    """Index <-> entry, plus the mapping from a verb's parameter tuples to entry indices."""

    def __init__(self, definition: WorldDefinition, verb_phrases: dict[str, str]) -> None:
        """`verb_phrases`: verb id -> the words typed, for the verbs the game has."""
        entries: list[Entry] = []
        for verb, shape in VERB_SHAPES.items():
            if verb not in verb_phrases:
                continue
            phrase = verb_phrases[verb]
            if shape["target"] == "none":
                entries.append(Entry(verb, None, phrase))
                continue
            for target, name in _targets(shape["target"], definition):
                entries.append(Entry(verb, target, _label(phrase, shape, name)))
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.index: dict[tuple[str, str | None], int] = {
            (e.verb, e.target): i for i, e in enumerate(self.entries)
        }
        self.verbs = tuple(v for v in VERB_SHAPES if v in verb_phrases)
        self._compile(definition)

    def __len__(self) -> int:
        return len(self.entries)

    def keys_of_params(
        self, world: World, verb: str, params_list: Sequence[Sequence[str]]
    ) -> list[tuple[int, Sequence[str]]]:
        """(entry index, params) for every tuple that belongs to an entry, in order."""
        key_of = self._key_of.get(verb)
        if key_of is None:
            return []
        out = []
        for params in params_list:
            index = key_of(world, params)
            if index is not None:
                out.append((index, params))
        return out

    def key_of_params(self, world: World, verb: str, params: Sequence[str]) -> int | None:
        """The entry a concrete command belongs to, or None (e.g. amount other than 1, a container
        other than the inventory, a target the definition does not have)."""
        key_of = self._key_of.get(verb)
        return key_of(world, params) if key_of is not None else None

    def _compile(self, definition: WorldDefinition) -> None:
        """One small function per verb mapping parameters to an entry index. Definition names map
        straight to indices; instance names (`bag_0`, `wolf_3`) go through the world's tables."""
        self._key_of: dict[str, Callable[[World, Sequence[str]], int | None]] = {}
        for verb in self.verbs:
            shape = VERB_SHAPES[verb]
            if shape["target"] == "none":
                index = self.index[(verb, None)]
                self._key_of[verb] = lambda world, params, index=index: index
                continue
            by_name = {
                name: self.index[(verb, target)]
                for target, name in _targets(shape["target"], definition)
            }
            self._key_of[verb] = _key_function(self, verb, shape, by_name)


def _key_function(
    catalogue: ActionCatalogue, verb: str, shape: dict[str, Any], by_name: dict[str, int]
) -> Callable[[World, Sequence[str]], int | None]:
    name_at, amount_at, container_at = shape["name"], shape.get("amount"), shape.get("container")
    kind = shape["target"]
    index = catalogue.index

    def key_of(world: World, params: Sequence[str]) -> int | None:
        if amount_at is not None and params[amount_at] != ONE:
            return None
        if container_at is not None and params[container_at] != INVENTORY:
            return None
        name = params[name_at]
        found = by_name.get(name)
        if found is not None or kind == "area":
            return found
        target = _resolve_target(world, kind, name)  # an instance name
        return index.get((verb, target)) if target is not None else None

    return key_of


def _resolve_target(world: World, kind: str, name: str) -> str | None:
    if kind == "area":
        return world.area_named(name)
    if kind == "npc":
        npc_id = world.npc_name_to_id.get(name)
        return world.npcs[npc_id].def_id if npc_id is not None else None
    oid = world.obj_name_to_id.get(name)
    return world.def_of(oid).id if oid is not None else None
