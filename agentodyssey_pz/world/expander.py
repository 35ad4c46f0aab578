"""The default world-expansion generator (`ProceduralExpander`) and `world_to_definition`.

Layer: world core; no network, no language model. A generator is any callable
`(world, seed) -> expansion spec` in the format `World.expand` takes
(docs/mechanics/world-synthesis.md#world-expansion): `{"places": [...], "objects": [...], "npcs":
[...]}`. The default one grows the world by one tier at its frontier (the highest area level so
far):

* 1-2 new unlocked places of 2-3 areas each, at levels frontier+1 (first place) and frontier+2
  (second place; a single place may have one area at frontier+2);
* 4-8 new objects: a raw material per new level listing the new areas of that level (and maybe a
  second one), 1-2 processed materials made from a new raw and the best existing material, and a
  weapon and an armour of the new tier made from the processed ones, all at a station the world
  already makes reachable;
* 1-2 NPC prototypes: an enemy stronger than the strongest enemy so far, and maybe a unique merchant
  stocking the new materials.

Everything is derived from the world's data (its best weapon, armour, enemy, materials and stations
are found by category, usage and level), names are original syllable words checked against every id
and name in the world, and all randomness comes from `random.Random(seed)` over definition-ordered
data, so the expansion is a function of (world, seed).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable
from typing import Any

import attrs

from agentodyssey_pz.world.entities import definition_id
from agentodyssey_pz.world.graph import KEY, LOCKED, ORDER, OWNER
from agentodyssey_pz.world.schema import (
    CONVERTER,
    ENEMY_STAT_DEFAULTS,
    ObjectDef,
    definition_to_dict,
)
from agentodyssey_pz.world.wordbook import (
    ADJECTIVES,
    BEAST_ADJECTIVES,
    CODAS,
    CREATURES,
    LANDFORMS,
    ONSETS,
    PATTERN_ACTIONS,
    PATTERN_WEIGHTS,
    ROLES,
    TRADES,
    VOWELS,
)
from agentodyssey_pz.world.world import World

MERCHANT_ROLE = "merchant"  # the one NPC role with engine meaning (buy/sell)
RAW_NOUNS = ("ore", "shard", "root", "moss", "salt", "spore", "husk", "resin", "flake", "bloom")
PROCESSED_NOUNS = ("alloy", "weave", "paste", "plate", "cord", "glaze", "ingot", "temper")
QUANTITIES = (0.5, 1, 2)
VALUE_MARKUP = 1.25  # crafted goods are worth their ingredients plus a quarter plus their level
ENEMY_GROWTH_PERCENT = 15  # a new enemy's stats grow this many percent per level past the frontier
FALLBACK_WEAPON = (4, 5, 3)  # attack at level 1, attack per level, size (worlds without weapons)
FALLBACK_ARMOR = (2, 3, 4)  # defense at level 1, defense per level, size
FALLBACK_ENEMY_ROLE = "beast"  # role of the new enemy when the world has no enemy to copy
LONE_PLACE_STEP_PROBABILITY = 0.5  # chance a lone new place ends in an area two levels up


# ---------------------------------------------------------------------------- what is reachable
def obtainable_objects(world: World) -> set[str]:
    """Definition ids an agent can get: found in a (non-spawn) area, lying at spawn, dropped by a
    non-quest NPC, or craftable from obtainable ingredients at obtainable stations (fixpoint)."""
    und = set(world.definition.initializations.undistributable_objects)
    dist = set(world.areas) - {world.spawn_area}
    spawn = world.definition.initializations.spawn
    have = {o.id for o in world.objects.values() if o.id not in und and dist.intersection(o.areas)}
    have |= set(spawn.objects if spawn is not None else ())
    have |= {oid for p in world.npc_protos.values() if not p.quest for oid in p.objects}
    pending = [o for o in world.objects.values() if o.is_craftable and o.id not in have]
    while True:
        ready = [
            o for o in pending
            if all(i in have for i in o.craft.ingredients)
            and all(d in have for d in o.craft.dependencies)
        ]  # fmt: skip
        if not ready:
            return have
        have |= {o.id for o in ready}
        pending = [o for o in pending if o.id not in have]


# ---------------------------------------------------------------------------- names
class _Names:
    """Original names: syllable words checked (case-insensitively) against every id and name."""

    def __init__(self, world: World, rng: random.Random) -> None:
        self.rng = rng
        taken: list[str] = [*world.objects, *world.obj_name_to_id, *world.npc_protos]
        taken += [o.name for o in world.objects.values()]
        taken += [n.name for n in world.npc_protos.values()]
        taken += [*world.npcs, *world.npc_name_to_id, *world.areas, *world.places]
        taken += [a.name for a in world.areas.values()] + [p.name for p in world.places.values()]
        self.used = {definition_id(t).casefold() for t in taken} | {t.casefold() for t in taken}

    def claim(self, *texts: str) -> bool:
        folded = [t.casefold() for t in texts]
        if any(f in self.used for f in folded):
            return False
        self.used.update(folded)
        return True

    def word(self) -> str:
        rng = self.rng
        syllables = rng.choice((2, 2, 3))
        return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(syllables)) + (
            rng.choice(CODAS)
        )

    def pair(self, prefix: str, nouns: tuple[str, ...] | None = None) -> tuple[str, str]:
        """A fresh (id, name): name `<word>` or `<word>_<noun>`, id `<prefix>_<name>`."""
        while True:
            name = self.word() if nouns is None else f"{self.word()}_{self.rng.choice(nouns)}"
            if self.claim(name, f"{prefix}_{name}"):
                return f"{prefix}_{name}", name

    def place(self) -> tuple[str, str]:
        while True:
            name = f"{self.word().capitalize()} {self.rng.choice(LANDFORMS)}"
            pid = "place_" + name.lower().replace(" ", "_")
            if self.claim(name, pid):
                return pid, name


# ---------------------------------------------------------------------------- the generator
@attrs.frozen
class ProceduralExpander:
    """Default offline expansion generator: `expander(world, seed)` -> expansion spec dict.

    The generator reads the world and never changes it."""

    place_count: tuple[int, int] = (1, 2)
    areas_per_place: tuple[int, int] = (2, 3)
    merchant_probability: float = 0.5
    extra_raw_probability: float = 0.5
    second_part_probability: float = 0.5

    def __attrs_post_init__(self) -> None:
        for field in ("place_count", "areas_per_place"):
            low, high = getattr(self, field)
            if not 1 <= low <= high:
                raise ValueError(
                    f"ProceduralExpander.{field}: need 1 <= low <= high, got {low, high}"
                )
        for field in ("merchant_probability", "extra_raw_probability", "second_part_probability"):
            if not 0.0 <= getattr(self, field) <= 1.0:
                raise ValueError(f"ProceduralExpander.{field}: must lie in [0, 1]")

    def __call__(self, world: World, seed: int) -> dict[str, Any]:
        return _Expansion(self, world, random.Random(seed)).build()


class _Expansion:
    """Working state of one generation run."""

    def __init__(self, cfg: ProceduralExpander, world: World, rng: random.Random) -> None:
        self.cfg, self.world, self.rng = cfg, world, rng
        self.names = _Names(world, rng)
        self.objects: dict[str, dict[str, Any]] = {}
        self.have = obtainable_objects(world)
        und = set(world.definition.initializations.undistributable_objects)
        self.usable = [
            o for o in world.objects.values()
            if o.id in self.have and o.id not in und and not o.quest
        ]  # fmt: skip
        self.frontier = max((a.level for a in world.areas.values()), default=1)

    def build(self) -> dict[str, Any]:
        rng, cfg = self.rng, self.cfg
        places = self.new_places()
        by_level: dict[int, list[str]] = {}
        for place in places:
            for area in place["areas"]:
                by_level.setdefault(area["level"], []).append(area["id"])
        tiers = sorted(by_level)
        tier = tiers[-1]
        raws = [self.raw(level, by_level[level]) for level in tiers]
        if rng.random() < cfg.extra_raw_probability:
            top = by_level[tier]
            raws.append(
                self.raw(tier, sorted(rng.sample(top, rng.randint(1, len(top))), key=top.index))
            )
        bases = self.existing_materials()
        station = self.gear_station()
        parts = [self.part(tiers[0], raws[0], bases[:1], station)]
        if len(tiers) > 1 or rng.random() < cfg.second_part_probability:
            # Every raw goes into some recipe: the first here, the second in this part, the last
            # in the armour.
            second = bases[1:] or [parts[0]]
            parts.append(self.part(tier, raws[min(1, len(raws) - 1)], second, station))
        if len(parts) > 1:
            weapon_recipe = {parts[-1]: 2.0, parts[0]: 1.0}
        else:
            weapon_recipe = {parts[0]: 2.0, raws[-1]: 1.0}
        self.gear("weapon", tier, weapon_recipe, station)
        self.gear("armor", tier, {parts[0]: 2.0, raws[-1]: 1.0}, station)
        npcs = [self.enemy(tier, raws)]
        if rng.random() < cfg.merchant_probability:
            npcs.append(self.merchant(raws + parts))
        found = [b for b in bases if self.world.objects[b].areas]
        for place in places:  # the existing ingredients also turn up in the new areas
            for area in place["areas"]:
                if found:
                    area["existing_objects"] = list(found)
        return {"places": places, "objects": list(self.objects.values()), "npcs": npcs}

    # ------------------------------------------------------------------ places
    def new_places(self) -> list[dict[str, Any]]:
        """First place one level beyond the frontier, a second one two levels beyond; a lone
        place may reach two levels beyond with its last area."""
        rng, first = self.rng, self.frontier + 1
        count = rng.randint(*self.cfg.place_count)
        places = []
        for index in range(count):
            pid, name = self.names.place()
            size = rng.randint(*self.cfg.areas_per_place)
            levels = [first + min(index, 1)] * size
            if count == 1 and rng.random() < LONE_PLACE_STEP_PROBABILITY:
                levels[-1] = first + 1
            areas = []
            for level in levels:
                aid, area_name = self.names.pair("area")
                areas.append({"type": "area", "id": aid, "name": area_name, "level": level})
            places.append(
                {"type": "place", "id": pid, "name": name, "unlocked": True, "areas": areas}
            )
        return places

    # ------------------------------------------------------------------ objects
    def add(self, role: str, level: int, nouns: tuple[str, ...], **fields: Any) -> str:
        spec, rng = ROLES[role], self.rng
        oid, name = self.names.pair("obj", nouns)
        ingredients: dict[str, float] = fields.pop("ingredients", {})
        dependencies: list[str] = fields.pop("dependencies", [])
        value = fields.pop("value", None)
        if value is None:
            value = math.ceil(
                VALUE_MARKUP * sum(q * self.value_of(i) for i, q in ingredients.items())
            )
            value += level
        noun = name.replace("_", " ")
        sentence = rng.choice(spec.sentences).format(adj=rng.choice(ADJECTIVES), noun=noun)
        self.objects[oid] = {
            "type": "object", "id": oid, "name": name, "category": spec.category,
            "usage": spec.usage, "value": value, "size": fields.pop("size", spec.size),
            "level": level, "description": sentence, **fields,
            "craft": {"ingredients": ingredients, "dependencies": dependencies},
        }  # fmt: skip
        return oid

    def value_of(self, oid: str) -> int:
        if oid in self.objects:
            return self.objects[oid]["value"] or 0
        return self.world.objects[oid].value or 0

    def raw(self, level: int, areas: list[str]) -> str:
        value = 2 * level + 1 + self.rng.randint(0, 2)
        return self.add("raw", level, RAW_NOUNS, value=value, areas=list(areas))

    def part(self, level: int, raw: str, others: list[str], station: str | None) -> str:
        """A processed material: a new raw plus an existing (or earlier new) material."""
        recipe = {raw: float(self.rng.choice(QUANTITIES))}
        for other in others:
            recipe[other] = float(self.rng.choice(QUANTITIES[:2]))
        own = self.world.objects.get(others[0]) if others else None
        deps = [d for d in (own.craft.dependencies if own else ()) if self.is_station(d)][:1]
        deps = deps or ([station] if station else [])
        return self.add("processed", level, PROCESSED_NOUNS, ingredients=recipe, dependencies=deps)

    def gear(self, role: str, level: int, recipe: dict[str, float], station: str | None) -> str:
        stat, (base, per, size) = (
            ("attack", FALLBACK_WEAPON) if role == "weapon" else ("defense", FALLBACK_ARMOR)
        )
        best = self.best_gear(role, stat)
        if best is None:
            power = base + per * (level - 1)
        else:
            step = max(1, math.ceil(getattr(best, stat) / max(1, best.level)))
            power = getattr(best, stat) + max(1, step * (level - best.level))
            size = best.size if best.size is not None else size
        deps = [station] if station else []
        return self.add(
            role, level, ROLES[role].nouns, ingredients=recipe, dependencies=deps,
            size=size, **{stat: power},
        )  # fmt: skip

    def best_gear(self, role: str, stat: str) -> ObjectDef | None:
        category = ROLES[role].category
        gear = [o for o in self.world.objects.values() if o.category == category and not o.quest]
        return max(gear, key=lambda o: (getattr(o, stat), o.level), default=None)

    def existing_materials(self) -> list[str]:
        """1-2 obtainable materials from the top two levels of the world's materials."""
        materials = [o for o in self.usable if o.category == ROLES["raw"].category]
        if not materials:
            return []
        levels = sorted({o.level for o in materials}, reverse=True)[:2]
        pool = [o.id for o in materials if o.level in levels]
        return self.rng.sample(pool, min(2, len(pool)))

    def is_station(self, oid: str) -> bool:
        obj = self.world.objects.get(oid)
        return obj is not None and obj.is_station and oid in self.have and not obj.quest

    def gear_station(self) -> str | None:
        """The station the world's best obtainable gear is made at (else any station in use)."""
        gear = [o for o in self.usable if o.category in ("weapon", "armor") and o.is_craftable]
        gear.sort(key=lambda o: -o.level)
        for obj in [*gear, *(o for o in self.usable if o.is_craftable)]:
            for dep in obj.craft.dependencies:
                if self.is_station(dep):
                    return dep
        return next((o.id for o in self.world.objects.values() if self.is_station(o.id)), None)

    # ------------------------------------------------------------------ NPCs
    def enemy(self, level: int, raws: list[str]) -> dict[str, Any]:
        """Stronger than the world's strongest enemy, by a share per level beyond the frontier."""
        rng = self.rng
        enemies = [p for p in self.world.npc_protos.values() if p.enemy and not p.quest]
        # Scale from the ordinary (non-unique) enemies; unique ones are usually bosses.
        enemies = [p for p in enemies if not p.unique] or enemies
        span = self.frontier - 1
        strongest = max(
            enemies,
            key=lambda p: (p.hp_at_level_1 + p.hp_per_level * span, p.attack_at_level_1),
            default=None,
        )
        if strongest is None:
            stats, role, length = dict(ENEMY_STAT_DEFAULTS), FALLBACK_ENEMY_ROLE, 4
        else:
            stats = {
                "base_hp": strongest.hp_at_level_1, "slope_hp": strongest.hp_per_level,
                "base_attack_power": strongest.attack_at_level_1,
                "slope_attack_power": strongest.attack_per_level,
            }  # fmt: skip
            role, length = strongest.role, min(6, max(3, len(strongest.pattern)))
        percent = 100 + ENEMY_GROWTH_PERCENT * (level - self.frontier)
        stats = {key: max(1, -(-value * percent // 100)) for key, value in stats.items()}  # ceil
        pattern = rng.choices(PATTERN_ACTIONS, weights=PATTERN_WEIGHTS, k=length)
        if "attack" not in pattern:
            pattern[0] = "attack"
        npc_id, name = self.names.pair("npc", CREATURES)
        adjective, noun = rng.choice(BEAST_ADJECTIVES), name.replace("_", " ")
        text = f"A {adjective} {noun} that attacks anyone close by."
        return {
            "type": "npc", "id": npc_id, "name": name, "role": role, "enemy": True,
            "unique": False, "description": text, "objects": [*raws, raws[-1]],
            **stats, "combat_pattern": pattern,
        }  # fmt: skip

    def merchant(self, stock: list[str]) -> dict[str, Any]:
        npc_id, name = self.names.pair("npc", TRADES)
        text = f"A trader called the {name.replace('_', ' ')}, selling goods for coin."
        return {
            "type": "npc", "id": npc_id, "name": name, "role": MERCHANT_ROLE, "enemy": False,
            "unique": True, "description": text, "objects": list(stock),
        }  # fmt: skip


# ---------------------------------------------------------------------------- exporting
def world_to_definition(world: World, skip_places: Collection[str] = ()) -> dict[str, Any]:
    """The world as it is now, as a world-definition dict (`check_definition` accepts it).

    Places and areas come from the live world (levels and light as synthesised), objects and NPC
    prototypes include everything expansions added, and the map is written as a predefined `graph`
    (every path with its lock and key), so loading the result gives the same geography. Places in
    `skip_places` (e.g. a tutorial place) and personal paths are left out; initializations,
    custom events, features and extra keys are the world definition's.
    """
    data = definition_to_dict(world.definition)
    skipped = {a for p in skip_places if p in world.places for a in world.places[p].area_ids}
    places = []
    for place in world.places.values():
        if place.id in skip_places:
            continue
        areas = [_area_record(world, aid) for aid in place.area_ids]
        places.append({"type": place.type, "id": place.id, "name": place.name,
                       "unlocked": place.unlocked, "areas": areas})  # fmt: skip
    entities = data["entities"]
    entities["places"] = places
    entities["objects"] = [CONVERTER.unstructure(o) for o in world.objects.values()]
    entities["npcs"] = [CONVERTER.unstructure(n) for n in world.npc_protos.values()]
    data["graph"] = {"connections": list(_connections(world, skipped))}
    return data


def _area_record(world: World, area_id: str) -> dict[str, Any]:
    area = world.areas[area_id]
    return {"type": area.type, "id": area.id, "name": area.name, "level": area.level,
            "light": area.light}  # fmt: skip


def _connections(world: World, skipped: set[str]) -> Iterable[dict[str, Any]]:
    edges = sorted(world.graph.nx.edges(data=True), key=lambda e: e[2][ORDER])
    for a, b, data in edges:
        if data[OWNER] is None and a not in skipped and b not in skipped:
            yield {"from": a, "to": b, "locked": data[LOCKED], "key": data[KEY]}
