"""The fighter: arms itself and hunts the enemies it can beat; components `kill`, `unique_kill`.

Policies layer. It wears the best armour it carries (getting a cheap one first if one is near),
holds its best weapon (getting the cheapest weapon first if it has none), then picks the enemy with
the best score: route length plus the fight's cost as `fighting.fight_cost` plays it out with the
damage rules (my attack and stamina against its HP, its attack against my HP and defense), with a
bonus for kinds it has never killed. In a fight it keeps to the enemy's rhythm: it defends on the
enemy's attack beats (taking a tenth of the damage and recovering stamina) and strikes on its
defend and wait beats. With nothing it can beat in reach it explores.
"""

from __future__ import annotations

from functools import partial

from agentodyssey_pz.policies.fighting import ARMOR
from agentodyssey_pz.policies.planner import Planner
from agentodyssey_pz.policies.planning import LOCK_COST, Plan, Stuck
from agentodyssey_pz.policies.scripted import ScriptedPolicy

GEAR_KEY = "gear"  # `blocked` entry: getting gear failed, do not retry for a while


class FighterPlanner(Planner):
    """Gear, then the best prey."""

    def round(self) -> Plan:
        if not self.is_blocked(GEAR_KEY):
            try:
                yield from self.gear_up()
            except Stuck:
                self.block(GEAR_KEY)
        options = [
            (npc_id, partial(self.fight, npc_id)) for _, npc_id in self.prey(None, new_kinds=True)
        ]
        if not (yield from self.attempt(options)):
            yield from self.wander()

    def gear_up(self) -> Plan:
        """A weapon and armour if cheap ones are near; the best armour I carry worn."""
        world = self.world
        if self.best_weapon() is None:
            yield from self.get_weapon()
        carried = self.carried()
        if not any(world.objects[d].category == ARMOR for d in carried):
            armors = [o.id for o in world.objects.values() if o.category == ARMOR]
            best = min(armors, key=lambda d: self.cost(d, 1), default=None)
            if best is not None and self.cost(best, 1) < LOCK_COST:
                yield from self.obtain(best, 1)
        yield from self.wear_best_armor()


class FighterPolicy(ScriptedPolicy):
    """Winnable fights, fought on the enemy's rhythm."""

    name = "fighter"
    planner_class = FighterPlanner
    components = ("kill", "unique_kill")
