"""New-craftable feedback: the first time an agent carries an ingredient, say what it can make.

Rule pack `base`; docs/mechanics/step-rules.md#new-craftable-feedback. "Carries" = hands, equipped
items, the inventory and containers held in hand (as `possession` counts them); the ground does not
count. Every newly carried definition id joins `agent.acquired`, ingredient or not.

Fixed reference quirks
(docs/mechanics/step-rules.md#quirk-craftable-feedback-only-when-something-is-new): feedback and the
`new_crafting_recipe_seen` event come only when something is new (the reference emits an empty line
and an empty event every tick), one line per ingredient, ingredients sorted by definition id and
products in definition order (the reference's order comes from sets). The rule runs per agent once
that agent has passed the tutorial (the reference waits until every agent has), and not while it
stands in the tutorial room.

Packs that word the lines or report otherwise (the bundled `living_world`) subclass this rule
(same name) and override `reports`, `lines`, `uses_text` or `report`.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState, carried_stores
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


@mypyc_attr(native_class=False)  # spike: packs subclass it
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
            if not fresh or not self.reports(world, fresh):
                continue
            new = sorted(fresh)
            self.report(agent, new, self.lines(world, new, show_recipes), res)

    def reports(self, world: World, fresh: set[str]) -> bool:
        """Whether these newly carried definition ids are reported (and recorded) at all: always,
        in the base pack."""
        return True

    def lines(self, world: World, new: list[str], show_recipes: bool) -> list[str]:
        """One line per new ingredient (definition ids, sorted), naming what it can make."""
        out = []
        for did in new:
            products = world.products_of.get(did)
            if products:
                uses = self.uses_text(world, products, show_recipes)
                out.append(f"I have a new item, {world.objects[did].name}. It can make: {uses}.")
        return out

    def uses_text(self, world: World, products: list[str], show_recipes: bool) -> str:
        """The products an ingredient makes: full recipes, or only their names."""
        if show_recipes:
            return ", ".join(recipe_text(world, p) for p in products)
        return ", ".join(world.objects[p].name for p in products)

    def report(self, agent: AgentState, new: list[str], lines: list[str], res: RuleResult) -> None:
        """Every new definition id counts as acquired; the lines and the event go to the agent."""
        acquired = agent.acquired
        for did in new:
            acquired[did] = None
        for line in lines:
            res.say(agent.id, KEY, line)
        res.emit("new_crafting_recipe_seen", agent.id, {"object_ids": new})
