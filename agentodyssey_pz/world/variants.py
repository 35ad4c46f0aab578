"""World-synthesis variants: how the older generators differ from the base one, as data.

Layer: world core. AgentOdyssey built its published games with three generators besides its
current one: quarantine's (the spawn area always lit), and the older ones of remnant and mark. A
world names its variant in `features.synthesis` (absent: `base`); `synthesis.py` reads every
difference from the `Variant` record, so the stages exist once.
docs/world-format.md#101-synthesis-variants has the table of differences in prose.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs

from agentodyssey_pz.world.rng import STREAM_NAMES
from agentodyssey_pz.world.schema import DEFAULT_ENEMY_PATTERN, NpcDef

# The order the five stage seeds are drawn from the seed (`rng.synthesis_streams`).
BASE_STREAM_ORDER = STREAM_NAMES
MARK_STREAM_ORDER = ("connections", "npcs", "places", "objects", "npc_assign")
# The older generators' pattern for an enemy without one.
OLDER_ENEMY_PATTERN = ("attack", "attack", "wait", "defend")


def base_enemy_budget(level: int) -> tuple[int, int]:
    """Bounds of an area's enemy budget: half its level (rounded down) to its level."""
    return level // 2, level


def remnant_enemy_budget(level: int) -> tuple[int, int]:
    """Half the level (rounded down) to two thirds of it (rounded up): level 3 gives 1..2."""
    return level // 2, math.ceil(level / 1.5)


def mark_enemy_budget(level: int) -> tuple[int, int]:
    """One to the level: even a level-1 area may get an enemy."""
    return 1, level


@attrs.frozen
class Variant:
    """One generator. Every field's default is the base generator's behaviour.

    Attributes:
        name: the value of `features.synthesis`.
        stream_order: the order the stage seeds are drawn from the world seed.
        lit_spawn: the spawn area is lit, and no random light value is drawn for it.
        honours_graph: a predefined `graph` replaces random connectivity (else it is ignored).
        guarantees_local: each area first gets its local objects before the weighted draws.
        draw_multipliers: the weighted draws per area lie between these two multiples of
            min(pool size, 5 + top level - area level).
        enemy_budget: the bounds, for an area's level, of the enemies it may get.
        loot_per_level: each loot item's count is drawn from 0..loot_per_level x NPC level.
        enemy_pattern: the rhythm of an enemy whose definition has none.
        empty_pattern_is_default: an explicit empty `combat_pattern` also gets `enemy_pattern`.
        counts_unique_spawn_npcs: a unique NPC listed at spawn still advances its prototype's
            instance counter.
    """

    name: str
    stream_order: tuple[str, ...] = BASE_STREAM_ORDER
    lit_spawn: bool = False
    honours_graph: bool = True
    guarantees_local: bool = True
    draw_multipliers: tuple[float, float] = (2, 4)
    enemy_budget: Callable[[int], tuple[int, int]] = base_enemy_budget
    loot_per_level: int = 2
    enemy_pattern: tuple[str, ...] = DEFAULT_ENEMY_PATTERN
    empty_pattern_is_default: bool = False
    counts_unique_spawn_npcs: bool = False

    def pattern_of(self, proto: NpcDef) -> tuple[str, ...]:
        """The combat pattern an instance of `proto` fights with."""
        given = proto.combat_pattern
        if given is None or (not given and self.empty_pattern_is_default):
            return self.enemy_pattern if proto.enemy else ()
        return given


# The older generators share their NPC handling (loot, default rhythm); mark's differs in its
# stream order, predefined graph, draw counts and enemy budget.
_OLDER_NPCS = {
    "guarantees_local": False,
    "loot_per_level": 1,
    "enemy_pattern": OLDER_ENEMY_PATTERN,
    "empty_pattern_is_default": True,
}

# By name, in the order of `schema.SYNTHESIS_VARIANTS` (the names the validator accepts).
VARIANTS = {
    "base": Variant("base"),
    "quarantine": Variant("quarantine", lit_spawn=True),
    "remnant": Variant(
        "remnant", honours_graph=False, enemy_budget=remnant_enemy_budget, **_OLDER_NPCS
    ),
    "mark": Variant(
        "mark",
        stream_order=MARK_STREAM_ORDER,
        draw_multipliers=(2.5, 5),
        enemy_budget=mark_enemy_budget,
        counts_unique_spawn_npcs=True,
        **_OLDER_NPCS,
    ),
}


def variant_named(name: str | None) -> Variant:
    """The variant of a `features.synthesis` value (None: base); ValueError for an unknown one
    (the validator reports it first, with its path)."""
    try:
        return VARIANTS[name or "base"]
    except KeyError:
        raise ValueError(
            f"unknown synthesis variant {name!r} (expected one of {', '.join(VARIANTS)})"
        ) from None
