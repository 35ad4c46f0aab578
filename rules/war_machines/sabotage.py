"""`siphon <object> <npc>` and `jam <object> <npc>`: turn something I hold against a war machine I
am fighting.

Rule pack `war_machines`; AgentOdyssey's robot_kingdom. Both check, in order: an NPC of that name
stands here (visible to me); it is an enemy; I am fighting it (it is in my combats); then `jam`
refuses an NPC whose pattern has fewer than 2 actions; then both: the object's name is known and
a unit of it is in my hands; it is no container or writable; its definition is known; it is no
station; `siphon` refuses an object without a positive `value`, `jam` refuses currency.

`siphon`: one unit is used up; I heal `min(value, max HP - HP)`; the NPC's attack drops for good
by `max(1, floor(value / 3))`, not below 0. Event `energy_siphoned {npc_id, obj_id,
conduit_value, hp_restored, atk_reduction (the actual drop), area_id}`. Draws nothing.

`jam`: one unit is used up; its weight `w = (value or 0) + 3 x (size or 1)`. When the NPC's
pattern has both attack and other actions, one `random()` below `min(0.9, 0.6 + 0.005 w)` picks
among the attack positions, else among the others (a `choice` either way); with only one kind, a
`choice` among all positions. That action leaves the instance's pattern for good. My rhythm
index against it: at or past the new length it wraps (`index % new length`); else, when the
removed position was before it, it moves back by one. Other agents' indices against the NPC are
not adjusted (as published, docs/rule-packs.md; setting `adjusts_every_index` moves every
agent's index against it the same way). Event `mechanism_jammed {npc_id, obj_id, removed_action,
remaining_pattern, area_id}`.

Catalogue: one entry per NPC prototype each (the first suitable unit in hand order at the first
NPC of that prototype I fight here); the label leaves the object's place blank, like the
scavenging pack's `throw`. Valid-action lists give every suitable held unit x every enemy here
that I fight (hand order x NPC order).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.targets import nameable_npcs
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .common import CURRENCY, STATION

ATTACK = "attack"


def foe(world: World, agent: AgentState, name: str, verb: str) -> Npc | tuple[str, str]:
    npc = world.npc_here(name, agent.area_id, agent.id)
    if npc is None:
        return f"{verb}.not_here", f"I cannot {verb} {name}: they are not here."
    if not npc.enemy:
        return f"{verb}.not_enemy", f"I cannot {verb} {name}: they are no enemy."
    if npc.id not in agent.combats:
        return f"{verb}.not_fighting", f"I cannot {verb} {name}: I am not fighting them."
    return npc


def held(
    world: World, agent: AgentState, name: str, verb: str
) -> tuple[str, ObjectDef] | tuple[str, str]:
    """(held id, definition) of a unit named so in my hands, or (key, why not)."""
    oid = world.obj_name_to_id.get(name)
    if oid is None or agent.hands.get(oid, 0) <= 0:
        return f"{verb}.not_held", f"I cannot {verb} with {name}: I am not holding one."
    obj = world.find_def(oid)
    if world.is_instance(oid) or (obj is not None and obj.is_instanced):
        return f"{verb}.instance", f"I cannot {verb} with {name}: it is not something to use up."
    if obj is None:
        return f"{verb}.unknown", f"I cannot {verb} with {name}: I know of no such thing."
    if obj.category == STATION:
        return f"{verb}.station", f"I cannot {verb} with {name}: it is a station."
    return oid, obj


def siphon_plan(world: World, agent: AgentState, obj_name: str, npc_name: str) -> Any:
    npc = foe(world, agent, npc_name, "siphon")
    if not isinstance(npc, Npc):
        return npc
    found = held(world, agent, obj_name, "siphon")
    if isinstance(found[1], str):
        return found
    oid, obj = found
    if obj.value is None or obj.value <= 0:
        return "siphon.no_value", f"I cannot siphon with {obj_name}: it holds no energy."
    return npc, oid, obj


def jam_plan(world: World, agent: AgentState, obj_name: str, npc_name: str) -> Any:
    npc = foe(world, agent, npc_name, "jam")
    if not isinstance(npc, Npc):
        return npc
    if len(npc.combat_pattern) <= 1:
        return "jam.too_simple", f"I cannot jam {npc_name}: its moves are too simple to jam."
    found = held(world, agent, obj_name, "jam")
    if isinstance(found[1], str):
        return found
    oid, obj = found
    if obj.category == CURRENCY:
        return "jam.currency", f"I cannot jam with {obj_name}: coins are too small to jam gears."
    return npc, oid, obj


def shifted(index: int, removed: int, length: int) -> int:
    """A rhythm index after the action at `removed` left a pattern, now `length` long."""
    if index >= length:
        return index % length
    return index - 1 if removed < index else index


def use_one(agent: AgentState, oid: str, res: RuleResult) -> None:
    remove_count(agent.hands, oid, 1)
    res.track_consume(agent.id, oid, 1, location("hand", agent.id))


class SabotageVerb(BaseActionRule):
    """What both verbs share: two parameters, the listing (`plan` decides)."""

    params = ("obj_name", "npc_name")
    param_min = param_max = 2
    catalogue = CatalogueShape("npc", name=1)
    valid_params_from_mask = True

    @staticmethod
    def plan(world: World, agent: AgentState, obj_name: str, npc_name: str) -> Any:
        raise NotImplementedError

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if not agent.combats or not agent.hands:
            return []
        foes = [
            npc for npc in nameable_npcs(world, agent, ctx.shared)
            if npc.enemy and npc.id in agent.combats
        ]  # fmt: skip
        if not foes:
            return []
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for oid in agent.hands:
            found = world.listing(oid)
            if found is None:
                continue
            obj_name = found[1]
            for npc in foes:
                if isinstance(self.plan(world, agent, obj_name, npc.name)[0], Npc):
                    out.append((npc.def_id, (obj_name, npc.name)))
        return out


class Siphon(SabotageVerb):
    name = "siphon"
    verb = "siphon"
    description = (
        "Burn something valuable I hold against an enemy I fight: I heal up to its value, and the "
        "enemy's attack drops by a third of it for good."
    )

    plan = staticmethod(siphon_plan)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        found = siphon_plan(world, agent, *ctx.params)
        if not isinstance(found[0], Npc):
            return res.fail(agent.id, found[0], found[1])
        npc, oid, obj = found
        value = obj.value
        use_one(agent, oid, res)
        heal = min(value, agent.max_hp - agent.hp)
        agent.hp += heal
        before = npc.attack_power
        npc.attack_power = max(0, before - max(1, value // 3))
        drop = before - npc.attack_power
        res.say(
            agent.id,
            "siphon.done",
            f"I siphoned the energy of {ctx.params[0]} into myself: I recovered {heal} HP, and "
            f"{npc.name}'s attack fell by {drop} to {npc.attack_power}.",
        )
        res.emit(
            "energy_siphoned",
            agent.id,
            {
                "npc_id": npc.id,
                "obj_id": oid,
                "conduit_value": value,
                "hp_restored": heal,
                "atk_reduction": drop,
                "area_id": agent.area_id,
            },
        )
        return None


class Jam(SabotageVerb):
    name = "jam"
    verb = "jam"
    description = (
        "Jam something I hold into an enemy I fight: one of its moves (more likely an attack, the "
        "heavier the object) is gone for good."
    )
    settings = {
        "attack_chance_base": 0.6,
        "attack_chance_per_weight": 0.005,
        "most": 0.9,
        "adjusts_every_index": False,
    }

    plan = staticmethod(jam_plan)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, s = ctx.actor, ctx.world, self.settings
        found = jam_plan(world, agent, *ctx.params)
        if not isinstance(found[0], Npc):
            return res.fail(agent.id, found[0], found[1])
        npc, oid, obj = found
        use_one(agent, oid, res)
        weight = (obj.value or 0) + 3 * (obj.size or 1)
        pattern = list(npc.combat_pattern)
        attacks = [i for i, a in enumerate(pattern) if a == ATTACK]
        others = [i for i, a in enumerate(pattern) if a != ATTACK]
        rng = ctx.game.rng
        if attacks and others:
            chance = min(
                s["most"], s["attack_chance_base"] + s["attack_chance_per_weight"] * weight
            )
            removed = rng.choice(attacks) if rng.random() < chance else rng.choice(others)
        else:
            removed = rng.choice(attacks or others)
        action = pattern.pop(removed)
        npc.combat_pattern = tuple(pattern)
        fighters = ctx.game.agents.values() if s["adjusts_every_index"] else (agent,)
        for fighter in fighters:
            engagement = fighter.combats.get(npc.id)
            if engagement is not None:
                engagement.rhythm_index = shifted(engagement.rhythm_index, removed, len(pattern))
        res.say(
            agent.id,
            "jam.done",
            f"I jammed {ctx.params[0]} into {npc.name}'s works: it can no longer {action} "
            f"(its moves now: {', '.join(pattern)}).",
        )
        res.emit(
            "mechanism_jammed",
            agent.id,
            {
                "npc_id": npc.id,
                "obj_id": oid,
                "removed_action": action,
                "remaining_pattern": list(pattern),
                "area_id": agent.area_id,
            },
        )
        return None
