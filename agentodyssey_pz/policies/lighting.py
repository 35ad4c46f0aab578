"""Light in the dark: a light in hand where the darkness costs something.

Policies layer; a mixin of the planner (`planner.Planner`). In a world whose darkness a rule keeps
per agent (`features.darkness.agent_flags`: the outbreak pack, AgentOdyssey's quarantine, where
lights burn fuel and enemies ambush four times as often in the dark), I carry a light source when
one is cheap to get (`carry_light`, a chore) and take it into my hand, next to my weapon, before I
walk into an unlit area (`light_up`, from `goto`). Which objects give light: those the darkness
names (`light_objects`) and those whose LIGHT_SOURCE_EXTRA extra is true (the outbreak pack's
mark, read by its fuel rule). In a world whose darkness only hides things (mark, remnant) nothing
changes: the planner reads the state, not the observation.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.planning import Plan
from agentodyssey_pz.world.darkness import LIGHT_SOURCE_EXTRA

NEAR_LIGHT = 20  # route cost of a light worth getting between goals


class Lighting:
    """Carrying and holding a light (mixed into the planner)."""

    def light_sources(self: Any) -> list[str]:
        """The world's light definitions when its darkness costs something (see the module
        docstring), else none."""
        memo = self.tick_memo()
        if "lights" not in memo:
            darkness = self.world.definition.features.darkness
            found: list[str] = []
            if darkness is not None and darkness.agent_flags is not None:
                found = sorted(
                    did
                    for did, obj in self.world.objects.items()
                    if obj.extras.get(LIGHT_SOURCE_EXTRA) is True or did in darkness.light_objects
                )
            memo["lights"] = found
        return memo["lights"]

    def light_carried(self: Any) -> str | None:
        """A light I carry (a definition), None if I carry none."""
        return next((d for d in self.light_sources() if self.have(d)), None)

    def carry_light(self: Any) -> Plan:
        """Carry one light when one is within NEAR_LIGHT (a chore)."""
        lights = self.light_sources()
        if not lights or self.light_carried() is not None or self.inventory() is None:
            return
        best = min(lights, key=lambda d: (self.cost(d, 1), d))
        if self.cost(best, 1) < NEAR_LIGHT:
            yield from self.obtain(best, 1)

    def light_up(self: Any, area_id: str) -> Plan:
        """Before walking into an unlit area: the light I carry into my hand (my weapon kept)."""
        if self.world.areas[area_id].light:
            return
        light = self.light_carried()
        if light is None or any(self.matches(o, light) for o in self.agent.hands):
            return
        weapon = self.best_weapon()
        yield from self.hold(light, keep=[weapon] if weapon else [])
