"""Import direction between layers (docs/architecture.md).

Every module of `agentodyssey_pz/` and of the rule packs under `rules/` is parsed with `ast`; every
import in it (top level, inside functions, under TYPE_CHECKING) is resolved to a module name and
checked against the layer table below. Dependencies point down only:

    adapter -> observe -> services (checkpoint, deps) -> engine -> rules framework -> world;
    errors and resources are leaves
    rule packs (rules/<pack>/) -> agentodyssey_pz.world, agentodyssey_pz.rules (and errors)

The checkpoint store and the dependency tracker use only the engine and below, and the env offers
them (checkpoint_dir, resume, dependency tracking), so they sit between the engine and the
observation layer (docs/architecture.md). The package root, `__main__`, `cli` and the other side
modules (policies, evaluate) sit on top and may import anything.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "agentodyssey_pz"
LAYERED = ("world", "rules", "engine", "checkpoint", "deps", "observe", "adapter")
LEAVES = ("errors", "resources")
# What each layer may import from the package (its own layer always included).
ALLOWED: dict[str, frozenset[str]] = {
    "leaf": frozenset(),
    "world": frozenset({"world", "leaf"}),
    "rules": frozenset({"rules", "world", "leaf"}),
    "engine": frozenset({"engine", "rules", "world", "leaf"}),
    "checkpoint": frozenset({"checkpoint", "engine", "rules", "world", "leaf"}),
    "deps": frozenset({"deps", "engine", "rules", "world", "leaf"}),
    "observe": frozenset({"observe", "engine", "rules", "world", "leaf"}),
    "adapter": frozenset(
        {"adapter", "observe", "checkpoint", "deps", "engine", "rules", "world", "leaf"}
    ),
    "top": frozenset(
        {"top", "adapter", "observe", "checkpoint", "deps", "engine", "rules", "world", "leaf"}
    ),
    # Rule packs import only agentodyssey_pz.world and agentodyssey_pz.rules; errors is
    # "a leaf any layer may import" (packs raise its exception types). resources is not for packs.
    "pack": frozenset({"world", "rules", "errors"}),
}


def layer_of(module: str) -> str | None:
    """The layer of a module of the package (None for anything outside it)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    if len(parts) == 1:
        return "top"
    if parts[1] in LAYERED:
        return parts[1]
    if parts[1] in LEAVES:
        return "leaf"
    return "top"


def target_kind(target: str, importer_layer: str) -> str | None:
    """The layer an imported module belongs to, as the table above names it."""
    kind = layer_of(target)
    if kind == "leaf" and importer_layer == "pack":
        return target.split(".")[1]  # packs may import errors but not resources
    return kind


def imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The modules an import statement depends on, as absolute names.

    `from agentodyssey_pz.world import world` depends on `agentodyssey_pz.world`; from the package
    root (`from agentodyssey_pz import engine`) each imported name counts on its own. Relative
    imports are resolved against `module`."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join([*base, node.module] if node.module else base)
    else:
        stem = node.module or ""
    if stem == PACKAGE:
        return [f"{stem}.{alias.name}" for alias in node.names]
    return [stem]


def violations(source: str, module: str, layer: str, is_package: bool = False) -> list[str]:
    """Imports of one module's source that its layer may not make, one message each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if layer == "pack" and isinstance(node, ast.ImportFrom) and node.level:
            continue  # a pack's own modules: relative imports stay inside the pack
        for target in imported(node, module, is_package):
            if layer == "pack" and target.split(".")[0] == "rules":
                why = "packs are loaded privately, never as 'rules'"
                found.append(f"line {node.lineno}: {target} ({why})")
                continue
            kind = target_kind(target, layer)
            if kind is not None and kind not in ALLOWED[layer]:
                found.append(f"line {node.lineno}: {layer} may not import {target} ({kind})")
    return found


def modules() -> Iterator[tuple[Path, str, str, bool]]:
    """(file, module name, layer, is a package __init__) for every module checked."""
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join(parts)
        yield path, name, layer_of(name) or "top", is_package
    for path in sorted((ROOT / "rules").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        yield path, ".".join(rel.parts), "pack", rel.parts[-1] == "__init__"


# ------------------------------------------------------------------------------ the real tree
def test_every_layer_is_present_and_checked() -> None:
    layers = {layer for _, _, layer, _ in modules()}
    assert layers == {"top", "leaf", "pack", *LAYERED}
    assert sum(1 for _, _, layer, _ in modules() if layer == "pack") >= 20


# Upward imports found in the package, each a bug to fix (then delete its entry: strict xfail).
KNOWN_VIOLATIONS: dict[str, str] = {}


def module_params() -> list[object]:
    params = []
    for m in modules():
        reason = KNOWN_VIOLATIONS.get(m[1])
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(*m, id=m[1], marks=marks))
    return params


@pytest.mark.parametrize(("path", "module", "layer", "is_package"), module_params())
def test_no_upward_imports(path: Path, module: str, layer: str, is_package: bool) -> None:
    source = path.read_text(encoding="utf-8")
    assert violations(source, module, layer, is_package) == []


# ------------------------------------------------------------------------------ the checker itself
ENGINE_GAME, OBSERVE_TEXT = "agentodyssey_pz.engine.game", "agentodyssey_pz.observe.text"
TYPE_CHECKING_IMPORT = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from agentodyssey_pz.engine.game import Game
"""


@pytest.mark.parametrize(
    ("source", "module", "layer"),
    [
        ("from agentodyssey_pz.engine.game import Game", "agentodyssey_pz.world.world", "world"),
        ("import agentodyssey_pz.observe.text", "agentodyssey_pz.engine.tick", "engine"),
        ("from ..engine import game", "agentodyssey_pz.world.synthesis", "world"),
        ("from ..adapter.parallel import VERSION", "agentodyssey_pz.observe.masks", "observe"),
        ("from agentodyssey_pz import engine", "agentodyssey_pz.rules.base", "rules"),
        ("from agentodyssey_pz.world import world", "agentodyssey_pz.errors", "leaf"),
        ("import agentodyssey_pz", "agentodyssey_pz.engine.game", "engine"),
        ("def f():\n    from agentodyssey_pz.adapter import aec\n", OBSERVE_TEXT, "observe"),
        (TYPE_CHECKING_IMPORT, "agentodyssey_pz.rules.context", "rules"),
        ("from agentodyssey_pz.engine.game import Game", "rules.base.verbs.wait", "pack"),
        ("from agentodyssey_pz.resources import rules_dir", "rules.base.steps.x", "pack"),
        ("from agentodyssey_pz.observe import masks", "rules.base.verbs.x", "pack"),
        ("import rules.base.carrying", "rules.base.verbs.x", "pack"),
    ],
)  # fmt: skip
def test_the_checker_catches_a_planted_upward_import(source: str, module: str, layer: str) -> None:
    assert violations(source, module, layer) != []


@pytest.mark.parametrize(
    ("source", "module", "layer"),
    [
        ("from agentodyssey_pz.world.world import World", ENGINE_GAME, "engine"),
        ("from agentodyssey_pz.errors import ConfigError", "agentodyssey_pz.world.graph", "world"),
        ("from agentodyssey_pz.resources import rules_dir", ENGINE_GAME, "engine"),
        ("from . import agents", "agentodyssey_pz.world.world", "world"),
        ("from .events import Event", "agentodyssey_pz.rules.base", "rules"),
        ("from agentodyssey_pz.engine.game import Game", "agentodyssey_pz.observe.text", "observe"),
        ("from agentodyssey_pz.adapter.parallel import parallel_env", "agentodyssey_pz.cli", "top"),
        ("from agentodyssey_pz import world", "agentodyssey_pz.engine.state", "engine"),
        ("from agentodyssey_pz.rules.base import BaseActionRule", "rules.base.verbs.x", "pack"),
        ("from agentodyssey_pz.world.agents import AgentState", "rules.base.verbs.x", "pack"),
        ("from agentodyssey_pz.errors import RulePackError", "rules.base.steps.x", "pack"),
        ("from ..carrying import hand_loc", "rules.base.verbs.x", "pack"),
        ("import json\nimport attrs\nimport networkx", "agentodyssey_pz.world.graph", "world"),
    ],
)  # fmt: skip
def test_the_checker_accepts_allowed_imports(source: str, module: str, layer: str) -> None:
    assert violations(source, module, layer) == []


def test_the_architecture_page_draws_the_layers_this_test_enforces() -> None:
    """docs/architecture.md's picture names the layers top to bottom; it must be the order the
    table above allows (each may import only those drawn below it), every layer drawn once."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    picture = text.split("```")[1]
    drawn: list[str] = []
    for line in picture.splitlines():
        name = line.split()[0] if line.split() else ""
        if name.startswith(f"{PACKAGE}."):
            drawn.append(name.split(".")[1])
        elif name.startswith("checkpoint,"):
            drawn.append("checkpoint+deps")
    want = ["adapter", "observe", "checkpoint+deps", "engine", "rules", "world"]
    assert drawn == want, f"docs/architecture.md draws {drawn}, the layers are {want}"
    # What each layer may import is drawn below it (services and observe both stand on the engine).
    below: set[str] = {"leaf"}
    for layer in reversed(want):
        names = layer.split("+")
        below.update(names)
        for name in names:
            assert ALLOWED[name] <= below, f"{name} may import {sorted(ALLOWED[name] - below)}"
