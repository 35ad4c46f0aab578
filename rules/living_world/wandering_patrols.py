"""`wandering_patrols_step` (priority 5): roaming enemies and travelling merchants move on.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). Runs during the tutorial
phase too (NPCs in tutorial rooms stay, and nobody moves into one). For every area (world order)
and NPC there (arrival order): it may wander if it is not unique, not a quest NPC (nor of a quest
prototype, nor anyone's personal NPC), fights no agent, and is an enemy or a merchant. One
`random()` each; above 0.0625 it stays. It may go to a neighbour over an unlocked path whose
non-unique NPCs are fewer than that neighbour's level (counted before anyone moves); `choice`
among them (none: it stays). The moves happen after the scan, in the order chosen:

* `npc_moved {npc_id, from_area, to_area}`, and the agents it leaves see it go;
* a merchant restocks `randint(1, 2)` times: `choice` over its stock (with none, over every
  non-quest object), `+randint(1, 2)` units: `merchant_arrived {npc_id, area_id, restocked}`;
* an enemy makes this tick's ambush chance 0.05 higher for everyone: `enemy_entered_area
  {npc_id, area_id}`.

The soundscape (same priority, earlier by name) never hears these moves, as in AgentOdyssey.
"""

from __future__ import annotations

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.graph import LOCKED, OWNER
from agentodyssey_pz.world.world import World

from .common import (
    MERCHANT_ROLE,
    add_to_ambush_chance,
    derived,
    named_counts,
    tell_area,
    tutorial_place,
)

WANDER_CHANCE = 0.0625
RESTOCKS = (1, 2)  # how many goods a merchant restocks
RESTOCK_UNITS = (1, 2)  # units added to each
ENEMY_AMBUSH = 0.05


def trade_goods(world: World) -> list[str]:
    """Every non-quest object, definition order: what a merchant without stock restocks from."""
    return [o.id for o in world.objects.values() if not o.quest]


def quest_prototypes(world: World) -> frozenset[str]:
    return frozenset(p.id for p in world.npc_protos.values() if p.quest)


def crowd(world: World, area_id: str) -> int:
    """Non-unique NPCs standing in an area."""
    npcs, n = world.npcs, 0
    for npc_id in world.areas[area_id].npcs:
        if not npcs[npc_id].unique:
            n += 1
    return n


class WanderingPatrols(BaseStepRule):
    name = "wandering_patrols_step"
    priority = 5
    description = "Roaming enemies and travelling merchants may move to a neighbouring area."

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world = ctx.game, ctx.world
        random, choice = game.rng.random, game.rng.choice
        tutorial = tutorial_place(world)
        fighting: set[str] | None = None
        moves: list[tuple[Npc, str, str]] = []
        crowds: dict[str, int] = {}
        npcs, areas = world.npcs, world.areas
        quest_protos = derived(world, quest_prototypes)
        for area in areas.values():
            if area.place_id == tutorial or not area.npcs:
                continue
            for npc_id in area.npcs:
                npc = npcs[npc_id]
                # Wanderers by nature: roaming enemies and travelling merchants, nobody's own NPC,
                # no quest NPC (nor one of a quest prototype). Inline: every NPC, every tick.
                if npc.unique or npc.quest or npc.owner is not None:
                    continue
                if not npc.enemy and npc.role != MERCHANT_ROLE:
                    continue
                if npc.def_id in quest_protos:
                    continue
                if fighting is None:  # who fights whom, worked out once a tick, when needed
                    fighting = {n for agent in game.agents.values() for n in agent.combats}
                if npc_id in fighting:
                    continue
                if random() > WANDER_CHANCE:
                    continue
                ways = []
                for neighbor, path in world.graph.neighbors(area.id).items():
                    if path[LOCKED] or path[OWNER] is not None:
                        continue
                    there = areas[neighbor]
                    if there.place_id == tutorial:
                        continue
                    if neighbor not in crowds:
                        crowds[neighbor] = crowd(world, neighbor)
                    if crowds[neighbor] < there.level:
                        ways.append(neighbor)
                if ways:
                    moves.append((npc, area.id, choice(ways)))
        for npc, origin, destination in moves:
            self.move(ctx, res, npc, origin, destination)

    @staticmethod
    def move(ctx: RuleContext, res: RuleResult, npc: Npc, origin: str, destination: str) -> None:
        game, world = ctx.game, ctx.world
        world.place_npc(npc.id, destination)
        to_name = world.areas[destination].name
        tell_area(game, res, origin, "patrol.left", f"{npc.name} wanders off towards {to_name}.")
        res.emit(
            "npc_moved",
            WORLD_AGENT,
            {"npc_id": npc.id, "from_area": origin, "to_area": destination},
        )
        if npc.role == MERCHANT_ROLE:
            rng, stock = game.rng, npc.inventory
            goods = list(stock) or derived(world, trade_goods)
            restocked: dict[str, int] = {}
            for _ in range(rng.randint(*RESTOCKS)):
                good = rng.choice(goods)
                units = rng.randint(*RESTOCK_UNITS)
                stock[good] = stock.get(good, 0) + units
                restocked[good] = restocked.get(good, 0) + units
            if game.count_in(destination):  # the line is worded only for someone to read
                tell_area(
                    game, res, destination, "patrol.merchant",
                    f"{npc.name} arrives with fresh stock: {named_counts(world, restocked)}.",
                )  # fmt: skip
            res.emit(
                "merchant_arrived",
                WORLD_AGENT,
                {"npc_id": npc.id, "area_id": destination, "restocked": restocked},
            )
        if npc.enemy:
            add_to_ambush_chance(world, ENEMY_AMBUSH)
            from_name = world.areas[origin].name
            tell_area(
                game, res, destination, "patrol.enemy", f"{npc.name} prowls in from {from_name}."
            )
            res.emit("enemy_entered_area", WORLD_AGENT, {"npc_id": npc.id, "area_id": destination})
