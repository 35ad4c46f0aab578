"""The base rules robot_kingdom changes: `attack` (a rallied ally's bonus), `combat_rhythm_step`
(the overload aura strikes back) and `death_and_respawn_step` (death clears rally and aura).

Rule pack `war_machines`; subclasses of the base pack's classes (`bundled_pack`,
`bundled_step_rule`) that override only their hooks
(docs/rule-packs.md#inside-a-pack-a-private-namespace), so everything else stays base behaviour.

`attack` (hook `extra_damage`): after the base damage (stamina, a defending NPC's tenth) and the
streak's tiring, an ally in my record with rounds left (rally.py) is checked: it still counts when
its recorded area is mine, it exists and it stands in this area. Then its bonus is added to the
blow (not cut by the NPC's defend), a line, one round spent (the record cleared at 0, with a
line). Otherwise the record is cleared without a bonus. Rounds go on any attack, friendly targets
included.

`combat_rhythm_step` (hook `after_hit`): after an NPC's rhythm attack hit me (and its
`agent_damaged`), with an aura (overload.py) above 0, a defense above 0 and the NPC alive,
`counter = max(1, int(defense x aura_pct / 100))` comes off its HP (hits cut by my defend too): a
line, `overload_aura_damage {npc_id, counter_damage, aura_pct, area_id}`. An NPC brought to 0 HP
this way: HP 0, that fight dropped, the NPC off the map, the kill recorded
(rules.kills.record_kill), its loot on the ground (rules.kills.drop_loot: containers and writables
as instances, where the published game puts bare ids), `npc_killed {npc_id, area_id}`; my defeat
check for that hit is skipped, so an agent at 0 HP then still dies at priority 7 but without
`agent_defeated_in_combat`, and the NPCs after it still act. The killed NPC's rhythm index is not
advanced. Settings for the two published quirks (docs/rule-packs.md; both off by default, as
published): `aura_kill_checks_defeat` makes an aura kill that leaves me at 0 HP or below still
run the defeat check (the line, `agent_defeated_in_combat`, every fight ends, later NPCs do not
act); `aura_needs_armor` lets the aura strike only while I wear armour (published: it stays when
the armour comes off).

`death_and_respawn_step`: the base death, then the dead agent's ally and aura are cleared; with
setting `clears_presence` (off: published) its united-presence record too, so standing together
again after respawning gives the bonus back. It also declares the pack's per-agent record
(common.py) for saved games.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.kills import drop_loot, record_kill
from agentodyssey_pz.rules.packs import bundled_pack, bundled_step_rule
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc

from .common import ALLY, AURA, PRESENCE, PROGRESS_SHAPE, STATE_KEY, peek, record
from .overload import armour_worn

BaseAttack: Any = {rule.name: rule for rule in bundled_pack("base").action_rules}["attack"]
BaseCombatRhythm: Any = bundled_step_rule("base", "combat_rhythm_step")
BaseDeath: Any = bundled_step_rule("base", "death_and_respawn_step")


class RalliedAttack(BaseAttack):  # the base `attack`, with the ally's bonus
    def extra_damage(self, ctx: RuleContext, res: RuleResult, npc: Npc) -> int:
        """Spend one round of my ally on this blow; the bonus it adds (0 without a valid ally)."""
        agent, world = ctx.actor, ctx.world
        ally = peek(agent, ALLY)
        if not ally or ally["rounds_left"] <= 0:
            return 0
        here, npc_id = agent.area_id, ally["npc_id"]
        gone = npc_id not in world.npcs or npc_id not in world.areas[here].npcs
        if ally["area_id"] != here or gone:
            record(agent).pop(ALLY)
            return 0
        bonus = ally["bonus_damage"]
        ally["rounds_left"] -= 1
        name = ally["npc_name"]
        res.say(agent.id, "rally.strike", f"{name} strikes beside me for {bonus} more.")
        if ally["rounds_left"] <= 0:
            record(agent).pop(ALLY)
            res.say(agent.id, "rally.over", f"{name} has done what I paid for.")
        return bonus


class AuraRhythm(BaseCombatRhythm):  # the base rhythm, with the overload aura's counter-damage
    settings = {"aura_kill_checks_defeat": False, "aura_needs_armor": False}

    def after_hit(
        self, ctx: RuleContext, res: RuleResult, agent: AgentState, npc: Npc, area_id: str
    ) -> bool:
        aura = peek(agent, AURA, 0)
        if aura <= 0 or agent.defense <= 0 or npc.hp <= 0:
            return False
        if self.settings["aura_needs_armor"] and armour_worn(ctx.world, agent) is None:
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
        # False hands the hit to the base defeat check (which ends every fight, this one too).
        return not (self.settings["aura_kill_checks_defeat"] and agent.hp <= 0)


class WarDeath(BaseDeath):  # the base death, clearing the rally and the aura
    state_key = STATE_KEY
    progress_shape = PROGRESS_SHAPE
    settings = {"clears_presence": False}

    def apply_to(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        """One agent's death now (the devil-forged drain's `dies_at_once`)."""
        self._respawn(ctx, res, agent)

    def _respawn(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        super()._respawn(ctx, res, agent)
        mine = agent.progress.get(STATE_KEY)
        if mine:
            mine.pop(ALLY, None)
            mine.pop(AURA, None)
            if self.settings["clears_presence"]:
                mine.pop(PRESENCE, None)
