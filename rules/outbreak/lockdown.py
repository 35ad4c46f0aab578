"""`quarantine_lockdown_step` (priority 9): an area whose corpses lie too long is sealed off until
a master keycard overrides it.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine. State:
`world.auxiliary["quarantine_lockdown"][area] = {timer, active, locked_paths: [{from, to}],
locked_containers: [ids]}`. Per tick:

1. override: each living agent (agent order) standing in an area under an active lockdown with an
   `obj_master_keycard` (the `keycard` setting) in its possession sources uses one up (the first
   source holding one); every recorded path is unlocked both ways, the recorded containers are
   released; a line; `quarantine_lockdown_overridden {area_id}`; the record goes back to timer 0,
   inactive, empty lists;
2. each area of the corpse table (table order): without corpses, an inactive record's timer goes
   back to 0; with corpses and no active lockdown, `timer += 1`: a line to the agents there when
   it reaches half the threshold (4) and when it reaches threshold - 1 (7); at the threshold (8)
   or more it is active: every unlocked path out of it is locked both ways and recorded, every
   container instance on its ground recorded; lines to the agents there and in the neighbours
   now cut off; `quarantine_lockdown_activated {area_id, locked_paths, locked_containers}` (a
   world event).

Only the keycard lifts a lockdown: burning the corpses does not. A locked exit still opens for a
key that fits it (a path the lockdown locked keeps its key, none for most). AgentOdyssey marks the
recorded containers `quarantine_locked`, a flag no verb reads, so they stay usable; here the
record is the mark, read by nothing either (the default). With the setting `seal_containers` true
the recorded containers are also sealed (`world.sealed`: the base `store`, `take out` and
`discard` refuse them and do not list them, wherever they are) until the override releases them.
A personal path (a tutorial room's) is never
locked, so nobody is shut inside a tutorial room. Draws nothing.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.world.graph import LOCKED, OWNER

from .common import (
    BARRICADED,
    CORPSES,
    LOCKDOWN,
    SEALED,
    SHAPES,
    KeepsStates,
    peek,
    table,
    take_one,
)

KEYCARD = "obj_master_keycard"
WHY_SEALED = "under quarantine"


def fresh_record() -> dict[str, Any]:
    return {"timer": 0, "active": False, "locked_paths": [], "locked_containers": []}


class QuarantineLockdown(KeepsStates, BaseStepRule):
    name = "quarantine_lockdown_step"
    priority = 9
    description = "Areas with corpses left too long are sealed off until a master keycard."
    state_key = LOCKDOWN
    state_shape = SHAPES[LOCKDOWN]
    states = (BARRICADED, SEALED)  # the barricade verb's record, declared here
    # seal_containers: AgentOdyssey records the containers and nothing reads it (False); True
    # makes them refuse use until the override (docs/rule-packs.md#the-outbreak-pack).
    settings = {"threshold": 8, "keycard": KEYCARD, "seal_containers": False}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        records = table(world, LOCKDOWN)
        graph = world.graph
        for agent in game.agents.values():
            if agent.hp <= 0:
                continue
            record = records.get(agent.area_id)
            if not record or not record["active"]:
                continue
            if not take_one(world, agent, self.settings["keycard"], res):
                continue
            for path in record["locked_paths"]:
                a, b = path["from"], path["to"]
                if a in graph and b in graph and graph.path(a, b) is not None:
                    graph.set_locked(a, b, False)
            sealed = world.auxiliary.get(SEALED)
            if sealed:
                for box in record["locked_containers"]:
                    sealed.pop(box, None)
                if not sealed:
                    del world.auxiliary[SEALED]
            name = world.areas[agent.area_id].name
            res.say(
                agent.id,
                "lockdown.overridden",
                f"I swiped the master keycard: the quarantine of {name} is lifted.",
            )
            res.emit("quarantine_lockdown_overridden", agent.id, {"area_id": agent.area_id})
            records[agent.area_id] = fresh_record()
        threshold = self.settings["threshold"]
        half = threshold // 2
        for area_id, corpses in peek(world, CORPSES).items():
            record = records.get(area_id)
            if not corpses:
                if record is not None and not record["active"]:
                    record["timer"] = 0
                continue
            if record is None:
                record = records[area_id] = fresh_record()
            if record["active"]:
                continue
            old = record["timer"]
            new = record["timer"] = old + 1
            area = world.areas.get(area_id)
            name = area.name if area is not None else area_id
            if old < half <= new:
                self.tell(ctx, res, area_id, "lockdown.warning", f"Alarms sound in {name}.")
            if new == threshold - 1:
                self.tell(
                    ctx,
                    res,
                    area_id,
                    "lockdown.imminent",
                    f"Quarantine of {name} is imminent: the doors are about to seal.",
                )
            if new < threshold:
                continue
            record["active"] = True
            if area is None or area_id not in graph:
                continue
            locked = []
            for neighbor, path in graph.neighbors(area_id).items():
                if not path[LOCKED] and path[OWNER] is None:
                    graph.set_locked(area_id, neighbor, True)
                    locked.append({"from": area_id, "to": neighbor})
            record["locked_paths"] = locked
            boxes = [oid for oid in area.objects if oid in world.containers]
            record["locked_containers"] = boxes
            if boxes and self.settings["seal_containers"]:
                sealed = table(world, SEALED)
                for box in boxes:
                    sealed[box] = WHY_SEALED
            self.tell(
                ctx,
                res,
                area_id,
                "lockdown.activated",
                f"Quarantine! The doors of {name} slam shut and lock.",
            )
            for path in locked:
                self.tell(
                    ctx,
                    res,
                    path["to"],
                    "lockdown.nearby",
                    f"The way to {name} locks down under quarantine.",
                )
            res.emit(
                "quarantine_lockdown_activated",
                WORLD_AGENT,
                {
                    "area_id": area_id,
                    "locked_paths": [dict(p) for p in locked],
                    "locked_containers": list(boxes),
                },
            )

    @staticmethod
    def tell(ctx: RuleContext, res: RuleResult, area_id: str, key: str, text: str) -> None:
        for agent in ctx.game.agents.values():
            if agent.area_id == area_id:
                res.say(agent.id, key, text)
