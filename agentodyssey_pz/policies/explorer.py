"""The explorer: visits the areas it has never seen, nearest first; reward component `exploration`.

Policies layer. Routes are shortest paths over the area graph (`navigation`); a locked path is
opened with its key carried in hand, found on the ground, bought or made first (freeing a
hand when both are full). Areas it cannot get into are skipped for a while. With every reachable
area visited it waits where no enemy stands.
"""

from __future__ import annotations

from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import Plan
from agentodyssey_pz.policies.scripted import ScriptedPolicy


class ExplorerPlanner(Planner):
    """Exploration is the whole goal."""

    def round(self) -> Plan:
        yield from self.wander()  # nothing left to visit: out of enemies' way, then wait


class ExplorerPolicy(ScriptedPolicy):
    """Nearest unvisited area first, opening locks on the way."""

    name = "explorer"
    planner_class = ExplorerPlanner
    components = ("exploration",)
