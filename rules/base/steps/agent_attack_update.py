"""Attack update: an agent's attack is its base attack plus the best weapon it holds in hand.

Rule pack `base`; docs/mechanics/combat.md#attack-update. Runs first in the step phase, so the
attack an agent uses in `attack` is the one computed at the end of the previous tick. Fixed
reference quirk (docs/mechanics/combat.md#quirk-every-agents-attack-is-updated): the reference stops
updating at the first agent whose attack is not positive; every agent is updated here.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext


@mypyc_attr(native_class=False)  # spike: packs subclass it
class AgentAttackUpdate(BaseStepRule):
    name = "agent_attack_update_step"
    priority = 1
    description = "Recompute every agent's attack from its base attack and the items in its hands."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        def_of = ctx.world.def_of
        for agent in ctx.game.agents.values():
            # Only the best single item in hand counts; armour and inventory never add attack.
            # A plain loop rather than max() over a generator: every agent, every tick.
            best = None
            for oid in agent.hands:
                bonus = def_of(oid).attack
                if best is None or bonus > best:
                    best = bonus
            agent.attack = agent.min_attack + (best or 0)
            if agent.attack <= 0:
                res.say(
                    agent.id,
                    "attack_power.too_low",
                    f"My attack is {agent.attack}: too low to hurt anything.",
                )
