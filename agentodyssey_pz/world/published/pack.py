"""A published game, assembled for our engine: its world definition and quest data.

Layer: world core. `published_game("remnant")` reads the game from the user's copy of AgentOdyssey
and returns what a world pack needs: the raw world definition as AgentOdyssey's environment builds
it (quest entities injected, undefined ids handled: `definition`), switched to the mechanics we
play it with (rule packs and their settings, synthesis variant, darkness: `games`), and the quest
data translated into our format (`quests`, and the tutorial's own module).
"""

from __future__ import annotations

import copy as copy_module
import functools
import json
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.world.published.games import GameSpec, game_spec
from agentodyssey_pz.world.published.locate import PublishedCopy, find_published


@attrs.frozen
class PublishedGame:
    """One game read from a copy: the raw definition, our quest data for it, and the notes the
    import made (ids AgentOdyssey leaves undefined, quirks fixed)."""

    spec: GameSpec
    copy: PublishedCopy
    definition: dict[str, Any]
    quest_data: dict[str, Any]
    notes: tuple[str, ...] = ()


def _default_section(name: str) -> Any:
    from agentodyssey_pz.resources import default_quest_file

    return json.loads(default_quest_file(name).read_text(encoding="utf-8"))


def published_game(name: str, copy: PublishedCopy | None = None) -> PublishedGame:
    """The game `name` (base, remnant, mark, ...) from `copy` (default: `find_published()`).
    Raises KeyError for an unknown game and PublishedGameError when the copy is missing or does
    not read as expected.

    Reading a game parses four of AgentOdyssey's files (about 0.1 s); an env rebuilt in another
    process or copied (SuperSuit's workers, the audit) reads the same game again, so the result
    is kept per game and file version, and each caller gets its own copy of the data."""
    spec = game_spec(name)  # an unknown game is named before anything is read
    copy = copy or find_published()
    files = (spec.world_file, spec.quest_module, spec.tutorial_module, spec.general_module)
    game = _read_game(spec.name, copy, tuple(_stamp(copy.path(rel)) for rel in files))
    return attrs.evolve(
        game,
        definition=copy_module.deepcopy(game.definition),
        quest_data=copy_module.deepcopy(game.quest_data),
    )


def _stamp(path: Path) -> tuple[str, int, int]:
    """What changes when a file changes (its path, size and modification time)."""
    try:
        stat = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), stat.st_size, stat.st_mtime_ns)


def _read_content_settings(copy: PublishedCopy, spec: GameSpec, settings: dict[str, Any]) -> None:
    """The settings whose values are story content (`GameSpec.content_settings`), from the
    game's general module in the user's copy (class constants, read without running the code)."""
    from agentodyssey_pz.world.published.pyconst import constant

    module = copy.read_python(spec.general_module)
    for rule, wanted in spec.content_settings.items():
        for setting, (class_name, attribute) in wanted.items():
            value = constant(module, class_name, attribute, where=spec.general_module)
            settings.setdefault(rule, {})[setting] = json.loads(json.dumps(value))


@functools.lru_cache(maxsize=16)
def _read_game(name: str, copy: PublishedCopy, stamps: tuple[tuple[str, int, int], ...]) -> Any:
    """The game as read from the copy (`stamps` only keys the cache: a changed file is read
    again). Never handed out directly: `published_game` copies its data."""
    spec = game_spec(name)
    from agentodyssey_pz.world.published.definition import published_world
    from agentodyssey_pz.world.published.quests import (
        give_quest_values,
        main_quest_section,
        side_quests_section,
    )
    from agentodyssey_pz.world.published.tutorial import tutorial_section

    world = published_world(copy, spec.name)
    raw = world.definition
    notes = list(world.warnings)
    features = raw.setdefault("features", {})
    if spec.rule_packs:
        features["rule_packs"] = list(spec.rule_packs)
    if spec.rule_settings:
        features["rule_settings"] = json.loads(json.dumps(spec.rule_settings))
    if spec.content_settings:
        _read_content_settings(copy, spec, features.setdefault("rule_settings", {}))
    if isinstance(spec.darkness, dict):
        features["darkness"] = dict(spec.darkness)
    elif spec.darkness:
        features["darkness"] = {"light_objects": ["obj_torch"]}
    objects = raw.get("entities", {}).get("objects", [])
    if spec.weapon_attack_power_ignored:
        for obj in objects:  # what the game's engine reads: `attack`, 0 when absent
            if "attack_power" in obj and "attack" not in obj:
                obj["attack"] = 0
    if spec.currency_plural:
        coin = next((o for o in objects if o.get("category") == "currency"), None)
        if coin is not None:
            features["currency_name"] = f"{coin['name']}s"
    events = list(raw.get("custom_events", []))
    quests: dict[str, Any] = {}
    if "main_quest" in events:
        if spec.main_quest:
            give_quest_values(spec, raw)
            quests["main_quest"] = main_quest_section(copy, spec, raw)
        else:  # not imported yet: off, rather than our own quest in its world
            events.remove("main_quest")
            notes.append(f"{spec.name}: its main quest is not imported yet; it is switched off")
    if "side_quest" in events:
        quests["side_quests"] = side_quests_section(copy, spec, _default_section("side_quests"))
    # Every game carries tutorial data; those that do not enable it can still be asked for it.
    quests["tutorial"] = tutorial_section(copy, spec.name, raw)
    raw["custom_events"] = events
    return PublishedGame(spec, copy, raw, quests, tuple(notes))
