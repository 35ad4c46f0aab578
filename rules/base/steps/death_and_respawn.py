"""Death and respawn: an agent at 0 HP or below leaves what it held and wore where it fell and
comes back at the spawn area with full health.

Rule pack `base`; docs/mechanics/combat.md#death-and-respawn. Runs last among the combat rules,
after rhythm attacks and ambushes. The equipped inventory container drops with its contents inside
it. XP, level, max HP, base attack, quest progress and tracked history are kept.

Fixed reference quirks: every fight ends on death (the reference leaves stale engagements after an
ambush death, which the rhythm rule drops a tick later;
docs/mechanics/combat.md#quirk-death-ends-every-fight-at-once), and attack is the base attack at
once (the reference recomputes it a tick later, as with the level-up bonus;
docs/mechanics/rewards.md#quirk-a-level-up-raises-attack-at-once); dropped equipped items are
tracked as moving from `equip`, not `hand`.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import AGENT_DIED, WORLD_AGENT
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

from ..carrying import area_loc, equip_loc, hand_loc

FULL_STAMINA = 1.0


@mypyc_attr(native_class=False)  # spike: packs subclass it
class DeathAndRespawn(BaseStepRule):
    name = "death_and_respawn_step"
    priority = 7
    description = "Dead agents drop their items where they fell and respawn at the start."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        for agent in ctx.game.agents.values():
            if agent.hp <= 0:
                self._respawn(ctx, res, agent)

    def _respawn(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        world = ctx.world
        died_in = agent.area_id
        res.say(agent.id, "death.died", "I died.")
        drop_all(world, agent, died_in, res)
        agent.inventory_id = None
        agent.defense = 0
        agent.hp = agent.max_hp
        agent.attack = agent.min_attack
        ctx.game.move_agent(agent, world.spawn_area)
        agent.combats.clear()
        agent.stamina = FULL_STAMINA
        agent.consecutive_attacks = 0
        agent.deaths += 1
        res.say(
            agent.id,
            "death.respawned",
            f"I revived at {world.areas[world.spawn_area].name} with full health; "
            f"everything I held and wore lies where I fell, in {world.areas[died_in].name}.",
        )
        res.emit(AGENT_DIED, agent.id, {"area_id": died_in})


def drop_all(world: World, agent: AgentState, area_id: str, res: RuleResult) -> None:
    """Move everything in the agent's hands and everything it wears onto an area's ground."""
    area = world.areas[area_id]
    for store, source in ((agent.hands, hand_loc(agent)), (agent.equipped, equip_loc(agent))):
        for oid, count in store.items():
            if count > 0:
                area.add_objects(oid, count)
                res.track_move(WORLD_AGENT, oid, count, source, area_loc(area_id))
        store.clear()
