"""`craft <amount> <object>`: make units of an object from the ingredients I carry, at the stations
standing here; the product lands on the ground (containers and writables as new instances).

Rule pack `base`; docs/mechanics/verbs.md#craft. Stations (`craft.dependencies`) must be on the
ground of this area (holding one does not count) and are not used up. Ingredients come from the
carried stores in order: hands, the equipped inventory, then containers held in hand. The amount is
clamped to what the ingredients allow. Crafting counts towards the craft reward (`agent.crafted`)
unless the agent has not passed the tutorial (the reference holds it back for everyone while anyone
is in the tutorial; docs/mechanics/rewards.md#quirk-tracking-held-back-per-agent).

Fractional recipes (`GameConfig.fractional_crafting`; quirk "fractional ingredients lose their
remainder", docs/mechanics/verbs.md#quirk-fractional-ingredients-lose-their-remainder):
* "exact" (default): whole units are taken and the unused fraction of the last unit is kept as the
  agent's credit for that ingredient (`agent.craft_credit`), which counts as available next time;
  over repeated crafts exactly `quantity x total` units are consumed (0.5 bar: two crafts, 1 bar).
* "reference": each source is floored after subtracting, destroying the remainder.

Quirks fixed:
* Writable products count every ingredient by definition id over plain and instance entries (the
  reference counts only instances, so they could never be made;
  docs/mechanics/verbs.md#quirk-writable-products-can-be-crafted).
* As in the reference, an instance name (`label_3`) crafts its definition; `valid_params` lists each
  craftable once, by its definition name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from agentodyssey_pz.rules.base import ONE, BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import (
    AgentState,
    add_count,
    carried_stores,
    remove_count,
    units_by_definition,
)
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from ..carrying import (
    FRACTION_DIGITS,
    AmountRuns,
    ListsAmounts,
    parse_amount,
    place_on_ground,
    store_loc,
    take_units,
    units_needed,
)

# spike (mypyc): multiple inheritance hidden from mypyc ("not supported"), restored below the class
_ListsAmounts: Any = ListsAmounts

EXACT = "exact"  # GameConfig.fractional_crafting value that keeps fractional credit
NEEDS_NOTHING: frozenset[str] = frozenset()  # `world.needs` of an id it does not know


def recipe_of(obj: ObjectDef) -> dict[str, float]:
    """Ingredients with a positive quantity (validation forbids others; never divide by zero)."""
    return {ing: q for ing, q in obj.craft.ingredients.items() if q > 0}


def missing_stations(world: World, area: Area, obj: ObjectDef) -> list[str]:
    """Names of the stations the recipe needs that are not on this ground."""
    missing = []
    for dep in obj.craft.dependencies:
        if area.objects.get(dep, 0) > 0:
            continue
        dep_def = world.objects.get(dep)
        # An instanced definition lies on the ground under instance ids: look those up.
        if (
            dep_def is not None
            and dep_def.is_instanced
            and any(world.def_of(oid).id == dep for oid in area.objects)
        ):
            continue
        missing.append(dep_def.name if dep_def is not None else dep)
    return missing


def times_possible(q: float, have: float) -> int:
    # Rounded before flooring so 0.3 / 0.1 (= 2.9999999999999996) counts as 3.
    return math.floor(round(have / q, FRACTION_DIGITS))


def _enough_for_one(
    recipe: Mapping[str, float], counts: Mapping[str, int], credit: Mapping[str, float]
) -> bool:
    """A quick, safe pre-check for `possible_amount(...) >= 1` (it never rejects a recipe that
    `times_possible` would accept: the margin is wider than its rounding)."""
    positive = False
    for ing, q in recipe.items():
        if q <= 0:
            continue
        positive = True
        if counts.get(ing, 0) + credit.get(ing, 0.0) < q * (1 - 1e-9):
            return False
    return positive


def possible_amount(
    recipe: Mapping[str, float], counts: Mapping[str, int], credit: Mapping[str, float]
) -> int:
    return min(
        times_possible(q, counts.get(ing, 0) + credit.get(ing, 0.0)) for ing, q in recipe.items()
    )


def consume_exact(
    world: World,
    agent: AgentState,
    stores: list[dict[str, int]],
    recipe: Mapping[str, float],
    amount: int,
    counts: Mapping[str, int],
    res: RuleResult,
) -> None:
    """Take whole units; the unused part of the last unit becomes credit for next time."""
    credit = agent.craft_credit
    for ing, q in recipe.items():
        units, left = units_needed(q * amount, credit.get(ing, 0.0))
        take_units(world, agent, stores, ing, min(units, counts.get(ing, 0)), res)
        if left > 0:
            credit[ing] = left
        else:
            credit.pop(ing, None)


def consume_reference(
    world: World,
    agent: AgentState,
    stores: list[dict[str, int]],
    recipe: Mapping[str, float],
    amount: int,
    res: RuleResult,
) -> None:
    """The reference's way: each touched entry is floored after subtracting (fractions are
    destroyed)."""
    def_of = world.def_of
    for ing, q in recipe.items():
        need = round(q * amount, FRACTION_DIGITS)
        for store in stores:
            for oid in [k for k in store if def_of(k).id == ing]:
                if need <= 0:
                    break
                count = store[oid]
                use = min(count, need)
                removed = count - math.floor(round(count - use, FRACTION_DIGITS))
                need = round(need - use, FRACTION_DIGITS)
                remove_count(store, oid, removed)
                if res.tracking:
                    res.track_consume(agent.id, oid, removed, store_loc(world, agent, store))


def shortfall(
    world: World,
    recipe: Mapping[str, float],
    counts: Mapping[str, int],
    credit: Mapping[str, float],
) -> list[str]:
    """`name (need q, have h)` for each ingredient short of one craft."""
    short = []
    for ing, q in recipe.items():
        have = counts.get(ing, 0) + credit.get(ing, 0.0)
        if times_possible(q, have) < 1:
            ing_def = world.find_def(ing)
            short.append(f"{ing_def.name if ing_def else ing} (need {q:g}, have {have:g})")
    return short


def produce(world: World, agent: AgentState, obj: ObjectDef, amount: int, res: RuleResult) -> None:
    """The product appears on the ground; tracked unless still in the tutorial."""
    if agent.tutorial_passed:
        add_count(agent.crafted, obj.id, amount)
    placed = place_on_ground(world, agent, obj.id, amount, res)
    names = ", ".join(world.name_of(pid) for pid, _ in placed)
    res.say(agent.id, "craft.done", f"I crafted {amount} {obj.name}; on the ground here: {names}.")
    res.emit(
        "object_crafted", agent.id, {"obj_id": obj.id, "amount": amount, "area_id": agent.area_id}
    )


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Craft(_ListsAmounts, BaseActionRule):
    name = "craft"
    verb = "craft"
    params = ("amount", "obj_name")
    param_min = 2
    param_max = 2
    description = (
        "Make items from ingredients I carry, at the stations here; they land on the ground."
    )
    catalogue = CatalogueShape("craftable", name=1, amount=0)
    lists_from_reach = True  # its listings read only what `reach_key` covers

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        amount_text, obj_name = ctx.params
        requested = parse_amount(amount_text)
        if requested is None:
            return res.fail(
                agent.id,
                "craft.bad_amount",
                f"I cannot craft '{amount_text}' {obj_name}: amounts are positive whole numbers.",
            )
        oid = world.obj_name_to_id.get(obj_name)
        obj = world.find_def(oid) if oid is not None else None
        if oid is None or obj is None:
            return res.fail(
                agent.id,
                "craft.unknown_object",
                f"I cannot craft {obj_name}: I know of no such thing.",
            )
        recipe = recipe_of(obj)
        if not recipe:
            return res.fail(
                agent.id, "craft.not_craftable", f"I cannot craft {obj_name}: it cannot be crafted."
            )
        missing = missing_stations(world, world.areas[agent.area_id], obj)
        if missing:
            return res.fail(
                agent.id,
                "craft.missing_station",
                f"I cannot craft {obj_name}: it needs {', '.join(missing)} here on the ground.",
            )
        return self._craft(ctx, obj, recipe, requested, res)

    def _craft(
        self,
        ctx: RuleContext,
        obj: ObjectDef,
        recipe: dict[str, float],
        requested: int,
        res: RuleResult,
    ) -> None:
        """Ingredient checks and clamp, then consumption in the configured mode."""
        agent, world = ctx.actor, ctx.world
        exact = ctx.game.config.fractional_crafting == EXACT
        stores = carried_stores(world, agent)
        counts = units_by_definition(world, stores)
        credit = agent.craft_credit if exact else {}
        short = shortfall(world, recipe, counts, credit)
        if short:
            return res.fail(
                agent.id,
                "craft.missing_ingredients",
                f"I cannot craft {obj.name}: not enough for one; short of {', '.join(short)}.",
            )
        amount = requested
        possible = possible_amount(recipe, counts, credit)
        if amount > possible:
            res.say(
                agent.id, "craft.only_enough", f"I only have ingredients for {possible} {obj.name}."
            )
            amount = possible
        if exact:
            consume_exact(world, agent, stores, recipe, amount, counts, res)
        else:
            consume_reference(world, agent, stores, recipe, amount, res)
        return produce(world, agent, obj, amount, res)

    def amount_runs(self, ctx: RuleContext) -> AmountRuns:
        """Each product of something I carry (or hold credit for) whose stations are here and whose
        ingredients suffice for one, amounts 1..possible. Only recipes using what I carry are
        looked at (via `world.products_of`), never every definition."""
        found = self.craftable(ctx)
        return [((obj.name,), possible) for obj, possible in found] if found else []

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        found = self.craftable(ctx)
        return [(obj.id, (ONE, obj.name)) for obj, _ in found] if found else []

    @staticmethod
    def craftable(ctx: RuleContext) -> list[tuple[ObjectDef, int]]:
        """(product, how many the ingredients allow) for each product I could craft one of now,
        in order of first mention among the products of what I carry."""
        agent, world = ctx.actor, ctx.world
        credit = agent.craft_credit if ctx.game.config.fractional_crafting == EXACT else {}
        counts = units_by_definition(world, carried_stores(world, agent))
        # The definitions I have any of (units or credit), in order of first mention.
        have = {**counts, **credit} if credit else counts
        if not have:
            return []
        area = world.areas[agent.area_id]
        products_of, objects, names = world.products_of, world.objects, world.obj_name_to_id
        needs, held = world.needs, have.keys()
        seen: set[str] = set()
        found: list[tuple[ObjectDef, int]] = []
        for def_id in have:
            for pid in products_of.get(def_id, ()):
                if pid in seen:
                    continue
                seen.add(pid)
                if not needs.get(pid, NEEDS_NOTHING) <= held:
                    continue  # an ingredient I have none of (the common case)
                obj = objects.get(pid)
                if obj is None or names.get(obj.name) != pid:
                    continue
                # The cheap pre-check first: most products of what I carry lack an ingredient.
                if not _enough_for_one(obj.craft.ingredients, counts, credit):
                    continue
                if obj.craft.dependencies and missing_stations(world, area, obj):
                    continue
                possible = possible_amount(recipe_of(obj), counts, credit)
                if possible >= 1:
                    found.append((obj, possible))
        return found


# spike (mypyc): compiled, a class gets only the bases mypy knows (not the Any-typed mixin):
# the pure build's bases (and MRO) restored; in the pure build, a no-op.
setattr(Craft, "__bases__", (ListsAmounts, BaseActionRule))  # noqa: B010
