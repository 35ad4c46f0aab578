"""`defend`: brace for this tick's attacks (they deal a tenth); in combat, recover half the
missing stamina. Rule pack `base`; docs/mechanics/verbs.md#defend."""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext

ALWAYS: list[tuple[str | None, tuple[str, ...]]] = [(None, ())]

STAMINA_RECOVERY = 0.5  # share of the missing stamina recovered by defending in combat


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Defend(BaseActionRule):
    name = "defend"
    verb = "defend"
    description = "Brace: attacks on me this turn deal a tenth of their damage."
    catalogue = CatalogueShape("none")
    lists_from_reach = True  # its listings read nothing at all
    dark_safe = True  # so they reveal nothing in the dark either

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent = ctx.actor
        agent.defending = True
        agent.consecutive_attacks = 0
        if agent.combats:
            agent.stamina = min(1.0, agent.stamina + (1.0 - agent.stamina) * STAMINA_RECOVERY)
            res.say(
                agent.id,
                "defend.recovering",
                f"I raised my guard and steadied myself: stamina {int(agent.stamina * 100)}%.",
            )
        else:
            res.say(agent.id, "defend.done", "I raised my guard.")
        res.emit("agent_defending", agent.id, {"area_id": agent.area_id})

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        return ALWAYS  # always possible: the catalogue's single entry, no parameters
