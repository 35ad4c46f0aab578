"""Ambushes: every enemy in an agent's area may hit it once per tick, outside rhythm combat.

Rule pack `base`; docs/mechanics/combat.md#ambushes. The chance grows linearly with the area's
level, from 5% at level 1 to 15% at the world's highest level, and drops to 2.5% while the agent is
in a fight. An NPC ambushes at most one agent per tick and never an agent it is fighting in rhythm.
The rule also ends every agent's `defend` (it lasts one tick). Randomness: one `rng.random()` per
(agent, candidate NPC), agents in order, NPCs in arrival order, as the reference draws them.

Packs that change the odds or the damage (the bundled `living_world`) subclass this rule (same
name) and override `level_chances`, `odds`, `agent_chance` (one agent's chance, e.g. higher in
the dark) and `hit_damage`; the ambush itself stays here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.world import World

MIN_CHANCE = 0.05  # ambush chance in a level-1 area
MAX_CHANCE = 0.15  # ambush chance in an area of the world's highest level
ENGAGED_CHANCE = 0.025  # chance per enemy while the agent is fighting any NPC in rhythm
DEFEND_FACTOR = 0.1  # share of the damage an agent takes while defending
MIN_LEVEL = 1


def ambush_chances(levels: set[int]) -> dict[int, float]:
    """Chance per area level: linear from MIN_CHANCE at level 1 to MAX_CHANCE at the top level."""
    top = max(levels, default=MIN_LEVEL)
    if top <= MIN_LEVEL:
        # The reference has only {1: 0.05} here; any other level (< 1) gets the same chance.
        return dict.fromkeys(levels | {MIN_LEVEL}, MIN_CHANCE)
    step = (MAX_CHANCE - MIN_CHANCE) / (top - MIN_LEVEL)
    return {level: MIN_CHANCE + (level - MIN_LEVEL) * step for level in levels}


@mypyc_attr(native_class=False)  # spike: packs subclass it
class ActiveAttack(BaseStepRule):
    name = "active_attack_step"
    priority = 6
    description = "Enemies may ambush agents in their area; defending ends with this rule."

    def __init__(self) -> None:
        self._chances: dict[int, float] = {}
        self._chances_world: World | None = None
        self._chances_key: tuple[int, str | None] = (0, None)

    def reset(self, game: Any) -> None:
        self._chances_world = None

    def chances(self, world: World) -> dict[int, float]:
        """Chances per level, recomputed only when the set of areas may have changed (areas are
        added by expansion and the tutorial room is removed; levels never change in place)."""
        areas = world.areas
        key = (len(areas), next(reversed(areas), None))
        if world is not self._chances_world or key != self._chances_key:
            self._chances = self.level_chances({a.level for a in areas.values()})
            self._chances_world, self._chances_key = world, key
        return self._chances

    def level_chances(self, levels: set[int]) -> dict[int, float]:
        """The chance per area level, given every level the world's areas have."""
        return ambush_chances(levels)

    def odds(self, ctx: RuleContext) -> tuple[Mapping[int, float], float]:
        """This tick's chances: per area level (a mapping the ambush only indexes, so an override
        may work each level out when first read), and while the agent fights in rhythm."""
        return self.chances(ctx.world), ENGAGED_CHANCE

    def agent_chance(self, ctx: RuleContext, agent: Any, chance: float) -> float:
        """This agent's chance per enemy this tick, given the one the odds give it (its area's
        level's, or the engaged chance). The base: unchanged."""
        return chance

    def hit_damage(self, ctx: RuleContext, attack_power: int, defense: int) -> int:
        """What one ambush takes from an agent that is not defending."""
        return max(0, attack_power // 2 - defense)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        agents = game.agents
        chances, engaged_chance = self.odds(ctx)
        random = game.rng.random
        npcs = world.npcs
        enemies: dict[str, list[str]] = {}  # area -> enemies that have not ambushed yet this tick
        for agent in agents.values():
            if agent.hp <= 0 or game.in_tutorial_room(agent):
                continue
            area_id = agent.area_id
            waiting = enemies.get(area_id)
            if waiting is None:  # a plain loop, not a comprehension (cheaper for a few NPCs)
                waiting = enemies[area_id] = []
                for npc_id in world.areas[area_id].npcs:
                    if npcs[npc_id].enemy:
                        waiting.append(npc_id)
            if not waiting:
                continue
            engaged = agent.combats
            chance = engaged_chance if engaged else chances[world.areas[area_id].level]
            chance = self.agent_chance(ctx, agent, chance)
            for npc_id in tuple(waiting):
                if npc_id in engaged:
                    continue  # an NPC in rhythm combat with this agent does not ambush it
                npc = npcs[npc_id]
                if npc.owner is not None and npc.owner != agent.id:
                    continue  # another agent's personal boss never acts on this agent (no draw)
                if random() > chance:
                    continue
                damage = self.hit_damage(ctx, npc.attack_power, agent.defense)
                if agent.defending:
                    damage = int(damage * DEFEND_FACTOR)
                agent.hp -= damage
                waiting.remove(npc_id)
                res.say(
                    agent.id,
                    "ambush.hit",
                    f"{npc.name} ambushes me: I lose {damage} HP ({agent.hp}/{agent.max_hp} left).",
                )
                res.emit(
                    "agent_damaged",
                    agent.id,
                    {"npc_id": npc_id, "damage": damage, "area_id": area_id},
                )
        for agent in agents.values():
            agent.defending = False
