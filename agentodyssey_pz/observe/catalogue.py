"""The discrete action catalogue: a fixed list of canonical commands derived from a world.

Layer: observe. Entry i is a (verb id, target) pair - `wait`, `defend`, `enter <area>`,
`pick_up <object kind>`, `craft 1 <kind>`, `attack <NPC prototype>`, `buy 1 <kind>` ... - fixed for
the life of an env, so `Discrete(len(catalogue))` never changes. Each verb says how it appears here
(`BaseActionRule.catalogue`, a `CatalogueShape`), so a rule pack's own verbs join the catalogue too.

Worlds that expand get spare entries per verb, bound in the order expansion adds areas, object kinds
and NPC prototypes (`ActionCatalogue.bind`, `observe.slots`).

Targets are kinds (definition ids). At execution an entry resolves to the concrete command its verb
reported for the current state (`BaseActionRule.mask_targets`: the first instance of that kind in
reach, the first NPC of that prototype here, the first merchant that trades it), so a discrete
action means exactly what the same text command means.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

from agentodyssey_pz.rules.base import (
    IN_HAND,
    INVENTORY,
    ONE,
    BaseActionRule,
    CatalogueShape,
)
from agentodyssey_pz.rules.parse import quote_param
from agentodyssey_pz.world.quests import PLAIN_TEXT
from agentodyssey_pz.world.schema import ObjectDef, WorldDefinition
from agentodyssey_pz.world.world import World

# Catalogue order of the base verbs; verbs of other packs follow in rule order.
VERB_ORDER = (
    "wait", "defend", "enter", "pick_up", "drop", "equip", "unequip", "inspect", "craft",
    "attack", "talk_to", "buy", "sell", "store", "take_out", "discard", "write",
)  # fmt: skip


# An in-hand entry's label names no container: one word, so its canonical command (run when the
# entry is masked) is a well-formed command the verb refuses, like any other masked entry's.
HELD_LABEL = "<container_in_hand>"

# An entry's target: a definition id (area, object kind, NPC prototype); None for wait/defend;
# (definition id, text) for a verb with a text parameter; (word,) for an extra word entry;
# (definition id, IN_HAND) for a container verb's entry with the container held in hand.
Target = str | tuple[str, ...] | None


@attrs.frozen
class Entry:
    verb: str  # verb id
    target: Target
    label: str  # human-readable canonical command, e.g. "craft 1 rope"


def in_order(verb_ids: Sequence[str], preferred: Sequence[str]) -> tuple[str, ...]:
    """`verb_ids` with those in `preferred` first, in its order; the others (other packs' verbs)
    after them, in their own order."""
    return tuple(v for v in preferred if v in verb_ids) + tuple(
        v for v in verb_ids if v not in preferred
    )


# Which objects each object-valued target kind covers.
OBJECT_KINDS: dict[str, Callable[[ObjectDef], bool]] = {
    "object": lambda o: True,
    "craftable": lambda o: o.is_craftable,
    "equippable": lambda o: o.category in ("armor", "container"),
    "tradable": lambda o: o.value is not None and not o.is_instanced,
    "storable": lambda o: o.size is not None and not o.is_container,
    "writable": lambda o: o.is_writable and not o.is_prewritten,  # prewritten: no room left
}
# The slot table (`ObservationLayout`'s areas, objects, protos) each target kind draws from.
TABLE_OF_KIND = {"area": "areas", "npc": "protos", **dict.fromkeys(OBJECT_KINDS, "objects")}
SPARE_NOUN = {"areas": "area", "objects": "object", "protos": "npc"}


def targets(kind: str, definition: WorldDefinition) -> list[tuple[str, str]]:
    """(definition id, display name) of every target of a kind, in definition order."""
    if kind == "area":
        return [(a.id, a.name) for _, a in definition.iter_areas()]
    if kind == "npc":
        # A quest's copy of a world NPC (AgentOdyssey's quests bring a second `nurse_chen`) is
        # labelled by its id: a masked entry runs its label, which must not reach the other NPC.
        seen: set[str] = set()
        out = []
        for npc in definition.entities.npcs:
            out.append((npc.id, npc.id if npc.name in seen else npc.name))
            seen.add(npc.name)
        return out
    covers = OBJECT_KINDS.get(kind)
    if covers is None:
        return []
    return [(o.id, o.name) for o in definition.entities.objects if covers(o)]


def _unbound(verb: str, phrase: str, shape: CatalogueShape, table: str, k: int) -> Entry:
    """A spare entry before world expansion fills its slot (its label says so)."""
    return Entry(verb, None, label(phrase, shape, f"<spare {SPARE_NOUN[table]} {k + 1}>"))


def label(
    verb_phrase: str,
    shape: CatalogueShape,
    name: str | None,
    text: str = "",
    container: str = INVENTORY,
) -> str:
    """The canonical command of an entry, e.g. `store 1 rope inventory`, `write "rowan" leaf`."""
    positions = (shape.name, shape.amount, shape.container, shape.text)
    words = [""] * (1 + max((p for p in positions if p is not None), default=-1))
    if shape.amount is not None:
        words[shape.amount] = ONE
    if shape.container is not None:
        words[shape.container] = container
    if shape.text is not None:
        words[shape.text] = quote_param(text)
    if shape.name is not None and name is not None:
        words[shape.name] = name
    return " ".join([verb_phrase, *words])


class ActionCatalogue:
    """Index <-> entry for the verbs of a game, built once from the world definition.

    With `spare` > 0 every targeted verb also gets `spare` entries per slot table (areas, object
    kinds, NPC prototypes), unbound until `bind` gives them what world expansion added (spare
    object slot k is the same object kind for every object verb, and the observation layout's
    spare slot k too). An unbound entry, or one whose verb does not apply to the object bound to
    its slot (crafting something uncraftable), is never unmasked and executes as an invalid
    action."""

    def __init__(
        self,
        definition: WorldDefinition,
        rules: Mapping[str, BaseActionRule],
        spare: int = 0,
        texts: Sequence[str] = (PLAIN_TEXT,),
    ) -> None:
        order = in_order(tuple(rules), VERB_ORDER)
        entries: list[Entry] = []
        self.shapes: dict[str, CatalogueShape] = {}
        self.phrases: dict[str, str] = {}
        # Per table, per spare slot k: the entry indices waiting for slot k's target.
        self.spare: dict[str, list[list[int]]] = {t: [[] for _ in range(spare)] for t in SPARE_NOUN}
        for verb in order:
            shape = rules[verb].catalogue
            if shape is None:
                continue
            self.shapes[verb] = shape
            phrase = self.phrases[verb] = rules[verb].verb
            if shape.target == "none":
                entries.append(Entry(verb, None, label(phrase, shape, None)))
            elif shape.text is not None:  # per text and target; kinds expansion adds get none
                for text in texts:
                    for target, name in targets(shape.target, definition):
                        entries.append(
                            Entry(verb, (target, text), label(phrase, shape, name, text))
                        )
            else:
                for target, name in targets(shape.target, definition):
                    entries.append(Entry(verb, target, label(phrase, shape, name)))
                if shape.in_hand:  # kinds expansion adds get none
                    for target, name in targets(shape.target, definition):
                        written = label(phrase, shape, name, container=HELD_LABEL)
                        entries.append(Entry(verb, (target, IN_HAND), written))
                table = TABLE_OF_KIND.get(shape.target)
                if table is not None:
                    for k in range(spare):
                        self.spare[table][k].append(len(entries))
                        entries.append(_unbound(verb, phrase, shape, table, k))
            named = {name for _, name in targets(shape.target, definition)}
            for word in shape.words:  # a target of that name already has the entry
                if word not in named:
                    entries.append(Entry(verb, (word,), f"{phrase} {quote_param(word)}"))
        self.entries: list[Entry] = entries
        self._unbound_entries = tuple(entries)
        self.unbound: set[int] = {i for slots in self.spare.values() for k in slots for i in k}
        self.index: dict[tuple[str, Target], int] = {}
        self.verbs = tuple(self.shapes)
        # Per verb, target -> entry index: what the mask loop looks targets up in.
        self.slots: dict[str, dict[Target, int]] = {verb: {} for verb in self.verbs}
        for i, e in enumerate(self.entries):
            if i not in self.unbound:
                self._enter(i, e)

    def _enter(self, i: int, entry: Entry) -> None:
        self.index[(entry.verb, entry.target)] = i
        self.slots[entry.verb][entry.target] = i

    def bind(self, world: World, table: str, k: int, target: str) -> None:
        """Give spare slot `k` of `table` ("areas", "objects", "protos") to a target the world
        gained; each waiting entry whose verb applies to it becomes its canonical command."""
        if table == "objects":
            obj = world.objects[target]
            name = obj.name
        else:
            name = world.areas[target].name if table == "areas" else world.npc_protos[target].name
        for i in self.spare[table][k]:
            entry = self.entries[i]
            shape = self.shapes[entry.verb]
            covers = OBJECT_KINDS.get(shape.target)
            if covers is not None and not covers(obj):
                continue
            bound = Entry(entry.verb, target, label(self.phrases[entry.verb], shape, name))
            self.entries[i] = bound
            self.unbound.discard(i)
            self._enter(i, bound)

    def unbind(self) -> None:
        """Every spare entry back to unbound (a new world)."""
        for i in range(len(self.entries)):
            entry = self.entries[i]
            if entry is not self._unbound_entries[i]:  # a bound spare entry
                del self.index[(entry.verb, entry.target)]
                del self.slots[entry.verb][entry.target]
                self.entries[i] = self._unbound_entries[i]
                self.unbound.add(i)

    def __len__(self) -> int:
        return len(self.entries)
