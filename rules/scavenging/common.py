"""What the scavenging pack's verbs share: salvage, extra numeric fields, and using a unit up.

Rule pack `scavenging` (docs/rule-packs.md#bundled-packs). Salvage is what an object broken up
leaves (a disassembly, a throw that shatters): for each ingredient of its recipe, in recipe
order, with quantity q,

* q >= 2: max(1, floor(q / 2)) units, no draw;
* q == 1 exactly: 1 unit if the game's generator draws below 0.5 (one `random()`), else none;
* any other q (0.5, 1.5 ...): nothing, no draw.

The units land on the ground where the agent stands (containers and writables as new instances).
An ingredient no definition has still takes its draw but is left out (world validation refuses
such recipes; AgentOdyssey's remnant has one, which the importer defines).
"""

from __future__ import annotations

import math
import random

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

SALVAGE_COIN_FLIP = 0.5  # chance that an ingredient used once per unit comes back


def extra_number(obj: ObjectDef, key: str) -> int:
    """A numeric field the format does not know (`hp_restore`, `attack_power`: kept in the
    definition's `extras`), as a whole number (truncated); 0 when absent or not a number."""
    value = obj.extras.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0
    return int(value)


def salvage_yield(rng: random.Random, obj: ObjectDef) -> dict[str, int]:
    """Units per ingredient id that breaking one unit of `obj` gives back, in recipe order (ids
    giving nothing left out). Draws one `random()` per ingredient used exactly once per unit."""
    found: dict[str, int] = {}
    for ingredient, quantity in obj.craft.ingredients.items():
        if isinstance(quantity, bool) or not isinstance(quantity, (int, float)):
            continue
        if quantity >= 2:
            units = max(1, math.floor(quantity / 2))
        elif quantity == 1:
            units = 1 if rng.random() < SALVAGE_COIN_FLIP else 0
        else:
            units = 0
        if units > 0:
            found[ingredient] = units
    return found


def place_salvage(
    world: World, agent: AgentState, found: dict[str, int], res: RuleResult
) -> dict[str, int]:
    """Put salvage on the ground where the agent stands; returns what was placed (units per
    definition id, in order), ids the world does not define left out."""
    placed: dict[str, int] = {}
    where = location("area", agent.area_id)
    for def_id, units in found.items():
        if def_id not in world.objects:
            continue
        for oid, n in world.spawn_on_ground(agent.area_id, def_id, units):
            res.track_spawn(agent.id, oid, n, where)
        placed[def_id] = units
    return placed


def salvage_text(world: World, placed: dict[str, int]) -> str:
    """`2 iron_bar and 1 thread`, or `nothing`."""
    parts = [f"{n} {world.objects[def_id].name}" for def_id, n in placed.items()]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def use_up(world: World, store: dict[str, int], oid: str) -> None:
    """Take one unit out of a store for good: an instance (a bag, a note) stops existing, with
    whatever it held, as when crafting uses one up."""
    remove_count(store, oid, 1)
    if world.is_instance(oid):
        world.delete_instance(oid)
