"""`day_cycle_step` (priority 4): the time of day sets this tick's modifier bag, says when a new
period starts, leaves coins with the merchants at dawn and sometimes doubles an evening craft.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). The clock is the one the
agents read (`common.clock_slot`): day = T // 144, hour = (T % 144) // 6. Periods by hour: 0
dangerous night (ambush chance +`dangerous_night_additive`, enemy damage x1.3), 1-5 late night
(damage x1.2), 6 dawn, 7-11 morning, 12 peaceful midday (ambush chance 0.05 whatever else, damage
x0.8), 13-17 afternoon calm (damage x0.8), 18-23 evening inspiration.

Every tick the period is stored (`day_cycle.current_period`, `day_cycle_info`); while the tutorial
phase lasts (common.py) nothing else happens, and the bag is not rebuilt, so what other rules add to
it piles up until the phase ends (kept as AgentOdyssey does it). Otherwise: the bag is rebuilt; the
first tick of a period tells everyone (not dawn; morning only after the night or dawn); at 06:00
each area holding a merchant gets 1-3 coins once that day (`dawn_coins_spawned`); in the evening
each craft of this tick makes one more unit with chance 0.25 (`evening_crafting_bonus`). Draws:
one `randint(1, 3)` per paid area (world order), one `random()` per `object_crafted` event (event
order). Only today's dawn payments are remembered (AgentOdyssey keeps every day's; only today's
can matter), so the state stays small over millions of ticks.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.rules.state_shape import MapOf, Record

from .common import (
    ADDITIVE,
    DAMAGE_MULTIPLIER,
    OVERRIDE,
    SLOTS_PER_DAY,
    SLOTS_PER_HOUR,
    KeepsStates,
    clock_slot,
    drop_units,
    has_merchant,
    modifier_bag,
    start_seconds,
    tell_area,
    tutorial_phase,
)

STATE_KEY = "day_cycle"  # {current_period, last_period, dawn_coins_awarded {day: {area: 1}}}
INFO_KEY = "day_cycle_info"  # {day, hour, step_in_day, period}

DANGEROUS_NIGHT = "dangerous_night"
LATE_NIGHT = "late_night"
DAWN = "dawn"
MORNING = "morning"
PEACEFUL_MIDDAY = "peaceful_midday"
AFTERNOON_CALM = "afternoon_calm"
EVENING_INSPIRATION = "evening_inspiration"
# (first hour, period), in the order of the day.
PERIOD_STARTS = (
    (0, DANGEROUS_NIGHT), (1, LATE_NIGHT), (6, DAWN), (7, MORNING), (12, PEACEFUL_MIDDAY),
    (13, AFTERNOON_CALM), (18, EVENING_INSPIRATION),
)  # fmt: skip
PERIOD_OF_HOUR = tuple(
    next(period for first, period in reversed(PERIOD_STARTS) if first <= hour) for hour in range(24)
)
FIRST_HOUR = {period: first for first, period in PERIOD_STARTS}
DAMAGE_FACTORS = {DANGEROUS_NIGHT: 1.3, LATE_NIGHT: 1.2, PEACEFUL_MIDDAY: 0.8, AFTERNOON_CALM: 0.8}
MIDDAY_AMBUSH_CHANCE = 0.05  # replaces every other ambush chance at noon
DAWN_HOUR = 6
DAWN_COINS = (1, 3)
EVENING_BONUS_CHANCE = 0.25

PERIOD_LINES = {
    DANGEROUS_NIGHT: "Midnight. The darkest hour begins, and what hunts at night grows bold.",
    LATE_NIGHT: "The small hours drag on; the night still bites harder than the day.",
    MORNING: "Morning light spreads over the land, and the night's dangers fade.",
    PEACEFUL_MIDDAY: "Noon. A lull settles over everything; hardly anything lies in wait now.",
    AFTERNOON_CALM: "The afternoon is calm; even the fiercest blows land softer.",
    EVENING_INSPIRATION: "Evening falls and my hands itch to make things; crafts may go further.",
}
MORNING_AFTER = (LATE_NIGHT, DAWN)  # the morning line follows only these

DAY_CYCLE_SHAPE = Record(
    {},
    {"current_period": str, "last_period": (str, None), "dawn_coins_awarded": MapOf(MapOf(int))},
    empty_ok=True,
)
INFO_SHAPE = Record({"day": int, "hour": int, "step_in_day": int, "period": str})
BAG_SHAPE = Record(
    {},
    {
        "ambush_prob_override": (float, None), "ambush_prob_additive": float,
        "ambush_prob_multiplier": float, "enemy_damage_multiplier": float,
        "enemy_attack_damage_bonus": int,
    },
    empty_ok=True,
)  # fmt: skip


class DayCycle(KeepsStates, BaseStepRule):
    name = "day_cycle_step"
    priority = 4
    description = "Time of day: ambush odds and damage, period news, dawn coins, evening crafts."
    state_key = STATE_KEY
    state_shape = DAY_CYCLE_SHAPE
    states = {INFO_KEY: INFO_SHAPE, "modifier_bag": BAG_SHAPE}
    settings = {"dangerous_night_additive": 0.30}

    def __init__(self) -> None:
        self._start = 0
        self._tick_seconds = 1

    def reset(self, game: Any) -> None:
        self._start = start_seconds(game.config)
        self._tick_seconds = game.config.tick_seconds

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        slot = clock_slot(game.tick_index, self._start, self._tick_seconds)
        day, step_in_day = divmod(slot, SLOTS_PER_DAY)
        hour = step_in_day // SLOTS_PER_HOUR
        period = PERIOD_OF_HOUR[hour]
        state = self.world_state(world, dict)
        state["current_period"] = period
        info = world.auxiliary.get(INFO_KEY)
        if info is None:
            info = world.auxiliary[INFO_KEY] = {}
        info["day"], info["hour"], info["step_in_day"], info["period"] = (
            day, hour, step_in_day, period
        )  # fmt: skip
        if tutorial_phase(game):
            return
        self.rebuild_bag(world, period)
        self.announce(ctx, res, state, period, step_in_day)
        if hour == DAWN_HOUR and step_in_day == DAWN_HOUR * SLOTS_PER_HOUR:
            self.pay_dawn_coins(ctx, res, state, day)
        if period == EVENING_INSPIRATION:
            self.evening_bonus(ctx, res)

    def rebuild_bag(self, world: Any, period: str) -> None:
        bag = modifier_bag(world)
        bag.clear()
        bag[ADDITIVE] = 0.0
        bag[OVERRIDE] = None
        bag[DAMAGE_MULTIPLIER] = 1.0
        if period == DANGEROUS_NIGHT:
            bag[ADDITIVE] += self.settings["dangerous_night_additive"]
        elif period == PEACEFUL_MIDDAY:
            bag[OVERRIDE] = MIDDAY_AMBUSH_CHANCE
        factor = DAMAGE_FACTORS.get(period)
        if factor is not None:
            bag[DAMAGE_MULTIPLIER] = factor

    @staticmethod
    def announce(
        ctx: RuleContext, res: RuleResult, state: dict[str, Any], period: str, step_in_day: int
    ) -> None:
        previous = state.get("last_period")
        if period == previous:
            return
        state["last_period"] = period
        if step_in_day != FIRST_HOUR[period] * SLOTS_PER_HOUR:
            return  # the phase ended in the middle of a period: nothing to announce
        line = PERIOD_LINES.get(period)
        if line is None or (period == MORNING and previous not in MORNING_AFTER):
            return
        for agent in ctx.game.agents.values():
            res.say(agent.id, "day_cycle.period", line)

    @staticmethod
    def pay_dawn_coins(ctx: RuleContext, res: RuleResult, state: dict[str, Any], day: int) -> None:
        world, coin = ctx.world, ctx.world.currency_id
        if coin is None:
            return
        key = str(day)
        awarded = state.get("dawn_coins_awarded") or {}
        paid = awarded.get(key, {})
        state["dawn_coins_awarded"] = {key: paid}  # earlier days can never matter again
        for area in world.areas.values():
            if area.id in paid or not has_merchant(world, area):
                continue
            amount = ctx.game.rng.randint(*DAWN_COINS)
            drop_units(world, res, area.id, coin, amount)
            paid[area.id] = 1
            coins = world.objects[coin].name
            tell_area(
                ctx.game,
                res,
                area.id,
                "day_cycle.dawn_coins",
                f"At first light I spot {amount} {coins} a merchant left lying here.",
            )
            paid_here = {"area_id": area.id, "amount": amount, "day": day}
            res.emit("dawn_coins_spawned", WORLD_AGENT, paid_here)

    @staticmethod
    def evening_bonus(ctx: RuleContext, res: RuleResult) -> None:
        world, random = ctx.world, ctx.game.rng.random
        for event in list(res.events):
            if event.type != "object_crafted":
                continue
            if random() >= EVENING_BONUS_CHANCE:
                continue
            made, area_id = world.find_def(event.data.get("obj_id", "")), event.data.get("area_id")
            if made is None or area_id not in world.areas:
                continue  # (not from a craft this world knows: nothing to add)
            obj_id = made.id
            crafter = event.agent_id or WORLD_AGENT
            drop_units(world, res, area_id, obj_id, 1, crafter)
            res.say(
                crafter,
                "day_cycle.evening_bonus",
                f"Evening inspiration: my work yielded one more {world.objects[obj_id].name}, "
                "which lies on the ground.",
            )
            res.emit("evening_crafting_bonus", crafter, {"obj_id": obj_id, "area_id": area_id})
