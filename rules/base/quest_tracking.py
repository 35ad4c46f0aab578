"""What the main quest records as agents play, for the conditions that look back in time: kill
records, dark areas lit, NPCs talked to and bought from (per agent, in its quest progress, from
the tick its quest starts), and NPCs killed by anyone (in the quest's shared state).

Rule pack `base`; docs/world-format.md#111-main-quest. Only what some condition of the quest reads
is recorded (`QuestNeeds`, worked out once per quest), so a quest using none of these kinds keeps
and costs nothing. Records stay small without losing anything a condition can tell apart: kills
are counted per distinct (enemy, role, dark, level), the only facts the kill filters read; areas,
NPC ids and (NPC, object) pairs are kept once each, and only for the NPCs conditions name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Pair, Record
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.quest_records import LIGHT_OBJECT, Condition, MainQuestDef
from agentodyssey_pz.world.world import World

# The shapes of the records in an agent's quest progress and in the quest's shared state.
KILL_RECORD = Record({"enemy": bool, "role": str, "dark": bool, "level": int, "count": int})
PROGRESS_RECORDS = {
    "kills": ListOf(KILL_RECORD),
    "lit": MapOf(ListOf(str)),  # light object id -> dark areas lit with it
    "talked": ListOf(str),  # NPC instance ids
    "bought": ListOf(Pair(str, str)),  # (NPC instance id, object definition id)
}
SHARED_RECORDS = {"killed": ListOf(str)}  # NPC instance ids anyone killed (`npc_dead`)


@attrs.frozen
class QuestNeeds:
    """What a quest's conditions read back: which records its agents' play must keep."""

    kills: bool = False  # killed_matching, killed_each_role
    light_objects: tuple[str, ...] = ()  # lit_dark_areas
    talk_npcs: tuple[str, ...] = ()  # talked_to: the NPC references
    bought_npcs: tuple[str, ...] = ()  # bought_from
    dead_npcs: tuple[str, ...] = ()  # npc_dead
    per_agent: bool = False  # any of the agents' own records (asked for every agent every tick)


def _walk(conditions: Iterable[Condition]) -> Iterable[Condition]:
    for cond in conditions:
        yield cond
        yield from _walk(cond.conditions)


def needs_of(quest: MainQuestDef) -> QuestNeeds:
    """The records a quest's stage conditions read (each reference listed once, in order)."""
    found: dict[str, dict[str, None]] = {
        "light": {}, "talk": {}, "bought": {}, "dead": {}
    }  # fmt: skip
    kills = False
    for chapter in quest.chapters:
        for stage in chapter.stages:
            for cond in _walk((*(stage.done_all or ()), *(stage.done_any or ()))):
                kind, params = cond.kind, cond.params
                if kind in ("killed_matching", "killed_each_role"):
                    kills = True
                elif kind == "lit_dark_areas":
                    found["light"][params.get("light_object", LIGHT_OBJECT)] = None
                elif kind == "talked_to":
                    found["talk"][params["npc"]] = None
                elif kind == "bought_from":
                    found["bought"][params["npc"]] = None
                elif kind == "npc_dead":
                    found["dead"][params["npc"]] = None
    return QuestNeeds(
        kills,
        tuple(found["light"]),
        tuple(found["talk"]),
        tuple(found["bought"]),
        tuple(found["dead"]),
        per_agent=kills or bool(found["light"] or found["talk"] or found["bought"]),
    )


def record_agent(
    world: World,
    agent: AgentState,
    res: RuleResult,
    progress: dict[str, Any],
    needs: QuestNeeds,
    resolve: Callable[[Any], Any],
) -> None:
    """This tick's records for one agent whose quest runs (`resolve`: its quest variables)."""
    mine = res.by_agent.get(agent.id)  # this tick's events of the agent: most ticks, a few
    if needs.kills and mine:
        for event in mine:  # a plain loop: most ticks hold no kill
            if event.type == "npc_killed":
                record_kills(world, res.events_of(agent.id, "npc_killed"), progress)
                break
    # Only an agent holding something in an unlit area can light it (`record_light`'s own test,
    # made here first: every agent, every tick).
    if needs.light_objects and agent.hands and not world.areas[agent.area_id].light:
        record_light(world, agent, progress, needs.light_objects)
    if not mine:
        return
    # The watched NPCs are resolved only on a tick with a talk or a purchase: most ticks hold none.
    talks = res.events_of(agent.id, "npc_talked_to") if needs.talk_npcs else None
    if talks:
        watched = {resolve(ref) for ref in needs.talk_npcs}
        talked = None
        for event in talks:
            npc_id = event.data.get("npc_id")
            if npc_id in watched:
                talked = progress.setdefault("talked", []) if talked is None else talked
                if npc_id not in talked:
                    talked.append(npc_id)
    purchases = res.events_of(agent.id, "object_bought") if needs.bought_npcs else None
    if purchases:
        watched = {resolve(ref) for ref in needs.bought_npcs}
        for event in purchases:
            obj = world.find_def(event.data.get("obj_id", ""))
            if event.data.get("npc_id") in watched and obj is not None:
                pair = [event.data["npc_id"], obj.id]
                bought = progress.setdefault("bought", [])
                if pair not in bought:
                    bought.append(pair)


def record_kills(world: World, events: list[Any], progress: dict[str, Any]) -> None:
    """One kill record per `npc_killed` event of the agent (any verb): the NPC's enemy flag and
    role now, the kill area's darkness and level, counted per distinct record."""
    for event in events:
        npc = world.npcs.get(event.data.get("npc_id", ""))
        area = world.areas.get(event.data.get("area_id", ""))
        fact = {
            "enemy": bool(npc is not None and npc.enemy),
            "role": npc.role if npc is not None else "",
            "dark": bool(area is not None and not area.light),
            "level": area.level if area is not None else 0,
        }
        records = progress.setdefault("kills", [])
        for record in records:
            if all(record[key] == value for key, value in fact.items()):
                record["count"] += 1
                break
        else:
            records.append({**fact, "count": 1})


def record_light(
    world: World, agent: AgentState, progress: dict[str, Any], light_objects: tuple[str, ...]
) -> None:
    """The agent's area, when it is dark and the agent holds a unit of a light object."""
    area = world.areas[agent.area_id]
    if area.light or not agent.hands:
        return
    def_of = world.def_of
    held = [def_of(oid).id for oid in agent.hands]
    for light in light_objects:
        if light in held:
            lit = progress.setdefault("lit", {}).setdefault(light, [])
            if area.id not in lit:
                lit.append(area.id)


def record_deaths(res: RuleResult, state: dict[str, Any], watched: set[Any]) -> None:
    """Every `npc_killed` event of this tick (any agent) of a watched NPC, kept for good."""
    for event in res.events:
        if event.type == "npc_killed" and event.data.get("npc_id") in watched:
            killed = state.setdefault("killed", [])
            if event.data["npc_id"] not in killed:
                killed.append(event.data["npc_id"])
