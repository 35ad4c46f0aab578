"""Procedural world definitions: a preset (or spec) and a seed in, a JSON-ready definition dict out.

Layer: world core; imports only the standard library and attrs. The output follows the spec's
world-definition schema and passes `validate.check_definition` with no errors and no warnings.

Shape of a generated world (Neural MMO-style presets, see `PRESETS`):

* Geography: places of 3-6 areas in a line of rising difficulty; area levels climb from 1 at the
  spawn to `max_level` at the far end. About a quarter of the places (never the spawn place) are
  locked. No `graph` key: the engine chains places at random (synthesis spec, section 5).
* Crafting: one material tier per area level. Each tier has an ore smelted into an ingot, and an
  ingot above tier 1 takes half an ingot of the tier below, so the alloy ladder alone gives recipe
  chains of `max_level + 1` steps. Material families, components, weapons and armour fill the rest.
* NPCs: merchants selling the tiers of their band, villagers, enemies per tier dropping the tier's
  hide-like material, and unique bosses on the top tiers dropping trophies for relic weapons.

All randomness comes from one `random.Random(seed)` and nothing iterates a set, so a preset and a
seed give the same JSON text in every process.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs

# The ids the base rules hard-code (world-definition spec, section 7); every other id is made up.
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

# --- word tables: original syllables plus plain nouns (no names from the spec or other games) ---


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


ONSETS = _words("b br d dr f g gr h k kr l m n p pr r s sk st t th tr v z sh ch w y")
# Plain vowels repeated so that most syllables stay short and easy to type.
VOWELS = _words("a e i o u a e i o ae ei ou")
CODAS = ("", "", "", *_words("n r l s th k m nd rn st x"))
LANDFORMS = _words(
    "Fen Vale Marches Downs Steppe Weald Mire Heights Crossing Terrace Shoals Barrens Thicket "
    "Gorge Plateau Strand Moor Basin Ridge Wilds Sprawl Fields Narrows Bluffs"
)
# Object adjectives; all start with a consonant so that "A {adj}" always reads right.
ADJECTIVES = _words(
    "pitted glossy heavy streaked brittle dense dull well-worn speckled sturdy rough polished "
    "humming scarred pale dark knotted gleaming"
)
FOLK_ADJECTIVES = _words("weathered wary cheerful gaunt restless quiet stooped")
BEAST_ADJECTIVES = _words("snarling ragged hungry hulking scarred venomous twitching")
CREATURES = _words(
    "stalker lurker hound wisp prowler gnawer husk brute skulker moth serpent beetle hulk "
    "raptor leech golem"
)
BOSS_TITLES = _words("tyrant matriarch colossus sovereign warlord devourer")
TRADES = _words("chandler peddler broker outfitter monger factor")
VILLAGER_ROLES = _words("herder gleaner tinker drover forager cooper")


@attrs.frozen
class Role:
    """What kind of object a role makes: its category/usage pair, size, names and descriptions."""

    category: str
    usage: str
    size: int | None
    nouns: tuple[str, ...]
    sentences: tuple[str, ...]  # one-sentence templates; {adj} and {noun} are filled in
    priced: bool = True  # False: "value": null (currency, stations)


def _role(pair: str, size: int | None, nouns: str, *sentences: str, priced: bool = True) -> Role:
    category, usage = pair.split("/")
    return Role(category, usage, size, _words(nouns), sentences, priced)


ROLES: Mapping[str, Role] = MappingProxyType(
    {
        "coin": _role(
            "currency/exchange", 0, "coin", "A {adj} disc of minted metal.", priced=False
        ),
        "raw": _role("material/craft", 1, "", "A {adj} piece of {noun} gathered in the wilds."),
        "processed": _role("material/craft", 1, "", "A {adj} {noun}, worked from rougher stuff."),
        "stone": _role("material/craft", 1, "stone slab cobble", "A {adj} chunk of {noun}."),
        "ore": _role("material/craft", 1, "ore lode nugget", "A {adj} lump of {noun}."),
        "ingot": _role("material/craft", 1, "ingot bar billet", "A {adj} {noun} smelted from ore."),
        "drop": _role(
            "material/craft",
            1,
            "pelt fang chitin scale ichor horn claw gland quill",
            "A {adj} {noun} taken from a slain creature.",
        ),
        "trophy": _role(
            "material/craft", 1, "heart crown eye core sigil", "The {adj} {noun} of a fearsome foe."
        ),
        "component": _role(
            "material/craft",
            1,
            "rivet hilt strap fitting buckle grip binding rod hinge",
            "A {adj} {noun} that goes into finer gear.",
        ),
        "refinement": _role(
            "material/craft",
            1,
            "filigree temper inlay etching gilding",
            "A {adj} {noun} of the highest craft.",
        ),
        "blank": _role("material/craft", 1, "blank", "A {adj} {noun}, ready to be cut into a key."),
        "key": _role("tool/unlock", 1, "key", "A {adj} key that opens locked ways."),
        "lockpick": _role("tool/lockpick", 1, "pick probe shim", "A {adj} {noun} for easy locks."),
        "container": _role(
            "container/store", 3, "satchel haversack rucksack", "A {adj} {noun} for a modest load."
        ),
        "writable": _role(
            "tool/writable", 1, "sheet scroll vellum folio", "A {adj} {noun} with room for notes."
        ),
        "pen": _role("tool/write", 1, "stylus scriber nib", "A {adj} {noun} for writing notes."),
        "weapon": _role(
            "weapon/attack",
            3,
            "blade glaive cleaver maul halberd saber warpick falchion spear hatchet flail scythe",
            "A {adj} {noun} that hits harder than bare hands.",
            "A {adj} {noun}, balanced for a fight.",
        ),
        "armor": _role(
            "armor/defend",
            4,
            "hauberk cuirass brigandine vest helm mantle buckler breastplate coif tabard",
            "A {adj} {noun} that turns aside some blows.",
        ),
        "bench": _role(
            "station/craft",
            None,
            "bench trestle worktop",
            "A {adj} {noun}; most gear is put together next to one.",
            priced=False,
        ),
        "smelter": _role(
            "station/craft",
            None,
            "smelter hearth kiln crucible bloomery smeltery retort cupola",
            "A {adj} {noun}; ore and stranger stuff is rendered down next to one.",
            priced=False,
        ),
    }
)


@attrs.frozen
class MaterialKind:
    """A raw material and the one processed form made from it (a 'material family')."""

    raw_nouns: str
    processed_nouns: str
    quantity: float  # raw units per processed unit; a fraction means one raw yields several
    is_smelted: bool  # made at the tier's smelting station rather than at the bench


MATERIAL_KINDS = (
    MaterialKind("log bough stalk", "plank lath batten", 0.5, False),
    MaterialKind("fiber reed floss", "cloth weave twill", 2, False),
    MaterialKind("crystal geode prism", "shard lens facet", 0.25, False),
    MaterialKind("sap resin gum", "glue varnish lacquer", 2, True),
    MaterialKind("clay loam silt", "tile brick pot", 1, True),
    MaterialKind("salt brine grit", "flux powder paste", 0.5, True),
)
TIMBER, FIBER = MATERIAL_KINDS[0], MATERIAL_KINDS[1]

# Combat rhythm draws (world-definition spec, section 4.1): mostly attacks.
PATTERN_ACTIONS = ("attack", "defend", "wait")
PATTERN_WEIGHTS = (0.55, 0.25, 0.2)
# Extra roster entries and their draw weights (a family counts double: it adds two objects).
EXTRA_KINDS = ("family", "component", "weapon", "armor")
EXTRA_WEIGHTS = (3, 2, 2, 2)
RAW_AREA_SHARE = 0.4  # share of a level's areas that list one raw material of that level
TIERS_PER_SMELTER = 3  # a new smelting station every three tiers (the furnace serves the first)
MERCHANT_STOCK = 8
VALUE_MARKUP = 1.25  # crafted goods sell for their ingredients' worth plus a quarter plus the level


class _NameBook:
    """Generated words and names, each handed out once (the set is only tested, never iterated)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def claim(self, name: str) -> bool:
        if name in self.used:
            return False
        self.used.add(name)
        return True

    def word(self, syllables: int = 2) -> str:
        while True:
            parts = [self.rng.choice(ONSETS) + self.rng.choice(VOWELS) for _ in range(syllables)]
            word = "".join(parts) + self.rng.choice(CODAS)
            if self.claim(word):
                return word

    def compound(self, nouns: Sequence[str], stem: str | None = None) -> str:
        """`<stem>_<noun>` with a free noun for the given stem, else with a fresh stem."""
        if stem is not None:
            for noun in self.rng.sample(list(nouns), len(nouns)):
                if self.claim(f"{stem}_{noun}"):
                    return f"{stem}_{noun}"
        while True:
            name = f"{self.word()}_{self.rng.choice(nouns)}"
            if self.claim(name):
                return name


@attrs.define
class _Tier:
    """What later recipes of one material tier (= area level) build on."""

    level: int
    stem: str = ""  # shared by the tier's ore, ingot and most of its gear
    ingot: str = ""
    drop: str = ""
    smelter: str = ""  # station for the tier's ingots and smelted materials
    parts: list[str] = attrs.Factory(list)  # processed materials used as secondary ingredients
    raws: list[str] = attrs.Factory(list)


@attrs.define
class _Build:
    """Working state of one generation run."""

    spec: ProcgenSpec
    rng: random.Random
    names: _NameBook
    places: list[dict[str, Any]] = attrs.Factory(list)
    areas_by_level: dict[int, list[str]] = attrs.Factory(dict)  # non-spawn areas only
    spawn_area: str = ""
    objects: dict[str, dict[str, Any]] = attrs.Factory(dict)
    depth: dict[str, int] = attrs.Factory(dict)  # longest recipe chain ending in each object
    roles: dict[str, str] = attrs.Factory(dict)  # fixed role -> object id (bench, pen ...)
    tiers: list[_Tier] = attrs.Factory(list)
    trophies: list[tuple[_Tier, str]] = attrs.Factory(list)
    undistributable: list[str] = attrs.Factory(list)


# --- geography ---


def _place_sizes(spec: ProcgenSpec, rng: random.Random) -> list[int]:
    """Place sizes within `areas_per_place` adding up to exactly `target_areas`."""
    low, high = spec.areas_per_place
    count = math.ceil(spec.target_areas / ((low + high) / 2))
    count = min(max(count, math.ceil(spec.target_areas / high)), spec.target_areas // low)
    sizes = [low] * count
    for _ in range(spec.target_areas - low * count):
        sizes[rng.choice([i for i, size in enumerate(sizes) if size < high])] += 1
    return sizes


def _new_area(build: _Build, index: int) -> dict[str, Any]:
    spec, rng = build.spec, build.rng
    # Levels climb along the line of places, so distance from the spawn means difficulty.
    level = 1 + index * spec.max_level // spec.target_areas
    name = build.names.word(rng.choice((2, 2, 3)))
    lit = index == 0 or rng.random() < spec.lit_area_fraction
    area = {"type": "area", "id": f"area_{name}", "name": name, "level": level, "light": lit}
    if index == 0:
        build.spawn_area = area["id"]
    else:
        build.areas_by_level.setdefault(level, []).append(area["id"])
    return area


def _build_places(build: _Build) -> None:
    spec, rng = build.spec, build.rng
    sizes = _place_sizes(spec, rng)
    locked_count = min(len(sizes) - 1, int(spec.locked_place_fraction * len(sizes) + 0.5))
    locked = set(rng.sample(range(1, len(sizes)), locked_count))
    first = 0
    for index, size in enumerate(sizes):
        name = f"{build.names.word().capitalize()} {rng.choice(LANDFORMS)}"
        areas = [_new_area(build, first + i) for i in range(size)]
        first += size
        place_id = "place_" + name.lower().replace(" ", "_")
        place = {"type": "place", "id": place_id, "name": name, "unlocked": index not in locked}
        build.places.append({**place, "areas": areas})


def _pick_areas(build: _Build, level: int, share: float) -> list[str]:
    """A random share (at least one) of the non-spawn areas of `level`, in definition order."""
    pool = build.areas_by_level[level]
    count = max(1, min(len(pool), round(len(pool) * share)))
    chosen = set(build.rng.sample(pool, count))
    return [area for area in pool if area in chosen]


# --- objects ---


def _add(
    build: _Build,
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


def _recipe_value(build: _Build, ingredients: Mapping[str, float]) -> int:
    cost = sum(qty * (build.objects[oid]["value"] or 0) for oid, qty in ingredients.items())
    return math.ceil(cost * VALUE_MARKUP)


def _add_raw(build: _Build, role: str, level: int, value: int, **fields: Any) -> str:
    areas = _pick_areas(build, level, RAW_AREA_SHARE)
    return _add(build, role, level, value=value, areas=areas, **fields)


def _add_family(
    build: _Build, tier: _Tier, kind: MaterialKind, raw_value: int, station: str | None = None
) -> tuple[str, str]:
    """A raw material and its processed form (a new part of the tier); returns both ids.

    `station` overrides where the processed form is made (the timber's plank needs the bench,
    which is itself made of timber, so the bench is created in between).
    """
    stem, names = build.names.word(), build.names
    raw_name = names.compound(_words(kind.raw_nouns), stem)
    raw = _add_raw(build, "raw", tier.level, raw_value, name=raw_name)
    if station is None:
        station = tier.smelter if kind.is_smelted else build.roles["bench"]
    elif not station:
        station = build.roles["bench"] = _add(build, "bench", 1, {raw: 4})
    part_name = names.compound(_words(kind.processed_nouns), stem)
    recipe = {raw: kind.quantity}
    part = _add(build, "processed", tier.level, recipe, dependencies=[station], name=part_name)
    tier.raws.append(raw)
    tier.parts.append(part)
    return raw, part


def _add_basics(build: _Build, tier: _Tier) -> None:
    """Tier-1 staples: coin, a cheap timber (value 2) with the bench made of it (no station needed)
    and its plank, stone, the furnace (found in a few areas, or made at the bench), fiber, cloth."""
    roles = build.roles
    _add(build, "coin", 1, name="coin", object_id=COIN_ID)
    roles["timber"], roles["plank"] = _add_family(build, tier, TIMBER, 2, station="")
    roles["stone"] = _add_raw(build, "stone", 1, 3)
    furnace_areas = _pick_areas(build, 1, 0.2)
    tier.smelter = roles["furnace"] = _add(
        build, "smelter", 1, {roles["stone"]: 6}, dependencies=[roles["bench"]], areas=furnace_areas
    )
    roles["fiber"], roles["cloth"] = _add_family(build, tier, FIBER, 2)
    tier.raws.append(roles["stone"])


def _add_tools(build: _Build, tier: _Tier) -> None:
    """Key blank and key, lockpick, container, writable and pen: level 1, from tier-1 goods."""
    roles, bench = build.roles, [build.roles["bench"]]
    blank = _add(build, "blank", 1, {tier.ingot: 0.5}, dependencies=bench)
    _add(build, "key", 1, {blank: 1}, dependencies=bench, name="key", object_id=KEY_ID)
    _add(build, "lockpick", 1, {tier.ingot: 0.25}, dependencies=bench)
    roles["container"] = _add(
        build, "container", 1, {roles["cloth"]: 3}, dependencies=bench, capacity=15
    )
    # No station on purpose: a writable without dependencies joins the global distribution pool
    # (synthesis spec, section 6.2), so sheets also turn up in the world.
    roles["writable"] = _add(
        build, "writable", 1, {roles["fiber"]: 1}, text="", max_text_length=120
    )
    roles["pen"] = _add(build, "pen", 1, {roles["timber"]: 0.5}, dependencies=bench)


def _weapon_attack(level: int) -> int:
    return 4 + 5 * (level - 1)  # steps of 5 keep every variant (-2..+3) above the tier below


def _armor_defense(level: int) -> int:
    return 2 + 3 * (level - 1)  # steps of 3 keep every variant (-1..+1) above the tier below


def _secondary(build: _Build, tier: _Tier) -> str:
    return build.rng.choice(tier.parts) if tier.parts else build.roles["plank"]


def _add_gear(
    build: _Build, tier: _Tier, role: str, ingredients: dict[str, float], bonus: int
) -> str:
    """A weapon (attack) or armour (defense) of the tier, made at the bench."""
    stat, base = ("attack", _weapon_attack) if role == "weapon" else ("defense", _armor_defense)
    bench = [build.roles["bench"]]
    gear = {stat: base(tier.level) + bonus, "stem": tier.stem}
    return _add(build, role, tier.level, ingredients, dependencies=bench, **gear)


def _add_metal(build: _Build, tier: _Tier) -> None:
    """The tier's smelter (new every few tiers), ore and ingot, and the enemies' drop material."""
    if tier.level > 1:
        below = build.tiers[tier.level - 2]
        tier.smelter = below.smelter
        if (tier.level - 1) % TIERS_PER_SMELTER == 0:
            areas = _pick_areas(build, tier.level, 0.1)
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


def _add_tier_core(build: _Build, tier: _Tier) -> None:
    _add_metal(build, tier)
    if tier.level == 1:
        _add_tools(build, tier)
    else:
        kind = build.rng.choice(MATERIAL_KINDS[2:])
        _add_family(build, tier, kind, 2 * tier.level + build.rng.randint(0, 2))
    _add_gear(build, tier, "weapon", {tier.ingot: 2, _secondary(build, tier): 1}, 0)
    _add_gear(build, tier, "armor", {tier.ingot: 1, tier.drop: 2}, 0)


def _add_extra(build: _Build, tier: _Tier) -> None:
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


def _add_trophies(build: _Build) -> None:
    """Bosses sit on the top tiers, one per tier from the top down; each drops a trophy that goes
    into a relic weapon of its tier."""
    top_down = build.tiers[::-1]
    for i in range(build.spec.boss_count):
        tier = top_down[i % len(top_down)]
        trophy = _add(build, "trophy", tier.level, value=40 * tier.level)
        build.undistributable.append(trophy)
        build.trophies.append((tier, trophy))
        _add_gear(build, tier, "weapon", {trophy: 1, tier.ingot: 2}, 3)


def _deepen_recipes(build: _Build) -> None:
    """Stack refinements on the top tier until the longest recipe chain reaches the spec's depth
    (the alloy ladder already does for the presets; small custom specs may need this)."""
    top = build.tiers[-1]
    while max(build.depth.values()) < build.spec.crafting_depth:
        materials = [oid for oid, obj in build.objects.items() if obj["category"] == "material"]
        deepest = max(materials, key=build.depth.__getitem__)
        recipe = {deepest: 1, top.ingot: 0.5}
        _add(build, "refinement", top.level, recipe, dependencies=[top.smelter], stem=top.stem)


def _cover_areas(build: _Build) -> None:
    """Give every non-spawn area at least one raw material native to its level."""
    raws = [obj for obj in build.objects.values() if not obj["craft"]["ingredients"]]
    listed = {area for obj in raws for area in obj.get("areas", ())}
    for tier in build.tiers:
        for area in build.areas_by_level.get(tier.level, []):
            if area not in listed:
                build.objects[build.rng.choice(tier.raws)]["areas"].append(area)


def _build_objects(build: _Build) -> None:
    build.tiers = [_Tier(level) for level in range(1, build.spec.max_level + 1)]
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


# --- NPCs ---


def _npc(build: _Build, name: str, role: str, objects: list[str], **fields: Any) -> dict[str, Any]:
    noun, rng = name.replace("_", " "), build.rng
    sentences = {
        "merchant": f"A trader called the {noun}, selling goods for coin.",
        "villager": f"A {rng.choice(FOLK_ADJECTIVES)} {noun} going about the day's work.",
        "beast": f"A {rng.choice(BEAST_ADJECTIVES)} {noun} that attacks anyone close by.",
        "boss": f"The {noun}, a {rng.choice(BEAST_ADJECTIVES)} terror that rules its lair.",
    }
    npc = {"type": "npc", "id": f"npc_{name}", "name": name, "role": role}
    return {**npc, "description": sentences[role], "objects": objects, **fields}


def _merchants(build: _Build) -> list[dict[str, Any]]:
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


def _villagers(build: _Build) -> list[dict[str, Any]]:
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


def _enemies(build: _Build) -> list[dict[str, Any]]:
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


def _bosses(build: _Build) -> list[dict[str, Any]]:
    bosses = []
    for tier, trophy in build.trophies:
        combat = _combat(build.rng, tier.level, 3.0, build.rng.randint(5, 6))
        name = build.names.compound(BOSS_TITLES)
        bosses.append(
            _npc(build, name, "boss", [trophy, tier.drop], enemy=True, unique=True, **combat)
        )
    return bosses


# --- public surface ---


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
    build = _Build(spec=spec, rng=rng, names=_NameBook(rng))
    _build_places(build)
    _build_objects(build)
    npcs = _merchants(build) + _villagers(build) + _enemies(build) + _bosses(build)
    basics = ("container", "writable", "pen", "bench")
    spawn_objects = {COIN_ID: 10, KEY_ID: 1, **{build.roles[role]: 1 for role in basics}}
    return {
        "entities": {"places": build.places, "objects": list(build.objects.values()), "npcs": npcs},
        "initializations": {
            "spawn": {"area": build.spawn_area, "objects": spawn_objects, "npcs": {}},
            "undistributable_objects": build.undistributable,
        },
        "custom_events": list(spec.custom_events),
        "features": {"online_expansion": False},
    }


def write_definition(preset: str | ProcgenSpec, seed: int, path: str | os.PathLike[str]) -> Path:
    """Write a generated definition as indented JSON, creating parent folders; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(generate_definition(preset, seed), indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path
