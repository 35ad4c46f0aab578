"""The discrete action catalogue: a fixed list of canonical commands derived from a world.

Layer: observe. Entry i is a (verb id, target) pair - `wait`, `defend`, `enter <area>`,
`pick_up <object kind>`, `craft 1 <kind>`, `attack <NPC prototype>`, `buy 1 <kind>` ... - fixed for
the life of an env, so `Discrete(len(catalogue))` never changes. Each verb says how it appears here
(`BaseActionRule.catalogue`, a `CatalogueShape`), so a rule pack's own verbs join the catalogue too.

Targets are kinds (definition ids). At execution an entry resolves to the concrete command its verb
reported for the current state (`BaseActionRule.mask_targets`: the first instance of that kind in
reach, the first NPC of that prototype here, the first merchant that trades it), so a discrete
action means exactly what the same text command means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from agentodyssey_pz.rules.base import (
    INVENTORY,
    ONE,
    BaseActionRule,
    CatalogueShape,
    target_id,
)
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.world import World

# Catalogue order of the base verbs; verbs of other packs follow in rule order.
VERB_ORDER = (
    "wait", "defend", "enter", "pick_up", "drop", "equip", "unequip", "inspect", "craft",
    "attack", "talk_to", "buy", "sell", "store", "take_out", "discard",
)  # fmt: skip


@attrs.frozen
class Entry:
    verb: str  # verb id
    target: str | None  # definition id (area, object or NPC prototype); None for wait/defend
    label: str  # human-readable canonical command, e.g. "craft 1 rope"


def targets(kind: str, definition: WorldDefinition) -> list[tuple[str, str]]:
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


def label(verb_phrase: str, shape: CatalogueShape, name: str | None) -> str:
    """The canonical command of an entry, e.g. `store 1 rope inventory`."""
    count = 1 + max((p for p in (shape.name, shape.amount, shape.container) if p is not None),
                    default=-1)  # fmt: skip
    words = [""] * count
    if shape.amount is not None:
        words[shape.amount] = ONE
    if shape.container is not None:
        words[shape.container] = INVENTORY
    if shape.name is not None and name is not None:
        words[shape.name] = name
    return " ".join([verb_phrase, *words])


class ActionCatalogue:
    """Index <-> entry for the verbs of a game, built once from the world definition."""

    def __init__(self, definition: WorldDefinition, rules: Mapping[str, BaseActionRule]) -> None:
        order = [v for v in VERB_ORDER if v in rules] + [v for v in rules if v not in VERB_ORDER]
        entries: list[Entry] = []
        self.shapes: dict[str, CatalogueShape] = {}
        for verb in order:
            shape = rules[verb].catalogue
            if shape is None:
                continue
            self.shapes[verb] = shape
            phrase = rules[verb].verb
            if shape.target == "none":
                entries.append(Entry(verb, None, label(phrase, shape, None)))
                continue
            for target, name in targets(shape.target, definition):
                entries.append(Entry(verb, target, label(phrase, shape, name)))
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.index: dict[tuple[str, str | None], int] = {
            (e.verb, e.target): i for i, e in enumerate(self.entries)
        }
        self.verbs = tuple(self.shapes)
        # Per verb, target -> entry index: what the mask loop looks targets up in.
        self.slots: dict[str, dict[str | None, int]] = {verb: {} for verb in self.verbs}
        for i, e in enumerate(self.entries):
            self.slots[e.verb][e.target] = i

    def __len__(self) -> int:
        return len(self.entries)

    def key_of_params(self, world: World, verb: str, params: Sequence[str]) -> int | None:
        """The entry a concrete command belongs to, or None (an amount other than 1, a container
        other than the inventory, a target the definition does not have)."""
        shape = self.shapes.get(verb)
        if shape is None:
            return None
        if shape.amount is not None and params[shape.amount] != ONE:
            return None
        if shape.container is not None and params[shape.container] != INVENTORY:
            return None
        if shape.name is None:
            return self.index.get((verb, None))
        target = target_id(world, shape.target, params[shape.name])
        return self.index.get((verb, target)) if target is not None else None
