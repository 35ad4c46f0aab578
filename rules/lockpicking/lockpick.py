"""Rule pack `lockpicking`: `lockpick <area>`, picking the lock of a path with a tool in hand.

The base `enter` opens a lock only with its key (spec actions 5: lockpicks are a pack feature). A
world plays with this pack by naming it in `features.rule_packs` (cinderdeep and the procedural
presets do).

This is the reference's `lockpick` verb of its generated game `remnant` (spec rule-packs 1): with a
locked path to the named neighbour and a lockpick (usage `lockpick`) or a tension wrench (usage
`tension_wrench`) in hand, one try: it succeeds with probability 0.2 with a lockpick (0.1 with only
a wrench) and unlocks the path both ways without moving me. The tool is used up either way. A
failed try makes noise (`noise_made`) and hurts me for 1 HP with probability 0.25 (at least 1 after
defense). Events `path_unlocked` / `lockpick_failed`. Draws come from the game's seeded generator:
the success draw, then on failure the hurt draw.

A try always takes effect (the tool is spent), so the verb is offered exactly when a tool is in
hand and the neighbour's path is locked. Imports only the rule framework and the world core.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.graph import LOCKED
from agentodyssey_pz.world.world import World

# Tool usage -> chance that one try opens the lock (the better tool is used first).
TOOL_CHANCES = {"lockpick": 0.2, "tension_wrench": 0.1}
HURT_CHANCE = 0.25
HURT_DAMAGE = 1


def tool_in_hand(world: World, agent: AgentState) -> tuple[str, float] | None:
    """(held object id, success chance) of the best picking tool in my hands, or None."""
    best: tuple[str, float] | None = None
    for oid in agent.hands:
        chance = TOOL_CHANCES.get(world.def_of(oid).usage)
        if chance is not None and (best is None or chance > best[1]):
            best = (oid, chance)
    return best


def locked_neighbors(world: World, agent: AgentState) -> list[tuple[str, str]]:
    """(area id, name) of each neighbour a command of mine can name whose path is locked."""
    return [
        (neighbor, name)
        for neighbor, name, path in world.named_neighbors(agent.area_id, agent.id)
        if path[LOCKED]
    ]


class Lockpick(BaseActionRule):
    name = "lockpick"
    verb = "lockpick"
    params = ("area_name",)
    param_min = param_max = 1
    description = (
        "Try to pick the lock of the path to a neighbouring area with a lockpick or tension "
        "wrench in hand (1 in 5, or 1 in 10 with a wrench); the tool breaks either way."
    )
    catalogue = CatalogueShape("area", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        target = {n: a for a, n in locked_neighbors(world, agent)}.get(name)
        if target is None:
            return res.fail(
                agent.id,
                "lockpick.no_lock",
                f"I cannot pick a lock towards {name}: no locked path leads there from here.",
            )
        tool = tool_in_hand(world, agent)
        if tool is None:
            return res.fail(
                agent.id,
                "lockpick.no_tool",
                f"I cannot pick the lock towards {name}: I hold no lockpick or tension wrench.",
            )
        oid, chance = tool
        tool_name = world.name_of(oid)
        remove_count(agent.hands, oid, 1)
        res.track_consume(agent.id, oid, 1, location("hand", agent.id))
        rng, here = ctx.game.rng, agent.area_id
        payload = {"from_area": here, "to_area": target, "tool": world.def_of(oid).id}
        if rng.random() < chance:
            world.graph.set_locked(here, target, False)
            res.say(
                agent.id,
                "lockpick.opened",
                f"I picked the lock towards {name}; my {tool_name} broke doing it.",
            )
            res.emit("path_unlocked", agent.id, payload)
            return None
        res.say(agent.id, "lockpick.failed", f"My {tool_name} broke in the lock towards {name}.")
        res.emit("lockpick_failed", agent.id, payload)
        res.emit("noise_made", agent.id, {"area_id": here})
        if rng.random() < HURT_CHANCE:
            damage = max(1, HURT_DAMAGE - agent.defense)
            agent.hp -= damage
            res.say(agent.id, "lockpick.hurt", f"The snapping metal cut me for {damage} HP.")
        return None

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [params for _, params in self.mask_targets(ctx)]

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if tool_in_hand(world, agent) is None:
            return []
        return [(world.area_named(name), (name,)) for _, name in locked_neighbors(world, agent)]
