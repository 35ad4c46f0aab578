"""Procedural world definitions: a preset (or spec) and a seed in, a JSON-ready definition dict out.

Layer: world core; imports only the standard library and attrs. The output follows the
world-definition schema and passes `validate.check_definition` with no errors and no warnings.
Modules: `spec` (sizes and presets), `build` (run state, geography), `objects`, `npcs`; the word
tables are in `world.wordbook` (shared with the expander).

Shape of a generated world (Neural MMO-style presets, see `PRESETS`):

* Geography: places of 3-6 areas in a line of rising difficulty; area levels climb from 1 at the
  spawn to `max_level` at the far end. About a quarter of the places (never the spawn place) are
  locked. No `graph` key: the engine chains places at random
  (docs/mechanics/world-synthesis.md#stage-4-connectivity).
* Crafting: one material tier per area level. Each tier has an ore smelted into an ingot, and an
  ingot above tier 1 takes half an ingot of the tier below, so the alloy ladder alone gives recipe
  chains of `max_level + 1` steps. Material families, components, weapons and armour fill the rest.
* NPCs: merchants selling the tiers of their band, villagers, enemies per tier dropping the tier's
  hide-like material, and unique bosses on the top tiers dropping trophies for relic weapons.

All randomness comes from one `random.Random(seed)` and nothing iterates a set, so a preset and a
seed give the same JSON text in every process.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from agentodyssey_pz.world.procgen.build import Build, build_places
from agentodyssey_pz.world.procgen.npcs import bosses, enemies, merchants, villagers
from agentodyssey_pz.world.procgen.objects import build_objects
from agentodyssey_pz.world.procgen.spec import COIN_ID, KEY_ID, PRESETS, ProcgenSpec
from agentodyssey_pz.world.wordbook import NameBook

__all__ = ["COIN_ID", "KEY_ID", "PRESETS", "ProcgenSpec", "generate_definition", "write_definition"]


def _resolve(preset: str | ProcgenSpec) -> ProcgenSpec:
    if isinstance(preset, ProcgenSpec):
        return preset
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; valid presets: {', '.join(PRESETS)}")
    return PRESETS[preset]


def generate_definition(preset: str | ProcgenSpec, seed: int) -> dict[str, Any]:
    """A JSON-compatible world definition for `preset` (a name in `PRESETS` or a spec) and `seed`.

    Raises:
        ValueError: the preset name is unknown.
        TypeError: the seed is not an int.
    """
    spec = _resolve(preset)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    rng = random.Random(seed)
    build = Build(spec=spec, rng=rng, names=NameBook(rng))
    build_places(build)
    build_objects(build)
    npcs = merchants(build) + villagers(build) + enemies(build) + bosses(build)
    basics = ("container", "writable", "pen", "bench")
    spawn_objects = {COIN_ID: 10, KEY_ID: 1, **{build.roles[role]: 1 for role in basics}}
    return {
        "entities": {"places": build.places, "objects": list(build.objects.values()), "npcs": npcs},
        "initializations": {
            "spawn": {"area": build.spawn_area, "objects": spawn_objects, "npcs": {}},
            "undistributable_objects": build.undistributable,
        },
        "custom_events": list(spec.custom_events),
        # Every preset has lockpicks: the bundled pack gives them their verb.
        "features": {"online_expansion": False, "rule_packs": ["lockpicking"]},
    }


def write_definition(preset: str | ProcgenSpec, seed: int, path: str | os.PathLike[str]) -> Path:
    """Write a generated definition as indented JSON, creating parent folders; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(generate_definition(preset, seed), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path
