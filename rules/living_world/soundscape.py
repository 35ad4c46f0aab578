"""`soundscape_pressure_step` (priority 5): what happens makes noise; loud areas draw scouts and
danger, quiet ones give up small caches.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). State:
`world.auxiliary["soundscape"] = {noise, quiet_steps, loud_flags}`, each per area. Runs during the
tutorial phase too (tutorial rooms get no effects; no hush caches while the phase lasts).

Noise from this tick's events so far (rules after this one, the patrols among them, are never
heard), added to the event's area: 1.5 `npc_killed`, `agent_defeated_in_combat`; 1.0
`agent_damaged`, `npc_hit_by_thrown`, `enemy_entered_area`, `enemy_respawned`,
`dawn_coins_spawned`; 0.8 `object_crafted`, `object_bought`, `merchant_arrived`,
`object_shattered`, and each end of `path_unlocked`; 0.7 each end of `npc_moved`; 0.5
`object_sold`, `object_thrown`; 0.3 `object_dropped`, `object_picked_up`, `object_discarded`,
`object_taken_out`, `object_stored`, `object_landed`; 0.2 `area_entered` (its `to_area`).

Per tick:
1. a writable dropped with "quiet" in its text silences its area;
2. every area (world order): noise x `decay_factor` + the new noise, 0 when silenced, kept within
   [0, 12]; `area_noise_changed {area_id, noise}` (rounded to 2 places) when it moved by more
   than 0.05; `quiet_steps` + 1 at noise <= 0.05, else 0;
3. every area again: loud (>= 8, kept in `loud_flags`): a scout with chance `scout_chance` (a
   fresh instance of the first non-unique enemy prototype at the area's level, with half its HP
   and 0.3 of its attack: `echo_scout_spawned {npc_id, area_id}`); hush-ready (<= 0.05 for
   `hush_after` ticks): with chance 0.18, 1 coin (chance 0.5) or one low-tier material of the
   area (category material, usage craft, level <= 2; none: a coin), `hush_cache_spawned {area_id,
   items}`, and the quiet count starts again; a silenced area: the agents there are told;
4. the bag: ambush chance +0.05 if an agent stands in a loud area, -0.05 if one stands in a
   hush-ready area (for every agent, this tick).

`decay_factor` is 1.0 in remnant (noise never fades: only quiet and rumour notes lower it) and 1.5
in mark (noise grows until the cap); AgentOdyssey meant it to decay, but the numbers define these
games' difficulty, so they are kept, named as settings. An area that no longer exists (a tutorial
room gone) leaves the tables (AgentOdyssey keeps its entry, which goes on drawing the hush chance
with nothing placed).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.spawning import spawn_npc
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.world import World

from .common import (
    SOUNDSCAPE_KEY,
    add_to_ambush_chance,
    derived,
    drop_units,
    first_roaming_enemy,
    named_counts,
    soundscape_state,
    tell_area,
    tutorial_phase,
    tutorial_place,
)

QUIET_EPSILON = 0.05
LOUD_AT = 8.0
NOISE_CAP = 12.0
SCOUT_HP_FACTOR = 0.5
SCOUT_ATTACK_FACTOR = 0.3
HUSH_CACHE_CHANCE = 0.18
HUSH_COIN_CHANCE = 0.5
HUSH_MATERIAL_LEVEL = 2
LOUD_AMBUSH, HUSH_AMBUSH = 0.05, -0.05
QUIET_WORD = "quiet"
TO, ENDS = ("area_id",), ("from_area", "to_area")
# Event type -> (noise, the payload keys naming the areas that hear it).
NOISES: dict[str, tuple[float, tuple[str, ...]]] = {
    **dict.fromkeys(("npc_killed", "agent_defeated_in_combat"), (1.5, TO)),
    **dict.fromkeys(
        ("agent_damaged", "npc_hit_by_thrown", "enemy_entered_area", "enemy_respawned",
         "dawn_coins_spawned"), (1.0, TO),
    ),
    **dict.fromkeys(
        ("object_crafted", "object_bought", "merchant_arrived", "object_shattered"), (0.8, TO)
    ),
    "path_unlocked": (0.8, ENDS),
    "npc_moved": (0.7, ENDS),
    **dict.fromkeys(("object_sold", "object_thrown"), (0.5, TO)),
    **dict.fromkeys(
        ("object_dropped", "object_picked_up", "object_discarded", "object_taken_out",
         "object_stored", "object_landed"), (0.3, TO),
    ),
    "area_entered": (0.2, ("to_area",)),
}  # fmt: skip


def hush_materials(world: World) -> dict[str, list[str]]:
    """Area id -> the low-tier materials a hush cache may hold there, definition order."""
    found: dict[str, list[str]] = {}
    for obj in world.objects.values():
        if (
            obj.category == "material"
            and obj.usage in ("craft", "")
            and obj.level <= HUSH_MATERIAL_LEVEL
            and not obj.is_instanced
        ):
            for area_id in obj.areas:
                found.setdefault(area_id, []).append(obj.id)
    return found


class Soundscape(BaseStepRule):
    name = "soundscape_pressure_step"
    priority = 5
    description = "Events make noise; loud areas draw scouts and danger, quiet ones small caches."
    state_key = SOUNDSCAPE_KEY
    state_shape = Record(
        {"noise": MapOf(float), "quiet_steps": MapOf(int), "loud_flags": MapOf(bool)}
    )
    settings = {"decay_factor": 1.0, "scout_chance": 0.03, "hush_after": 4}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        world = ctx.world
        state = soundscape_state(world)
        heard, silenced = self.listen(world, res)
        if self.update(world, res, state, heard, silenced):
            for table in state.values():  # areas gone since (a tutorial room): their entries go
                for area_id in [a for a in table if a not in world.areas]:
                    del table[area_id]
        self.effects(ctx, res, state, silenced)

    @staticmethod
    def listen(world: World, res: RuleResult) -> tuple[dict[str, float], set[str]]:
        """This tick's new noise per area, and the areas a quiet note silences."""
        heard: dict[str, float] = {}
        silenced: set[str] = set()
        writables = world.writables
        for event in res.events:
            found = NOISES.get(event.type)
            if found is None:
                continue
            noise, keys = found
            data = event.data
            for key in keys:
                area_id = data.get(key)
                if area_id is not None:
                    heard[area_id] = heard.get(area_id, 0.0) + noise
            if event.type == "object_dropped":
                note = writables.get(data.get("obj_id", ""))
                if note is not None and QUIET_WORD in note.text.lower():
                    silenced.add(data.get("area_id", ""))
        return heard, silenced

    def update(
        self,
        world: World,
        res: RuleResult,
        state: dict[str, Any],
        heard: dict[str, float],
        silenced: set[str],
    ) -> bool:
        """Step 2 for every area; True when areas have gone since (their entries must go)."""
        noise, quiet = state["noise"], state["quiet_steps"]
        factor = self.settings["decay_factor"]
        steady = factor == 1.0  # noise that never fades (remnant)
        noise_of, gain_of, quiet_of = noise.get, heard.get, quiet.get
        for area_id in world.areas:  # comparisons rather than min/max/abs: every area, every tick
            before = noise_of(area_id, 0.0)
            if (
                steady
                and area_id not in heard
                and not (silenced and area_id in silenced)
                and type(before) is float
                and 0.0 <= before <= NOISE_CAP
            ):
                # Nothing heard, nothing faded: the noise stays as it is (a float within its
                # bounds, as this rule keeps it), so only the quiet count moves.
                quiet[area_id] = quiet_of(area_id, 0) + 1 if before <= QUIET_EPSILON else 0
                if area_id not in noise:
                    noise[area_id] = before
                continue
            now = before * factor
            gain = gain_of(area_id)
            if gain is not None:
                now += gain
            if silenced and area_id in silenced:
                now = 0.0
            if now > NOISE_CAP:
                now = NOISE_CAP
            elif now < 0.0:
                now = 0.0
            noise[area_id] = now
            change = now - before
            if change > QUIET_EPSILON or change < -QUIET_EPSILON:
                res.emit(
                    "area_noise_changed", WORLD_AGENT, {"area_id": area_id, "noise": round(now, 2)}
                )
            quiet[area_id] = quiet_of(area_id, 0) + 1 if now <= QUIET_EPSILON else 0
        return len(noise) != len(world.areas)

    def effects(
        self, ctx: RuleContext, res: RuleResult, state: dict[str, Any], silenced: set[str]
    ) -> None:
        game, world = ctx.game, ctx.world
        noise, quiet, loud_flags = state["noise"], state["quiet_steps"], state["loud_flags"]
        phase = tutorial_phase(game)
        tutorial = tutorial_place(world)
        hush_after, scout_chance = self.settings["hush_after"], self.settings["scout_chance"]
        random, occupied = game.rng.random, game.occupied_areas()
        loud_heard = hush_heard = False
        for area in world.areas.values():  # scouts and caches add NPCs and objects, not areas
            area_id = area.id
            if area.place_id == tutorial:
                continue
            now = noise[area_id]
            loud = loud_flags[area_id] = now >= LOUD_AT
            if loud:
                if not loud_heard:
                    loud_heard = area_id in occupied
                if random() < scout_chance:
                    self.send_scout(ctx, res, area)
            elif now <= QUIET_EPSILON and quiet[area_id] >= hush_after:
                if not hush_heard:
                    hush_heard = area_id in occupied
                if not phase and random() < HUSH_CACHE_CHANCE:
                    self.hush_cache(ctx, res, area)
                    quiet[area_id] = 0
            if silenced and area_id in silenced:
                tell_area(
                    game, res, area_id, "soundscape.silenced",
                    "The note's plea is heeded: the whole place falls silent.",
                )  # fmt: skip
        if loud_heard:
            add_to_ambush_chance(world, LOUD_AMBUSH)
        if hush_heard:
            add_to_ambush_chance(world, HUSH_AMBUSH)

    @staticmethod
    def send_scout(ctx: RuleContext, res: RuleResult, area: Area) -> None:
        proto = derived(ctx.world, first_roaming_enemy)
        if proto is None:
            return
        scout = spawn_npc(ctx.game, proto, area.level, area.id)
        scout.hp = scout.max_hp = max(1, int(scout.hp * SCOUT_HP_FACTOR))
        scout.attack_power = max(1, int(scout.attack_power * SCOUT_ATTACK_FACTOR))
        tell_area(
            ctx.game, res, area.id, "soundscape.scout",
            f"Drawn by the din, {scout.name} creeps in to see what the noise is about.",
        )  # fmt: skip
        res.emit("echo_scout_spawned", WORLD_AGENT, {"npc_id": scout.id, "area_id": area.id})

    @staticmethod
    def hush_cache(ctx: RuleContext, res: RuleResult, area: Area) -> None:
        world, rng = ctx.world, ctx.game.rng
        coin = world.currency_id
        found = None
        if rng.random() >= HUSH_COIN_CHANCE:
            choices = derived(world, hush_materials).get(area.id)
            if choices:
                found = rng.choice(choices)
        found = found or coin
        if found is None:
            return
        drop_units(world, res, area.id, found, 1)
        items = {found: 1}
        if ctx.game.count_in(area.id):  # the line is worded only for someone to read
            tell_area(
                ctx.game, res, area.id, "soundscape.hush_cache",
                f"In the hush I notice something tucked away here: {named_counts(world, items)}.",
            )  # fmt: skip
        res.emit("hush_cache_spawned", WORLD_AGENT, {"area_id": area.id, "items": items})
