"""`light_source_depletion_step` (priority 4): light sources burn fuel outside lit areas, and an
agent without a burning one is in the dark.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine. State:
`world.auxiliary["in_darkness"][agent]` (bool) and `["light_fuel"][agent][held id]` (fuel). Every
agent gets an `in_darkness` entry (false) and a fuel table on first sight; then, per agent with HP
above 0, in agent order:

1. in a lit area: not in the dark; next agent (fuel untouched, records kept);
2. light sources: the ids in hand, then the equipped ids, whose definition has a true
   `light_source` extra (an id both held and worn counts twice, burning twice);
3. none: if not already dark, dark now, a line, `entered_darkness {reason: "no_light_source"}`;
   next agent (records kept);
4. each source: its record starts at `max_fuel` (30 without one) when absent; at 0 it is skipped;
   else it loses `drain` (1, never below 0): still above 0, it burns (a warning line at 5 or
   less); reaching 0, a line and `light_source_depleted {obj_id, location: "hand" | "equip"}`;
5. dark = no source burns; on the change to dark a line and `entered_darkness {reason:
   "fuel_exhausted"}`, on the change to light a line and `left_darkness {}`;
6. records of ids no longer held or worn are deleted (so a light put away while another burns,
   then taken up again, is full: AgentOdyssey's quirk, kept). Steps 1 and 3 end before this, so
   an agent in a lit area or without any light keeps its records.

Plain objects share their definition id, so two lanterns in one agent's hands share one record.
Draws nothing. `in_darkness` makes ambushes likelier (`active_attack.py`); the observation's
darkness view reads it too.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext

from .common import IN_DARKNESS, LIGHT_FUEL, SHAPES, KeepsStates, is_light_source, max_fuel, table

DEFAULT_FUEL = 30
LOW_FUEL = 5
HAND, EQUIP = "hand", "equip"


class LightSourceDepletion(KeepsStates, BaseStepRule):
    name = "light_source_depletion_step"
    priority = 4
    description = "Light sources burn fuel in unlit areas; without a burning light it is dark."
    state_key = LIGHT_FUEL
    state_shape = SHAPES[LIGHT_FUEL]
    states = (IN_DARKNESS,)
    settings = {"drain": 1, "default_fuel": DEFAULT_FUEL, "low_fuel": LOW_FUEL}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        world = ctx.world
        dark, fuel = table(world, IN_DARKNESS), table(world, LIGHT_FUEL)
        drain, default = self.settings["drain"], self.settings["default_fuel"]
        low = self.settings["low_fuel"]
        for agent in ctx.game.agents.values():
            aid = agent.id
            dark.setdefault(aid, False)
            records = fuel.setdefault(aid, {})
            if agent.hp <= 0:
                continue
            if world.areas[agent.area_id].light:
                dark[aid] = False
                continue
            lights = [(oid, HAND) for oid in agent.hands if is_light_source(world, oid)]
            lights += [(oid, EQUIP) for oid in agent.equipped if is_light_source(world, oid)]
            if not lights:
                if not dark[aid]:
                    dark[aid] = True
                    res.say(aid, "darkness.no_light", "It is pitch dark here and I have no light.")
                    res.emit("entered_darkness", aid, {"reason": "no_light_source"})
                continue
            burning = False
            for oid, where in lights:
                if oid not in records:
                    records[oid] = max_fuel(world, oid, default)
                if records[oid] <= 0:
                    continue
                left = records[oid] = max(0, records[oid] - drain)
                name = world.name_of(oid)
                if left > 0:
                    burning = True
                    if left <= low:
                        res.say(aid, "darkness.low_fuel", f"My {name} flickers: {left} fuel left.")
                else:
                    res.say(aid, "darkness.depleted", f"My {name} sputters out: no fuel left.")
                    res.emit("light_source_depleted", aid, {"obj_id": oid, "location": where})
            was = dark[aid]
            dark[aid] = not burning
            if not burning and not was:
                res.say(aid, "darkness.entered", "My light is gone; darkness closes in.")
                res.emit("entered_darkness", aid, {"reason": "fuel_exhausted"})
            elif burning and was:
                res.say(aid, "darkness.left", "My light pushes the darkness back.")
                res.emit("left_darkness", aid, {})
            for oid in [o for o in records if o not in agent.hands and o not in agent.equipped]:
                del records[oid]
