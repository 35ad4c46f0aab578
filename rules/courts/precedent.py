"""`binding_precedent_step` (4): a kill sets a precedent that weakens the victim's kind there; a
defeat by that kind overturns it and strengthens the kind for good.

Rule pack `courts` (docs/rule-packs.md#the-courts-pack); AgentOdyssey's metropolis. State
`binding_precedents = {area_precedents: {area: [NPC definition ids]}, overturned_types: {def:
true}, weakened_npcs: {npc: {original_hp, original_attack_power, original_combat_pattern}},
boosted_npcs: {npc: true}}`. Each tick, over this tick's events:

1. every `npc_killed` by an agent: the NPC's definition joins its area's precedents (once); the
   agents there are told; event `precedent_established {base_npc_id, area_id}` (the killer's);
2. every `agent_defeated_in_combat`: if the defeating NPC's definition has a precedent anywhere
   and is not overturned yet, it is overturned: each weakened NPC of it gets (if alive) its saved
   HP, attack and pattern back and its record goes, the definition leaves every area's
   precedents, every agent is told; event `precedent_overturned {base_npc_id}` (the defeated);

then:

3. per area with precedents (in the order they were set), each living enemy NPC there of a
   precedent definition, not overturned and not yet weakened: its stats are saved, HP `max(1, hp -
   int(hp * 0.25))`, attack `max(0, atk - int(atk * 0.25))`, a pattern longer than 2 loses its
   last action; the agents there are told (it stays weakened wherever it goes);
4. every living enemy NPC of an overturned definition not yet boosted: HP `+ int(hp * 0.2)`,
   attack `+ int(atk * 0.2)`, once per NPC; the agents in its area are told;
5. records of weakened NPCs that are dead or gone are dropped.
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.state_shape import ListOf, MapOf, Record
from agentodyssey_pz.world.entities import definition_id
from agentodyssey_pz.world.world import World

from .common import PRECEDENTS, tell_all, tell_area

WEAKEN = 0.25
BOOST = 0.2
KEYS = ("area_precedents", "overturned_types", "weakened_npcs", "boosted_npcs")


def kind_of(world: World, npc_id: str) -> str:
    npc = world.npcs.get(npc_id)
    return npc.def_id if npc is not None else definition_id(npc_id)


def precedents(world: World) -> dict[str, Any]:
    state = world.auxiliary.get(PRECEDENTS)
    if state is None:
        state = world.auxiliary[PRECEDENTS] = {key: {} for key in KEYS}
    return state


class BindingPrecedent(BaseStepRule):
    name = "binding_precedent_step"
    priority = 4
    description = "A kill weakens the victim's kind there; a defeat by it strengthens the kind."
    state_key = PRECEDENTS
    state_shape = Record(
        {
            "area_precedents": MapOf(ListOf(str)), "overturned_types": MapOf(bool),
            "weakened_npcs": MapOf(dict), "boosted_npcs": MapOf(bool),
        }
    )  # fmt: skip

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        state = precedents(world)
        by_area: dict[str, list[str]] = state["area_precedents"]
        overturned: dict[str, bool] = state["overturned_types"]
        weakened: dict[str, dict[str, Any]] = state["weakened_npcs"]
        boosted: dict[str, bool] = state["boosted_npcs"]
        events = [e for e in res.events if e.type in ("npc_killed", "agent_defeated_in_combat")]
        for ev in events:
            if ev.type != "npc_killed" or not ev.agent_id:
                continue
            npc_id, area_id = ev.data.get("npc_id"), ev.data.get("area_id")
            if not npc_id or not area_id:
                continue
            kind = kind_of(world, npc_id)
            listed = by_area.setdefault(area_id, [])
            if kind not in listed:
                listed.append(kind)
            npc = world.npcs.get(npc_id)
            who = npc.name if npc is not None else npc_id
            tell_area(
                game, res, area_id, "precedent.set",
                f"The defeat of {who} sets a binding precedent here: its kind is weakened.",
            )  # fmt: skip
            res.emit(
                "precedent_established", ev.agent_id, {"base_npc_id": kind, "area_id": area_id}
            )
        for ev in events:
            if ev.type != "agent_defeated_in_combat" or not ev.agent_id:
                continue
            npc_id = ev.data.get("npc_id")
            if not npc_id:
                continue
            kind = kind_of(world, npc_id)
            if kind in overturned or not any(kind in kinds for kinds in by_area.values()):
                continue
            overturned[kind] = True
            for inst_id in [i for i in weakened if kind_of(world, i) == kind]:
                saved = weakened.pop(inst_id)
                npc = world.npcs.get(inst_id)
                if npc is not None and npc.hp > 0:
                    npc.hp = saved["original_hp"]
                    npc.attack_power = saved["original_attack_power"]
                    npc.combat_pattern = tuple(saved["original_combat_pattern"])
            for kinds in by_area.values():
                if kind in kinds:
                    kinds.remove(kind)
            npc = world.npcs.get(npc_id)
            who = npc.name if npc is not None else npc_id
            tell_all(
                game, res, "precedent.overturned",
                f"Precedent overturned by the defeat at the hands of {who}: its kind is "
                "strengthened for good.",
            )  # fmt: skip
            res.emit("precedent_overturned", ev.agent_id, {"base_npc_id": kind})
        for area_id, kinds in by_area.items():
            if kinds and area_id in world.areas:
                self._weaken(ctx, res, area_id, kinds, overturned, weakened)
        if overturned:
            self._boost(ctx, res, overturned, boosted)
        for inst_id in list(weakened):
            npc = world.npcs.get(inst_id)
            if npc is None or npc.hp <= 0:
                del weakened[inst_id]

    @staticmethod
    def _weaken(ctx, res, area_id, kinds, overturned, weakened) -> None:
        world = ctx.world
        for npc_id in world.areas[area_id].npcs:
            npc = world.npcs[npc_id]
            if npc.hp <= 0 or not npc.enemy or npc_id in weakened:
                continue
            if npc.def_id in overturned or npc.def_id not in kinds:
                continue
            hp, atk = npc.hp, npc.attack_power
            weakened[npc_id] = {
                "original_hp": hp, "original_attack_power": atk,
                "original_combat_pattern": list(npc.combat_pattern),
            }  # fmt: skip
            hp_cut, atk_cut = int(hp * WEAKEN), int(atk * WEAKEN)
            npc.hp, npc.attack_power = max(1, hp - hp_cut), max(0, atk - atk_cut)
            if len(npc.combat_pattern) > 2:
                npc.combat_pattern = npc.combat_pattern[:-1]
            tell_area(
                ctx.game, res, area_id, "precedent.weakened",
                f"The precedent weighs on {npc.name} (HP -{hp_cut}, attack -{atk_cut}).",
            )  # fmt: skip

    @staticmethod
    def _boost(ctx, res, overturned, boosted) -> None:
        game = ctx.game
        for npc_id, npc in ctx.world.npcs.items():
            if not npc.enemy or npc.hp <= 0 or npc_id in boosted or npc.def_id not in overturned:
                continue
            hp_up, atk_up = int(npc.hp * BOOST), int(npc.attack_power * BOOST)
            npc.hp += hp_up
            npc.attack_power += atk_up
            boosted[npc_id] = True
            if npc.area_id is not None:
                tell_area(
                    game, res, npc.area_id, "precedent.boosted",
                    f"{npc.name} surges with the overturned precedent (HP +{hp_up}, attack "
                    f"+{atk_up}).",
                )  # fmt: skip
