"""The crafter: crafts kinds it has never crafted, cheapest first; reward component `craft`.

Policies layer. For every recipe it has not made yet it asks the planner what making one unit would
cost: ingredients picked up where they lie, bought, crafted in turn or looted, plus walking to the
stations or building them (`sourcing`). It makes the cheapest; a recipe that fails is skipped for a
while. With no new recipe in reach it explores, which may bring new sources in reach.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import INFINITE, Plan
from agentodyssey_pz.policies.scripted import ScriptedPolicy

RANKING_TICKS = 50  # the ranking of recipes is worked out again after this long (or when used up)


class CrafterPlanner(Planner):
    """New recipes, cheapest first, from a ranking refreshed now and then."""

    def __init__(self, game: Any, agent_id: str) -> None:
        self.ranking: list[str] = []  # recipes never crafted, cheapest first
        self.ranked_at = -RANKING_TICKS
        self.seen = 0  # areas visited when the ranking was made
        super().__init__(game, agent_id)

    def round(self) -> Plan:
        crafted, now = self.agent.crafted, self.game.tick_index
        ranked = len(self.ranking)
        self.ranking = [d for d in self.ranking if d not in crafted and not self.is_blocked(d)]
        seen = len(self.agent.visited)
        if (
            (ranked and not self.ranking)
            or seen != self.seen
            or now - self.ranked_at >= RANKING_TICKS
        ):
            # Ranking every recipe is the costly part of a decision: it is done when the last
            # ranking is used up, when new places may bring new sources, or every RANKING_TICKS.
            self.ranking, self.ranked_at, self.seen = self.new_recipes(), now, seen
        options = [(did, partial(self.craft, did, 1)) for did in self.ranking]
        if not (yield from self.attempt(options)):
            yield from self.wander()

    def new_recipes(self) -> list[str]:
        """Kinds I have never crafted and can make from what is in reach, cheapest first."""
        crafted = self.agent.crafted
        options = [
            (self.craft_cost(did, 1), did)
            for did, obj in self.world.objects.items()
            if obj.craft.ingredients and did not in crafted and not self.is_blocked(did)
        ]
        return [did for cost, did in sorted(options) if cost < INFINITE]


class CrafterPolicy(ScriptedPolicy):
    """New recipes first, gathering, buying and building what they need."""

    name = "crafter"
    planner_class = CrafterPlanner
    components = ("craft",)
