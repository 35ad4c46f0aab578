"""The seven published games: where each keeps its files, and what of each this project plays.

Layer: world core. A game's content is read from the user's copy of AgentOdyssey (`locate`); what is
here is how to play it with our engine: the bundled rule packs with its mechanics, the numbers those
packs take for it (`features.rule_settings`), its synthesis variant, whether its main quest is
imported, and what is not supported yet. docs/agentodyssey-games.md says the same for users.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs

from agentodyssey_pz.world.published.locate import KNOWN_DIGESTS, file_digest

PREFIX = "agentodyssey:"


@attrs.frozen
class GameSpec:
    """One published game and how we play it."""

    name: str
    folder: str  # under games/ and assets/world_definitions/: "base" or "generated/<name>"
    synthesis: str = "base"  # `features.synthesis`
    main_quest: bool = False  # its main quest is imported (else: switched off, see `missing`)
    rule_packs: tuple[str, ...] = ()  # bundled packs with its verbs and background rules
    rule_settings: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    # Settings whose values are the game's story content, read from the user's copy when the game
    # loads (never stored here): rule -> setting -> (class, attribute) in `general_module`.
    content_settings: dict[str, dict[str, tuple[str, str]]] = attrs.field(factory=dict)
    # Unlit areas hide what is around (`features.darkness`): True for the torch-lit darkness of
    # remnant and mark, or the `features.darkness` object itself.
    darkness: bool | dict[str, Any] = False
    # Texts name money by the currency's own name plus "s" (`features.currency_name`), as the game
    # prints it ("saltmarks"); else the base wording.
    currency_plural: bool = False
    # The game's engine reads an object's `attack` only: weapons that write `attack_power` add
    # nothing in hand (saltglass). Kept as published (else our loader reads it as `attack`).
    weapon_attack_power_ignored: bool = False
    missing: tuple[str, ...] = ()  # what of the game is not played yet, for `games` and docs

    @property
    def world_file(self) -> str:
        return f"assets/world_definitions/{self.folder}/default.json"

    @property
    def quest_module(self) -> str:
        return f"games/{self.folder}/rules/step_rules/main_quest.py"

    @property
    def tutorial_module(self) -> str:
        return f"games/{self.folder}/rules/step_rules/tutorial.py"

    @property
    def general_module(self) -> str:
        return f"games/{self.folder}/rules/step_rules/general.py"


PART_TWO = "its main quest, verbs and background rules (planned)"

GAMES: dict[str, GameSpec] = {
    spec.name: spec
    for spec in (
        GameSpec("base", "base", main_quest=True),
        GameSpec(
            "remnant",
            "generated/remnant",
            synthesis="remnant",
            main_quest=True,
            rule_packs=("scavenging", "lockpicking", "living_world", "shifting_paths"),
            # lockpick: tools by definition id, the lockpick first (docs/rule-packs.md).
            rule_settings={
                "lockpick": {
                    "lockpick": "obj_lockpick",
                    "wrench": "obj_tension_wrench",
                    "tools_by_id": True,
                    "tool_in_events": False,
                    "hurt_event": True,
                }
            },
            darkness=True,
        ),
        GameSpec(
            "mark",
            "generated/mark",
            synthesis="mark",
            main_quest=True,
            rule_packs=("scavenging", "living_world"),
            # mark's numbers for the living world's rules (docs/rule-packs.md#the-livingworld-pack).
            rule_settings={
                "active_attack_step": {"min_probability": 0.10, "max_probability": 0.30},
                "day_cycle_step": {"dangerous_night_additive": 0.15},
                "enemy_respawn_step": {"interval_min": 35, "interval_max": 50},
                "soundscape_pressure_step": {
                    "decay_factor": 1.5,
                    "scout_chance": 0.01,
                    "hush_after": 2,
                },
            },
            darkness=True,
        ),
        GameSpec(
            "metropolis",
            "generated/metropolis",
            main_quest=True,
            rule_packs=("courts",),
            # The nightly rewrite's 16 law texts are content: read from the user's copy.
            content_settings={
                "nightly_law_rewrite_step": {"law_pool": ("NightlyLawRewriteStepRule", "LAW_POOL")}
            },
        ),
        GameSpec(
            "quarantine",
            "generated/quarantine",
            synthesis="quarantine",
            main_quest=True,
            rule_packs=("outbreak",),
            # The outbreak pack's light fuel decides who is in the dark, and the dark hides only
            # the ground and the people around (docs/world-format.md#91-darkness).
            darkness={"agent_flags": "in_darkness", "hides": "surroundings"},
            missing=(),
        ),
        GameSpec(
            "robot_kingdom",
            "generated/robot_kingdom",
            main_quest=True,
            rule_packs=("war_machines",),
        ),
        GameSpec(
            "saltglass",
            "generated/saltglass",
            main_quest=True,
            rule_packs=("saltglass",),
            currency_plural=True,
            weapon_attack_power_ignored=True,
            missing=(),
        ),
    )
}


def game_spec(name: str) -> GameSpec:
    """The game of that name; KeyError naming the seven otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(
            f"no published game '{name}' (AgentOdyssey's games: {', '.join(GAMES)})"
        ) from None


def game_of_world_file(path: str | os.PathLike[str]) -> GameSpec | None:
    """The published game whose world definition this file is (by its content, as version 0.1.0
    has it, wherever the file lies), else None."""
    try:
        digest = file_digest(Path(path))
    except OSError:
        return None
    for spec in GAMES.values():
        if KNOWN_DIGESTS.get(spec.world_file) == digest:
            return spec
    return None
