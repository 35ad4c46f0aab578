"""Replaying a run into frames that agree with its log, and deltas that give the frames back."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from agentodyssey_pz.checkpoint.store import resume
from agentodyssey_pz.evaluate.trajectory import read_trajectory
from agentodyssey_pz.viewer.deltas import decode, encode, line_edits
from agentodyssey_pz.viewer.record import record
from agentodyssey_pz.viewer.source import find_episodes


def test_frames_show_what_the_log_says(evaluation: Path) -> None:
    source = find_episodes(evaluation)[0]
    run = record(source)
    header, steps = read_trajectory(source.path)
    assert run.notes == []
    assert run.meta["agents"] == list(header["policies"])
    assert [f["tick"] for f in run.frames] == list(range(header["steps"] + 1))
    score = dict.fromkeys(header["policies"], 0)
    for step in steps:
        current = run.frames[step["tick"]]
        agent = step["agent"]
        score[agent] += step["reward"]["score_total"]
        view, shown = current["agents"][agent], current["steps"][agent]
        assert view["area"] == step["area"]
        assert (view["hp"], view["level"]) == (step["progress"]["hp"], step["progress"]["level"])
        assert view["score"] == score[agent]
        assert shown["command"] == step["command"]
        assert shown["feedback"] == step["feedback"]
        assert shown["ok"] == step["flags"]["action_ok"]
        assert shown["reward"] == {k: step["reward"][k] for k in REWARDS if step["reward"][k]}
        assert step["feedback"].strip() in current["obs"][agent]


REWARDS = ("exploration", "craft", "kill", "unique_kill", "trade", "quest", "side_quest", "death")


def test_deltas_give_back_every_frame(evaluation: Path, hostile: Path, checkpoint: Path) -> None:
    for path in (evaluation, hostile, checkpoint):
        run = record(find_episodes(path)[0])
        data = encode(run.frames, run.meta["agents"])
        assert decode(data) == run.frames
        assert len(data["deltas"]) == len(run.frames) - 1


def test_deltas_are_small(evaluation: Path) -> None:
    import json

    run = record(find_episodes(evaluation)[0])
    encoded = len(json.dumps(encode(run.frames, run.meta["agents"]), separators=(",", ":")))
    full = len(json.dumps(run.frames, separators=(",", ":")))
    assert encoded < full / 3  # 30 ticks; a 1,000-tick run: about 1/12


def test_a_checkpoint_replays_to_the_game_it_holds(checkpoint: Path) -> None:
    run = record(find_episodes(checkpoint)[0])
    game = resume(checkpoint, snapshot_every=None)
    last = run.frames[-1]
    assert run.frames[0]["tick"] == 0 and last["tick"] == game.tick_index == 130
    assert run.notes == []
    for agent_id, agent in game.agents.items():
        view = last["agents"][agent_id]
        assert (view["area"], view["hp"], view["level"]) == (agent.area_id, agent.hp, agent.level)
        assert view["score"] == game.scores[agent_id].score_total
    assert all(set(f["steps"]) == set(game.agents) for f in run.frames[1:])


def test_line_edits_turn_one_list_into_the_other() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        before = [rng.randrange(7) for _ in range(rng.randrange(26))]
        after = [rng.randrange(7) for _ in range(rng.randrange(26))]
        if rng.random() < 0.5:  # mostly alike, as consecutive observations are
            after = [*before[: len(before) // 2], *after[:3], *before[len(before) // 2 + 1 :]]
        result = list(before)
        for start, end, ids in reversed(line_edits(before, after)):
            result[start:end] = ids
        assert result == after


def test_line_edits_of_one_changed_line_are_one_edit() -> None:
    rng = random.Random(0)
    before = [rng.randrange(1000) for _ in range(20)]
    after = [*before[:7], 5000, *before[8:]]
    assert line_edits(before, after) == [[7, 8, [5000]]]


def test_a_checkpoint_without_its_first_snapshot_starts_at_the_oldest_kept(
    checkpoint: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "episode-00001"
    shutil.copytree(checkpoint, folder)
    (folder / "snapshot-000000000.json").unlink()
    (folder / "journal-000000000.jsonl").unlink()
    run = record(find_episodes(folder)[0])
    assert [f["tick"] for f in run.frames] == list(range(100, 131))
    assert "starts at tick 100" in " ".join(run.notes)
    whole = record(find_episodes(checkpoint)[0])
    assert run.frames[1:] == whole.frames[101:]


def test_a_tracked_run_carries_its_dependency_graph(tracked: Path, evaluation: Path) -> None:
    source = find_episodes(tracked)[0]
    run = record(source)
    assert record(find_episodes(evaluation)[0]).deps is None  # not tracked: none
    _, steps = read_trajectory(source.path)
    command = {(s["tick"], s["agent"]): s["command"] for s in steps}
    nodes, edges = run.deps["nodes"], run.deps["edges"]
    assert edges and all(0 <= p < len(nodes) and 0 <= c < len(nodes) for p, c in edges)
    assert all(nodes[p][0] < nodes[c][0] for p, c in edges)  # made before it was used
    for tick, actor, rule, _hint in nodes:
        if actor >= 0:  # an agent's action: the command the log has for that tick
            assert command[(tick, run.meta["agents"][actor])].startswith(rule)
    crafts = [n for n in nodes if n[2] == "craft"]
    assert crafts and any(nodes[c][2] == "craft" for _, c in edges)


def test_areas_a_world_expansion_adds_are_dated(expanding: Path) -> None:
    run = record(find_episodes(expanding)[0])
    assert set(run.since) == set(run.world.areas)
    late = {a: t for a, t in run.since.items() if t > 0}
    assert late, "the run was meant to expand its world"
    for area, tick in late.items():
        visits = [
            f["tick"] for f in run.frames if any(v["area"] == area for v in f["agents"].values())
        ]
        assert not visits or visits[0] >= tick  # nobody stands in an area before it exists


def test_a_damaged_journal_line_ends_the_page_there_and_says_so(
    checkpoint: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "episode-00001"
    shutil.copytree(checkpoint, folder)
    journal = folder / "journal-000000100.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[11] = lines[11].replace('"t":', '"T":')  # its checksum no longer matches
    journal.write_text("".join(lines), encoding="utf-8")
    run = record(find_episodes(folder)[0])
    assert run.frames[-1]["tick"] == 110
    assert any("damaged" in note for note in run.notes)
