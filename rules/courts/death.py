"""Two-phase death (`death_and_respawn_step`, priority 7, replaces the base rule) and the idle
record the contempt rule reads (`wait` and `defend`, replaced by subclasses of the base verbs).

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. Per agent,
the first case that holds:

1. `appeal_verdict_used`: it and `pending_death` are cleared; nothing else;
2. `pending_death`: cleared, and the agent dies as in the base rule (everything in its hands and
   worn dropped where it stands now, full HP, back at the spawn area), even if its HP is positive
   again; unlike the base rule, its attack is not reset to its base attack;
3. HP 0 or below: the death becomes pending (`death_pending {area_id}`), and the agent is told it
   may appeal (with its coin count) or has no coins to. With the setting `remember_defeater`
   (default false; AgentOdyssey never remembers it) the NPC that brought it down is kept for
   `appeal verdict`.

During the pending tick the agent acts as usual at HP 0 or below.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.packs import bundled_pack, bundled_step_rule
from agentodyssey_pz.world.agents import AgentState

from .common import APPEAL_USED, DEFEATED_BY, IDLE, PENDING_DEATH, coins_of, table

BaseDeath = bundled_step_rule("base", "death_and_respawn_step")
BASE_VERBS = {rule.name: rule for rule in bundled_pack("base").action_rules}


class TwoPhaseDeath(BaseDeath):
    description = "A fallen agent's death waits one tick for an appeal, then it respawns."
    settings = {"remember_defeater": False}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        world = ctx.world
        used, pending = table(world, APPEAL_USED), table(world, PENDING_DEATH)
        for agent in ctx.game.agents.values():
            if used.get(agent.id, False):
                used[agent.id] = False
                pending[agent.id] = False
            elif pending.get(agent.id, False):
                pending[agent.id] = False
                table(world, DEFEATED_BY).pop(agent.id, None)
                attack = agent.attack
                self._respawn(ctx, res, agent)
                agent.attack = attack
            elif agent.hp <= 0:
                self._pend(ctx, res, agent)

    def _pend(self, ctx: RuleContext, res: RuleResult, agent: AgentState) -> None:
        world = ctx.world
        table(world, PENDING_DEATH)[agent.id] = True
        if self.settings["remember_defeater"]:
            for kind in ("agent_defeated_in_combat", "agent_damaged"):
                found = res.events_of(agent.id, kind)
                if found:
                    data = found[-1].data
                    table(world, DEFEATED_BY)[agent.id] = {
                        "npc_id": data.get("npc_id"), "area_id": data.get("area_id")
                    }  # fmt: skip
                    break
        coins = coins_of(world, agent)
        offer = (
            f"I may `appeal verdict` with my {coins} coins before the sentence is carried out."
            if coins > 0
            else "I have no coins to appeal with; the sentence will be carried out."
        )
        res.say(agent.id, "death.pending", f"I have been struck down. {offer}")
        res.emit("death_pending", agent.id, {"area_id": agent.area_id})


def record_idle(ctx: RuleContext, verb: str) -> None:
    table(ctx.world, IDLE)[ctx.actor.id] = {"tick": ctx.game.tick_index, "verb": verb}


class IdleWait(BASE_VERBS["wait"]):
    """`wait`, recording the tick for `contempt_of_court_step`."""

    replaces = "wait"
    lists_from_reach = True
    dark_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        super().apply(ctx, res)
        record_idle(ctx, "wait")


class IdleDefend(BASE_VERBS["defend"]):
    """`defend`, recording the tick for `contempt_of_court_step`."""

    replaces = "defend"
    lists_from_reach = True
    dark_safe = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        super().apply(ctx, res)
        record_idle(ctx, "defend")
