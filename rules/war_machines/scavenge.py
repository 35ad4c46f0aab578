"""`scavenge`: search the area for gear; the more kinds of foe I have beaten, the better I find.

Rule pack `war_machines`; AgentOdyssey's robot_kingdom. My tier is the last row of setting
`tiers` ([unique kills at least, chance, most items, level bonus]) that my distinct kills
("definition_level" strings, any NPC kind) reach: 0 -> 0.30, 1, +0; 2 -> 0.50, 2, +0; 4 -> 0.65,
2, +1; 6 -> 0.80, 3, +1; 10 -> 0.95, 3, +2. Checks in order: no fight of mine recorded in this
area with an NPC that still exists; at least `cooldown` (5) ticks since my last scavenge here
(never: -999). Then the tick is recorded as my last scavenge here (the roll may fail), and one
`random()` above the chance fails: event `scavenge_failed {area_id, unique_kills}`. Otherwise the
pool is every object definition (definition order) that is no station, currency or container, not
writable, not undistributable, not `quest`, of level at most `min(area level + bonus, 5)`;
weights by `|level - area level|`: 0 -> 1.0, 1 -> 0.5, 2 -> 0.2, more -> 0.05, x1.5 for an
object without a recipe. An empty pool gives a line only. Else `n = randint(1, most items)` and
`n` single `choices(pool, weights)` draws; the finds land on the ground here; event
`area_scavenged {area_id, found_items: {id: count}, unique_kills, tier_discovery_prob}`.

Catalogue: one entry (`none`), unmasked when the checks pass. As published, valid-action lists
offer `scavenge` only to an agent without any fight at all; here they follow the checks exactly
(a fight recorded in another area does not block).
"""

from __future__ import annotations

from typing import Any

from agentodyssey_pz.rules.base import BaseActionRule, CatalogueShape, RuleResult
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

from .common import CONTAINER, CURRENCY, SCAVENGED, STATION, peek, record

NEVER = -999
TIERS = [[0, 0.30, 1, 0], [2, 0.50, 2, 0], [4, 0.65, 2, 1], [6, 0.80, 3, 1], [10, 0.95, 3, 2]]
TOP_LEVEL = 5


def tier(agent: AgentState, tiers: list[list[Any]]) -> list[Any]:
    kills = len(agent.unique_kills)
    found = tiers[0]
    for row in tiers:
        if kills >= row[0]:
            found = row
    return found


def refusal(world: World, agent: AgentState, step: int, cooldown: int) -> tuple[str, str] | None:
    here = agent.area_id
    for npc_id, engagement in agent.combats.items():
        if engagement.area_id == here and npc_id in world.npcs:
            return "scavenge.in_combat", "I cannot scavenge here: I am in the middle of a fight."
    last = peek(agent, SCAVENGED, {}).get(here, NEVER)
    if step - last < cooldown:
        return "scavenge.cooldown", "I cannot scavenge here yet: I searched it only just now."
    return None


def weight(level: int, area_level: int) -> float:
    gap = abs(level - area_level)
    return {0: 1.0, 1: 0.5, 2: 0.2}.get(gap, 0.05)


def pool(world: World, area_level: int, bonus: int) -> tuple[list[str], list[float]]:
    banned = set(world.definition.initializations.undistributable_objects)
    top = min(area_level + bonus, TOP_LEVEL)
    ids, weights = [], []
    for obj in world.objects.values():
        if obj.category in (STATION, CURRENCY, CONTAINER) or obj.is_writable:
            continue
        if obj.id in banned or obj.quest or obj.level > top:
            continue
        ids.append(obj.id)
        w = weight(obj.level, area_level)
        weights.append(w * 1.5 if not obj.craft.ingredients else w)
    return ids, weights


class Scavenge(BaseActionRule):
    name = "scavenge"
    verb = "scavenge"
    description = (
        "Search this area for gear (once every 5 ticks per area, not while fighting here); "
        "beating more kinds of foe makes finds likelier, more and better."
    )
    catalogue = CatalogueShape("none")
    settings = {"tiers": TIERS, "cooldown": 5}

    def apply(self, ctx: RuleContext, res: RuleResult) -> None:
        agent, world, game = ctx.actor, ctx.world, ctx.game
        step = game.tick_index
        refused = refusal(world, agent, step, self.settings["cooldown"])
        if refused is not None:
            return res.fail(agent.id, *refused)
        here = agent.area_id
        record(agent).setdefault(SCAVENGED, {})[here] = step
        _, chance, most, bonus = tier(agent, self.settings["tiers"])
        kills = len(agent.unique_kills)
        rng = game.rng
        if rng.random() > chance:
            res.say(agent.id, "scavenge.nothing", "I searched the area but found nothing useful.")
            res.emit("scavenge_failed", agent.id, {"area_id": here, "unique_kills": kills})
            return None
        area_level = world.areas[here].level
        ids, weights = pool(world, area_level, bonus)
        if not ids:
            res.say(agent.id, "scavenge.empty", "There is nothing here worth scavenging.")
            return None
        found: dict[str, int] = {}
        for _ in range(rng.randint(1, most)):
            pick = rng.choices(ids, weights, k=1)[0]
            found[pick] = found.get(pick, 0) + 1
        for def_id, count in found.items():
            for oid, n in world.spawn_on_ground(here, def_id, count):
                res.track_spawn(agent.id, oid, n, location("area", here))
        text = ", ".join(f"{n} {world.objects[d].name}" for d, n in found.items())
        res.say(agent.id, "scavenge.found", f"I scavenged the area and turned up {text}.")
        res.emit(
            "area_scavenged",
            agent.id,
            {
                "area_id": here,
                "found_items": found,
                "unique_kills": kills,
                "tier_discovery_prob": chance,
            },
        )
        return None

    def valid_params(self, ctx: RuleContext, *, all_amounts: bool = True) -> list[tuple[str, ...]]:
        agent = ctx.actor
        refused = refusal(ctx.world, agent, ctx.game.tick_index, self.settings["cooldown"])
        return [()] if refused is None else []

    def mask_targets(self, ctx: RuleContext) -> list[tuple[str | None, tuple[str, ...]]]:
        """The one entry while `valid_params` lists `()` (the base derives the same from it, at
        the cost of a generic pass for every agent and tick)."""
        agent = ctx.actor
        refused = refusal(ctx.world, agent, ctx.game.tick_index, self.settings["cooldown"])
        return [(None, ())] if refused is None else []
