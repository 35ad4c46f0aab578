"""Quest data: the main quest as chapters of stages, declared in JSON and run by one generic engine.

Layer: world core. A world folder's `quests.json` (or a `quests` key in the world definition)
holds `main_quest`, `side_quests` and `tutorial` sections, each read by its own module
(`main_quest_data.py`, `side_quest_data.py`, `tutorial_data.py`; the records are in
`quest_records.py`). Loading validates everything with JSON paths, like the world loader, and
`inject` adds the NPCs and objects a quest needs to the definition before synthesis.

Values in conditions and effects that start with `$` name a quest variable: set up once per episode
by `setup` (areas picked from the map, NPCs placed, literal words), or built in: `$guide` (the
agent's guide NPC) and `$spawn` (the spawn area). Objective texts may use `{name}` for any variable.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Iterable
from typing import Any

import attrs

from agentodyssey_pz.errors import Problem, Problems, QuestDataError
from agentodyssey_pz.world.main_quest_data import load_main_quest
from agentodyssey_pz.world.quest_records import CarryingText, Condition, MainQuestDef, SetupStep
from agentodyssey_pz.world.schema import WorldDefinition, definition_to_dict


@attrs.frozen
class QuestFile:
    """The quest data of a world: any of the three sections may be absent (None)."""

    main_quest: MainQuestDef | None = None
    side_quests: Any = None
    tutorial: Any = None

    def sections(self) -> list[Any]:
        return [s for s in (self.main_quest, self.side_quests, self.tutorial) if s is not None]


LOG = logging.getLogger("agentodyssey_pz.world")
SECTION_NAMES = ("main_quest", "side_quests", "tutorial")
# What a writable gets written with in the discrete catalogue when no quest asks for a text (the
# tutorial's writing step takes any text).
PLAIN_TEXT = "mark"


# id(quest file) -> (a weak reference to it, its texts): masks ask on every step.
_TEXTS: dict[int, tuple[weakref.ref, tuple[str, ...]]] = {}


def texts_to_write(quests: QuestFile) -> tuple[str, ...]:
    """The texts a world's quests ask agents to write (the `text` and `carrying_text` of their
    conditions and the texts boss modifiers look for, a quest variable resolved when its `value`
    is fixed in the data), in order of first mention; never
    empty (`PLAIN_TEXT` when none). Discrete agents get a `write` entry per text and writable.
    Computed once per quest file."""
    key = id(quests)
    cached = _TEXTS.get(key)
    if cached is not None and cached[0]() is quests:
        return cached[1]
    texts = _texts_to_write(quests)
    _TEXTS[key] = (weakref.ref(quests, lambda _, key=key: _TEXTS.pop(key, None)), texts)
    return texts


def _texts_to_write(quests: QuestFile) -> tuple[str, ...]:
    records = list(_records(quests.sections()))
    fixed = {
        f"${r.let}": r.value
        for r in records
        if isinstance(r, SetupStep) and isinstance(r.value, str)
    }
    found: dict[str, None] = {}
    for record in records:
        if isinstance(record, Condition):
            texts = [record.params.get("text"), record.params.get("carrying_text")]
        else:
            texts = [record.text] if isinstance(record, CarryingText) else []
        for text in texts:
            if isinstance(text, str):
                text = fixed.get(text, text)
                if not text.startswith("$"):  # a variable set at random each episode: no entry
                    found[text] = None
    return tuple(found) or (PLAIN_TEXT,)


def _records(items: Iterable[Any]) -> Iterable[Any]:
    """Every attrs record inside the quest data, depth first."""
    for item in items:
        if attrs.has(type(item)):
            yield item
            yield from _records(getattr(item, f.name) for f in attrs.fields(type(item)))
        elif isinstance(item, (tuple, list)):
            yield from _records(item)
        elif isinstance(item, dict):
            yield from _records(item.values())


def _section_loaders() -> dict[str, Any]:
    from agentodyssey_pz.world import side_quest_data, tutorial_data

    return {
        "main_quest": load_main_quest,
        "side_quests": side_quest_data.load_section,
        "tutorial": tutorial_data.load_section,
    }


def load_quests(
    raw: Any, definition: WorldDefinition, *, source: str | None = None, root: str = "$"
) -> QuestFile:
    """Validate quest data against the world it belongs to; raises QuestDataError listing every
    problem with its JSON path. `source` is the file holding the data (a world folder's
    quests.json, or the world file for inline data, whose paths start at `root`, `$.quests`)."""
    problems = Problems()
    if not isinstance(raw, dict):
        problems.error(root, "quest data must be a JSON object")
        problems.raise_if_errors(QuestDataError, source)
    for key in raw:
        if key not in SECTION_NAMES:
            expected = ", ".join(SECTION_NAMES)
            problems.error(f"{root}.{key}", f"unknown section (expected {expected})")
    loaders = _section_loaders()
    loaded = {
        name: loaders[name](raw[name], definition, f"{root}.{name}", problems)
        for name in SECTION_NAMES
        if name in raw
    }
    problems.raise_if_errors(QuestDataError, source)
    return QuestFile(**loaded)


# Custom event that switches each section on.
SECTION_EVENTS = {"main_quest": "main_quest", "side_quests": "side_quest", "tutorial": "tutorial"}


def world_source(definition: WorldDefinition) -> str:
    """The file a definition was read from, for messages (or a description when it has none)."""
    return definition.source or "the world definition"


def _event_path(definition: WorldDefinition, section: str) -> str:
    """Where the world turns a section on: its custom event's entry ($ when only configured)."""
    event = SECTION_EVENTS[section]
    events = definition.custom_events
    return f"$.custom_events[{events.index(event)}]" if event in events else "$"


def default_section(name: str, definition: WorldDefinition) -> Any:
    """The project's default data for a section (used when a world enables it without data).

    The default data is checked against the world: its problems are the world's (it lacks what
    the section needs), so they are reported in the world's file, at the custom event that turned
    the section on, naming the default section and what it needed where. The default tutorial
    never refuses a world: where it cannot be played (the world lacks a role that has no
    stand-in, docs/world-format.md#113-tutorial), it is switched off with a warning saying why
    (None)."""
    from agentodyssey_pz.resources import default_quest_file
    from agentodyssey_pz.world.validate import read_json

    path = default_quest_file(name)
    raw = read_json(path, QuestDataError)
    problems = Problems()
    section = _section_loaders()[name](raw, definition, "$", problems)
    if problems.errors:
        event, where = SECTION_EVENTS[name], _event_path(definition, name)
        turned_on = f"'{event}'" if where != "$" else f"the game's setting {event}=True"
        if name == "tutorial":
            needs = "; ".join(f"{p.path}: {p.message}" for p in problems.errors)
            LOG.warning(
                "%s: %s: %s uses the default tutorial section (%s), which this world cannot "
                "play, so the tutorial is switched off: %s",
                world_source(definition), where, turned_on, path, needs,
            )  # fmt: skip
            return None
        raise QuestDataError(
            [
                Problem(
                    where,
                    f"{turned_on} uses the default {name} section ({path}), whose {p.path} needs "
                    f"what this world lacks: {p.message}",
                )
                for p in problems.errors
            ],
            world_source(definition),
        )
    return section


def quests_of_world(
    definition: WorldDefinition,
    raw: Any,
    enabled: Iterable[str],
    *,
    source: str | None = None,
    root: str = "$",
) -> tuple[QuestFile, WorldDefinition]:
    """What a game runs with: the world's quest data (`raw`, from `source` at `root`; None: none)
    checked, every enabled section it lacks filled with the default, and the definition with the
    quests' NPCs and objects added. A section is None exactly when its rule set is off."""
    given = load_quests(raw, definition, source=source, root=root) if raw is not None else None
    quests = complete_quests(given, definition, enabled)
    return quests, inject(definition, quests)


def complete_quests(
    quests: QuestFile | None, definition: WorldDefinition, enabled: Iterable[str]
) -> QuestFile:
    """Fill every enabled section the world has no data for with the project's default."""
    quests = quests or QuestFile()
    enabled = set(enabled)
    filled = {}
    errors: list[Problem] = []
    for section, event in SECTION_EVENTS.items():
        current = getattr(quests, section)
        if event in enabled and current is None:
            try:
                current = default_section(section, definition)
            except QuestDataError as exc:  # every section's problems reported at once
                if exc.source != world_source(definition):
                    raise
                errors += exc.problems
        filled[section] = current if event in enabled else None
    if errors:
        raise QuestDataError(errors, world_source(definition))
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

    checked, problems = check_definition(definition_to_dict(combined), source=definition.source)
    if checked is None:
        # The world's own records passed their checks: these problems come from the quests'
        # records meeting the world's (a name taken twice ...). Paths past the world's own lists
        # are the quests' records, appended in order.
        added = {"objects": new_objects, "npcs": new_npcs}
        own = {"objects": len(definition.entities.objects), "npcs": len(definition.entities.npcs)}

        def rephrase(problem: Problem) -> Problem:
            found = _ENTITY_INDEX.match(problem.path)
            where = ""
            if found and int(found[2]) >= own[found[1]]:
                record = added[found[1]][int(found[2]) - own[found[1]]]
                where = f" (the quests' {found[1][:-1].replace('npc', 'NPC')} '{record.id}')"
            message = f"with the quests' NPCs and objects added{where}: {problem.message}"
            return Problem(problem.path, message)

        raise QuestDataError(
            [rephrase(p) for p in problems if p.severity == "error"], world_source(definition)
        )
    return checked


_ENTITY_INDEX = re.compile(r"^\$\.entities\.(objects|npcs)\[(\d+)\]")
