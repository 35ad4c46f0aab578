"""Who sees in the dark: the darkness switch of a world (`features.darkness`).

Layer: world core. In a world with darkness an agent cannot see while it stands in an area whose
`light` is false and holds none of the world's light objects (`DarknessDef.light_objects`) in its
hands: a light in the inventory, worn, inside a held container or on the ground does not count.
What it then cannot see - what it holds and wears (the inventory with its contents), the ground,
NPCs and other agents - is left out of its observations and of what it is offered to do
(docs/world-format.md#91-darkness). Without the switch nobody is ever in the dark, whatever the
areas' `light`.

Two variations (`DarknessDef`): with `agent_flags` a rule decides who is in the dark and keeps it
per agent in `world.auxiliary` (AgentOdyssey's quarantine, whose lights burn fuel: the `outbreak`
pack), read here as it stands; with `hides` "surroundings" an agent in the dark still sees what it
holds and wears, and only the ground, NPCs and other agents are hidden (`hides_holdings`).

Asked for every agent at every observation, so it reads three fields and at most two hand entries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentodyssey_pz.world.agents import AgentState
    from agentodyssey_pz.world.world import World

# An object definition's extra that marks it a light source in a world whose darkness a rule keeps
# (the outbreak pack's fuel rule burns such lights; the planner carries one into the dark).
LIGHT_SOURCE_EXTRA = "light_source"


def has_darkness(world: World) -> bool:
    """Whether light matters in this world at all (its definition has `features.darkness`)."""
    return world.definition.features.darkness is not None


def in_darkness(world: World, agent: AgentState) -> bool:
    """Whether `agent` cannot see now: the world has darkness, its area is unlit and no light
    object is in its hands (an instance counts by its definition); or, in a world whose darkness
    a rule keeps (`agent_flags`), whether the rule last put it in the dark."""
    darkness = world.definition.features.darkness
    if darkness is None:
        return False
    if darkness.agent_flags is not None:  # the rule's word, whatever the area
        flags = world.auxiliary.get(darkness.agent_flags)
        return bool(flags.get(agent.id, False)) if isinstance(flags, dict) else False
    if world.areas[agent.area_id].light:
        return False
    lights = darkness.light_objects  # a tuple of a few ids
    for oid in agent.hands:  # two hands at most
        if oid in lights:
            return False
        found = world.find_def(oid)
        if found is not None and found.id in lights:
            return False
    return True


def hides_holdings(world: World) -> bool:
    """Whether an agent in the dark also cannot see what it holds and wears (`hides`
    "everything", the default); else only its surroundings are hidden."""
    darkness = world.definition.features.darkness
    return darkness is not None and darkness.hides != "surroundings"
