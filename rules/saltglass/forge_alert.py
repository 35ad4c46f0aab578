"""`forge_alert_step` (priority 5): at a work station, a reminder of what I could make.

Rule pack `saltglass` (docs/rule-packs.md#the-saltglass-pack); AgentOdyssey's saltglass. It looks
for a station on the ground whose id is one of `station_ids` (published: `obj_bench`, `obj_kiln`,
`bench`, `kiln`). saltglass's stations are `obj_workbench` and `obj_furnace`, so as published it
never acts; a world opts in by naming its stations' ids. When it acts: for an agent standing by
such a station whose cooldown for that area has passed (`cooldown` ticks, 8), up to `max_listed`
(3) non-quest definitions whose ingredients, each quantity truncated to a whole number, are covered
by what the agent carries (hands, inventory, held containers), and "(+n more)"; no event. State
`world.auxiliary["forge_alert"] = {"<agent>|<area>": tick of the last alert}`. Draws nothing.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import MapOf
from agentodyssey_pz.world.agents import carried_stores

STATE_KEY = "forge_alert"


class ForgeAlert(BaseStepRule):
    name = "forge_alert_step"
    priority = 5
    description = (
        "By a named work station, a reminder of what could be crafted (inert as published)."
    )
    state_key = STATE_KEY
    state_shape = MapOf(int)
    settings = {
        "station_ids": ["obj_bench", "obj_kiln", "bench", "kiln"],
        "cooldown": 8,
        "max_listed": 3,
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, ctx.game.tick_index
        stations = self.settings["station_ids"]
        if not any(st in world.objects or world.is_instance(st) for st in stations):
            return  # as published in saltglass: no station of those ids exists, so none lies here
        for agent in game.agents.values():
            area = world.areas.get(agent.area_id)
            if area is None or not any(area.objects.get(st, 0) > 0 for st in stations):
                continue
            state = world.auxiliary.setdefault(STATE_KEY, {})
            key = f"{agent.id}|{agent.area_id}"
            last = state.get(key)
            if last is not None and s - last < self.settings["cooldown"]:
                continue
            have: dict[str, int] = {}
            for store in carried_stores(world, agent):
                for oid, n in store.items():
                    def_id = world.def_of(oid).id if world.find_def(oid) is not None else oid
                    have[def_id] = have.get(def_id, 0) + n
            makeable = [
                obj.name
                for obj in world.objects.values()
                if not obj.quest
                and obj.craft.ingredients
                and all(have.get(i, 0) >= int(q) for i, q in obj.craft.ingredients.items())
            ]
            if not makeable:
                continue
            state[key] = s
            shown = makeable[: self.settings["max_listed"]]
            more = len(makeable) - len(shown)
            tail = f" (+{more} more)" if more > 0 else ""
            res.say(
                agent.id,
                "forge_alert.ready",
                f"By the station I could make: {', '.join(shown)}{tail}.",
            )
