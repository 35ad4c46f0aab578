"""No code names a content id: content lives in data, verbs interpret tables.

Every id of an object, NPC, place or area defined by a bundled world (its world.json and
quests.json) or by the project's default quest data (worlds/defaults/*.json) is collected; no string
literal in `agentodyssey_pz/` or `rules/` may be such an id or contain one as a whole word
(docstrings, which are prose, are skipped). A short allow-list covers ids the base rules know.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from worlds_helper import bundled_definition, bundled_worlds

from agentodyssey_pz.resources import worlds_dir

ROOT = Path(__file__).resolve().parent.parent.parent
CODE_FOLDERS = ("agentodyssey_pz", "rules")
ENTITY_TYPES = ("object", "npc", "place", "area")
WORD = re.compile(r"[A-Za-z0-9_]+")
ALLOWED = {
    # The base trading rules and valid-action enumeration
    # hard-code the currency id (and synthesis requires exactly one `obj_coin` per world).
    "obj_coin",
    # docs/mechanics/verbs.md#enter: the base `enter` rule opens locked
    # paths with `obj_key` (ours as the fallback for paths locked without a named key).
    "obj_key",
}


def typed_ids(data: Any) -> Iterator[str]:
    """Ids of every JSON object with `"type"` object/npc/place/area, at any depth."""
    if isinstance(data, dict):
        if data.get("type") in ENTITY_TYPES and isinstance(data.get("id"), str):
            yield data["id"]
        for value in data.values():
            yield from typed_ids(value)
    elif isinstance(data, list):
        for value in data:
            yield from typed_ids(value)


def content_files() -> list[Path]:
    root = worlds_dir()
    files = [root / name / "world.json" for name in bundled_worlds()]
    files += [
        root / name / "quests.json"
        for name in bundled_worlds()
        if (root / name / "quests.json").is_file()
    ]
    return files + sorted((root / "defaults").glob("*.json"))


def content_ids() -> set[str]:
    ids: set[str] = set()
    for path in content_files():
        ids.update(typed_ids(json.loads(path.read_text(encoding="utf-8"))))
    for name in bundled_worlds():  # also through the loader, whatever the JSON looks like
        entities = bundled_definition(name).entities
        ids.update(p.id for p in entities.places)
        ids.update(a.id for p in entities.places for a in p.areas)
        ids.update(o.id for o in entities.objects)
        ids.update(n.id for n in entities.npcs)
    return ids


def docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def literal_ids(source: str, ids: set[str]) -> list[tuple[int, str]]:
    """(line, id) for every string literal that is, or contains as a whole word, a content id."""
    tree = ast.parse(source)
    skip = docstring_nodes(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words = {node.value, *WORD.findall(node.value)}
            hits += [(node.lineno, i) for i in sorted(words & ids)]
    return hits


def code_files() -> list[Path]:
    return [p for folder in CODE_FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))]


# ------------------------------------------------------------------------------ the real tree
def test_ids_are_gathered_from_every_source() -> None:
    ids = content_ids()
    assert {"obj_coin", "obj_key"} <= ids
    assert len(content_files()) >= len(bundled_worlds()) + 3  # worlds + the three default files
    for prefix in ("obj_", "npc_", "place_", "area_"):
        assert sum(i.startswith(prefix) for i in ids) >= 5, prefix
    main_quest = worlds_dir() / "defaults" / "main_quest.json"
    quest_ids = set(typed_ids(json.loads(main_quest.read_text(encoding="utf-8"))))
    assert quest_ids and quest_ids <= ids


def test_no_content_id_is_a_string_literal_in_code() -> None:
    ids = content_ids() - ALLOWED
    found = {
        f"{path.relative_to(ROOT)}:{line}": cid
        for path in code_files()
        for line, cid in literal_ids(path.read_text(encoding="utf-8"), ids)
    }
    assert found == {}


# ------------------------------------------------------------------------------ the checker itself
IDS = {"obj_lantern", "npc_ferryman", "area_quay", "place_harbour"}


@pytest.mark.parametrize(
    "source",
    [
        'LANTERN = "obj_lantern"',
        "def f(world):\n    return world.npcs['npc_ferryman']\n",
        'TABLE = {"area_quay": 3}',
        'text = f"{name} waits at place_harbour."',
        'SPAWN = "area_quay:2"',
        'class A:\n    """Doc."""\n    where = "place_harbour"\n',
    ],
)
def test_the_checker_catches_a_planted_literal(source: str) -> None:
    assert literal_ids(source, IDS) != []


@pytest.mark.parametrize(
    "source",
    [
        '"""Module doc mentioning obj_lantern is prose."""\nX = 1\n',
        'def f():\n    """Returns npc_ferryman\'s boat."""\n    return 2\n',
        'PREFIX = "obj_"\nname = PREFIX + "lantern"',
        'WORD = "obj_lantern_glass"',  # another id, not this one
        "# obj_lantern in a comment\nX = 'quay'",
    ],
)
def test_the_checker_ignores_docstrings_comments_and_other_words(source: str) -> None:
    assert literal_ids(source, IDS) == []
