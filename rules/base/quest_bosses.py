"""What happens to a live quest boss each tick: its health after it beats someone, and its
modifiers (stats that change with what agents hold or carry near it).

Rule pack `base`; docs/world-format.md#111-main-quest. The same for a boss each agent has to itself
(its owner is the only agent it answers to) and a shared one (every agent whose quest runs counts).
A boss's attack is worked out afresh every tick from the attack it was created with, by the
modifiers that apply now and those marked `once` that applied before (kept for good), in their
listed order, so an attack raised while a weapon was held falls back when it is put away (the
reference let it stick). A lowered maximum health is permanent either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agentodyssey_pz.world.agents import AgentState, carried_stores
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.quest_records import BossDef, BossModifier
from agentodyssey_pz.world.world import World

from .conditions import any_text, normal_text


def base_stats(state: dict[str, Any], npc: Npc) -> tuple[int, int]:
    """(health, attack) the boss was created with."""
    hp, attack = state.get("boss_base", {}).get(npc.id, (npc.max_hp, npc.attack_power))
    return hp, attack


def reset_after_defeat(boss: BossDef, npc: Npc, state: dict[str, Any]) -> None:
    """The boss beat an agent: back to its current maximum (`max`), to the health it had when its
    stage first became active (`stage_start`: noted by the main quest when a stage with
    `spawn_boss` in `on_start` starts; else the health it was created with, or for a boss a
    setup step placed, none; never above its maximum), or left as it is (`never`)."""
    mode = boss.reset_hp_on_defeat
    if mode == "max":
        npc.hp = npc.max_hp
    elif mode == "stage_start":
        start = state.get("boss_start_hp", {}).get(npc.id)
        if start is None:
            if npc.id not in state.get("boss_base", {}):
                return  # a placed boss before its stage: nothing to go back to yet
            start = base_stats(state, npc)[0]
        npc.hp = min(start, npc.max_hp)


def refresh_boss(
    world: World,
    boss: BossDef,
    npc: Npc,
    holders: Sequence[AgentState],
    home: Any,
    state: dict[str, Any],
    resolve: Callable[[Any], Any],
) -> None:
    """Set the boss's attack (and lower its maximum health) by the modifiers that apply: a
    modifier applies when one of `holders` meets it (`home`: the boss's lair)."""
    attack = base_stats(state, npc)[1]
    kept: list[int] = state.get("boss_kept", {}).get(npc.id, [])
    for i, mod in enumerate(boss.modifiers):
        if i not in kept:
            for agent in holders:  # a plain loop, not any() over a generator: every tick
                if _meets(world, mod, agent, npc, home, resolve):
                    break
            else:
                continue
            if mod.once:
                kept = state.setdefault("boss_kept", {}).setdefault(npc.id, kept)
                kept.append(i)
        if mod.attack is not None:
            attack = mod.attack
        if mod.attack_cap is not None:
            attack = min(attack, mod.attack_cap)
        if mod.max_hp is not None and mod.max_hp < npc.max_hp:  # a weakening sticks
            npc.max_hp = mod.max_hp
            npc.hp = min(npc.hp, mod.max_hp)
    npc.attack_power = attack


def _meets(
    world: World,
    mod: BossModifier,
    agent: AgentState,
    npc: Npc,
    home: Any,
    resolve: Callable[[Any], Any],
) -> bool:
    """The agent stands where the modifier asks, holds what it asks in hand (and none of what it
    forbids), and carries the text it asks for."""
    if agent.area_id != (home if mod.where == "boss_home" else npc.area_id):
        return False
    if mod.when_held or mod.unless_held:
        held = {world.def_of(oid).id for oid in agent.hands}
        if mod.when_held and not held.intersection(mod.when_held):
            return False
        if held.intersection(mod.unless_held):
            return False
    wanted = mod.when_carrying_text
    if wanted is not None:
        stores = [agent.equipped, *carried_stores(world, agent)]
        target = normal_text(resolve(wanted.text))
        return any_text(world, stores, target, wanted.match == "contains")
    return True
