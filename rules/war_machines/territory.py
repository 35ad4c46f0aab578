"""Areas left alone and merchants on the move: `territory_reclamation_step` (priority 10) and
`forge_echo_migration_step` (11); and `devil_forged_corruption_step` (12).

Rule pack `war_machines`; AgentOdyssey's robot_kingdom.

`territory_reclamation_step`: every area where an agent stands gets `last_visited = tick`; an area
without one gets the tick too. Then for each area but the spawn area (and tutorial rooms): with an
agent there its record is dropped; `dormancy = tick - last_visited`; below `dormant_after` (8)
nothing; else a record `{ticks, last_tick_step: last_visited + 8, spawned_enemies}` is made if
missing, and when `tick - last_tick_step >= every` (3; first at dormancy 11, then every 3) the
area ticks: every vulnerable ground stack (common.py) loses `min(count, max(1, int(count x
0.15)))`; while fewer than `most_spawns` (3) enemies came in this dormancy, a `choice` among the
non-unique, non-quest enemy prototypes (definition order) gives a fresh instance at the area's
level; events `territory_reclamation_tick {area_id, tick, dormancy_steps, decayed_items: {id:
units}, spawned_npc: id or None}` and `dep_tracker_hint`; agents in neighbouring areas hear of a
spawn. State `world.auxiliary["territory_reclamation"] = {last_visited: {area: tick}, records:
{area: {ticks, last_tick_step, spawned_enemies}}}`.

`forge_echo_migration_step`: every `object_crafted` event of the tick marks its area with the tick;
marks older than `echo_ticks` (6) go. On ticks >= 0 that are even: per marked area (not a tutorial
room) with fewer
than 3 non-enemy merchants, its neighbours over open paths (path order), and each non-enemy,
merchant, non-quest, non-guide NPC there not bound for another marked area, are pulled in one hop
until 3 merchants stand there (origin recorded the first time, target the marked area; lines;
`forge_echo_merchant_migrated {npc_id, npc_name, from_area, to_area, echo_step}`). Then each
merchant whose target is no longer marked moves one hop along a shortest open path toward its
origin (none: straight home); it stops being tracked once home (or gone). State
`world.auxiliary["forge_echo"] = {active_echoes, merchant_origin, migration_targets}`.

`devil_forged_corruption_step`: per living agent, the units of devil-forged definitions (setting
`definitions`) in hands, worn, in the inventory and in held containers; above `safe` (3) each
extra unit costs 2 HP: a line, `devil_forged_corruption {devil_forged_count, excess, damage,
remaining_hp, area_id}`; at 0 HP or below HP is set to 0 and `agent_defeated_by_corruption
{devil_forged_count, area_id}` follows. It runs after death handling (as published): an agent
drained to 0 stays at 0 HP until the next tick's death rule (it may act in between). With setting
`dies_at_once` the game's death rule handles such an agent at once
(docs/rule-packs.md#the-warmachines-pack).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from agentodyssey_pz.rules.base import BaseStepRule, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import WORLD_AGENT, location
from agentodyssey_pz.rules.spawning import spawn_npc
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.agents import remove_count
from agentodyssey_pz.world.schema import NpcDef
from agentodyssey_pz.world.world import World

from .common import (
    GUIDE_DEFINITIONS,
    STATE_KEY,
    game_step_rule,
    is_guide,
    of_definitions,
    tell_area,
    tutorial_area,
    tutorial_place,
    vulnerable_table,
)

MERCHANT = "merchant"
DEVIL_FORGED = [
    "obj_scrap_iron", "obj_devil_oil", "obj_hellcoal", "obj_cog", "obj_fiend_plate",
    "obj_demon_core_shard", "obj_brimite_ore", "obj_war_engine_heart", "obj_iron_nugget",
    "obj_iron_bar", "obj_iron_sheet", "obj_iron_scale", "obj_scale_bundle",
    "obj_hellcoal_concentrate", "obj_fiend_strip", "obj_fiend_rivet", "obj_brimite_nugget",
    "obj_brimite_ingot", "obj_brimite_blade_blank", "obj_brimite_blade", "obj_fiend_alloy_ingot",
    "obj_fiend_alloy_sheet", "obj_fiend_alloy_scale", "obj_fiend_scale_bundle", "obj_oil_flask",
    "obj_cog_assembly", "obj_gearwork_frame",
]  # fmt: skip


def open_neighbours(world: World, area_id: str) -> list[str]:
    """Neighbours over unlocked, shared paths, in path order."""
    return [
        n for n, d in world.graph.neighbors(area_id).items()
        if not d.get("locked") and d.get("owner") is None and n in world.areas
    ]  # fmt: skip


class TerritoryReclamation(BaseStepRule):
    name = "territory_reclamation_step"
    priority = 10
    description = "Areas nobody visits decay, and war machines move back in."
    state_key = "territory_reclamation"
    state_shape = Record(
        {
            "last_visited": MapOf(int),
            "records": MapOf(Record({"ticks": int, "last_tick_step": int, "spawned_enemies": int})),
        }
    )
    settings = {
        "dormant_after": 8,
        "every": 3,
        "decay_share": 0.15,
        "most_spawns": 3,
        "protect_quest_objects": False,
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        state = world.auxiliary.get(self.state_key)
        if state is None:
            state = world.auxiliary[self.state_key] = {"last_visited": {}, "records": {}}
        visited, records = state["last_visited"], state["records"]
        step = game.tick_index
        occupied = game.occupied_areas()
        areas = world.areas
        # New areas get the tick in definition order, before the occupied ones. Only the first
        # tick and world expansion bring any: a set comparison in C tells, not a loop per area.
        if not visited.keys() >= areas.keys():
            for area_id in areas:
                if area_id not in visited:
                    visited[area_id] = step
        for area_id in occupied:
            visited[area_id] = step
            records.pop(area_id, None)  # (none is ever made for the spawn area or a tutorial room)
        dormant_since = step - s["dormant_after"]  # visited at or before: dormant
        due_since = step - s["every"]  # an area's last reclamation tick at or before: it is due
        spawn, tutorial = world.spawn_area, tutorial_place(world)
        table = None  # what lies vulnerable on a floor: looked up once a tick, when an area is due
        for area_id, area in areas.items():
            last = visited[area_id]
            if last > dormant_since or area_id == spawn or area_id in occupied:
                continue
            if tutorial is not None and area.place_id == tutorial:
                continue
            rec = records.get(area_id)
            if rec is None:
                rec = records[area_id] = {
                    "ticks": 0,
                    "last_tick_step": last + s["dormant_after"],
                    "spawned_enemies": 0,
                }
            if rec["last_tick_step"] > due_since:
                continue
            rec["ticks"] += 1
            rec["last_tick_step"] = step
            if table is None:
                table = vulnerable_table(world, s["protect_quest_objects"])
            self._tick(ctx, res, area_id, rec, step - last, table)

    def _tick(
        self,
        ctx: RuleContext,
        res: RuleResult,
        area_id: str,
        rec: dict[str, Any],
        dormancy: int,
        table: Any = None,
    ) -> None:
        """`table`: `vulnerable_table` of this world and setting, when the caller has it."""
        game, world, s = ctx.game, ctx.world, self.settings
        area = world.areas[area_id]
        ground = area.objects
        if table is None:
            table = vulnerable_table(world, s["protect_quest_objects"])
        decayed: dict[str, int] = {}
        for oid, count in list(ground.items()):
            if count <= 0 or table[oid] is None:
                continue
            lost = min(count, max(1, int(count * s["decay_share"])))
            remove_count(ground, oid, lost)
            res.track_consume(WORLD_AGENT, oid, lost, location("area", area_id))
            decayed[oid] = lost
        spawned = None
        if rec["spawned_enemies"] < s["most_spawns"]:
            protos = raiders(world)
            if protos:
                proto = game.rng.choice(protos)
                npc = spawn_npc(game, proto, area.level, area_id)
                rec["spawned_enemies"] += 1
                spawned = npc.id
                name = area.name
                for neighbour in world.graph.neighbors(area_id):
                    tell_area(
                        game, res, neighbour, "reclamation.spawn",
                        f"Grinding metal echoes from {name}: a {npc.name} has moved in.",
                    )  # fmt: skip
        res.emit(
            "territory_reclamation_tick",
            WORLD_AGENT,
            {
                "area_id": area_id,
                "tick": rec["ticks"],
                "dormancy_steps": dormancy,
                "decayed_items": decayed,
                "spawned_npc": spawned,
            },
        )
        hint = [f"{oid} -{n}" for oid, n in decayed.items()]
        if spawned is not None:
            hint.append(f"spawned {spawned}")
        res.emit(
            "dep_tracker_hint", WORLD_AGENT, {"hint": f"reclamation@{area_id}: " + "; ".join(hint)}
        )


class ForgeEchoMigration(BaseStepRule):
    name = "forge_echo_migration_step"
    priority = 11
    description = "Crafting draws merchants from neighbouring areas for a while."
    state_key = "forge_echo"
    state_shape = Record(
        {
            "active_echoes": MapOf(int),
            "merchant_origin": MapOf(str),
            "migration_targets": MapOf(str),
        }
    )
    settings = {"echo_ticks": 6, "every": 2, "most_merchants": 3, "guides": list(GUIDE_DEFINITIONS)}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        state = world.auxiliary.get(self.state_key)
        if state is None:
            state = world.auxiliary[self.state_key] = {
                "active_echoes": {}, "merchant_origin": {}, "migration_targets": {}
            }  # fmt: skip
        echoes, origins, targets = (
            state["active_echoes"], state["merchant_origin"], state["migration_targets"]
        )  # fmt: skip
        step = game.tick_index
        for event in res.events:
            if event.type == "object_crafted" and event.data.get("area_id") in world.areas:
                echoes[event.data["area_id"]] = step
        for area_id in [a for a, t in echoes.items() if step - t > s["echo_ticks"]]:
            del echoes[area_id]
        if step < 0 or step % s["every"] != 0:
            return
        for echo_area, echo_step in list(echoes.items()):
            if tutorial_area(world, echo_area):
                continue
            self._attract(ctx, res, echo_area, echo_step, origins, targets)
        for npc_id, target in list(targets.items()):
            if target not in echoes:
                self._return(ctx, res, npc_id, origins, targets)

    def _count(self, world: World, area_id: str) -> int:
        npcs = world.npcs
        return sum(
            1 for n in world.areas[area_id].npcs
            if not npcs[n].enemy and npcs[n].role == MERCHANT
        )  # fmt: skip

    def _attract(
        self, ctx: RuleContext, res: RuleResult, echo_area: str, echo_step: int,
        origins: dict[str, str], targets: dict[str, str],
    ) -> None:  # fmt: skip
        game, world, most = ctx.game, ctx.world, self.settings["most_merchants"]
        count = self._count(world, echo_area)
        for neighbour in open_neighbours(world, echo_area):
            if count >= most:
                return
            for npc_id in list(world.areas[neighbour].npcs):
                if count >= most:
                    return
                npc = world.npcs[npc_id]
                if npc.enemy or npc.role != MERCHANT or npc.quest or npc.owner is not None:
                    continue
                if is_guide(npc, self.settings["guides"]):
                    continue
                if targets.get(npc_id, echo_area) != echo_area:
                    continue
                origins.setdefault(npc_id, neighbour)
                world.place_npc(npc_id, echo_area)
                targets[npc_id] = echo_area
                count += 1
                here, there = world.areas[echo_area].name, world.areas[neighbour].name
                tell_area(
                    game, res, echo_area, "echo.arrived",
                    f"Drawn by the ring of the forge, {npc.name} arrives from {there}.",
                )  # fmt: skip
                tell_area(
                    game, res, neighbour, "echo.left",
                    f"{npc.name} leaves for {here}, drawn by the sound of crafting.",
                )  # fmt: skip
                res.emit(
                    "forge_echo_merchant_migrated",
                    WORLD_AGENT,
                    {
                        "npc_id": npc_id,
                        "npc_name": npc.name,
                        "from_area": neighbour,
                        "to_area": echo_area,
                        "echo_step": echo_step,
                    },
                )
                res.emit(
                    "dep_tracker_hint",
                    WORLD_AGENT,
                    {"hint": f"forge_echo: {npc_id} {neighbour}->{echo_area}"},
                )

    def _return(
        self, ctx: RuleContext, res: RuleResult, npc_id: str,
        origins: dict[str, str], targets: dict[str, str],
    ) -> None:  # fmt: skip
        world = ctx.world
        origin = origins.get(npc_id)
        npc = world.npcs.get(npc_id)
        if origin is None or npc is None or npc.area_id is None or npc.area_id == origin:
            targets.pop(npc_id, None)
            origins.pop(npc_id, None)
            return
        current = npc.area_id
        nxt = next_hop(world, current, origin) or origin
        world.place_npc(npc_id, nxt)
        tell_area(ctx.game, res, current, "echo.leaving", f"{npc.name} heads back home.")
        tell_area(ctx.game, res, nxt, "echo.passing", f"{npc.name} passes through on the way home.")
        if nxt == origin:
            targets.pop(npc_id, None)
            origins.pop(npc_id, None)


def raiders(world: World) -> list[NpcDef]:
    """The enemy prototypes reclamation may bring in (non-unique, non-quest; definition order),
    kept in `world.derived`."""
    key = (STATE_KEY, "raiders", len(world.npc_protos))  # (world expansion adds prototypes)
    found = world.derived.get(key)
    if found is None:
        found = world.derived[key] = [
            p for p in world.npc_protos.values() if p.enemy and not p.unique and not p.quest
        ]
    return found


def next_hop(world: World, start: str, goal: str) -> str | None:
    """The first area on a shortest path over open shared paths (path order breaks ties)."""
    came: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            while came[here] != start:
                here = came[here]  # type: ignore[assignment]
            return here
        for n in open_neighbours(world, here):
            if n not in came:
                came[n] = here
                queue.append(n)
    return None


class DevilForgedCorruption(BaseStepRule):
    name = "devil_forged_corruption_step"
    priority = 12
    description = "Carrying more than 3 devil-forged items drains 2 HP per extra item each tick."
    settings = {
        "definitions": DEVIL_FORGED,
        "safe": 3,
        "damage_per_unit": 2,
        "dies_at_once": False,
    }

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        game, world, s = ctx.game, ctx.world, self.settings
        forged, safe, containers = None, s["safe"], world.containers
        for agent in game.agents.values():
            if agent.hp <= 0:
                continue
            stores = [agent.hands, agent.equipped]
            if agent.inventory_id is not None:
                stores.append(containers[agent.inventory_id].items)
            stores += [containers[o].items for o in agent.hands if o in containers]
            if sum(sum(store.values()) for store in stores) <= safe:
                continue  # too few things carried to be over the limit
            if forged is None:
                forged = of_definitions(world, s["definitions"])
            count = 0
            for store in stores:
                for oid, n in store.items():
                    if forged[oid]:
                        count += n
            excess = count - safe
            if excess <= 0:
                continue
            damage = s["damage_per_unit"] * excess
            agent.hp -= damage
            res.say(
                agent.id,
                "devil_forged.drain",
                f"The {count} devil-forged things I carry sap me: I lose {damage} HP "
                f"({max(0, agent.hp)} left).",
            )
            res.emit(
                "devil_forged_corruption",
                agent.id,
                {
                    "devil_forged_count": count,
                    "excess": excess,
                    "damage": damage,
                    "remaining_hp": agent.hp,
                    "area_id": agent.area_id,
                },
            )
            if agent.hp <= 0:
                agent.hp = 0
                res.emit(
                    "agent_defeated_by_corruption",
                    agent.id,
                    {"devil_forged_count": count, "area_id": agent.area_id},
                )
                if s["dies_at_once"]:
                    death = game_step_rule(game, "death_and_respawn_step")
                    if hasattr(death, "apply_to"):  # this pack's death rule (combat.py)
                        death.apply_to(ctx, res, agent)
