"""Quest data records: conditions, setup steps, bosses, effects, guides, stages, chapters and the
main quest, and the strict cattrs converter that reads them from JSON.

Layer: world core. Loading and checking live in `quests.py` (the file and its sections),
`main_quest_data.py`, `side_quest_data.py` and `tutorial_data.py`; `quest_checks.py` checks the
references conditions make.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

import attrs
from cattrs.gen import make_dict_structure_fn

from agentodyssey_pz.world.schema import (
    CONVERTER,
    NpcDef,
    ObjectDef,
)
from agentodyssey_pz.world.strict_json import (
    SchemaTypeError,
    json_type_name,
    renamed_fields,
    strict_converter,
)

VARIABLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
BUILTIN_VARIABLES = ("guide", "spawn", "currency")


@functools.lru_cache(maxsize=1024)  # a world's quest texts: a few hundred at most
def template_parts(text: str) -> tuple[str, ...]:
    """A quest text split at its `{name}` placeholders: literal, name, literal, ..., literal (the
    names at odd positions)."""
    return tuple(VARIABLE.split(text))


def fill_placeholders(text: str, value_of: Callable[[str, str], str]) -> str:
    """The text with each `{name}` replaced by `value_of(name, "{name}")`, as `VARIABLE.sub`
    would, from a split worked out once per text: quest rules fill their guides' texts every
    tick."""
    parts = template_parts(text)
    if len(parts) == 1:
        return text
    filled = list(parts)
    for i in range(1, len(parts), 2):
        filled[i] = value_of(parts[i], "{" + parts[i] + "}")
    return "".join(filled)


# Condition kinds (docs/mechanics/quests.md#stages-and-conditions, and the kinds AgentOdyssey's
# published games need) -> (required parameters, optional parameters).
# docs/world-format.md#111-main-quest documents each one.
CONDITION_KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(req.split()), frozenset(opt.split()))
    for kind, req, opt in (
        ("any_of", "conditions", ""),
        ("all_of", "conditions", ""),
        ("not", "conditions", ""),
        ("event", "type", "npc objects category area payload"),
        ("in_area", "area", ""),
        ("in_area_with_npc", "npc", ""),
        ("visited_k_of_area_set", "areas", "k history include_current"),
        ("paper_text_equals_in_area", "text", "area match object"),
        ("paper_with_text_in_area", "text area", "match object"),
        ("paper_text_equals_in_hands", "text", "match object where"),
        ("writable_text_equals_in_inventory", "text", "match object where"),
        ("boss_already_defeated", "boss", ""),
        ("has_any_of", "objects", ""),
        ("holding", "objects", ""),
        ("equipped_any_of", "objects", ""),
        ("equipped_min_level", "category min_level", ""),
        ("has_category", "category", "where"),
        ("has_item_count", "object", "count"),
        ("killed_n_enemies", "n", ""),
        ("killed_one_of_each", "npcs", ""),
        ("killed_matching", "n", "enemy_only dark_area min_area_level roles"),
        ("killed_each_role", "roles", "enemy_only"),
        ("lit_dark_areas", "k", "light_object"),
        ("talked_to", "npc", "area carrying_text carrying_where"),
        ("bought_from", "npc", "objects"),
        ("npc_dead", "npc", ""),
        ("npc_coins_at_least", "npc coins", ""),
        ("object_on_ground", "objects area", ""),
        ("area_clear", "area", ""),
        ("stamped_areas_in_order", "areas", "object"),
        ("stage_completed", "stage", ""),
    )
}
# Kinds whose `area` may also be a variable holding a list of areas (any of them will do).
AREA_LIST_KINDS = frozenset({"object_on_ground", "area_clear"})
# Kinds whose `objects` may also name `$variables` holding object ids.
OBJECT_VARIABLE_KINDS = frozenset({"object_on_ground"})

# Where a condition looks for what an agent carries (`where`, `carrying_where`): the parts of its
# reach each scope searches. `carried` is everything: hands, equipped items, the equipped
# inventory's contents and the contents of containers held in hand.
WHERE_SCOPES: dict[str, tuple[str, ...]] = {
    "hands": ("hands",),
    "hands+equipped": ("hands", "equipped"),
    "hands+inventory": ("hands", "inventory"),
    "hands+inventory+held": ("hands", "inventory", "held"),
    "hands+equipped+inventory": ("hands", "equipped", "inventory"),
    "carried": ("hands", "equipped", "inventory", "held"),
}
TEXT_MATCHES = ("equals", "contains")
VISIT_HISTORIES = ("quest", "episode")
LIGHT_OBJECT = "obj_torch"  # `lit_dark_areas` without `light_object`
TALK_CARRYING_WHERE = "hands+inventory"  # `talked_to`'s `carrying_text` without `carrying_where`

SETUP_SOURCES = (
    "value",
    "area",
    "areas",
    "pick_area",
    "pick_areas",
    "farthest_of",
    "place_npc",
    "place_object",
)
PICK_KEEPS = ("all", "first")
BOSS_RESETS = ("max", "stage_start", "never")
MODIFIER_PLACES = ("with_boss", "boss_home")
NAME_ORDERS = ("listed", "shuffled")


@attrs.frozen
class Condition:
    """One completion condition: its kind, its parameters, and nested conditions (any_of/all_of)."""

    kind: str
    params: dict[str, Any] = attrs.field(factory=dict)
    conditions: tuple[Condition, ...] = ()


@attrs.frozen
class SetupStep:
    """Defines one quest variable, once per episode (exactly one source field is set)."""

    let: str
    value: Any = None
    area: str | None = None  # an area id, or `$variable` of an area (the same area again)
    areas: tuple[str, ...] | None = None
    pick_area: bool | None = None  # true: one area, picked nearest-first like pick_areas
    pick_areas: int | None = None
    farthest_of: str | None = None
    place_npc: str | None = None
    place_object: str | None = None  # an object definition: one unit on the ground of `in`
    in_: str | None = attrs.field(default=None, metadata={"json_key": "in"})
    stock: dict[str, int] = attrs.field(factory=dict)
    min_coins: int = 0
    # place_npc: a unique NPC the world already placed elsewhere stays where it stands.
    stay_put: bool = False
    keep: str | None = None  # pick_areas: "all" (the list, default) or "first" (one area)
    unless_anywhere_on_ground: bool = False  # place_object: not if a unit lies on any ground


@attrs.frozen
class CarryingText:
    """A text some writable the agent carries bears (`match`: "equals" or "contains")."""

    text: str
    match: str = "equals"


@attrs.frozen
class BossModifier:
    """While an agent stands where `where` says holding `when_held` (and none of `unless_held`)
    and carrying `when_carrying_text`: the boss's stats change."""

    when_held: tuple[str, ...] = ()
    unless_held: tuple[str, ...] = ()
    when_carrying_text: CarryingText | None = None
    where: str = "with_boss"  # or "boss_home": in the boss's lair, the boss anywhere
    max_hp: int | None = None
    attack: int | None = None
    attack_cap: int | None = None
    once: bool = False  # applied once, then kept for good


@attrs.frozen
class BossDef:
    """A boss spawned by `spawn_boss`: one instance per agent, or one for all (`shared`)."""

    npc: str
    in_: str = attrs.field(metadata={"json_key": "in"})
    hp: int | None = None
    attack: int | None = None
    modifiers: tuple[BossModifier, ...] = ()
    shared: bool = False
    reset_hp_on_defeat: str = "max"  # after beating an agent: "max", "stage_start" or "never"
    # A `$variable` of a setup `place_npc` step: the (shared) boss is that NPC from the start.
    placed: str | None = None


@attrs.frozen
class Effect:
    """Something a stage does when it starts or completes (exactly one field is set)."""

    spawn_boss: str | None = None
    give: dict[str, int] | None = None
    restock: dict[str, int] | None = None
    npc: str | None = None  # the NPC `restock` applies to
    unless_on_ground: bool = False  # give: only what no unit of lies on the agent's ground yet
    unless_possessed: bool = False  # give: only what the agent possesses no unit of yet


@attrs.frozen
class GuideDef:
    """The per-agent guide: each agent gets its own instance of `npc`, named from `names`."""

    npc: str
    names: tuple[str, ...]
    greeting: str = ""
    remind_every: int | None = None  # ticks at a stage between the guide's reminders
    name_order: str = "listed"  # or "shuffled": by a generator of the episode seed's own


@attrs.frozen
class StageDef:
    id: str
    objective: str
    hint: str = ""
    done_all: tuple[Condition, ...] | None = None
    done_any: tuple[Condition, ...] | None = None
    requires: tuple[str, ...] | None = None  # present -> the chapter runs as a goal graph
    on_start: tuple[Effect, ...] = ()
    on_complete: tuple[Effect, ...] = ()
    complete_text: str = ""
    chapter_complete: bool = False
    quest_complete: bool = False

    @property
    def has_conditions(self) -> bool:
        return self.done_all is not None or bool(self.done_any)


@attrs.frozen
class ChapterDef:
    id: str
    title: str
    stages: tuple[StageDef, ...]
    intro: str = ""
    root_goal: str | None = None

    @property
    def is_goal_graph(self) -> bool:
        return any(s.requires is not None for s in self.stages)


@attrs.frozen
class MainQuestDef:
    title: str
    guide: GuideDef
    chapters: tuple[ChapterDef, ...]
    intro: str = ""
    completion_text: str = ""
    setup: tuple[SetupStep, ...] = ()
    bosses: dict[str, BossDef] = attrs.field(factory=dict)
    npcs: tuple[NpcDef, ...] = ()
    objects: tuple[ObjectDef, ...] = ()
    undistributable: tuple[str, ...] = ()


QUEST_RECORDS = (
    SetupStep,
    CarryingText,
    BossModifier,
    BossDef,
    Effect,
    GuideDef,
    StageDef,
    ChapterDef,
    MainQuestDef,
)


def _condition_hook(converter: Any) -> Any:
    def structure(raw: Any, _: type) -> Condition:
        if not isinstance(raw, dict):
            raise SchemaTypeError(f"expected an object, got {json_type_name(raw)}")
        if "kind" not in raw:
            raise KeyError("kind")
        kind = converter.structure(raw["kind"], str)
        nested = ()
        if "conditions" in raw:
            nested = converter.structure(raw["conditions"], tuple[Condition, ...])
        params = {k: v for k, v in raw.items() if k not in ("kind", "conditions")}
        return Condition(kind, params, nested)

    return structure


def forbid_unknown_keys(converter: Any, classes: Iterable[type]) -> None:
    """Structure each record class strictly: anything but a JSON object is a type error, and an
    unknown key is an error, not silently dropped."""
    for cls in classes:
        converter.register_structure_hook(cls, _strict_record_hook(converter, cls))


def _strict_record_hook(converter: Any, cls: type) -> Any:
    generated = make_dict_structure_fn(
        cls, converter, _cattrs_forbid_extra_keys=True, **renamed_fields(cls)
    )

    def structure(raw: Any, tp: type) -> Any:
        if not isinstance(raw, dict):
            raise SchemaTypeError(f"expected an object, got {json_type_name(raw)}")
        return generated(raw, tp)

    return structure


def make_quest_converter() -> Any:
    """Strict converter for quest records: unknown keys are errors (typos in quest files are
    common and would otherwise silently disable a condition)."""
    converter = strict_converter(forbid_extra_keys=True)
    forbid_unknown_keys(converter, QUEST_RECORDS)
    converter.register_structure_hook(Condition, _condition_hook(converter))
    converter.register_structure_hook(NpcDef, lambda raw, _: CONVERTER.structure(raw, NpcDef))
    converter.register_structure_hook(ObjectDef, lambda raw, _: CONVERTER.structure(raw, ObjectDef))
    return converter


QUEST_CONVERTER = make_quest_converter()
