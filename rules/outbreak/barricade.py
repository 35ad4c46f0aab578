"""`barricade <area_name>`: block the path to a neighbour for good with three units of wood.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine.
Checks in order: I am not fighting here (a fight recorded in this area with an NPC still on the
map); a neighbour has that name; I have at least 3 units of wood among the entries, in order,
logs in hands, logs in the inventory, planks in hands, planks in the inventory (the `wood`
setting, in that order). AgentOdyssey walks a Python set of the two ids, so its log/plank order
changes from process to process; logs first is our fixed order.

Effect: 3 units taken walking those entries in order; the path is deleted both ways (it no longer
exists for anyone, keys included); `{from, to, agent_id, step}` is appended to
`world.auxiliary["barricaded_paths"]`; event `path_barricaded {from_area, to_area, area_name,
wood_used: 3}`. Draws nothing.

Catalogue: one entry per area; listed for every neighbour while the wood suffices and I am not
fighting here.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.world import World

from .common import BARRICADED, fighting_here, may_fight_here, named_neighbor, table

WOOD = ("obj_wood_log", "obj_wood_plank")
WOOD_NEEDED = 3


def wood_entries(
    world: World, agent: AgentState, wood: Any
) -> list[tuple[dict[str, int], str, dict[str, str]]]:
    """(store, id, tracking location) of each wood entry with units, in taking order."""
    out = []
    inventory = world.containers[agent.inventory_id] if agent.inventory_id is not None else None
    for def_id in wood:
        if agent.hands.get(def_id, 0) > 0:
            out.append((agent.hands, def_id, location("hand", agent.id)))
        if inventory is not None and inventory.items.get(def_id, 0) > 0:
            out.append((inventory.items, def_id, location("container", inventory.id)))
    return out


def wood_count(world: World, agent: AgentState, wood: Any) -> int:
    """`wood_total(wood_entries(...))` without building the entries (for listings)."""
    hands = agent.hands
    items = world.containers[agent.inventory_id].items if agent.inventory_id is not None else {}
    total = 0
    for def_id in wood:
        total += hands.get(def_id, 0) + items.get(def_id, 0)
    return total


def wood_total(entries: list[tuple[dict[str, int], str, dict[str, str]]]) -> int:
    return sum(store[oid] for store, oid, _ in entries)


class Barricade(BaseActionRule):
    name = "barricade"
    verb = "barricade"
    params = ("area_name",)
    param_min = param_max = 1
    description = "Barricade the path to a neighbouring area for good with 3 logs or planks."
    catalogue = CatalogueShape("area", name=0)
    valid_params_from_mask = True
    listed_after = "eavesdrop"  # listed after `write`, before `wait`, as AgentOdyssey lists them
    # Its listings read what the agent carries and its own fights, never the ground, NPCs or
    # other agents: offered in quarantine's dark, which hides only those (docs/rule-packs.md).
    dim_safe = True
    settings = {"wood": list(WOOD), "wood_needed": WOOD_NEEDED}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        if fighting_here(world, agent):
            return res.fail(agent.id, "barricade.in_combat", "I cannot barricade while fighting.")
        found = named_neighbor(world, agent, name)
        if found is None:
            return res.fail(agent.id, "barricade.no_path", f"No path leads from here to {name}.")
        needed = self.settings["wood_needed"]
        entries = wood_entries(world, agent, self.settings["wood"])
        if wood_total(entries) < needed:
            return res.fail(
                agent.id,
                "barricade.no_wood",
                f"I need {needed} logs or planks in my hands or inventory to barricade a path.",
            )
        left = needed
        for store, oid, where in entries:
            if left <= 0:
                break
            n = min(left, store[oid])
            remove_count(store, oid, n)
            res.track_consume(agent.id, oid, n, where)
            left -= n
        here, there = agent.area_id, found[0]
        world.graph.disconnect(here, there)
        table(world, BARRICADED).append(
            {"from": here, "to": there, "agent_id": agent.id, "step": ctx.game.tick_index}
        )
        res.say(
            agent.id,
            "barricade.done",
            f"I nailed {needed} pieces of wood across the way to {name}: that path is gone.",
        )
        res.emit(
            "path_barricaded",
            agent.id,
            {"from_area": here, "to_area": there, "area_name": name, "wood_used": needed},
        )
        return None

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        wood = wood_count(world, agent, self.settings["wood"])
        if wood < self.settings["wood_needed"] or may_fight_here(world, agent):
            return []
        return [(n, (name,)) for n, name, _ in world.named_neighbors(agent.area_id, agent.id)]
