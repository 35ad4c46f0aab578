"""`agentodyssey:<game>` on the command line: `games`, `validate`, `evaluate`, `play`, `map` and
`audit` take it like any world; without a copy, one line says how to get one."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import pytest

from agentodyssey_pz import cli
from agentodyssey_pz.play import play
from agentodyssey_pz.world.published import locate
from agentodyssey_pz.world.published.games import GAMES


@pytest.fixture(autouse=True)
def _copy(published):
    return published


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_games_lists_the_seven_with_where_and_what(capsys, published) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert published.origin in out
    for name in GAMES:
        assert f"agentodyssey:{name}  (found:" in out
    assert "synthesis variant 'remnant'" in out and "darkness" in out
    unfinished = [spec for spec in GAMES.values() if spec.missing]
    assert out.count("not yet:") == len(unfinished)  # each unfinished game says what it lacks
    assert out.count("fully supported:") == len(GAMES) - len(unfinished)
    assert out.count("fully supported:") >= 3  # base, remnant, mark


def test_games_without_a_copy_says_how_to_get_one(capsys, monkeypatch) -> None:
    def missing(name: str):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(locate.metadata, "distribution", missing)
    monkeypatch.delenv(locate.HOME_VARIABLE, raising=False)
    status, out, err = run(capsys, "games")
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "pip install --no-deps agentodyssey==0.1.0" in err
    status, _, err = run(capsys, "validate", "agentodyssey:remnant")
    assert status == 1 and err.count("\n") == 1 and "AGENTODYSSEY_HOME" in err


def test_validate_a_game_and_an_unknown_one(capsys) -> None:
    status, out, _ = run(capsys, "validate", "agentodyssey:mark")
    assert status == 0 and "agentodyssey:mark: valid" in out
    status, _, err = run(capsys, "validate", "agentodyssey:atlantis")
    assert status == 1 and "no published game 'atlantis'" in err and "remnant" in err


def test_evaluate_a_game(capsys, tmp_path: Path) -> None:
    status, _, _ = run(
        capsys, "evaluate", "--world", "agentodyssey:remnant", "--episodes", "1", "--steps", "20",
        "--agents", "2", "--policies", "explorer,quester", "--plot", "none", "--quiet",
        "-o", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["config"]["world"] == "agentodyssey:remnant"


def test_map_of_a_game(capsys, tmp_path: Path) -> None:
    target = tmp_path / "mark.svg"
    status, _, _ = run(capsys, "map", "agentodyssey:mark", "-o", str(target))
    assert status == 0
    root = ET.parse(target).getroot()
    areas = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "area" in g.get("class", "")]
    drawn = {g.get("data-area") for g in areas}
    assert "area_castle_hall" in drawn and "area_mines_crystal_grotto" in drawn
    assert len(drawn) == 14 + 1  # mark's fourteen areas, and the tutorial room of the agent


def test_play_a_game() -> None:
    out = io.StringIO()
    play(world="agentodyssey:mark", stdin=io.StringIO("wait\nquit\n"), stdout=out, others="wait")
    assert "I waited." in out.getvalue()


def test_audit_a_game(capsys) -> None:
    status, out, _ = run(
        capsys, "audit", "--world", "agentodyssey:base", "--ticks", "40", "--states", "2",
        "--no-other-process", "--quiet",
    )  # fmt: skip
    assert status == 0 and "no problems" in out
