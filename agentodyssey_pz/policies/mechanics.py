"""The base rule pack's modules as a game loaded them: the constants scripted players plan with.

Policies layer (a side module on top of the adapter). Rule packs are imported under a private
namespace (`rules.packs`), so a policy cannot `import` them; it finds the base pack's package in
the game's rule set, and reads constants from there (damage
factors, the fallback key, the sell price factor ...). Nothing is copied, so a tuned pack is
planned with its own numbers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from agentodyssey_pz.resources import BASE_PACK, rules_dir

Modules = Callable[[str], ModuleType]


def base_pack(game: Any) -> Modules:
    """A lookup `name -> module` of the base rule pack (`"verbs.enter"`, `"trade"` ...), found by
    its folder, so packs that override base rules do not hide it."""
    package = game.rule_set.namespace_of(rules_dir() / BASE_PACK)
    if package is None:
        raise LookupError("the game does not run the base rule pack")
    return lambda name: sys.modules[f"{package}.{name}"]


def rule_module(game: Any, verb: str) -> ModuleType:
    """The module of the rule a game runs for a verb id (a pack's constants live there)."""
    return sys.modules[type(game.engine.rules[verb]).__module__]
