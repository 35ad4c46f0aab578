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

import json
from collections.abc import Iterable
from typing import Any

import attrs

from agentodyssey_pz.errors import Problems, QuestDataError
from agentodyssey_pz.world.main_quest_data import load_main_quest
from agentodyssey_pz.world.quest_records import MainQuestDef
from agentodyssey_pz.world.schema import WorldDefinition, definition_to_dict


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
