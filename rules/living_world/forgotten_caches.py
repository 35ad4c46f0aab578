"""`forgotten_caches_step` (priority 4): an area nobody has stood in for a while may turn up a small
cache of materials.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). Runs during the tutorial
phase too (skipping tutorial rooms). For each area some agent has visited, the spawn area aside, in
definition order (AgentOdyssey walks a set of names, whose order differs between processes; we
use definition order):

1. the first time, a threshold `randint(35, 50)`;
2. an agent stands there: idle count back to 0, next area;
3. else the idle count grows by 2 in a lit area, 1 in a dark one, halved (int) while an enemy is
   there (so 1 lit, 0 dark);
4. below the threshold: next area;
5. `random() > 0.7`: no cache after all; idle 0, a new threshold; next area;
6. `k = randint(2, 3)` from area level 3 on, else `randint(1, 3)`; `k` times `choice` over the
   objects of category material or currency that list this area in `areas` (not quest, not
   undistributable, not containers or writables; none: no draw), one unit each; with a merchant
   there and `random() < 0.25`, one more `choice` over the same filter with categories material
   and tool;
7. the units go on the ground (`area_forage_spawned {area_id, items}` when there are any);
8. idle 0, a new threshold, `last_spawn_step` = this tick.

Visited areas are those with a threshold plus those agents stand in now: an agent's visits are
recorded where it stands after acting, which this rule sees the same tick, so nothing is missed,
without walking every agent's visit list. (A branch of AgentOdyssey's for a period that never
exists is left out.)
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext, WorldTable
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .common import drop_units, has_enemy, has_merchant, tell_area, tutorial_place

STATE_KEY = "forgotten_caches"  # {idle_steps, thresholds, last_spawn_step}: area id -> int
THRESHOLD = (35, 50)
SPAWN_CHANCE = 0.7  # `random() > 0.7` calls the cache off
DEEP_LEVEL = 3  # from this area level on, 2-3 finds; below, 1-3
DEEP_FINDS, SHALLOW_FINDS = (2, 3), (1, 3)
MERCHANT_EXTRA_CHANCE = 0.25
FIND_CATEGORIES = ("material", "currency")
MERCHANT_CATEGORIES = ("material", "tool")


def findable(world: World, obj: ObjectDef, area_id: str, categories: tuple[str, ...]) -> bool:
    return (
        obj.category in categories
        and area_id in obj.areas
        and not obj.quest
        and not obj.is_instanced
        and obj.id not in world.definition.initializations.undistributable_objects
    )


class Finds(WorldTable):
    """Per area id: (what a cache may hold, what a merchant's extra may be), definition order."""

    def work_out(self, area_id: str) -> tuple[list[str], list[str]]:
        world = self.world
        objects = world.objects.values()
        return (
            [o.id for o in objects if findable(world, o, area_id, FIND_CATEGORIES)],
            [o.id for o in objects if findable(world, o, area_id, MERCHANT_CATEGORIES)],
        )


class ForgottenCaches(BaseStepRule):
    name = "forgotten_caches_step"
    priority = 4
    description = "Areas left alone for 35-50 ticks may turn up a small cache of materials."
    state_key = STATE_KEY
    state_shape = Record(
        {"idle_steps": MapOf(int), "thresholds": MapOf(int), "last_spawn_step": MapOf(int)}
    )

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        state = self.world_state(
            world, lambda: {"idle_steps": {}, "thresholds": {}, "last_spawn_step": {}}
        )
        thresholds, idle = state["thresholds"], state["idle_steps"]
        rng, occupied_areas = game.rng, game.occupied_areas()
        spawn = world.spawn_area
        tutorial = tutorial_place(world)
        for area in world.areas.values():
            area_id = area.id
            occupied = area_id in occupied_areas
            if area_id not in thresholds and not occupied:
                continue  # nobody has been here yet
            if area_id == spawn or area.place_id == tutorial:
                continue
            if area_id not in thresholds:
                thresholds[area_id] = rng.randint(*THRESHOLD)
            if occupied:
                idle[area_id] = 0
                continue
            gain = 2 if area.light else 1
            if has_enemy(world, area):
                gain = int(gain / 2)
            waited = idle[area_id] = idle.get(area_id, 0) + gain
            if waited < thresholds[area_id]:
                continue
            if rng.random() > SPAWN_CHANCE:
                idle[area_id] = 0
                thresholds[area_id] = rng.randint(*THRESHOLD)
                continue
            self.spill(ctx, res, area)
            idle[area_id] = 0
            thresholds[area_id] = rng.randint(*THRESHOLD)
            state["last_spawn_step"][area_id] = game.tick_index

    @staticmethod
    def spill(ctx: RuleContext, res: RuleResult, area: Area) -> None:
        world, rng = ctx.world, ctx.game.rng
        finds, extras = Finds.of(world)[area.id]
        k = rng.randint(*(DEEP_FINDS if area.level >= DEEP_LEVEL else SHALLOW_FINDS))
        items: dict[str, int] = {}
        if finds:
            for _ in range(k):
                oid = rng.choice(finds)
                items[oid] = items.get(oid, 0) + 1
        if has_merchant(world, area) and rng.random() < MERCHANT_EXTRA_CHANCE and extras:
            oid = rng.choice(extras)
            items[oid] = items.get(oid, 0) + 1
        if not items:
            return
        for oid, n in items.items():
            drop_units(world, res, area.id, oid, n)
        # (Nobody stands here, see step 2; the line is for a pack that moves agents around.)
        tell_area(ctx.game, res, area.id, "caches.found", "A forgotten cache turns up here.")
        res.emit("area_forage_spawned", WORLD_AGENT, {"area_id": area.id, "items": items})
