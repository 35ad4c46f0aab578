"""World-definition schema: frozen attrs records for the JSON format, and the cattrs converter.

Layer: world core. Every key of the format (docs/world-format.md) is a field
here; keys the format does not know are kept in each record's `extras` and written back on
unstructure, so a definition round-trips. A field whose absence means something different from any
value it could hold (an area's `light`, an NPC's `combat_pattern` ...) is `None` when absent and is
omitted again on output.

Structuring is strict (`strict_json.py`): a string is never coerced to a number, a number never to
a bool. Type errors are collected by cattrs' detailed validation; `validate.py` turns them into
path-tagged problems.
"""

from __future__ import annotations

from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from agentodyssey_pz.world.strict_json import (
    JSON_KEY,
    SchemaTypeError,
    json_keys,
    json_type_name,
    renamed_fields,
    strict_converter,
)

# Metadata flag: the field is written only when it is not None (absence is meaningful).
OMIT_IF_NONE = "omit_if_none"
# Metadata flag: the field is not part of the JSON format (neither read nor written).
NOT_JSON = "not_json"

COMBAT_ACTIONS = ("attack", "defend", "wait")
UNLOCK_USAGES = ("unlock", "lockpick")  # usages of the "unlock pool" that synthesis distributes
# The base engine's pattern for an enemy whose definition has no `combat_pattern` key.
DEFAULT_ENEMY_PATTERN = ("attack", "defend", "attack", "wait")

# NPC stat defaults by hostility (docs/mechanics/combat.md#npc-stats).
ENEMY_STAT_DEFAULTS = {
    "base_hp": 60,
    "slope_hp": 20,
    "base_attack_power": 15,
    "slope_attack_power": 15,
}
FRIEND_STAT_DEFAULTS = {
    "base_hp": 1000,
    "slope_hp": 50,
    "base_attack_power": 10,
    "slope_attack_power": 5,
}


def _absent() -> Any:
    return attrs.field(default=None, metadata={OMIT_IF_NONE: True})


def _extras() -> Any:
    return attrs.field(factory=dict, eq=True)


@attrs.frozen
class CraftRecipe:
    """`craft` block: ingredients used per unit (may be fractional) and stations needed nearby."""

    ingredients: dict[str, float] = attrs.field(factory=dict)
    dependencies: tuple[str, ...] = ()
    extras: dict[str, Any] = _extras()


@attrs.frozen
class ObjectDef:
    """One object definition (material, tool, weapon, armour, station, currency, container ...)."""

    id: str
    name: str
    category: str
    usage: str
    size: int | None  # the key is required; null means "cannot be stored in a container"
    type: str = "object"
    value: int | None = None
    description: str = ""
    text: str = ""
    attack: int = 0
    defense: int = 0
    level: int = 1
    quest: bool = False
    areas: tuple[str, ...] = ()
    craft: CraftRecipe = attrs.field(factory=CraftRecipe)
    capacity: int | None = _absent()
    inventory: dict[str, int] | None = _absent()
    max_text_length: int | None = _absent()
    places: tuple[str, ...] | None = _absent()  # legacy key: accepted, kept, never used
    # Reserved top-level keys: kept as fields, never extras, and never
    # read - only the nested `craft` block is.
    craft_ingredients: Any = _absent()
    craft_dependencies: Any = _absent()
    extras: dict[str, Any] = _extras()

    @property
    def is_container(self) -> bool:
        return self.category == "container"

    @property
    def is_writable(self) -> bool:
        return self.usage == "writable" and self.category != "container"

    @property
    def is_instanced(self) -> bool:
        """Containers and writables exist as individual instances (`<id>_<n>`), never as counts."""
        return self.category == "container" or self.usage == "writable"

    @property
    def is_station(self) -> bool:
        return self.category == "station"

    @property
    def is_currency(self) -> bool:
        return self.category == "currency"

    @property
    def is_craftable(self) -> bool:
        return bool(self.craft.ingredients)

    @property
    def is_prewritten(self) -> bool:
        """`obj_given_*` writables carry fixed text; their limit is the text's length."""
        return self.is_writable and self.id.startswith("obj_given_")

    @property
    def text_limit(self) -> int:
        if self.is_prewritten or self.max_text_length is None:
            return len(self.text)
        return self.max_text_length


@attrs.frozen
class NpcDef:
    """An NPC prototype in definition form (stats at level 1 plus per-level slopes)."""

    id: str
    name: str
    role: str
    type: str = "npc"
    enemy: bool = False
    unique: bool = True
    description: str = ""
    objects: tuple[str, ...] = ()
    base_hp: int | None = _absent()
    slope_hp: int | None = _absent()
    base_attack_power: int | None = _absent()
    slope_attack_power: int | None = _absent()
    combat_pattern: tuple[str, ...] | None = _absent()
    quest: bool = False
    dialogue: str = ""
    extras: dict[str, Any] = _extras()

    def _stat(self, key: str) -> int:
        given = getattr(self, key)
        if given is not None:
            return given
        return (ENEMY_STAT_DEFAULTS if self.enemy else FRIEND_STAT_DEFAULTS)[key]

    @property
    def hp_at_level_1(self) -> int:
        return self._stat("base_hp")

    @property
    def hp_per_level(self) -> int:
        return self._stat("slope_hp")

    @property
    def attack_at_level_1(self) -> int:
        return self._stat("base_attack_power")

    @property
    def attack_per_level(self) -> int:
        return self._stat("slope_attack_power")

    def hp_at(self, level: int) -> int:
        """Max HP of an instance at `level`: the level-1 value plus one slope per level above."""
        return self.hp_at_level_1 + self.hp_per_level * (level - 1)

    def attack_at(self, level: int) -> int:
        return self.attack_at_level_1 + self.attack_per_level * (level - 1)

    @property
    def pattern(self) -> tuple[str, ...]:
        """The rhythm pattern: as given; absent -> the default for enemies, none for others."""
        if self.combat_pattern is not None:
            return self.combat_pattern
        return DEFAULT_ENEMY_PATTERN if self.enemy else ()

    @property
    def loot(self) -> dict[str, int]:
        """`objects` as a multiset, in first-occurrence order."""
        counts: dict[str, int] = {}
        for oid in self.objects:
            counts[oid] = counts.get(oid, 0) + 1
        return counts


@attrs.frozen
class AreaDef:
    id: str
    name: str
    type: str = "area"
    level: int | None = _absent()  # required except for the spawn area (forced to 1)
    light: bool | None = _absent()  # absent -> drawn at synthesis (lit with probability 0.75)
    existing_objects: tuple[str, ...] | None = _absent()  # expansion specs only
    extras: dict[str, Any] = _extras()


@attrs.frozen
class PlaceDef:
    id: str
    name: str
    unlocked: bool
    type: str = "place"
    areas: tuple[AreaDef, ...] = ()
    extras: dict[str, Any] = _extras()


@attrs.frozen
class SpawnDef:
    area: str
    objects: dict[str, int] = attrs.field(factory=dict)
    npcs: dict[str, int] = attrs.field(factory=dict)
    extras: dict[str, Any] = _extras()


@attrs.frozen
class Initializations:
    spawn: SpawnDef | None = _absent()
    undistributable_objects: tuple[str, ...] = ()
    extras: dict[str, Any] = _extras()


# World-synthesis variants (`features.synthesis`, `variants.py`): the current generator,
# quarantine's (spawn area always lit), and the two older ones AgentOdyssey's games remnant and
# mark were generated with.
SYNTHESIS_VARIANTS = ("base", "quarantine", "remnant", "mark")


@attrs.frozen
class DarknessDef:
    """`features.darkness`: in an area whose `light` is false an agent sees only its
    surroundings' outline unless it holds one of `light_objects` in hand; or, with `agent_flags`,
    whoever a rule says is in the dark (docs/world-format.md#91-darkness)."""

    light_objects: tuple[str, ...] = ("obj_torch",)
    # A rule decides who is in the dark and keeps it under this key of `world.auxiliary` (agent id
    # -> bool): AgentOdyssey's quarantine, where lights burn fuel. `light_objects` is not read.
    agent_flags: str | None = _absent()
    # What an agent in the dark cannot see (`DARK_HIDES`): "everything" (what it holds and wears,
    # the ground, NPCs, other agents) or "surroundings" (the ground, NPCs and other agents).
    hides: str | None = _absent()  # absent: "everything"
    extras: dict[str, Any] = _extras()


DARK_HIDES = ("everything", "surroundings")


@attrs.frozen
class Features:
    online_expansion: bool = False
    expansion_model: str | None = _absent()
    show_crafting_recipes: bool = True
    # Ours, not the reference's: bundled rule packs (`rules/<name>/`) the world plays with, by
    # name (e.g. "lockpicking"); loaded after the base pack, before a world folder's own.
    rule_packs: tuple[str, ...] | None = _absent()
    # Ours: numbers of the loaded rules a world tunes, by rule name, then setting name (each rule
    # declares its settings and their defaults; docs/rule-packs.md#settings).
    rule_settings: dict[str, dict[str, Any]] | None = _absent()
    # Ours: which world-synthesis variant builds the world (`SYNTHESIS_VARIANTS`; absent: "base"):
    # AgentOdyssey's quarantine, remnant and mark were made with other generators
    # (docs/world-format.md#101-synthesis-variants).
    synthesis: str | None = _absent()
    # Ours: unlit areas hide what is around an agent unless it holds a light
    # (docs/world-format.md#9-features-and-custom-events).
    darkness: DarknessDef | None = _absent()
    # Ours: the word texts use for money ("saltmarks"); absent: the currency definition's name
    # (docs/world-format.md#9-features-and-custom-events).
    currency_name: str | None = _absent()
    extras: dict[str, Any] = _extras()


@attrs.frozen
class Connection:
    """One undirected edge of a predefined graph."""

    source: str = attrs.field(metadata={JSON_KEY: "from"})
    to: str
    locked: bool = False
    key: str | None = None
    extras: dict[str, Any] = _extras()


@attrs.frozen
class GraphDef:
    connections: tuple[Connection, ...] = ()
    extras: dict[str, Any] = _extras()


@attrs.frozen
class Entities:
    places: tuple[PlaceDef, ...] = ()
    objects: tuple[ObjectDef, ...] = ()
    npcs: tuple[NpcDef, ...] = ()
    extras: dict[str, Any] = _extras()


@attrs.frozen
class WorldDefinition:
    """A whole world definition. Loaded once, never mutated: game state lives apart from it."""

    entities: Entities
    initializations: Initializations
    custom_events: tuple[str, ...] = ()
    features: Features = attrs.field(factory=Features)
    graph: GraphDef | None = _absent()
    extras: dict[str, Any] = _extras()
    # Where the definition was read from (a file, a `procgen:` spec), for messages about it (quest
    # problems that come from this world): not a JSON key, not compared, never written out.
    source: str | None = attrs.field(
        default=None, eq=False, repr=False, kw_only=True, metadata={NOT_JSON: True}
    )

    @property
    def spawn_area(self) -> str | None:
        spawn = self.initializations.spawn
        return spawn.area if spawn else None

    def iter_areas(self) -> list[tuple[PlaceDef, AreaDef]]:
        return [(p, a) for p in self.entities.places for a in p.areas]


SCHEMA_CLASSES: tuple[type, ...] = (
    CraftRecipe,
    ObjectDef,
    NpcDef,
    AreaDef,
    PlaceDef,
    SpawnDef,
    Initializations,
    DarknessDef,
    Features,
    Connection,
    GraphDef,
    Entities,
    WorldDefinition,
)


def _record_hooks(converter: cattrs.Converter, cls: type) -> tuple[Any, Any]:
    renames: dict[str, Any] = renamed_fields(cls)
    not_json = [f.name for f in attrs.fields(cls) if f.metadata.get(NOT_JSON)]
    renames.update({name: override(omit=True) for name in ["extras", *not_json]})
    keys = {k: v for k, v in json_keys(cls).items() if k not in not_json}
    known = set(keys.values())
    omit = {keys[f.name] for f in attrs.fields(cls) if f.metadata.get(OMIT_IF_NONE)}
    base_structure = make_dict_structure_fn(cls, converter, **renames)
    base_unstructure = make_dict_unstructure_fn(cls, converter, **renames)

    def structure(value: Any, _: type) -> Any:
        if not isinstance(value, dict):
            raise SchemaTypeError(f"expected an object, got {json_type_name(value)}")
        record = base_structure({k: v for k, v in value.items() if k in known}, cls)
        extras = {k: v for k, v in value.items() if k not in known}
        return attrs.evolve(record, extras=extras) if extras else record

    def unstructure(record: Any) -> dict[str, Any]:
        out = {k: v for k, v in base_unstructure(record).items() if not (k in omit and v is None)}
        for key, value in record.extras.items():
            out.setdefault(key, value)  # an extra never overrides a real field
        return out

    return structure, unstructure


def make_converter() -> cattrs.Converter:
    """The strict converter for the schema classes (stateless; one per process is enough)."""
    converter = strict_converter()
    for cls in SCHEMA_CLASSES:
        structure, unstructure = _record_hooks(converter, cls)
        converter.register_structure_hook(cls, structure)
        converter.register_unstructure_hook(cls, unstructure)
    return converter


CONVERTER = make_converter()


def definition_to_dict(definition: WorldDefinition) -> dict[str, Any]:
    """The definition as plain JSON-compatible data (the inverse of structuring)."""
    return CONVERTER.unstructure(definition)
