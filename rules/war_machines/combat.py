"""The base rules robot_kingdom changes: `attack` (a rallied ally's bonus), `combat_rhythm_step`
(the overload aura strikes back) and `death_and_respawn_step` (death clears rally and aura).

Rule pack `war_machines`; subclasses of the base pack's classes (`bundled_pack`,
`bundled_step_rule`), so everything else stays base behaviour.

`attack`: after the base damage (stamina, a defending NPC's tenth) and the streak's tiring, an ally
in my record with rounds left (rally.py) is checked: it still counts when its recorded area is
mine, it exists and it stands in this area. Then its bonus is added to the blow (not cut by the
NPC's defend), a line, one round spent (the record cleared at 0, with a line). Otherwise the
record is cleared without a bonus. Rounds go on any attack, friendly targets included.

`combat_rhythm_step`: after an NPC's rhythm attack hit me (and its `agent_damaged`), with an aura
(overload.py) above 0, a defense above 0 and the NPC alive, `counter = max(1, int(defense x
aura_pct / 100))` comes off its HP (hits cut by my defend too): a line, `overload_aura_damage
{npc_id, counter_damage, aura_pct, area_id}`. An NPC brought to 0 HP this way: HP 0, that fight
dropped, the NPC off the map, the kill recorded (rules.kills.record_kill), its loot on the ground
(rules.kills.drop_loot: containers and writables as instances, where the published game puts
bare ids), `npc_killed {npc_id, area_id}`; my defeat check for that hit is skipped, so an agent
at 0 HP then still dies at priority 7 but without `agent_defeated_in_combat` (as published), and
the NPCs after it still act. The killed NPC's rhythm index is not advanced.

`death_and_respawn_step`: the base death, then the dead agent's ally and aura are cleared. It also
declares the pack's per-agent record (common.py) for saved games.
"""

from __future__ import annotations

import sys

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.kills import drop_loot, record_kill
from agentodyssey_pz.rules.packs import bundled_pack, bundled_step_rule
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc

from .common import ALLY, AURA, PROGRESS_SHAPE, STATE_KEY, peek, record

BASE_ATTACK = {rule.name: rule for rule in bundled_pack("base").action_rules}["attack"]
BASE_RHYTHM = bundled_step_rule("base", "combat_rhythm_step")
BASE_DEATH = bundled_step_rule("base", "death_and_respawn_step")
_attack_module = sys.modules[BASE_ATTACK.__module__]  # the base attack's helpers, as it runs them
_rhythm_module = sys.modules[BASE_RHYTHM.__module__]


def ally_bonus(ctx: RuleContext, res: RuleResult) -> int:
    """Spend one round of my ally on this blow; the bonus it adds (0 without a valid ally)."""
    agent, world = ctx.actor, ctx.world
    ally = peek(agent, ALLY)
    if not ally or ally["rounds_left"] <= 0:
        return 0
    npc = world.npcs.get(ally["npc_id"])
    here = agent.area_id
    if ally["area_id"] != here or npc is None or npc.id not in world.areas[here].npcs:
        record(agent).pop(ALLY)
        return 0
    bonus = ally["bonus_damage"]
    ally["rounds_left"] -= 1
    res.say(agent.id, "rally.strike", f"{ally['npc_name']} strikes beside me for {bonus} more.")
    if ally["rounds_left"] <= 0:
        record(agent).pop(ALLY)
        res.say(agent.id, "rally.over", f"{ally['npc_name']} has done what I paid for.")
    return bonus


class RalliedAttack(BASE_ATTACK):  # the base `attack`, with the ally's bonus
    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        m = _attack_module
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        npc = world.npc_here(name, agent.area_id, agent.id)
        refused = m.refusal(agent, npc)
        if refused is not None:
            key, reason = refused
            return res.fail(agent.id, key, f"I cannot attack {name}: {reason}.")
        assert npc is not None
        is_new = npc.id not in agent.combats
        npc_action = m.rhythm_action(agent, npc)
        stamina_before = agent.stamina
        damage = m.hit_damage(agent.attack, stamina_before, npc_action)
        m.tire(agent)
        damage += ally_bonus(ctx, res)
        npc.hp -= damage
        if npc_action == m.DEFEND_ACTION:
            res.say(
                agent.id,
                "attack.npc_defended",
                f"{name} defended, so my blow did a tenth of its damage.",
            )
        if npc.hp <= 0:
            self.kill(ctx, res, npc, damage)
        else:
            self.wound(agent, res, npc, damage, is_new)
        if agent.stamina < stamina_before:
            res.say(
                agent.id,
                "attack.tired",
                f"I am tiring: my next blow will land at {round(agent.stamina * 100)}% strength.",
            )
        return None


class AuraRhythm(BASE_RHYTHM):  # the base rhythm, with the overload aura's counter-damage
    def _fight(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        m = _rhythm_module
        world = ctx.world
        area_id = agent.area_id
        here = world.areas[area_id].npcs
        npcs = world.npcs
        combats = agent.combats
        stale: list[str] = []
        defeated = False
        for npc_id, engagement in combats.items():
            npc = npcs.get(npc_id)
            if engagement.area_id != area_id or npc is None or npc.hp <= 0 or npc_id not in here:
                stale.append(npc_id)
                continue
            pattern = npc.combat_pattern
            if not pattern:
                continue
            index = engagement.rhythm_index
            action = pattern[index % len(pattern)]
            if action == m.ATTACK:
                if self._hit(res, agent, npc, area_id):
                    if self._counter(ctx, res, agent, npc, area_id):
                        stale.append(npc_id)
                        continue  # the defeat check is skipped; the index stays
                    if agent.hp <= 0:
                        self._defeated(res, agent, npc, area_id)
                        defeated = True
                        break
            else:
                key, text = m.QUIET_ACTIONS.get(action, ("combat.npc_acts", action))
                res.say(agent.id, key, f"{npc.name} {text}.")
            engagement.rhythm_index = (index + 1) % len(pattern)
        if defeated:
            combats.clear()
        else:
            for npc_id in stale:
                combats.pop(npc_id, None)
        if not combats:
            agent.stamina = m.FULL_STAMINA
            agent.consecutive_attacks = 0

    @staticmethod
    def _hit(res: RuleResult, agent: AgentState, npc: Npc, area_id: str) -> bool:
        """The base rhythm attack without its defeat check; True (it always lands)."""
        m = _rhythm_module
        base = max(0, npc.attack_power - agent.defense)
        defended = agent.defending
        damage = int(base * m.DEFEND_FACTOR) if defended else base
        agent.hp -= damage
        guard = " I defended, so it hit lightly:" if defended else ""
        res.say(
            agent.id,
            "combat.npc_attacks",
            f"{npc.name} attacks me.{guard} I lose {damage} HP ({agent.hp}/{agent.max_hp} left).",
        )
        res.emit(
            "agent_damaged",
            agent.id,
            {
                "npc_id": npc.id,
                "damage": damage,
                "area_id": area_id,
                "rhythm_action": m.ATTACK,
                "agent_defended": defended,
            },
        )
        return True

    @staticmethod
    def _defeated(res: RuleResult, agent: AgentState, npc: Npc, area_id: str) -> None:
        res.say(agent.id, "combat.defeated", f"I was defeated by {npc.name}.")
        res.emit("agent_defeated_in_combat", agent.id, {"npc_id": npc.id, "area_id": area_id})

    @staticmethod
    def _counter(
        ctx: RuleContext, res: RuleResult, agent: AgentState, npc: Npc, area_id: str
    ) -> bool:
        """The aura strikes back; True when it killed the NPC."""
        aura = peek(agent, AURA, 0)
        if aura <= 0 or agent.defense <= 0 or npc.hp <= 0:
            return False
        counter = max(1, int(agent.defense * aura / 100))
        npc.hp -= counter
        res.say(
            agent.id,
            "overload.counter",
            f"My overloaded armour crackles: {npc.name} takes {counter} damage back "
            f"({max(0, npc.hp)} HP left).",
        )
        res.emit(
            "overload_aura_damage",
            agent.id,
            {"npc_id": npc.id, "counter_damage": counter, "aura_pct": aura, "area_id": area_id},
        )
        if npc.hp > 0:
            return False
        npc.hp = 0
        res.say(agent.id, "overload.killed", f"The aura destroyed {npc.name}.")
        world = ctx.world
        world.remove_npc_from_map(npc.id)
        record_kill(agent, npc)
        drop_loot(world, agent, npc, area_id, res)
        res.emit("npc_killed", agent.id, {"npc_id": npc.id, "area_id": area_id})
        return True


class WarDeath(BASE_DEATH):  # the base death, clearing the rally and the aura
    state_key = STATE_KEY
    progress_shape = PROGRESS_SHAPE

    def _respawn(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        super()._respawn(ctx, res, agent)
        mine = agent.progress.get(STATE_KEY)
        if mine:
            mine.pop(ALLY, None)
            mine.pop(AURA, None)
