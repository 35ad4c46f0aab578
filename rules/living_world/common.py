"""What the `living_world` rules share: the tutorial phase, the clock, the modifier bag, and small
helpers to put things on a ground, tell the agents standing there, and make NPCs.

Rule pack `living_world` (docs/rule-packs.md#the-livingworld-pack). Imported relatively by the
pack's modules (`from .common import ...`).

The tutorial phase: AgentOdyssey's games run one tutorial room for everyone; ours gives each agent
a room of its own and removes it when its agent leaves. "The tutorial is active" (world rules pause
or skip it) maps to "some agent still has its tutorial room" (`game.tutorial_active`): the phase
ends for everyone when the last room goes, as the reference's ends when its one room goes. A
"tutorial area" is any room of the tutorial place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import GameView
from agentodyssey_pz.rules.events import WORLD_AGENT, location
from agentodyssey_pz.rules.state_shape import rule_state_problems
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.schema import NpcDef
from agentodyssey_pz.world.world import World

TUTORIAL_KEY = "tutorial_room"  # world.auxiliary of the base pack's tutorial rule
MERCHANT_ROLE = "merchant"

# ------------------------------------------------------------------------------------- the clock
SLOT_SECONDS = 600  # the day cycle counts ten-minute slots: 144 a day, 6 an hour
SLOTS_PER_DAY = 144
SLOTS_PER_HOUR = 6


def start_seconds(config: Any) -> int:
    """Seconds since midnight at the game's start time (GameConfig.start_time)."""
    start = config.start_datetime()
    return start.hour * 3600 + start.minute * 60 + start.second


def clock_slot(tick_index: int, start: int, tick_seconds: int) -> int:
    """The day-cycle clock T during a tick: ten-minute slots since midnight of the start day, at
    the time the agents read once the tick is over (the bootstrap tick, -1, reads the start
    time). With the default clock (start 08:00, 600 s a tick) this is `tick_index + 49`."""
    return (start + (tick_index + 1) * tick_seconds) // SLOT_SECONDS


# ----------------------------------------------------------------------------- the tutorial phase
def tutorial_phase(game: GameView) -> bool:
    """Some agent still has its tutorial room (the reference's "tutorial active")."""
    return game.tutorial_active


def tutorial_place(world: World) -> str | None:
    """The tutorial place's id while it exists, else None."""
    tutorial = world.auxiliary.get(TUTORIAL_KEY)
    if not tutorial:
        return None
    place = tutorial.get("place_id")
    return place if place in world.places else None


# ---------------------------------------------------------------------------- the modifier bag
BAG_KEY = "modifier_bag"
OVERRIDE = "ambush_prob_override"
ADDITIVE = "ambush_prob_additive"
MULTIPLIER = "ambush_prob_multiplier"
DAMAGE_MULTIPLIER = "enemy_damage_multiplier"
DAMAGE_BONUS = "enemy_attack_damage_bonus"
BAG_DEFAULTS: Mapping[str, Any] = {
    OVERRIDE: None,
    ADDITIVE: 0.0,
    MULTIPLIER: 1.0,
    DAMAGE_MULTIPLIER: 1.0,
    DAMAGE_BONUS: 0,
}


def modifier_bag(world: World) -> dict[str, Any]:
    """This tick's modifiers of the ambush rule, kept in `world.auxiliary` (so a resumed game
    reads what the saved one would have; AgentOdyssey keeps it unsaved). Missing keys read as
    BAG_DEFAULTS."""
    bag = world.auxiliary.get(BAG_KEY)
    if bag is None:
        bag = world.auxiliary[BAG_KEY] = {}
    return bag


def add_to_ambush_chance(world: World, amount: float) -> None:
    """Add to the bag's `ambush_prob_additive`, for every agent this tick."""
    bag = modifier_bag(world)
    bag[ADDITIVE] = bag.get(ADDITIVE, 0.0) + amount


# ---------------------------------------------------------------------------- the soundscape
SOUNDSCAPE_KEY = "soundscape"  # {noise: {area: float}, quiet_steps: {area: int}, loud_flags: ...}


def soundscape_state(world: World) -> dict[str, Any]:
    """The soundscape's noise table (the rumour mill lowers it before the soundscape first runs)."""
    state = world.auxiliary.get(SOUNDSCAPE_KEY)
    if state is None:
        state = world.auxiliary[SOUNDSCAPE_KEY] = {"noise": {}, "quiet_steps": {}, "loud_flags": {}}
    return state


# ------------------------------------------------------------------------------------- reading
T = TypeVar("T")


def derived(world: World, compute: Callable[[World], T]) -> T:
    """`compute(world)`, worked out from names and definitions alone, kept in `world.derived`
    until those change."""
    found = world.derived.get(compute)
    if found is None:
        found = world.derived[compute] = compute(world)
    return found


def has_merchant(world: World, area: Area) -> bool:
    npcs = world.npcs
    for npc_id in area.npcs:  # noqa: SIM110 - a plain loop: a few NPCs, every area, every tick
        if npcs[npc_id].role == MERCHANT_ROLE:
            return True
    return False


def has_enemy(world: World, area: Area) -> bool:
    npcs = world.npcs
    for npc_id in area.npcs:  # noqa: SIM110 - as above
        if npcs[npc_id].enemy:
            return True
    return False


def named_counts(world: World, counts: Mapping[str, int]) -> str:
    """`2 coin, 1 apple` (instances by their own names; an id the world does not know, as is)."""
    return ", ".join(
        f"{n} {world.name_of(oid) if world.find_def(oid) is not None else oid}"
        for oid, n in counts.items()
    )


# ------------------------------------------------------------------------------------- changing
def tell_area(game: GameView, res: RuleResult, area_id: str, key: str, text: str) -> None:
    """A line to every agent standing in an area."""
    if game.count_in(area_id):
        for agent in game.agents_in(area_id):
            res.say(agent.id, key, text)


def drop_units(
    world: World, res: RuleResult, area_id: str, def_id: str, count: int, by: str = WORLD_AGENT
) -> None:
    """`count` new units of a definition on an area's ground (fresh instances for containers and
    writables), tracked as spawned there."""
    for oid, n in world.spawn_on_ground(area_id, def_id, count):
        res.track_spawn(by, oid, n, location("area", area_id))


def first_roaming_enemy(world: World) -> NpcDef | None:
    """The first non-unique enemy prototype in definition order (quest prototypes aside)."""
    for proto in world.npc_protos.values():
        if proto.enemy and not proto.unique and not proto.quest:
            return proto
    return None


# ---------------------------------------------------------------------------------- saved state
class KeepsStates:
    """A step rule keeping several `world.auxiliary` keys: `states` maps each key to its shape
    (rules.state_shape), checked when a saved game loads."""

    states: Mapping[str, Any] = {}

    def check_saved_state(self, world: World, agents: Any) -> list[str]:
        problems = super().check_saved_state(world, agents)
        for key, shape in self.states.items():
            problems += rule_state_problems(world, agents, key, None, shape)
        return problems
