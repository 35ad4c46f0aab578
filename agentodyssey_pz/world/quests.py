"""Quest data: the main quest as chapters of stages, declared in JSON and run by one generic engine.

Layer: world core. A world folder's `quests.json` (or a `quests` key in the world definition)
holds a `main_quest` section; `side_quests` and `tutorial` sections are read by their own modules
(`side_quest_data.py`, `tutorial_data.py`). Loading validates everything with JSON paths, like
the world loader, and `inject` adds the NPCs and objects a quest needs to the definition before
synthesis.

Values in conditions and effects that start with `$` name a quest variable: set up once per episode
by `setup` (areas picked from the map, NPCs placed, literal words), or built in: `$guide` (the
agent's guide NPC) and `$spawn` (the spawn area). Objective texts may use `{name}` for any variable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import attrs
from cattrs.gen import make_dict_structure_fn

from agentodyssey_pz.errors import Problems, QuestDataError
from agentodyssey_pz.world.schema import (
    CONVERTER,
    NpcDef,
    ObjectDef,
    SchemaTypeError,
    WorldDefinition,
    definition_to_dict,
    renamed_fields,
    strict_converter,
)

VARIABLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
BUILTIN_VARIABLES = ("guide", "spawn", "currency")

# Condition kinds (spec step-rules 8.5) -> (required parameters, optional parameters).
CONDITION_KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(req.split()), frozenset(opt.split()))
    for kind, req, opt in (
        ("any_of", "conditions", ""),
        ("all_of", "conditions", ""),
        ("not", "conditions", ""),
        ("event", "type", "npc objects category area payload"),
        ("in_area", "area", ""),
        ("in_area_with_npc", "npc", ""),
        ("visited_k_of_area_set", "areas", "k"),
        ("paper_text_equals_in_area", "text", "area"),
        ("paper_with_text_in_area", "text area", ""),
        ("paper_text_equals_in_hands", "text", ""),
        ("writable_text_equals_in_inventory", "text", ""),
        ("boss_already_defeated", "boss", ""),
        ("has_any_of", "objects", ""),
        ("holding", "objects", ""),
        ("equipped_any_of", "objects", ""),
        ("has_category", "category", ""),
        ("has_item_count", "object", "count"),
        ("killed_n_enemies", "n", ""),
        ("killed_one_of_each", "npcs", ""),
        ("stamped_areas_in_order", "areas", "object"),
        ("stage_completed", "stage", ""),
    )
}
SETUP_SOURCES = ("value", "area", "areas", "pick_area", "pick_areas", "farthest_of", "place_npc")


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
    area: str | None = None
    areas: tuple[str, ...] | None = None
    pick_area: bool | None = None  # true: one area, picked nearest-first like pick_areas
    pick_areas: int | None = None
    farthest_of: str | None = None
    place_npc: str | None = None
    in_: str | None = attrs.field(default=None, metadata={"json_key": "in"})
    stock: dict[str, int] = attrs.field(factory=dict)
    min_coins: int = 0


@attrs.frozen
class BossModifier:
    """While the boss's owner stands with it holding `when_held` (and none of `unless_held`)."""

    when_held: tuple[str, ...] = ()
    unless_held: tuple[str, ...] = ()
    max_hp: int | None = None
    attack: int | None = None


@attrs.frozen
class BossDef:
    """A boss each agent fights on its own: one instance per agent, spawned by `spawn_boss`."""

    npc: str
    in_: str = attrs.field(metadata={"json_key": "in"})
    hp: int | None = None
    attack: int | None = None
    modifiers: tuple[BossModifier, ...] = ()


@attrs.frozen
class Effect:
    """Something a stage does when it starts or completes (exactly one field is set)."""

    spawn_boss: str | None = None
    give: dict[str, int] | None = None
    restock: dict[str, int] | None = None
    npc: str | None = None  # the NPC `restock` applies to


@attrs.frozen
class GuideDef:
    """The per-agent guide: each agent gets its own instance of `npc`, named from `names`."""

    npc: str
    names: tuple[str, ...]
    greeting: str = ""


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
            raise SchemaTypeError(f"expected an object, got {type(raw).__name__}")
        if "kind" not in raw:
            raise KeyError("kind")
        kind = converter.structure(raw["kind"], str)
        nested = ()
        if "conditions" in raw:
            nested = converter.structure(raw["conditions"], tuple[Condition, ...])
        params = {k: v for k, v in raw.items() if k not in ("kind", "conditions")}
        return Condition(kind, params, nested)

    return structure


def make_quest_converter() -> Any:
    """Strict converter for quest records: unknown keys are errors (typos in quest files are
    common and would otherwise silently disable a condition)."""
    converter = strict_converter(forbid_extra_keys=True)
    for cls in QUEST_RECORDS:
        converter.register_structure_hook(
            cls,
            make_dict_structure_fn(
                cls, converter, _cattrs_forbid_extra_keys=True, **renamed_fields(cls)
            ),
        )
    converter.register_structure_hook(Condition, _condition_hook(converter))
    converter.register_structure_hook(NpcDef, lambda raw, _: CONVERTER.structure(raw, NpcDef))
    converter.register_structure_hook(ObjectDef, lambda raw, _: CONVERTER.structure(raw, ObjectDef))
    return converter


QUEST_CONVERTER = make_quest_converter()


# ---------------------------------------------------------------------------- loading
@attrs.frozen
class QuestFile:
    """The quest data of a world: any of the three sections may be absent (None)."""

    main_quest: MainQuestDef | None = None
    side_quests: Any = None
    tutorial: Any = None

    def sections(self) -> list[Any]:
        return [s for s in (self.main_quest, self.side_quests, self.tutorial) if s is not None]


SECTION_NAMES = ("main_quest", "side_quests", "tutorial")


def _section_loaders() -> dict[str, Any]:
    from agentodyssey_pz.world import side_quest_data, tutorial_data

    return {
        "main_quest": load_main_quest,
        "side_quests": side_quest_data.load_section,
        "tutorial": tutorial_data.load_section,
    }


def load_quests(raw: Any, definition: WorldDefinition, *, source: str | None = None) -> QuestFile:
    """Validate quest data against the world it belongs to; raises QuestDataError listing every
    problem with its JSON path."""
    problems = Problems()
    if not isinstance(raw, dict):
        problems.error("$", "quest data must be a JSON object")
        problems.raise_if_errors(QuestDataError, source)
    for key in raw:
        if key not in SECTION_NAMES:
            problems.error(f"$.{key}", f"unknown section (expected {', '.join(SECTION_NAMES)})")
    loaders = _section_loaders()
    loaded = {
        name: loaders[name](raw[name], definition, f"$.{name}", problems)
        for name in SECTION_NAMES
        if name in raw
    }
    problems.raise_if_errors(QuestDataError, source)
    return QuestFile(**loaded)


def default_section(name: str, definition: WorldDefinition) -> Any:
    """The project's default data for a section (used when a world enables it without data)."""
    from agentodyssey_pz.resources import default_quest_file

    path = default_quest_file(name)
    problems = Problems()
    with open(path, encoding="utf-8") as fh:
        raw = json.load(fh)
    section = _section_loaders()[name](raw, definition, "$", problems)
    problems.raise_if_errors(QuestDataError, str(path))
    return section


def complete_quests(
    quests: QuestFile | None, definition: WorldDefinition, enabled: Iterable[str]
) -> QuestFile:
    """Fill every enabled section the world has no data for with the project's default."""
    quests = quests or QuestFile()
    wanted = {"main_quest": "main_quest", "side_quest": "side_quests", "tutorial": "tutorial"}
    filled = {}
    for event, section in wanted.items():
        current = getattr(quests, section)
        if event in enabled and current is None:
            current = default_section(section, definition)
        filled[section] = current if event in enabled else None
    return QuestFile(**filled)


def inject(definition: WorldDefinition, quests: QuestFile) -> WorldDefinition:
    """The definition plus the NPCs and objects the quests need (ids already defined are kept as
    the world defines them) and their undistributable objects. Checked again as a whole."""
    objects = {o.id for o in definition.entities.objects}
    npcs = {n.id for n in definition.entities.npcs}
    new_objects, new_npcs = [], []
    undistributable = list(definition.initializations.undistributable_objects)
    for section in quests.sections():
        new_objects += [o for o in section.objects if o.id not in objects]
        objects |= {o.id for o in section.objects}
        new_npcs += [attrs.evolve(n, quest=True) for n in section.npcs if n.id not in npcs]
        npcs |= {n.id for n in section.npcs}
        undistributable += [u for u in section.undistributable if u not in undistributable]
    if not (new_objects or new_npcs) and len(undistributable) == len(
        definition.initializations.undistributable_objects
    ):
        return definition
    entities = attrs.evolve(
        definition.entities,
        objects=definition.entities.objects + tuple(new_objects),
        npcs=definition.entities.npcs + tuple(new_npcs),
    )
    init = attrs.evolve(definition.initializations, undistributable_objects=tuple(undistributable))
    combined = attrs.evolve(definition, entities=entities, initializations=init)
    from agentodyssey_pz.world.validate import check_definition

    checked, problems = check_definition(definition_to_dict(combined))
    if checked is None:
        errors = [p for p in problems if p.severity == "error"]
        raise QuestDataError(errors, "the world with its quest entities added")
    return checked


# ---------------------------------------------------------------------------- the main quest
@attrs.define
class _QuestScope:
    """What names a quest section may use, for checking references."""

    objects: set[str]
    npcs: set[str]
    areas: set[str]
    variables: dict[str, str]  # name -> kind: area, areas, npc, value
    bosses: set[str] = attrs.Factory(set)
    stages: set[str] = attrs.Factory(set)


def load_main_quest(
    raw: Any, definition: WorldDefinition, path: str, problems: Problems
) -> MainQuestDef | None:
    from agentodyssey_pz.world.validate import structure_record

    quest = structure_record(raw, MainQuestDef, path, problems, QUEST_CONVERTER)
    if quest is None:
        return None
    scope = _QuestScope(
        objects={o.id for o in definition.entities.objects} | {o.id for o in quest.objects},
        npcs={n.id for n in definition.entities.npcs} | {n.id for n in quest.npcs},
        areas={a.id for _, a in definition.iter_areas()},
        variables={"guide": "npc", "spawn": "area", "currency": "object"},
        bosses=set(quest.bosses),
        stages={s.id for c in quest.chapters for s in c.stages},
    )
    _check_guide(quest.guide, scope, f"{path}.guide", problems)
    _check_setup(quest.setup, scope, f"{path}.setup", problems)
    _check_bosses(quest.bosses, scope, f"{path}.bosses", problems)
    for i, oid in enumerate(quest.undistributable):
        if oid not in scope.objects:
            problems.error(f"{path}.undistributable[{i}]", f"unknown object '{oid}'")
    _check_text(quest.intro, scope, f"{path}.intro", problems)
    _check_chapters(quest.chapters, scope, f"{path}.chapters", problems)
    return quest


def _check_guide(guide: GuideDef, scope: _QuestScope, path: str, problems: Problems) -> None:
    if guide.npc not in scope.npcs:
        problems.error(f"{path}.npc", f"unknown NPC '{guide.npc}'")
    if not guide.names:
        problems.error(f"{path}.names", "a guide needs at least one name")
    for i, name in enumerate(guide.names):
        if not name or any(ch.isspace() for ch in name):
            problems.error(f"{path}.names[{i}]", f"guide name '{name}' must be one word")
    if len(set(guide.names)) != len(guide.names):
        problems.error(f"{path}.names", "guide names must be distinct")


def _check_setup(
    setup: tuple[SetupStep, ...], scope: _QuestScope, path: str, problems: Problems
) -> None:
    for i, step in enumerate(setup):
        where = f"{path}[{i}]"
        sources = [s for s in SETUP_SOURCES if getattr(step, s) is not None]
        if len(sources) != 1:
            problems.error(where, f"'{step.let}' needs exactly one of {', '.join(SETUP_SOURCES)}")
            continue
        if step.let in scope.variables:
            problems.error(f"{where}.let", f"variable '{step.let}' is defined twice")
        kind = {
            "value": "value",
            "area": "area",
            "areas": "areas",
            "pick_area": "area",
            "pick_areas": "areas",
            "farthest_of": "area",
            "place_npc": "npc",
        }[sources[0]]
        if step.area is not None and step.area not in scope.areas:
            problems.error(f"{where}.area", f"unknown area '{step.area}'")
        for j, area in enumerate(step.areas or ()):
            if area not in scope.areas:
                problems.error(f"{where}.areas[{j}]", f"unknown area '{area}'")
        if step.pick_areas is not None and step.pick_areas < 1:
            problems.error(f"{where}.pick_areas", "must be at least 1")
        if step.farthest_of is not None:
            _check_ref(step.farthest_of, ("areas",), scope, f"{where}.farthest_of", problems)
        if step.place_npc is not None:
            if step.place_npc not in scope.npcs:
                problems.error(f"{where}.place_npc", f"unknown NPC '{step.place_npc}'")
            if step.in_ is None:
                problems.error(f"{where}.in", "place_npc needs 'in' (an area)")
            else:
                _check_area_ref(step.in_, scope, f"{where}.in", problems)
        for oid in step.stock:
            if oid not in scope.objects:
                problems.error(f"{where}.stock.{oid}", f"unknown object '{oid}'")
        scope.variables[step.let] = kind


def _check_bosses(
    bosses: dict[str, BossDef], scope: _QuestScope, path: str, problems: Problems
) -> None:
    for key, boss in bosses.items():
        where = f"{path}.{key}"
        if boss.npc not in scope.npcs:
            problems.error(f"{where}.npc", f"unknown NPC '{boss.npc}'")
        _check_area_ref(boss.in_, scope, f"{where}.in", problems)
        for i, mod in enumerate(boss.modifiers):
            for field in ("when_held", "unless_held"):
                for j, oid in enumerate(getattr(mod, field)):
                    if oid not in scope.objects:
                        problems.error(
                            f"{where}.modifiers[{i}].{field}[{j}]", f"unknown object '{oid}'"
                        )


def _check_ref(
    value: Any, kinds: tuple[str, ...], scope: _QuestScope, path: str, problems: Problems
) -> bool:
    """A `$variable` of one of `kinds`; returns False (after reporting) when it is not one."""
    if not (isinstance(value, str) and value.startswith("$")):
        return False
    name = value[1:]
    kind = scope.variables.get(name)
    if kind is None:
        problems.error(path, f"unknown variable '{value}' (define it in setup)")
    elif kind not in kinds:
        problems.error(
            path,
            f"'{value}' is {kind_phrase(kind)}, expected {' or '.join(map(kind_phrase, kinds))}",
        )
    return True


def kind_phrase(kind: str) -> str:
    return {
        "area": "an area",
        "areas": "a list of areas",
        "npc": "an NPC",
        "value": "a value",
        "object": "an object",
    }[kind]


def _check_area_ref(value: Any, scope: _QuestScope, path: str, problems: Problems) -> None:
    if not _check_ref(value, ("area",), scope, path, problems) and value not in scope.areas:
        problems.error(path, f"unknown area {value!r}")


def _check_text(text: str, scope: _QuestScope, path: str, problems: Problems) -> None:
    for name in VARIABLE.findall(text):
        if name not in scope.variables:
            problems.error(path, f"unknown variable '{{{name}}}' in text")


def _check_chapters(
    chapters: tuple[ChapterDef, ...], scope: _QuestScope, path: str, problems: Problems
) -> None:
    if not chapters:
        problems.error(path, "a quest needs at least one chapter")
        return
    seen: dict[str, str] = {}
    for c, chapter in enumerate(chapters):
        cpath = f"{path}[{c}]"
        _check_text(chapter.intro, scope, f"{cpath}.intro", problems)
        if not chapter.stages:
            problems.error(f"{cpath}.stages", f"chapter '{chapter.id}' has no stages")
        ids = {s.id for s in chapter.stages}
        for s, stage in enumerate(chapter.stages):
            spath = f"{cpath}.stages[{s}]"
            if stage.id in seen:
                problems.error(
                    f"{spath}.id", f"duplicate stage id '{stage.id}' (first at {seen[stage.id]})"
                )
            seen.setdefault(stage.id, spath)
            for field in ("objective", "hint", "complete_text"):
                _check_text(getattr(stage, field), scope, f"{spath}.{field}", problems)
            for i, req in enumerate(stage.requires or ()):
                if req not in ids:
                    problems.error(
                        f"{spath}.requires[{i}]", f"'{req}' is not a stage of this chapter"
                    )
            for field in ("done_all", "done_any"):
                for i, cond in enumerate(getattr(stage, field) or ()):
                    check_condition(cond, scope, f"{spath}.{field}[{i}]", problems)
            for field in ("on_start", "on_complete"):
                for i, effect in enumerate(getattr(stage, field)):
                    _check_effect(effect, scope, f"{spath}.{field}[{i}]", problems)
    if not any(s.quest_complete for s in chapters[-1].stages):
        problems.error(
            f"{path}[{len(chapters) - 1}]", "no stage of the last chapter has quest_complete"
        )


def _check_effect(effect: Effect, scope: _QuestScope, path: str, problems: Problems) -> None:
    chosen = [f for f in ("spawn_boss", "give", "restock") if getattr(effect, f) is not None]
    if len(chosen) != 1:
        problems.error(path, "an effect needs exactly one of spawn_boss, give, restock")
        return
    if effect.spawn_boss is not None and effect.spawn_boss not in scope.bosses:
        problems.error(f"{path}.spawn_boss", f"unknown boss '{effect.spawn_boss}'")
    for field in ("give", "restock"):
        for oid, count in (getattr(effect, field) or {}).items():
            if oid not in scope.objects and oid != "$currency":
                problems.error(f"{path}.{field}.{oid}", f"unknown object '{oid}'")
            if count <= 0:
                problems.error(f"{path}.{field}.{oid}", f"count must be positive, got {count}")
    if effect.restock is not None:
        _check_npc_ref(effect.npc, scope, f"{path}.npc", problems)


def _check_npc_ref(value: Any, scope: _QuestScope, path: str, problems: Problems) -> None:
    if not _check_ref(value, ("npc",), scope, path, problems):
        problems.error(path, f"expected a variable naming an NPC (e.g. '$merchant'), got {value!r}")


def _is_int_ref(value: Any, scope: _QuestScope, path: str, problems: Problems) -> None:
    if not _check_ref(value, ("value",), scope, path, problems) and (
        type(value) is not int or value < 0
    ):
        problems.error(path, f"expected a whole number >= 0 or a $variable, got {value!r}")


def _check_param(name: str, value: Any, scope: _QuestScope, path: str, problems: Problems) -> None:
    """Check one condition parameter by its name (each name has one meaning in every kind)."""
    if name == "area":
        _check_area_ref(value, scope, path, problems)
    elif name == "areas":
        if not _check_ref(value, ("areas",), scope, path, problems):
            if not isinstance(value, list) or not value:
                problems.error(path, "expected a $variable or a list of areas")
            else:
                for i, area in enumerate(value):
                    _check_area_ref(area, scope, f"{path}[{i}]", problems)
    elif name == "npc":
        _check_npc_ref(value, scope, path, problems)
    elif name == "npcs":
        if not isinstance(value, list) or not value:
            problems.error(path, "expected a list of $variables naming NPCs")
        else:
            for i, npc in enumerate(value):
                _check_npc_ref(npc, scope, f"{path}[{i}]", problems)
    elif name in ("objects", "object"):
        ids = value if name == "objects" else [value]
        if not isinstance(ids, list) or not ids:
            problems.error(path, "expected a non-empty list of object ids")
        for oid in ids if isinstance(ids, list) else ():
            if oid not in scope.objects:
                problems.error(path, f"unknown object {oid!r}")
    elif name == "text":
        if not _check_ref(value, ("value",), scope, path, problems) and not isinstance(value, str):
            problems.error(path, f"expected text or a $variable, got {value!r}")
    elif name in ("k", "n", "count"):
        _is_int_ref(value, scope, path, problems)
    elif name == "payload":
        if not isinstance(value, dict):
            problems.error(path, "expected an object of event payload keys and values")
    elif name == "stage":
        if value not in scope.stages:
            problems.error(path, f"unknown stage {value!r}")
    elif name == "boss":
        if value not in scope.bosses:
            problems.error(path, f"unknown boss {value!r}")
    elif not isinstance(value, str) or not value:  # type, category
        problems.error(path, f"expected a non-empty string, got {value!r}")


def check_condition(cond: Condition, scope: _QuestScope, path: str, problems: Problems) -> None:
    spec = CONDITION_KINDS.get(cond.kind)
    if spec is None:
        problems.error(f"{path}.kind", f"unknown condition kind '{cond.kind}'")
        return
    required, optional = spec
    present = set(cond.params) | ({"conditions"} if cond.conditions else set())
    for missing in sorted(required - present):
        problems.error(f"{path}.{missing}", f"'{cond.kind}' needs '{missing}'")
    for extra in sorted(present - required - optional):
        problems.error(f"{path}.{extra}", f"'{cond.kind}' has no parameter '{extra}'")
    for name, value in cond.params.items():
        if name in required | optional:
            _check_param(name, value, scope, f"{path}.{name}", problems)
    for i, nested in enumerate(cond.conditions):
        check_condition(nested, scope, f"{path}.conditions[{i}]", problems)
