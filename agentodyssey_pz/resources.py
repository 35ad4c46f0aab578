"""Where the bundled worlds and rule packs are, and how a world argument resolves to a file.

A leaf module (any layer may import it). Installed, `worlds/` and `rules/` ship inside the package
(`agentodyssey_pz/_bundled/`, see pyproject.toml) and are found with importlib.resources; from a
source checkout without installing, the repository's own top-level folders are used.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

DEFAULT_WORLD = "thornvale"
WORLD_FILE = "world.json"


def bundled_root() -> Path:
    """The folder holding `worlds/` and `rules/`."""
    shipped = Path(str(resources.files("agentodyssey_pz") / "_bundled"))
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parent.parent  # a source checkout


def worlds_dir() -> Path:
    return bundled_root() / "worlds"


def rules_dir() -> Path:
    return bundled_root() / "rules"


BASE_PACK = "base"  # the default rule pack, always loaded first


def bundled_pack_names() -> list[str]:
    """Names of the bundled rule packs a world may ask for (`features.rule_packs`), sorted; the
    base pack, always loaded, is not among them."""
    return sorted(
        p.name
        for p in rules_dir().iterdir()
        if p.is_dir() and p.name not in (BASE_PACK, "__pycache__")
    )


def default_quest_file(section: str) -> Path:
    """The project's default data for a quest section (main_quest, side_quests, tutorial)."""
    return worlds_dir() / "defaults" / f"{section}.json"


def bundled_world_names() -> list[str]:
    """Names of the bundled worlds (folders of `worlds/` holding a world.json), sorted."""
    root = worlds_dir()
    return sorted(p.name for p in root.iterdir() if (p / WORLD_FILE).is_file())


def resolve_world_file(world: str | os.PathLike[str]) -> Path:
    """A bundled world's name, `default`, a world folder, or a JSON file -> the definition file.

    Raises FileNotFoundError naming the bundled worlds when nothing matches.
    """
    text = os.fspath(world)
    name = DEFAULT_WORLD if text == "default" else text
    path = Path(text)
    if path.is_file():
        return path
    if path.is_dir() and (path / WORLD_FILE).is_file():
        return path / WORLD_FILE
    bundled = worlds_dir() / name / WORLD_FILE
    if os.sep not in name and bundled.is_file():
        return bundled
    known = ", ".join(["default", *bundled_world_names()])
    raise FileNotFoundError(
        f"no world '{text}': not a file, a world folder or a bundled world ({known})"
    )
