"""`wait`: do nothing; ends an attack streak, and in combat catches the breath (stamina full).

Rule pack `base`; docs/mechanics/verbs.md#wait.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext

ALWAYS: list[tuple[str | None, tuple[str, ...]]] = [(None, ())]

FULL_STAMINA = 1.0


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Wait(BaseActionRule):
    name = "wait"
    verb = "wait"
    description = "Do nothing for a turn; in a fight, recover all stamina."
    catalogue = CatalogueShape("none")
    lists_from_reach = True  # its listings read nothing at all
    dark_safe = True  # so they reveal nothing in the dark either

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent = ctx.actor
        agent.consecutive_attacks = 0
        if agent.combats:
            agent.stamina = FULL_STAMINA
            res.say(
                agent.id, "wait.recovered", "I waited and caught my breath: my stamina is full."
            )
        else:
            res.say(agent.id, "wait.done", "I waited.")

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        return ALWAYS  # always possible: the catalogue's single entry, no parameters
