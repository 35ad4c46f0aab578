"""Getting fit for a fight the quest needs: health back, better gear, more experience.

Policies layer; a mixin of the planner (`planner.Planner`). Before a fight the quest asks for (a
boss, a named NPC) the planner plays it out on paper (`hand_setup`, `fight_cost`). When I would
not come through it well, I get ready first, the cheapest remedy first:

1. eat, when the game has an `eat` verb (a pack's, e.g. scavenging) and I would win at full
   health: food I carry, else the cheapest food to be had;
2. a better weapon or armour that turns the fight, the one whose getting and fighting costs
   least together;
3. otherwise experience: each level raises my attack and health (`GameConfig`), and every kill
   gives some, so I hunt the easiest enemy around.

After MAX_PREPARATIONS rounds I fight anyway: a defeat costs only the way back. Between goals I
also eat what I carry when my health runs low (`snack`). Which objects are food, and what each
gives back, is read from the `eat` rule's own module (`is_edible`, `restore_of`).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.policies.mechanics import rule_module
from agentodyssey_pz.policies.planning import INFINITE, LOCK_COST, Plan, Stuck

EAT_VERB = "eat"
MAX_PREPARATIONS = 60  # rounds of getting ready for one fight before fighting anyway
MAX_MEALS = 12  # units eaten in one go
SNACK_SHARE = 0.5  # between goals, eat what I carry below this share of my health
HUNGRY_SHARE = 0.35  # below this share, fetch food if some is within NEAR_FOOD
NEAR_FOOD = 8  # cost of the food worth a detour between goals (per unit)
PROVISIONS = 3  # units of food carried along, in a game with an `eat` verb
EMERGENCY_SHARE = 0.3  # below this share of my health, eating comes before any plan
WEAPON, ARMOR = "weapon", "armor"


class Readiness:
    """Health, gear and experience before a fight (mixed into the planner)."""

    # ------------------------------------------------------------------ food
    def edibles(self: Any) -> dict[str, int]:
        """Food of this world (definition -> HP it gives back); empty without an `eat` verb."""
        memo = self.tick_memo()
        if "edibles" not in memo:
            found: dict[str, int] = {}
            if EAT_VERB in self.game.engine.rules:
                eat = rule_module(self.game, EAT_VERB)
                for did, obj in self.world.objects.items():
                    if eat.is_edible(obj) and not obj.is_instanced:
                        found[did] = eat.restore_of(obj) or eat.DEFAULT_RESTORE
            memo["edibles"] = found
        return memo["edibles"]

    def food_carried(self: Any) -> list[str]:
        """Food I carry, the one that gives back least first (it wastes least)."""
        food = self.edibles()
        return sorted((d for d in self.carried() if d in food), key=lambda d: (food[d], d))

    def provision(self: Any) -> Plan:
        """Carry PROVISIONS units of food when the game lets me eat and food is near (the
        fights and ambushes of a long errand are survived by eating on the way)."""
        food = self.edibles()
        if not food or self.inventory() is None or len(self.food_carried()) >= 1:
            return
        best = min(food, key=lambda d: (self.cost(d, PROVISIONS), d))
        if self.cost(best, PROVISIONS) < NEAR_FOOD * PROVISIONS:
            yield from self.obtain(best, PROVISIONS)

    def urgent(self: Any) -> str | None:
        """The command that saves me when a blow or two could kill me: eat food I carry."""
        agent = self.agent
        if agent.hp >= agent.max_hp * EMERGENCY_SHARE or agent.hp >= agent.max_hp:
            return None
        carried = self.food_carried()
        if not carried:
            return None
        food = self.edibles()
        return f"{EAT_VERB} {self.world.objects[max(carried, key=lambda d: (food[d], d))].name}"

    def snack(self: Any) -> Plan:
        """Below SNACK_SHARE of my health, eat what I carry; below HUNGRY_SHARE, fetch food
        first if some is close by."""
        agent = self.agent
        if agent.hp < agent.max_hp * HUNGRY_SHARE and self.edibles() and not self.agent.combats:
            yield from self.heal(agent.max_hp, fetch=True, limit=NEAR_FOOD)
        elif agent.hp < agent.max_hp * SNACK_SHARE and self.food_carried():
            yield from self.heal(agent.max_hp, fetch=False)

    def heal(self: Any, target: int, *, fetch: bool = True, limit: float = LOCK_COST) -> Plan:
        """Eat until my health reaches `target` (or the food is gone): what I carry first, then,
        with `fetch`, the cheapest food I can get for less than `limit`. Returns whether I ate
        anything."""
        food, agent, ate = self.edibles(), self.agent, False
        for _ in range(MAX_MEALS):
            if agent.hp >= min(target, agent.max_hp) or not food:
                break
            carried = self.food_carried()
            if not carried:
                if not fetch:
                    break
                best = min(food, key=lambda d: (self.cost(d, 1), d))
                if self.cost(best, 1) >= limit:
                    break
                yield from self.obtain(best, 1)
                continue
            # The meal that fills the gap without much waste, else the biggest.
            gap = agent.max_hp - agent.hp
            fitting = [d for d in carried if food[d] <= gap]
            meal = fitting[-1] if fitting else carried[0]
            yield f"{EAT_VERB} {self.world.objects[meal].name}"
            if not self.ok():
                break
            ate = True
        return ate

    # ------------------------------------------------------------------ getting ready
    def prepare_for(self: Any, npc_id: str) -> Plan:
        """Get fit to fight an NPC (health, gear, experience; see the module docstring)."""
        npc = self.world.npcs[npc_id]
        for _ in range(MAX_PREPARATIONS):
            if npc.hp <= 0 or npc.area_id is None or self.agent.combats:
                return
            if self.hand_setup(npc)[1] < INFINITE:
                return
            start = self.issued
            if self.edibles() and self.hand_setup(npc, self.agent.max_hp)[1] < INFINITE:
                yield from self.heal(self.agent.max_hp)
                if self.issued != start:
                    continue
            yield from self.improve_gear(npc)
            if self.issued != start:
                continue
            try:
                yield from self.train(npc)
            except Stuck:
                return  # nothing left to improve on: fight as I am
            if self.issued == start:
                return

    def improve_gear(self: Any, npc: Any) -> Plan:
        """Get and use the weapon or armour that best turns a fight I would lose now (weighed
        at full health), if one is to be had."""
        world, agent = self.world, self.agent
        full = agent.max_hp
        now = self.hand_setup(npc, full)[1]
        worn = max(
            (world.def_of(o).defense for o in agent.equipped if world.def_of(o).category == ARMOR),
            default=0,
        )
        options: list[tuple[float, str]] = []
        for did, obj in world.objects.items():
            if self.have(did) or self.is_blocked(did):
                continue
            if obj.category == WEAPON and obj.attack > 0:
                fight = self.hand_setup(npc, full, did)[1]
            elif obj.category == ARMOR and obj.defense > worn:
                defense = agent.defense - worn + obj.defense
                fight = self.hand_setup(npc, full, defense=defense)[1]
            else:
                continue
            if fight >= now:
                continue
            cost = self.cost(did, 1)
            if cost < INFINITE:
                options.append((cost + fight, did))
        if not options:
            return
        _, did = min(options)
        try:
            yield from self.obtain(did, 1)
        except Stuck:
            self.block(did)
            return
        if world.objects[did].category == ARMOR:
            yield from self.wear_best_armor()

    def train(self: Any, npc: Any) -> Plan:
        """Gain experience on the easiest enemy I can beat (never the one I am getting ready
        for)."""
        yield from self.hunt(None, accept=lambda other: other.id != npc.id, what="to train on")
