"""Finding the user's copy of AgentOdyssey, and what happens without one."""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

import pytest

from agentodyssey_pz.errors import PublishedGameError
from agentodyssey_pz.world.published import locate
from agentodyssey_pz.world.published.games import GAMES, game_of_world_file
from agentodyssey_pz.world.published.locate import KNOWN_DIGESTS, find_published


def no_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(locate.metadata, "distribution", missing)
    monkeypatch.delenv(locate.HOME_VARIABLE, raising=False)


def test_without_a_copy_one_line_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch) -> None:
    no_distribution(monkeypatch)
    with pytest.raises(PublishedGameError) as info:
        find_published()
    message = str(info.value)
    assert "\n" not in message
    assert "pip install --no-deps agentodyssey==0.1.0" in message
    assert "AGENTODYSSEY_HOME" in message


def test_a_home_without_games_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(locate.HOME_VARIABLE, str(tmp_path))
    with pytest.raises(PublishedGameError, match="holds no AgentOdyssey games/"):
        find_published()


def fake_copy(published, tmp_path: Path) -> Path:
    """A folder holding only what the importer reads of `published` (world files and the three
    Python modules of each game), as a checkout or a `pip install --target` would."""
    root = tmp_path / "ao"
    for spec in GAMES.values():
        for rel in (spec.world_file, spec.quest_module, spec.tutorial_module, spec.general_module):
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(published.path(rel), target)
    return root


def test_home_wins_over_the_installed_copy_and_changes_are_noticed(
    published, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = fake_copy(published, tmp_path)
    monkeypatch.setenv(locate.HOME_VARIABLE, str(root))
    copy = find_published()
    assert copy.root == root.resolve() and copy.origin.startswith("AGENTODYSSEY_HOME=")
    assert copy.changed_files() == []
    world = root / GAMES["mark"].world_file
    world.write_text(world.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert copy.changed_files() == [GAMES["mark"].world_file]


def test_installed_copy_matches_version_0_1_0(published) -> None:
    assert published.changed_files() == []
    assert len(KNOWN_DIGESTS) == 14


def test_world_files_are_recognised_by_content_wherever_they_lie(published, tmp_path: Path):
    for spec in GAMES.values():
        moved = tmp_path / f"{spec.name}.json"
        shutil.copyfile(published.path(spec.world_file), moved)
        assert game_of_world_file(moved) is spec
    assert game_of_world_file(tmp_path / "nothing.json") is None
    other = tmp_path / "other.json"
    other.write_text("{}", encoding="utf-8")
    assert game_of_world_file(other) is None


def test_paths_outside_the_copy_are_refused(published) -> None:
    with pytest.raises(PublishedGameError, match="not a file inside"):
        published.read_json("../../../../etc/passwd")


def test_unreadable_files_are_named(published, monkeypatch, tmp_path: Path) -> None:
    root = fake_copy(published, tmp_path)
    (root / GAMES["base"].quest_module).write_text("class (:\n", encoding="utf-8")
    (root / GAMES["base"].world_file).write_text("{nope", encoding="utf-8")
    monkeypatch.setenv(locate.HOME_VARIABLE, str(root))
    copy = find_published()
    with pytest.raises(PublishedGameError, match="not readable as Python source"):
        copy.read_python(GAMES["base"].quest_module)
    with pytest.raises(PublishedGameError, match="not readable as JSON"):
        copy.read_json(GAMES["base"].world_file)
    with pytest.raises(PublishedGameError, match="missing from AgentOdyssey's copy"):
        copy.read_json("assets/nothing.json")
