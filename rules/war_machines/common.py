"""What the `war_machines` rules share: where their state lives, who counts as a guide or a
friendly NPC, the coin sources, what lies "vulnerable" on a ground, and small helpers.

Rule pack `war_machines` (docs/rule-packs.md#the-warmachines-pack). Imported relatively.

Per-agent state (declared by `death_and_respawn_step` of this pack, checked when a game loads):
`agent.progress["war_machines"]`, a record with the optional keys

* `ally`: the rallied ally, `{npc_id, npc_name, rounds_left, bonus_damage, area_id}`;
* `aura_pct`: the overload aura's percentage (a whole number);
* `scavenged`: per area id, the tick of the last scavenge there;
* `presence_bonus`: the united-presence defense bonus recorded for the agent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import GameView, WorldTable
from agentodyssey_pz.rules.events import location
from agentodyssey_pz.rules.state_shape import MapOf, Record
from agentodyssey_pz.world.agents import (
    AgentState,
    carried_stores,
    held_containers,
    inventory_of,
    remove_count,
)
from agentodyssey_pz.world.entities import Npc
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.world import World

STATE_KEY = "war_machines"
ALLY, AURA, SCAVENGED, PRESENCE = "ally", "aura_pct", "scavenged", "presence_bonus"
ALLY_SHAPE = Record(
    {"npc_id": str, "npc_name": str, "rounds_left": int, "bonus_damage": int, "area_id": str}
)
PROGRESS_SHAPE = Record(
    {},
    {ALLY: ALLY_SHAPE, AURA: int, SCAVENGED: MapOf(int), PRESENCE: int},
    empty_ok=True,
)
# The guide definitions AgentOdyssey's robot_kingdom leaves out of rallies, warnings and
# intimidation (its main quest's wayfarer guide and the side quest's guide).
GUIDE_DEFINITIONS = ("npc_quest_wayfarer_guide", "npc_side_quest_guide")
STATION, CURRENCY, CONTAINER = "station", "currency", "container"
WRITABLE, UNLOCK = "writable", "unlock"


def record(agent: AgentState) -> dict[str, Any]:
    """The agent's record of this pack (created empty on first use)."""
    found = agent.progress.get(STATE_KEY)
    if found is None:
        found = agent.progress[STATE_KEY] = {}
    return found


def peek(agent: AgentState, key: str, default: Any = None) -> Any:
    """A value of the agent's record without creating it."""
    found = agent.progress.get(STATE_KEY)
    return default if found is None else found.get(key, default)


def is_guide(npc: Npc, guides: Iterable[str] = GUIDE_DEFINITIONS) -> bool:
    return npc.def_id in guides


def friendly_ids(world: World, guides: Iterable[str]) -> frozenset[str]:
    """Ids of the world's non-enemy NPCs that are not guides, dead or alive: who may be warned
    about or intimidated. Worked out again only when NPCs are added (`world.derived`; an NPC's
    kind never changes), so a rule asks `isdisjoint(area.npcs)` before reading any NPC."""
    key = (STATE_KEY, "friends", tuple(guides))
    npcs = world.npcs
    found = world.derived.get(key)
    if found is None or found[0] != len(npcs):
        kinds = tuple(guides)
        ids = frozenset(i for i, n in npcs.items() if not n.enemy and n.def_id not in kinds)
        found = world.derived[key] = (len(npcs), ids)
    return found[1]


def friendly_npcs(world: World, area_id: str, guides: Iterable[str]) -> list[Npc]:
    """Living non-enemy NPCs of the area that are not guides, in the area's order."""
    here = world.areas[area_id].npcs
    friends = friendly_ids(world, guides)
    if friends.isdisjoint(here):
        return []
    npcs = world.npcs
    out = []
    for npc_id in here:
        npc = npcs.get(npc_id)
        if npc is not None and npc_id in friends and npc.hp > 0:
            out.append(npc)
    return out


class OfDefinitions(dict):  # type: ignore[type-arg]
    """Per object id, whether its definition is one of `definitions` (an instance counts under
    its definition), filled on demand."""

    def __init__(self, world: World, definitions: frozenset[str]) -> None:
        super().__init__()
        self.world, self.definitions = world, definitions

    def __missing__(self, oid: str) -> bool:
        found = self[oid] = self.world.def_of(oid).id in self.definitions
        return found


def of_definitions(world: World, definitions: Iterable[str]) -> OfDefinitions:
    """The `OfDefinitions` table of this world for these definitions (kept in `world.derived`,
    emptied when names or definitions change)."""
    kinds = tuple(definitions)
    key = (STATE_KEY, "of_definitions", kinds)
    table = world.derived.get(key)
    if table is None:
        table = world.derived[key] = OfDefinitions(world, frozenset(kinds))
    return table


# --------------------------------------------------------------------------------- coins
def coins_held(world: World, agent: AgentState) -> int:
    """Currency units in the coin sources: hands, the equipped inventory, held containers."""
    currency = world.currency_id
    if currency is None:
        return 0
    return sum(store.get(currency, 0) for store in carried_stores(world, agent))


def pay(world: World, agent: AgentState, amount: int, res: RuleResult) -> None:
    """Take `amount` currency units from the coin sources in their order (the caller checked)."""
    currency = world.currency_id
    if currency is None or amount <= 0:
        return
    left = amount
    sources = [(agent.hands, location("hand", agent.id))]
    box = inventory_of(world, agent)
    if box is not None:
        sources.append((box.items, location("container", box.id)))
    sources += [(c.items, location("container", c.id)) for c in held_containers(world, agent)]
    for store, where in sources:
        take = min(left, store.get(currency, 0))
        if take > 0:
            remove_count(store, currency, take)
            res.track_consume(agent.id, currency, take, where)
            left -= take
        if left <= 0:
            return


# ----------------------------------------------------------------------------- ground stacks
class Vulnerable(WorldTable):
    """Per ground id, its definition if decay, reclamation and cannibalising may take it: a
    defined, non-instance id whose definition is no station, currency or container and whose
    usage is not writable or unlock; else None. Quest objects are not protected (as published)."""

    def work_out(self, oid: str) -> ObjectDef | None:
        world = self.world
        if world.is_instance(oid):
            return None
        obj = world.find_def(oid)
        if obj is None or obj.category in (STATION, CURRENCY, CONTAINER):
            return None
        if obj.usage in (WRITABLE, UNLOCK):
            return None
        return obj


class VulnerableButQuest(Vulnerable):
    """`Vulnerable`, and not a quest object: a definition flagged `quest` or listed as
    undistributable (where the imported main quest puts its objects)."""

    def work_out(self, oid: str) -> ObjectDef | None:
        obj = super().work_out(oid)
        if obj is None or obj.quest:
            return None
        if obj.id in self.world.definition.initializations.undistributable_objects:
            return None
        return obj


def vulnerable_table(world: World, protect_quest: bool) -> Any:
    """The id -> definition-or-None table of what lies vulnerable on a ground (setting
    `protect_quest_objects` of the three rules that take from floors picks the second)."""
    return (VulnerableButQuest if protect_quest else Vulnerable).of(world)


TUTORIAL_KEY = "tutorial_room"  # world.auxiliary of the base pack's tutorial rule


def tutorial_place(world: World) -> str | None:
    """The tutorial place's id while it exists (its rooms are left alone), else None."""
    tutorial = world.auxiliary.get(TUTORIAL_KEY)
    place = tutorial.get("place_id") if tutorial else None
    return place if place in world.places else None


def tutorial_area(world: World, area_id: str) -> bool:
    place = tutorial_place(world)
    return place is not None and world.areas[area_id].place_id == place


def tell_area(game: GameView, res: RuleResult, area_id: str, key: str, text: str) -> None:
    """A line to every agent standing in an area."""
    if game.count_in(area_id):
        for agent in game.agents_in(area_id):
            res.say(agent.id, key, text)


def game_step_rule(game: GameView, name: str) -> Any:
    """The game's step rule of that name (the engine's game lists its rules in `step_rules`), or
    None: for a rule that must hand one agent to another now (a death in the middle of a tick)."""
    for rule in getattr(game, "step_rules", ()):
        if rule.name == name:
            return rule
    return None


def enemy_engagements(world: World, agent: AgentState) -> list[Npc]:
    """Enemies of the agent's combats that exist, in the order of its combats."""
    out = []
    for npc_id in agent.combats:
        npc = world.npcs.get(npc_id)
        if npc is not None and npc.enemy:
            out.append(npc)
    return out
