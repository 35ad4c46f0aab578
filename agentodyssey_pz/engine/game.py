"""`Game`: the headless engine - `reset(seed)`, then `tick({agent_id: action})` -> `TickResult`.

Layer: engine (no PettingZoo here). A game owns the world, the agents, the rule instances and one
seeded generator that every rule draws from. It is also the `GameView` the rules receive: the only
way rules move agents (`move_agent`) keeps the per-area agent index exact, so "who is here" costs
O(agents in the area).
"""

from __future__ import annotations

import datetime as dt
import numbers
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agentodyssey_pz.engine.config import MAX_AGENTS, GameConfig, format_time
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.engine.tick import run_tick, running_tick
from agentodyssey_pz.engine.worldpack import WorldPack, load_world_pack
from agentodyssey_pz.errors import AgentOdysseyError, CheckpointError, ConfigError, RuleError
from agentodyssey_pz.resources import BASE_PACK, rules_dir
from agentodyssey_pz.rules.base import BaseStepRule
from agentodyssey_pz.rules.dispatch import ActionRuleEngine
from agentodyssey_pz.rules.events import WORLD_STATE_CHANGED
from agentodyssey_pz.rules.packs import RuleSet, load_rule_set
from agentodyssey_pz.rules.parse import Command
from agentodyssey_pz.rules.rewards import RewardBreakdown, RewardFunction
from agentodyssey_pz.rules.settings import apply_rule_settings
from agentodyssey_pz.world.agents import AgentState
from agentodyssey_pz.world.expander import ProceduralExpander
from agentodyssey_pz.world.quests import QuestFile, quests_of_world
from agentodyssey_pz.world.schema import WorldDefinition
from agentodyssey_pz.world.synthesis import SynthesisOptions
from agentodyssey_pz.world.world import World

OPTIONAL_RULE_SETS = ("main_quest", "side_quest", "tutorial")
SECONDS_PER_DAY = 86400


def default_agent_ids(count: int) -> tuple[str, ...]:
    return tuple(f"agent_{i}" for i in range(count))


def checked_agent_ids(agent_ids: Sequence[str] | int) -> tuple[str, ...]:
    """A count (agents `agent_0` ...) or a sequence of distinct names, at most MAX_AGENTS."""
    if isinstance(agent_ids, int) and not isinstance(agent_ids, bool):
        ids = default_agent_ids(agent_ids) if 0 < agent_ids <= MAX_AGENTS else ()
    elif isinstance(agent_ids, (list, tuple)) and len(agent_ids) <= MAX_AGENTS:
        ids = tuple(agent_ids)
    else:
        ids = ()
    if not ids or len(set(ids)) != len(ids) or not all(isinstance(a, str) and a for a in ids):
        raise ConfigError(
            f"agent_ids: need a count or a list of distinct names, 1 to {MAX_AGENTS:,} of them, "
            f"got {agent_ids!r}"
        )
    return ids


class RuleHooks:
    """The step rules that override one of the optional hooks for packs (docs/rule-packs.md):
    none in most games, so the tick, the listings and the text observation ask nothing then.
    One attribute of the game for all of them (tests/test_attribute_layout.py)."""

    __slots__ = ("forcing", "sights")

    def __init__(self, forcing: list[BaseStepRule], sights: list[BaseStepRule]) -> None:
        self.forcing = forcing  # `forced_command`: may take an agent's turn
        self.sights = sights  # `ground_sights`: show things on the ground that are not objects

    @classmethod
    def of(cls, step_rules: Sequence[BaseStepRule]) -> RuleHooks:
        def overriding(name: str) -> list[BaseStepRule]:
            base = getattr(BaseStepRule, name)
            return [rule for rule in step_rules if getattr(type(rule), name) is not base]

        return cls(overriding("forced_command"), overriding("ground_sights"))


class Game:
    """One game: a world pack, a fixed list of agents, the rules, and the state of the episode."""

    def __init__(
        self,
        world: str | os.PathLike[str] | WorldDefinition | WorldPack = "default",
        agent_ids: Sequence[str] | int = 1,
        config: GameConfig | None = None,
        reward_function: RewardFunction | None = None,
        expansion_generator: Callable[[World, int], Any] | None = None,
        tracker_factory: Callable[[], Any] | None = None,
    ) -> None:
        self.config = config or GameConfig()
        # Makes a dependency tracker (e.g. agentodyssey_pz.deps.DependencyTracker) at every reset
        # and load; None: no tracker, and the tick does no tracking work at all.
        self.tracker_factory = tracker_factory
        # `(world, seed) -> expansion spec`, called when the world has been fully explored. None
        # leaves the expansion rule inactive, as the reference is without a language model
        # (docs/mechanics/step-rules.md#world-expansion); `world_expansion=True` asks for the
        # offline one.
        self.expansion_generator: Callable[[World, int], Any] | None = expansion_generator
        if expansion_generator is None and self.config.world_expansion:
            self.expansion_generator = ProceduralExpander()
        self.pack = load_world_pack(world)
        self.agent_ids: tuple[str, ...] = checked_agent_ids(agent_ids)
        ids = self.agent_ids
        self._order = {aid: i for i, aid in enumerate(ids)}
        # (start time, tick, that tick's time as text): every observation shows the text.
        self._clock: tuple[dt.datetime, int, str] = (self.config.start_datetime(), -2, "")
        self.rule_set: RuleSet = load_rule_set(
            [rules_dir() / BASE_PACK, *self.config.rule_packs, *self.pack.rule_packs]
        )
        self.engine = ActionRuleEngine(cls() for cls in self.rule_set.action_rules)
        self.step_rules = [cls() for cls in self.rule_set.step_rules]
        self.hooks = RuleHooks.of(self.step_rules)
        self.init_rules = [cls() for cls in self.rule_set.init_rules]
        apply_rule_settings(
            [*self.engine.rules.values(), *self.step_rules, *self.init_rules],
            self.pack.definition.features.rule_settings,
            self.pack.source,
        )
        if reward_function is None:
            if self.rule_set.reward_function is None:
                raise ConfigError("reward_function: no rule pack provides one and none was given")
            reward_function = self.rule_set.reward_function()
        self.reward_function = reward_function
        enabled = [event for event in OPTIONAL_RULE_SETS if self.is_enabled(event)]
        # A section is None exactly when its rule set is off (`is_enabled` is fixed per game):
        # the quest rules need no other switch. The definition the world is built from is the
        # world's plus its quests' NPCs and objects.
        self.quests: QuestFile
        self.definition: WorldDefinition
        self.quests, self.definition = quests_of_world(
            self.pack.definition,
            self.pack.quest_data,
            enabled,
            source=self.pack.quest_source or self.pack.source,
            root=self.pack.quest_root,
        )
        self.tracker: Any = None
        self.recorder: Any = None  # a checkpoint writer told of every tick (checkpoint.store)
        self._started = False
        # Why this game stopped: a tick that raised half-way left its changes so far in the state,
        # which must not be played on or saved (cleared by reset and load).
        self.stopped: str | None = None
        self._stopped_mid_tick = False

    # ------------------------------------------------------------------ episode
    @property
    def started(self) -> bool:
        """Whether the game has a state: `reset` or a load has run."""
        return self._started

    def reset(self, seed: int | None = None) -> TickResult:
        """Build a fresh world for `seed` and run the bootstrap tick (everyone idle, step rules
        initialise). Returns the bootstrap tick's result; afterwards `tick_index` is 0."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"reset: the seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)
        options = SynthesisOptions(
            eager_light_draw=self.config.eager_light_draw,
            zero_loot_keeps_prototype_count=self.config.zero_loot_keeps_prototype_count,
        )
        self.world: World = World.generate(self.definition, self.seed, options)
        self.rng = random.Random(self.seed)
        self.tick_index = -1
        self.terminated = False
        self.world_state: dict[str, Any] = {}
        self.scores = {aid: RewardBreakdown() for aid in self.agent_ids}
        self.agents: dict[str, AgentState] = {aid: self._new_agent(aid) for aid in self.agent_ids}
        self._by_area: dict[str, dict[str, None]] = {}
        for agent in self.agents.values():
            self._by_area.setdefault(agent.area_id, {})[agent.id] = None
        for rule in self.step_rules:
            rule.reset(self)
        self._start_tracker()
        self._started = True
        self.stopped = None
        try:
            return run_tick(self, {}, bootstrap=True)
        except BaseException as exc:
            self.stop(exc)
            raise

    def tick(self, actions: Mapping[str, Any]) -> TickResult:
        """Advance one tick. `actions` maps agent ids to text, a Command or (verb, params); a
        missing or unusable action is an invalid command for that agent (it does nothing)."""
        if not self._started:
            raise RuntimeError("call reset() before tick()")
        self.check_not_stopped()
        if self.terminated:
            raise RuntimeError("the episode has ended (main quest complete); call reset()")
        if not isinstance(actions, Mapping):
            raise TypeError(f"tick() takes a dict {{agent id: action}}, got {actions!r}")
        if not actions.keys() <= self.agents.keys():  # a set test in C, every tick
            unknown = [a for a in actions if a not in self.agents]
            raise KeyError(
                f"unknown agent ids {unknown}; this game's agents are {list(self.agent_ids)}"
            )
        try:
            result = run_tick(self, actions)
        except BaseException as exc:
            self.stop(exc)
            raise
        if self.recorder is not None:
            try:
                self.recorder.record(actions, result)
            except OSError as exc:  # a full disk, a folder gone read-only ...
                error = CheckpointError(
                    f"tick {result.tick} was played but could not be checkpointed "
                    f"({exc.strerror or exc}: {exc.filename or 'the checkpoint folder'})"
                )
                self.stop(error, mid_tick=False, failed="checkpoint could not be written")
                raise error from exc
        return result

    def stop(
        self,
        exc: BaseException,
        *,
        mid_tick: bool = True,
        failed: str = "results could not be read",
    ) -> None:
        """Something raised: half-way through a tick (a rule, or an interrupt), or after a whole
        tick (`mid_tick=False`: what `failed` for it - a rule's listing code reading its results,
        or its checkpoint). The game stops here; only a state a whole tick left may be saved."""
        reason = str(exc) if isinstance(exc, AgentOdysseyError) else f"{type(exc).__name__}: {exc}"
        if mid_tick:
            self.stopped = (
                f"this game stopped at {running_tick(self)}, which raised half-way ({reason}); "
                "its state is partly changed, so it cannot go on or be saved"
            )
        else:
            self.stopped = (
                f"this game stopped after tick {self.tick_index}, whose {failed} ({reason}); "
                "it cannot go on"
            )
        self._stopped_mid_tick = mid_tick

    def check_not_stopped(self, *, saving: bool = False) -> None:
        """Refuse to go on from a stopped game, or to save a state a failed tick half-wrote."""
        if self.stopped is not None and not (saving and not self._stopped_mid_tick):
            raise RuleError(
                f"{self.stopped}: call reset(), or resume from the last checkpoint (which holds "
                "the state before the tick that raised, or after the tick whose results could "
                "not be read)"
            )

    def install_state(
        self,
        *,
        world: World,
        agents: dict[str, AgentState],
        rng: random.Random,
        seed: int,
        tick_index: int,
        terminated: bool,
        world_state: dict[str, Any],
        scores: dict[str, RewardBreakdown],
    ) -> None:
        """Adopt a complete saved state (see engine.snapshot); rules then continue from it."""
        self.world, self.agents, self.rng = world, agents, rng
        self.seed, self.tick_index, self.terminated = seed, tick_index, terminated
        self.world_state, self.scores = world_state, scores
        self._by_area = {}
        for agent in self.agents.values():
            self._by_area.setdefault(agent.area_id, {})[agent.id] = None
        for rule in self.step_rules:
            rule.reset(self)  # drop caches built for another world object
        self._start_tracker()  # history is not saved: what exists now belongs to the root
        self._started = True
        self.stopped = None

    def _start_tracker(self) -> None:
        if self.tracker_factory is not None:
            self.tracker = self.tracker_factory()
            self.tracker.bootstrap(self)

    # ------------------------------------------------------------------ checkpoints
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the whole state to one JSON file, atomically."""
        from agentodyssey_pz.engine.snapshot import save

        if not self._started:
            raise RuntimeError("nothing to save yet: call reset() first")
        if Path(path).is_dir():
            raise CheckpointError(f"{path} is a folder; name the file to save the game in")
        save(self, path)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        world: str | os.PathLike[str] | WorldDefinition | WorldPack | None = None,
        *,
        rule_packs: Sequence[str] = (),
        reward_function: RewardFunction | None = None,
        tracker_factory: Callable[[], Any] | None = None,
        expansion_generator: Callable[[World, int], Any] | None = None,
    ) -> Game:
        """A game continuing exactly where `save` left it.

        A bundled or procedural world is rebuilt from its name; any other world from the
        definition inside the snapshot. A world with its own rule pack, or a game with extra rule
        packs, needs them named again here (code is never loaded from a path read from a file);
        so does an expansion generator the game was given (`world_expansion=True`'s offline one
        comes back by itself)."""
        from agentodyssey_pz.engine.snapshot import (
            config_of,
            read_snapshot,
            restore,
            trusted_world,
            warn_of_changed_packs,
        )

        data = read_snapshot(path)
        config = config_of(data)
        if tuple(config.rule_packs) != GameConfig(rule_packs=tuple(rule_packs)).rule_packs:
            raise CheckpointError(
                f"{path}: saved with extra rule packs {list(config.rule_packs)}; pass the same "
                "folders as rule_packs= (on the command line: --rule-pack) to load it"
            )
        if world is None:
            world = trusted_world(data, str(path))
        game = cls(
            world,
            data["agent_ids"],
            config,
            reward_function,
            expansion_generator=expansion_generator,
            tracker_factory=tracker_factory,
        )
        restore(game, data, source=str(path))
        warn_of_changed_packs(game, data, str(path))
        return game

    def _new_agent(self, agent_id: str) -> AgentState:
        cfg = self.config
        spawn = self.world.spawn_area
        return AgentState(
            id=agent_id,
            name=agent_id,
            area_id=spawn,
            hp=cfg.start_hp,
            max_hp=cfg.start_hp,
            min_attack=cfg.start_attack,
            attack=cfg.start_attack,
            visited={spawn: None},
            tutorial_passed=not self.is_enabled("tutorial"),
        )

    # ------------------------------------------------------------------ GameView for rules
    def forced_turn(self, agent: AgentState) -> tuple[BaseStepRule, Command] | None:
        """(rule, command) when a step rule makes `agent` play that command this tick instead of
        its own (a lost turn: `BaseStepRule.forced_command`), else None."""
        for rule in self.hooks.forcing:
            command = rule.forced_command(self, agent)
            if command is not None:
                return rule, command
        return None

    def move_agent(self, agent: AgentState, area_id: str) -> None:
        here = self._by_area.get(agent.area_id)
        if here is not None:
            here.pop(agent.id, None)
        self._by_area.setdefault(area_id, {})[agent.id] = None
        agent.area_id = area_id

    def count_in(self, area_id: str) -> int:
        """How many agents stand in `area_id` (O(1))."""
        here = self._by_area.get(area_id)
        return len(here) if here else 0

    def occupied_areas(self) -> set[str]:
        """The areas where some agent stands: for rules that ask `count_in` of every area."""
        return {area_id for area_id, here in self._by_area.items() if here}

    def agents_in(self, area_id: str) -> list[AgentState]:
        """Agents standing in `area_id`, in agent order."""
        here = self._by_area.get(area_id)
        if not here:
            return []
        agents = self.agents
        if len(here) == 1:
            for a in here:  # no comprehension for the one agent (the common case)
                return [agents[a]]
        return [agents[a] for a in sorted(here, key=self._order.__getitem__)]

    def is_enabled(self, custom_event: str) -> bool:
        override = {
            "tutorial": self.config.tutorial,
            "main_quest": self.config.main_quest,
            "side_quest": self.config.side_quest,
        }.get(custom_event)
        if override is not None:
            return override
        return custom_event in self.pack.definition.custom_events

    @property
    def tutorial_active(self) -> bool:
        """Some agent still has a tutorial room (`world.auxiliary["tutorial_room"]["rooms"]`)."""
        tutorial = self.world.auxiliary.get("tutorial_room")
        return bool(tutorial and tutorial.get("rooms"))

    def in_tutorial_room(self, agent: AgentState) -> bool:
        """The agent stands in a tutorial room (an area of the tutorial place)."""
        tutorial = self.world.auxiliary.get("tutorial_room")
        if not tutorial:
            return False
        area = self.world.areas.get(agent.area_id)
        return area is not None and area.place_id == tutorial.get("place_id")

    def expansion_enabled(self) -> bool:
        """World expansion: GameConfig.world_expansion, else features.online_expansion; never
        without a generator (as the reference without a language model)."""
        if self.expansion_generator is None:
            return False
        if self.config.world_expansion is not None:
            return self.config.world_expansion
        return self.definition.features.online_expansion

    def set_world_state(self, key: str, value: Any, res: Any) -> None:
        old = self.world_state.get(key)
        self.world_state[key] = value
        res.emit(WORLD_STATE_CHANGED, "env", {"key": key, "old": old, "new": value})

    # ------------------------------------------------------------------ reading
    @property
    def time(self) -> dt.datetime:
        elapsed = max(self.tick_index, 0) * self.config.tick_seconds
        return self._clock[0] + dt.timedelta(seconds=elapsed)

    def seconds_of_day(self) -> int:
        """Seconds since midnight at `time`, worked out from whole seconds rather than a new
        datetime (a fraction of the cost; the observation vector reads it every tick). The start
        has no fractions of a second (the config's time format has none)."""
        start = self._clock[0]
        elapsed = max(self.tick_index, 0) * self.config.tick_seconds
        since = start.hour * 3600 + start.minute * 60 + start.second + elapsed
        return since % SECONDS_PER_DAY

    @property
    def time_text(self) -> str:
        start, tick, text = self._clock
        if tick != self.tick_index:
            text = format_time(self.time)
            self._clock = (start, self.tick_index, text)
        return text

    def agent(self, agent_id: str) -> AgentState:
        return self.agents[agent_id]

    def iter_agents(self) -> Iterable[AgentState]:
        return self.agents.values()
