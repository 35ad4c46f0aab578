"""`GameConfig`: every tunable of a game, one documented field each.

Layer: engine. Mechanics numbers that belong to one rule (damage factors, probabilities) are
constants of that rule; what is here shapes a whole game. Invalid values raise `ConfigError` naming
the field.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.errors import ConfigError

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
# Agents per game: far beyond any use, and a typo such as 10**9 is an error, not an allocation that
# takes the machine's memory.
MAX_AGENTS = 10_000


def _check_type(kind: type | tuple[type, ...], *, allow_none: bool = False) -> Any:
    def check(_: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and allow_none:
            return
        if isinstance(value, bool) and kind in (int, (int, float)):
            raise ConfigError(f"GameConfig.{attribute.name}: expected a number, got {value!r}")
        if not isinstance(value, kind):
            names = (
                kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            )
            raise ConfigError(f"GameConfig.{attribute.name}: expected {names}, got {value!r}")

    return check


def _positive(_: Any, attribute: attrs.Attribute, value: int) -> None:
    if value <= 0:
        raise ConfigError(f"GameConfig.{attribute.name}: must be positive, got {value!r}")


def _not_negative(_: Any, attribute: attrs.Attribute, value: int) -> None:
    if value < 0:
        raise ConfigError(f"GameConfig.{attribute.name}: must be 0 or more, got {value!r}")


def _start_time(_: Any, attribute: attrs.Attribute, value: str) -> None:
    try:
        dt.datetime.strptime(value, TIME_FORMAT)
    except (TypeError, ValueError) as exc:
        raise ConfigError(
            f"GameConfig.{attribute.name}: expected 'YYYY-MM-DD HH:MM:SS', got {value!r}"
        ) from exc


def is_path(value: Any) -> bool:
    """A path a setting may name: a non-blank string or an os.PathLike."""
    return isinstance(value, os.PathLike) or (isinstance(value, str) and bool(value.strip()))


def _pack_paths(paths: Any) -> tuple[str, ...]:
    """Rule-pack folders as absolute path strings, so the same folder compares equal however it
    was written (relative, with a trailing slash, as a Path) and saves as JSON."""
    if isinstance(paths, (str, os.PathLike)):
        paths = (paths,)
    if not isinstance(paths, (list, tuple)) or not all(map(is_path, paths)):
        raise ConfigError(f"GameConfig.rule_packs: expected a list of folder paths, got {paths!r}")
    return tuple(str(Path(p).resolve()) for p in paths)


def choice(*options: str, owner: str = "GameConfig.") -> Any:
    """An attrs validator: the value is one of `options` (errors name `owner` and the field)."""

    def check(_: Any, attribute: attrs.Attribute, value: Any) -> None:
        if not isinstance(value, str) or value not in options:
            raise ConfigError(
                f"{owner}{attribute.name}: expected one of {', '.join(options)}, got {value!r}"
            )

    return check


def _optional_bool() -> Any:
    return attrs.field(default=None, validator=_check_type(bool, allow_none=True))


@attrs.frozen
class GameConfig:
    """Settings of one game. Optional switches left at None follow the world definition."""

    # Clock.
    tick_seconds: int = attrs.field(default=600, validator=[_check_type(int), _positive])
    start_time: str = attrs.field(default="0001-01-01 08:00:00", validator=_start_time)
    # Optional rule sets: None -> as the world's custom_events / features say.
    tutorial: bool | None = _optional_bool()
    main_quest: bool | None = _optional_bool()
    side_quest: bool | None = _optional_bool()
    # World expansion: True brings the offline procedural generator; None follows the world's
    # `online_expansion` only when the Game is given a generator (none by default).
    world_expansion: bool | None = _optional_bool()
    # Progression (docs/mechanics/rewards.md#xp-and-levels).
    start_hp: int = attrs.field(default=100, validator=[_check_type(int), _positive])
    start_attack: int = attrs.field(default=10, validator=[_check_type(int), _not_negative])
    xp_per_level: int = attrs.field(default=100, validator=[_check_type(int), _positive])
    hp_per_level: int = attrs.field(default=20, validator=[_check_type(int), _not_negative])
    attack_per_level: int = attrs.field(default=5, validator=[_check_type(int), _not_negative])
    # Quirk switch (docs/mechanics/rewards.md#quirk-final-quest-stages-pay-nothing): the reference
    # pays no quest point for a stage that ends a chapter or the quest. True (ours) pays every
    # stage.
    reward_final_quest_stages: bool = attrs.field(default=True, validator=_check_type(bool))
    # Fractional recipes
    # (docs/mechanics/verbs.md#quirk-fractional-ingredients-lose-their-remainder): "exact" keeps the
    # unused fraction of a consumed unit as credit for the next craft, so repeated crafts consume
    # exactly the recipe's amounts; "reference" floors each source after subtracting, destroying the
    # remainder.
    fractional_crafting: str = attrs.field(default="exact", validator=choice("exact", "reference"))
    # World synthesis switches kept for seed parity with the reference (see SynthesisOptions).
    eager_light_draw: bool = attrs.field(default=True, validator=_check_type(bool))
    zero_loot_keeps_prototype_count: bool = attrs.field(default=True, validator=_check_type(bool))
    # Record the causal dependency graph of item units (opt-in; free when off). The env builds its
    # game with agentodyssey_pz.deps.DependencyTracker when this is set; a Game user passes
    # `tracker_factory=DependencyTracker` directly.
    track_dependencies: bool = attrs.field(default=False, validator=_check_type(bool))
    # Extra rule-pack folders, applied after the base pack and before the world's own pack.
    rule_packs: tuple[str, ...] = attrs.field(default=(), converter=_pack_paths)

    def start_datetime(self) -> dt.datetime:
        return dt.datetime.strptime(self.start_time, TIME_FORMAT)


def format_time(moment: dt.datetime) -> str:
    """`YYYY-MM-DD HH:MM:SS` with a four-digit year (strftime drops the zeros of year 1)."""
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d} "
        f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    )
