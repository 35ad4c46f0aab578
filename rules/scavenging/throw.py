"""`throw <object> <npc>`: throw one unit I hold at an NPC here.

Rule pack `scavenging` (docs/rule-packs.md#bundled-packs); AgentOdyssey's remnant and mark.
Checks in order: the object's name is known and a unit of it is in my hands; it is not a container
or a writable; the NPC is here. Anyone may be hit: guides, merchants and quest NPCs too.

The throw deals max(1, the object's `attack_power`) damage: an extra field of its definition,
not its `attack`, so a weapon thrown hurts no more than a stone (1 HP in remnant and mark, where
no object has the field). It starts no fight: the NPC does not strike back, and my stamina and
attack streak are untouched. Then one draw from the game's generator: below 0.7 the unit lands on
the ground here, else it shatters and leaves its salvage there (`common.py`, more draws).
Events in order: `object_thrown {obj_id, npc_id, area_id}`, `npc_hit_by_thrown {obj_id, npc_id,
damage, area_id}`, then `object_landed {obj_id, area_id}` or `object_shattered {obj_id: definition
id, salvage: {id: units}, area_id}`.

An NPC brought to 0 HP dies as if killed by `attack` (the rule framework's `kills.kill_npc`): the
kill is recorded (unless I have not passed the tutorial), the NPC leaves the map, its loot drops
here and `npc_killed` follows. One difference from AgentOdyssey, with the same result: there a
fight I had with that NPC is left for the combat-rhythm rule to drop later in the same tick (which
then rests me if it was my last); here it ends at once, as after a kill by `attack`.

Catalogue: one entry per NPC prototype (the pack's docstring says why); valid-action lists give
every object I hold that can be thrown x every NPC here (hand order x NPC order).
"""

from __future__ import annotations

import attrs

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext, WorldTable
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.kills import kill_npc
from agentodyssey_pz.rules.targets import nameable_npcs
from agentodyssey_pz.world.agents import AgentState, remove_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

from .common import extra_number, place_salvage, salvage_text, salvage_yield

LAND_CHANCE = 0.7  # a thrown unit lands whole; otherwise it shatters into salvage
MIN_DAMAGE = 1


def damage_of(obj: ObjectDef) -> int:
    return max(MIN_DAMAGE, extra_number(obj, "attack_power"))


def throwable(world: World, oid: str) -> ObjectDef | None:
    """The definition of a held id that can be thrown, else None (containers and writables
    cannot, instances or not)."""
    obj = world.find_def(oid)
    if obj is None or obj.is_instanced or world.is_instance(oid):
        return None
    return obj


class Throwables(WorldTable):
    """Per held id: its name when it can be thrown and a command can name it (`World.listing`),
    else None: what the listing asks of the hands, every tick."""

    def work_out(self, oid: str) -> str | None:
        found = self.world.listing(oid)
        return found[1] if found is not None and throwable(self.world, oid) is not None else None


@attrs.frozen
class Aim:
    """A throw that takes effect: the held id, its definition and the NPC."""

    oid: str
    obj: ObjectDef
    npc: Npc


def aim(world: World, agent: AgentState, obj_name: str, npc_name: str) -> Aim | tuple[str, str]:
    """The throw these names ask for, or (feedback key, why not)."""
    oid = world.obj_name_to_id.get(obj_name)
    if oid is None or agent.hands.get(oid, 0) <= 0:
        return "throw.not_held", f"I cannot throw {obj_name}: I am not holding one."
    obj = throwable(world, oid)
    if obj is None:
        return "throw.unthrowable", f"I cannot throw {obj_name}: it is not something to throw."
    npc = world.npc_here(npc_name, agent.area_id, agent.id)
    if npc is None:
        return "throw.no_target", f"I cannot throw {obj_name} at {npc_name}: they are not here."
    return Aim(oid, obj, npc)


class Throw(BaseActionRule):
    name = "throw"
    verb = "throw"
    params = ("obj_name", "npc_name")
    param_min = param_max = 2
    description = (
        "Throw something I hold at someone here (no fight starts): it hits for 1 HP or its "
        "attack_power, then lands on the ground (7 in 10) or shatters into salvage."
    )
    catalogue = CatalogueShape("npc", name=1)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        aimed = aim(world, agent, *ctx.params)
        if not isinstance(aimed, Aim):
            return res.fail(agent.id, *aimed)
        oid, obj, npc = aimed.oid, aimed.obj, aimed.npc
        here, name = agent.area_id, world.name_of(oid)
        damage = damage_of(obj)
        remove_count(agent.hands, oid, 1)
        res.emit("object_thrown", agent.id, {"obj_id": oid, "npc_id": npc.id, "area_id": here})
        npc.hp = max(0, npc.hp - damage)
        left = f"; {npc.hp} HP left" if npc.hp > 0 else ""
        res.say(
            agent.id, "throw.hit", f"I threw {name} at {npc.name}: it hit for {damage} HP{left}."
        )
        res.emit(
            "npc_hit_by_thrown",
            agent.id,
            {"obj_id": oid, "npc_id": npc.id, "damage": damage, "area_id": here},
        )
        if ctx.game.rng.random() < LAND_CHANCE:
            world.areas[here].add_objects(oid, 1)
            res.track_move(agent.id, oid, 1, location("hand", agent.id), location("area", here))
            res.say(agent.id, "throw.landed", f"The {name} fell to the ground here.")
            res.emit("object_landed", agent.id, {"obj_id": oid, "area_id": here})
        else:
            res.track_consume(agent.id, oid, 1, location("hand", agent.id))
            placed = place_salvage(world, agent, salvage_yield(ctx.game.rng, obj), res)
            res.say(
                agent.id,
                "throw.shattered",
                f"The {name} shattered; {salvage_text(world, placed)} was left of it.",
            )
            res.emit(
                "object_shattered",
                agent.id,
                {"obj_id": obj.id, "salvage": placed, "area_id": here},
            )
        if npc.hp <= 0:
            self.kill(ctx, res, npc)
        return None

    @staticmethod
    def kill(ctx: RuleContext, res: RuleResult, npc: Npc) -> None:
        agent_id, world = ctx.actor.id, ctx.world
        res.say(agent_id, "throw.killed", f"{npc.name} fell, defeated.")
        placed = kill_npc(ctx, res, npc)
        if placed:
            loot = ", ".join(f"{n} {world.name_of(oid)}" for oid, n in placed)
            res.say(agent_id, "throw.loot", f"{npc.name} dropped {loot}.")

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        """Every object I hold that can be thrown x every NPC here (hand order x NPC order), each
        entry the NPC's prototype."""
        agent, world = ctx.actor, ctx.world
        if not agent.hands:
            return []
        throwables = Throwables.of(world)
        held = []
        for oid in agent.hands:
            name = throwables[oid]
            if name is not None:
                held.append(name)
        if not held:
            return []
        targets = nameable_npcs(world, agent, ctx.shared)
        return [(npc.def_id, (obj_name, npc.name)) for obj_name in held for npc in targets]
