"""Numeric observations: a fixed, documented float32 layout per world definition.

Layer: observe. The layout (`ObservationLayout.segments`) is a list of named slices; every value is
scaled into [0, 1] (or [-1, 1] for the time-of-day pair). Things that did not exist in the
definition
(areas or objects added by world expansion, tutorial rooms) have no slot and are left out.

Encoding is sparse: the buffer is zeroed and only what the agent can see is written, so the cost per
agent grows with what is near it, not with the size of the world. Per-agent visited-area vectors are
kept incrementally (visits only ever grow).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import attrs
import numpy as np

from agentodyssey_pz.world.agents import AgentState
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
    """Slot positions of one world definition."""

    def __init__(self, definition: WorldDefinition) -> None:
        self.area_ids = [a.id for _, a in definition.iter_areas()]
        self.place_ids = [p.id for p in definition.entities.places]
        self.object_ids = [o.id for o in definition.entities.objects]
        self.proto_ids = [n.id for n in definition.entities.npcs]
        self.area_index = {a: i for i, a in enumerate(self.area_ids)}
        self.place_index = {p: i for i, p in enumerate(self.place_ids)}
        self.object_index = {o: i for i, o in enumerate(self.object_ids)}
        self.proto_index = {n: i for i, n in enumerate(self.proto_ids)}
        areas, objects, protos = len(self.area_ids), len(self.object_ids), len(self.proto_ids)
        spec = [
            ("self", len(SELF_FIELDS), "own stats: " + ", ".join(SELF_FIELDS)),
            ("area", areas, "one-hot: the area I stand in (definition order)"),
            ("place", len(self.place_ids), "one-hot: the place I stand in"),
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
        self.segments: list[Segment] = []
        start = 0
        for name, size, meaning in spec:
            self.segments.append(Segment(name, start, size, meaning))
            start += size
        self.size = start
        self.at = {s.name: s.start for s in self.segments}

    def describe(self) -> str:
        return "\n".join(f"[{s.start}:{s.stop}] {s.name}: {s.meaning}" for s in self.segments)


def _count(n: float, scale: float = COUNT_SCALE) -> float:
    return min(1.0, math.log1p(n) / math.log1p(scale))


_COUNTS = [_count(n) for n in range(int(COUNT_SCALE) + 1)]  # counts at or above the scale read 1.0


class VectorEncoder:
    """Writes observations into caller-owned float32 buffers."""

    def __init__(self, layout: ObservationLayout, n_agents: int) -> None:
        self.layout = layout
        self.n_others = max(1, n_agents - 1)
        self._visited: dict[str, tuple[int, np.ndarray]] = {}
        self._clock: tuple[int | None, tuple[float, float]] = (None, (0.0, 1.0))

    def reset(self) -> None:
        self._visited.clear()
        self._clock = (None, (0.0, 1.0))

    def _visited_vector(self, agent: AgentState) -> np.ndarray:
        seen = len(agent.visited)
        cached = self._visited.get(agent.id)
        if cached is None or cached[0] != seen:
            vec = np.zeros(len(self.layout.area_ids), dtype=np.float32)
            index = self.layout.area_index
            for area_id in agent.visited:
                i = index.get(area_id)
                if i is not None:
                    vec[i] = 1.0
            cached = self._visited[agent.id] = (seen, vec)
        return cached[1]

    def encode(self, game: Game, agent: AgentState, out: np.ndarray) -> np.ndarray:
        lay, world = self.layout, game.world
        at = lay.at
        out.fill(0.0)
        self._self_stats(game, agent, out, at["self"])
        area_id = agent.area_id
        area = world.areas[area_id]
        i = lay.area_index.get(area_id)
        if i is not None:
            out[at["area"] + i] = 1.0
        p = lay.place_index.get(area.place_id)
        if p is not None:
            out[at["place"] + p] = 1.0
        for neighbor, path in world.graph.neighbors(area_id).items():
            j = lay.area_index.get(neighbor)
            if j is not None and (path[OWNER] is None or path[OWNER] == agent.id):
                out[at["neighbors"] + j] = 1.0
                if path[LOCKED]:
                    out[at["locked"] + j] = 1.0
        start = at["visited"]
        out[start : start + len(lay.area_ids)] = self._visited_vector(agent)
        self._counts(world, area.objects, out, at["ground"])
        self._counts(world, agent.hands, out, at["hands"])
        self._counts(world, agent.equipped, out, at["equipped"])
        if agent.inventory_id is not None:
            self._counts(world, world.containers[agent.inventory_id].items, out, at["inventory"])
        self._npcs(game, agent, out)
        others = len(game.agents_in(area_id)) - 1
        out[at["agents_here"]] = others / self.n_others
        self._progress(agent, out, at)
        out[at["time"] : at["time"] + 2] = self._time_of_day(game)
        return out

    def _time_of_day(self, game: Game) -> tuple[float, float]:
        """(sin, cos) of the time of day; computed once per tick, shared by every agent."""
        if self._clock[0] != game.tick_index:
            moment = game.time
            day = (moment.hour * 3600 + moment.minute * 60 + moment.second) / SECONDS_PER_DAY
            angle = 2 * math.pi * day
            self._clock = (game.tick_index, (math.sin(angle), math.cos(angle)))
        return self._clock[1]

    def _self_stats(self, game: Game, agent: AgentState, out: np.ndarray, s: int) -> None:
        world = game.world
        coin = world.currency_id
        coins = 0
        if coin is not None:
            coins = agent.hands.get(coin, 0)
            if agent.inventory_id is not None:
                coins += world.containers[agent.inventory_id].items.get(coin, 0)
        out[s] = max(0.0, agent.hp / agent.max_hp) if agent.max_hp else 0.0
        out[s + 1] = min(1.0, max(0.0, agent.attack / ATTACK_SCALE))
        out[s + 2] = min(1.0, agent.defense / DEFENSE_SCALE)
        out[s + 3] = min(1.0, agent.level / LEVEL_SCALE)
        out[s + 4] = agent.xp / game.config.xp_per_level
        out[s + 5] = agent.stamina
        out[s + 6] = 1.0 if agent.defending else 0.0
        out[s + 7] = 1.0 if agent.combats else 0.0
        out[s + 8] = _count(coins, COIN_SCALE)

    def _counts(self, world, store: dict[str, int], out: np.ndarray, start: int) -> None:
        if not store:
            return
        index, def_of = self.layout.object_index, world.def_of
        totals: dict[int, int] = {}  # instances of one kind add up before scaling
        for oid, n in store.items():
            i = index.get(def_of(oid).id)
            if i is not None:
                totals[i] = totals.get(i, 0) + n
        table, top = _COUNTS, len(_COUNTS) - 1
        for i, n in totals.items():
            out[start + i] = table[n] if n < top else 1.0

    def _npcs(self, game: Game, agent: AgentState, out: np.ndarray) -> None:
        lay, world = self.layout, game.world
        at = lay.at
        seen: dict[int, list[float]] = {}
        for npc in world.npcs_seen_by(agent.area_id, agent.id):
            i = lay.proto_index.get(npc.def_id)
            if i is None:
                continue
            seen.setdefault(i, []).append(npc.hp / npc.max_hp if npc.max_hp else 0.0)
            if npc.enemy:
                out[at["npc_enemy"] + i] = 1.0
            if npc.id in agent.combats:
                out[at["npc_fighting_me"] + i] = 1.0
        for i, healths in seen.items():
            out[at["npc_count"] + i] = min(1.0, len(healths) / NPC_COUNT_SCALE)
            out[at["npc_health"] + i] = min(1.0, sum(healths) / len(healths))

    def _progress(self, agent: AgentState, out: np.ndarray, at: dict[str, int]) -> None:
        quest = agent.progress.get("main_quest")
        if quest:
            chapters = max(1, quest.get("chapters", 1))
            out[at["quest"]] = min(1.0, quest.get("chapter", 0) / chapters)
            out[at["quest"] + 1] = min(
                1.0, len(quest.get("completed", ())) / max(1, quest.get("stages", 1))
            )
            out[at["quest"] + 2] = 1.0 if quest.get("complete") else 0.0
        side = agent.progress.get("side_quest")
        if side:
            done = sum((side.get("completed_count") or {}).values())
            out[at["quest"] + 3] = min(1.0, done / SIDE_QUEST_SCALE)
        out[at["tutorial"]] = min(1.0, agent.tutorial_stage / TUTORIAL_STEPS)
        out[at["tutorial"] + 1] = 1.0 if agent.tutorial_passed else 0.0
