"""The NPC roster of a generated world: merchants stocking their band of tiers, villagers, tiered
enemies dropping their tier's materials, and bosses guarding trophies."""

from __future__ import annotations

import random
from typing import Any

from agentodyssey_pz.world.procgen.build import Build
from agentodyssey_pz.world.procgen.spec import KEY_ID
from agentodyssey_pz.world.wordbook import (
    BEAST_ADJECTIVES,
    BOSS_TITLES,
    CREATURES,
    FOLK_ADJECTIVES,
    PATTERN_ACTIONS,
    PATTERN_WEIGHTS,
    TRADES,
    VILLAGER_ROLES,
)

MERCHANT_STOCK = 8  # goods per merchant (the first also sells the basics)


def _npc(build: Build, name: str, role: str, objects: list[str], **fields: Any) -> dict[str, Any]:
    noun, rng = name.replace("_", " "), build.rng
    sentences = {
        "merchant": f"A trader called the {noun}, selling goods for coin.",
        "villager": f"A {rng.choice(FOLK_ADJECTIVES)} {noun} going about the day's work.",
        "beast": f"A {rng.choice(BEAST_ADJECTIVES)} {noun} that attacks anyone close by.",
        "boss": f"The {noun}, a {rng.choice(BEAST_ADJECTIVES)} terror that rules its lair.",
    }
    npc = {"type": "npc", "id": f"npc_{name}", "name": name, "role": role}
    return {**npc, "description": sentences[role], "objects": objects, **fields}


def merchants(build: Build) -> list[dict[str, Any]]:
    """Each merchant stocks priced, distributable goods of its band of tiers (keys are crafted)."""
    spec, rng, roles = build.spec, build.rng, build.roles
    goods = [
        oid
        for oid, obj in build.objects.items()
        if obj["value"] is not None and oid not in build.undistributable and oid != KEY_ID
    ]
    merchants = []
    for m in range(spec.merchant_count):
        low = 1 + m * spec.max_level // spec.merchant_count
        high = max(low, (m + 1) * spec.max_level // spec.merchant_count)
        band = [oid for oid in goods if low <= build.objects[oid]["level"] <= high]
        stock = rng.sample(band, min(MERCHANT_STOCK, len(band)))
        if m == 0:  # the first merchant also sells the carrying and writing basics
            basics = [roles[r] for r in ("container", "writable", "pen")]
            stock += [oid for oid in basics if oid not in stock]
        name = build.names.compound(TRADES)
        merchants.append(_npc(build, name, "merchant", stock, enemy=False, unique=True))
    return merchants


def villagers(build: Build) -> list[dict[str, Any]]:
    raws, rng = build.tiers[0].raws, build.rng
    return [
        _npc(
            build,
            build.names.compound(VILLAGER_ROLES),
            "villager",
            rng.sample(raws, 2),
            enemy=False,
            unique=False,
        )
        for _ in range(build.spec.villager_count)
    ]


def _combat(rng: random.Random, level: int, scale: float, pattern_length: int) -> dict[str, Any]:
    """Stats growing with the tier (scaled up for bosses) and a rhythm that includes an attack."""
    pattern = rng.choices(PATTERN_ACTIONS, weights=PATTERN_WEIGHTS, k=pattern_length)
    if "attack" not in pattern:
        pattern[0] = "attack"  # an enemy that never attacks would be no threat at all
    return {
        "base_hp": round((30 + 25 * (level - 1) + rng.randint(-5, 5)) * scale),
        "slope_hp": round((8 + 3 * level) * scale),
        "base_attack_power": round((5 + 4 * (level - 1) + rng.randint(-1, 1)) * scale),
        "slope_attack_power": round((2 + level) * scale),
        "combat_pattern": pattern,
    }


def enemies(build: Build) -> list[dict[str, Any]]:
    """Non-unique enemies spread evenly over the tiers, lowest first, so every tier has one."""
    rng, count = build.rng, build.spec.enemy_count
    enemies = []
    for i in range(count):
        tier = build.tiers[i * len(build.tiers) // count]
        loot = [tier.drop, tier.drop, rng.choice(tier.raws)]
        combat = _combat(rng, tier.level, 1.0, rng.randint(3, 4))
        name = build.names.compound(CREATURES)
        enemies.append(_npc(build, name, "beast", loot, enemy=True, unique=False, **combat))
    return enemies


def bosses(build: Build) -> list[dict[str, Any]]:
    bosses = []
    for tier, trophy in build.trophies:
        combat = _combat(build.rng, tier.level, 3.0, build.rng.randint(5, 6))
        name = build.names.compound(BOSS_TITLES)
        bosses.append(
            _npc(build, name, "boss", [trophy, tier.drop], enemy=True, unique=True, **combat)
        )
    return bosses
