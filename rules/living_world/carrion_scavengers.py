"""`carrion_scavengers_step` (priority 5): scavengers' interest in areas, kept and never acted on.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). AgentOdyssey's rule gathers
interest per area and would raid an area at interest 1.5, but caps interest at 1.0, so it never
changes the world, draws nothing and says nothing. It is kept as that: state only
(making raids happen would be a new mechanic, not this game's).

Skipped during the tutorial phase (common.py). Per tick: +0.3 per `npc_killed` or
`agent_defeated_in_combat` event in an area; then for every area (world order), +0.1 if its ground
holds an object worth something (a `value`, not quest, not the currency), else its entry is
dropped; interest is capped at 1.0; an entry untouched for more than 18 ticks is dropped. State:
`world.auxiliary["scavengers"] = {"interest": {area: float}, "last_touch": {area: tick}}`.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext, WorldTable
from agentodyssey_pz.rules.state_shape import MapOf, Record

from .common import tutorial_phase

STATE_KEY = "scavengers"
KILL_INTEREST = 0.3
CARRION_INTEREST = 0.1  # per tick while something of value lies there
INTEREST_CAP = 1.0
FORGET_AFTER = 18  # ticks without a touch
RAID_AT = 1.5  # above the cap: no raid ever happens (see the module's docstring)
DEATHS = ("npc_killed", "agent_defeated_in_combat")


class Valued(WorldTable):
    """Per object id: whether scavengers care for it (a value, not quest, not the currency)."""

    def work_out(self, oid: str) -> bool:
        obj = self.world.def_of(oid)
        return obj.value is not None and not obj.quest and not obj.is_currency


class CarrionScavengers(BaseStepRule):
    name = "carrion_scavengers_step"
    priority = 5
    description = "Scavengers' interest in areas with deaths and loot (kept, never acted on)."
    state_key = STATE_KEY
    state_shape = Record({"interest": MapOf(float), "last_touch": MapOf(int)})

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        if tutorial_phase(game):
            return
        state = self.world_state(world, lambda: {"interest": {}, "last_touch": {}})
        interest, touched = state["interest"], state["last_touch"]
        step = game.tick_index
        for event in res.events:
            if event.type in DEATHS:
                area_id = event.data.get("area_id")
                if area_id is not None:
                    gained = interest.get(area_id, 0.0) + KILL_INTEREST
                    interest[area_id] = min(INTEREST_CAP, gained)
                    touched[area_id] = step
        valued = Valued.of(world)
        # Plain loops and a comparison for min(): every ground, every tick.
        for area_id, area in world.areas.items():
            for oid in area.objects:
                if valued[oid]:
                    gained = interest.get(area_id, 0.0) + CARRION_INTEREST
                    interest[area_id] = gained if gained < INTEREST_CAP else INTEREST_CAP
                    touched[area_id] = step
                    break
            else:  # nothing of value lies here
                if area_id in interest:
                    del interest[area_id]
                    touched.pop(area_id, None)
        for area_id in [a for a, last in touched.items() if step - last > FORGET_AFTER]:
            del touched[area_id]
            interest.pop(area_id, None)
