"""Rule pack `shifting_paths`: `shifting_paths_step` (priority 6), paths that lock and open for a
few ticks on their own (AgentOdyssey's remnant; docs/rule-packs.md#the-shiftingpaths-pack).

Runs during the tutorial phase too. State: `world.auxiliary["shifting_paths"] = {"active": {"u|v"
(the two area ids, sorted): {expires, prev_locked}}, "next_step"}` (first trigger: the first tick
from 0 on). Per tick:

1. every shift whose time is up puts its path back as it was (`path_shift_expired {from_area,
   to_area}`), even a path someone opened with a key meanwhile (AgentOdyssey's hazard, kept);
2. before `next_step`, nothing more; else the next trigger is set `randint(6, 12)` ticks on;
3. the candidates: every path once (areas in world order, then each one's paths in order), not
   touching the spawn area or a tutorial room, not a personal path, not keyed by a quest object,
   not shifted now; none: nothing more;
4. `shuffle` them; `max_shifts = randint(1, 2)`;
5. for each candidate until that many shifts happened: lock and unlock chances 0.10; loud (a loud
   flag at either end, or noise 3 or more at one) makes locking x1.5; hushed (noise 0.05 or less at
   both ends) makes unlocking x1.5 and locking x0.8; the afternoon calm makes unlocking x1.3 and
   locking x0.8. An open path locks with `random() < lock` unless an agent stands at an end that
   would be left with no other open path (then nothing happens, and the next candidate is tried);
   a locked one opens with `random() < unlock`. A change holds for `randint(3, 6)` ticks:
   `path_temporarily_locked` / `path_temporarily_unlocked {from_area, to_area, expires_step}`.

Noise and loudness come from the `living_world` pack's soundscape (`world.auxiliary["soundscape"]`)
and the period from its day cycle (`["day_cycle"]["current_period"]`), when that pack plays too;
without it there is no noise and no period, so no bias. Imports only the rule framework and the
world core.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.graph import KEY, LOCKED, OWNER
from agentodyssey_pz.world.world import World

STATE_KEY = "shifting_paths"
TRIGGER_EVERY = (6, 12)
MAX_SHIFTS = (1, 2)
SHIFT_LASTS = (3, 6)
BASE_CHANCE = 0.10
LOUD_NOISE = 3.0  # an end this noisy counts as loud even without its flag
HUSH_NOISE = 0.05
LOUD_LOCK, HUSH_UNLOCK, HUSH_LOCK = 1.5, 1.5, 0.8
CALM_UNLOCK, CALM_LOCK = 1.3, 0.8
CALM_PERIOD = "afternoon_calm"
SOUNDSCAPE_KEY, DAY_CYCLE_KEY, TUTORIAL_KEY = "soundscape", "day_cycle", "tutorial_room"
SHIFT_SHAPE = Record({"expires": int, "prev_locked": bool})


def pair_key(a: str, b: str) -> str:
    """The two area ids, sorted, joined by `|` (a comparison rather than sorted(): every path is
    keyed at every trigger)."""
    return f"{a}|{b}" if a <= b else f"{b}|{a}"


def tutorial_place(world: World) -> str | None:
    tutorial = world.auxiliary.get(TUTORIAL_KEY) or {}
    return tutorial.get("place_id")


def has_other_exit(world: World, area_id: str, other: str) -> bool:
    """Whether an agent in `area_id` could still leave with the path to `other` locked."""
    for neighbor, path in world.graph.neighbors(area_id).items():
        if neighbor != other and not path[LOCKED] and path[OWNER] is None:
            return True
    return False


class ShiftingPaths(BaseStepRule):
    name = "shifting_paths_step"
    priority = 6
    description = "Now and then a path locks or opens by itself for 3-6 ticks."
    state_key = STATE_KEY
    state_shape = Record({"active": MapOf(SHIFT_SHAPE), "next_step": int})

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        state = self.world_state(world, lambda: {"active": {}, "next_step": 0})
        step = game.tick_index
        if state["active"]:
            self.expire(ctx, res, state["active"])
        if step < state["next_step"]:
            return
        rng = game.rng
        state["next_step"] = step + rng.randint(*TRIGGER_EVERY)
        candidates = self.candidates(world, state["active"])
        if not candidates:
            return
        rng.shuffle(candidates)
        wanted, done = rng.randint(*MAX_SHIFTS), 0
        for a, b in candidates:
            if done >= wanted:
                break
            if self.shift(ctx, res, state["active"], a, b):
                done += 1

    @staticmethod
    def expire(ctx: RuleContext, res: RuleResult, active: dict[str, Any]) -> None:
        world, step = ctx.world, ctx.game.tick_index
        for key, shift in list(active.items()):
            if step < shift["expires"]:
                continue
            del active[key]
            a, b = key.split("|", 1)
            if a not in world.graph or world.graph.path(a, b) is None:
                continue  # the path is gone (an area removed)
            world.graph.set_locked(a, b, shift["prev_locked"])
            for end in (a, b):
                tell(ctx, res, end, "paths.shift_expired", "A path nearby is back to how it was.")
            res.emit("path_shift_expired", WORLD_AGENT, {"from_area": a, "to_area": b})

    @staticmethod
    def candidates(world: World, active: dict[str, Any]) -> list[tuple[str, str]]:
        spawn, tutorial, objects = world.spawn_area, tutorial_place(world), world.objects
        areas = world.areas
        seen: set[str] = set()
        found = []
        for area in areas.values():
            if area.id == spawn or area.place_id == tutorial:
                continue
            for neighbor, path in world.graph.neighbors(area.id).items():
                key = pair_key(area.id, neighbor)
                if key in seen:
                    continue
                seen.add(key)
                if neighbor == spawn or areas[neighbor].place_id == tutorial:
                    continue
                if path[OWNER] is not None or key in active:
                    continue
                lock_key = path[KEY]
                if lock_key is not None and lock_key in objects and objects[lock_key].quest:
                    continue
                found.append((area.id, neighbor))
        return found

    def shift(
        self, ctx: RuleContext, res: RuleResult, active: dict[str, Any], a: str, b: str
    ) -> bool:
        """Try one candidate; True when its path changed."""
        game, world = ctx.game, ctx.world
        lock = unlock = BASE_CHANCE
        sounds = world.auxiliary.get(SOUNDSCAPE_KEY)
        if sounds is not None:
            noise, flags = sounds.get("noise", {}), sounds.get("loud_flags", {})
            na, nb = noise.get(a, 0.0), noise.get(b, 0.0)
            if flags.get(a) or flags.get(b) or max(na, nb) >= LOUD_NOISE:
                lock *= LOUD_LOCK
            if na <= HUSH_NOISE and nb <= HUSH_NOISE:
                unlock *= HUSH_UNLOCK
                lock *= HUSH_LOCK
        period = (world.auxiliary.get(DAY_CYCLE_KEY) or {}).get("current_period")
        if period == CALM_PERIOD:
            unlock *= CALM_UNLOCK
            lock *= CALM_LOCK
        was_locked = world.graph.is_locked(a, b)
        if not was_locked:
            if game.rng.random() >= lock:
                return False
            for end, other in ((a, b), (b, a)):
                if game.count_in(end) and not has_other_exit(world, end, other):
                    return False  # never shut an agent in
            kind, line = "path_temporarily_locked", "A path nearby has locked itself for now."
        else:
            if game.rng.random() >= unlock:
                return False
            kind, line = "path_temporarily_unlocked", "A locked path nearby has come open for now."
        world.graph.set_locked(a, b, not was_locked)
        expires = game.tick_index + game.rng.randint(*SHIFT_LASTS)
        active[pair_key(a, b)] = {"expires": expires, "prev_locked": was_locked}
        for end in (a, b):
            tell(ctx, res, end, "paths.shifted", line)
        res.emit(kind, WORLD_AGENT, {"from_area": a, "to_area": b, "expires_step": expires})
        return True

    @staticmethod
    def shifted_lock(world: World, a: str, b: str) -> tuple[bool, int] | None:
        """For planners: when the path between `a` and `b` is shifted now, (whether it was locked
        before the shift, the first tick whose commands find it back as it was); else None."""
        state = world.auxiliary.get(STATE_KEY)
        shift = state["active"].get(pair_key(a, b)) if state else None
        if shift is None:
            return None
        # It goes back in this rule's run of tick `expires`, after that tick's commands.
        return shift["prev_locked"], shift["expires"] + 1


def tell(ctx: RuleContext, res: RuleResult, area_id: str, key: str, text: str) -> None:
    if ctx.game.count_in(area_id):
        for agent in ctx.game.agents_in(area_id):
            res.say(agent.id, key, text)
