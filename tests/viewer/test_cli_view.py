"""`agentodyssey-pz view` and the pages `evaluate` writes; runs too big for one page are split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from viewer_helper import embedded

from agentodyssey_pz import cli
from agentodyssey_pz.viewer.build import write_pages
from agentodyssey_pz.viewer.deltas import decode


def test_view_prints_the_page_it_wrote(
    evaluation: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page.html"
    assert cli.main(["view", str(evaluation), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_view_puts_pages_where_the_run_is(
    evaluation: Path, checkpoint: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["view", str(evaluation)]) == 0
    assert capsys.readouterr().out.split() == [str(evaluation / "viewer" / "episode-0000.html")]
    assert cli.main(["view", str(checkpoint)]) == 0
    assert capsys.readouterr().out.split() == [str(checkpoint.parent / "episode-00001.html")]


def test_view_refuses_a_file_as_the_folder_of_several_pages(
    evaluation: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = evaluation / "trajectories" / "episode-0000.jsonl"
    runs = tmp_path / "runs"
    runs.mkdir()
    for n in range(2):
        (runs / f"episode-000{n}.jsonl").write_bytes(log.read_bytes())
    blocker = tmp_path / "taken"
    blocker.write_text("x")
    assert cli.main(["view", str(runs), "-o", str(blocker)]) == 1
    assert "must name a folder" in capsys.readouterr().err
    assert cli.main(["view", str(runs), "-o", str(tmp_path / "pages")]) == 0
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == [
        "episode-0000.html",
        "episode-0001.html",
    ]


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "x"])
def test_a_bad_page_size_is_refused_by_argparse(bad: str, evaluation: Path) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["view", str(evaluation), "--max-page-mb", bad])
    assert stopped.value.code == 2


def test_a_run_too_big_for_one_page_is_split_in_parts(evaluation: Path, tmp_path: Path) -> None:
    whole = write_pages(evaluation, tmp_path / "whole.html")[0]
    size = whole.stat().st_size
    parts = write_pages(evaluation, tmp_path / "split.html", max_bytes=int(size * 0.7))
    assert [p.name for p in parts] == [f"split.part{k}.html" for k in range(1, len(parts) + 1)]
    assert len(parts) >= 2
    assert all(p.stat().st_size <= int(size * 0.7) for p in parts)
    frames = decode(embedded(whole.read_text(encoding="utf-8"))["run"])
    ticks: list[int] = []
    for k, part in enumerate(parts):
        data = embedded(part.read_text(encoding="utf-8"))
        assert data["part"]["index"] == k and data["part"]["files"] == [p.name for p in parts]
        assert "too big for one page" in data["part"]["message"]
        mine = decode(data["run"])
        start = frames.index(mine[1]) - 1 if k else 0
        assert mine[1:] == frames[start + 1 : start + len(mine)]
        ticks += [f["tick"] for f in (mine if k == 0 else mine[1:])]
    assert ticks == [f["tick"] for f in frames]


def test_evaluate_writes_one_page_per_episode_and_no_viewer_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ev"
    quick = ["evaluate", "--episodes", "2", "--steps", "8", "--agents", "2", "--policies",
             "explorer,random", "--plot", "none", "--quiet", "-o", str(out)]  # fmt: skip
    assert cli.main(quick) == 0
    assert "viewer: " in capsys.readouterr().out
    pages = sorted(p.name for p in (out / "viewer").iterdir())
    assert pages == ["episode-0000.html", "episode-0001.html"]
    report = json.loads((out / "report.json").read_text())
    assert len(report["episodes"]) == 2
    assert cli.main([*quick[:2], "1", *quick[3:]]) == 0  # one episode: the second page goes
    assert sorted(p.name for p in (out / "viewer").iterdir()) == ["episode-0000.html"]
    capsys.readouterr()
    assert cli.main([*quick, "--no-viewer"]) == 0
    assert "viewer: " not in capsys.readouterr().out
    assert list((out / "viewer").iterdir()) == []
