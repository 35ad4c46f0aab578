"""`rally <npc>`: pay a friendly NPC here to fight beside me for a few of my attacks.

Rule pack `war_machines`; AgentOdyssey's robot_kingdom. Checks in order: an NPC of that name
stands here (visible to me); it is not an enemy; it is not a guide (definitions in setting
`guides`); I have no ally with rounds left; the coin sources (hands, equipped inventory, held
containers) hold `cost = cost_base + cost_per_level x max(1, NPC level)` coins (8 + 4 per level).
Merchants and quest NPCs can be rallied. The cost is paid from the sources in that order; the ally
is recorded as `{npc_id, npc_name, rounds_left: rounds (3), bonus_damage: bonus_base +
bonus_per_level x level (6 + 3 per level), area_id}` in my record (common.py); event `npc_rallied
{npc_id, cost, rounds, bonus_damage, area_id}`. Draws nothing. `attack` (combat.py) spends the
rounds.

Catalogue: one entry per NPC prototype. As published, valid-action lists offer every non-enemy,
non-guide NPC here whatever the cost and a current ally; here they list only rallies that take
effect (the exact-mask contract).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.targets import nameable_npcs
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

from .common import (
    ALLY,
    GUIDE_DEFINITIONS,
    coins_held,
    friendly_ids,
    is_guide,
    pay,
    peek,
    record,
)


def cost_of(npc: Npc, settings: Any) -> int:
    return settings["cost_base"] + settings["cost_per_level"] * max(1, npc.level)


def has_ally(agent: AgentState) -> bool:
    ally = peek(agent, ALLY)
    return bool(ally) and ally["rounds_left"] > 0


def refusal(
    world: World, agent: AgentState, npc: Npc | None, name: str, settings: Any
) -> tuple[str, str] | None:
    if npc is None:
        return "rally.not_here", f"I cannot rally {name}: they are not here."
    if npc.enemy:
        return "rally.enemy", f"I cannot rally {name}: they are my enemy."
    if is_guide(npc, settings["guides"]):
        return "rally.guide", f"I cannot rally {name}: a guide does not fight."
    if has_ally(agent):
        return "rally.has_ally", f"I cannot rally {name}: an ally already fights beside me."
    cost = cost_of(npc, settings)
    if coins_held(world, agent) < cost:
        return "rally.too_poor", f"I cannot rally {name}: it costs {cost} coins."
    return None


class Rally(BaseActionRule):
    name = "rally"
    verb = "rally"
    params = ("npc_name",)
    param_min = param_max = 1
    description = (
        "Pay a friendly NPC here (8 + 4 coins per level) to add 6 + 3 per level damage to my "
        "next 3 attacks, while they stay here."
    )
    catalogue = CatalogueShape("npc", name=0)
    valid_params_from_mask = True
    settings = {
        "cost_base": 8,
        "cost_per_level": 4,
        "rounds": 3,
        "bonus_base": 6,
        "bonus_per_level": 3,
        "guides": list(GUIDE_DEFINITIONS),
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, s = ctx.actor, ctx.world, self.settings
        name = ctx.params[0]
        npc = world.npc_here(name, agent.area_id, agent.id)
        refused = refusal(world, agent, npc, name, s)
        if refused is not None:
            return res.fail(agent.id, *refused)
        assert npc is not None
        cost = cost_of(npc, s)
        pay(world, agent, cost, res)
        bonus = s["bonus_base"] + s["bonus_per_level"] * npc.level
        rounds = s["rounds"]
        record(agent)[ALLY] = {
            "npc_id": npc.id,
            "npc_name": npc.name,
            "rounds_left": rounds,
            "bonus_damage": bonus,
            "area_id": agent.area_id,
        }
        res.say(
            agent.id,
            "rally.done",
            f"I paid {name} {cost} coins: they will add {bonus} damage to my next {rounds} "
            "attacks while we stand together here.",
        )
        res.emit(
            "npc_rallied",
            agent.id,
            {
                "npc_id": npc.id,
                "cost": cost,
                "rounds": rounds,
                "bonus_damage": bonus,
                "area_id": agent.area_id,
            },
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world, s = ctx.actor, ctx.world, self.settings
        if has_ally(agent) or friendly_ids(world, s["guides"]).isdisjoint(
            world.areas[agent.area_id].npcs
        ):
            return []  # (no friendly NPC here: nobody to rally)
        npcs = nameable_npcs(world, agent, ctx.shared)
        if not npcs:
            return []
        coins, guides = coins_held(world, agent), s["guides"]  # refusal()'s checks, coins once
        return [
            (npc.def_id, (npc.name,))
            for npc in npcs
            if not npc.enemy and npc.def_id not in guides and coins >= cost_of(npc, s)
        ]
