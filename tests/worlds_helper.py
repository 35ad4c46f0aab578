"""The one place tests learn which worlds exist, so a new world is covered without edits."""

from __future__ import annotations

from agentodyssey_pz.resources import bundled_world_names, resolve_world_file
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.validate import load_definition

PROCGEN_PRESETS = ("small", "medium", "large")


def bundled_worlds() -> list[str]:
    return bundled_world_names()


def bundled_definition(name: str) -> WorldDefinition:
    return load_definition(resolve_world_file(name))
