"""`food_respawn_step` (priority 4): every 25 ticks food grows back where it grows.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). Skipped during the tutorial
phase (common.py). When the tick reaches `food_respawn.next_step` (first at tick 0), the next wave
is set 25 ticks on and, for every object of category `food` (definition order) and every area its
`areas` lists (list order; ids that are no area are skipped), `randint(0, 4)` units are added to
that ground. Agents in an area that got food are told; one `food_respawned {areas}` event lists the
areas that got any, in the order they got it.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.state_shape import Record
from agentodyssey_pz.world.world import World

from .common import derived, drop_units, named_counts, tell_area, tutorial_phase

STATE_KEY = "food_respawn"  # {next_step}
WAVE_INTERVAL = 25
UNITS = (0, 4)  # randint bounds per (food, area)
FOOD = "food"


def food_places(world: World) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(food definition id, the areas it grows in), in definition order."""
    return tuple((o.id, o.areas) for o in world.objects.values() if o.category == FOOD)


class FoodRespawn(BaseStepRule):
    name = "food_respawn_step"
    priority = 4
    description = "Every 25 ticks, 0-4 units of each food grow back in each of its areas."
    state_key = STATE_KEY
    state_shape = Record({"next_step": int})

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        if tutorial_phase(game):
            return
        state = self.world_state(world, lambda: {"next_step": 0})
        step = game.tick_index
        if step < state["next_step"]:
            return
        state["next_step"] = step + WAVE_INTERVAL
        randint, areas = game.rng.randint, world.areas
        grown: dict[str, dict[str, int]] = {}
        for food, where in derived(world, food_places):
            for area_id in where:
                if area_id not in areas:
                    continue
                n = randint(*UNITS)
                if n > 0:
                    drop_units(world, res, area_id, food, n)
                    here = grown.setdefault(area_id, {})
                    here[food] = here.get(food, 0) + n
        if not grown:
            return
        for area_id, foods in grown.items():
            if not game.count_in(area_id):
                continue  # the line is worded only for someone to read
            tell_area(
                game, res, area_id, "food.respawned", f"Fresh food has turned up here: "
                f"{named_counts(world, foods)}."
            )  # fmt: skip
        res.emit("food_respawned", WORLD_AGENT, {"areas": list(grown)})
