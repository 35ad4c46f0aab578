"""Seed parity of world synthesis with the reference engine's random-call order.

`reference_generate` below is an independent, literal transliteration of the pseudo-code of the
reference's world synthesis as docs/mechanics/world-synthesis.md describes it (base variant; the
published engine itself is compared in test_published_parity.py). It works on the raw JSON data of
a world definition (plain dicts and lists, one `random.Random` per stage) and shares no code with
`agentodyssey_pz.world.synthesis`: nothing from that module is imported by it. The tests compare its
output with `World.generate` for every bundled world and the tiny test world, 25 seeds each.

Our synthesis fixes some reference quirks that do not touch the random stream (the `Quirk:`
sections of docs/mechanics/world-synthesis.md). The
transliteration applies the same fixes, each marked with a `QUIRK FIX` comment naming the quirk, and
records in `Reference.fixes` every time one of them actually changed the outcome, so the tests can
state which worlds are reference-identical and can exercise each fix on purpose-built variants.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from agentodyssey_pz.resources import bundled_world_names, resolve_world_file
from agentodyssey_pz.world.synthesis import SynthesisOptions  # only to call our side
from agentodyssey_pz.world.validate import load_definition, parse_definition
from agentodyssey_pz.world.world import World

TINY_WORLD = Path(__file__).resolve().parent.parent / "data" / "tiny_world.json"
SEEDS = [*range(20), 777, 4096, 9999, 10000, 123_456_789]
assert len(SEEDS) == 25

# Fix names recorded in `Reference.fixes`.
FIX_POOL_CONTAINER = "container from a pool instanced, not stacked"
FIX_GUARANTEE_WRITABLE = "writable/container from the guarantee stage instanced, not stacked"
FIX_SPAWN_CONTAINER_INDEX = "spawn container index from the counter, not from 0"
FIX_EMPTY_MATERIALS = "empty material pool skipped instead of IndexError"
FIX_KEYLESS_LOCK = "locked inter-place path without key left unlocked"
FIX_NO_NPC_AREAS = "no distributable area or no prototype: no NPCs instead of a crash"
FIX_SPAWN_NPC_LEVEL = "spawn NPC level drawn for the spawn area"
FIX_UNIQUE_SPAWN_NPC = "unique spawn NPC keeps its bare id"


# ==================================================================== the transliteration
@attrs.define
class Reference:
    """Output of `reference_generate`: a snapshot (same shape as `snapshot_world`) plus a trace."""

    snapshot: dict[str, Any]
    zero_rolls: dict[str, list[str]]  # NPC instance id -> loot ids whose roll was 0, in roll order
    fixes: list[str]


def _obj_ingredients(o: dict[str, Any]) -> dict[str, Any]:
    return (o.get("craft") or {}).get("ingredients") or {}


def _obj_dependencies(o: dict[str, Any]) -> list[str]:
    return (o.get("craft") or {}).get("dependencies") or []


def _obj_areas(o: dict[str, Any]) -> list[str]:
    return o.get("areas") or []


def _obj_level(o: dict[str, Any]) -> int:
    return o.get("level", 1)


def _is_container_def(o: dict[str, Any]) -> bool:
    return o["category"] == "container"  # the container test comes first


def _is_writable_def(o: dict[str, Any]) -> bool:
    return not _is_container_def(o) and o["usage"] == "writable"


def reference_generate(
    raw_definition: dict[str, Any],
    seed: int,
    *,
    eager_light_draw: bool = True,
    zero_loot_keeps_prototype_count: bool = True,
) -> Reference:
    """The synthesis stages, base variant, line by line. `raw_definition` is not modified."""
    wd = copy.deepcopy(raw_definition)  # the reference mutates its definition
    entities = wd["entities"]
    inits = wd["initializations"]
    fixes: list[str] = []
    zero_rolls: dict[str, list[str]] = {}

    # ---------------------------------------------------------------- sub-seeds
    base = random.Random(seed)
    s_npcs = base.randint(0, 10**9)
    s_places = base.randint(0, 10**9)
    s_connections = base.randint(0, 10**9)
    s_objects = base.randint(0, 10**9)
    s_npc_assign = base.randint(0, 10**9)
    rng_npcs = random.Random(s_npcs)  # created, never drawn from
    rng_places = random.Random(s_places)
    rng_connections = random.Random(s_connections)
    rng_objects = random.Random(s_objects)
    rng_npc_assign = random.Random(s_npc_assign)
    del rng_npcs

    # ---------------------------------------------------------------- stage 1: places, areas
    spawn = inits.get("spawn", {}).get("area")
    area_instances: dict[str, dict[str, Any]] = {}
    place_instances: dict[str, dict[str, Any]] = {}
    area_to_place: dict[str, str] = {}
    for place in entities.get("places", []):
        for a in place.get("areas", []):
            level = 1 if a["id"] == spawn else a["level"]
            if eager_light_draw:
                # ALWAYS drawn (quirk "light is drawn even when given")
                r = rng_places.random() < 0.75
                light = a.get("light", r)  # the reference's `a["light"] if "light" in a else r`
            else:
                light = a["light"] if "light" in a else rng_places.random() < 0.75
            area_instances[a["id"]] = {
                "id": a["id"],
                "name": a["name"],
                "light": light,
                "level": level,
                "objects": {},
                "npcs": [],
                "neighbors": {},
            }
            area_to_place[a["id"]] = place["id"]
        place_instances[place["id"]] = {
            "id": place["id"],
            "unlocked": place["unlocked"],
            "areas": [a["id"] for a in place.get("areas", [])],
        }

    # ---------------------------------------------------------------- parsing
    objects: dict[str, dict[str, Any]] = {}
    obj_name_to_id: dict[str, str] = {}
    for spec in entities.get("objects", []):
        objects[spec["id"]] = spec
        obj_name_to_id[spec["name"]] = spec["id"]
    prototypes: dict[str, dict[str, Any]] = {}
    for spec in entities.get("npcs", []):
        enemy = spec.get("enemy", False)
        inventory: dict[str, int] = {}
        for oid in spec.get("objects", []):
            inventory[oid] = inventory.get(oid, 0) + 1
        prototypes[spec["id"]] = {
            "id": spec["id"],
            "name": spec["name"],
            "enemy": enemy,
            "unique": spec.get("unique", True),
            "quest": spec.get("quest", False),
            "hp": spec.get("base_hp", 60 if enemy else 1000),
            "slope_hp": spec.get("slope_hp", 20 if enemy else 50),
            "attack_power": spec.get("base_attack_power", 15 if enemy else 10),
            "slope_attack_power": spec.get("slope_attack_power", 15 if enemy else 5),
            "inventory": inventory,
        }

    # ---------------------------------------------------------------- stage 4: connectivity
    def connect(u: str, v: str, locked: bool, key: str | None) -> None:
        area_instances[u]["neighbors"][v] = {"to_id": v, "locked": locked, "object_to_unlock": key}
        area_instances[v]["neighbors"][u] = {"to_id": u, "locked": locked, "object_to_unlock": key}

    graph = wd.get("graph")
    if graph and graph.get("connections"):  # the predefined graph
        for a in area_instances.values():
            a["neighbors"] = {}
        for conn in graph["connections"]:
            if conn["from"] in area_instances and conn["to"] in area_instances:
                connect(conn["from"], conn["to"], conn.get("locked", False), conn.get("key"))
    else:
        unlockables = [oid for oid, o in objects.items() if o["usage"] == "unlock"]
        for place in place_instances.values():  # chains inside places
            ids = list(place["areas"])
            if len(ids) <= 1:
                continue
            rng_connections.shuffle(ids)
            for i in range(len(ids) - 1):
                locked, key = False, None
                if not place["unlocked"] and unlockables and rng_connections.random() < 0.6:
                    locked = True
                    key = rng_connections.choice(unlockables)
                connect(ids[i], ids[i + 1], locked, key)
        if len(place_instances) > 1:  # 5.3
            pids = list(place_instances)
            rng_connections.shuffle(pids)
            for i in range(len(pids) - 1):
                big_u, big_v = place_instances[pids[i]], place_instances[pids[i + 1]]
                u = rng_connections.choice(big_u["areas"])
                v = rng_connections.choice(big_v["areas"])
                if big_u["unlocked"] and big_v["unlocked"]:
                    locked, key = False, None
                elif big_u["unlocked"] != big_v["unlocked"]:
                    locked = True
                    key = rng_connections.choice(unlockables) if unlockables else None
                    if key is None:
                        # QUIRK FIX ("no lock without a key"): like ours, leave it
                        # open; no draw depends on it.
                        locked = False
                        fixes.append(FIX_KEYLESS_LOCK)
                else:
                    locked = (rng_connections.random() < 0.5) if unlockables else False
                    key = rng_connections.choice(unlockables) if locked else None
                connect(u, v, locked, key)

    # ---------------------------------------------------------------- stage 5: objects
    und = inits.get("undistributable_objects", [])
    spawn_def = inits.get("spawn")
    dist_areas = [a for a in area_instances.values() if a["id"] != spawn]
    writable_count = {oid: 0 for oid, o in objects.items() if _is_writable_def(o)}
    container_count = {oid: 0 for oid, o in objects.items() if _is_container_def(o)}
    writable_instances: dict[str, dict[str, Any]] = {}
    container_instances: dict[str, dict[str, Any]] = {}

    def create_object_instance(oid: str, k: int) -> dict[str, Any]:
        o = objects[oid]
        return {"id": f"{oid}_{k}", "name": f"{o['name']}_{k}", "def_id": oid}

    def place_writable_instance(area: dict[str, Any], oid: str) -> None:
        inst = create_object_instance(oid, writable_count[oid])
        writable_count[oid] += 1
        writable_instances[inst["id"]] = inst
        area["objects"][inst["id"]] = 1
        obj_name_to_id[inst["name"]] = inst["id"]

    def place_container_instance(area: dict[str, Any], oid: str) -> None:
        inst = create_object_instance(oid, container_count[oid])
        container_count[oid] += 1
        container_instances[inst["id"]] = inst
        area["objects"][inst["id"]] = 1
        obj_name_to_id[inst["name"]] = inst["id"]

    def ing(o: dict[str, Any]) -> bool:
        return bool(_obj_ingredients(o))

    def has_areas(o: dict[str, Any]) -> bool:
        return bool(_obj_areas(o))

    def given(o: dict[str, Any]) -> bool:
        return o["id"].startswith("obj_given_")

    all_objs = list(objects.values())
    raw_local = [
        o for o in all_objs if has_areas(o) and not ing(o) and not given(o) and o["id"] not in und
    ]
    crafted_local = [
        o for o in all_objs if ing(o) and has_areas(o) and not given(o) and o["id"] not in und
    ]
    global_pool = [o for o in all_objs if not ing(o) and not has_areas(o) and o["id"] not in und]
    global_pool += [
        o
        for o in all_objs
        if o["usage"] == "writable"
        and not _obj_dependencies(o)
        and o["category"] != "currency"
        and o["id"] not in und
    ]
    unlock_pool = [
        o for o in all_objs if o["usage"] in ("unlock", "lockpick") and o["id"] not in und
    ]

    def w_raw(o: dict[str, Any], big_l: int) -> float:
        lvl = _obj_level(o)
        return 0.8 if lvl == big_l else 0.4 if big_l - 1 <= lvl <= big_l + 1 else 0.1

    def w_crafted(o: dict[str, Any], big_l: int) -> float:
        lvl = _obj_level(o)
        return 0.4 if lvl == big_l else 0.2 if big_l - 1 <= lvl <= big_l + 1 else 0.05

    if dist_areas:
        lmax = max(a["level"] for a in dist_areas)
        for area in dist_areas:
            big_l = area["level"]
            k_l = 5 + (lmax - big_l)
            # guarantee stage ("for each area in dist_areas, before drawing")
            raw_here = [o for o in raw_local if area["id"] in _obj_areas(o)]
            crafted_here = [o for o in crafted_local if area["id"] in _obj_areas(o)]
            for group, units in ((raw_here, max(1, big_l)), (crafted_here, 1)):
                for o in group:
                    if _is_writable_def(o) or _is_container_def(o):
                        # QUIRK FIX (guarantee stacks writables/containers as plain counts): like
                        # ours, instance each unit; only instance counters change, no draw.
                        fixes.append(FIX_GUARANTEE_WRITABLE)
                        for _ in range(units):
                            if _is_container_def(o):
                                place_container_instance(area, o["id"])
                            else:
                                place_writable_instance(area, o["id"])
                        continue
                    area["objects"][o["id"]] = area["objects"].get(o["id"], 0) + units
            # weighted draws
            materials = raw_here + crafted_here + global_pool + unlock_pool
            weights = (
                [w_raw(o, big_l) for o in raw_here]
                + [w_crafted(o, big_l) for o in crafted_here]
                + [0.03] * len(global_pool)
                + [0.001] * len(unlock_pool)
            )
            if not materials:
                # QUIRK FIX ("empty pools do not crash": an empty pool raises IndexError): skip the
                # area, no draw.
                fixes.append(FIX_EMPTY_MATERIALS)
                continue
            n = len(materials)
            lo = min(int(n * 2), int(k_l * 2))
            hi = min(int(n * 4), int(k_l * 4))
            k = rng_objects.randint(lo, hi)
            chosen = rng_objects.choices(materials, weights=weights, k=k)
            for o in chosen:
                if o["category"] == "station" and area["objects"].get(o["id"], 0) > 0:
                    continue
                if o["usage"] == "writable" and not _is_container_def(o):
                    place_writable_instance(area, o["id"])
                    continue
                if _is_container_def(o):
                    # QUIRK FIX ("containers from pools are instanced"): instance it.
                    fixes.append(FIX_POOL_CONTAINER)
                    place_container_instance(area, o["id"])
                    continue
                area["objects"][o["id"]] = area["objects"].get(o["id"], 0) + 1

    # currency pass: every area, spawn included
    coins = [oid for oid, o in objects.items() if o["category"] == "currency"]
    for area in area_instances.values():
        if coins and rng_objects.random() < 0.5:
            c = rng_objects.choice(coins)
            q = rng_objects.randint(1, 2 * area["level"])
            area["objects"][c] = area["objects"].get(c, 0) + q

    # spawn override
    if spawn_def:
        area = area_instances[spawn_def["area"]]
        area["objects"] = {}
        for oid, count in list(spawn_def.get("objects", {}).items()):
            if oid not in set(obj_name_to_id.values()):
                continue  # warning in the reference
            if objects[oid]["category"] == "container":
                del spawn_def["objects"][oid]  # harmless here, `wd` is our own copy
                for i in range(count):
                    if container_count[oid] != i:
                        # QUIRK FIX (the spawn container index restarts at 0): use the counter.
                        fixes.append(FIX_SPAWN_CONTAINER_INDEX)
                    place_container_instance(area, oid)
            elif objects[oid]["usage"] == "writable" and not objects[oid].get("text", ""):
                for _ in range(count):
                    place_writable_instance(area, oid)
            else:
                area["objects"][oid] = count

    # ---------------------------------------------------------------- stage 6: NPCs
    npc_instances: dict[str, dict[str, Any]] = {}
    count = {pid: 0 for pid in prototypes}

    def level_choice(big_l: int) -> int:
        if big_l > 1:
            levels, weights = [big_l - 1, big_l, big_l + 1], [0.2, 0.6, 0.2]
        else:
            levels, weights = [big_l, big_l + 1], [0.8, 0.2]
        return rng_npc_assign.choices(levels, weights=weights, k=1)[0]

    def create_instance(proto: dict[str, Any], index: int | None, lvl: int) -> dict[str, Any]:
        npc = copy.deepcopy(proto)
        if index is not None:
            npc["id"] += f"_{index}"
            npc["name"] += f"_{index}"
        npc["level"] = lvl
        npc["hp"] = proto["hp"] + proto["slope_hp"] * (lvl - 1)
        npc["attack_power"] = proto["attack_power"] + proto["slope_attack_power"] * (lvl - 1)
        npc["coins"] = rng_npc_assign.randint(20 * lvl, 50 * lvl)
        for oid in proto["inventory"]:
            if oid in objects:
                c = rng_npc_assign.randint(0, 2 * lvl)
                if c > 0:
                    npc["inventory"][oid] = c
                else:
                    # quirk "loot roll of zero keeps the prototype count" (SynthesisOptions switch)
                    zero_rolls.setdefault(npc["id"], []).append(oid)
                    if not zero_loot_keeps_prototype_count:
                        del npc["inventory"][oid]
        return npc

    def register(npc: dict[str, Any], area: dict[str, Any]) -> None:
        npc_instances[npc["id"]] = npc
        area["npcs"].append(npc["id"])

    if not dist_areas or not prototypes:
        # QUIRK FIX ("empty pools do not crash"): no NPCs at all.
        fixes.append(FIX_NO_NPC_AREAS)
    else:
        lmax = max(a["level"] for a in dist_areas)
        spawn_npcs = inits["spawn"].get("npcs", {})
        for proto in prototypes.values():  # unique NPCs
            if not proto["unique"]:
                continue
            if proto["id"] in spawn_npcs:
                continue
            if proto["quest"]:
                continue
            home = rng_npc_assign.choice(dist_areas)
            lvl = level_choice(home["level"])
            register(create_instance(proto, None, lvl), home)
        non_unique = [p for p in prototypes.values() if not p["unique"]]
        for home in dist_areas:  # other NPCs
            big_l = home["level"]
            p_l = 0.6 + (big_l - 1) * 0.4 / lmax
            budget = rng_npc_assign.randint(math.floor(big_l / 2), big_l)
            for proto in non_unique:
                if proto["quest"]:
                    continue
                if rng_npc_assign.random() < 1.0 - p_l:
                    continue
                if budget <= 0:
                    break
                lvl = level_choice(big_l)
                npc = create_instance(proto, count[proto["id"]], lvl)
                if npc["enemy"]:
                    budget -= 1
                count[proto["id"]] += 1
                register(npc, home)
        if spawn_def:  # spawn NPCs
            area = area_instances[spawn_def["area"]]
            area["npcs"] = []
            for pid, n in spawn_def.get("npcs", {}).items():
                if pid not in prototypes:
                    continue
                proto = prototypes[pid]
                for _ in range(n):
                    # QUIRK FIX ("spawn NPCs use the spawn level"): the reference uses `home` (the
                    # last area of the unique-NPC loop).
                    fixes.append(FIX_SPAWN_NPC_LEVEL)
                    lvl = level_choice(area["level"])
                    if proto["unique"]:
                        # QUIRK FIX ("spawn NPCs use the spawn level"): a unique prototype keeps its
                        # bare id, no count.
                        fixes.append(FIX_UNIQUE_SPAWN_NPC)
                        register(create_instance(proto, None, lvl), area)
                    else:
                        register(create_instance(proto, count[pid], lvl), area)
                        count[pid] += 1

    snapshot = {
        "areas": {
            aid: {
                "light": a["light"],
                "level": a["level"],
                "objects": dict(a["objects"]),
                "npcs": list(a["npcs"]),
                "neighbors": {
                    to: {"locked": p["locked"], "key": p["object_to_unlock"]}
                    for to, p in a["neighbors"].items()
                },
            }
            for aid, a in area_instances.items()
        },
        "npcs": {
            nid: {
                "name": npc["name"],
                "level": npc["level"],
                "hp": npc["hp"],
                "attack_power": npc["attack_power"],
                "coins": npc["coins"],
                "inventory": dict(npc["inventory"]),
            }
            for nid, npc in npc_instances.items()
        },
        "writables": {
            iid: {"def_id": w["def_id"], "name": w["name"]} for iid, w in writable_instances.items()
        },
        "containers": {
            iid: {"def_id": c["def_id"], "name": c["name"]}
            for iid, c in container_instances.items()
        },
        "counters": {
            # counter key order carries no meaning (ours creates keys lazily): sorted
            "writable": {k: v for k, v in sorted(writable_count.items()) if v},
            "container": {k: v for k, v in sorted(container_count.items()) if v},
            "npc": dict(sorted(count.items())),
        },
    }
    return Reference(snapshot, zero_rolls, fixes)


# ==================================================================== our side and the comparison
def snapshot_world(world: World) -> dict[str, Any]:
    """Everything the reference fixes, in the same shape as `Reference.snapshot` (orders kept)."""
    return {
        "areas": {
            aid: {
                "light": area.light,
                "level": area.level,
                "objects": dict(area.objects),
                "npcs": list(area.npcs),
                "neighbors": {
                    to: {"locked": path["locked"], "key": path["key"]}
                    for to, path in world.graph.neighbors(aid).items()
                },
            }
            for aid, area in world.areas.items()
        },
        "npcs": {
            nid: {
                "name": npc.name,
                "level": npc.level,
                "hp": npc.hp,
                "attack_power": npc.attack_power,
                "coins": npc.coins,
                "inventory": dict(npc.inventory),
            }
            for nid, npc in world.npcs.items()
        },
        "writables": {
            iid: {"def_id": w.def_id, "name": w.name} for iid, w in world.writables.items()
        },
        "containers": {
            iid: {"def_id": c.def_id, "name": c.name} for iid, c in world.containers.items()
        },
        "counters": {
            "writable": {k: v for k, v in sorted(world.writable_count.items()) if v},
            "container": {k: v for k, v in sorted(world.container_count.items()) if v},
            "npc": dict(sorted(world.npc_count.items())),
        },
    }


def diff(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Every difference between two snapshots, including dict key order and leaf types."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        missing = [k for k in expected if k not in actual]
        extra = [k for k in actual if k not in expected]
        if missing:
            out.append(f"{path}: missing {missing}")
        if extra:
            out.append(f"{path}: unexpected {extra}")
        order_e = [k for k in expected if k in actual]
        order_a = [k for k in actual if k in expected]
        if order_e != order_a:
            out.append(f"{path}: order differs: expected {order_e}, got {order_a}")
        for k in order_e:
            out.extend(diff(expected[k], actual[k], f"{path}.{k}"))
        return out
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        if len(expected) != len(actual) or type(expected) is not type(actual):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(diff(e, a, f"{path}[{i}]"))
        return out
    if type(expected) is not type(actual) or expected != actual:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def assert_same(expected: dict[str, Any], actual: dict[str, Any], label: str) -> None:
    problems = diff(expected, actual)
    assert not problems, f"{label}: {len(problems)} difference(s):\n  " + "\n  ".join(problems[:40])


# ==================================================================== worlds under test
def _world_files() -> dict[str, Path]:
    files = {name: resolve_world_file(name) for name in bundled_world_names()}
    files["tiny_world"] = TINY_WORLD
    return files


WORLD_FILES = _world_files()
_CACHE: dict[str, tuple[dict[str, Any], Any]] = {}


def world_inputs(name: str) -> tuple[dict[str, Any], Any]:
    """(raw JSON data, our validated definition) for a world, loaded once."""
    if name not in _CACHE:
        with open(WORLD_FILES[name], encoding="utf-8") as fh:
            raw = json.load(fh)
        _CACHE[name] = (raw, load_definition(WORLD_FILES[name]))
    return _CACHE[name]


def generate_ours(definition: Any, seed: int, **options: bool) -> World:
    return World.generate(definition, seed, SynthesisOptions(**options) if options else None)


def test_every_bundled_world_is_covered() -> None:
    assert len(WORLD_FILES) >= 2
    assert "tiny_world" in WORLD_FILES


@pytest.mark.parametrize("name", sorted(WORLD_FILES))
def test_synthesis_matches_reference_call_order(name: str) -> None:
    raw, definition = world_inputs(name)
    for seed in SEEDS:
        expected = reference_generate(raw, seed)
        world = generate_ours(definition, seed)
        assert_same(expected.snapshot, snapshot_world(world), f"{name} seed {seed}")
        # The graph holds exactly the areas and (areas - 1) edges of a chain of chains or the
        # predefined list; both directions of every path agree (checked per area above).
        assert set(world.graph.nx.nodes) == set(world.areas)
        for npc in world.npcs.values():
            assert npc.max_hp == npc.hp
            assert npc.area_id is not None and npc.id in world.areas[npc.area_id].npcs


@pytest.mark.parametrize("name", sorted(WORLD_FILES))
def test_bundled_worlds_need_no_quirk_fix(name: str) -> None:
    """Bundled worlds never reach a fixed reference quirk, so they are reference-identical.

    A new world that fails here still matches the transliteration (which applies our fixes) but no
    longer reproduces the reference engine seed for seed; the message names the quirk.
    """
    raw, _ = world_inputs(name)
    hit = {fix for seed in SEEDS for fix in reference_generate(raw, seed).fixes}
    assert not hit, f"{name} reaches fixed reference quirks: {sorted(hit)}"


def test_snapshots_are_not_trivial() -> None:
    """The comparison covers real content: writables drawn, locked paths, NPC loot, level spread."""
    seen = {"writable": 0, "locked": 0, "loot": 0, "npc_levels": set(), "container": 0}
    for name in WORLD_FILES:
        raw, _ = world_inputs(name)
        for seed in SEEDS[:5]:
            snap = reference_generate(raw, seed).snapshot
            seen["writable"] += len(snap["writables"])
            seen["container"] += len(snap["containers"])
            seen["locked"] += sum(
                p["locked"] for a in snap["areas"].values() for p in a["neighbors"].values()
            )
            seen["loot"] += sum(len(n["inventory"]) for n in snap["npcs"].values())
            seen["npc_levels"] |= {n["level"] for n in snap["npcs"].values()}
    assert seen["writable"] > len(WORLD_FILES) * 5  # spawn writables plus drawn ones
    assert seen["container"] >= len(WORLD_FILES) * 5
    assert seen["locked"] > 0 and seen["loot"] > 0
    assert len(seen["npc_levels"]) >= 4


# ==================================================================== fixed quirks, exercised
def _variant_pool_container(raw: dict[str, Any]) -> None:
    """A recipe-less, area-less container lands in the global pool and is listed at spawn."""
    raw["entities"]["objects"].append(
        {"type": "object", "id": "obj_tub", "name": "tub", "category": "container",
         "usage": "store", "value": 3, "size": 2, "capacity": 6, "level": 1,
         "craft": {"ingredients": {}, "dependencies": []}}
    )  # fmt: skip
    raw["initializations"]["spawn"]["objects"]["obj_tub"] = 2


def _variant_local_writable(raw: dict[str, Any]) -> None:
    """A recipe-less writable with `areas`: guarantee stage (L units) and the global pool."""
    raw["entities"]["objects"].append(
        {"type": "object", "id": "obj_bark", "name": "bark", "category": "tool",
         "usage": "writable", "value": 1, "size": 1, "text": "", "max_text_length": 9,
         "level": 2, "areas": ["area_rows", "area_vault"],
         "craft": {"ingredients": {}, "dependencies": []}}
    )  # fmt: skip


def _variant_no_unlock_objects(raw: dict[str, Any]) -> None:
    """No object with usage `unlock`: the orchard (open) - cellar (locked) link has no key."""
    for obj in raw["entities"]["objects"]:
        if obj["usage"] == "unlock":
            obj["usage"] = "craft"


def _variant_spawn_npcs(raw: dict[str, Any]) -> None:
    """Spawn NPCs: a unique one (listed, so skipped by the unique-NPC placement) and two non-unique
    ones."""
    raw["initializations"]["spawn"]["npcs"] = {"npc_wasp": 2, "npc_cider_seller": 1}


def _variant_local_station(raw: dict[str, Any]) -> None:
    """A recipe-less station with `areas` (raw pool, weight 0.8): exercises the station cap."""
    raw["entities"]["objects"].append(
        {"type": "object", "id": "obj_anvil", "name": "anvil", "category": "station",
         "usage": "craft", "value": None, "size": None, "level": 2,
         "areas": ["area_rows", "area_vats", "area_vault"],
         "craft": {"ingredients": {}, "dependencies": []}}
    )  # fmt: skip


def _variant_all_places_locked(raw: dict[str, Any]) -> None:
    """Every place locked, plus a third one: locked-locked links (p = 0.5) in every chain."""
    raw["entities"]["places"].append(
        {"type": "place", "id": "place_loft", "name": "Hay Loft", "unlocked": False,
         "areas": [{"type": "area", "id": "area_loft", "name": "loft", "level": 2}]}
    )  # fmt: skip
    for place in raw["entities"]["places"]:
        place["unlocked"] = False


VARIANTS: dict[str, tuple[Callable[[dict[str, Any]], None], set[str]]] = {
    "local_station": (_variant_local_station, set()),
    "all_places_locked": (_variant_all_places_locked, set()),
    "pool_container": (_variant_pool_container, {FIX_POOL_CONTAINER, FIX_SPAWN_CONTAINER_INDEX}),
    "local_writable": (_variant_local_writable, {FIX_GUARANTEE_WRITABLE}),
    "no_unlock_objects": (_variant_no_unlock_objects, {FIX_KEYLESS_LOCK}),
    "spawn_npcs": (_variant_spawn_npcs, {FIX_SPAWN_NPC_LEVEL, FIX_UNIQUE_SPAWN_NPC}),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fixed_quirks_match_the_fixed_transliteration(variant: str) -> None:
    mutate, expected_fixes = VARIANTS[variant]
    raw = copy.deepcopy(world_inputs("tiny_world")[0])
    mutate(raw)
    definition = parse_definition(copy.deepcopy(raw))
    hit: set[str] = set()
    for seed in SEEDS:
        expected = reference_generate(raw, seed)
        hit |= set(expected.fixes)
        assert_same(
            expected.snapshot, snapshot_world(generate_ours(definition, seed)), f"{variant} {seed}"
        )
    assert hit == expected_fixes  # the variant really exercises its fix (and only it)


# ==================================================================== SynthesisOptions
def _without_lights(snapshot: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(snapshot)
    for area in out["areas"].values():
        del area["light"]
    return out


@pytest.mark.parametrize("name", sorted(WORLD_FILES))
def test_lazy_light_draw_changes_only_the_places_stream(name: str) -> None:
    raw, definition = world_inputs(name)
    given = {
        a["id"]: a["light"] for p in raw["entities"]["places"] for a in p["areas"] if "light" in a
    }
    lights_changed = False
    for seed in SEEDS:
        eager = snapshot_world(generate_ours(definition, seed))
        lazy = snapshot_world(generate_ours(definition, seed, eager_light_draw=False))
        assert_same(_without_lights(eager), _without_lights(lazy), f"{name} {seed}")
        for aid, light in given.items():
            assert eager["areas"][aid]["light"] is light
            assert lazy["areas"][aid]["light"] is light
        lights_changed |= any(
            eager["areas"][a]["light"] != lazy["areas"][a]["light"] for a in eager["areas"]
        )
        expected = reference_generate(raw, seed, eager_light_draw=False)
        assert_same(expected.snapshot, lazy, f"{name} {seed} (lazy light)")
    all_given = len(given) == sum(len(p["areas"]) for p in raw["entities"]["places"])
    assert lights_changed is not all_given  # a drawn light moves iff some area lacks `light`


@pytest.mark.parametrize("name", sorted(WORLD_FILES))
def test_zero_loot_option_removes_exactly_the_zero_rolls(name: str) -> None:
    raw, definition = world_inputs(name)
    zero_total = 0
    for seed in SEEDS:
        rolls = reference_generate(raw, seed).zero_rolls
        keep = snapshot_world(generate_ours(definition, seed))
        drop = snapshot_world(
            generate_ours(definition, seed, zero_loot_keeps_prototype_count=False)
        )
        expected = copy.deepcopy(keep)
        for nid, zeros in rolls.items():
            for oid in zeros:
                del expected["npcs"][nid]["inventory"][oid]
            zero_total += len(zeros)
        assert_same(expected, drop, f"{name} {seed}")
        reference = reference_generate(raw, seed, zero_loot_keeps_prototype_count=False)
        assert_same(reference.snapshot, drop, f"{name} {seed} (zero loot dropped)")
    assert zero_total > 0


# ==================================================================== the comparison helper itself
def _swap_first_two(d: dict[str, Any]) -> dict[str, Any]:
    keys = list(d)
    keys[0], keys[1] = keys[1], keys[0]
    return {k: d[k] for k in keys}


def _mutate_coins(world: World) -> str:
    nid = next(iter(world.npcs))
    world.npcs[nid].coins += 1
    return f"$.npcs.{nid}.coins"


def _mutate_ground_order(world: World) -> str:
    area = next(a for a in world.areas.values() if len(a.objects) >= 2)
    area.objects = _swap_first_two(area.objects)
    return f"$.areas.{area.id}.objects: order differs"


def _mutate_loot_order(world: World) -> str:
    npc = next(n for n in world.npcs.values() if len(n.inventory) >= 2)
    npc.inventory = _swap_first_two(npc.inventory)
    return f"$.npcs.{npc.id}.inventory: order differs"


def _mutate_ground_count(world: World) -> str:
    area = next(a for a in world.areas.values() if a.objects)
    oid = next(iter(area.objects))
    area.objects[oid] += 1
    return f"$.areas.{area.id}.objects.{oid}"


def _mutate_npc_order(world: World) -> str:
    area = next(a for a in world.areas.values() if len(a.npcs) >= 2)
    area.npcs = _swap_first_two(area.npcs)
    return f"$.areas.{area.id}.npcs[0]"


def _mutate_lock(world: World) -> str:
    aid = next(iter(world.areas))
    to = next(iter(world.graph.neighbors(aid)))
    world.graph.set_locked(aid, to, not world.graph.is_locked(aid, to))
    return f"$.areas.{aid}.neighbors.{to}.locked"


def _mutate_level(world: World) -> str:
    nid = next(iter(world.npcs))
    world.npcs[nid].level += 1
    return f"$.npcs.{nid}.level"


def _mutate_light_type(world: World) -> str:
    area = next(iter(world.areas.values()))
    area.light = int(area.light)  # type: ignore[assignment]  # 1 == True, still a difference
    return f"$.areas.{area.id}.light"


HELPER_MUTATIONS = {
    "coins": _mutate_coins,
    "ground_order": _mutate_ground_order,
    "loot_order": _mutate_loot_order,
    "ground_count": _mutate_ground_count,
    "npc_order": _mutate_npc_order,
    "lock": _mutate_lock,
    "level": _mutate_level,
    "light_type": _mutate_light_type,
}


@pytest.mark.parametrize("mutation", sorted(HELPER_MUTATIONS))
def test_comparison_helper_reports_one_changed_detail(mutation: str) -> None:
    _, definition = world_inputs("thornvale" if "thornvale" in WORLD_FILES else "tiny_world")
    seed = 3
    reference = snapshot_world(generate_ours(definition, seed))
    assert diff(reference, snapshot_world(generate_ours(definition, seed))) == []
    world = generate_ours(definition, seed)
    where = HELPER_MUTATIONS[mutation](world)
    problems = diff(reference, snapshot_world(world))
    assert problems, f"{mutation} went unnoticed"
    assert any(p.startswith(where) for p in problems), problems
    # A path is one record per direction, so a changed lock shows on both ends; two swapped NPC ids
    # are two list positions; every other change shows exactly once.
    assert len(problems) == (2 if mutation in ("lock", "npc_order") else 1), problems
