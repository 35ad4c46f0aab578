"""AgentOdyssey as a PettingZoo ParallelEnv: a thin adapter over the headless `Game`.

Layer: adapter.

## Agents
`agent_0` ... `agent_{n-1}` (`num_agents`), fixed for the life of the env. Agents act in that order
within a tick. They respawn instead of dying, so the agent set never shrinks during an episode; it
empties (`agents == []`) when the episode ends.

## Action space
`action_mode="discrete"` (default): `Discrete(N)` over a fixed catalogue derived from the world
definition (wait, defend, enter each area, pick up / drop / equip / unequip / inspect each object
kind, and `inspect inventory`, craft 1 of each craftable, attack / talk to each NPC prototype, buy /
sell 1 of each tradable object, store / take out / discard 1 of each storable object with the
inventory or with a container held in hand, and `write "<text>" <writable>` for each text the
world's quests ask for). `action_name(agent, i)` tells what index i means (definition names);
`action_command(agent, i)` the command it runs for that agent now (the instance in reach).
When the world expands (`world_expansion=True`: the offline procedural generator grows it once it
is fully explored; or `expansion_generator=`, e.g. a language model's, for a world whose
`online_expansion` is on), each targeted verb also has `expansion_slots` spare entries per kind
(areas, object kinds, NPC prototypes), bound in the order expansion adds them; an unbound one is
masked and executes as an invalid action. The observation vector has the same spare slots.
`action_mode="text"`: a gymnasium `Text` command such as `craft 1 rope`. `step` accepts ints,
strings or `Command`s for any agent in either mode.

## Observation space
`Dict({"observation": Box(float32, [-1, 1]), "action_mask": Box(int8, {0, 1})})`; the vector layout
is documented by `observation_layout()`. `obs_mode="text"` adds `"text"`, the text observation;
`obs_mode="text_only"` gives only the text (plus the action mask when actions are discrete), what a
language agent reads, without paying for the vector. A text longer than `text_max_length` is cut
at its longest lines first (a crowded area's people list), so stats and neighbours stay. The mask
is exact: with the other agents
idle, an unmasked action always takes effect (`infos[a]["action_ok"]` True) and a masked one never
would. In a world with darkness (`features.darkness`), an agent in an unlit area without a light in
hand sees no hands, equipment, ground or people, in the text and in the vector (its last slot,
`in_darkness`, is then 1); it is offered only wait, defend and unlocked paths, each of which takes
effect, while a masked action may take effect too (acting blind; docs/world-format.md#91-darkness).

## Rewards
A float per agent: the tick's RewardBreakdown weighted by `reward_weights` (default: the reference's
`rl_total`, i.e. XP + 5 per unique kill - 10 per death). `vector_reward=True` returns the eight
components instead. Every info dict carries `reward_breakdown` from `reset()` on. Infos stay small
on purpose: vectorisers (SuperSuit) deep-copy every info of every step in the learner's process.

## Termination and truncation
All agents terminate when any agent completes the main quest; all are truncated after `max_cycles`
steps.

## Arguments
See `EnvConfig` (world, num_agents, obs_mode, action_mode, max_cycles, tutorial, world_expansion,
reward_weights, vector_reward, valid_actions_in_info, render_mode, ...) and the presets `small`,
`medium`, `large` (procedural worlds of about 10, 100 and 1,000 areas). `GameConfig` fields may be
given directly too, e.g. `rule_packs=["my_pack"]` (docs/rule-packs.md) or `tick_seconds=60`.

## Version history
- v0: first release.
"""

from __future__ import annotations

import difflib
import json
import os
import random
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from agentodyssey_pz.adapter.config import EnvConfig, make_config
from agentodyssey_pz.adapter.spaces import (
    action_space,
    command_charset,
    observation_space,
    sanitize,
    text_charset,
)
from agentodyssey_pz.deps import DependencyTracker
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.observe.catalogue import ActionCatalogue
from agentodyssey_pz.observe.encode import ObservationLayout, VectorEncoder
from agentodyssey_pz.observe.listing_cache import ListingCache
from agentodyssey_pz.observe.masks import MaskOptions, action_mask, resolve_entry, valid_actions
from agentodyssey_pz.observe.slots import SpareSlots
from agentodyssey_pz.observe.text import ItemLists, tick_observation
from agentodyssey_pz.rules.parse import ParseFailure, command_text
from agentodyssey_pz.rules.rewards import COMPONENTS, RewardBreakdown
from agentodyssey_pz.world.quests import texts_to_write

VERSION = 0


class AgentOdysseyParallelEnv(ParallelEnv):
    metadata = {
        "name": f"agentodyssey_v{VERSION}",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": True,
        "render_fps": 2,
    }

    def __init__(self, config: EnvConfig | None = None, **overrides: Any) -> None:
        if config is None:
            config = make_config(**overrides)
        elif overrides:
            raise TypeError("pass either an EnvConfig or keyword settings, not both")
        self.config = config
        self.render_mode = config.render_mode
        tracking = config.game.track_dependencies or config.save_dep_graph_steps is not None
        self._tracker_factory = DependencyTracker if tracking else None
        try:
            self.game = Game(
                config.world,
                config.num_agents,
                config.game_config(),
                expansion_generator=config.expansion_generator,
                tracker_factory=self._tracker_factory,
            )
        except FileNotFoundError as exc:
            raise ConfigError(f"world: {exc}") from exc
        if config.expansion_generator is not None and not self.game.expansion_enabled():
            warnings.warn(
                "expansion_generator will never be called: this world's online_expansion is off "
                "(pass world_expansion=True to grow it anyway)",
                stacklevel=3,
            )
        self.possible_agents: list[str] = list(self.game.agent_ids)
        self.agents: list[str] = []
        spare = config.spare_slots(self.game.expansion_enabled())
        self.catalogue = ActionCatalogue(
            self.game.definition, self.game.engine.rules, spare, texts_to_write(self.game.quests)
        )
        self.layout = ObservationLayout(self.game.definition, spare)
        self.encoder = VectorEncoder(self.layout, config.num_agents)
        self._spare_slots = SpareSlots(self.layout, self.catalogue, self.encoder)
        self._text_obs = config.obs_mode in ("text", "text_only")
        self._vector_obs = config.obs_mode != "text_only"
        self._charset = text_charset(self.game.definition, self.game.pack.quest_data)
        n_actions = len(self.catalogue)
        # With text actions the discrete catalogue's mask is not a mask of the action space: it is
        # offered as "catalogue_mask", so samplers that read "action_mask" do not misuse it.
        # A text-only observation for text actions carries no mask at all.
        self._mask_key: str | None = (
            "action_mask"
            if config.action_mode == "discrete"
            else "catalogue_mask"
            if self._vector_obs
            else None
        )
        obs_space = observation_space(
            self.layout.size,
            n_actions,
            text=self._text_obs,
            vector=self._vector_obs,
            charset=self._charset,
            max_length=config.text_max_length,
            mask_key=self._mask_key,
        )
        command_chars = command_charset(self.game.definition, texts_to_write(self.game.quests))
        # One space object per agent, built once (seeding one never reseeds another).
        self._observation_spaces = {
            a: obs_space if i == 0 else _copy_space(obs_space)
            for i, a in enumerate(self.possible_agents)
        }
        self._action_spaces = {
            a: action_space(n_actions, text=config.action_mode == "text", charset=command_chars)
            for a in self.possible_agents
        }
        self.state_space = spaces.Box(
            -1.0, 1.0, shape=(len(self.possible_agents) * self.layout.size,), dtype=np.float32
        )
        weights = config.weights
        self._weighted = tuple((c, weights[c]) for c in COMPONENTS if weights[c] != 0.0)
        self._episode_seeds: random.Random | None = None
        self._last: TickResult | None = None
        self._options: dict[str, MaskOptions] = {}
        # Listings of reach-only verbs, kept while an agent's reach is unchanged (masks and valid
        # actions are most of a step's cost; an agent's reach often holds from tick to tick).
        self._listings = ListingCache()
        self._item_lists = ItemLists()  # the text observation's item lists, by content
        self._stopping_on_error = StoppingOnError(self)
        self._writer: Any = None
        self._episodes = 0
        self.num_cycles = 0

    # ------------------------------------------------------------------ spaces and metadata
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def action_name(self, agent: str, index: int) -> str:
        """What a discrete action index means: its canonical command, with definition names
        (`pick up flour_sack`; the command it runs names what is in reach, `action_command`)."""
        self._check_agent(agent)
        return self.catalogue.entries[self._check_index(index)].label

    def action_command(self, agent: str, index: int) -> str:
        """The text command a discrete action index runs for `agent` now, e.g.
        `pick up flour_sack_3` (its canonical command when it is not possible now; for a spare
        slot nothing is bound to, which runs nothing, its label)."""
        self._check_agent(agent)
        self._check_started("action_command")
        index = self._check_index(index)
        if index in self.catalogue.unbound:
            return self.catalogue.entries[index].label
        command = resolve_entry(self.game, agent, self.catalogue, index, self._options.get(agent))
        return command_text(self.game.engine.rules[command.verb].verb, command.params)

    def _check_agent(self, agent: str) -> None:
        if agent not in self._action_spaces:
            raise KeyError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")

    def _check_index(self, index: Any) -> int:
        n = len(self.catalogue)
        if isinstance(index, (int, np.integer)) and not isinstance(index, bool) and 0 <= index < n:
            return int(index)
        raise IndexError(f"action index {index!r} is outside 0..{n - 1} (Discrete({n}))")

    def _check_started(self, what: str) -> None:
        if self._last is None:
            raise RuntimeError(f"call reset() before {what}()")

    @property
    def last_result(self) -> TickResult | None:
        """The engine's result of the latest reset or step (feedback with its keys, events,
        reward breakdowns); None before the first reset."""
        return self._last

    def observation_layout(self) -> str:
        """The documented layout of the observation vector, one line per segment."""
        return self.layout.describe()

    # ------------------------------------------------------------------ episode
    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None and (
            not isinstance(seed, (int, np.integer)) or isinstance(seed, (bool, np.bool_))
        ):
            raise TypeError(f"reset(seed=...): an integer or None, got {seed!r}")
        if seed is not None and seed < 0:  # as gymnasium's seeding refuses them
            raise ValueError(f"reset(seed=...): a non-negative integer, got {seed}")
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"reset(options=...): a dict or None, got {options!r}")
        for key in set(options or ()) - RESET_OPTIONS:
            # Other keys are the caller's business (PettingZoo's api_test passes its own), but a
            # misspelt "resume" would quietly start a fresh episode.
            near = difflib.get_close_matches(str(key), RESET_OPTIONS, n=1, cutoff=0.7)
            if near:
                warnings.warn(
                    f"reset(options=...): ignoring {key!r}; did you mean {near[0]!r}?",
                    stacklevel=2,
                )
        resume = (options or {}).get("resume")
        if resume is not None and not isinstance(resume, (str, os.PathLike)):
            raise TypeError(
                f"reset(options={{'resume': ...}}): a checkpoint folder or snapshot file path, "
                f"got {resume!r}"
            )
        if seed is not None:
            self._episode_seeds = random.Random(int(seed))
            episode_seed: int | None = int(seed)
        elif self._episode_seeds is not None:
            episode_seed = self._episode_seeds.randrange(2**31)
        else:
            episode_seed = None
        result = self._resume(resume) if resume is not None else self.game.reset(episode_seed)
        self.encoder.reset()
        self._spare_slots.sync(self.game.world)
        self._options = {}
        self._listings.clear()
        self.num_cycles = max(self.game.tick_index, 0)
        # A resumed episode may have ended already: by its main quest, or by truncation.
        ended = self.game.terminated or self.num_cycles >= self.config.max_cycles
        self.agents = [] if ended else list(self.possible_agents)
        self._last = result
        self._start_journal()
        with self._stopping_on_error, self._listings.listing_phase():
            observations = {a: self._observe(a, result) for a in self.agents}
            infos = {a: self._info(a, result) for a in self.agents}
        if self.render_mode == "human":  # gymnasium's convention: human mode renders by itself
            self.render()
        return observations, infos

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        self._check_started("step")
        if not isinstance(actions, Mapping):
            raise TypeError(f"step() takes a dict {{agent: action}}, got {type(actions).__name__}")
        if not self.agents:  # after the episode ended: nothing happens (PettingZoo tolerates it)
            return {}, {}, {}, {}, {}
        if not actions.keys() <= self._action_spaces.keys():  # a set test in C, every step
            unknown = [a for a in actions if a not in self._action_spaces]
            # a typo would leave an agent doing nothing, silently
            raise KeyError(f"step(): unknown agents {unknown}; the agents are {self.agents}")
        commands = {a: self._command(a, act) for a, act in actions.items()}
        result = self.game.tick(commands)
        self._spare_slots.sync(self.game.world)
        self._last = result
        self.num_cycles += 1
        every = self.config.save_dep_graph_steps
        if every is not None and result.tick % every == 0:
            self._save_dep_graph(result.tick)
        terminated = result.terminated
        truncated = self.num_cycles >= self.config.max_cycles and not terminated
        agents = self.agents
        with self._stopping_on_error, self._listings.listing_phase():
            observations = {a: self._observe(a, result) for a in agents}
            rewards, infos = {}, {}
            for a in agents:  # whether the breakdown is all zero, asked once for both
                breakdown = result.rewards[a]
                zero = breakdown.is_zero
                rewards[a] = self._reward(breakdown, zero)
                infos[a] = self._info(a, result, zero)
        terminations = dict.fromkeys(agents, terminated)
        truncations = dict.fromkeys(agents, truncated)
        if terminated or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _save_dep_graph(self, tick: int) -> None:
        """The dependency graph's JSON summary of this tick
        (docs/mechanics/dependency-tracking.md#exports)."""
        from agentodyssey_pz.deps.export import write_summary

        if self.game.tracker is None:
            return
        root = self.config.dep_graph_dir or self.checkpoint_folder or "."
        name = f"dependency_graph_step_{tick}_dep.json"
        write_summary(self.game.tracker, Path(root) / "dep_graphs" / name)

    # ------------------------------------------------------------------ checkpoints
    def _resume(self, path: Any) -> TickResult:
        """Continue a saved game: a checkpoint folder (snapshot + journal) or one snapshot file."""
        from agentodyssey_pz.checkpoint import resume

        source = Path(path)
        code = {  # what the saved game ran with that a file never holds
            "rule_packs": tuple(self.config.game.rule_packs),
            "tracker_factory": self._tracker_factory,
            "expansion_generator": self.config.expansion_generator,
        }
        if source.is_dir():
            game = resume(source, self.config.world, snapshot_every=None, **code)
        else:
            game = Game.load(source, self.config.world, **code)
        if game.agent_ids != self.game.agent_ids:
            raise ValueError(
                f"{path}: saved with agents {game.agent_ids}, this env has {self.game.agent_ids}"
            )
        saved, mine = attrs.asdict(game.config), attrs.asdict(self.config.game_config())
        played, seeds = None, None
        if source.is_dir():
            played, seeds = _read_episode_record(source / EPISODE_FILE)
        if played is not None:  # None: a snapshot file, or a folder from before it was saved
            saved["max_cycles"], mine["max_cycles"] = played, self.config.max_cycles
        _check_same_settings(path, saved, mine)
        if source.is_dir():
            self._episode_seeds = seeds
        self.game = game
        return _resumed_result(game)

    def _start_journal(self) -> None:
        """With `checkpoint_dir`, each episode journals into its own numbered folder."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self.config.checkpoint_dir is None:
            return
        from agentodyssey_pz.checkpoint import CheckpointWriter

        root = Path(self.config.checkpoint_dir)
        try:
            root.mkdir(parents=True, exist_ok=True)
            while True:  # claimed by creating it: envs in other processes may share the root
                self._episodes += 1
                folder = root / f"episode-{self._episodes:05d}"
                try:
                    folder.mkdir()
                    break
                except FileExistsError:
                    continue
        except OSError as exc:
            raise ConfigError(
                f"checkpoint_dir: cannot make an episode folder in {str(root)!r}: {exc.strerror}"
            ) from exc
        self._writer = CheckpointWriter(self.game, folder, self.config.snapshot_every)
        from agentodyssey_pz.engine.snapshot import write_atomically

        # What a resume of this folder must agree with, and the seeds the episodes after it get.
        seeds = self._episode_seeds
        episode = {
            "max_cycles": self.config.max_cycles,
            "seed_stream": None if seeds is None else _stream_state(seeds),
        }
        write_atomically(folder / EPISODE_FILE, json.dumps(episode))

    @property
    def checkpoint_folder(self) -> str | None:
        """Where the current episode is being journaled (None without `checkpoint_dir`)."""
        return str(self._writer.folder) if self._writer is not None else None

    # ------------------------------------------------------------------ per agent
    def _command(self, agent: str, action: Any) -> Any:
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            index, n = int(action), len(self.catalogue)
            if not 0 <= index < n:  # an invalid command: the agent does nothing
                return ParseFailure(f"action index {index} is outside 0..{n - 1}")
            if index in self.catalogue.unbound:
                return ParseFailure(f"action index {index} is a spare slot nothing is bound to")
            return resolve_entry(self.game, agent, self.catalogue, index, self._options.get(agent))
        if isinstance(action, np.ndarray) and action.shape == ():
            return self._command(agent, action.item())
        return action  # text or Command: the engine parses or rejects it

    def _observe(self, agent: str, result: TickResult) -> dict[str, Any]:
        obs: dict[str, Any] = {}
        if self._vector_obs:
            state = self.game.agents[agent]
            obs["observation"] = self.encoder.encode(self.game, state)
        if self._mask_key is not None:
            options: MaskOptions = {}
            obs[self._mask_key] = action_mask(
                self.game, agent, self.catalogue, options=options, cache=self._listings
            )
            self._options[agent] = options  # the state is unchanged until the next step starts
        if self._text_obs:
            text = tick_observation(
                self.game,
                agent,
                result.feedback(agent),
                bootstrap=result.bootstrap,
                terminated=result.terminated,
                item_lists=self._item_lists,
            )
            obs["text"] = sanitize(text, self._charset, self.config.text_max_length)
        return obs

    def _reward(self, breakdown: RewardBreakdown, zero: bool) -> Any:
        if self.config.vector_reward:
            return np.array([getattr(breakdown, c) for c in COMPONENTS], dtype=np.float32)
        if zero:  # most ticks
            return 0.0
        return float(sum(getattr(breakdown, c) * w for c, w in self._weighted))

    def _info(self, agent: str, result: TickResult, zero: bool | None = None) -> dict[str, Any]:
        """The agent's info; `zero`: whether its reward breakdown is all zero, when known."""
        breakdown = result.rewards[agent]
        if zero is None:
            zero = breakdown.is_zero
        shown = _NO_REWARD if zero else FrozenDict(breakdown.as_dict())
        info: dict[str, Any] = {
            "action_ok": bool(result.action_ok[agent]),
            "invalid_action": bool(result.invalid[agent]),  # the reference's step_invalid_action
            "tick": result.tick,
            "reward_breakdown": shown,
        }
        if self.config.valid_actions_in_info:
            # The mask of this same state (if one was made) already found what half the verbs offer.
            info["valid_actions"] = valid_actions(
                self.game, agent, mask_options=self._options.get(agent), cache=self._listings
            )
        return info

    # ------------------------------------------------------------------ global view and display
    def state(self) -> np.ndarray:
        """Every agent's observation vector, concatenated (for centralised critics)."""
        self._check_started("state")
        out = np.empty(self.state_space.shape, dtype=np.float32)
        size = self.layout.size
        for i, agent in enumerate(self.possible_agents):
            self.encoder.encode(self.game, self.game.agents[agent], out[i * size : (i + 1) * size])
        return out

    def render(self) -> str | None:
        if self.render_mode is None:  # as gymnasium's envs do
            warnings.warn(
                "render() does nothing without a render_mode: create the env with "
                "render_mode='ansi' (returns the text) or 'human' (prints it)",
                stacklevel=2,
            )
            return None
        self._check_started("render")
        text = self.render_text()
        if self.config.render_map is not None:
            from agentodyssey_pz.observe.map_svg import write_map

            path = write_map(self.game, self.config.render_map, seed=self.game.seed)
            text += f"\n(map with the agents: {path})"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        result = self._last
        parts = [f"=== tick {self.game.tick_index} ({self.game.time_text}) ==="]
        for agent in self.possible_agents:
            feedback = result.feedback(agent) if result is not None else ""
            parts.append(
                f"--- {agent} ---"
                + tick_observation(
                    self.game, agent, feedback, bootstrap=False, terminated=False
                ).rstrip("\n")
            )
        return "\n".join(parts)

    def close(self) -> None:
        """Finish pending checkpoint writes (nothing else to release: no windows or processes)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        # Rule classes live in private, path-derived modules: rebuild from the config and restore
        # the game from a JSON snapshot (nothing of the game itself is pickled).
        from agentodyssey_pz.engine.snapshot import snapshot_text

        started = self.game.started
        return {
            "config": self.config,
            "snapshot": snapshot_text(self.game) if started else None,
            "agents": list(self.agents),
            "num_cycles": self.num_cycles,
            "episode_seeds": _stream_state(self._episode_seeds) if self._episode_seeds else None,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        from agentodyssey_pz.engine.snapshot import restore

        self.__init__(state["config"])  # type: ignore[misc]
        if state["snapshot"] is not None:
            restore(self.game, json.loads(state["snapshot"]), source="pickled env")
            self._spare_slots.sync(self.game.world)
            self.agents = state["agents"]
            self.num_cycles = state["num_cycles"]
            self._last = _resumed_result(self.game)
        if state.get("episode_seeds") is not None:
            self._episode_seeds = _stream_of(state["episode_seeds"])


class StoppingOnError:
    """The `with` block in which an env builds observations and infos after a tick, running rules'
    listing code (masks, valid actions): if that raises, the game stops, so a retried step cannot
    play the next tick unseen. A plain class: it is entered every step."""

    __slots__ = ("_env",)

    def __init__(self, env: AgentOdysseyParallelEnv) -> None:
        self._env = env

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> None:
        if exc is not None:
            self._env.game.stop(exc, mid_tick=False)


class FrozenDict(dict):
    """A dict that cannot change, so copying it is free: vectorisers (SuperSuit) deep-copy every
    info of every step in the learner's process, and this keeps that copy to one call. Still a
    dict for everything that reads it (indexing, iteration, JSON, pickling)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self

    def __copy__(self) -> FrozenDict:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("this dict is read-only (copy it with dict(...) to change it)")

    __setitem__ = __delitem__ = _refuse  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]


# Most ticks reward nothing: their infos share this one read-only breakdown.
_NO_REWARD = FrozenDict(RewardBreakdown().as_dict())

# In an episode's checkpoint folder: the env's episode-seed stream after that episode's seed was
# drawn, so the episodes after a resumed one get the seeds they would have got.
EPISODE_FILE = "episode.json"
RESET_OPTIONS = frozenset({"resume"})


def _stream_state(stream: random.Random) -> list[Any]:
    """A generator's state as plain data (JSON and pickle alike)."""
    version, internal, gauss = stream.getstate()
    return [version, list(internal), gauss]


def _stream_of(state: Any) -> random.Random:
    """The generator `_stream_state` describes (a tuple as `getstate` gives works too)."""
    version, internal, gauss = state
    stream = random.Random()
    stream.setstate((version, tuple(internal), gauss))
    return stream


def _read_episode_record(path: Path) -> tuple[int | None, random.Random | None]:
    """What an env saved beside a checkpoint: (`max_cycles`, the episode-seed stream), each None
    when absent; both None - with a warning, the episodes after this one then unseeded - when the
    file is damaged."""
    from agentodyssey_pz.checkpoint.journal import CheckpointWarning

    if not path.exists():
        return None, None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        cycles, stream = record.get("max_cycles"), record["seed_stream"]
        if cycles is not None and (type(cycles) is not int or cycles <= 0):
            raise ValueError(f"max_cycles must be a positive whole number, got {cycles!r}")
        return cycles, None if stream is None else _stream_of(stream)
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        warnings.warn(
            f"{path}: unreadable ({exc}); the episodes after this one are not seeded",
            CheckpointWarning,
            stacklevel=4,
        )
        return None, None


def _check_same_settings(path: Any, saved: Mapping[str, Any], mine: Mapping[str, Any]) -> None:
    """A resumed game keeps the settings it was played with, while this env's catalogue, spaces
    and episode length follow its own: the two must agree (setting name -> value)."""
    differ = [name for name in saved if saved[name] != mine[name]]
    if differ:
        raise ConfigError(
            f"{path}: played with {', '.join(f'{n}={saved[n]!r}' for n in differ)}; "
            f"this env has {', '.join(f'{n}={mine[n]!r}' for n in differ)}: create the "
            "env with the checkpoint's settings to resume it"
        )


def _resumed_result(game: Game) -> TickResult:
    """A stand-in result for a state that was loaded rather than stepped into (no feedback)."""
    from agentodyssey_pz.rules.base import RuleResult

    return TickResult(
        game.tick_index,
        RuleResult(game.agent_ids),
        {aid: RewardBreakdown() for aid in game.agent_ids},
        game.terminated,
        False,
    )


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    import copy

    return copy.deepcopy(space)


def parallel_env(preset: str | None = None, **settings: Any) -> AgentOdysseyParallelEnv:
    """The ParallelEnv; `preset` ("small", "medium", "large") then keyword settings (EnvConfig)."""
    return AgentOdysseyParallelEnv(make_config(preset, **settings))
