"""Fighting: judging a fight with the damage rules, keeping to the enemy's rhythm, choosing prey.

Policies layer; a mixin of the planner (`planner.Planner`). The base pack's rules (`combat`,
`steps.combat_rhythm`): my blow deals int(attack x stamina), a tenth of it if the NPC defends this
beat; the NPC's attack beat deals its attack minus my defense, a tenth of it while I defend;
stamina drops by a step from the second blow in a row and is restored by waiting or defending.
The NPC's beat this tick is `combat_pattern[rhythm_index]` of my engagement with it. So I defend
on its attack beats and strike on its defend and wait beats (blows never come twice in a row, so I
never tire); against an enemy that never waits I also trade blows on its attack beats while my
health stays above SAFE_SHARE. `fight_cost` plays that fight out on paper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentodyssey_pz.policies.planning import INFINITE, LOCK_COST, Plan, Stuck

SAFE_SHARE = 0.45  # against enemies that never wait: trade blows only above this share of max HP
RESTED = 0.6  # against harmless blows: strike while my stamina is at least this, else recover
RISK_SHARE = 0.8  # a fight is not worth it when it would cost this share of my health
LOOT_SHARE = 10  # when hunting for loot, its value divided by this counts against the route
HP_COST = 0.25  # route cost per HP a fight costs me
MAX_BEATS = 600  # beats simulated, and fought, before a fight is given up
WEAPON, ARMOR = "weapon", "armor"  # object categories with a meaning in combat
ATTACK, DEFEND, WAIT = "attack", "defend", "wait"  # the pattern actions


class Fighting:
    """Weapons, armour, fights (mixed into the planner)."""

    def best_weapon(self: Any) -> str | None:
        memo = self.tick_memo()
        if "weapon" not in memo:
            memo["weapon"] = self._best_weapon()
        return memo["weapon"]

    def _best_weapon(self: Any) -> str | None:
        world = self.world
        weapons = [d for d in self.carried() if world.objects[d].attack > 0]
        return max(weapons, key=lambda d: world.objects[d].attack) if weapons else None

    def my_attack(self: Any) -> int:
        best = self.best_weapon()
        return self.agent.min_attack + (self.world.objects[best].attack if best else 0)

    def strikes(
        self: Any, npc: Any, beat: str, hp: int, hit: int | None = None, stamina: float = 1.0
    ) -> bool:
        """My move on this beat: strike (True) or defend. Strike when it defends or waits; on its
        attack beat when its blow does me no harm and I am rested, or against an enemy that never
        waits while my health allows (`hit`: its blow's damage, default as it is now)."""
        if beat != ATTACK:
            return True
        if hit is None:
            hit = max(0, npc.attack_power - self.agent.defense)
        if hit == 0:  # harmless: strike while rested, else guard (defending restores stamina)
            return stamina >= RESTED
        pattern = npc.combat_pattern
        return WAIT not in pattern and hp - hit > self.agent.max_hp * SAFE_SHARE

    def fight_cost(
        self: Any,
        npc: Any,
        hp: int | None = None,
        *,
        mine: int | None = None,
        its_attack: int | None = None,
        its_hp: int | None = None,
        defense: int | None = None,
    ) -> float:
        """Ticks a fight takes plus HP_COST per HP it costs me, or INFINITE when I would not
        survive it well with `hp` (default: my health now). Played out beat by beat with my
        attack `mine` and `defense` and the NPC's attack and health (defaults: as they are
        now)."""
        hp = self.agent.hp if hp is None else hp
        mine = self.my_attack() if mine is None else mine
        its_attack = npc.attack_power if its_attack is None else its_attack
        its_hp = npc.hp if its_hp is None else its_hp
        defense = self.agent.defense if defense is None else defense
        memo, key = self.tick_memo(), ("fight", npc.id, hp, mine, its_attack, its_hp, defense)
        if key not in memo:
            hit = max(0, its_attack - defense)
            played = self.play_fight(npc, hp, mine, hit, its_hp)
            if played is None or played[1] >= hp * RISK_SHARE:
                memo[key] = INFINITE
            else:
                memo[key] = played[0] + played[1] * HP_COST
        return memo[key]

    def fight_toll(
        self: Any, npc: Any, mine: int, its_attack: int, its_hp: int, defense: int
    ) -> int:
        """The health a fight would cost me however much I had (INFINITE when it never ends):
        how fights I would lose all the same compare."""
        hit = max(0, its_attack - defense)
        played = self.play_fight(npc, INFINITE, mine, hit, its_hp)
        return INFINITE if played is None else played[1]

    def play_fight(
        self: Any, npc: Any, hp: int, attack: int, hit: int, left: int
    ) -> tuple[int, int] | None:
        """(ticks, health lost) of a fight played out on paper from now, with my health `hp`
        and attack, its blow's damage `hit` and its health `left`; None if I fall or it does not
        end within MAX_BEATS."""
        combat = self._base("combat")
        guard_factor = self._base("steps.combat_rhythm").DEFEND_FACTOR
        recovery = self._base("verbs.defend").STAMINA_RECOVERY
        pattern = list(npc.combat_pattern) or [WAIT]
        mine = hp
        stamina, streak = self.agent.stamina, self.agent.consecutive_attacks
        engaged = self.agent.combats.get(npc.id)
        beat = engaged.rhythm_index if engaged is not None else None
        ticks = 0
        while left > 0:
            ticks += 1
            if ticks > MAX_BEATS:
                return None
            acting = 0 if beat is None else beat  # the pattern index the NPC plays this tick
            action = None if beat is None else pattern[beat % len(pattern)]
            if action is None or self.strikes(npc, action, mine, hit, stamina):
                left -= combat.hit_damage(attack, stamina, action)
                streak += 1
                if streak > 1:
                    stamina = max(combat.STAMINA_FLOOR, stamina - combat.STAMINA_STEP)
                guard = 1.0
            else:
                streak, guard = 0, guard_factor
                stamina = min(combat.FULL_STAMINA, stamina + (1.0 - stamina) * recovery)
            if left <= 0:
                break  # it falls before it acts
            if npc.combat_pattern and pattern[acting % len(pattern)] == ATTACK:
                mine -= int(hit * guard)
            if mine <= 0:
                return None
            beat = acting + 1
        return ticks, hp - mine

    def fight(self: Any, npc_id: str, *, prepare: bool = False) -> Plan:
        """Fight an NPC to its death keeping to its rhythm; then take its loot. Against a quest
        boss, or with `prepare`, get fit for the fight first (`prepare_for`)."""
        world = self.world
        npc = world.npcs[npc_id]
        loot = dict(npc.inventory)
        where = npc.area_id
        prepare = prepare or self.boss_of(npc_id) is not None
        if prepare and not self.best_weapon():
            yield from self.get_weapon()
        for _ in range(MAX_BEATS):
            if npc.hp <= 0 or npc.area_id is None:
                break
            engaged = self.agent.combats.get(npc_id)
            where = npc.area_id
            if engaged is None:
                if prepare:
                    yield from self.prepare_for(npc_id)
                    if npc.hp <= 0 or npc.area_id is None:
                        break
                    loot = dict(npc.inventory)
                yield from self.arm(npc_id)  # before walking in: dangerous places stay short visits
                yield from self.goto(npc.area_id)
                yield from self.arm(npc_id)
                where = npc.area_id
                yield f"attack {npc.name}"
                continue
            pattern = npc.combat_pattern
            beat = pattern[engaged.rhythm_index % len(pattern)] if pattern else WAIT
            strike = self.strikes(npc, beat, self.agent.hp, stamina=self.agent.stamina)
            yield f"attack {npc.name}" if strike else DEFEND
        else:
            raise Stuck(f"the fight with {npc.name} does not end")
        if npc.hp <= 0 and self.agent.area_id == where:
            yield from self.stow_loot(loot)

    def get_weapon(self: Any) -> Plan:
        """The cheapest weapon there is, unless it is far out of reach."""
        weapons = [o.id for o in self.world.objects.values() if o.category == WEAPON]
        best = min(weapons, key=lambda d: self.cost(d, 1), default=None)
        if best is not None and self.cost(best, 1) < 2 * LOCK_COST:
            yield from self.obtain(best, 1)

    def arm(self: Any, npc_id: str) -> Plan:
        """What fights this NPC best in hand (`hand_setup`: my best weapon; against a boss with
        modifiers, maybe another weapon and what weakens it), and nothing that would make a boss
        stronger."""
        npc = self.world.npcs[npc_id]
        held, _ = self.hand_setup(npc)
        for i, did in enumerate(held):
            yield from self.hold(did, keep=held[:i])
        boss = self.boss_of(npc_id)
        if boss is None or not boss.modifiers:
            return
        named = {d for mod in boss.modifiers for d in (*mod.when_held, *mod.unless_held)}
        for oid in list(self.agent.hands):
            did = self.world.def_of(oid).id
            if did in named and did not in held:
                yield from self.put_away(oid)

    def finish_fights(self: Any) -> Plan:
        for npc_id in list(self.agent.combats):
            yield from self.fight(npc_id)

    def prey(
        self: Any,
        area: str | None,
        *,
        for_loot: bool = False,
        new_kinds: bool = False,
        accept: Callable[[Any], bool] | None = None,
    ) -> list[tuple[float, str]]:
        """(score, NPC id) of enemies I can beat and reach, best first (in `area` if given; rich
        ones when `for_loot`; kinds I never killed when `new_kinds`; only those `accept` takes,
        if given). Quest bosses are never prey. Too weak for every enemy now? Then ones I could
        beat at full health: a death sends me back whole."""
        world, agent = self.world, self.agent
        for hp in (None, agent.max_hp):
            candidates: list[tuple[float, str]] = []
            for npc in world.npcs.values():
                if not npc.enemy or npc.hp <= 0 or npc.area_id is None or npc.owner is not None:
                    continue
                if area is not None and npc.area_id != area:
                    continue
                if self.is_boss(npc.id) or (accept is not None and not accept(npc)):
                    continue
                risk, d = self.fight_cost(npc, hp), self.distance(npc.area_id)
                if risk >= INFINITE or d >= INFINITE:
                    continue
                score = d + risk
                if for_loot:
                    score -= self.loot_value(npc) / LOOT_SHARE
                if new_kinds and f"{npc.def_id}_{npc.level}" not in agent.unique_kills:
                    score -= LOCK_COST / 2
                candidates.append((score, npc.id))
            if candidates:
                return sorted(candidates)
        return []

    def loot_value(self: Any, npc: Any) -> int:
        return sum((self.world.objects[o].value or 0) * n for o, n in npc.inventory.items())

    def hunt(
        self: Any,
        area: str | None,
        *,
        for_loot: bool = False,
        accept: Callable[[Any], bool] | None = None,
        what: str = "",
    ) -> Plan:
        """Kill the easiest enemy I can reach (in `area` if given; rich ones when `for_loot`;
        one `accept` takes, if given, `what` saying which in a Stuck message)."""
        candidates = self.prey(area, for_loot=for_loot, accept=accept)
        if not candidates:
            raise Stuck(
                f"no enemy{' ' + what if what else ''} I can beat{' in ' + area if area else ''}"
            )
        yield from self.fight(candidates[0][1])

    def wear_best_armor(self: Any) -> Plan:
        """Wear the armour with the best defense I carry (taking off a worse one first)."""
        world, agent = self.world, self.agent
        carried = [d for d in self.carried() if world.objects[d].category == ARMOR]
        if not carried:
            return
        best = max(carried, key=lambda d: world.objects[d].defense)
        worn = [o for o in agent.equipped if world.def_of(o).category == ARMOR]
        if any(world.def_of(o).id == best for o in worn):
            return
        if worn:
            if world.def_of(worn[0]).defense >= world.objects[best].defense:
                return
            yield from self.free_hand(keep=self.kept_in_hand())
            yield f"unequip {world.name_of(worn[0])}"
        yield from self.equip(best)
