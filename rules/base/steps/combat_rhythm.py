"""Combat rhythm: every NPC an agent has engaged acts once per tick, following its cyclic pattern.

Rule pack `base`; docs/mechanics/combat.md#rhythm-combat. Each agent keeps its own rhythm index per
NPC (`agent.combats`), so an NPC fighting two agents acts against each independently. An engagement
is dropped when it went stale (the agent or the NPC left, the NPC died or vanished). A rhythm
attack that brings the agent to 0 HP ends all of its fights; the death itself is handled later in
the tick by the death-and-respawn rule.

Packs that change a round subclass this rule (same name) and override its hooks: `npc_moves`
(may an engaged NPC make its move: a stunned one does not) and `after_hit` (what follows a rhythm
attack that landed, before the defeat check: an armour's counter-damage).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.entities import Npc

ATTACK = "attack"  # the pattern actions (attack, defend, wait)
DEFEND = "defend"
WAIT = "wait"
DEFEND_FACTOR = 0.1  # share of a rhythm attack's damage an agent takes while defending
FULL_STAMINA = 1.0

# Feedback for the pattern actions that do not hurt the agent: (key, text after the NPC's name).
QUIET_ACTIONS = {
    DEFEND: ("combat.npc_defends", "raises its guard"),
    WAIT: ("combat.npc_waits", "waits, watching me"),
}


@mypyc_attr(native_class=False)  # spike: packs subclass it
class CombatRhythm(BaseStepRule):
    name = "combat_rhythm_step"
    priority = 2
    description = "NPCs in combat with an agent act on their attack/defend/wait pattern."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game = ctx.game
        for agent in game.agents.values():
            if agent.hp <= 0 or not agent.combats or game.in_tutorial_room(agent):
                # Without combats there is no stamina reset
                # (docs/mechanics/combat.md#rhythm-combat): an attack streak on an NPC that never
                # engages keeps draining stamina until wait/defend.
                continue
            self._fight(ctx, res, agent)

    def _fight(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
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
                continue  # stays registered; this NPC never acts in rhythm
            index = engagement.rhythm_index
            if not self.npc_moves(ctx, res, agent, npc):
                engagement.rhythm_index = (index + 1) % len(pattern)  # the move is lost
                continue
            action = pattern[index % len(pattern)]
            if action == ATTACK:
                self.hit(res, agent, npc, area_id)
                if self.after_hit(ctx, res, agent, npc, area_id):
                    stale.append(npc_id)  # the NPC is gone: no defeat check, no index step
                    continue
                if agent.hp <= 0:
                    res.say(agent.id, "combat.defeated", f"I was defeated by {npc.name}.")
                    res.emit(
                        "agent_defeated_in_combat", agent.id, {"npc_id": npc.id, "area_id": area_id}
                    )
                    defeated = True
                    break  # later NPCs do not act; this NPC's index is not advanced
            else:
                key, text = QUIET_ACTIONS.get(action, ("combat.npc_acts", action))
                res.say(agent.id, key, f"{npc.name} {text}.")
            engagement.rhythm_index = (index + 1) % len(pattern)
        if defeated:
            combats.clear()
        else:
            for npc_id in stale:
                del combats[npc_id]
        if not combats:
            agent.stamina = FULL_STAMINA
            agent.consecutive_attacks = 0

    def npc_moves(self, ctx: RuleContext, res: RuleResult, agent: AgentState, npc: Npc) -> bool:
        """Whether an engaged NPC makes its move against this agent now (when not, its rhythm
        index still advances). The base: always."""
        return True

    def after_hit(
        self, ctx: RuleContext, res: RuleResult, agent: AgentState, npc: Npc, area_id: str
    ) -> bool:
        """Called after a rhythm attack landed, before the defeat check; True when the NPC is
        gone (its engagement is dropped and the agent is not checked for defeat). The base: no
        effect."""
        return False

    @staticmethod
    def hit(res: RuleResult, agent: AgentState, npc: Npc, area_id: str) -> None:
        """One rhythm attack on the agent (the defeat check is the caller's)."""
        base = max(0, npc.attack_power - agent.defense)
        defended = agent.defending
        damage = int(base * DEFEND_FACTOR) if defended else base
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
                "rhythm_action": ATTACK,
                "agent_defended": defended,
            },
        )
