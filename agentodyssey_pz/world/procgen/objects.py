"""The object roster of a generated world: basics, one material tier per area level (ore, ingot,
gear), trophies, extra families, and recipe chains deep enough for the preset."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from agentodyssey_pz.world.procgen.build import Build, Tier, pick_areas
from agentodyssey_pz.world.procgen.spec import COIN_ID, KEY_ID
from agentodyssey_pz.world.wordbook import (
    ADJECTIVES,
    FIBER,
    MATERIAL_KINDS,
    ROLES,
    TIMBER,
    MaterialKind,
    words_of,
)

# Extra roster entries and their draw weights (a family counts double: it adds two objects).
EXTRA_KINDS = ("family", "component", "weapon", "armor")
EXTRA_WEIGHTS = (3, 2, 2, 2)
RAW_AREA_SHARE = 0.4  # share of a level's areas that list one raw material of that level
TIERS_PER_SMELTER = 3  # a new smelting station every three tiers (the furnace serves the first)
VALUE_MARKUP = 1.25  # crafted goods sell for their ingredients' worth plus a quarter plus the level


def _add(
    build: Build,
    role_name: str,
    level: int,
    ingredients: Mapping[str, float] | None = None,
    *,
    dependencies: Sequence[str] = (),
    name: str | None = None,
    **fields: Any,
) -> str:
    """Add one object of a role and return its id.

    The name comes from the role's nouns unless given. The value, unless given, is the recipe's
    worth plus the level, or null for unpriced roles.
    """
    role, rng = ROLES[role_name], build.rng
    name = name or build.names.compound(role.nouns, fields.pop("stem", None))
    oid = fields.pop("object_id", f"obj_{name}")
    ingredients = dict(ingredients or {})
    value = _recipe_value(build, ingredients) + level if role.priced else None
    value = fields.pop("value", value)
    noun = name.replace("_", " ")
    sentence = rng.choice(role.sentences).format(adj=rng.choice(ADJECTIVES), noun=noun)
    build.objects[oid] = {
        "type": "object", "id": oid, "name": name, "category": role.category, "usage": role.usage,
        "value": value, "size": role.size, "level": level, "description": sentence, **fields,
        "craft": {"ingredients": ingredients, "dependencies": list(dependencies)},
    }  # fmt: skip
    build.depth[oid] = 1 + max((build.depth[i] for i in ingredients), default=-1)
    return oid


def _recipe_value(build: Build, ingredients: Mapping[str, float]) -> int:
    cost = sum(qty * (build.objects[oid]["value"] or 0) for oid, qty in ingredients.items())
    return math.ceil(cost * VALUE_MARKUP)


def _add_raw(build: Build, role: str, level: int, value: int, **fields: Any) -> str:
    areas = pick_areas(build, level, RAW_AREA_SHARE)
    return _add(build, role, level, value=value, areas=areas, **fields)


def _add_family(
    build: Build, tier: Tier, kind: MaterialKind, raw_value: int, station: str | None = None
) -> tuple[str, str]:
    """A raw material and its processed form (a new part of the tier); returns both ids.

    `station` overrides where the processed form is made (the timber's plank needs the bench,
    which is itself made of timber, so the bench is created in between).
    """
    stem, names = build.names.word(), build.names
    raw_name = names.compound(words_of(kind.raw_nouns), stem)
    raw = _add_raw(build, "raw", tier.level, raw_value, name=raw_name)
    if station is None:
        station = tier.smelter if kind.is_smelted else build.roles["bench"]
    elif not station:
        station = build.roles["bench"] = _add(build, "bench", 1, {raw: 4})
    part_name = names.compound(words_of(kind.processed_nouns), stem)
    recipe = {raw: kind.quantity}
    part = _add(build, "processed", tier.level, recipe, dependencies=[station], name=part_name)
    tier.raws.append(raw)
    tier.parts.append(part)
    return raw, part


def _add_basics(build: Build, tier: Tier) -> None:
    """Tier-1 staples: coin, a cheap timber (value 2) with the bench made of it (no station needed)
    and its plank, stone, the furnace (found in a few areas, or made at the bench), fiber, cloth."""
    roles = build.roles
    _add(build, "coin", 1, name="coin", object_id=COIN_ID)
    roles["timber"], roles["plank"] = _add_family(build, tier, TIMBER, 2, station="")
    roles["stone"] = _add_raw(build, "stone", 1, 3)
    furnace_areas = pick_areas(build, 1, 0.2)
    tier.smelter = roles["furnace"] = _add(
        build, "smelter", 1, {roles["stone"]: 6}, dependencies=[roles["bench"]], areas=furnace_areas
    )
    roles["fiber"], roles["cloth"] = _add_family(build, tier, FIBER, 2)
    tier.raws.append(roles["stone"])


def _add_tools(build: Build, tier: Tier) -> None:
    """Key blank and key, lockpick, container, writable and pen: level 1, from tier-1 goods."""
    roles, bench = build.roles, [build.roles["bench"]]
    blank = _add(build, "blank", 1, {tier.ingot: 0.5}, dependencies=bench)
    _add(build, "key", 1, {blank: 1}, dependencies=bench, name="key", object_id=KEY_ID)
    _add(build, "lockpick", 1, {tier.ingot: 0.25}, dependencies=bench)
    roles["container"] = _add(
        build, "container", 1, {roles["cloth"]: 3}, dependencies=bench, capacity=15
    )
    # No station on purpose: a writable without dependencies joins the global distribution pool
    # (docs/mechanics/world-synthesis.md#stage-5-objects), so sheets also turn up in the world.
    roles["writable"] = _add(
        build, "writable", 1, {roles["fiber"]: 1}, text="", max_text_length=120
    )
    roles["pen"] = _add(build, "pen", 1, {roles["timber"]: 0.5}, dependencies=bench)


def _weapon_attack(level: int) -> int:
    return 4 + 5 * (level - 1)  # steps of 5 keep every variant (-2..+3) above the tier below


def _armor_defense(level: int) -> int:
    return 2 + 3 * (level - 1)  # steps of 3 keep every variant (-1..+1) above the tier below


def _secondary(build: Build, tier: Tier) -> str:
    return build.rng.choice(tier.parts) if tier.parts else build.roles["plank"]


def _add_gear(
    build: Build, tier: Tier, role: str, ingredients: dict[str, float], bonus: int
) -> str:
    """A weapon (attack) or armour (defense) of the tier, made at the bench."""
    stat, base = ("attack", _weapon_attack) if role == "weapon" else ("defense", _armor_defense)
    bench = [build.roles["bench"]]
    gear = {stat: base(tier.level) + bonus, "stem": tier.stem}
    return _add(build, role, tier.level, ingredients, dependencies=bench, **gear)


def _add_metal(build: Build, tier: Tier) -> None:
    """The tier's smelter (new every few tiers), ore and ingot, and the enemies' drop material."""
    if tier.level > 1:
        below = build.tiers[tier.level - 2]
        tier.smelter = below.smelter
        if (tier.level - 1) % TIERS_PER_SMELTER == 0:
            areas = pick_areas(build, tier.level, 0.1)
            recipe = {below.ingot: 4, build.roles["stone"]: 4}
            furnace = [build.roles["furnace"]]
            tier.smelter = _add(
                build, "smelter", tier.level, recipe, dependencies=furnace, areas=areas
            )
    tier.stem = build.names.word()
    ore = _add_raw(build, "ore", tier.level, 2 * tier.level + 1, stem=tier.stem)
    recipe: dict[str, float] = {ore: 2}
    if tier.level > 1:
        recipe[build.tiers[tier.level - 2].ingot] = 0.5  # the alloy ladder
    tier.ingot = _add(
        build, "ingot", tier.level, recipe, dependencies=[tier.smelter], stem=tier.stem
    )
    tier.raws.append(ore)
    # Drops are raw with no areas: only the tier's enemies yield them.
    tier.drop = _add(build, "drop", tier.level, value=4 + 3 * tier.level)
    build.undistributable.append(tier.drop)


def _add_tier_core(build: Build, tier: Tier) -> None:
    _add_metal(build, tier)
    if tier.level == 1:
        _add_tools(build, tier)
    else:
        kind = build.rng.choice(MATERIAL_KINDS[2:])
        _add_family(build, tier, kind, 2 * tier.level + build.rng.randint(0, 2))
    _add_gear(build, tier, "weapon", {tier.ingot: 2, _secondary(build, tier): 1}, 0)
    _add_gear(build, tier, "armor", {tier.ingot: 1, tier.drop: 2}, 0)


def _add_extra(build: Build, tier: Tier) -> None:
    """One more roster entry for `tier`, of a randomly drawn kind."""
    rng = build.rng
    kind = rng.choices(EXTRA_KINDS, weights=EXTRA_WEIGHTS)[0]
    if kind == "family":
        _add_family(build, tier, rng.choice(MATERIAL_KINDS), 2 * tier.level + rng.randint(0, 2))
    elif kind == "component":
        recipe = {tier.ingot: 0.5, _secondary(build, tier): 1}
        bench = [build.roles["bench"]]
        tier.parts.append(
            _add(build, "component", tier.level, recipe, dependencies=bench, stem=tier.stem)
        )
    elif kind == "weapon":
        _add_gear(
            build, tier, "weapon", {tier.ingot: 1, _secondary(build, tier): 2}, rng.randint(-2, 1)
        )
    else:
        _add_gear(
            build, tier, "armor", {_secondary(build, tier): 3, tier.drop: 1}, rng.randint(-1, 1)
        )


def _add_trophies(build: Build) -> None:
    """Bosses sit on the top tiers, one per tier from the top down; each drops a trophy that goes
    into a relic weapon of its tier."""
    top_down = build.tiers[::-1]
    for i in range(build.spec.boss_count):
        tier = top_down[i % len(top_down)]
        trophy = _add(build, "trophy", tier.level, value=40 * tier.level)
        build.undistributable.append(trophy)
        build.trophies.append((tier, trophy))
        _add_gear(build, tier, "weapon", {trophy: 1, tier.ingot: 2}, 3)


def _deepen_recipes(build: Build) -> None:
    """Stack refinements on the top tier until the longest recipe chain reaches the preset's depth
    (the alloy ladder already does for the presets; small custom specs may need this)."""
    top = build.tiers[-1]
    while max(build.depth.values()) < build.spec.crafting_depth:
        materials = [oid for oid, obj in build.objects.items() if obj["category"] == "material"]
        deepest = max(materials, key=build.depth.__getitem__)
        recipe = {deepest: 1, top.ingot: 0.5}
        _add(build, "refinement", top.level, recipe, dependencies=[top.smelter], stem=top.stem)


def _cover_areas(build: Build) -> None:
    """Give every non-spawn area at least one raw material native to its level."""
    raws = [obj for obj in build.objects.values() if not obj["craft"]["ingredients"]]
    listed = {area for obj in raws for area in obj.get("areas", ())}
    for tier in build.tiers:
        for area in build.areas_by_level.get(tier.level, []):
            if area not in listed:
                build.objects[build.rng.choice(tier.raws)]["areas"].append(area)


def build_objects(build: Build) -> None:
    build.tiers = [Tier(level) for level in range(1, build.spec.max_level + 1)]
    _add_basics(build, build.tiers[0])
    for tier in build.tiers:
        _add_tier_core(build, tier)
    _add_trophies(build)
    _deepen_recipes(build)
    for tier in itertools.cycle(build.tiers):
        if len(build.objects) >= build.spec.object_count:
            break
        _add_extra(build, tier)
    _cover_areas(build)
