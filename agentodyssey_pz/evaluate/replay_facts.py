"""What diagnostics and QA need beyond a trajectory log, found by playing the log again.

Side module (evaluation). A log records actions, rewards, flags and areas; some figures also need
the world: how many object kinds it defines, what an agent carried, where it stood and what the
clock said when it chose each action. `replay_facts` rebuilds the env from the log header
(`trajectory.replay_env`), feeds the logged actions tick by tick and notes those facts, so
nothing is read from anywhere but the log and this project's own engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from agentodyssey_pz.evaluate.trajectory import replay_env
from agentodyssey_pz.world.agents import carried_stores


@attrs.frozen
class Before:
    """Where an agent stood, and when, as it chose one logged action."""

    tick: int
    area: str  # area id
    area_name: str
    time: str  # the game clock as the observation shows it
    tutorial: bool  # it stood in a tutorial room


@attrs.frozen
class AgentFacts:
    """One agent's facts over a replayed episode."""

    before: tuple[Before, ...]  # one per logged step record, in order
    acquired: tuple[str, ...]  # the engine's record of definition ids carried (rule-pack rules)
    carried: tuple[str, ...]  # every definition id seen carried after a tick outside tutorials
    visited: tuple[str, ...]  # area ids, in first-visit order
    crafted: tuple[str, ...]  # definition ids crafted
    killed: tuple[str, ...]  # NPC definition ids killed


@attrs.frozen
class EpisodeFacts:
    """Facts of one replayed episode: the world's object kinds, the verbs, per-agent facts, and
    the env at the end (for world-knowledge questions)."""

    object_kinds: int  # object definitions of the world at reset
    verbs: tuple[str, ...]  # the typed phrases of every verb of the rule set, in rule order
    agents: Mapping[str, AgentFacts]
    env: Any


def replay_facts(header: Mapping[str, Any], steps: Sequence[Mapping[str, Any]]) -> EpisodeFacts:
    """Replay a log (header and step records) and collect its `EpisodeFacts`."""
    env = replay_env(header)
    game = env.game
    world = game.world
    object_kinds = len(world.objects)
    verbs = tuple(rule.verb for rule in game.engine.rules.values())
    by_tick: dict[int, list[Mapping[str, Any]]] = {}
    for record in steps:
        by_tick.setdefault(int(record["tick"]), []).append(record)
    before: dict[str, list[Before]] = {}
    carried: dict[str, dict[str, None]] = {}
    for tick in sorted(by_tick):
        logged = by_tick[tick]
        clock = game.time_text
        for record in logged:
            agent = game.agents[record["agent"]]
            area = world.areas.get(agent.area_id)
            name = area.name if area is not None else agent.area_id
            seen = Before(tick, agent.area_id, name, clock, game.in_tutorial_room(agent))
            before.setdefault(record["agent"], []).append(seen)
        env.step({r["agent"]: r["action"] for r in logged})
        for record in logged:
            agent = game.agents[record["agent"]]
            if game.in_tutorial_room(agent):
                continue
            mine = carried.setdefault(record["agent"], {})
            for store in (agent.equipped, *carried_stores(world, agent)):
                for oid in store:
                    found = world.find_def(oid)
                    if found is not None:
                        mine[found.id] = None
    agents = {}
    for agent_id in before:
        agent = game.agents[agent_id]
        agents[agent_id] = AgentFacts(
            before=tuple(before[agent_id]),
            acquired=tuple(agent.acquired),
            carried=tuple(carried.get(agent_id, {})),
            visited=tuple(agent.visited),
            crafted=tuple(agent.crafted),
            killed=tuple(dict.fromkeys(_npc_definition(world, npc) for npc in agent.killed)),
        )
    return EpisodeFacts(object_kinds, verbs, agents, env)


def _npc_definition(world: Any, npc_id: str) -> str:
    """The definition id of an NPC instance (it may have left the map)."""
    npc = world.npcs.get(npc_id)
    return npc.def_id if npc is not None else npc_id
