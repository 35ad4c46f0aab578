"""`active_attack_step` (priority 6): the base ambushes, four times as likely in the dark.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine. It
replaces the base rule of the same name (a subclass) through its `agent_chance` hook: for an agent
whose `world.auxiliary["in_darkness"]` is true (`light_fuel.py`), the chance chosen as the base
rule chooses it (0.025 while it fights in rhythm, else its area level's, 0.05 to 0.15) becomes
`min(1.0, p x dark_multiplier)` (4). Everything else, draws included, is the base rule's.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.packs import bundled_step_rule

from .common import IN_DARKNESS

BaseActiveAttack: Any = bundled_step_rule("base", "active_attack_step")


class ActiveAttack(BaseActiveAttack):
    name = "active_attack_step"
    priority = 6
    description = "Enemies may ambush agents in their area; four times as likely in the dark."
    settings = {"dark_multiplier": 4.0}

    def agent_chance(self, ctx: RuleContext, agent: Any, chance: float) -> float:
        dark = ctx.world.auxiliary.get(IN_DARKNESS)
        if dark and dark.get(agent.id):
            return min(1.0, chance * self.settings["dark_multiplier"])
        return chance
