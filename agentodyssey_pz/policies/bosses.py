"""Quest bosses: which NPC a boss key stands for, and what to hold in hand when fighting one.

Policies layer; a mixin of the planner (`planner.Planner`). A boss is an agent's own instance (its
quest progress names it) or one all agents share (the quest's shared state names it). Its
modifiers change its attack and health by what an agent near it holds or carries (the base pack's
`quest_bosses`, docs/world-format.md#111-main-quest): a blade that drenches it, another that enrages
it, a note that calms it. `hand_setup` tries each pair of things I could hold - a weapon and a
second thing, or one alone - works out the boss's attack and health under each, and keeps the pair
whose fight costs least (`fight_cost`), so an enraging weapon stays in the bag even when it is my
best.
"""

from __future__ import annotations

from typing import Any

QUEST_STATE = "main_quest"  # world.auxiliary key of the main quest's shared state
Setup = tuple[tuple[str, ...], float]  # (definitions to hold, the fight's cost with them)


class BossReading:
    """Boss instances and their modifiers (mixed into the planner)."""

    def quest_state(self: Any) -> dict[str, Any]:
        return self.world.auxiliary.get(QUEST_STATE) or {}

    def boss_instance(self: Any, key: str) -> str | None:
        """The NPC id of a boss of the quest: my own instance, or the one all agents share."""
        own = self.progress.get("bosses", {})
        if key in own:
            return own[key]
        return self.quest_state().get("shared_bosses", {}).get(key)

    def boss_of(self: Any, npc_id: str) -> Any:
        """The quest's definition of a boss instance I may fight (mine or a shared one); None for
        any other NPC (another agent's own boss included)."""
        state = self.quest_state()
        owned = state.get("boss_owner", {}).get(npc_id)
        quest = self.game.quests.main_quest
        if owned is not None:
            return quest.bosses[owned[1]] if owned[0] == self.aid else None
        for key, shared in state.get("shared_bosses", {}).items():
            if shared == npc_id:
                return quest.bosses[key]
        return None

    def is_boss(self: Any, npc_id: str) -> bool:
        """Whether an NPC is a quest boss of anyone (never hunted for loot or kills)."""
        state = self.quest_state()
        return (
            npc_id in state.get("boss_owner", {})
            or npc_id in state.get("shared_bosses", {}).values()
        )

    def boss_base(self: Any, npc: Any) -> tuple[int, int]:
        """(health, attack) the boss was created with."""
        base = self.quest_state().get("boss_base", {}).get(npc.id)
        return (base[0], base[1]) if base else (npc.max_hp, npc.attack_power)

    def boss_stats(self: Any, npc: Any, held: tuple[str, ...]) -> tuple[int, int]:
        """(attack, health) the boss would have while I fight it holding `held` (definitions)
        and carrying what I carry now: its modifiers that I would meet, or that applied for good
        already, in their order (as the base pack's `quest_bosses.refresh_boss` applies them)."""
        boss = self.boss_of(npc.id)
        if boss is None or not boss.modifiers:
            return npc.attack_power, npc.hp
        kept = self.quest_state().get("boss_kept", {}).get(npc.id, [])
        attack, hp = self.boss_base(npc)[1], npc.hp
        for i, mod in enumerate(boss.modifiers):
            if i not in kept and not self.would_meet(mod, held):
                continue
            if mod.attack is not None:
                attack = mod.attack
            if mod.attack_cap is not None:
                attack = min(attack, mod.attack_cap)
            if mod.max_hp is not None:
                hp = min(hp, mod.max_hp)
        return attack, hp

    def would_meet(self: Any, mod: Any, held: tuple[str, ...]) -> bool:
        """Whether I meet a modifier while fighting its boss in its lair holding `held` (a boss
        stands in its lair, so where it asks me to stand is where I fight)."""
        if mod.when_held and not any(d in mod.when_held for d in held):
            return False
        if any(d in mod.unless_held for d in held):
            return False
        wanted = mod.when_carrying_text
        if wanted is not None:
            return self.carries_text(str(self.resolve(wanted.text)), wanted.match == "contains")
        return True

    def hand_setup(
        self: Any,
        npc: Any,
        hp: int | None = None,
        extra: str | None = None,
        defense: int | None = None,
    ) -> Setup:
        """What to hold against an NPC, and the fight's cost so with `hp` (default: my health
        now): my best weapon for anyone but a boss with modifiers; for that boss, the best of
        every weapon I carry (or none) with every other thing its modifiers name that I carry
        (or nothing). `extra`: a weapon I do not carry yet, weighed as if I did; `defense`: mine
        in armour I do not wear yet."""
        memo, key = self.tick_memo(), ("setup", npc.id, hp, extra, defense)
        if key in memo:
            return memo[key]
        world = self.world
        defense = self.agent.defense if defense is None else defense
        carried = [*self.carried(), *([extra] if extra else [])]
        weapons = [d for d in carried if world.objects[d].attack > 0]
        boss = self.boss_of(npc.id)
        named: set[str] = set()
        if boss is not None:
            named = {d for mod in boss.modifiers for d in (*mod.when_held, *mod.unless_held)}
        if not named:
            best = max(weapons, key=lambda d: (world.objects[d].attack, d), default=None)
            weapons = [best] if best else []
        extras = [d for d in carried if d in named]
        options: list[tuple[float, int, int, tuple[str, ...]]] = []
        for weapon in [*weapons, None]:
            for second in [*extras, None]:
                if second is not None and second == weapon:
                    continue
                held = tuple(d for d in (weapon, second) if d is not None)
                attack, health = self.boss_stats(npc, held)
                mine = self.agent.min_attack + (world.objects[weapon].attack if weapon else 0)
                cost = self.fight_cost(
                    npc, hp, mine=mine, its_attack=attack, its_hp=health, defense=defense
                )
                # Between fights I would lose either way: the one that costs me least health.
                toll = self.fight_toll(npc, mine, attack, health, defense)
                options.append((cost, toll, -mine, held))
        cost, _, _, held = min(options)
        memo[key] = held, cost
        return memo[key]
