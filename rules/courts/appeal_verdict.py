"""`appeal verdict`: a fallen agent pays every coin it carries to overturn its death.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. Possible
while my HP is 0 or below or my death is pending (`pending_death`, set by the two-phase death
rule), with at least one coin (the world's currency) in my hands, inventory or held containers.

The defeating NPC: the last `agent_defeated_in_combat` of mine in this tick's events, else my last
`agent_damaged` of this tick, else none. The appeal comes the tick after the defeat, so as
published it is almost always none; with the setting `remember_defeater` (default false) the
death rule remembers it when the death becomes pending, and the appeal uses that.

Effects: every coin I carry is taken; HP back to the maximum; `appeal_verdict_used` set and the
pending death cleared. If the defeating NPC is known and exists it is banished: taken from its
area (or mine) to a `choice` among the areas other than mine, its own and my neighbours (if none,
any area but mine); event `npc_banished {npc_id, from_area, to_area}`. My fights end and I rest;
event `appeal_verdict_granted {coins_sacrificed, defeating_npc_id, area_id}`.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

from .common import (
    APPEAL_USED,
    DEFEATED_BY,
    FULL_STAMINA,
    PENDING_DEATH,
    coins_of,
    neighbour_ids,
    table,
    take_coins,
)


def refusal(world: World, agent: AgentState) -> tuple[str, str] | None:
    if agent.hp > 0 and not table(world, PENDING_DEATH).get(agent.id, False):
        return "appeal_verdict.alive", "There is no verdict against me to appeal."
    if coins_of(world, agent) <= 0:
        return "appeal_verdict.no_coins", "I have no coins to pay for an appeal."
    return None


def defeating_npc(ctx: RuleContext, res: RuleResult) -> tuple[str | None, str | None]:
    """(NPC id, area id of its event) of whoever brought me down, as far as is known."""
    agent = ctx.actor
    for kind in ("agent_defeated_in_combat", "agent_damaged"):
        found = res.events_of(agent.id, kind)
        if found:
            data = found[-1].data
            return data.get("npc_id"), data.get("area_id")
    remembered = table(ctx.world, DEFEATED_BY).get(agent.id)
    if remembered:
        return remembered.get("npc_id"), remembered.get("area_id")
    return None, None


class AppealVerdict(BaseActionRule):
    name = "appeal_verdict"
    verb = "appeal verdict"
    description = (
        "When struck down, pay every coin I carry to overturn the verdict: full health, no "
        "death, and my killer may be banished far away."
    )
    catalogue = CatalogueShape("none")

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, game = ctx.actor, ctx.world, ctx.game
        why = refusal(world, agent)
        if why is not None:
            return res.fail(agent.id, *why)
        npc_id, event_area = defeating_npc(ctx, res)
        coins = take_coins(world, agent, coins_of(world, agent))
        agent.hp = agent.max_hp
        table(world, APPEAL_USED)[agent.id] = True
        table(world, PENDING_DEATH)[agent.id] = False
        table(world, DEFEATED_BY).pop(agent.id, None)
        here = agent.area_id
        npc = world.npcs.get(npc_id) if npc_id is not None else None
        if npc is not None and npc.hp > 0:
            source = npc.area_id or event_area or here
            if npc.area_id is not None:
                world.remove_npc_from_map(npc.id)
            near = set(neighbour_ids(world, here))
            options = [a for a in world.areas if a not in (here, source) and a not in near]
            if not options:
                options = [a for a in world.areas if a != here]
            if options:
                to_area = game.rng.choice(options)
                world.place_npc(npc.id, to_area)
                res.emit(
                    "npc_banished",
                    agent.id,
                    {"npc_id": npc.id, "from_area": source, "to_area": to_area},
                )
                res.say(agent.id, "appeal_verdict.banished", f"{npc.name} is banished afar.")
        agent.combats.clear()
        agent.stamina = FULL_STAMINA
        agent.consecutive_attacks = 0
        res.say(
            agent.id,
            "appeal_verdict.granted",
            f"My appeal is granted: {coins} coins paid, and I stand again at full health "
            f"({agent.hp}/{agent.max_hp}).",
        )
        res.emit(
            "appeal_verdict_granted",
            agent.id,
            {"coins_sacrificed": coins, "defeating_npc_id": npc_id, "area_id": here},
        )
        return None

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        return [()] if refusal(ctx.world, ctx.actor) is None else []

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        return [(None, ())] if refusal(ctx.world, ctx.actor) is None else []
