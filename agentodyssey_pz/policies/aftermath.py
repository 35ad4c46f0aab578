"""After a fight: burning the corpses where the game punishes leaving them.

Policies layer; a mixin of the planner (`planner.Planner`). In a game that runs a rule with the
verb id BURN_VERB (the outbreak pack, AgentOdyssey's quarantine;
docs/rule-packs.md#the-outbreak-pack), enemy corpses left lying rot: their area grows mutants and,
after a few ticks, is sealed off under quarantine (its exits locked, for which only keys or a rare
keycard help). So I burn the corpses where I stand whenever I can, and take up one unit of each fuel
the rule uses when it lies where I stand. The rule's own module names the fuel (`CHEMICAL`, `RAG`)
and where corpses lie (`corpses_here`): nothing is copied here.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.mechanics import rule_module
from agentodyssey_pz.policies.planning import Plan

BURN_VERB = "burn_corpses"


class Aftermath:
    """Burning corpses (mixed into the planner)."""

    def burner(self: Any) -> Any:
        """The burning rule's module, or None when the game has no such verb."""
        if BURN_VERB not in self.game.engine.rules:
            return None
        return rule_module(self.game, BURN_VERB)

    def burn_corpses(self: Any) -> Plan:
        """Burn the corpses where I stand when I carry the fuel."""
        module = self.burner()
        if module is None or not module.corpses_here(self.world, self.agent):
            return
        if all(self.have(d) for d in (module.CHEMICAL, module.RAG)):
            yield "burn corpses"

    def carry_fuel(self: Any) -> Plan:
        """One unit of each fuel on me, taken up where I stand (a detour for it could lead me
        into harm's way)."""
        module = self.burner()
        if module is None or self.inventory() is None:
            return
        here = self.world.areas[self.agent.area_id].objects
        for did in (module.CHEMICAL, module.RAG):
            if not self.have(did) and here.get(did, 0) > 0:
                yield from self.stow(did, 1, force=False)
