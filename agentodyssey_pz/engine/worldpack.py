"""World packs: a world given as a JSON file, a folder, or a bundled world's name.

Layer: engine. A world folder holds `world.json` and optionally `quests.json` (quest data) and a
`rules/` rule pack (extra verbs, step rules, an init rule run once after reset). Code is only ever
loaded from a folder the user named (directly or by naming the world).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import (
    ConfigError,
    DataError,
    Problem,
    QuestDataError,
    WorldDefinitionError,
)
from agentodyssey_pz.resources import WORLD_FILE, bundled_pack_names, resolve_world_file, rules_dir
from agentodyssey_pz.world.published.games import game_of_world_file
from agentodyssey_pz.world.quests import SECTION_EVENTS, load_quests, quests_of_world
from agentodyssey_pz.world.schema import Entities, Initializations, WorldDefinition
from agentodyssey_pz.world.validate import check_definition, parse_definition, read_json

LOG = logging.getLogger("agentodyssey_pz.world")
QUEST_FILE = "quests.json"
RULES_FOLDER = "rules"


@attrs.frozen
class WorldPack:
    """Everything a world brings: its definition, quest data and rule pack folders."""

    definition: WorldDefinition
    name: str
    source: str | None = None
    quest_data: Any = None  # raw JSON of quests.json (validated by the quest engine)
    rule_packs: tuple[str, ...] = ()
    # The file holding `quest_data` (quests.json, or the world file when the data is inline under
    # `quests`) and the JSON path of the data in it, for messages about it.
    quest_source: str | None = None
    quest_root: str = "$"


PROCGEN_PREFIX = "procgen:"


def procedural_spec(spec: str) -> tuple[str, int]:
    """(preset, seed) of `procgen:<preset>[:<seed>]`; ConfigError naming the form otherwise."""
    from agentodyssey_pz.world.procgen import PRESETS

    parts = spec[len(PROCGEN_PREFIX) :].split(":")
    preset = parts[0]
    if preset not in PRESETS or len(parts) > 2:
        raise ConfigError(
            f"world: {spec!r} is not 'procgen:<preset>[:<seed>]' with a preset among "
            f"{', '.join(PRESETS)}"
        )
    if len(parts) > 1 and not (parts[1].isascii() and parts[1].isdigit()):
        raise ConfigError(
            f"world: {spec!r}: the seed after the preset must be a non-negative whole number"
        )
    return preset, int(parts[1]) if len(parts) > 1 else 0


def procedural_pack(spec: str) -> WorldPack:
    """`procgen:<preset>` or `procgen:<preset>:<seed>` (seed 0 by default)."""
    from agentodyssey_pz.world.procgen import generate_definition
    from agentodyssey_pz.world.validate import parse_definition

    preset, seed = procedural_spec(spec)
    definition = parse_definition(generate_definition(preset, seed), source=spec)
    return WorldPack(
        definition, name=f"{preset}-{seed}", source=spec, rule_packs=bundled_packs(definition)
    )


PUBLISHED_PREFIX = "agentodyssey:"


def published_pack(spec: str) -> WorldPack:
    """`agentodyssey:<game>`: one of AgentOdyssey's published games, read from the user's copy
    (`world.published`) with its quest data and the bundled rule packs that play its mechanics.
    ConfigError for an unknown game; PublishedGameError (one line) without a copy."""
    from agentodyssey_pz.world.published.pack import published_game

    name = spec[len(PUBLISHED_PREFIX) :]
    try:
        game = published_game(name)
    except KeyError as exc:
        raise ConfigError(f"world: {spec!r}: {exc.args[0]}") from None
    for note in game.notes:
        LOG.info("%s: %s", spec, note)
    # Problems of AgentOdyssey's own data that still load are shown by `validate`, not logged at
    # every load: the user cannot fix the copy, and the import already handled them.
    definition, problems = check_definition(game.definition, source=spec)
    if definition is None:
        raise WorldDefinitionError([p for p in problems if p.severity == "error"], spec)
    load_quests(game.quest_data, definition, source=f"{spec} (quest data)")
    return WorldPack(
        definition,
        name=name,
        source=spec,
        quest_data=game.quest_data,
        rule_packs=bundled_packs(definition),
        quest_source=f"{spec} (quest data)",
    )


def bundled_packs(definition: WorldDefinition) -> tuple[str, ...]:
    """The folders of the bundled rule packs the world names in `features.rule_packs`. Checked
    again here, as a definition may not have come through the loader (built in code, or read
    from a snapshot): only a bundled pack's name ever becomes a folder to load code from."""
    names = definition.features.rule_packs or ()
    known = bundled_pack_names()
    for name in names:
        if name not in known:
            raise ConfigError(
                f"world: features.rule_packs names {name!r}, which is not a bundled rule pack "
                f"(bundled: {', '.join(known) or 'none'})"
            )
    return tuple(str(rules_dir() / name) for name in names)


def world_file(world: str | os.PathLike[str]) -> Path:
    """The definition file of a world argument (`resources.resolve_world_file`); an existing
    folder without a world.json is named as such."""
    from agentodyssey_pz.world.procgen import PRESETS

    try:
        return resolve_world_file(world)
    except FileNotFoundError as exc:
        folder = Path(os.fspath(world))
        if folder.is_dir():
            raise FileNotFoundError(
                f"no {WORLD_FILE} in {folder} (a world folder holds {WORLD_FILE}, and optionally "
                f"{QUEST_FILE} and {RULES_FOLDER}/)"
            ) from None
        if world in PRESETS:  # the name of a procedural preset (and of an env preset)
            raise FileNotFoundError(
                f"{exc}; the procedural world of that name is '{PROCGEN_PREFIX}{world}'"
            ) from None
        raise FileNotFoundError(
            f"{exc}, or a procedural world: {PROCGEN_PREFIX}<{'|'.join(PRESETS)}>[:<seed>]"
        ) from None


def _quest_data(file: Path, definition: WorldDefinition) -> tuple[Any, str | None, str]:
    """A world's quest data: (raw data or None, the file holding it, its JSON path there)."""
    if file.name == WORLD_FILE and (file.parent / QUEST_FILE).is_file():
        quests = file.parent / QUEST_FILE
        return read_json(quests, QuestDataError), str(quests), "$"
    if "quests" in definition.extras:
        return definition.extras["quests"], str(file), "$.quests"
    return None, None, "$"


def read_world_file(file: Path) -> tuple[Any, list[Problem]]:
    """A world file's raw data, and warnings about changes made to it on loading: AgentOdyssey's
    own world files (recognised by their content) are taken as its engine takes them, ids that
    nothing defines handled (docs/agentodyssey-games.md) and their synthesis variant chosen, with
    a warning for each change, so they load instead of being refused."""
    raw = read_json(file)
    spec = game_of_world_file(file)
    if spec is None or not isinstance(raw, dict):
        return raw, []
    from agentodyssey_pz.world.published.definition import fix_undefined_ids

    notes = [Problem("$", message, "warning") for message in fix_undefined_ids(raw)]
    if spec.synthesis != "base":
        raw.setdefault("features", {})["synthesis"] = spec.synthesis
        notes.append(
            Problem(
                "$.features.synthesis",
                f"this is AgentOdyssey's '{spec.name}' world, synthesised with its own variant "
                f"('{spec.synthesis}')",
                "warning",
            )
        )
    notes.append(
        Problem(
            "$",
            f"this is AgentOdyssey's '{spec.name}' world file: world='{PUBLISHED_PREFIX}"
            f"{spec.name}' plays it with its own quests and mechanics",
            "warning",
        )
    )
    return raw, notes


def load_world_pack(world: str | os.PathLike[str] | WorldDefinition | WorldPack) -> WorldPack:
    if isinstance(world, WorldPack):
        return world
    if isinstance(world, WorldDefinition):
        return WorldPack(world, name="custom", rule_packs=bundled_packs(world))
    if isinstance(world, str) and world.startswith(PROCGEN_PREFIX):
        return procedural_pack(world)
    if isinstance(world, str) and world.startswith(PUBLISHED_PREFIX):
        return published_pack(world)
    file = world_file(world)
    folder = file.parent if file.name == WORLD_FILE else None
    raw, notes = read_world_file(file)
    for note in notes:
        LOG.warning("%s: %s", file, note)
    definition = parse_definition(raw, source=str(file))
    rule_packs = bundled_packs(definition)
    if folder is not None and (folder / RULES_FOLDER).is_dir():
        rule_packs += (str(folder / RULES_FOLDER),)
    quest_data, quest_source, quest_root = _quest_data(file, definition)
    if quest_data is not None:
        # Checked here, where the file holding the data is known, so its problems name that file
        # (the game checks the data again, against the same definition, when it starts).
        load_quests(quest_data, definition, source=quest_source, root=quest_root)
    name = folder.name if folder is not None else Path(file).stem
    return WorldPack(
        definition,
        name=name,
        source=str(file),
        quest_data=quest_data,
        rule_packs=rule_packs,
        quest_source=quest_source,
        quest_root=quest_root,
    )


@attrs.frozen
class WorldCheck:
    """What `check_world` found: the world's file, its definition (None when the world cannot be
    loaded) and every problem, each with the file that holds it."""

    file: Path
    definition: WorldDefinition | None
    problems: tuple[tuple[str, Problem], ...]

    @property
    def errors(self) -> list[tuple[str, Problem]]:
        return [(source, p) for source, p in self.problems if p.severity == "error"]


def check_world(world: str | os.PathLike[str]) -> WorldCheck:
    """Check a world as loading it for play does: its definition, its quest data, and the default
    quest sections its custom events pull in, combined with it (`Game`: load_quests,
    complete_quests, inject). Nothing is raised for problems in the data: all are returned."""
    found: list[tuple[str, Problem]] = []

    def collect(exc: DataError, default_source: str) -> None:
        found.extend((exc.source or default_source, p) for p in exc.problems)

    if isinstance(world, str) and world.startswith(PROCGEN_PREFIX):
        from agentodyssey_pz.world.procgen import generate_definition

        file, raw = Path(world), generate_definition(*procedural_spec(world))
    elif isinstance(world, str) and world.startswith(PUBLISHED_PREFIX):
        return _check_published(world)
    else:
        file = world_file(world)
        try:
            raw, notes = read_world_file(file)
        except DataError as exc:
            collect(exc, str(file))
            return WorldCheck(file, None, tuple(found))
        found += [(str(file), p) for p in notes]
    definition, problems = check_definition(raw, source=str(file))
    found += [(str(file), p) for p in problems]
    own = definition or WorldDefinition(Entities(), Initializations())  # to find quests.json
    try:
        quest_data, quest_source, quest_root = _quest_data(file, own)
        if definition is None:
            return WorldCheck(file, None, tuple(found))
        enabled = [event for event in SECTION_EVENTS.values() if event in definition.custom_events]
        quests_of_world(definition, quest_data, enabled, source=quest_source, root=quest_root)
    except DataError as exc:  # quests.json unreadable, or quest problems
        collect(exc, str(file))
    ok = definition is not None and not any(p.severity == "error" for _, p in found)
    return WorldCheck(file, definition if ok else None, tuple(found))


def _check_published(spec: str) -> WorldCheck:
    """`check_world` for `agentodyssey:<game>`: the game's definition and quest data as
    `published_pack` builds them, with every problem and the import's notes."""
    from agentodyssey_pz.world.published.pack import published_game

    file = Path(spec)
    try:
        game = published_game(spec[len(PUBLISHED_PREFIX) :])
    except KeyError as exc:
        raise ConfigError(f"world: {spec!r}: {exc.args[0]}") from None
    found: list[tuple[str, Problem]] = [(spec, Problem("$", n, "warning")) for n in game.notes]
    definition, problems = check_definition(game.definition, source=spec)
    found += [(spec, p) for p in problems]
    if definition is not None:
        enabled = [event for event in SECTION_EVENTS.values() if event in definition.custom_events]
        source = f"{spec} (quest data)"
        try:
            quests_of_world(definition, game.quest_data, enabled, source=source)
        except DataError as exc:
            found.extend((exc.source or source, p) for p in exc.problems)
    ok = definition is not None and not any(p.severity == "error" for _, p in found)
    return WorldCheck(file, definition if ok else None, tuple(found))
