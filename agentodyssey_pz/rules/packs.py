"""Rule packs: folders of Python modules whose concrete rule classes are registered.

Layer: rule framework. A pack is only ever loaded from a path the user (or a world folder the user
named) gives; nothing is searched for on `sys.path`. Its modules are imported under a private
namespace derived from the folder's absolute path, so no pack claims a global module name (such as
`rules`) and two packs never collide. Every concrete subclass of `BaseActionRule`, `BaseStepRule` or
`RewardFunction` *defined* in the pack's modules is registered; imported ones are not.

Combining packs: a later pack's verb replaces an earlier verb with the same id or the same verb
phrase (with a logged warning), a later step rule replaces one with the same name, and new ones are
added.

A pack's namespace also carries a digest of its code, so a pack edited in a running process is
imported afresh the next time a game loads it (old games keep the code they started with), and a
checkpoint can tell that the code it was saved with has changed (`RuleSet.digests`).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import logging
import math
import sys
import types
from collections.abc import Iterable, Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import attrs

from agentodyssey_pz.errors import RulePackError
from agentodyssey_pz.resources import BASE_PACK, rules_dir
from agentodyssey_pz.rules.base import (
    BaseActionRule,
    BaseInitRule,
    BaseStepRule,
    CatalogueShape,
    add_action_rule,
    step_order_key,
)
from agentodyssey_pz.rules.rewards import RewardFunction

NAMESPACE_PREFIX = "_agentodyssey_pack_"
# Issue 35's spike (scripts/build_mypyc.py --pack): a compiled module is bound to the module name it
# was compiled under, so the bundled base pack, once compiled (its .so files beside its sources), is
# imported under this fixed namespace instead of the digest-derived one. Other packs never are.
COMPILED_BASE_NAMESPACE = NAMESPACE_PREFIX + "base"
LOG = logging.getLogger("agentodyssey_pz.rules")


@attrs.frozen
class RulePack:
    name: str
    path: Path
    action_rules: tuple[type[BaseActionRule], ...]
    step_rules: tuple[type[BaseStepRule], ...]
    reward_functions: tuple[type[RewardFunction], ...]
    init_rules: tuple[type[BaseInitRule], ...] = ()
    namespace: str = ""  # the private package its modules were imported under
    digest: str = ""  # SHA-256 of its Python files (names and contents)


def _namespace(root: Path, digest: str) -> str:
    if _compiled_base(root):
        return COMPILED_BASE_NAMESPACE
    key = hashlib.sha1(f"{root}\0{digest}".encode()).hexdigest()[:12]
    return f"{NAMESPACE_PREFIX}{key}"


def _compiled_base(root: Path) -> bool:
    """Whether `root` is the bundled base pack with a compiled build beside it (the spike's)."""
    if root != (rules_dir() / BASE_PACK).resolve():
        return False
    return any((root / f"carrying{suffix}").exists() for suffix in EXTENSION_SUFFIXES)


def _python_files(root: Path) -> list[Path]:
    return sorted(f for f in root.rglob("*.py") if "__pycache__" not in f.parts)


# (path, size, mtime) of every file -> digest: a pack loaded again unchanged is not read again.
_DIGESTS: dict[tuple[tuple[str, int, int], ...], str] = {}


def code_digest(root: Path) -> str:
    """SHA-256 over a pack's Python files: their paths within the pack and their bytes."""
    files = _python_files(root)
    stats = tuple((str(f), (st := f.stat()).st_size, st.st_mtime_ns) for f in files)
    digest = _DIGESTS.get(stats)
    if digest is None:
        sha = hashlib.sha256()
        for file in files:
            sha.update(file.relative_to(root).as_posix().encode() + b"\0")
            sha.update(file.read_bytes() + b"\0")
        digest = _DIGESTS[stats] = sha.hexdigest()
    return digest


def _module_names(root: Path, namespace: str) -> list[str]:
    names = []
    for file in _python_files(root):
        rel = file.relative_to(root).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        if any(not p.isidentifier() for p in parts):
            LOG.warning(
                "rule pack %s: %s is not importable (not a Python module name): skipped",
                root, file.relative_to(root),
            )  # fmt: skip
            continue
        names.append(".".join([namespace, *parts]))
    return names


def _defined(module: types.ModuleType, base: type) -> list[type]:
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, base) and obj is not base and obj.__module__ == module.__name__
    ]


def _concrete(root: Path, module: types.ModuleType, base: type) -> list[type]:
    """The rule classes a module defines. An abstract one is a helper base class, unless it gives
    itself an id: then a method is missing (or misspelt), which would silently drop the rule."""
    found = []
    for cls in _defined(module, base):
        if not inspect.isabstract(cls):
            found.append(cls)
        elif "name" in vars(cls):
            missing = ", ".join(sorted(cls.__abstractmethods__))
            raise RulePackError(
                f"rule pack {root}: {cls.__qualname__} ({cls.name!r}) does not define {missing}"
            )
    return found


def _check_attributes(root: Path, cls: type) -> None:
    """The class attributes the engine reads, checked when the pack loads (not mid-tick)."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise RulePackError(
            f"rule pack {root}: {cls.__qualname__} has no `name` (make it abstract or give it one)"
        )
    if issubclass(cls, BaseStepRule):
        problem = _step_rule_problem(cls)
    elif issubclass(cls, BaseActionRule):
        problem = _action_rule_problem(cls)
    else:
        problem = None
    if problem:
        raise RulePackError(f"rule pack {root}: {cls.__qualname__} ({name!r}): {problem}")


def _step_rule_problem(cls: type[BaseStepRule]) -> str | None:
    priority = getattr(cls, "priority", None)
    if type(priority) not in (int, float) or not math.isfinite(priority):
        return f"`priority` must be a number (rules run in ascending priority), got {priority!r}"
    return None


def _action_rule_problem(cls: type[BaseActionRule]) -> str | None:
    verb, aliases = getattr(cls, "verb", None), cls.aliases
    low, high = cls.param_min, cls.param_max
    if not isinstance(verb, str) or not verb.split():
        return f"`verb` must be the words an agent types, got {verb!r}"
    if not isinstance(aliases, tuple) or not all(isinstance(a, str) and a.split() for a in aliases):
        return f"`aliases` must be a tuple of phrases, got {aliases!r}"
    if type(low) is not int or low < 0 or not (high is None or (type(high) is int and high >= low)):
        return f"need 0 <= `param_min` <= `param_max` (None: no limit), got {low!r} and {high!r}"
    replaces = cls.replaces
    if replaces is not None and (not isinstance(replaces, str) or not replaces.strip()):
        return f"`replaces` must be the id of a verb replaced on purpose or None, got {replaces!r}"
    # A typo'd string is truthy, so these must be real bools.
    for promise in ("valid_params_from_mask", "lists_from_reach", "dark_safe"):
        if type(getattr(cls, promise)) is not bool:
            return f"`{promise}` must be True or False, got {getattr(cls, promise)!r}"
    shape = cls.catalogue
    if shape is None:
        return None
    if not isinstance(shape, CatalogueShape):
        return f"`catalogue` must be a CatalogueShape or None, got {shape!r}"
    used = [p for p in (shape.name, shape.amount, shape.container, shape.text) if p is not None]
    if len(set(used)) != len(used):
        return f"`catalogue` gives two roles the same parameter position: {shape!r}"
    if high is not None and used and max(used) >= high:  # the rest come from mask_targets
        return f"`catalogue` names parameter {max(used)}, but the verb takes at most {high}"
    return None


def load_pack(path: str | Path) -> RulePack:
    """Import every module of the pack folder and collect its rule classes."""
    root = Path(path).resolve()
    if not root.is_dir():
        if root.exists():
            raise RulePackError(f"rule pack {root}: not a folder (a pack is a folder of modules)")
        raise RulePackError(f"rule pack folder not found: {root}")
    digest = code_digest(root)
    namespace = _namespace(root, digest)
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
        actions += _concrete(root, module, BaseActionRule)
        steps += _concrete(root, module, BaseStepRule)
        rewards += _concrete(root, module, RewardFunction)
        inits += _concrete(root, module, BaseInitRule)
    for cls in (*actions, *steps, *inits):
        _check_attributes(root, cls)
    if not (actions or steps or rewards or inits):
        LOG.warning("rule pack %s defines no rules", root)
    _check_unique(root, [a.name for a in actions], "verb")
    _check_unique(root, [s.name for s in steps], "step rule")
    return RulePack(
        name=root.name,
        path=root,
        action_rules=tuple(sorted(actions, key=lambda r: r.name)),
        step_rules=tuple(sorted(steps, key=step_order_key)),
        reward_functions=tuple(rewards),
        init_rules=tuple(sorted(inits, key=lambda r: r.name)),
        namespace=namespace,
        digest=digest,
    )


def bundled_pack(name: str) -> RulePack:
    """A pack bundled with the package, by its folder name (`base`, `living_world` ...), as games
    load it: the very classes a game runs, so a pack can subclass a bundled rule (packs may not
    import `agentodyssey_pz.resources`, and bundled packs are never importable by module name)."""
    if not name.isidentifier():
        raise RulePackError(f"bundled rule pack {name!r}: a pack's folder name, not a path")
    return load_pack(rules_dir() / name)


def bundled_step_rule(pack: str, rule_name: str) -> type[BaseStepRule]:
    """The class of a bundled pack's step rule, by its `name`, to subclass: a subclass defined in
    another pack with the same `name` replaces it in games that load both."""
    for rule in bundled_pack(pack).step_rules:
        if rule.name == rule_name:
            return rule
    raise RulePackError(f"bundled rule pack {pack!r} has no step rule {rule_name!r}")


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
    namespaces: tuple[str, ...] = ()  # per pack, as `packs`
    digests: tuple[str, ...] = ()  # per pack, as `packs`: each one's `code_digest`

    def namespace_of(self, path: str | Path) -> str | None:
        """The private package a pack of this rule set was imported under (None: not in it)."""
        wanted = str(Path(path).resolve())
        for pack, namespace in zip(self.packs, self.namespaces, strict=True):
            if pack == wanted:
                return namespace
        return None


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
        namespaces=tuple(p.namespace for p in packs),
        digests=tuple(p.digest for p in packs),
    )


def load_rule_set(paths: Iterable[str | Path]) -> RuleSet:
    return combine([load_pack(p) for p in paths])
