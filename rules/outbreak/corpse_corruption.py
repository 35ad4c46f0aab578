"""`corpse_corruption_step` (priority 8): enemy corpses left lying corrupt their area, which then
raises mutated enemies.

Rule pack `outbreak` (docs/rule-packs.md#the-outbreak-pack); AgentOdyssey's quarantine. State:
`world.auxiliary["area_corpses"][area]` (NPC definition ids), `["area_corruption"][area]` and
`["corruption_spawn_cooldown"][area]`. Per tick:

1. each `npc_killed` event of this tick whose NPC is an enemy (its instance's flag, or its
   prototype's when the instance is gone) appends the NPC's definition id to its area's corpses;
2. each area with corpses (table order) gains `corruption_per_corpse` (1) per corpse; a line to
   the agents there when it first reaches half the threshold (5), another when it first reaches
   the threshold (10);
3. each area with corruption at the threshold or more and corpses (table order): a cooldown above
   0 goes down by 1 and nothing more; else one `choice` of its corpse list; if that prototype is an
   enemy, an instance of it at the area's level (next instance index, coins and loot drawn as for
   any new NPC) with HP x `hp_multiplier` (1.5) and attack x `attack_multiplier` (1.4) (both
   truncated), named `mutated_<name>`, joins the area; cooldown `spawn_cooldown` (5); a line to the
   agents there; `mutant_spawned {npc_id, base_npc_id, area_id, corruption}` (a world event).

So a corrupted area raises a mutant every 6th tick while its corpses stay. A mutant is a corpse
only once killed. Differences from AgentOdyssey, same play: the mutant's maximum HP is raised with
its HP (AgentOdyssey leaves the maximum below the HP), and it answers to its mutated name only
(AgentOdyssey also registers the plain name when free, an alias a saved game would not keep).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.world.entities import definition_id
from agentodyssey_pz.world.synthesis import SynthesisOptions, create_npc

from .common import CORPSES, CORRUPTION, SHAPES, SPAWN_COOLDOWN, KeepsStates, table


class CorpseCorruption(KeepsStates, BaseStepRule):
    name = "corpse_corruption_step"
    priority = 8
    description = "Corpses left lying corrupt their area, which then raises mutated enemies."
    state_key = CORPSES
    state_shape = SHAPES[CORPSES]
    states = (CORRUPTION, SPAWN_COOLDOWN)
    settings = {
        "corruption_per_corpse": 1,
        "threshold": 10,
        "spawn_cooldown": 5,
        "hp_multiplier": 1.5,
        "attack_multiplier": 1.4,
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        corpses, corruption = table(world, CORPSES), table(world, CORRUPTION)
        cooldown = table(world, SPAWN_COOLDOWN)
        for event in res.events:
            if event.type != "npc_killed":
                continue
            npc_id, area_id = event.data.get("npc_id"), event.data.get("area_id")
            if not npc_id or not area_id:
                continue
            npc = world.npcs.get(npc_id)
            if npc is not None:
                enemy, def_id = npc.enemy, npc.def_id
            else:
                def_id = definition_id(npc_id)
                proto = world.npc_protos.get(def_id)
                enemy = proto is not None and proto.enemy
            if enemy:
                corpses.setdefault(area_id, []).append(def_id)
        threshold = self.settings["threshold"]
        half = threshold // 2
        for area_id, found in corpses.items():
            if not found:
                continue
            old = corruption.get(area_id, 0)
            new = corruption[area_id] = old + len(found) * self.settings["corruption_per_corpse"]
            name = world.areas[area_id].name if area_id in world.areas else area_id
            if old < half <= new:
                self.tell(ctx, res, area_id, "corruption.stench", f"The corpses in {name} rot.")
            if old < threshold <= new:
                self.tell(
                    ctx,
                    res,
                    area_id,
                    "corruption.critical",
                    f"The rot in {name} is spreading: something stirs among the corpses.",
                )
        for area_id, level in list(corruption.items()):
            found = corpses.get(area_id)
            if level < threshold or not found:
                continue
            if cooldown.get(area_id, 0) > 0:
                cooldown[area_id] -= 1
                continue
            base_id = game.rng.choice(found)
            proto = world.npc_protos.get(base_id)
            area = world.areas.get(area_id)
            if proto is None or not proto.enemy or area is None:
                continue
            index = world.take_npc_index(proto.id)
            while f"{proto.id}_{index}" in world.npcs:
                index = world.take_npc_index(proto.id)
            options = SynthesisOptions(
                zero_loot_keeps_prototype_count=game.config.zero_loot_keeps_prototype_count
            )
            npc = create_npc(world, proto, index, area.level, game.rng, options)
            npc.hp = npc.max_hp = int(npc.hp * self.settings["hp_multiplier"])
            npc.attack_power = int(npc.attack_power * self.settings["attack_multiplier"])
            npc.name = f"mutated_{npc.name}"
            world.add_npc(npc, area_id)
            cooldown[area_id] = self.settings["spawn_cooldown"]
            self.tell(
                ctx,
                res,
                area_id,
                "corruption.mutant",
                f"{npc.name} rises from the corpses, stronger than before.",
            )
            res.emit(
                "mutant_spawned",
                WORLD_AGENT,
                {"npc_id": npc.id, "base_npc_id": base_id, "area_id": area_id, "corruption": level},
            )

    @staticmethod
    def tell(ctx: RuleContext, res: RuleResult, area_id: str, key: str, text: str) -> None:
        for agent in ctx.game.agents.values():
            if agent.area_id == area_id:
                res.say(agent.id, key, text)
