"""The size and shape of a procedurally generated world, and the named presets."""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

import attrs

# The ids the base rules know (`obj_key` opens keyless locks: docs/mechanics/verbs.md#enter) and
# the bundled worlds' coin; every other id is made up.
COIN_ID = "obj_coin"
KEY_ID = "obj_key"


def _check_spec(spec: ProcgenSpec) -> None:
    """Refuse specs the generator cannot honour (explicit raises: a spec is user input)."""
    low, high = spec.areas_per_place
    if not 1 <= low <= high:
        raise ValueError(
            f"areas_per_place must satisfy 1 <= low <= high, got {spec.areas_per_place}"
        )
    if spec.max_level < 1:
        raise ValueError(f"max_level must be >= 1, got {spec.max_level}")
    if spec.target_areas <= max(1, spec.max_level):
        raise ValueError("target_areas must exceed max_level (every level needs a non-spawn area)")
    if math.ceil(spec.target_areas / high) > spec.target_areas // low:
        raise ValueError(f"{spec.target_areas} areas cannot be cut into places of {low}-{high}")
    if not 0.0 <= spec.locked_place_fraction <= 1.0:
        raise ValueError("locked_place_fraction must lie in [0, 1]")
    if spec.crafting_depth < 1 or spec.merchant_count < 1:
        raise ValueError("crafting_depth and merchant_count must be >= 1")
    if spec.enemy_count < spec.max_level:
        raise ValueError("npc_count leaves fewer enemy prototypes than tiers (each tier needs one)")


@attrs.frozen
class ProcgenSpec:
    """Size and shape of a generated world."""

    # Areas to generate; met exactly (place sizes are drawn to tile it).
    target_areas: int
    # Highest area level, and the number of material tiers (one tier per level).
    max_level: int
    # Minimum length of the longest recipe chain above raw materials (raw = 0, each recipe +1).
    crafting_depth: int
    # Object roster target. The core roster (role objects, one metal family per tier, relics) is
    # always emitted; extras are added until the target is reached (a material family adds two
    # objects, so the roster may end one above the target).
    object_count: int
    # NPC prototypes in total: merchants + villagers + bosses, the remainder are tiered enemies
    # (non-unique, spread evenly over the tiers; there must be at least one per tier).
    npc_count: int
    # Unique non-enemy traders, each selling priced goods of its own band of tiers.
    merchant_count: int
    # Non-unique, non-enemy villagers carrying a few tier-1 raw materials.
    villager_count: int
    # Unique enemies on the top tiers (one per tier, from the top down), each with a trophy drop.
    boss_count: int
    # Inclusive range of areas per place.
    areas_per_place: tuple[int, int] = (3, 6)
    # Share of places written with "unlocked": false (the spawn place always stays unlocked).
    locked_place_fraction: float = 0.25
    # Probability that a non-spawn area is lit (the spawn area always is).
    lit_area_fraction: float = 0.85
    custom_events: tuple[str, ...] = ("main_quest", "side_quest")

    def __attrs_post_init__(self) -> None:
        _check_spec(self)

    @property
    def enemy_count(self) -> int:
        return self.npc_count - self.merchant_count - self.villager_count - self.boss_count


def _preset(areas: int, level: int, depth: int, objects: int, npcs: tuple[int, ...]) -> ProcgenSpec:
    merchants, villagers, bosses = npcs[1:]
    return ProcgenSpec(areas, level, depth, objects, npcs[0], merchants, villagers, bosses)


# Read-only so that no caller can change a preset for everyone else in the process.
# Columns: areas, max level, crafting depth, objects, (NPCs, merchants, villagers, bosses).
# The places follow from the areas (about 4.5 areas each: 3, 23 and 223); the actual longest
# recipe chain is max level + 1 or more (4, 7-10 and 12-14), above the minimum asked for.
PRESETS: Mapping[str, ProcgenSpec] = MappingProxyType(
    {
        "small": _preset(10, 3, 4, 40, (6, 1, 1, 1)),
        "medium": _preset(100, 6, 5, 120, (15, 3, 2, 2)),
        "large": _preset(1000, 10, 6, 350, (40, 6, 5, 4)),
    }
)
