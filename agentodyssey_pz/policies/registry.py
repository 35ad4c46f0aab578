"""Policies by name: the bundled ones, and a registry Python callers add their own to.

Policies layer. `make_policy("explorer")` builds a fresh policy (one per agent and run: scripted
policies keep per-episode state). Names come from users and data files (evaluation configs, the
command line), so a name only ever looks up a factory registered from Python: an import string such
as `"package.module:attr"` is refused, never imported (nothing supplied as data is executed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from agentodyssey_pz.policies.base import Policy
from agentodyssey_pz.policies.crafter import CrafterPolicy
from agentodyssey_pz.policies.explorer import ExplorerPolicy
from agentodyssey_pz.policies.fighter import FighterPolicy
from agentodyssey_pz.policies.quester import QuesterPolicy
from agentodyssey_pz.policies.random_policy import RandomPolicy
from agentodyssey_pz.policies.trader import TraderPolicy
from agentodyssey_pz.policies.wait import WaitPolicy

PolicyFactory = Callable[[], Policy]
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")

POLICIES: Mapping[str, PolicyFactory] = MappingProxyType(
    {
        "random": RandomPolicy,
        "wait": WaitPolicy,
        "explorer": ExplorerPolicy,
        "crafter": CrafterPolicy,
        "fighter": FighterPolicy,
        "trader": TraderPolicy,
        "quester": QuesterPolicy,
    }
)


class PolicyRegistry:
    """Name -> policy factory (a class or any callable taking no arguments)."""

    def __init__(self, factories: Mapping[str, PolicyFactory] = POLICIES) -> None:
        self._factories: dict[str, PolicyFactory] = dict(factories)

    def names(self) -> list[str]:
        return sorted(self._factories)

    def __contains__(self, name: object) -> bool:
        return name in self._factories

    def register(self, name: str, factory: PolicyFactory, *, replace: bool = False) -> None:
        """Add a policy factory under `name` (Python objects only, never import strings)."""
        if not isinstance(name, str) or NAME.fullmatch(name) is None:
            raise ValueError(
                f"policy name {name!r}: use letters, digits, '_' and '-', starting with a letter"
            )
        if isinstance(factory, str) or not callable(factory):
            raise TypeError(
                f"policy {name!r}: the factory must be a class or callable returning a policy, "
                f"not {factory!r} (import strings are not accepted)"
            )
        if name in self._factories and not replace:
            raise ValueError(f"policy {name!r} is already registered (pass replace=True)")
        self._factories[name] = factory

    def make(self, name: str) -> Policy:
        """A new policy of that name. Raises ValueError naming the known policies."""
        if not isinstance(name, str) or name not in self._factories:
            hint = ""
            if isinstance(name, str) and ":" in name:
                hint = (
                    " (import strings are not accepted: register the policy from Python with "
                    "register_policy(name, factory))"
                )
            raise ValueError(
                f"unknown policy {name!r}{hint}; known policies: {', '.join(self.names())}"
            )
        policy = self._factories[name]()
        if not callable(policy):
            raise TypeError(f"policy {name!r}: its factory returned {policy!r}, not a callable")
        return policy


REGISTRY = PolicyRegistry()  # the process's default registry, which `register_policy` extends


def register_policy(name: str, factory: PolicyFactory, *, replace: bool = False) -> None:
    """Make a policy available by name to `make_policy` (and so to evaluation and the CLI)."""
    REGISTRY.register(name, factory, replace=replace)


def make_policy(name: str, registry: PolicyRegistry | None = None) -> Policy:
    """A fresh policy by name, from `registry` (default: the bundled and registered ones)."""
    return (registry if registry is not None else REGISTRY).make(name)


def policy_names(registry: PolicyRegistry | None = None) -> list[str]:
    return (registry if registry is not None else REGISTRY).names()
