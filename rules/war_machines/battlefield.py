"""What happens on a battlefield: `war_machine_cannibalize_step` (priority 3),
`corruption_decay_step` (8) and `intimidation_step` (9).

Rule pack `war_machines`; AgentOdyssey's robot_kingdom. None of these draws a random number.

`war_machine_cannibalize_step`: for each NPC in any agent's fights (agents in order, fights in
order, each NPC once, at the area first recorded for it): skipped when it no longer exists, is
dead, is no enemy, or has at least `max = prototype HP + HP slope x (level - 1)`. Candidates are
the ground ids of that area that are "vulnerable" (common.py: no station, currency, container,
writable, unlock or instance) with a value above 0; the most valuable (the first on ties) loses one
unit; `heal = max(2, int(value x 0.5))`, `hp = min(max, hp + heal)`; lines to agents there; events
`war_machine_cannibalize {npc_id, area_id, consumed_obj_id, consumed_obj_name, hp_restored,
npc_hp, npc_max_hp}` and `dep_tracker_hint`. One item per NPC per tick; quest objects are not
protected (as published). Tutorial rooms are left alone by all three rules.

`corruption_decay_step`: every `npc_killed` event of this tick whose NPC exists and is an enemy
marks its area (for good, with the tick). On ticks >= 0 that are even, per marked area: records of
ids no longer on its ground are dropped, every vulnerable ground id's counter rises by 1; at 6 the
agents there are warned; at `threshold` (8) the whole stack is destroyed (`corruption_destroyed
{area_id, obj_id, count}`, a line). An area with no counters left leaves the decay table (it stays
marked). State `world.auxiliary["corruption_decay"] = {marked: {area: tick}, decay: {area: {id:
count}}}`.

`intimidation_step`: per area (definition order) with living enemies and living friendly NPCs
(non-enemy, not guides; merchants and quest NPCs too): each friendly (area order) loses `3 x
living enemies` HP (a line to agents there, `npc_intimidated {npc_id, area_id, damage,
remaining_hp, num_enemies}`, its running total kept); a friendly at 0 HP or below gets HP 0, leaves
the map and the name table, and the enemy with the largest `attack + HP` (the first on ties) gains
5 attack and 15 HP, a line, `npc_fallen_from_intimidation {fallen_npc_id, fallen_npc_name,
absorber_npc_id, absorber_npc_name, absorb_attack_bonus, absorb_hp_bonus, area_id}`. The fallen NPC
keeps its record with HP 0. State `world.auxiliary["intimidation"] = {npc: {total_damage}}`.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT, location
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.agents import remove_count
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

from .common import (
    GUIDE_DEFINITIONS,
    friendly_ids,
    tell_area,
    tutorial_area,
    tutorial_place,
    vulnerable_table,
)


def full_hp(world: World, npc: Npc) -> int:
    proto = world.npc_protos.get(npc.def_id)
    return npc.max_hp if proto is None else proto.hp_at(npc.level)


class Cannibalize(BaseStepRule):
    name = "war_machine_cannibalize_step"
    priority = 3
    description = "Wounded war machines in a fight devour the most valuable item on the floor."
    settings = {"protect_quest_objects": False}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        seen: dict[str, str] = {}
        for agent in game.agents.values():
            for npc_id, engagement in agent.combats.items():
                seen.setdefault(npc_id, engagement.area_id)
        if not seen:
            return
        table = vulnerable_table(world, self.settings["protect_quest_objects"])
        for npc_id, area_id in seen.items():
            npc = world.npcs.get(npc_id)
            if npc is None or npc.hp <= 0 or not npc.enemy or area_id not in world.areas:
                continue
            if tutorial_area(world, area_id):
                continue
            top = full_hp(world, npc)
            if npc.hp >= top:
                continue
            ground = world.areas[area_id].objects
            best, best_value = None, 0
            for oid, count in ground.items():
                obj = table[oid]
                if count <= 0 or obj is None or obj.value is None or obj.value <= 0:
                    continue
                if obj.value > best_value:
                    best, best_value = oid, obj.value
            if best is None:
                continue
            remove_count(ground, best, 1)
            res.track_consume(WORLD_AGENT, best, 1, location("area", area_id))
            heal = max(2, int(best_value * 0.5))
            before = npc.hp
            npc.hp = min(top, npc.hp + heal)
            name = world.name_of(best)
            tell_area(
                game, res, area_id, "cannibalize.eat",
                f"{npc.name} tears up {name} from the floor and bolts it into itself "
                f"(HP {npc.hp}/{top}).",
            )  # fmt: skip
            res.emit(
                "war_machine_cannibalize",
                WORLD_AGENT,
                {
                    "npc_id": npc.id,
                    "area_id": area_id,
                    "consumed_obj_id": best,
                    "consumed_obj_name": name,
                    "hp_restored": npc.hp - before,
                    "npc_hp": npc.hp,
                    "npc_max_hp": top,
                },
            )
            res.emit("dep_tracker_hint", WORLD_AGENT, {"hint": f"cannibalize@{area_id}: {best} x1"})


class CorruptionDecay(BaseStepRule):
    name = "corruption_decay_step"
    priority = 8
    description = "Floors where enemies died corrode what is left lying there."
    state_key = "corruption_decay"
    state_shape = Record({"marked": MapOf(int), "decay": MapOf(MapOf(int))})
    settings = {"threshold": 8, "warn_at": 6, "every": 2, "protect_quest_objects": False}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        state = world.auxiliary.get(self.state_key)
        if state is None:
            state = world.auxiliary[self.state_key] = {"marked": {}, "decay": {}}
        marked, decay = state["marked"], state["decay"]
        step = game.tick_index
        for event in res.events:
            if event.type != "npc_killed":
                continue
            area_id, npc = event.data.get("area_id"), world.npcs.get(event.data.get("npc_id"))
            if npc is None or not npc.enemy or area_id not in world.areas:
                continue
            if not tutorial_area(world, area_id):
                marked.setdefault(area_id, step)
        if not marked or step < 0 or step % s["every"] != 0:
            return
        table = vulnerable_table(world, s["protect_quest_objects"])
        for area_id in list(marked):
            area = world.areas.get(area_id)
            if area is None:
                continue
            counters = decay.get(area_id)
            if counters is None and not area.objects:
                continue  # nothing to count, nothing to record
            if counters is None:
                counters = decay[area_id] = {}
            targets = [
                (oid, n) for oid, n in area.objects.items() if n > 0 and table[oid] is not None
            ]
            present = {oid for oid, _ in targets}
            for oid in list(counters):
                if oid not in present:
                    del counters[oid]
            gone = []
            for oid, count in targets:
                counters[oid] = counters.get(oid, 0) + 1
                if counters[oid] >= self.settings["threshold"]:
                    del area.objects[oid]
                    del counters[oid]
                    res.track_consume(WORLD_AGENT, oid, count, location("area", area_id))
                    gone.append(f"{count} {world.name_of(oid)}")
                    res.emit(
                        "corruption_destroyed",
                        WORLD_AGENT,
                        {"area_id": area_id, "obj_id": oid, "count": count},
                    )
                elif counters[oid] == self.settings["warn_at"]:
                    tell_area(
                        game, res, area_id, "corruption.warning",
                        f"The {count} {world.name_of(oid)} on the ground corrode in the war "
                        "machines' leaking energy: they will soon be gone.",
                    )  # fmt: skip
            if gone:
                tell_area(
                    game, res, area_id, "corruption.destroyed",
                    f"Corrupting energy ate away {', '.join(gone)} on the ground.",
                )  # fmt: skip
            if not counters:
                del decay[area_id]


class Intimidation(BaseStepRule):
    name = "intimidation_step"
    priority = 9
    description = (
        "Enemies wear down friendly NPCs sharing their area; the fallen feed the strongest."
    )
    state_key = "intimidation"
    state_shape = MapOf(Record({"total_damage": int}))
    settings = {
        "damage_per_enemy": 3,
        "attack_bonus": 5,
        "hp_bonus": 15,
        "guides": list(GUIDE_DEFINITIONS),
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        totals: dict[str, Any] = world.auxiliary.setdefault(self.state_key, {})
        tutorial = tutorial_place(world)
        npcs, guides = world.npcs, s["guides"]
        friendly = friendly_ids(world, guides)
        for area_id, area in world.areas.items():
            if friendly.isdisjoint(area.npcs):
                continue  # no friendly NPC here, alive or dead: nobody to intimidate
            if tutorial is not None and area.place_id == tutorial:
                continue
            enemies: list[Npc] = []
            friends: list[Npc] = []
            for npc_id in area.npcs:  # one pass: both lists in area order
                npc = npcs.get(npc_id)
                if npc is None or npc.hp <= 0:
                    continue
                if npc.enemy:
                    enemies.append(npc)
                elif npc.def_id not in guides:
                    friends.append(npc)
            if not enemies or not friends:
                continue
            damage = s["damage_per_enemy"] * len(enemies)
            for npc in friends:
                npc.hp -= damage
                entry = totals.setdefault(npc.id, {"total_damage": 0})
                entry["total_damage"] += damage
                tell_area(
                    game, res, area_id, "intimidation.hurt",
                    f"{npc.name} cowers before {len(enemies)} war machine(s) and loses {damage} "
                    f"HP ({max(0, npc.hp)} left).",
                )  # fmt: skip
                res.emit(
                    "npc_intimidated",
                    WORLD_AGENT,
                    {
                        "npc_id": npc.id,
                        "area_id": area_id,
                        "damage": damage,
                        "remaining_hp": npc.hp,
                        "num_enemies": len(enemies),
                    },
                )
                if npc.hp <= 0:
                    self._fall(ctx, res, npc, enemies, area_id)

    def _fall(
        self, ctx: RuleContext, res: RuleResult, npc: Npc, enemies: list[Npc], area_id: str
    ) -> None:
        world, s = ctx.world, self.settings
        npc.hp = 0
        world.remove_npc_from_map(npc.id)
        if world.npc_name_to_id.get(npc.name) == npc.id:
            del world.npc_name_to_id[npc.name]
        absorber = enemies[0]
        for enemy in enemies[1:]:
            if enemy.attack_power + enemy.hp > absorber.attack_power + absorber.hp:
                absorber = enemy
        absorber.attack_power += s["attack_bonus"]
        absorber.hp += s["hp_bonus"]
        tell_area(
            ctx.game, res, area_id, "intimidation.fallen",
            f"{npc.name} falls; {absorber.name} absorbs their strength.",
        )  # fmt: skip
        res.emit(
            "npc_fallen_from_intimidation",
            WORLD_AGENT,
            {
                "fallen_npc_id": npc.id,
                "fallen_npc_name": npc.name,
                "absorber_npc_id": absorber.id,
                "absorber_npc_name": absorber.name,
                "absorb_attack_bonus": s["attack_bonus"],
                "absorb_hp_bonus": s["hp_bonus"],
                "area_id": area_id,
            },
        )
