"""The shape of one game's quest tables, and helpers the games' tables share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

# A translation of one published condition (`{"kind": ..., "type": ..., ...}`) into our condition
# data; it gets the `Translation` doing the import (for `$variable` references and texts).
ConditionTranslation = Callable[[Any, dict[str, Any]], dict[str, Any]]


@attrs.frozen
class QuestTables:
    """Everything about one game's main quest that its files keep as code."""

    # Setup steps for bootstrap variables computed by code (docs/world-format.md#111-main-quest):
    # one step, or a list whose earlier steps set helper variables (their own `let`) used by the
    # last.
    picked: dict[str, dict[str, Any] | list[dict[str, Any]]] = attrs.field(factory=dict)
    # Variables derived from earlier ones: name -> function of the values known so far.
    derived: dict[str, Callable[[dict[str, Any]], Any]] = attrs.field(factory=dict)
    # Quest NPCs (and objects) placed once per episode, each right after the variable naming its
    # area; one placed in a fixed area (not a `$variable`) after all the variables.
    placed: list[dict[str, Any]] = attrs.field(factory=list)
    # Fixed values the texts use (e.g. a boss's display name), set after the bootstrap's own.
    named: dict[str, Any] = attrs.field(factory=dict)
    # Boss key -> our boss entry (docs/world-format.md#111-main-quest "bosses").
    bosses: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    # Stage id -> an object given at the agent's feet on completion unless it has one.
    gifts: dict[str, str] = attrs.field(factory=dict)
    # Object id -> the value it gets when the world leaves it without one.
    values: dict[str, int] = attrs.field(factory=dict)
    # Placeholder of the published texts -> our variable name.
    placeholders: dict[str, str] = attrs.field(factory=dict)
    # Extra fields of the guide entry (name order, reminders).
    guide_extras: dict[str, Any] = attrs.field(factory=dict)
    # `visited_k_of_area_set` history ("quest" when None) and text matching ("equals" when None).
    visit_history: str | None = None
    text_match: str | None = None
    # (kind, type) -> translation, for the game's own condition kinds or where its meaning of a
    # shared kind differs; looked up before the shared translations of `quests.CONDITIONS`.
    conditions: dict[tuple[str, str], ConditionTranslation] = attrs.field(factory=dict)


def place(npc: str, var: str, area_var: str, **extra: Any) -> dict[str, Any]:
    """A `place_npc` setup step: NPC definition `npc` into the area variable `area_var`."""
    return {"let": var, "place_npc": npc, "in": f"${area_var}", **extra}


def boss(
    npc: str, area_var: str, hp: int | None = None, attack: int | None = None, **extra: Any
) -> dict[str, Any]:
    """A shared boss entry (one instance for all agents); without hp/attack the prototype's stats
    at the area's level apply."""
    out: dict[str, Any] = {"npc": npc, "in": f"${area_var}"}
    if hp is not None:
        out["hp"] = hp
    if attack is not None:
        out["attack"] = attack
    return {**out, "shared": True, **extra}


RELIC = "obj_heart_of_the_ocean"
# The tide merchant's stock of the relic and salt, and the coins to buy back.
TIDE_MERCHANT = {"stock": {RELIC: 1, "obj_sea_salt_crystal": 4}, "min_coins": 400}
# The fire boss: the sea's blade drenches it for good (its health falls to 150), a wooden blade
# in hand enrages it while held.
_WATER, _WOODEN = ["obj_water_sword"], ["obj_wooden_sword", "obj_wooden_dagger"]
FIRE_BOSS_MODIFIERS = [
    {"when_held": _WATER, "unless_held": _WOODEN, "max_hp": 150, "attack": 20},
    {"when_held": _WOODEN, "unless_held": _WATER, "attack": 45},
]
