"""Rule pack `lockpicking`: `lockpick <area>`, picking the lock of a path with a tool in hand.

The base `enter` opens a lock only with its key
(docs/mechanics/verbs.md#quirk-a-path-opens-with-its-own-key: lockpicks are a pack feature). A world
plays with this pack by naming it in `features.rule_packs` (cinderdeep and the procedural presets
do; so does AgentOdyssey's remnant, whose verb this is, with other settings).

With a locked path to the named neighbour (the first neighbour of that name, as for `enter`) and a
picking tool in hand, one try: it succeeds with probability 0.2 with a lockpick, else 0.1 with a
tension wrench, and unlocks the path both ways without moving me. The lockpick is used when I
hold one, else the wrench, and it is used up either way. A failed try makes noise (`noise_made`)
and hurts me for 1 HP with probability 0.25 (at least 1 after defense; a `defend` does not help).
Events `path_unlocked` / `lockpick_failed` with `from_area` and `to_area`. Draws come from the
game's seeded generator: the success draw, then on failure the hurt draw. A path's key
(`object_to_unlock`) plays no part.

Settings (docs/rule-packs.md#settings; the defaults are cinderdeep's):

* `lockpick`, `wrench`: what makes a held object a lockpick or a wrench: its usage (`lockpick`,
  `tension_wrench`), or with `tools_by_id` its definition id (remnant: `obj_lockpick`,
  `obj_tension_wrench`, whose usage is `unlock`); `lockpick_chance`, `wrench_chance` (0.2, 0.1);
* `hurt_chance`, `hurt_damage` (0.25, 1);
* `tool_in_events` (true): the two events also name the tool's definition id (`tool`); remnant's
  do not;
* `hurt_event` (false): a hurt emits `agent_damaged {damage, area_id, reason: "lockpick_fail"}`,
  as remnant does.

A try always takes effect (the tool is spent), so the verb is offered exactly when a tool is in
hand and the neighbour's path is locked. Imports only the rule framework and the world core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.graph import LOCKED
from agentodyssey_pz.world.world import World

LOCKPICK, WRENCH = "lockpick", "tension_wrench"  # the default tool usages
# Tool usage -> chance that one try opens the lock (the lockpick is used first); the defaults of
# the rule's settings, and what planners read (agentodyssey_pz.policies.navigation).
TOOL_CHANCES = {LOCKPICK: 0.2, WRENCH: 0.1}
HURT_CHANCE = 0.25
HURT_DAMAGE = 1
HURT_REASON = "lockpick_fail"  # `reason` of agent_damaged with `hurt_event`


def tool_in_hand(
    world: World, agent: AgentState, settings: Mapping[str, Any]
) -> tuple[str, float] | None:
    """(held object id, success chance) of the tool a try would use: the first lockpick in my
    hands, else the first wrench, else None."""
    by_id = settings["tools_by_id"]
    lockpick, wrench = settings["lockpick"], settings["wrench"]
    found_wrench = None
    for oid in agent.hands:
        obj = world.def_of(oid)
        kind = obj.id if by_id else obj.usage
        if kind == lockpick:
            return oid, settings["lockpick_chance"]
        if kind == wrench and found_wrench is None:
            found_wrench = oid
    return None if found_wrench is None else (found_wrench, settings["wrench_chance"])


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
    settings = {
        "lockpick": LOCKPICK,
        "wrench": WRENCH,
        "tools_by_id": False,
        "lockpick_chance": TOOL_CHANCES[LOCKPICK],
        "wrench_chance": TOOL_CHANCES[WRENCH],
        "hurt_chance": HURT_CHANCE,
        "hurt_damage": HURT_DAMAGE,
        "tool_in_events": True,
        "hurt_event": False,
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, settings = ctx.actor, ctx.world, self.settings
        name = ctx.params[0]
        target = {n: a for a, n in locked_neighbors(world, agent)}.get(name)
        if target is None:
            return res.fail(
                agent.id,
                "lockpick.no_lock",
                f"I cannot pick a lock towards {name}: no locked path leads there from here.",
            )
        tool = tool_in_hand(world, agent, settings)
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
        payload = {"from_area": here, "to_area": target}
        if settings["tool_in_events"]:
            payload["tool"] = world.def_of(oid).id
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
        if rng.random() < settings["hurt_chance"]:
            damage = max(1, settings["hurt_damage"] - agent.defense)
            agent.hp -= damage
            res.say(agent.id, "lockpick.hurt", f"The snapping metal cut me for {damage} HP.")
            if settings["hurt_event"]:
                res.emit(
                    "agent_damaged",
                    agent.id,
                    {"damage": damage, "area_id": here, "reason": HURT_REASON},
                )
        return None

    def picking_tools(self, world: World) -> list[str]:
        """The world's picking tools by definition id, lockpicks first (the order a try uses
        them), for planners that fetch one."""
        settings, ranked = self.settings, ([], [])
        for obj in world.objects.values():
            kind = obj.id if settings["tools_by_id"] else obj.usage
            if kind == settings["lockpick"]:
                ranked[0].append(obj.id)
            elif kind == settings["wrench"]:
                ranked[1].append(obj.id)
        return ranked[0] + ranked[1]

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if tool_in_hand(world, agent, self.settings) is None:
            return []
        return [(world.area_named(name), (name,)) for _, name in locked_neighbors(world, agent)]
