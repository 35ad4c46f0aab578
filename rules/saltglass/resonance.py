"""`resonance_imprint_step` (priority 5): observatories remember the last listen or refract.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass. State
`world.auxiliary["resonance_imprint"] = {imprints: {area: {agent_id, echo, step}}, flags:
{"<agent>|<area>": imprint step}}` (the published game keys the delivery flags by an (agent, area)
tuple among the agent states, which a JSON save cannot hold; hence the string key).

1. Every `saltglass_listened` or `refracted` event of this tick in an observatory stores that
   area's imprint (the newest wins) with a short echo: the object's name (nearby_object), the
   sealed road toward a neighbour (locked_path), the rhythm of an NPC (enemy_rhythm), refracted
   light (a refract), or a whisper (a listen that heard nothing).
2. Every agent in an observatory holding an imprint by another agent, at most 80 ticks old and not
   yet delivered to it (per area and imprint step): a line and event `resonance_echo_received
   {area_id, from_agent, echo}`.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.world import World

from .common import OBSERVATORY, is_observatory

STATE_KEY = "resonance_imprint"
SOURCES = ("saltglass_listened", "refracted")


def echo_of(world: World, event_type: str, data: dict[str, Any]) -> str:
    hint = data.get("hint_type", "")
    if hint == "nearby_object":
        oid = data.get("obj_id", "")
        obj = world.find_def(oid)
        return f"a faint shape of {obj.name if obj is not None else oid} nearby"
    if hint == "locked_path":
        to = data.get("to_area", "")
        area = world.areas.get(to)
        return f"a sealed road toward the {area.name if area is not None else to}"
    if hint == "enemy_rhythm":
        npc = world.npcs.get(data.get("npc_id", ""))
        return f"a fighting rhythm of {npc.name if npc is not None else data.get('npc_id', '')}"
    if event_type == "refracted":
        return "traces of refracted light still in the glass"
    return "a whisper too faint to make out"


class ResonanceImprint(BaseStepRule):
    name = "resonance_imprint_step"
    priority = 5
    description = (
        "An observatory keeps the last listen or refract; other agents there hear its echo."
    )
    state_key = STATE_KEY
    state_shape = Record(
        {
            "imprints": MapOf(Record({"agent_id": str, "echo": str, "step": int})),
            "flags": MapOf(int),
        }
    )
    settings = {"max_age": 80, "observatory_names": list(OBSERVATORY)}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, ctx.game.tick_index
        names = self.settings["observatory_names"]
        state = world.auxiliary.get(STATE_KEY)
        for event in res.events:
            if event.type not in SOURCES:
                continue
            area_id = event.data.get("area_id")
            if not is_observatory(world.areas.get(area_id), names):
                continue
            if state is None:
                state = world.auxiliary[STATE_KEY] = {"imprints": {}, "flags": {}}
            state["imprints"][area_id] = {
                "agent_id": event.agent_id,
                "echo": echo_of(world, event.type, event.data),
                "step": s,
            }
        if not state or not state["imprints"]:
            return
        imprints, flags = state["imprints"], state["flags"]
        for agent in game.agents.values():
            imprint = imprints.get(agent.area_id)
            if imprint is None or imprint["agent_id"] == agent.id:
                continue
            if not is_observatory(world.areas.get(agent.area_id), names):
                continue
            if s - imprint["step"] > self.settings["max_age"]:
                continue
            key = f"{agent.id}|{agent.area_id}"
            if flags.get(key) == imprint["step"]:
                continue
            flags[key] = imprint["step"]
            res.say(
                agent.id,
                "resonance.echo",
                f"The observatory glass still hums with what someone left here: {imprint['echo']}.",
            )
            res.emit(
                "resonance_echo_received",
                agent.id,
                {
                    "area_id": agent.area_id,
                    "from_agent": imprint["agent_id"],
                    "echo": imprint["echo"],
                },
            )
