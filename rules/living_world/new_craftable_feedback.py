"""`new_craftable_feedback_step` (priority 5): the base pack's "what can this make" lines, as
remnant and mark give them.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack); it replaces the base rule of
the same name (a subclass). Two changes:

* a tick whose new items are no ingredient of anything says nothing and records nothing: the
  items count as acquired (and `new_crafting_recipe_seen` is emitted) only with a line, so an item
  that makes nothing is noticed again every tick until something that does comes with it;
* without `show_crafting_recipes`, each product is listed with its ingredients' names (no
  quantities): `rope (fiber, resin)`.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.packs import bundled_step_rule
from agentodyssey_pz.world.world import World

BaseNewCraftableFeedback: Any = bundled_step_rule("base", "new_craftable_feedback_step")


def ingredient_names(world: World, product_id: str) -> str:
    """`product (ingredient1, ingredient2)`, in the recipe's order."""
    product = world.objects[product_id]
    names = ", ".join(world.objects[i].name for i in product.craft.ingredients)
    return f"{product.name} ({names})"


class NewCraftableFeedback(BaseNewCraftableFeedback):
    name = "new_craftable_feedback_step"
    priority = 5
    description = "Tell agents what a newly carried ingredient can be crafted into."

    def uses_text(self, world: World, products: list[str], show_recipes: bool) -> str:
        if show_recipes:
            return super().uses_text(world, products, show_recipes)
        return ", ".join(ingredient_names(world, p) for p in products)

    def reports(self, world: World, fresh: set[str]) -> bool:
        """Only new items among which some ingredient is: those make a line."""
        products = world.products_of
        for did in fresh:  # noqa: SIM110 - a plain loop: every agent, every tick
            if did in products:
                return True
        return False
