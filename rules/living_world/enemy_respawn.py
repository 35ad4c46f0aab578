"""`enemy_respawn_step` (priority 8): now and then, enemies come back to areas left without any.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). Skipped during the tutorial
phase (common.py). The first tick after it, the next wave is set `randint(interval_min,
interval_max)` ticks on. When the tick reaches it: the candidates are the areas without an enemy
(not the spawn area, no tutorial room), shuffled (`shuffle`); `k = randint(1, min(3, their
number))`; each of the first `k` gets a fresh instance of a `choice` among the non-unique enemy
prototypes (definition order; quest prototypes aside) at the area's level, with its prototype's
next instance index: `enemy_respawned {npc_id, area_id}`. The next wave is set again (also when
there were no prototypes or no candidates, in which case nothing is drawn but the interval).
State: `world.auxiliary["enemy_respawn"] = {interval_min, interval_max, next_step}`; the interval
itself comes from the settings (remnant 25-45, mark 35-50).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.spawning import spawn_npc
from agentodyssey_pz.rules.state_shape import Record
from agentodyssey_pz.world.schema import NpcDef
from agentodyssey_pz.world.world import World

from .common import derived, has_enemy, tell_area, tutorial_phase, tutorial_place

STATE_KEY = "enemy_respawn"
MOST_PER_WAVE = 3


def roaming_enemies(world: World) -> list[NpcDef]:
    """The non-unique enemy prototypes, definition order (quest prototypes aside)."""
    return [p for p in world.npc_protos.values() if p.enemy and not p.unique and not p.quest]


class EnemyRespawn(BaseStepRule):
    name = "enemy_respawn_step"
    priority = 8
    description = "Every 25-45 ticks, enemies return to up to 3 areas left without any."
    state_key = STATE_KEY
    state_shape = Record({"interval_min": int, "interval_max": int, "next_step": int})
    settings = {"interval_min": 25, "interval_max": 45}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        if tutorial_phase(game):
            return
        step, rng = game.tick_index, game.rng
        low, high = self.settings["interval_min"], self.settings["interval_max"]
        state = world.auxiliary.get(STATE_KEY)
        if state is None:
            first = step + rng.randint(low, high)
            state = world.auxiliary[STATE_KEY] = {
                "interval_min": low, "interval_max": high, "next_step": first
            }  # fmt: skip
            return
        if step < state["next_step"]:
            return
        bases = derived(world, roaming_enemies)
        tutorial = tutorial_place(world)
        candidates = [
            area
            for area in world.areas.values()
            if area.id != world.spawn_area and area.place_id != tutorial
            and not has_enemy(world, area)
        ]  # fmt: skip
        if bases and candidates:
            rng.shuffle(candidates)
            for area in candidates[: rng.randint(1, min(MOST_PER_WAVE, len(candidates)))]:
                npc = spawn_npc(game, rng.choice(bases), area.level, area.id)
                tell_area(game, res, area.id, "respawn.enemy", f"{npc.name} turns up here.")
                res.emit("enemy_respawned", WORLD_AGENT, {"npc_id": npc.id, "area_id": area.id})
        state["interval_min"], state["interval_max"] = low, high
        state["next_step"] = step + rng.randint(low, high)
