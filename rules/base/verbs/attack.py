"""`attack <npc>`: hit an NPC in my area; a surviving enemy with a combat pattern fights back.

Rule pack `base`; docs/mechanics/verbs.md#attack. Damage is `int(attack * stamina)`, cut to a tenth
(truncated) when the NPC's rhythm action this round is `defend`. From the second attack of a
streak on, stamina drops by 0.2 (floor 0.2) after the blow, so it weakens the next one. A kill is
handled by the rule framework's `kills.kill_npc`; a surviving enemy with a pattern starts rhythm
combat. Packs that change a blow subclass `Attack` (same name) and override its hooks:
`extra_damage` (added after the base damage and the tiring), `kill` and `wound` (what follows).

Reference quirks fixed: the help text says a defending NPC takes 10% of the damage (the reference's
says 25% while its code applies 10%; docs/mechanics/combat.md#quirk-the-help-text-says-a-tenth);
guides are protected by what they are (friendly and `quest`), not by one hard-coded definition id;
kills are suppressed per agent that has not passed the tutorial
(docs/mechanics/rewards.md#quirk-tracking-held-back-per-agent). Kept: attacking a target that never
fights back still counts in the streak and tires
(docs/mechanics/combat.md#quirk-attacks-on-a-target-that-never-fights-back-still-tire).
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult, mypyc_attr
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.kills import kill_npc
from agentodyssey_pz.world.agents import AgentState, Engagement
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.world import World

from ..combat import DEFEND_ACTION, hit_damage, is_protected, rhythm_action, tire


def loot_text(world: World, placed: list[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {world.name_of(oid)}" for oid, n in placed)


def refusal(agent: AgentState, npc: Npc | None) -> tuple[str, str] | None:
    """Why this agent cannot attack this NPC now, as (key, reason), or None if it can."""
    if npc is None:
        return "attack.not_here", "they are not here"
    if is_protected(npc):
        return "attack.protected", "they are a guide and must not be harmed"
    if agent.attack <= 0:
        return "attack.no_power", f"my attack is {agent.attack}, too weak to hurt"
    return None


@mypyc_attr(native_class=False)  # spike: packs subclass it
class Attack(BaseActionRule):
    name = "attack"
    verb = "attack"
    params = ("npc_name",)
    param_min = 1
    param_max = 1
    description = (
        "Attack someone here; a defending enemy takes only 10% damage, and attacking again and "
        "again tires me (weaker blows) until I wait or defend."
    )
    catalogue = CatalogueShape("npc", name=0)
    valid_params_from_mask = True

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world = ctx.actor, ctx.world
        name = ctx.params[0]
        npc = world.npc_here(name, agent.area_id, agent.id)
        refused = refusal(agent, npc)
        if refused is not None:
            key, reason = refused
            return res.fail(agent.id, key, f"I cannot attack {name}: {reason}.")
        assert npc is not None  # refusal() covers a missing NPC
        is_new = npc.id not in agent.combats
        npc_action = rhythm_action(agent, npc)
        stamina_before = agent.stamina
        damage = hit_damage(agent.attack, stamina_before, npc_action)
        tire(agent)
        damage += self.extra_damage(ctx, res, npc)
        npc.hp -= damage
        if npc_action == DEFEND_ACTION:
            res.say(
                agent.id,
                "attack.npc_defended",
                f"{name} defended, so my blow did a tenth of its damage.",
            )
        if npc.hp <= 0:
            self.kill(ctx, res, npc, damage)
        else:
            self.wound(agent, res, npc, damage, is_new)
        if agent.stamina < stamina_before:  # not when a kill ended my last fight and rested me
            res.say(
                agent.id,
                "attack.tired",
                f"I am tiring: my next blow will land at {round(agent.stamina * 100)}% strength.",
            )
        return None

    def extra_damage(self, ctx: RuleContext, res: RuleResult, npc: Npc) -> int:
        """Damage a pack adds to this blow after the base damage and the tiring, not cut by the
        NPC's defend (an ally striking beside me). It may say lines and change the actor's state:
        it runs only for a blow that lands. The base: none."""
        return 0

    def kill(self, ctx: RuleContext, res: RuleResult, npc: Npc, damage: int) -> None:
        agent_id = ctx.actor.id
        res.say(
            agent_id, "attack.killed", f"I hit {npc.name} for {damage} damage and defeated them."
        )
        placed = kill_npc(ctx, res, npc)
        if placed:
            res.say(agent_id, "attack.loot", f"{npc.name} dropped {loot_text(ctx.world, placed)}.")

    def wound(
        self, agent: AgentState, res: RuleResult, npc: Npc, damage: int, is_new: bool
    ) -> None:
        res.say(agent.id, "attack.hit", f"I hit {npc.name} for {damage} damage; {npc.hp} HP left.")
        if is_new and npc.enemy and npc.combat_pattern:
            # The NPC's first pattern action resolves later this tick (combat-rhythm step rule).
            agent.combats[npc.id] = Engagement(0, agent.area_id)
            res.say(agent.id, "attack.engaged", f"{npc.name} turns on me: we are in combat.")
            res.emit("combat_started", agent.id, {"npc_id": npc.id, "area_id": agent.area_id})
        res.emit(
            "npc_attacked", agent.id, {"npc_id": npc.id, "damage": damage, "area_id": agent.area_id}
        )

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        agent, world = ctx.actor, ctx.world
        if agent.attack <= 0:  # refusal(): too weak to hurt anyone
            return []
        # `rules.targets.nameable_npcs`, inlined (a call per agent and tick is 0.3% of a step):
        # visible to me, and not shadowed by another NPC's name.
        names, npcs = world.npc_name_to_id, world.npcs
        out: list[tuple[str | None, tuple[str, ...]]] = []
        for npc_id in world.visible_npcs(agent.area_id, agent.id):
            npc = npcs[npc_id]
            # refusal(): the NPC is here and the attack positive, so only `is_protected`, inlined
            # (two calls per NPC, for every agent and tick, in crowded areas).
            if names.get(npc.name) == npc_id and not (npc.quest and not npc.enemy):
                out.append((npc.def_id, (npc.name,)))
        return out
