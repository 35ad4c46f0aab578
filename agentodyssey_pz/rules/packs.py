"""Rule packs: folders of Python modules whose concrete rule classes are registered.

Layer: rule framework. A pack is only ever loaded from a path the user (or a world folder the user
named) gives; nothing is searched for on `sys.path`. Its modules are imported under a private
namespace derived from the folder's absolute path, so no pack claims a global module name (such as
`rules`) and two packs never collide. Every concrete subclass of `BaseActionRule`, `BaseStepRule` or
`RewardFunction` *defined* in the pack's modules is registered; imported ones are not.

Combining packs: a later pack's verb replaces an earlier pack's verb with the same id, a later step
rule replaces one with the same name, and new ones are added.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import sys
import types
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from agentodyssey_pz.errors import RulePackError
from agentodyssey_pz.rules.base import (
    BaseActionRule,
    BaseInitRule,
    BaseStepRule,
    add_action_rule,
    step_order_key,
)
from agentodyssey_pz.rules.rewards import RewardFunction

NAMESPACE_PREFIX = "_agentodyssey_pack_"


@attrs.frozen
class RulePack:
    name: str
    path: Path
    action_rules: tuple[type[BaseActionRule], ...]
    step_rules: tuple[type[BaseStepRule], ...]
    reward_functions: tuple[type[RewardFunction], ...]
    init_rules: tuple[type[BaseInitRule], ...] = ()


def _namespace(root: Path) -> str:
    digest = hashlib.sha1(str(root).encode("utf-8")).hexdigest()[:12]
    return f"{NAMESPACE_PREFIX}{digest}"


def _module_names(root: Path, namespace: str) -> list[str]:
    names = []
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        if any(not p.isidentifier() for p in parts):
            continue  # not importable as a module path; skip quietly (e.g. "my-notes.py")
        names.append(".".join([namespace, *parts]))
    return names


def _concrete(module: types.ModuleType, base: type) -> list[type]:
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, base)
        and obj is not base
        and not inspect.isabstract(obj)
        and obj.__module__ == module.__name__
    ]


def load_pack(path: str | Path) -> RulePack:
    """Import every module of the pack folder and collect its rule classes."""
    root = Path(path).resolve()
    if not root.is_dir():
        raise RulePackError(f"rule pack folder not found: {root}")
    namespace = _namespace(root)
    if namespace not in sys.modules:
        package = types.ModuleType(namespace)
        package.__path__ = [str(root)]  # lets the import system find the pack's modules there
        package.__package__ = namespace
        sys.modules[namespace] = package
    actions: list[type[BaseActionRule]] = []
    steps: list[type[BaseStepRule]] = []
    rewards: list[type[RewardFunction]] = []
    inits: list[type[BaseInitRule]] = []
    for name in _module_names(root, namespace):
        try:
            module = sys.modules[name] if name in sys.modules else importlib.import_module(name)
        except Exception as exc:
            raise RulePackError(
                f"rule pack {root}: cannot import {name[len(namespace) + 1 :]}: {exc!r}"
            ) from exc
        actions += _concrete(module, BaseActionRule)
        steps += _concrete(module, BaseStepRule)
        rewards += _concrete(module, RewardFunction)
        inits += _concrete(module, BaseInitRule)
    for cls in (*actions, *steps, *inits):
        if not isinstance(getattr(cls, "name", None), str):
            raise RulePackError(
                f"rule pack {root}: {cls.__qualname__} has no `name` (make it abstract "
                "or give it one)"
            )
    _check_unique(root, [a.name for a in actions], "verb")
    _check_unique(root, [s.name for s in steps], "step rule")
    return RulePack(
        name=root.name,
        path=root,
        action_rules=tuple(sorted(actions, key=lambda r: r.name)),
        step_rules=tuple(sorted(steps, key=step_order_key)),
        reward_functions=tuple(rewards),
        init_rules=tuple(sorted(inits, key=lambda r: r.name)),
    )


def _check_unique(root: Path, names: list[str], kind: str) -> None:
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RulePackError(f"rule pack {root}: {kind} defined twice: {', '.join(dupes)}")


@attrs.frozen
class RuleSet:
    """The rules a game runs, after combining packs in order."""

    action_rules: tuple[type[BaseActionRule], ...]
    step_rules: tuple[type[BaseStepRule], ...]
    reward_function: type[RewardFunction] | None
    packs: tuple[str, ...]
    init_rules: tuple[type[BaseInitRule], ...] = ()


def combine(packs: Sequence[RulePack]) -> RuleSet:
    actions: dict[str, type[BaseActionRule]] = {}
    steps: dict[str, type[BaseStepRule]] = {}
    reward: type[RewardFunction] | None = None
    inits: dict[str, type[BaseInitRule]] = {}
    for pack in packs:
        for rule in pack.action_rules:
            add_action_rule(actions, rule)
        steps.update({r.name: r for r in pack.step_rules})
        inits.update({r.name: r for r in pack.init_rules})
        if pack.reward_functions:
            reward = pack.reward_functions[-1]
    return RuleSet(
        action_rules=tuple(actions.values()),
        step_rules=tuple(sorted(steps.values(), key=step_order_key)),
        reward_function=reward,
        packs=tuple(str(p.path) for p in packs),
        init_rules=tuple(inits.values()),
    )


def load_rule_set(paths: Iterable[str | Path]) -> RuleSet:
    return combine([load_pack(p) for p in paths])
