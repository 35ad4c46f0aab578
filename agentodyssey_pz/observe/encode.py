"""Numeric observations: a fixed, documented float32 layout per world definition.

Layer: observe. The layout (`ObservationLayout.segments`) is a list of named slices; every value is
scaled into [0, 1] (or [-1, 1] for the time-of-day pair). Areas, places, object kinds and NPC
prototypes that world expansion adds take the layout's spare slots (`observe.slots`) in the order
they appear; beyond those, and for tutorial rooms, there is no slot and they are left out.

Encoding is sparse: the buffer is zeroed and only what the agent can see is written, so the cost per
agent grows with what is near it, not with the size of the world. Per-agent visited-area vectors are
kept incrementally (visits only ever grow).

A world with darkness (`features.darkness`) has one more segment, last, so every other offset is
that of the same world without it: `in_darkness`, 1 while the agent cannot see (`world.darkness`).
Then what darkness hides reads 0: the segments `HIDDEN_IN_DARK` and the `coins` stat (coins are
counted in the hands and containers, all hidden) (docs/world-format.md#91-darkness). Where the dark
hides only the surroundings (`features.darkness.hides` "surroundings": AgentOdyssey's quarantine),
only the segments `HIDDEN_IN_DIM` read 0, and the coins are shown.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from agentodyssey_pz.observe.slots import SlotTable
from agentodyssey_pz.world.agents import AgentState, carried_stores
from agentodyssey_pz.world.darkness import in_darkness
from agentodyssey_pz.world.graph import LOCKED, OWNER
from agentodyssey_pz.world.schema import WorldDefinition

if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game

# Scales: a value v is shown as min(1, v / scale), counts as min(1, log1p(n) / log1p(scale)).
ATTACK_SCALE = 100.0
DEFENSE_SCALE = 50.0
LEVEL_SCALE = 20.0
COIN_SCALE = 1000.0
COUNT_SCALE = 20.0
NPC_COUNT_SCALE = 5.0
SIDE_QUEST_SCALE = 20.0
TUTORIAL_STEPS = 28
SECONDS_PER_DAY = 86400.0


@attrs.frozen
class Segment:
    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


# The segments that read 0 while an agent is in the dark: what it holds and wears (the inventory
# is worn), the ground, the NPCs and the other agents.
HIDDEN_IN_DARK = (
    "ground",
    "hands",
    "equipped",
    "inventory",
    "npc_count",
    "npc_health",
    "npc_enemy",
    "npc_fighting_me",
    "agents_here",
)

# Where the dark hides only the surroundings: the ground, the NPCs and the other agents.
HIDDEN_IN_DIM = (
    "ground",
    "npc_count",
    "npc_health",
    "npc_enemy",
    "npc_fighting_me",
    "agents_here",
)

SELF_FIELDS = (
    "hp_fraction",
    "attack",
    "defense",
    "level",
    "xp_fraction",
    "stamina",
    "defending",
    "in_combat",
    "coins",
)


class ObservationLayout:
    """Slot positions of one world definition, with `spare` extra slots per kind of target (areas,
    places, object kinds, NPC prototypes) for what world expansion adds (`observe.slots`)."""

    def __init__(self, definition: WorldDefinition, spare: int = 0) -> None:
        self.spare = spare
        self.areas = SlotTable((a.id for _, a in definition.iter_areas()), spare)
        self.places = SlotTable((p.id for p in definition.entities.places), spare)
        self.objects = SlotTable((o.id for o in definition.entities.objects), spare)
        self.protos = SlotTable((n.id for n in definition.entities.npcs), spare)
        # The tables' own dicts: binding a new id makes it visible to every reader at once.
        self.area_index = self.areas.index
        self.place_index = self.places.index
        self.object_index = self.objects.index
        self.proto_index = self.protos.index
        areas, objects, protos = self.areas.size, self.objects.size, self.protos.size
        order = "definition order" + (f", then {spare} spare slots for expansion" if spare else "")
        spec = [
            ("self", len(SELF_FIELDS), "own stats: " + ", ".join(SELF_FIELDS)),
            ("area", areas, f"one-hot: the area I stand in ({order})"),
            ("place", self.places.size, "one-hot: the place I stand in"),
            ("neighbors", areas, "1 for each area one path away that I can use"),
            ("locked", areas, "1 for each neighbouring area whose path is locked"),
            ("visited", areas, "1 for each area I have visited"),
            ("ground", objects, "units per object kind on the ground here (log-scaled)"),
            ("hands", objects, "units per object kind in my hands (log-scaled)"),
            ("equipped", objects, "units per object kind I have equipped (log-scaled)"),
            ("inventory", objects, "units per object kind in my equipped inventory (log-scaled)"),
            ("npc_count", protos, "NPCs of each prototype here that I can see (count / 5)"),
            ("npc_health", protos, "mean health fraction of those NPCs"),
            ("npc_enemy", protos, "1 if such NPCs here are enemies"),
            ("npc_fighting_me", protos, "1 if one of them is in rhythm combat with me"),
            ("agents_here", 1, "other agents in my area / other agents in the game"),
            ("quest", 4, "main quest: chapter share, stage share, complete; side quests done / 20"),
            ("tutorial", 2, "tutorial progress (stage / 28), tutorial passed"),
            ("time", 2, "time of day as sin and cos"),
        ]
        darkness = definition.features.darkness
        if darkness is not None and darkness.hides == "surroundings":
            spec.append(
                (
                    "in_darkness",
                    1,
                    "1 when I am in the dark (no burning light in an unlit area); then "
                    f"{', '.join(HIDDEN_IN_DIM)} read 0",
                )
            )
        elif darkness is not None:
            hidden = ", ".join(HIDDEN_IN_DARK)
            spec.append(
                (
                    "in_darkness",
                    1,
                    "1 when I cannot see (an unlit area, no light in hand); then "
                    f"{hidden} and the coins stat read 0",
                )
            )
        self.segments: list[Segment] = []
        start = 0
        for name, size, meaning in spec:
            self.segments.append(Segment(name, start, size, meaning))
            start += size
        self.size = start
        self.at = {s.name: s.start for s in self.segments}
        self.hides_holdings = darkness is None or darkness.hides != "surroundings"

    def describe(self) -> str:
        return "\n".join(f"[{s.start}:{s.stop}] {s.name}: {s.meaning}" for s in self.segments)


def _count(n: float, scale: float = COUNT_SCALE) -> float:
    return min(1.0, math.log1p(n) / math.log1p(scale))


_COUNTS = [_count(n) for n in range(int(COUNT_SCALE) + 1)]  # counts at or above the scale read 1.0
_TOP = len(_COUNTS) - 1


class VectorEncoder:
    """Writes observations into caller-owned float32 buffers.

    The hot path: segment offsets are plain attributes, scalar writes go through a memoryview
    (about twice as fast as numpy item assignment), object ids map to their slot through a cache
    (instances included), and the clock is computed once per tick."""

    def __init__(self, layout: ObservationLayout, n_agents: int) -> None:
        self.layout = layout
        self.n_others = max(1, n_agents - 1)
        at = layout.at
        self._self = at["self"]
        self._area, self._place = at["area"], at["place"]
        self._neighbors, self._locked = at["neighbors"], at["locked"]
        self._visited_at = at["visited"]
        self._ground, self._hands = at["ground"], at["hands"]
        self._equipped, self._inventory = at["equipped"], at["inventory"]
        self._npc_count, self._npc_health = at["npc_count"], at["npc_health"]
        self._npc_enemy, self._npc_fighting = at["npc_enemy"], at["npc_fighting_me"]
        self._agents_here, self._quest = at["agents_here"], at["quest"]
        self._tutorial, self._time = at["tutorial"], at["time"]
        self._dark: int | None = at.get("in_darkness")  # None: a world without darkness
        # In the dark, also what I hold and wear is hidden (else only the surroundings).
        self._dark_holdings = layout.hides_holdings
        self._n_areas = layout.areas.size
        self._visited: dict[str, tuple[dict[str, None], int, memoryview]] = {}
        self._slot: dict[str, int] = {}  # object id (definition or instance) -> slot, -1: none
        self._slot_world: object = None  # the World the slot cache was filled from
        self._clock: tuple[int | None, tuple[float, float]] = (None, (0.0, 1.0))

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_visited"] = {}  # memoryviews do not pickle; the cache refills itself
        return state

    def reset(self) -> None:
        self.forget_slots()
        self._slot_world = None
        self._clock = (None, (0.0, 1.0))

    def forget_slots(self) -> None:
        """Drop what was cached from slot lookups (the layout bound or unbound spare slots)."""
        self._visited.clear()
        self._slot.clear()

    def _visited_vector(self, agent: AgentState) -> memoryview:
        """The agent's visited segment, as a memoryview: copying it into the observation's view is a
        plain memory copy, without numpy's slicing machinery."""
        visited = agent.visited
        cached = self._visited.get(agent.id)
        # Visits only ever grow, so the count tells whether they changed - unless the record
        # itself was swapped for another (a restored or imported agent).
        if cached is None or cached[0] is not visited or cached[1] != len(visited):
            vec = np.zeros(self._n_areas, dtype=np.float32)
            index = self.layout.area_index
            for area_id in visited:
                i = index.get(area_id)
                if i is not None:
                    vec[i] = 1.0
            cached = self._visited[agent.id] = (visited, len(visited), memoryview(vec))
        return cached[2]

    def encode(self, game: Game, agent: AgentState, out: np.ndarray | None = None) -> np.ndarray:
        """The agent's observation vector, written into `out` (a new array when None)."""
        lay, world = self.layout, game.world
        if out is None:
            out = np.zeros(lay.size, dtype=np.float32)
        else:
            out.fill(0.0)
        view: memoryview[float] = memoryview(out)
        dark = self._dark is not None and in_darkness(world, agent)
        self._self_stats(game, agent, view, dark and self._dark_holdings)
        area_id = agent.area_id
        area = world.areas[area_id]
        i = lay.area_index.get(area_id)
        if i is not None:
            view[self._area + i] = 1.0
        p = lay.place_index.get(area.place_id)
        if p is not None:
            view[self._place + p] = 1.0
        area_index, me = lay.area_index, agent.id
        for neighbor, path in world.graph.neighbors(area_id).items():
            j = area_index.get(neighbor)
            if j is not None and (path[OWNER] is None or path[OWNER] == me):
                view[self._neighbors + j] = 1.0
                if path[LOCKED]:
                    view[self._locked + j] = 1.0
        start = self._visited_at
        view[start : start + self._n_areas] = self._visited_vector(agent)
        if world is not self._slot_world:  # a new episode or a restored state: new instance ids
            self._slot.clear()
            self._slot_world = world
        if dark:  # what darkness hides stays 0 (`HIDDEN_IN_DARK`, or `HIDDEN_IN_DIM`)
            view[self._dark] = 1.0  # not None: `dark` says so
        if not dark or not self._dark_holdings:
            self._counts(world, agent.hands, view, self._hands)
            self._counts(world, agent.equipped, view, self._equipped)
            if agent.inventory_id is not None:
                inventory = world.containers[agent.inventory_id].items
                self._counts(world, inventory, view, self._inventory)
        if not dark:
            self._counts(world, area.objects, view, self._ground)
            self._npcs(world, agent, view)
            view[self._agents_here] = (game.count_in(area_id) - 1) / self.n_others
        self._progress(agent, view)
        sin, cos = self._time_of_day(game)
        view[self._time] = sin
        view[self._time + 1] = cos
        return out

    def _time_of_day(self, game: Game) -> tuple[float, float]:
        """(sin, cos) of the time of day; computed once per tick, shared by every agent."""
        if self._clock[0] != game.tick_index:
            day = game.seconds_of_day() / SECONDS_PER_DAY
            angle = 2 * math.pi * day
            self._clock = (game.tick_index, (math.sin(angle), math.cos(angle)))
        return self._clock[1]

    def _self_stats(
        self, game: Game, agent: AgentState, view: memoryview[float], dark: bool
    ) -> None:
        world = game.world
        coin = world.currency_id
        coins = 0
        # What a purchase can spend: hands, inventory, containers in hand (none seen in the dark).
        if coin is not None and not dark:
            for store in carried_stores(world, agent):
                coins += store.get(coin, 0)
        # Clipped with comparisons rather than min() and max(), which cost 3.11 about 90 ns a
        # call here against 12: this runs for every agent on every tick.
        s = self._self
        hp = agent.hp / agent.max_hp if agent.max_hp else 0.0
        view[s] = hp if hp > 0.0 else 0.0
        attack = agent.attack / ATTACK_SCALE
        view[s + 1] = (attack if attack < 1.0 else 1.0) if attack > 0.0 else 0.0
        defense = agent.defense / DEFENSE_SCALE
        view[s + 2] = defense if defense < 1.0 else 1.0
        level = agent.level / LEVEL_SCALE
        view[s + 3] = level if level < 1.0 else 1.0
        view[s + 4] = agent.xp / game.config.xp_per_level
        view[s + 5] = agent.stamina
        view[s + 6] = 1.0 if agent.defending else 0.0
        view[s + 7] = 1.0 if agent.combats else 0.0
        view[s + 8] = _count(coins, COIN_SCALE) if coins else 0.0

    def _slot_of(self, world, oid: str) -> int:
        i = self.layout.object_index.get(world.def_of(oid).id)
        slot = self._slot[oid] = -1 if i is None else i
        return slot

    def _counts(self, world, store: dict[str, int], view: memoryview[float], start: int) -> None:
        if not store:
            return
        slots = self._slot
        if len(store) == 1:  # the common case: nothing to add up
            for oid, n in store.items():
                i = slots.get(oid)
                if i is None:
                    i = self._slot_of(world, oid)
                if i >= 0:
                    view[start + i] = _COUNTS[n] if n < _TOP else 1.0
            return
        totals: dict[int, int] = {}  # instances of one kind add up before scaling
        for oid, n in store.items():
            i = slots.get(oid)
            if i is None:
                i = self._slot_of(world, oid)
            if i >= 0:
                totals[i] = totals.get(i, 0) + n
        for i, n in totals.items():
            view[start + i] = _COUNTS[n] if n < _TOP else 1.0

    def _npcs(self, world, agent: AgentState, view: memoryview[float]) -> None:
        here = world.visible_npcs(agent.area_id, agent.id)  # not other agents' personal NPCs
        if not here:
            return
        proto_index, npcs = self.layout.proto_index, world.npcs
        combats = agent.combats
        seen: dict[int, list[float]] = {}
        for npc_id in here:
            npc = npcs[npc_id]
            i = proto_index.get(npc.def_id)
            if i is None:
                continue
            health = npc.hp / npc.max_hp if npc.max_hp else 0.0
            found = seen.get(i)
            if found is None:
                seen[i] = [health]
            else:
                found.append(health)
            if npc.enemy:
                view[self._npc_enemy + i] = 1.0
            if npc_id in combats:
                view[self._npc_fighting + i] = 1.0
        for i, healths in seen.items():  # clipped by comparisons, as in `_self_stats`
            count = len(healths) / NPC_COUNT_SCALE
            view[self._npc_count + i] = count if count < 1.0 else 1.0
            health = sum(healths) / len(healths)
            view[self._npc_health + i] = health if health < 1.0 else 1.0

    def _progress(self, agent: AgentState, view: memoryview[float]) -> None:
        q = self._quest
        progress = agent.progress
        quest = progress.get("main_quest")
        if quest:  # clipped by comparisons, as in `_self_stats`
            chapters, stages = quest.get("chapters", 1), quest.get("stages", 1)
            chapter = quest.get("chapter", 0) / (chapters if chapters > 1 else 1)
            view[q] = chapter if chapter < 1.0 else 1.0
            completed = len(quest.get("completed", ())) / (stages if stages > 1 else 1)
            view[q + 1] = completed if completed < 1.0 else 1.0
            view[q + 2] = 1.0 if quest.get("complete") else 0.0
        side = progress.get("side_quest")
        if side:
            done = sum((side.get("completed_count") or {}).values()) / SIDE_QUEST_SCALE
            view[q + 3] = done if done < 1.0 else 1.0
        t = self._tutorial
        stage = agent.tutorial_stage / TUTORIAL_STEPS
        view[t] = stage if stage < 1.0 else 1.0
        view[t + 1] = 1.0 if agent.tutorial_passed else 0.0
