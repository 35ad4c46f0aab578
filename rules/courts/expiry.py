"""`invoke_law_expiry_step` (8) and `objection_effects_step` (9): invoked laws and sustained
objections wear off.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis.

Invocations (`active_invocations`): each loses a turn every tick, the invoking one included (so an
effect covers that tick and the next two). At 0: `unlock_doors` locks again the paths it opened,
`pacify_npcs` gives the NPCs it calmed their saved attack and pattern back (if they still exist),
`reveal_hidden` leaves its finds; the record goes; event `law_expired {invocation_id, effect_type,
area_id}` (agent: the invoker). Otherwise the agents there are told it still holds.

Pacified NPCs (`pacified_npcs`): each loses a turn every tick; at 0 it gets its enemy flag, attack
and pattern back (an objection sustained in tick t wears off at the end of tick t+4); event
`objection_pacify_expired {npc_id, area_id}` (agent: the objector). Otherwise the agents in the
recorded area are told how many turns are left.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import MapOf

from .common import INVOCATIONS, PACIFIED, table, tell_area


class InvokeLawExpiry(BaseStepRule):
    name = "invoke_law_expiry_step"
    priority = 8
    description = "Invoked laws hold for 3 turns, then lapse (doors lock again, foes rearm)."
    state_key = INVOCATIONS
    state_shape = MapOf(dict)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        invocations = table(world, INVOCATIONS)
        for inv_id in list(invocations):
            inv = invocations[inv_id]
            inv["remaining"] -= 1
            area_id, effect = inv["area_id"], inv["effect_type"]
            if inv["remaining"] > 0:
                tell_area(
                    game, res, area_id, "invoke_law.holds",
                    f"An invoked law still holds here ({inv['remaining']} turn(s) left).",
                )  # fmt: skip
                continue
            saved = inv.get("saved_state", {})
            if effect == "unlock_doors":
                for neighbour in saved.get("unlocked", []):
                    if world.graph.path(area_id, neighbour) is not None:
                        world.graph.set_locked(area_id, neighbour, True)
            elif effect == "pacify_npcs":
                for npc_id, stats in saved.get("npcs", {}).items():
                    npc = world.npcs.get(npc_id)
                    if npc is not None:
                        npc.attack_power = stats["attack_power"]
                        npc.combat_pattern = tuple(stats["combat_pattern"])
            del invocations[inv_id]
            tell_area(game, res, area_id, "invoke_law.expired", "The invoked law here lapses.")
            res.emit(
                "law_expired",
                inv["agent_id"],
                {"invocation_id": inv_id, "effect_type": effect, "area_id": area_id},
            )


class ObjectionEffects(BaseStepRule):
    name = "objection_effects_step"
    priority = 9
    description = "NPCs pacified by a sustained objection turn hostile again after 5 turns."
    state_key = PACIFIED
    state_shape = MapOf(dict)

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        pacified = table(world, PACIFIED)
        for npc_id in list(pacified):
            entry = pacified[npc_id]
            entry["remaining"] -= 1
            npc = world.npcs.get(npc_id)
            name = npc.name if npc is not None else npc_id
            if entry["remaining"] > 0:
                tell_area(
                    game, res, entry["area_id"], "objection.pacified",
                    f"{name} stays pacified ({entry['remaining']} turn(s) left).",
                )  # fmt: skip
                continue
            if npc is not None:
                npc.enemy = entry["original_enemy"]
                npc.attack_power = entry["original_attack_power"]
                npc.combat_pattern = tuple(entry["original_combat_pattern"])
            del pacified[npc_id]
            tell_area(
                game, res, entry["area_id"], "objection.expired",
                f"The objection's hold on {name} lapses; it is hostile again.",
            )  # fmt: skip
            res.emit(
                "objection_pacify_expired",
                entry["agent_id"],
                {"npc_id": npc_id, "area_id": entry["area_id"]},
            )
