"""`continuous_crafting_momentum_step` (priority 5): crafting again soon, in the same place, pays.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). For each agent with crafts
this tick (`object_crafted` events; `total` = the sum of their amounts): the streak goes on when its
last craft was at most 5 ticks ago in the area it stands in now, else it starts again at 1; from a
streak of 2 on, `total x randint(1, 2)` coins land on its ground (`craft_streak_bonus {area_id,
streak, coins}`). State per agent: `progress["craft_streak"] = {last_step, last_area, streak}`.

A craft is the agent's own business, so the rule counts an agent's crafts once that agent has
passed the tutorial and is out of its room, as the base pack's new-craftable feedback does
(AgentOdyssey skips everyone until the whole tutorial phase is over).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import Record

from .common import drop_units

STATE_KEY = "craft_streak"
WINDOW = 5  # a craft at most this many ticks after the last one keeps the streak going
BONUS_FROM = 2  # the streak length that starts paying
COINS_PER_UNIT = (1, 2)


class CraftingMomentum(BaseStepRule):
    name = "continuous_crafting_momentum_step"
    priority = 5
    description = "Crafting again within 5 ticks in the same area pays 1-2 coins per unit made."
    state_key = STATE_KEY
    progress_shape = Record({"last_step": int, "last_area": str, "streak": int})

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        by_agent = res.by_agent
        step = game.tick_index
        for agent in game.agents.values():
            events = by_agent.get(agent.id)
            if not events or not agent.tutorial_passed or game.in_tutorial_room(agent):
                continue
            crafted, total = False, 0
            for event in events:
                if event.type == "object_crafted":
                    crafted = True
                    total += int(event.data.get("amount", 1))
            if not crafted:
                continue
            here = agent.area_id
            last = agent.progress.get(STATE_KEY)
            streak = 1
            recent = last is not None and last["last_step"] >= step - WINDOW
            if recent and last["last_area"] == here:
                streak += last["streak"]
            if streak >= BONUS_FROM and world.currency_id is not None:
                coins = total * game.rng.randint(*COINS_PER_UNIT)
                drop_units(world, res, here, world.currency_id, coins, agent.id)
                res.say(
                    agent.id,
                    "crafting.streak",
                    f"Crafting streak of {streak}: {coins} "
                    f"{world.objects[world.currency_id].name} for keeping at it lie at my feet.",
                )
                bonus = {"area_id": here, "streak": streak, "coins": coins}
                res.emit("craft_streak_bonus", agent.id, bonus)
            agent.progress[STATE_KEY] = {"last_step": step, "last_area": here, "streak": streak}
