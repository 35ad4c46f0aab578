"""`RuleContext`: what a rule is handed - the world, the game's API, the acting agent and its
command.

Layer: rule framework. Rules never import the engine; they reach the game through the `GameView`
protocol below, which the engine's `Game` implements. Everything random goes through `game.rng`, a
generator held in the game state, so results depend only on the seed and the order rules run in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

import attrs

from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.world import World

# `RuleContext.shared`: what the listings of one listing phase share (None outside one).
Shared = dict[Any, Any] | None


class GameView(Protocol):
    """The part of the game a rule may read and change (implemented by `engine.game.Game`)."""

    world: World

    @property
    def agents(self) -> Mapping[str, AgentState]:
        """Every agent by id, in the fixed agent order."""

    rng: random.Random
    config: Any  # the engine's GameConfig: read named fields, never mutate
    quests: Any  # quest data of the world pack (None when the world has none)
    tick_index: int  # ticks completed before this one (-1 during the bootstrap tick)
    seed: int  # the episode seed (rules derive dedicated generators from it, e.g. guide names)
    world_state: dict[str, Any]
    # `(world, seed) -> expansion spec` (docs/mechanics/world-synthesis.md#world-expansion); None
    # disables world expansion.
    expansion_generator: Callable[[World, int], Any] | None

    def move_agent(self, agent: AgentState, area_id: str) -> None:
        """Move an agent, keeping the per-area agent index right."""

    def agents_in(self, area_id: str) -> Iterable[AgentState]:
        """Agents standing in an area, in agent order; O(agents there)."""

    def count_in(self, area_id: str) -> int:
        """How many agents stand in an area; O(1)."""

    def occupied_areas(self) -> set[str]:
        """The areas where some agent stands (`count_in` above 0); O(areas agents stood in)."""

    def is_enabled(self, custom_event: str) -> bool:
        """Whether an optional rule set (main_quest, side_quest, tutorial) is on for this game."""

    @property
    def tutorial_active(self) -> bool:
        """True while a tutorial room exists (some agent has not finished it)."""

    def in_tutorial_room(self, agent: AgentState) -> bool:
        """Whether the agent stands in a tutorial room (rewards, ambushes and combat skip it)."""

    def expansion_enabled(self) -> bool:
        """Whether the world grows when it has been fully explored."""

    def set_world_state(self, key: str, value: Any, res: Any) -> None:
        """Write one key of the persistent world_state dict and emit `world_state_changed`."""


class NoActor:
    """`RuleContext.actor` where there is no acting agent (step and init rules): any use of it
    says so."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(
            f"ctx.actor.{name}: step rules have no acting agent (every agent is in ctx.game.agents)"
        )

    def __repr__(self) -> str:
        return "NO_ACTOR"


NO_ACTOR: Any = NoActor()


@attrs.define(slots=True)
class RuleContext:
    """One rule application: the agent and command for action rules, `agent=None` for step rules."""

    game: GameView
    world: World
    agent: AgentState | None
    action: str  # the verb's canonical id (`pick_up`), "" for step rules
    params: tuple[str, ...]
    step_index: int
    # While an environment lists what its agents may do (masks, valid actions), nothing changes:
    # listing code may keep what every agent of an area would work out alike here (the ground's
    # containers, their contents) under keys of its own. None outside such a phase.
    shared: Shared = None
    # The acting agent (action rules; NO_ACTOR for step rules): `agent` without the None, a plain
    # slot rather than a property because rules read it on every call (1.5% of a whole step).
    actor: AgentState = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        self.actor = self.agent if self.agent is not None else NO_ACTOR


T = TypeVar("T")


def once_per_phase(shared: Shared, key: Any, compute: Callable[..., T], *args: Any) -> T:
    """`compute(*args)`, worked out once per listing phase under `key` when `shared` (a
    `RuleContext.shared`) is given, so every agent of a crowded area reads the same answer; the
    answer must depend on the state alone, not on who asks, and must never be changed."""
    if shared is None:
        return compute(*args)
    found = shared.get(key)
    if found is None:
        found = shared[key] = compute(*args)
    return found


class WorldTable(dict):  # type: ignore[type-arg]
    """Per object id, a fact worked out from the world's names and definitions alone (`work_out`),
    filled on demand and kept in `World.derived`, which the world empties whenever those change:
    `Table.of(world)[oid]` costs a dict lookup once the id has been asked about. For listings that
    ask the same thing of the same objects tick after tick."""

    def __init__(self, world: World) -> None:
        super().__init__()
        self.world = world

    @classmethod
    def of(cls, world: World) -> Any:
        table = world.derived.get(cls)
        if table is None:
            table = world.derived[cls] = cls(world)
        return table

    def __missing__(self, oid: str) -> Any:
        value = self[oid] = self.work_out(oid)
        return value

    def work_out(self, oid: str) -> Any:
        raise NotImplementedError
