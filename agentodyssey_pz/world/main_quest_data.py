"""The main quest section: structured from JSON and checked against the world it belongs to.

Layer: world core. The quest itself runs in the main-quest step rule (rules/base/steps).
"""

from __future__ import annotations

from typing import Any

import attrs

from agentodyssey_pz.errors import Problems
from agentodyssey_pz.world.quest_checks import (
    ANY_KIND,
    QuestScope,
    check_area_ref,
    check_choice,
    check_condition,
    check_npc_ref,
    check_ref,
    check_text,
)
from agentodyssey_pz.world.quest_records import (
    BOSS_RESETS,
    MODIFIER_PLACES,
    NAME_ORDERS,
    PICK_KEEPS,
    QUEST_CONVERTER,
    SETUP_SOURCES,
    TEXT_MATCHES,
    BossDef,
    BossModifier,
    ChapterDef,
    Effect,
    GuideDef,
    MainQuestDef,
    SetupStep,
    StageDef,
)
from agentodyssey_pz.world.schema import WorldDefinition


def load_main_quest(
    raw: Any, definition: WorldDefinition, path: str, problems: Problems
) -> MainQuestDef | None:
    """Structure the section and check its references; None (with problems) when malformed.

    A shape error does not stop the reference checks: they still run over every part that has the
    right shape on its own (`QuestParts.salvage`), so one pass reports both kinds of mistake."""
    from agentodyssey_pz.world.validate import structure_record

    quest = structure_record(raw, MainQuestDef, path, problems, QUEST_CONVERTER)
    parts = QuestParts.of(quest) if quest is not None else QuestParts.salvage(raw)
    if parts is not None:
        _check_parts(parts, definition, path, problems)
    return quest


@attrs.define
class QuestParts:
    """The parts of a main quest that the reference checks read.

    Names declared in a malformed part (a quest object's id, a boss key, a stage id, a setup
    step's `let`) still count as declared, so one shape error does not cascade into "unknown"
    errors wherever the name is used."""

    objects: set[str]  # ids of the quest's own objects
    npcs: set[str]  # ids of the quest's own NPCs
    bosses: dict[str, BossDef | None]  # None: malformed
    stages: set[str]  # every stage id of every chapter
    guide: GuideDef | None
    setup: list[tuple[int, SetupStep | str]]  # (index, step); a str is a malformed step's `let`
    undistributable: tuple[str, ...]
    intro: str
    chapters: list[tuple[int, ChapterPart]]  # (index, chapter)
    all_chapters: bool  # every chapter is here, whole: the checks across chapters apply

    @classmethod
    def of(cls, quest: MainQuestDef) -> QuestParts:
        return cls(
            objects={o.id for o in quest.objects},
            npcs={n.id for n in quest.npcs},
            bosses=dict(quest.bosses),
            stages={s.id for c in quest.chapters for s in c.stages},
            guide=quest.guide,
            setup=list(enumerate(quest.setup)),
            undistributable=quest.undistributable,
            intro=quest.intro,
            chapters=[(i, ChapterPart.of(c)) for i, c in enumerate(quest.chapters)],
            all_chapters=True,
        )

    @classmethod
    def salvage(cls, raw: Any) -> QuestParts | None:
        """After a shape error (already reported): each part that structures on its own."""
        from agentodyssey_pz.world.validate import declared_ids

        if not isinstance(raw, dict):
            return None
        setup: list[tuple[int, SetupStep | str]] = []
        for i, item in enumerate(_list(raw.get("setup"))):
            step = _quietly(item, SetupStep)
            if step is not None:
                setup.append((i, step))
            elif isinstance(item, dict) and isinstance(item.get("let"), str):
                setup.append((i, item["let"]))
        bosses = raw.get("bosses") if isinstance(raw.get("bosses"), dict) else {}
        raw_chapters = _list(raw.get("chapters"))
        chapters = [(i, ChapterPart.salvage(c)) for i, c in enumerate(raw_chapters)]
        good = [(i, c) for i, c in chapters if c is not None]
        return cls(
            objects=declared_ids(raw.get("objects")),
            npcs=declared_ids(raw.get("npcs")),
            bosses={str(key): _quietly(boss, BossDef) for key, boss in bosses.items()},
            stages={
                sid
                for chapter in raw_chapters
                if isinstance(chapter, dict)
                for sid in declared_ids(chapter.get("stages"))
            },
            guide=_quietly(raw.get("guide"), GuideDef),
            setup=setup,
            undistributable=_quietly(raw.get("undistributable", []), tuple[str, ...]) or (),
            intro=raw.get("intro") if isinstance(raw.get("intro"), str) else "",
            chapters=good,
            all_chapters=isinstance(raw.get("chapters"), list)
            and len(good) == len(chapters)
            and all(c.all_stages for _, c in good),
        )


@attrs.define
class ChapterPart:
    """The parts of one chapter the reference checks read: its intro and each stage with the
    right shape, under its index in the chapter's list. Stage ids declared in a malformed stage
    still count (a `requires` naming it is no error)."""

    id: str
    intro: str
    stages: list[tuple[int, StageDef]]  # (index, stage)
    stage_ids: set[str]
    all_stages: bool  # no stage was left out: "has no stages" and quest_complete can be judged

    @classmethod
    def of(cls, chapter: ChapterDef) -> ChapterPart:
        return cls(
            id=chapter.id,
            intro=chapter.intro,
            stages=list(enumerate(chapter.stages)),
            stage_ids={s.id for s in chapter.stages},
            all_stages=True,
        )

    @classmethod
    def salvage(cls, raw: Any) -> ChapterPart | None:
        """A chapter whose own fields have their shape, with those of its stages that have
        theirs; None when the chapter's own fields are malformed (already reported)."""
        from agentodyssey_pz.world.validate import declared_ids

        chapter = _quietly(raw, ChapterDef)
        if chapter is not None:
            return cls.of(chapter)
        if not isinstance(raw, dict):
            return None
        bare = _quietly({**raw, "stages": []}, ChapterDef)
        if bare is None:
            return None
        raw_stages = _list(raw.get("stages"))
        stages = [(i, _quietly(item, StageDef)) for i, item in enumerate(raw_stages)]
        good = [(i, stage) for i, stage in stages if stage is not None]
        return cls(
            id=bare.id,
            intro=bare.intro,
            stages=good,
            stage_ids=declared_ids(raw_stages),
            all_stages=isinstance(raw.get("stages"), list) and len(good) == len(stages),
        )


def _quietly(raw: Any, cls: Any) -> Any:
    """`raw` structured as `cls`, or None if it has the wrong shape (reported elsewhere)."""
    from agentodyssey_pz.world.validate import structure_or

    return structure_or(raw, cls, QUEST_CONVERTER)


def _list(raw: Any) -> list[Any]:
    return raw if isinstance(raw, list) else []


def _check_parts(
    parts: QuestParts, definition: WorldDefinition, path: str, problems: Problems
) -> None:
    scope = QuestScope(
        objects={o.id for o in definition.entities.objects} | parts.objects,
        npcs={n.id for n in definition.entities.npcs} | parts.npcs,
        areas={a.id for _, a in definition.iter_areas()},
        variables={"guide": "npc", "spawn": "area", "currency": "object"},
        bosses=set(parts.bosses),
        stages=parts.stages,
    )
    if parts.guide is not None:
        _check_guide(parts.guide, scope, f"{path}.guide", problems)
    _check_setup(parts.setup, scope, f"{path}.setup", problems)
    _check_bosses(parts.bosses, scope, f"{path}.bosses", problems)
    for i, oid in enumerate(parts.undistributable):
        if oid not in scope.objects:
            problems.error(f"{path}.undistributable[{i}]", f"unknown object '{oid}'")
    check_text(parts.intro, scope, f"{path}.intro", problems)
    _check_chapters(parts.chapters, parts.all_chapters, scope, f"{path}.chapters", problems)


def _check_guide(guide: GuideDef, scope: QuestScope, path: str, problems: Problems) -> None:
    if guide.npc not in scope.npcs:
        problems.error(f"{path}.npc", f"unknown NPC '{guide.npc}'")
    if not guide.names:
        problems.error(f"{path}.names", "a guide needs at least one name")
    for i, name in enumerate(guide.names):
        if not name or any(ch.isspace() for ch in name):
            problems.error(f"{path}.names[{i}]", f"guide name '{name}' must be one word")
    if len(set(guide.names)) != len(guide.names):
        problems.error(f"{path}.names", "guide names must be distinct")
    if guide.remind_every is not None and guide.remind_every < 1:
        problems.error(f"{path}.remind_every", "must be at least 1")
    check_choice(guide.name_order, NAME_ORDERS, f"{path}.name_order", problems)


# The variable kind each setup source defines.
SOURCE_KINDS = {
    "value": "value",
    "area": "area",
    "areas": "areas",
    "pick_area": "area",
    "pick_areas": "areas",
    "farthest_of": "area",
    "place_npc": "npc",
    "place_object": "object",
}
# Fields that go with one source only: (field, its default, the sources it goes with).
SOURCE_FIELDS = (
    ("in_", None, ("place_npc", "place_object")),
    ("stock", {}, ("place_npc",)),
    ("min_coins", 0, ("place_npc",)),
    ("stay_put", False, ("place_npc",)),
    ("keep", None, ("pick_areas",)),
    ("unless_anywhere_on_ground", False, ("place_object",)),
)


def _check_setup(
    setup: list[tuple[int, SetupStep | str]], scope: QuestScope, path: str, problems: Problems
) -> None:
    for i, step in setup:
        where = f"{path}[{i}]"
        if isinstance(step, str):  # a malformed step: its variable may be used as any kind
            scope.variables.setdefault(step, ANY_KIND)
            continue
        sources = [s for s in SETUP_SOURCES if getattr(step, s) is not None]
        if len(sources) != 1:
            problems.error(where, f"'{step.let}' needs exactly one of {', '.join(SETUP_SOURCES)}")
            continue
        if step.let in scope.variables:
            problems.error(f"{where}.let", f"variable '{step.let}' is defined twice")
        source = sources[0]
        kind = SOURCE_KINDS[source]
        for field, default, owners in SOURCE_FIELDS:
            if source not in owners and getattr(step, field) != default:
                key = field.rstrip("_")
                problems.error(f"{where}.{key}", f"'{key}' goes with {' or '.join(owners)}")
        if step.area is not None:  # an area, or a second name for an earlier area variable
            check_area_ref(step.area, scope, f"{where}.area", problems)
        for j, area in enumerate(step.areas or ()):
            if area not in scope.areas:
                problems.error(f"{where}.areas[{j}]", f"unknown area '{area}'")
        if step.pick_areas is not None:
            if step.pick_areas < 1:
                problems.error(f"{where}.pick_areas", "must be at least 1")
            if step.keep is not None:
                check_choice(step.keep, PICK_KEEPS, f"{where}.keep", problems)
            if step.keep == "first":
                kind = "area"
        if step.farthest_of is not None:
            check_ref(step.farthest_of, ("areas",), scope, f"{where}.farthest_of", problems)
        if step.place_npc is not None and step.place_npc not in scope.npcs:
            problems.error(f"{where}.place_npc", f"unknown NPC '{step.place_npc}'")
        if step.place_object is not None and step.place_object not in scope.objects:
            problems.error(f"{where}.place_object", f"unknown object '{step.place_object}'")
        if source in ("place_npc", "place_object"):
            if step.in_ is None:
                problems.error(f"{where}.in", f"{source} needs 'in' (an area)")
            else:
                check_area_ref(step.in_, scope, f"{where}.in", problems)
        for oid in step.stock:
            if oid not in scope.objects:
                problems.error(f"{where}.stock.{oid}", f"unknown object '{oid}'")
        scope.variables[step.let] = kind
        if source == "value":
            scope.values[step.let] = step.value


def _check_bosses(
    bosses: dict[str, BossDef | None], scope: QuestScope, path: str, problems: Problems
) -> None:
    for key, boss in bosses.items():
        if boss is None:  # malformed (reported): its key still names a boss
            continue
        where = f"{path}.{key}"
        if boss.npc not in scope.npcs:
            problems.error(f"{where}.npc", f"unknown NPC '{boss.npc}'")
        check_area_ref(boss.in_, scope, f"{where}.in", problems)
        if boss.placed is not None:
            check_npc_ref(boss.placed, scope, f"{where}.placed", problems)
            if not boss.shared:
                problems.error(f"{where}.placed", "a placed boss is everyone's: set 'shared'")
        check_choice(boss.reset_hp_on_defeat, BOSS_RESETS, f"{where}.reset_hp_on_defeat", problems)
        for stat in ("hp", "attack"):
            if getattr(boss, stat) is not None and getattr(boss, stat) < 1:
                problems.error(f"{where}.{stat}", "must be at least 1")
        for i, mod in enumerate(boss.modifiers):
            _check_modifier(mod, scope, f"{where}.modifiers[{i}]", problems)


def _check_modifier(mod: BossModifier, scope: QuestScope, path: str, problems: Problems) -> None:
    for field in ("when_held", "unless_held"):
        for j, oid in enumerate(getattr(mod, field)):
            if oid not in scope.objects:
                problems.error(f"{path}.{field}[{j}]", f"unknown object '{oid}'")
    check_choice(mod.where, MODIFIER_PLACES, f"{path}.where", problems)
    carrying = mod.when_carrying_text
    if carrying is not None:
        text = carrying.text
        if text.startswith("$"):
            check_ref(text, ("value",), scope, f"{path}.when_carrying_text.text", problems)
        check_choice(carrying.match, TEXT_MATCHES, f"{path}.when_carrying_text.match", problems)
    for stat in ("max_hp", "attack", "attack_cap"):
        if getattr(mod, stat) is not None and getattr(mod, stat) < 0:
            problems.error(f"{path}.{stat}", "must be at least 0")
    if mod.max_hp is None and mod.attack is None and mod.attack_cap is None:
        problems.error(path, "a modifier needs at least one of max_hp, attack, attack_cap")


def _check_chapters(
    chapters: list[tuple[int, ChapterPart]],
    all_chapters: bool,
    scope: QuestScope,
    path: str,
    problems: Problems,
) -> None:
    """Each chapter's references; with `all_chapters`, also what needs every chapter (at least
    one, and a quest-completing stage in the last)."""
    if not chapters:
        if all_chapters:
            problems.error(path, "a quest needs at least one chapter")
        return
    seen: dict[str, str] = {}
    for c, chapter in chapters:
        cpath = f"{path}[{c}]"
        check_text(chapter.intro, scope, f"{cpath}.intro", problems)
        if chapter.all_stages and not chapter.stages:
            problems.error(f"{cpath}.stages", f"chapter '{chapter.id}' has no stages")
        ids = chapter.stage_ids
        for s, stage in chapter.stages:
            spath = f"{cpath}.stages[{s}]"
            if stage.id in seen:
                problems.error(
                    f"{spath}.id", f"duplicate stage id '{stage.id}' (first at {seen[stage.id]})"
                )
            seen.setdefault(stage.id, spath)
            for field in ("objective", "hint", "complete_text"):
                check_text(getattr(stage, field), scope, f"{spath}.{field}", problems)
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
    last, chapter = chapters[-1]
    if all_chapters and not any(s.quest_complete for _, s in chapter.stages):
        problems.error(f"{path}[{last}]", "no stage of the last chapter has quest_complete")


EFFECT_KINDS = ("spawn_boss", "give", "restock")


def _check_effect(effect: Effect, scope: QuestScope, path: str, problems: Problems) -> None:
    chosen = [f for f in EFFECT_KINDS if getattr(effect, f) is not None]
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
        check_npc_ref(effect.npc, scope, f"{path}.npc", problems)
    elif effect.npc is not None:
        problems.error(f"{path}.npc", "'npc' goes with restock")
    for flag in ("unless_on_ground", "unless_possessed"):
        if getattr(effect, flag) and effect.give is None:
            problems.error(f"{path}.{flag}", f"'{flag}' goes with give")
