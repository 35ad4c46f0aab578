"""What `buy` and `sell` share: the checks on amount and merchant, coins carried, prices, names.

Rule pack `base`; docs/mechanics/verbs.md#buy and docs/mechanics/verbs.md#sell. The money of a world
is `world.currency_id` (the first currency definition); a world without one can still buy free goods
but cannot sell. Trades use the carried stores of `agents.carried_stores` in their order: hands, the
equipped inventory, then containers held in hand (equipped items themselves are never traded).

The checks return a `Deal` (what will change hands) or a `Line` saying why not, and change nothing,
so a verb runs every check before it moves anything.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from typing import Any

import attrs

from agentodyssey_pz.rules.base import (
    ONE,
    BaseActionRule,
    CatalogueShape,
    RuleResult,
    mypyc_attr,
    target_id,
)
from agentodyssey_pz.rules.context import RuleContext, once_per_phase
from agentodyssey_pz.world.agents import AgentState, carried_stores
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .carrying import ListsAmounts, count_in_stores, parse_amount

# spike (mypyc): multiple inheritance hidden from mypyc ("not supported"), restored below the class
_ListsAmounts: Any = ListsAmounts

MERCHANT_ROLE = "merchant"  # the only NPC role with engine meaning in the base game
SELL_PRICE_FACTOR = 0.5  # a merchant pays floor(value x 0.5) per unit it buys from an agent
DEFAULT_MONEY_NAME = "coins"  # said when the world has no currency definition


@attrs.frozen
class Line:
    """One feedback line: a refusal's reason, or a note said when the deal goes through."""

    key: str
    text: str


@attrs.frozen
class Deal:
    """A trade that passed every check: `amount` units of `obj` at `unit` coins each."""

    npc: Npc
    obj: ObjectDef
    amount: int
    unit: int
    notes: tuple[Line, ...] = ()  # said before the trade's own line (clamped amounts)


def merchant_for(
    world: World, agent: AgentState, verb: str, amount_text: str, npc_name: str
) -> tuple[int, Npc] | Line:
    """The amount asked for and a merchant standing here, else why not."""
    requested = parse_amount(amount_text)
    action = "buy from" if verb == "buy" else "sell to"
    if requested is None:
        return Line(
            f"{verb}.bad_amount",
            f"I cannot {verb} '{amount_text}' of anything: amounts are positive whole numbers.",
        )
    npc = world.npc_here(npc_name, agent.area_id, agent.id)
    if npc is None:
        return Line(f"{verb}.no_npc", f"I cannot {action} {npc_name}: nobody of that name is here.")
    if npc.role != MERCHANT_ROLE:
        return Line(
            f"{verb}.not_merchant", f"I cannot {action} {npc_name}: they are not a merchant."
        )
    return requested, npc


def merchants_here(world: World, agent: AgentState) -> list[Npc]:
    """Merchants in the agent's area that it can see and their own name resolves to, in arrival
    order."""
    npcs, by_name = world.npcs, world.npc_name_to_id
    found = []
    for npc_id in world.visible_npcs(agent.area_id, agent.id):
        npc = npcs[npc_id]
        if npc.role == MERCHANT_ROLE and by_name.get(npc.name) == npc_id:
            found.append(npc)
    return found


def money_name(world: World) -> str:
    """The word for money in texts: the world's `currency_name`, else its currency's name."""
    if world.currency_name is not None:
        return world.currency_name
    currency = world.currency_id
    return world.objects[currency].name if currency is not None else DEFAULT_MONEY_NAME


def coins_carried(world: World, agent: AgentState) -> int:
    """Currency units in hands, the inventory and held containers (what a purchase can spend)."""
    currency = world.currency_id
    if currency is None:
        return 0
    return count_in_stores(world, carried_stores(world, agent), currency)


def sell_price(obj: ObjectDef) -> int | None:
    """Coins a merchant pays per unit, or None when the object is not tradable at all."""
    if obj.value is None:
        return None
    return math.floor(obj.value * SELL_PRICE_FACTOR)


def is_sellable_kind(obj: ObjectDef) -> bool:
    """Containers and writables are never sold (they are individual instances)."""
    return not obj.is_instanced and obj.value is not None


def kind_name_resolves(world: World, obj: ObjectDef) -> bool:
    """Whether a definition's own name names it (so a listed command reaches this definition)."""
    return world.obj_name_to_id.get(obj.name) == obj.id


@mypyc_attr(native_class=False)  # spike: packs subclass it
class DealRule(_ListsAmounts, BaseActionRule):
    """`buy` and `sell`: `<verb> <amount> <object> <merchant>`. A deal is quoted first (every check,
    nothing changed); a refusal is one line, otherwise the notes (clamped amounts), then `close`."""

    params = ("amount", "obj_name", "npc_name")
    param_min = 3
    param_max = 3
    catalogue = CatalogueShape("tradable", name=1, amount=0)

    @abstractmethod
    def quote(self, world: World, agent: AgentState, params: tuple[str, ...]) -> Deal | Line: ...

    @abstractmethod
    def close(self, ctx: RuleContext, deal: Deal, res: RuleResult) -> None: ...

    def mask_targets(self, ctx: RuleContext) -> list[tuple[Any, tuple[str, ...]]]:
        """`<verb> 1 <object> <merchant>` for each run of at least one, its target the object's
        definition: what `BaseActionRule.mask_targets` derives from `valid_params`, written
        directly, without the amounts' lists and the generic checks in between. Without a
        merchant here (most of the time) it lists nothing: every deal needs one."""
        world, agent = ctx.world, ctx.actor
        # Asked by both `buy` and `sell`: worked out once per agent in a listing phase.
        key = ("merchants_here", agent.id)
        if not once_per_phase(ctx.shared, key, merchants_here, world, agent):
            return []
        out: list[tuple[Any, tuple[str, ...]]] = []
        for (name, npc_name), limit in self.amount_runs(ctx):
            if limit > 0:
                target = target_id(world, "tradable", name)
                if target is not None:
                    out.append((target, (ONE, name, npc_name)))
        return out

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent = ctx.actor
        deal = self.quote(ctx.world, agent, ctx.params)
        if isinstance(deal, Line):
            return res.fail(agent.id, deal.key, deal.text)
        for note in deal.notes:
            res.say(agent.id, note.key, note.text)
        return self.close(ctx, deal, res)


# spike (mypyc): compiled, a class gets only the bases mypy knows (not the Any-typed mixin): the
# pure build's bases (and MRO) restored; in the pure build, a no-op. And its `@abstractmethod`s are
# lost (its compiled functions carry no `__isabstractmethod__` for ABCMeta to find): `load_pack`
# would take this helper base for a rule with no `name`. Restated (in the pure build, the very set
# ABCMeta found). With setattr: mypyc fails on the plain assignment (an internal error).
setattr(DealRule, "__bases__", (ListsAmounts, BaseActionRule))  # noqa: B010
setattr(DealRule, "__abstractmethods__", frozenset({"close", "quote"}))  # noqa: B010
