"""`active_attack_step` (priority 6): the base ambushes, four times as likely in the dark.

Rule pack `outbreak` (docs/rule-packs.md "The outbreak pack"); AgentOdyssey's quarantine. It
replaces the base rule of the same name (a subclass). One change: for an agent whose
`world.auxiliary["in_darkness"]` is true (`light_fuel.py`), the chance chosen as the base rule
chooses it (0.025 while it fights in rhythm, else its area level's, 0.05 to 0.15) becomes
`min(1.0, p x dark_multiplier)` (4). Everything else, draws included, is the base rule's.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.packs import bundled_step_rule

from .common import IN_DARKNESS

BaseActiveAttack: Any = bundled_step_rule("base", "active_attack_step")
DEFEND_FACTOR = 0.1


class ActiveAttack(BaseActiveAttack):
    name = "active_attack_step"
    priority = 6
    description = "Enemies may ambush agents in their area; four times as likely in the dark."
    settings = {"dark_multiplier": 4.0}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        dark = world.auxiliary.get(IN_DARKNESS) or {}
        factor = self.settings["dark_multiplier"]
        chances, engaged_chance = self.odds(ctx)
        random = game.rng.random
        npcs = world.npcs
        enemies: dict[str, list[str]] = {}
        for agent in game.agents.values():
            if agent.hp <= 0 or game.in_tutorial_room(agent):
                continue
            area_id = agent.area_id
            waiting = enemies.get(area_id)
            if waiting is None:
                waiting = enemies[area_id] = [n for n in world.areas[area_id].npcs if npcs[n].enemy]
            if not waiting:
                continue
            engaged = agent.combats
            chance = engaged_chance if engaged else chances[world.areas[area_id].level]
            if dark.get(agent.id):
                chance = min(1.0, chance * factor)
            for npc_id in tuple(waiting):
                if npc_id in engaged:
                    continue
                npc = npcs[npc_id]
                if npc.owner is not None and npc.owner != agent.id:
                    continue
                if random() > chance:
                    continue
                damage = self.hit_damage(ctx, npc.attack_power, agent.defense)
                if agent.defending:
                    damage = int(damage * DEFEND_FACTOR)
                agent.hp -= damage
                waiting.remove(npc_id)
                res.say(
                    agent.id,
                    "ambush.hit",
                    f"{npc.name} ambushes me: I lose {damage} HP ({agent.hp}/{agent.max_hp} left).",
                )
                res.emit(
                    "agent_damaged",
                    agent.id,
                    {"npc_id": npc_id, "damage": damage, "area_id": area_id},
                )
        for agent in game.agents.values():
            agent.defending = False
