"""Snapshots: `game.save` / `Game.load` round trips, atomic writes, and what loading refuses.

A saved and reloaded game has the same canonical state hash and continues identically (tick
records and hashes) for hundreds of ticks on every bundled world. `write_atomically` interrupted
at any stage leaves the old file (or none) and no temporary file. Loading refuses another world
definition, another set of agents, another format version, damaged files, and checkpoints made
with rule packs that are not named again; no code is ever imported from a path read from a file.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from checkpoint.crash_worker import AGENTS, actions_for, play_until
from conftest import damage_json, damaged_copies, load_raw
from harness import DATA, TINY
from worlds_helper import bundled_worlds

import agentodyssey_pz.engine.snapshot as snapshot_module
from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.result import TickResult
from agentodyssey_pz.engine.snapshot import write_atomically
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.errors import CheckpointError
from agentodyssey_pz.world.validate import parse_definition

SEED = 11
SAVE_AT = 120
CONTINUE = 300
HASH_EVERY = 25
SMITE = str(DATA / "packs" / "smite")
PACKDEMO = DATA / "worlds" / "packdemo"


def tick_record(result: TickResult, agent_ids: tuple[str, ...]) -> dict[str, Any]:
    """What a tick produced, comparable with ==."""
    return {
        "tick": result.tick,
        "terminated": result.terminated,
        "events": [(e.type, e.agent_id, e.data) for e in result.events],
        "agents": {
            a: (
                result.feedback(a),
                result.rewards[a].as_dict(),
                result.invalid[a],
                result.action_ok[a],
            )
            for a in agent_ids
        },
    }


def continue_both(first: Game, second: Game, seed: int, ticks: int) -> None:
    """Play both games with the same action stream; assert they never differ."""
    for _ in range(ticks):
        tick = first.tick_index
        assert second.tick_index == tick
        actions = actions_for(first, seed, tick)
        assert actions_for(second, seed, tick) == actions, (
            f"tick {tick}: the games offer other actions"
        )
        a, b = first.tick(actions), second.tick(actions)
        assert tick_record(a, first.agent_ids) == tick_record(b, second.agent_ids), f"tick {tick}"
        if tick % HASH_EVERY == 0:
            assert state_hash(first) == state_hash(second), f"tick {tick}: state differs"
        if a.terminated:
            break
    assert state_hash(first) == state_hash(second)


def saved_game(
    tmp_path: Path, world: Any = TINY, ticks: int = 20, **config: Any
) -> tuple[Game, Path]:
    game = Game(world, 2, GameConfig(**config))
    game.reset(SEED)
    play_until(game, SEED, ticks)
    path = tmp_path / "snapshot.json"
    game.save(path)
    return game, path


def edit_snapshot(path: Path, change: Any, *, keep_digest: bool = False) -> None:
    """Change a saved snapshot as someone editing it on purpose would: without its digest (which
    the edit would no longer match), unless `keep_digest`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not keep_digest:
        data.pop(snapshot_module.DIGEST_KEY, None)
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


# ---------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("world", bundled_worlds())
def test_save_and_load_continue_identically_for_hundreds_of_ticks(
    world: str, tmp_path: Path
) -> None:
    game = Game(world, AGENTS)
    game.reset(SEED)
    play_until(game, SEED, SAVE_AT)
    path = tmp_path / "snapshot.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.tick_index == game.tick_index == SAVE_AT
    assert state_hash(loaded) == state_hash(game)
    # Loading and saving again gives the same document: nothing is lost or invented on the way.
    loaded.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    continue_both(game, loaded, SEED, CONTINUE)
    assert game.tick_index == SAVE_AT + CONTINUE


def test_the_comparison_notices_a_different_state(tmp_path: Path) -> None:
    game, path = saved_game(tmp_path, "default", ticks=30)
    loaded = Game.load(path)
    loaded.rng.random()  # one extra draw: the generator state is part of the game state
    assert state_hash(loaded) != state_hash(game)
    with pytest.raises(AssertionError):
        continue_both(game, loaded, SEED, 200)


def test_a_snapshot_is_plain_json_with_its_envelope(tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "agentodyssey-snapshot"
    assert data["version"] == snapshot_module.VERSION
    assert data["agent_ids"] == ["agent_0", "agent_1"]
    assert data["state"]["tick_index"] == 20
    assert isinstance(data["definition"], dict) and data["definition"]["entities"]["objects"]
    assert list(data)[-1] == snapshot_module.DIGEST_KEY and len(data["sha256"]) == 64


def test_a_custom_world_is_rebuilt_from_the_definition_inside_the_snapshot(tmp_path: Path) -> None:
    raw = load_raw("tiny_world.json")
    game = Game(parse_definition(raw), 2)
    game.reset(SEED)
    play_until(game, SEED, 40)
    game.save(tmp_path / "custom.json")
    loaded = Game.load(tmp_path / "custom.json")  # no world named: the stored definition is used
    assert state_hash(loaded) == state_hash(game)
    continue_both(game, loaded, SEED, 60)


def test_a_custom_world_keeps_the_bundled_packs_it_names(tmp_path: Path) -> None:
    """A custom world naming `lockpicking` loads with it again from the snapshot alone: a bundled
    pack is rebuilt from its name, never from a path stored in the file."""
    raw = load_raw("tiny_world.json")
    raw.setdefault("features", {})["rule_packs"] = ["lockpicking"]
    game = Game(parse_definition(raw), 2)
    game.reset(SEED)
    play_until(game, SEED, 20)
    game.save(tmp_path / "custom.json")
    loaded = Game.load(tmp_path / "custom.json")
    assert "lockpick" in loaded.engine.rules and state_hash(loaded) == state_hash(game)
    continue_both(game, loaded, SEED, 20)


def test_a_snapshot_with_bundled_packs_loads_in_another_install(tmp_path: Path) -> None:
    """Saved elsewhere (another checkout, venv or machine), a cinderdeep game no longer matches
    this install's world file, so it is rebuilt from its stored definition - and the bundled pack
    it names comes back by name: the snapshot keeps no path to it."""
    game = Game("cinderdeep", 1)
    game.reset(SEED)
    play_until(game, SEED, 10)
    path = tmp_path / "c.json"
    game.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["world_rule_packs"] == []
    edit_snapshot(path, lambda d: d.update(world_source="/elsewhere/worlds/cinderdeep/world.json"))
    loaded = Game.load(path)
    assert "lockpick" in loaded.engine.rules and state_hash(loaded) == state_hash(game)
    continue_both(game, loaded, SEED, 10)


@pytest.mark.parametrize("packs", [5, None, "rules", [3]])
def test_malformed_world_rule_packs_are_refused(packs: Any, tmp_path: Path) -> None:
    game = Game(parse_definition(load_raw("tiny_world.json")), 1)
    game.reset(SEED)
    path = tmp_path / "custom.json"
    game.save(path)
    edit_snapshot(path, lambda d: d.update(world_rule_packs=packs))
    with pytest.raises(CheckpointError, match="world_rule_packs"):
        Game.load(path)


@pytest.mark.parametrize("name", ["../tests/data/packs/smite", "ABSOLUTE", "base", "nope"])
def test_a_snapshot_naming_no_bundled_pack_loads_no_code(name: str, tmp_path: Path) -> None:
    """An edited snapshot cannot make the loader import code from a path it names."""
    if name == "ABSOLUTE":  # an absolute path (the test's own folder), not one of this machine's
        name = str(tmp_path)
    raw = load_raw("tiny_world.json")
    raw.setdefault("features", {})["rule_packs"] = ["lockpicking"]
    game = Game(parse_definition(raw), 1)
    game.reset(SEED)
    path = tmp_path / "custom.json"
    game.save(path)
    edit_snapshot(path, lambda d: d["definition"]["features"].update(rule_packs=[name]))
    with pytest.raises(CheckpointError, match="not a bundled rule pack"):
        Game.load(path)


# ---------------------------------------------------------------------------- atomic writes
def half_writer(target: Path, old: str | None) -> Any:
    """An `os.write` that writes half of what it is given, checks what a reader of the target
    sees, then fails as a full disk would."""
    real_write = os.write

    def write(fd: int, data: Any) -> int:
        real_write(fd, bytes(data)[: len(data) // 2])
        # Mid-write, a reader of the target still sees the old content (or no file at all).
        seen = target.read_text(encoding="utf-8") if target.exists() else None
        assert seen == old
        raise OSError(28, "No space left on device")

    return write


def inject(stage: str, monkeypatch: pytest.MonkeyPatch, target: Path, old: str | None) -> None:
    def fail(*_: Any, **__: Any) -> None:
        raise OSError(5, f"injected failure in {stage}")

    if stage == "write":
        monkeypatch.setattr(os, "write", half_writer(target, old))
    elif stage == "fsync":
        monkeypatch.setattr(os, "fsync", fail)
    elif stage == "replace":
        monkeypatch.setattr(os, "replace", fail)
    else:  # an interrupt (Ctrl-C) right before the rename

        def interrupt(*_: Any, **__: Any) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(os, "replace", interrupt)


STAGES = ("write", "fsync", "replace", "interrupt")


@pytest.mark.parametrize("stage", STAGES)
def test_an_interrupted_write_keeps_the_old_file_and_leaves_no_temp_file(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "snapshot.json"
    target.write_text('{"old": true}', encoding="utf-8")
    inject(stage, monkeypatch, target, '{"old": true}')
    with pytest.raises((OSError, KeyboardInterrupt)):
        write_atomically(target, json.dumps({"new": "x" * 10_000}))
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == '{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snapshot.json"]


@pytest.mark.parametrize("stage", STAGES)
def test_an_interrupted_first_write_leaves_nothing(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "sub" / "snapshot.json"
    target.parent.mkdir()
    inject(stage, monkeypatch, target, None)
    with pytest.raises((OSError, KeyboardInterrupt)):
        write_atomically(target, "new")
    monkeypatch.undo()
    assert list(target.parent.iterdir()) == []


def test_an_atomic_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "snapshot.json"
    write_atomically(target, "first")
    write_atomically(target, "second, longer than the first")
    assert target.read_text(encoding="utf-8") == "second, longer than the first"
    assert [p.name for p in target.parent.iterdir()] == ["snapshot.json"]


def test_a_failed_save_leaves_the_previous_snapshot_loadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, path = saved_game(tmp_path, ticks=10)
    before = state_hash(game)
    play_until(game, SEED, 25)
    inject("replace", monkeypatch, path, None)
    with pytest.raises(OSError):
        game.save(path)
    monkeypatch.undo()
    loaded = Game.load(path)
    assert loaded.tick_index == 10
    assert state_hash(loaded) == before
    assert [p.name for p in tmp_path.iterdir()] == ["snapshot.json"]


# ---------------------------------------------------------------------------- refusals
def test_a_snapshot_of_another_world_is_refused(tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    with pytest.raises(CheckpointError, match="another world definition"):
        Game.load(path, world="default")


def test_a_changed_world_definition_is_refused(tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    raw = load_raw("tiny_world.json")
    raw["entities"]["objects"][1]["value"] = 2  # one pear is worth a little more now
    with pytest.raises(CheckpointError, match="another world definition"):
        Game.load(path, world=parse_definition(raw))
    assert Game.load(path, world=parse_definition(load_raw("tiny_world.json"))).tick_index == 20


def test_a_snapshot_with_other_agents_is_refused(tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    edit_snapshot(path, lambda d: d.update(agent_ids=["agent_0", "agent_1", "agent_2"]))
    with pytest.raises(CheckpointError, match="set of agents"):
        Game.load(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "format version 2 is not supported"),
        (lambda d: d.update(version="1"), "format version '1' is not supported"),
        (lambda d: d.pop("version"), "format version None is not supported"),
        (lambda d: d.update(format="something-else"), "not an agentodyssey snapshot"),
        (lambda d: d.pop("state"), "lacks 'state'"),
        (lambda d: d["state"].pop("world"), "saved state is malformed"),
    ],
)
def test_a_snapshot_in_another_format_is_refused(change: Any, message: str, tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    edit_snapshot(path, change)
    with pytest.raises(CheckpointError, match=message):
        Game.load(path)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda d: d["state"].update(tick_index=21), id="state"),
        pytest.param(lambda d: d["config"].update(xp_per_level=1), id="settings"),
        pytest.param(lambda d: d["definition"]["entities"]["objects"].pop(), id="definition"),
        pytest.param(lambda d: d.update(sha256="0" * 64), id="digest"),
    ],
)
def test_a_snapshot_that_does_not_match_its_digest_is_refused(change: Any, tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    edit_snapshot(path, change, keep_digest=True)
    with pytest.raises(CheckpointError, match=r"does not match its SHA-256 digest.*corrupt"):
        Game.load(path)


def test_the_digest_survives_re_serialising_and_a_snapshot_without_one_still_loads(
    tmp_path: Path,
) -> None:
    """The digest is of the content, not of the bytes: a copy re-written with other escaping
    and spacing loads; so does a snapshot without a digest (made before it existed, or edited on
    purpose)."""
    game, path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(data, indent=1, ensure_ascii=True), encoding="utf-8")
    assert state_hash(Game.load(path)) == state_hash(game)
    edit_snapshot(path, lambda d: None)
    assert state_hash(Game.load(path)) == state_hash(game)


@pytest.mark.parametrize(
    "generator",
    [[3, [1] * 625, None, 4], [3, [1] * 624, None], [3, [-1] * 625, None], [3, [2**40] * 625, None],
     [3, [1.5] * 625, None], ["3", [1] * 625, None], [3, [1] * 625, "gauss"]],
)  # fmt: skip
def test_a_malformed_generator_state_is_refused(generator: list[Any], tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    edit_snapshot(path, lambda d: d["state"].update(rng=generator))
    with pytest.raises(CheckpointError, match="generator state"):
        Game.load(path)


def _agent(d: dict[str, Any], i: int = 0) -> dict[str, Any]:
    return d["state"]["agents"][i]


def _agent0(d: dict[str, Any]) -> dict[str, Any]:
    return d["state"]["agents"][0]["progress"]


def _aux(d: dict[str, Any]) -> dict[str, Any]:
    return d["state"]["world"]["auxiliary"]


@pytest.mark.parametrize(
    ("world", "edit", "fragment"),
    [
        ("default", lambda d: _agent0(d)["main_quest"].update(complete="yes"),
         "agents.agent_0.progress.main_quest.complete: expected bool, got a string"),
        ("default", lambda d: _agent0(d)["main_quest"].pop("bosses"),
         "progress.main_quest.bosses: missing"),
        ("default", lambda d: _agent0(d)["main_quest"].update(drops=[["obj_coin"]]),
         "progress.main_quest.drops[0]: expected a list of two"),
        ("default", lambda d: _agent0(d).update(side_quest=[1]),
         "progress.side_quest: expected an object, got a list"),
        ("default", lambda d: _aux(d)["main_quest"].update(guide_names=["Ada"]),
         "world.auxiliary.main_quest.guide_names: expected an object"),
        ("glasswick", lambda d: _agent0(d)["tutorial_room"].update(stage="2"),
         "progress.tutorial_room.stage: expected int, got a string"),
        ("glasswick", lambda d: next(iter(_aux(d)["tutorial_room"]["rooms"].values())).update(
            misses=None), "world.auxiliary.tutorial_room.rooms.agent_0.misses: expected int"),
    ],
)  # fmt: skip
def test_edited_rule_state_is_refused_on_load_not_mid_tick(
    world: str, edit: Any, fragment: str, tmp_path: Path
) -> None:
    """A snapshot edited on purpose (no digest) whose rule state has the wrong shape: each rule
    declares the shape of what it keeps, and loading refuses the file naming the place."""
    _, path = saved_game(tmp_path, world)
    edit_snapshot(path, edit)
    with pytest.raises(CheckpointError, match="the saved state is malformed") as info:
        Game.load(path)
    assert fragment in str(info.value)


def _world(d: dict[str, Any]) -> dict[str, Any]:
    return d["state"]["world"]


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda d: d["state"]["scores"]["agent_0"].update(kill="x"),
         "scores.agent_0.kill: expected a whole number, got 'x'"),
        (lambda d: d["state"]["scores"]["agent_0"].pop("death"),
         "scores.agent_0: expected the components exploration, craft"),
        (lambda d: d["state"].update(scores=[1]), "the saved state is malformed"),
        (lambda d: _world(d).update(npc_count={"npc_wolf": "x"}),
         "$.npc_count: expected an object of id -> whole number"),
        (lambda d: _world(d).update(container_count={"obj_bag": -1}),
         "$.container_count: expected an object of id -> whole number"),
        (lambda d: _world(d).update(writable_count=[]), "$.writable_count"),
        (lambda d: _world(d).update(npc_names={"wolf": 3}), "$.npc_names"),
        (lambda d: _world(d)["graph"].update(next_order="x"),
         "'next_order' must be a whole number"),
        (lambda d: _world(d)["npcs"][0].update(def_id="npc_nothing"),
         "def_id: unknown NPC prototype 'npc_nothing'"),
        (lambda d: _world(d)["npcs"][0].update(inventory={"obj_nothing": 2}),
         "inventory.obj_nothing: unknown object or negative count (2)"),
        # Agents: cattrs' default converter made 7 the name "7", "yes" a true flag, 3.5 hp 3.
        (lambda d: _agent(d).update(name=7),
         "agents[0].name: expected a string, got an integer (7)"),
        (lambda d: _agent(d, 1).update(tutorial_passed="yes"),
         "agents[1].tutorial_passed: expected true or false, got a string ('yes')"),
        (lambda d: _agent(d).update(hp=3.5),
         "agents[0].hp: expected an integer, got a number (3.5)"),
        (lambda d: d["state"].update(agents={"agent_0": {}}), "'agents' must be a list"),
        # Ids the saved world lacks: these loaded, then failed in a step rule mid-tick.
        (lambda d: _agent(d).update(area_id="area_moon"),
         "$.agents.agent_0.area_id: unknown area 'area_moon'"),
        (lambda d: _agent(d).update(inventory_id="bag_99"),
         "$.agents.agent_0.inventory_id: unknown container 'bag_99'"),
        (lambda d: _agent(d).update(hands={"obj_nothing": 1}),
         "$.agents.agent_0.hands.obj_nothing: unknown object or non-positive count (1)"),
        (lambda d: _agent(d, 1).update(equipped={"obj_nothing": 1}),
         "$.agents.agent_1.equipped.obj_nothing: unknown object"),
        (lambda d: _agent(d).update(hands={"obj_coin": 0}),
         "$.agents.agent_0.hands.obj_coin: unknown object or non-positive count (0)"),
        (lambda d: _agent(d).update(combats={"npc_ghost_0": {"rhythm_index": 0,
                                                             "area_id": "area_gate"}}),
         "$.agents.agent_0.combats.npc_ghost_0: unknown NPC or area"),
        (lambda d: _agent(d).update(visited={"area_moon": None}),
         "$.agents.agent_0.visited: unknown area 'area_moon'"),
        (lambda d: _agent(d).update(craft_credit={"obj_nothing": 0.5}),
         "$.agents.agent_0.craft_credit: unknown object definition 'obj_nothing'"),
        (lambda d: _agent(d).update(crafted={"obj_nothing": 1}),
         "$.agents.agent_0.crafted: unknown object definition 'obj_nothing'"),
    ],
)  # fmt: skip
def test_edited_agents_scores_and_counters_are_refused_on_load(
    edit: Any, fragment: str, tmp_path: Path
) -> None:
    """They were taken as they came (or coerced, or named what the world lacks), and failed later
    inside a rule or a score sum."""
    _, path = saved_game(tmp_path)
    edit_snapshot(path, edit)
    with pytest.raises(CheckpointError, match="malformed") as info:
        Game.load(path)
    assert fragment in str(info.value)


def test_a_randomly_damaged_snapshot_is_always_refused_with_a_checkpoint_error(
    tmp_path: Path,
) -> None:
    """Any value anywhere replaced (a damaged disk, a bad copy): refused as corrupt, never a
    crash or a quietly wrong game. (Edits without the digest are the editor's responsibility:
    types and references are checked on load, rule state is not.)"""
    _, path = saved_game(tmp_path, "default")
    original = path.read_text(encoding="utf-8")
    rng = random.Random(0)
    for _ in range(60):
        data = json.loads(original)
        damage_json(data, rng)
        path.write_text(json.dumps(data), encoding="utf-8")
        if data == json.loads(original):
            continue  # the junk equalled the value it replaced
        with pytest.raises(CheckpointError):
            Game.load(path)


@pytest.mark.parametrize("world", ["default", "glasswick"])
def test_a_randomly_edited_snapshot_loads_and_plays_or_is_refused(
    world: str, tmp_path: Path
) -> None:
    """Edited on purpose (digest deleted), one or two values anywhere replaced by junk: loading
    refuses it with a CheckpointError, or the loaded game plays on without an exception."""
    _, path = saved_game(tmp_path, world)
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop(snapshot_module.DIGEST_KEY)
    refused = 0
    for seed, edited in enumerate(damaged_copies(data, world, 100, most=2)):
        path.write_text(json.dumps(edited), encoding="utf-8")
        try:
            game = Game.load(path)
        except CheckpointError:
            refused += 1
            continue
        for tick in range(5):
            game.tick(actions_for(game, seed, tick))
    assert refused > 50


def test_a_damaged_snapshot_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    _, path = saved_game(tmp_path)
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])
    with pytest.raises(CheckpointError, match=r"not valid JSON .*truncated or corrupt"):
        Game.load(path)
    path.write_bytes(b"\xff\xfe" + text)
    with pytest.raises(CheckpointError, match="not UTF-8"):
        Game.load(path)
    with pytest.raises(CheckpointError, match="cannot read"):
        Game.load(tmp_path / "missing.json")


# ---------------------------------------------------------------------------- rule packs
@pytest.mark.parametrize(
    "world",
    [
        "default",
        TINY,
    ],
)
def test_extra_rule_packs_must_be_named_again(world: Any, tmp_path: Path) -> None:
    game, path = saved_game(tmp_path, world, rule_packs=(SMITE,))
    with pytest.raises(CheckpointError, match="extra rule packs"):
        Game.load(path)
    with pytest.raises(CheckpointError, match="extra rule packs"):
        Game.load(path, rule_packs=(str(DATA / "packs" / "override"),))
    loaded = Game.load(path, rule_packs=(SMITE,))
    assert "smite" in loaded.engine.rules
    assert state_hash(loaded) == state_hash(game)


@pytest.mark.parametrize(
    "named",
    [Path(SMITE), SMITE + os.sep, os.path.relpath(SMITE)],
    ids=["path", "trailing-slash", "relative"],
)
def test_the_same_rule_pack_folder_may_be_named_another_way(named: Any, tmp_path: Path) -> None:
    game, path = saved_game(tmp_path, "default", rule_packs=(SMITE,))
    assert state_hash(Game.load(path, rule_packs=(named,))) == state_hash(game)


def test_a_game_with_a_path_rule_pack_can_be_saved(tmp_path: Path) -> None:
    game, path = saved_game(tmp_path, "default", rule_packs=(Path(SMITE),))
    assert state_hash(Game.load(path, rule_packs=(Path(SMITE),))) == state_hash(game)


def test_a_world_folder_rule_pack_must_be_named_again(tmp_path: Path) -> None:
    game = Game(PACKDEMO, 2)
    game.reset(SEED)
    game.tick({"agent_0": "stamp ahoy", "agent_1": "wait"})
    game.save(tmp_path / "pack.json")
    with pytest.raises(CheckpointError, match="own rule pack"):
        Game.load(tmp_path / "pack.json")
    loaded = Game.load(tmp_path / "pack.json", world=PACKDEMO)
    assert (loaded.world_state["stamp"], loaded.world_state["stamps"]) == ("ahoy", 1)
    assert state_hash(loaded) == state_hash(game)
    for g in (game, loaded):
        g.tick({"agent_0": "stamp again", "agent_1": "wait"})
    assert loaded.world_state["stamps"] == 2
    assert state_hash(loaded) == state_hash(game)


EVIL = """
from pathlib import Path
from agentodyssey_pz.rules.base import BaseActionRule

Path({marker!r}).write_text("imported")


class Evil(BaseActionRule):
    name = "evil"
    verb = "evil"

    def apply(self, ctx, res):
        pass
"""


def evil_pack(tmp_path: Path) -> tuple[Path, Path]:
    """A rule pack that leaves a marker file when it is imported."""
    marker = tmp_path / "imported.txt"
    pack = tmp_path / "evil_pack"
    pack.mkdir()
    (pack / "evil.py").write_text(EVIL.format(marker=str(marker)), encoding="utf-8")
    return pack, marker


def test_no_code_is_loaded_from_a_path_read_from_a_snapshot(tmp_path: Path) -> None:
    pack, marker = evil_pack(tmp_path)
    _, path = saved_game(tmp_path)
    edit_snapshot(path, lambda d: d["config"].update(rule_packs=[str(pack)]))
    with pytest.raises(CheckpointError, match="extra rule packs"):
        Game.load(path)
    # A world with its own pack, the pack swapped for another folder in the file.
    game = Game(PACKDEMO, 2)
    game.reset(SEED)
    game.save(tmp_path / "pack.json")
    edit_snapshot(tmp_path / "pack.json", lambda d: d.update(world_rule_packs=[str(pack)]))
    with pytest.raises(CheckpointError, match="own rule pack"):
        Game.load(tmp_path / "pack.json")
    # The world's source pointing at a folder that has a rule pack: the stored definition is used.
    world = tmp_path / "evil_world"
    shutil.copytree(PACKDEMO, world, ignore=shutil.ignore_patterns("rules"))
    shutil.copytree(pack, world / "rules")
    edit_snapshot(
        tmp_path / "pack.json",
        lambda d: d.update(
            world_rule_packs=[], world_source=str(world / "world.json"), world_name="x"
        ),
    )
    loaded = Game.load(tmp_path / "pack.json")
    assert "evil" not in loaded.engine.rules and "stamp" not in loaded.engine.rules
    assert not marker.exists()


@pytest.mark.parametrize(
    ("junk", "detail"),
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ("1" * 5000, "has 5000 digits"),
    ],
    ids=["deep", "long-number"],
)
def test_snapshots_too_deep_or_with_huge_numbers_are_checkpoint_errors(
    tmp_path: Path, junk: str, detail: str
) -> None:
    """The world files' JSON limits hold for snapshots too: a CheckpointError, not a
    RecursionError or ValueError from the JSON reader."""
    game = Game(TINY, 1)
    game.reset(0)
    path = tmp_path / "s.json"
    game.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("sha256")
    path.write_text(json.dumps(data)[:-1] + f', "junk": {junk}}}', encoding="utf-8")
    with pytest.raises(CheckpointError, match=detail):
        Game.load(path)
