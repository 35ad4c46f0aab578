"""Quest variables, set up once per episode: areas picked from the map, shared NPCs and objects
placed, words.

Rule pack `base`; docs/world-format.md#111-main-quest. Area picking follows the reference
(docs/mechanics/quests.md#quest-variables): non-spawn areas are shuffled, then ordered by hop
distance from spawn with a 25% chance of counting one step further, and taken nearest first. Fixed
quirks: the spawn area and tutorial rooms are never picked, a short supply re-uses already picked
areas in a fixed order, and nothing depends on set iteration order.

A placed NPC is made as synthesis makes one, at the level of its area, and every item its
prototype carries that came out with no units gets the prototype's count back. An NPC of the same
definition (everyone's, not a personal one) already standing there is used instead, and a unique
NPC the world already placed elsewhere is moved there (it is the only one there can be), or with
`stay_put` left where it stands (saltglass adopts its merchant wherever the world put it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.quest_records import SetupStep
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc
from agentodyssey_pz.world.world import World

JITTER_PROBABILITY = 0.25  # chance an area counts one hop further when ordering candidates
TUTORIAL_KEY = "tutorial_room"


def excluded_areas(world: World) -> set[str]:
    """Spawn and any tutorial room: never quest locations."""
    rooms = world.auxiliary.get(TUTORIAL_KEY, {}).get("rooms", {})
    return {world.spawn_area, *(room["area_id"] for room in rooms.values())}


class AreaPicker:
    """Hands out quest areas nearest-first, never the same one twice while others remain."""

    def __init__(self, world: World, rng: random.Random) -> None:
        excluded = excluded_areas(world)
        self.dist = world.graph.hop_distances(world.spawn_area)
        candidates = [a for a in world.areas if a not in excluded]
        rng.shuffle(candidates)
        far = len(world.areas)
        candidates.sort(
            key=lambda a: self.dist.get(a, far) + (1 if rng.random() < JITTER_PROBABILITY else 0)
        )
        self.order = candidates
        self.used: list[str] = []

    def pick(self, n: int) -> list[str]:
        fresh = [a for a in self.order if a not in self.used][:n]
        self.used += fresh
        # Too few areas: re-use earlier picks (oldest first), then repeat if there are still too
        # few.
        pool = [a for a in self.used if a not in fresh] or self.used or self.order
        i = 0
        while len(fresh) < n and pool:
            fresh.append(pool[i % len(pool)])
            i += 1
        return fresh

    def farthest(self, areas: Iterable[str]) -> str:
        areas = list(areas)
        return max(areas, key=lambda a: self.dist.get(a, -1)) if areas else ""


def place_quest_npc(world: World, rng: random.Random, step: SetupStep, area_id: str) -> str:
    """The shared quest NPC of a setup step: found or created in its area, stocked and funded as
    the data asks."""
    proto = world.npc_protos[step.place_npc or ""]
    npc = _standing(world, proto.id, area_id)
    if npc is None and proto.unique and proto.id in world.npcs:
        npc = world.npcs[proto.id]  # placed elsewhere by synthesis (or an earlier step): adopted
        if not (step.stay_put and npc.area_id is not None):
            world.place_npc(npc.id, area_id)
    if npc is None:
        index = None if proto.unique else world.npc_count.get(proto.id, 0)
        if index is not None:
            world.npc_count[proto.id] = index + 1
        npc = create_npc(world, proto, index, world.areas[area_id].level, rng, SynthesisOptions())
        for oid, count in proto.loot.items():  # items that came out with none: the prototype's
            if npc.inventory.get(oid, 0) <= 0:
                npc.inventory[oid] = count
        world.add_npc(npc, area_id)
    for oid, count in step.stock.items():
        npc.inventory[oid] = max(npc.inventory.get(oid, 0), count)
    npc.coins = max(npc.coins, step.min_coins)
    return npc.id


def _standing(world: World, proto_id: str, area_id: str) -> Npc | None:
    """The first living NPC of that definition standing in the area that is nobody's own."""
    for npc_id in world.areas[area_id].npcs:
        npc = world.npcs[npc_id]
        if npc.def_id == proto_id and npc.owner is None and npc.hp > 0:
            return npc
    return None


def place_quest_object(world: World, step: SetupStep, area_id: str) -> str:
    """One unit of the step's object on the area's ground (a writable starts as its definition
    writes it), unless `unless_anywhere_on_ground` and a unit already lies on some ground. The
    variable holds the definition id."""
    def_id = step.place_object or ""
    if step.unless_anywhere_on_ground:
        def_of = world.def_of
        for area in world.areas.values():
            if any(def_of(oid).id == def_id for oid in area.objects):
                return def_id
    world.spawn_on_ground(area_id, def_id, 1)
    return def_id


def run_setup(world: World, rng: random.Random, setup: Iterable[SetupStep]) -> dict[str, Any]:
    """Resolve every setup step in order; returns the variables (JSON-compatible)."""
    variables: dict[str, Any] = {"spawn": world.spawn_area, "currency": world.currency_id}
    picker: AreaPicker | None = None

    def resolve(ref: Any) -> Any:
        return variables.get(ref[1:]) if isinstance(ref, str) and ref.startswith("$") else ref

    for step in setup:
        if step.value is not None:
            value: Any = step.value
        elif step.area is not None:
            value = resolve(step.area)  # an area id, or an earlier area variable's value
        elif step.areas is not None:
            value = list(step.areas)
        elif step.pick_areas is not None or step.pick_area:
            picker = picker or AreaPicker(world, rng)
            picked = picker.pick(step.pick_areas or 1) or [world.spawn_area]
            every = step.pick_areas is not None and step.keep != "first"
            value = picked if every else picked[0]  # keep "first": all n are used up all the same
        elif step.farthest_of is not None:
            picker = picker or AreaPicker(world, rng)
            value = picker.farthest(resolve(step.farthest_of)) or world.spawn_area
        elif step.place_object is not None:
            value = place_quest_object(world, step, resolve(step.in_))
        else:
            value = place_quest_npc(world, rng, step, resolve(step.in_))
        variables[step.let] = value
    return variables
