"""World packs: a world given as a JSON file, a folder, or a bundled world's name.

Layer: engine. A world folder holds `world.json` and optionally `quests.json` (quest data) and a
`rules/` rule pack (extra verbs, step rules, an init rule run once after reset). Code is only ever
loaded from a folder the user named (directly or by naming the world).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.resources import bundled_pack_names, resolve_world_file, rules_dir
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.validate import load_definition, read_json

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


PROCGEN_PREFIX = "procgen:"


def procedural_pack(spec: str) -> WorldPack:
    """`procgen:<preset>` or `procgen:<preset>:<seed>` (seed 0 by default)."""
    from agentodyssey_pz.world.procgen import PRESETS, generate_definition
    from agentodyssey_pz.world.validate import parse_definition

    parts = spec[len(PROCGEN_PREFIX) :].split(":")
    preset = parts[0]
    if preset not in PRESETS or len(parts) > 2:
        raise ConfigError(
            f"world: {spec!r} is not 'procgen:<preset>[:<seed>]' with a preset among "
            f"{', '.join(PRESETS)}"
        )
    try:
        seed = int(parts[1]) if len(parts) > 1 else 0
    except ValueError as exc:
        raise ConfigError(f"world: {spec!r}: the seed after the preset must be an integer") from exc
    definition = parse_definition(generate_definition(preset, seed), source=spec)
    return WorldPack(
        definition, name=f"{preset}-{seed}", source=spec, rule_packs=bundled_packs(definition)
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


def load_world_pack(world: str | os.PathLike[str] | WorldDefinition | WorldPack) -> WorldPack:
    if isinstance(world, WorldPack):
        return world
    if isinstance(world, WorldDefinition):
        return WorldPack(world, name="custom", rule_packs=bundled_packs(world))
    if isinstance(world, str) and world.startswith(PROCGEN_PREFIX):
        return procedural_pack(world)
    file = resolve_world_file(world)
    folder = file.parent if file.name == "world.json" else None
    definition = load_definition(file)
    quest_data = None
    rule_packs = bundled_packs(definition)
    if folder is not None:
        if (folder / QUEST_FILE).is_file():
            quest_data = read_json(folder / QUEST_FILE)
        if (folder / RULES_FOLDER).is_dir():
            rule_packs += (str(folder / RULES_FOLDER),)
    if quest_data is None:
        quest_data = definition.extras.get("quests")
    name = folder.name if folder is not None else Path(file).stem
    return WorldPack(
        definition, name=name, source=str(file), quest_data=quest_data, rule_packs=rule_packs
    )
