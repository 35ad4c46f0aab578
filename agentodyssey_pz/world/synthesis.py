"""World synthesis: definition + seed -> `World`, in the reference engine's six stages.

Layer: world core. Each stage draws only from its own generator (see `rng.py`) and makes exactly the
reference's sequence of calls, so a definition that uses the base generator gives the reference's
world for the same seed: same objects per area, NPC instances (level, hp, attack, coins, inventory),
paths with their locks and keys, and instance ids. The stages are those of
docs/mechanics/world-synthesis.md.

Two reference quirks that shape the random stream or the result are kept by default and can be
switched off in `SynthesisOptions`; every other quirk of docs/mechanics/world-synthesis.md is fixed
(see the notes at each stage).

The world's variant (`World.variant`, from `features.synthesis`; `variants.py`) says where the
generators AgentOdyssey built quarantine, remnant and mark with differ from the base one: stream
order, a lit spawn, the predefined graph, the guarantee stage, draw counts, enemy budgets, loot
counts and default rhythms. NPCs that rules create later (`create_npc`) follow it too.
"""

from __future__ import annotations

import itertools
import logging
import random
from collections.abc import Sequence

import attrs

from agentodyssey_pz.world.entities import Area, Npc, Place, npc_instance
from agentodyssey_pz.world.rng import synthesis_streams
from agentodyssey_pz.world.schema import UNLOCK_USAGES, NpcDef, ObjectDef, WorldDefinition
from agentodyssey_pz.world.world import World

LOG = logging.getLogger("agentodyssey_pz.world")

LIGHT_PROBABILITY = 0.75
INTRA_PLACE_LOCK_PROBABILITY = 0.6
LOCKED_PLACES_LOCK_PROBABILITY = 0.5
BASE_DRAWS = 5
COIN_PASS_PROBABILITY = 0.5
PREWRITTEN_PREFIX = "obj_given_"


@attrs.frozen
class SynthesisOptions:
    """Switches for the two reference behaviours kept by default for seed parity.

    Attributes:
        eager_light_draw: draw the random `light` value for every area, even when the definition
            gives `light` (the reference does; turning it off changes every later `places` draw,
            but only that stream).
        zero_loot_keeps_prototype_count: when an NPC's loot roll for an item is 0, keep the
            prototype's count (the reference does, so every listed item drops at least once);
            False drops the item, the better choice when parity is not needed.
    """

    eager_light_draw: bool = True
    zero_loot_keeps_prototype_count: bool = True


def generate(
    definition: WorldDefinition, seed: int, options: SynthesisOptions | None = None
) -> World:
    """Synthesise a world. The definition is read, never modified (a second reset is identical)."""
    options = options or SynthesisOptions()
    spawn = definition.initializations.spawn
    if spawn is None:
        raise ValueError("a world definition needs initializations.spawn")
    world = World(definition, spawn.area)
    streams = synthesis_streams(seed, world.variant.stream_order)
    build_places(world, streams.places, options)  # stage 1 (stages 2-3 are the World tables)
    connect_areas(world, streams.connections)  # stage 4
    distribute_objects(world, streams.objects)  # stage 5
    assign_npcs(world, streams.npc_assign, options)  # stage 6
    return world


# ---------------------------------------------------------------------------- stage 1
def build_places(world: World, rng: random.Random, options: SynthesisOptions) -> None:
    for pdef in world.definition.entities.places:
        world.add_place(Place(pdef.id, pdef.name, pdef.unlocked, type=pdef.type))
        for adef in pdef.areas:
            level = 1 if adef.id == world.spawn_area else adef.level
            if world.variant.lit_spawn and adef.id == world.spawn_area:
                light = True  # quarantine's generator: always lit, and nothing drawn for it
            else:
                # The reference draws for every area, even when `light` is given (affects the
                # stream).
                needs_draw = options.eager_light_draw or adef.light is None
                drawn = rng.random() < LIGHT_PROBABILITY if needs_draw else False
                light = adef.light if adef.light is not None else drawn
            world.add_area(Area(adef.id, adef.name, level, light, pdef.id, type=adef.type))


# ---------------------------------------------------------------------------- stage 4
def connect_areas(world: World, rng: random.Random) -> None:
    graph = world.definition.graph
    if graph is not None and graph.connections and world.variant.honours_graph:
        for conn in graph.connections:  # the predefined graph replaces random connectivity
            world.connect(conn.source, conn.to, locked=conn.locked, key=conn.key)
        return
    unlockables = [o.id for o in world.objects.values() if o.usage == "unlock"]
    chain_within_places(world, rng, unlockables)
    chain_places(world, rng, unlockables)


def chain_within_places(world: World, rng: random.Random, unlockables: list[str]) -> None:
    """Each place's areas form a shuffled chain; links in a locked place lock with p = 0.6."""
    for place in world.places.values():
        ids = list(place.area_ids)
        if len(ids) <= 1:
            continue
        rng.shuffle(ids)
        for a, b in itertools.pairwise(ids):
            locked, key = False, None
            if not place.unlocked and unlockables and rng.random() < INTRA_PLACE_LOCK_PROBABILITY:
                locked, key = True, rng.choice(unlockables)
            world.connect(a, b, locked=locked, key=key)


def chain_places(world: World, rng: random.Random, unlockables: list[str]) -> None:
    """Places form a shuffled chain, each link between a random area of each."""
    if len(world.places) <= 1:
        return
    pids = list(world.places)
    rng.shuffle(pids)
    for pid_u, pid_v in itertools.pairwise(pids):
        place_u, place_v = world.places[pid_u], world.places[pid_v]
        u = rng.choice(place_u.area_ids)
        v = rng.choice(place_v.area_ids)
        locked, key = False, None
        if place_u.unlocked != place_v.unlocked:
            key = rng.choice(unlockables) if unlockables else None
            # Reference quirk fixed: without any unlock object the reference locks this path with no
            # key; we leave it open (no draw is affected, since no key can be drawn).
            locked = key is not None
            if key is None:
                LOG.warning("no object with usage 'unlock': path %s-%s left unlocked", u, v)
        elif not place_u.unlocked:
            locked = rng.random() < LOCKED_PLACES_LOCK_PROBABILITY if unlockables else False
            key = rng.choice(unlockables) if locked else None
        world.connect(u, v, locked=locked, key=key)


# ---------------------------------------------------------------------------- stage 5
@attrs.frozen
class Pools:
    raw_local: list[ObjectDef]
    crafted_local: list[ObjectDef]
    global_: list[ObjectDef]
    unlock: list[ObjectDef]


def build_pools(world: World) -> Pools:
    """In definition order; a writable can sit in the global pool twice (as the reference)."""
    und = set(world.definition.initializations.undistributable_objects)
    objs = [o for o in world.objects.values() if o.id not in und]

    def local(o: ObjectDef) -> bool:
        return bool(o.areas) and not o.id.startswith(PREWRITTEN_PREFIX)

    return Pools(
        raw_local=[o for o in objs if local(o) and not o.is_craftable],
        crafted_local=[o for o in objs if local(o) and o.is_craftable],
        global_=[o for o in objs if not o.is_craftable and not o.areas]
        + [
            o
            for o in objs
            if o.usage == "writable" and not o.craft.dependencies and not o.is_currency
        ],
        unlock=[o for o in objs if o.usage in UNLOCK_USAGES],
    )


def distribute_objects(world: World, rng: random.Random) -> None:
    dist = world.dist_areas()
    pools = build_pools(world)
    if dist:
        top = max(a.level for a in dist)
        for area in dist:
            raw_here = [o for o in pools.raw_local if area.id in o.areas]
            crafted_here = [o for o in pools.crafted_local if area.id in o.areas]
            if world.variant.guarantees_local:
                guarantee_local(world, area, raw_here, crafted_here)
            draw_objects(world, rng, area, raw_here, crafted_here, pools, top)
    currency_pass(world, rng)
    spawn_override(world)


def _place_units(world: World, area: Area, obj: ObjectDef, count: int) -> None:
    # Reference quirk fixed: containers/writables reaching the ground here would be stacked as
    # plain counts; we instance them, as everywhere else.
    for oid, n in world.materialise(obj.id, count):
        area.add_objects(oid, n)


def guarantee_local(
    world: World, area: Area, raw_here: list[ObjectDef], crafted_here: list[ObjectDef]
) -> None:
    """Every local raw material max(1, L) units, every local crafted one 1 unit (no station
    cap)."""
    for obj in raw_here:
        _place_units(world, area, obj, max(1, area.level))
    for obj in crafted_here:
        _place_units(world, area, obj, 1)


def _raw_weight(obj: ObjectDef, level: int) -> float:
    if obj.level == level:
        return 0.8
    return 0.4 if level - 1 <= obj.level <= level + 1 else 0.1


def _crafted_weight(obj: ObjectDef, level: int) -> float:
    if obj.level == level:
        return 0.4
    return 0.2 if level - 1 <= obj.level <= level + 1 else 0.05


def draw_objects(
    world: World,
    rng: random.Random,
    area: Area,
    raw_here: list[ObjectDef],
    crafted_here: list[ObjectDef],
    pools: Pools,
    top_level: int,
) -> None:
    """Weighted draws with replacement; at most one unit of each station per area."""
    level = area.level
    materials = raw_here + crafted_here + pools.global_ + pools.unlock
    if not materials:
        return  # reference quirk fixed: the reference crashes on an empty pool
    weights = (
        [_raw_weight(o, level) for o in raw_here]
        + [_crafted_weight(o, level) for o in crafted_here]
        + [0.03] * len(pools.global_)
        + [0.001] * len(pools.unlock)
    )
    n, k_level = len(materials), BASE_DRAWS + (top_level - level)
    low, high = world.variant.draw_multipliers
    k = rng.randint(min(int(n * low), int(k_level * low)), min(int(n * high), int(k_level * high)))
    for obj in rng.choices(materials, weights=weights, k=k):
        if obj.is_station and area.objects.get(obj.id, 0) > 0:
            continue
        _place_units(world, area, obj, 1)


def currency_pass(world: World, rng: random.Random) -> None:
    """Every area (spawn included, so its draws still happen) gets coins with p = 0.5."""
    coins = [o.id for o in world.objects.values() if o.is_currency]
    if not coins:
        return
    for area in world.areas.values():
        if rng.random() < COIN_PASS_PROBABILITY:
            coin = rng.choice(coins)
            area.add_objects(coin, rng.randint(1, 2 * area.level))


def spawn_override(world: World) -> None:
    """The spawn area holds exactly the listed objects, in listing order."""
    spawn = world.definition.initializations.spawn
    assert spawn is not None  # checked by generate()
    area = world.areas[spawn.area]
    area.objects = {}  # only the currency pass put anything here
    for oid, count in spawn.objects.items():
        obj = world.objects[oid]
        if obj.is_container or (obj.is_writable and not obj.text):
            _place_units(world, area, obj, count)
        else:
            area.add_objects(oid, count)


# ---------------------------------------------------------------------------- stage 6
def choose_level(rng: random.Random, home_level: int) -> int:
    """An instance's level around its home area's level (one random() draw)."""
    if home_level > 1:
        levels, weights = [home_level - 1, home_level, home_level + 1], [0.2, 0.6, 0.2]
    else:
        levels, weights = [home_level, home_level + 1], [0.8, 0.2]
    return rng.choices(levels, weights=weights, k=1)[0]


def create_npc(
    world: World,
    proto: NpcDef,
    index: int | None,
    level: int,
    rng: random.Random,
    options: SynthesisOptions | None = None,
) -> Npc:
    """An NPC instance at `level` with its coins and loot drawn (in the reference's order), as the
    world's synthesis variant makes them (loot counts, default rhythm). Rules that create NPCs
    during play call this too, so they follow the variant the world was built with."""
    options = options or SynthesisOptions()
    variant = world.variant
    coins = rng.randint(20 * level, 50 * level)
    inventory = dict(proto.loot)
    most = variant.loot_per_level * level
    for oid in list(inventory):
        if oid in world.objects:  # an id nothing defines keeps its count and draws nothing
            rolled = rng.randint(0, most)
            if rolled > 0:
                inventory[oid] = rolled
            elif not options.zero_loot_keeps_prototype_count:
                del inventory[oid]
    return npc_instance(
        proto,
        index,
        level,
        coins=coins,
        inventory=inventory,
        combat_pattern=variant.pattern_of(proto),
    )


def assign_npcs(world: World, rng: random.Random, options: SynthesisOptions) -> None:
    dist = world.dist_areas()
    protos = list(world.npc_protos.values())
    for proto in protos:
        world.npc_count[proto.id] = 0
    if not dist or not protos:
        return  # reference quirk fixed: the reference crashes here
    spawn = world.definition.initializations.spawn
    spawn_npcs = spawn.npcs if spawn is not None else {}
    place_unique_npcs(world, rng, dist, protos, spawn_npcs, options)
    place_non_unique_npcs(world, rng, dist, protos, options)
    place_spawn_npcs(world, rng, spawn_npcs, options)


def place_unique_npcs(
    world: World,
    rng: random.Random,
    dist: Sequence[Area],
    protos: list[NpcDef],
    spawn_npcs: dict[str, int],
    options: SynthesisOptions,
) -> None:
    """Each unique, non-quest prototype not listed at spawn goes to a random non-spawn area."""
    for proto in protos:
        if not proto.unique or proto.id in spawn_npcs or proto.quest:
            continue
        home = rng.choice(dist)
        level = choose_level(rng, home.level)
        world.add_npc(create_npc(world, proto, None, level, rng, options), home.id)


def place_non_unique_npcs(
    world: World,
    rng: random.Random,
    dist: Sequence[Area],
    protos: list[NpcDef],
    options: SynthesisOptions,
) -> None:
    """Per area an enemy budget; each prototype is considered once, with probability
    0.6 + (L-1) * 0.4 / Lmax."""
    top = max(a.level for a in dist)
    candidates = [p for p in protos if not p.unique]
    for home in dist:
        level = home.level
        consider = 0.6 + (level - 1) * 0.4 / top
        budget = rng.randint(*world.variant.enemy_budget(level))
        for proto in candidates:
            if proto.quest:
                continue
            if rng.random() < 1.0 - consider:
                continue
            if budget <= 0:
                break  # after the draw above, as in the reference (it shapes the stream)
            npc_level = choose_level(rng, level)
            npc = create_npc(world, proto, world.npc_count[proto.id], npc_level, rng, options)
            if npc.enemy:
                budget -= 1
            world.npc_count[proto.id] += 1
            world.add_npc(npc, home.id)


def place_spawn_npcs(
    world: World, rng: random.Random, spawn_npcs: dict[str, int], options: SynthesisOptions
) -> None:
    """NPCs listed at spawn. Fixed quirks: level drawn for the spawn area's own level, and a
    unique prototype keeps its bare id (the validator allows it at most once); mark's generator
    still advances its instance counter."""
    area = world.areas[world.spawn_area]
    for npc_id in list(area.npcs):
        world.remove_npc_from_map(npc_id)
    for proto_id, count in spawn_npcs.items():
        proto = world.npc_protos[proto_id]
        for _ in range(count):
            level = choose_level(rng, area.level)
            index = None if proto.unique else world.npc_count[proto_id]
            world.add_npc(create_npc(world, proto, index, level, rng, options), area.id)
            if not proto.unique or world.variant.counts_unique_spawn_npcs:
                world.npc_count[proto_id] += 1
