"""The base rule pack's modules as a game loaded them: the constants scripted players plan with.

Policies layer (a side module on top of the adapter). Rule packs are imported under a private,
path-derived namespace (`rules.packs`), so a policy cannot `import` them; it finds the base pack's
package through the module of a rule the game runs, and reads constants from there (damage
factors, the fallback key, the sell price factor ...). Nothing is copied, so a tuned pack is
planned with its own numbers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

# Rules whose modules sit one level under the base pack's package (`<pack>.steps.x`,
# `<pack>.verbs.x`): the first one the game runs names the pack.
ANCHOR_STEP_RULES = ("main_quest_step", "combat_rhythm_step", "death_and_respawn_step")
ANCHOR_VERBS = ("attack", "enter", "wait")

Modules = Callable[[str], ModuleType]


def base_pack(game: Any) -> Modules:
    """A lookup `name -> module` of the base rule pack (`"verbs.enter"`, `"trade"` ...)."""
    rules = [r for r in game.step_rules if r.name in ANCHOR_STEP_RULES]
    rules += [game.engine.rules[v] for v in ANCHOR_VERBS if v in game.engine.rules]
    if not rules:
        raise LookupError("the game runs none of the base rule pack's anchor rules")
    package = type(rules[0]).__module__.rsplit(".", 2)[0]
    return lambda name: sys.modules[f"{package}.{name}"]


def rule_module(game: Any, verb: str) -> ModuleType:
    """The module of the rule a game runs for a verb id (a pack's constants live there)."""
    return sys.modules[type(game.engine.rules[verb]).__module__]
