"""`EnvConfig`: every setting of the PettingZoo env in one attrs class, with Neural MMO presets.

Layer: adapter. Keyword names are the ones users type (`parallel_env(world=..., num_agents=...)`).
Invalid values raise `ConfigError` naming the field. Presets name a procedural world and a team
size; keywords override them.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any

import attrs
import numpy as np

from agentodyssey_pz.engine.config import MAX_AGENTS, GameConfig, choice, is_path
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.rules.rewards import COMPONENTS

# "text": the vector, the mask and the text; "text_only": the text (and, with discrete actions,
# the action mask) - what a language agent needs, without the cost of the vector.
OBS_MODES = ("vector", "text", "text_only")
ACTION_MODES = ("discrete", "text")
RENDER_MODES = ("ansi", "human")

# The reference's rl_total (docs/mechanics/rewards.md#scores) as weights on the eight components:
# xp_total + 5 unique_kill - 10 death.
RL_TOTAL_WEIGHTS: dict[str, float] = {
    "exploration": 5.0,
    "craft": 5.0,
    "kill": 5.0,
    "unique_kill": 5.0,
    "trade": 10.0,
    "quest": 20.0,
    "side_quest": 5.0,
    "death": -10.0,
}

# Spare slots per kind when expansion is on: the procedural expander adds 2-6 areas, 1-2 places,
# 4-8 object kinds and 1-2 NPC prototypes each time, so 32 cover at least four expansions.
DEFAULT_EXPANSION_SLOTS = 32

PRESETS: dict[str, dict[str, Any]] = {
    "small": {"world": "procgen:small", "num_agents": 4, "max_cycles": 500},
    "medium": {"world": "procgen:medium", "num_agents": 16, "max_cycles": 2000},
    "large": {"world": "procgen:large", "num_agents": 64, "max_cycles": 5000},
}


# Spare slots per kind: a typo such as 10**9 must be a clear error, not an allocation that takes
# the machine's memory (likewise MAX_AGENTS).
MAX_EXPANSION_SLOTS = 4_096


def _plain_int(value: Any) -> Any:
    """numpy integers (as sweep tools pass them) as Python ints; anything else as it is, for the
    validators to judge."""
    return int(value) if isinstance(value, np.integer) else value


def _positive_int(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if type(value) is not int or value <= 0:
        raise ConfigError(f"{attribute.name}: expected a positive integer, got {value!r}")


def _agent_count(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    _positive_int(instance, attribute, value)
    if value > MAX_AGENTS:
        raise ConfigError(f"{attribute.name}: at most {MAX_AGENTS:,} agents, got {value:,}")


def _optional_bool(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is not None and type(value) is not bool:
        raise ConfigError(f"{attribute.name}: expected True, False or None, got {value!r}")


def _bool(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if type(value) is not bool:
        raise ConfigError(f"{attribute.name}: expected True or False, got {value!r}")


def _optional_path(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is not None and not is_path(value):
        raise ConfigError(f"{attribute.name}: expected None or a path, got {value!r}")


def _optional_positive_int(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is not None:
        _positive_int(instance, attribute, value)


def _optional_callable(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is not None and not callable(value):
        raise ConfigError(f"{attribute.name}: expected None or a callable, got {value!r}")


def _slot_count(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is not None and (type(value) is not int or not 0 <= value <= MAX_EXPANSION_SLOTS):
        raise ConfigError(
            f"{attribute.name}: expected None or an integer from 0 to {MAX_EXPANSION_SLOTS:,}, "
            f"got {value!r}"
        )


def _weights(_: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise ConfigError(
            f"{attribute.name}: expected a dict of component -> weight, got {value!r}"
        )
    for key, weight in value.items():
        if key not in COMPONENTS:
            raise ConfigError(
                f"{attribute.name}: unknown component {key!r} (known: {', '.join(COMPONENTS)})"
            )
        if isinstance(weight, bool) or not isinstance(weight, (int, float)):
            raise ConfigError(f"{attribute.name}[{key!r}]: expected a number, got {weight!r}")
        if not math.isfinite(weight):
            raise ConfigError(f"{attribute.name}[{key!r}]: must be finite, got {weight!r}")
    if not any(value.values()):  # components left out weigh 0
        warnings.warn(
            f"{attribute.name}: every component weighs 0, so the reward is always 0 (the "
            "breakdown is still in infos[agent]['reward_breakdown'])",
            stacklevel=5,  # through attrs' __init__, make_config and parallel_env to the caller
        )


@attrs.frozen
class EnvConfig:
    """Settings of one env (see the env's docstring for what each does)."""

    world: Any = "default"  # bundled name, "procgen:<preset>[:<seed>]", folder, JSON file
    num_agents: int = attrs.field(converter=_plain_int, default=3, validator=_agent_count)
    obs_mode: str = attrs.field(default="vector", validator=choice(*OBS_MODES, owner=""))
    action_mode: str = attrs.field(default="discrete", validator=choice(*ACTION_MODES, owner=""))
    max_cycles: int = attrs.field(converter=_plain_int, default=1000, validator=_positive_int)
    tutorial: bool | None = attrs.field(default=None, validator=_optional_bool)
    world_expansion: bool | None = attrs.field(default=None, validator=_optional_bool)
    # `(world, seed) -> expansion spec` (e.g. a language-model one): the world grows with it when
    # its `online_expansion` is on or world_expansion=True; None: the offline procedural generator
    # with world_expansion=True, else no expansion.
    expansion_generator: Any = attrs.field(default=None, validator=_optional_callable)
    # Spare observation and catalogue slots per kind (areas, places, object kinds, NPC prototypes)
    # for what world expansion adds; None: DEFAULT_EXPANSION_SLOTS when expansion is on, else 0.
    expansion_slots: int | None = attrs.field(
        converter=_plain_int, default=None, validator=_slot_count
    )
    reward_weights: dict[str, float] | None = attrs.field(default=None, validator=_weights)
    vector_reward: bool = attrs.field(default=False, validator=_bool)
    valid_actions_in_info: bool = attrs.field(default=False, validator=_bool)
    render_mode: str | None = attrs.field(default=None)
    # An SVG file that render() rewrites with the map and where each agent stands (human mode
    # prints its path), so a person can watch the world in a browser while the text scrolls.
    render_map: str | None = attrs.field(default=None, validator=_optional_path)
    checkpoint_dir: str | None = attrs.field(default=None, validator=_optional_path)
    snapshot_every: int = attrs.field(converter=_plain_int, default=100, validator=_positive_int)
    # Every N ticks, the dependency graph's JSON summary is written to
    # `<dep_graph_dir>/dep_graphs/dependency_graph_step_<tick>_dep.json`
    # (docs/mechanics/dependency-tracking.md#exports; setting it turns tracking on). `dep_graph_dir`
    # None: the episode's checkpoint folder when journaling, else the current directory.
    save_dep_graph_steps: int | None = attrs.field(
        converter=_plain_int, default=None, validator=_optional_positive_int
    )
    dep_graph_dir: str | None = attrs.field(default=None, validator=_optional_path)
    text_max_length: int = attrs.field(converter=_plain_int, default=20000, validator=_positive_int)
    game: GameConfig = attrs.field(factory=GameConfig)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.world, (str, os.PathLike)) and type(self.world).__name__ not in (
            "WorldDefinition",
            "WorldPack",
        ):
            raise ConfigError(
                f"world: expected a bundled world name, 'procgen:<preset>', a folder or a JSON "
                f"file (or a WorldDefinition), got {self.world!r}"
            )
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            raise ConfigError(
                f"render_mode: expected None or one of {', '.join(RENDER_MODES)}, "
                f"got {self.render_mode!r}"
            )
        if self.render_map is not None and self.render_mode is None:
            raise ConfigError(
                "render_map: the map is written by render(), which needs a render_mode "
                f"({' or '.join(map(repr, RENDER_MODES))})"
            )
        if not isinstance(self.game, GameConfig):
            raise ConfigError(f"game: expected a GameConfig, got {type(self.game).__name__}")
        if self.vector_reward and self.reward_weights is not None:
            warnings.warn(
                "reward_weights do not apply with vector_reward=True: the reward is the eight "
                f"components unweighted, in this order: {', '.join(COMPONENTS)}",
                stacklevel=5,  # as in `_weights`: to the caller of parallel_env
            )

    @property
    def weights(self) -> dict[str, float]:
        """Reward weight per component (missing components weigh 0 when weights are given)."""
        if self.reward_weights is None:
            return dict(RL_TOTAL_WEIGHTS)
        return {c: float(self.reward_weights.get(c, 0.0)) for c in COMPONENTS}

    def spare_slots(self, expansion_enabled: bool) -> int:
        """`expansion_slots` resolved for a game whose expansion is on or off."""
        if self.expansion_slots is not None:
            return self.expansion_slots
        return DEFAULT_EXPANSION_SLOTS if expansion_enabled else 0

    def game_config(self) -> GameConfig:
        """The engine settings, with this env's tutorial and expansion switches applied."""
        return attrs.evolve(self.game, tutorial=self.tutorial, world_expansion=self.world_expansion)


GAME_FIELDS = {f.name for f in attrs.fields(GameConfig)} - {"tutorial", "world_expansion"}


def make_config(preset: str | None = None, **overrides: Any) -> EnvConfig:
    """A config from an optional preset plus keyword overrides. GameConfig fields may be given
    directly (e.g. `tick_seconds=60`); unknown keywords raise ConfigError naming them."""
    settings: dict[str, Any] = {}
    if preset is not None:
        if preset not in PRESETS:
            raise ConfigError(f"preset: expected one of {', '.join(PRESETS)}, got {preset!r}")
        settings.update(PRESETS[preset])
    game_overrides = {k: overrides.pop(k) for k in list(overrides) if k in GAME_FIELDS}
    env_fields = {f.name for f in attrs.fields(EnvConfig)}
    unknown = sorted(set(overrides) - env_fields)
    if unknown:
        raise ConfigError(f"unknown setting(s): {', '.join(unknown)}")
    settings.update(overrides)
    if game_overrides:
        base = settings.get("game", GameConfig())
        settings["game"] = attrs.evolve(base, **game_overrides)
    return EnvConfig(**settings)
