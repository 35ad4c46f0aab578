"""`collect_unattended_step` (priority 6): the salt swallows what is left unattended.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass. State
`world.auxiliary["collect_unattended"] = {idle_steps: {area: int}, thresholds: {area: int}}`. For
each open-salt area in world order (tutorial rooms and areas with a merchant left alone): an agent
there sets its idle count to 0; else it rises by 1, its threshold is drawn
(`rng.randint(20, 35)`) the first time it is needed, and once the count reaches it every ground
entry with a positive count whose definition is not a quest object loses
`max(1, floor(count x 0.35))` units (an instance is gone; a salt mirage lying there is taken too);
if anything went, event `unattended_collected {area_id}` (agent `env`); the count goes back to 0
and a new threshold is drawn.
"""

from __future__ import annotations

import math

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.state_shape import MapOf, Record

from .common import OPEN_SALT, is_open_salt, tutorial_areas
from .mirage import active_mirages

STATE_KEY = "collect_unattended"
MERCHANT = "merchant"


class CollectUnattended(BaseStepRule):
    name = "collect_unattended_step"
    priority = 6
    description = "Open-salt areas left alone 20-35 ticks lose 35% of each loose stack."
    state_key = STATE_KEY
    state_shape = Record({"idle_steps": MapOf(int), "thresholds": MapOf(int)})
    settings = {
        "idle_min": 20,
        "idle_max": 35,
        "fraction": 0.35,
        "open_salt_names": list(OPEN_SALT),
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, rng = ctx.game, ctx.world, ctx.game.rng
        settings = self.settings
        state = world.auxiliary.setdefault(STATE_KEY, {"idle_steps": {}, "thresholds": {}})
        idle_steps, thresholds = state["idle_steps"], state["thresholds"]
        skip = tutorial_areas(game)
        for area_id, area in world.areas.items():
            if area_id in skip or not is_open_salt(area, settings["open_salt_names"]):
                continue
            if any(world.npcs[n].role == MERCHANT for n in area.npcs):
                continue
            if game.count_in(area_id):
                idle_steps[area_id] = 0
                continue
            idle = idle_steps[area_id] = idle_steps.get(area_id, 0) + 1
            if area_id not in thresholds:
                thresholds[area_id] = rng.randint(settings["idle_min"], settings["idle_max"])
            if idle < thresholds[area_id]:
                continue
            removed = False
            for oid in list(area.objects):
                count = area.objects[oid]
                obj = world.find_def(oid)
                if count <= 0 or obj is None or obj.quest:
                    continue
                area.remove_objects(oid, max(1, math.floor(count * settings["fraction"])))
                if oid not in area.objects and world.is_instance(oid):
                    world.delete_instance(oid)
                removed = True
            mirage = active_mirages(world).get(area_id)
            if mirage is not None and mirage["on_ground"]:
                mirage["on_ground"] = False
                removed = True
            if removed:
                res.emit("unattended_collected", WORLD_AGENT, {"area_id": area_id})
            idle_steps[area_id] = 0
            thresholds[area_id] = rng.randint(settings["idle_min"], settings["idle_max"])
