"""New-craftable feedback: the first time an agent carries an ingredient, say what it can make.

Rule pack `base`; spec step-rules.md section 4. "Carries" = hands, equipped items, the inventory and
containers held in hand (as `possession` counts them); the ground does not count. Every newly
carried definition id joins `agent.acquired`, ingredient or not.

Fixed reference quirks (spec section 4): feedback and the `new_crafting_recipe_seen` event come only
when something is new (the reference emits an empty line and an empty event every tick), one line
per ingredient, ingredients sorted by definition id and products in definition order (the
reference's order comes from sets). The rule runs per agent once that agent has passed the tutorial
(the reference waits until every agent has), and not while it stands in the tutorial room.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import carried_stores
from agentodyssey_pz.world.world import World

KEY = "new_craftable.uses"  # feedback key of the one line per new ingredient


def format_amount(amount: float) -> str:
    """A recipe quantity as stored: `2` for whole numbers, `0.5` otherwise."""
    return str(int(amount)) if float(amount).is_integer() else str(amount)


def recipe_text(world: World, product_id: str) -> str:
    """`product (q1 ingredient1, q2 ingredient2, ...)` in the recipe's own ingredient order."""
    product = world.objects[product_id]
    parts = ", ".join(
        f"{format_amount(q)} {world.objects[i].name}" for i, q in product.craft.ingredients.items()
    )
    return f"{product.name} ({parts})"


class NewCraftableFeedback(BaseStepRule):
    name = "new_craftable_feedback_step"
    priority = 5
    description = "Tell agents what a newly carried ingredient can be crafted into."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        show_recipes = world.definition.features.show_crafting_recipes
        def_of = world.def_of
        for agent in game.agents.values():
            if not agent.tutorial_passed or game.in_tutorial_room(agent):
                continue
            acquired = agent.acquired
            fresh: set[str] = set()
            for store in (agent.equipped, *carried_stores(world, agent)):
                for oid in store:
                    if oid not in acquired:  # plain objects: the id is the definition id
                        did = def_of(oid).id
                        if did not in acquired:
                            fresh.add(did)
            if not fresh:
                continue
            new = sorted(fresh)
            for did in new:
                acquired[did] = None
                products = world.products_of.get(did)
                if not products:
                    continue
                if show_recipes:
                    uses = ", ".join(recipe_text(world, p) for p in products)
                else:
                    uses = ", ".join(world.objects[p].name for p in products)
                name = world.objects[did].name
                res.say(agent.id, KEY, f"I have a new item, {name}. It can make: {uses}.")
            res.emit("new_crafting_recipe_seen", agent.id, {"object_ids": new})
