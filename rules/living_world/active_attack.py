"""`active_attack_step` (priority 6): the base pack's ambushes, with the world's own odds per level
and this tick's modifier bag.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack); it replaces the base rule of
the same name (a subclass: the ambush itself is the base pack's). Changes:

* the chance per area level is `min_probability + (L - 1) * (max_probability - min_probability) /
  (Lmax - 1)`, `Lmax` the highest level of any area (remnant 0.05 to 0.25, mark 0.10 to 0.30);
  while the agent fights in rhythm it stays 0.025;
* the bag (common.py) turns a chance `p` into its `ambush_prob_override` when that is set, else
  `(p + ambush_prob_additive) x ambush_prob_multiplier`, within [0, 1];
* a hit takes `max(0, int(max(0, attack // 2 - defense) x enemy_damage_multiplier) +
  enemy_attack_damage_bonus)`, a tenth of it (int) while defending.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.packs import bundled_step_rule

from .common import (
    ADDITIVE,
    BAG_DEFAULTS,
    BAG_KEY,
    DAMAGE_BONUS,
    DAMAGE_MULTIPLIER,
    MULTIPLIER,
    OVERRIDE,
)

BaseActiveAttack: Any = bundled_step_rule("base", "active_attack_step")
ENGAGED_CHANCE = 0.025
LOWEST_LEVEL = 1


def adjusted(chance: float, bag: dict[str, Any]) -> float:
    """A chance under the bag's modifiers, within [0, 1]."""
    override = bag.get(OVERRIDE)
    if override is None:
        chance = (chance + bag.get(ADDITIVE, 0.0)) * bag.get(MULTIPLIER, 1.0)
    else:
        chance = override
    return min(1.0, max(0.0, chance))


class Adjusted(Mapping[int, float]):
    """The chances per level under the bag's modifiers (`adjusted`), each worked out when first
    read: the ambush reads only the levels where agents meet enemies, a few of the world's."""

    def __init__(self, chances: dict[int, float], bag: dict[str, Any]) -> None:
        self._chances, self._bag = chances, bag
        self._turned: dict[int, float] = {}

    def __getitem__(self, level: int) -> float:
        found = self._turned.get(level)
        if found is None:
            found = self._turned[level] = adjusted(self._chances[level], self._bag)
        return found

    def __iter__(self) -> Iterator[int]:
        return iter(self._chances)

    def __len__(self) -> int:
        return len(self._chances)


class ActiveAttack(BaseActiveAttack):
    name = "active_attack_step"
    priority = 6
    description = "Enemies may ambush agents in their area, at odds the time of day shifts."
    settings = {"min_probability": 0.05, "max_probability": 0.25}

    def level_chances(self, levels: set[int]) -> dict[int, float]:
        low, high = self.settings["min_probability"], self.settings["max_probability"]
        top = max(levels, default=LOWEST_LEVEL)
        if top <= LOWEST_LEVEL:
            return dict.fromkeys(levels | {LOWEST_LEVEL}, low)
        return {level: low + (level - 1) * (high - low) / (top - 1) for level in levels}

    def odds(self, ctx: RuleContext) -> tuple[Mapping[int, float], float]:
        chances = self.chances(ctx.world)
        bag = ctx.world.auxiliary.get(BAG_KEY)
        if not bag:
            return chances, ENGAGED_CHANCE
        return Adjusted(chances, bag), adjusted(ENGAGED_CHANCE, bag)

    def hit_damage(self, ctx: RuleContext, attack_power: int, defense: int) -> int:
        bag = ctx.world.auxiliary.get(BAG_KEY) or BAG_DEFAULTS
        factor = bag.get(DAMAGE_MULTIPLIER, 1.0)
        bonus = bag.get(DAMAGE_BONUS, 0)
        return max(0, int(max(0, attack_power // 2 - defense) * factor) + bonus)
