"""The dependency tracker: tokens, nodes and edges, and its hook into the engine.

docs/mechanics/dependency-tracking.md. A scripted craft chain on the tiny world gives exactly the
expected edges; the token algebra follows
docs/mechanics/dependency-tracking.md#tokens-nodes-and-edges (FIFO, last touch, strict shortfalls,
read-only utilize); one node per rule application every tick; agents in the tutorial are not
recorded, and a world without a tutorial records from the first tick. Over random play on every
bundled world a strict tracker never runs short and its tokens match the items in the state after
every tick, which also proves the base rules report every unit they move, make or use up.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import load_raw
from harness import give
from worlds_helper import bundled_worlds

from agentodyssey_pz.deps import ROOT, DependencyTracker, TokenShortfallError
from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.engine.state import state_hash
from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.rules.events import Event
from agentodyssey_pz.world.validate import parse_definition

CHAIN = ["pick up pear", "craft 2 cider", "pick up cider", "pick up cider", "craft 1 key"]


def strict() -> DependencyTracker:
    return DependencyTracker(strict=True)


def pear_world(pears: int = 1) -> Any:
    """The tiny world with pears on the spawn ground, next to the press."""
    raw = load_raw("tiny_world.json")
    raw["initializations"]["spawn"]["objects"]["obj_pear"] = pears
    return parse_definition(raw)


def tracked_game(world: Any = None, agents: int = 2, factory: Any = strict, **config: Any) -> Game:
    game = Game(world if world is not None else pear_world(), agents, GameConfig(**config),
                tracker_factory=factory)  # fmt: skip
    game.reset(0)
    return game


def play(game: Game, commands: list[str], actor: str = "agent_0") -> None:
    for command in commands:
        actions = dict.fromkeys(game.agent_ids, "wait")
        actions[actor] = command
        result = game.tick(actions)
        assert result.action_ok[actor], (command, result.feedback(actor))


def random_play(game: Game, ticks: int, seed: int, check: Any = None) -> None:
    rng = random.Random(seed)
    for _ in range(ticks):
        actions = {
            a: rng.choice([c for cs in valid_actions(game, a).values() for c in cs])
            for a in game.agent_ids
        }
        game.tick(actions)
        if check is not None:
            check(game)


def ev(type_: str, obj: Any = "obj_x", amount: Any = 1, **locs: Any) -> Event:
    data = {"obj_id": obj, "amount": amount}
    data.update({k: {"kind": v[0], "id": v[1]} for k, v in locs.items()})
    return Event(type_, "agent_0", data)


# ---------------------------------------------------------------------------- the craft chain
def test_a_craft_chain_gives_exactly_the_expected_edges() -> None:
    game = tracked_game()
    play(game, CHAIN)
    tracker = game.tracker
    assert tracker.edges() == [
        ("0:0:agent_0:pick up", "1:0:agent_0:craft"),  # the pear made the cider
        ("1:0:agent_0:craft", "2:0:agent_0:pick up"),  # the cider was picked up ...
        ("1:0:agent_0:craft", "3:0:agent_0:pick up"),
        ("2:0:agent_0:pick up", "4:0:agent_0:craft"),  # ... and made the key
        ("3:0:agent_0:pick up", "4:0:agent_0:craft"),
    ]
    summary = tracker.to_dict()
    assert summary["edges"] == {
        "pick up -> craft": [[0, 1], [2, 4], [3, 4]],
        "craft -> pick up": [[1, 2], [1, 3]],
    }
    assert summary["steps"] == [-1, 0, 1, 2, 3, 4]
    assert summary["step_hints"]["1"] == ["agent_0: craft 2 cider", "agent_1: wait"]
    # The new key lies on the ground behind the one that was there at reset, made by the craft.
    old_key, new_key = tracker.tokens_at("area", "area_gate", "obj_key")
    assert (tracker.token_last[old_key], tracker.token_last[new_key]) == (ROOT, "4:0:agent_0:craft")
    assert tracker.tokens_at("hand", "agent_0", "obj_cider") == []


def test_the_chain_also_hangs_from_the_root() -> None:
    game = tracked_game()
    play(game, CHAIN[:2])
    graph = game.tracker.graph
    # The pear existed at reset: the pick up depends on the root (kept, but never exported).
    assert graph.has_edge(ROOT, "0:0:agent_0:pick up")
    assert all(ROOT not in edge for edge in game.tracker.edges())
    assert graph.nodes[ROOT] == {"step": -1, "actor": "env", "rule": "init", "seq": 0, "hint": ""}


def test_every_rule_application_is_a_node_every_tick() -> None:
    game = tracked_game(agents=3)
    play(game, ["wait"])
    assert game.tick({"agent_0": "dance badly"}).invalid["agent_0"]  # the others: no command
    steps = Counter(game.tracker.graph.nodes[n]["step"] for n in game.tracker.nodes())
    n_steps = len(game.step_rules)
    # The bootstrap tick (-1) is a step with everyone waiting
    # (docs/mechanics/index.md#the-bootstrap-tick).
    assert steps == {-1: len(game.init_rules) + 3 + n_steps, 0: 3 + n_steps, 1: 3 + n_steps}
    assert game.tracker.graph.nodes["-1:0:agent_0:wait"]["hint"] == "agent_0: wait"
    names = [n for n in game.tracker.nodes() if n.startswith("1:")]
    assert names[:3] == ["1:0:agent_0:invalid", "1:1:agent_1:invalid", "1:2:agent_2:invalid"]
    assert names[3:] == [f"1:{3 + i}:env:{rule.name}" for i, rule in enumerate(game.step_rules)]
    node = game.tracker.graph.nodes["1:0:agent_0:invalid"]
    assert (node["actor"], node["rule"], node["seq"], node["hint"]) == (
        "agent_0", "invalid", 0, "agent_0: None",
    )  # fmt: skip
    assert game.tracker.graph.nodes["0:0:agent_0:wait"]["hint"] == "agent_0: wait"


# ---------------------------------------------------------------------------- token algebra
def test_fifo_and_last_touch() -> None:
    t = DependencyTracker(strict=True)
    t.spawn_tokens("obj_x", 2, ("area", "a"), ROOT)
    a = t.process(0, "agent_0", "pick_up", [ev("track.move", src=("area", "a"), dst=("hand", "h"))])
    b = t.process(1, "agent_0", "drop", [ev("track.move", src=("hand", "h"), dst=("area", "b"))])
    c = t.process(2, "agent_0", "craft", [ev("track.consume", src=("area", "b"))])
    assert t.edges() == [(a, b), (b, c)]  # last touch: no edge a -> c
    assert t.tokens_at("area", "a", "obj_x") == ["obj_x#1"]  # the oldest token left first
    assert t.token_last == {"obj_x#1": ROOT}  # the consumed token is gone


def test_spawned_units_have_no_predecessor() -> None:
    t = DependencyTracker(strict=True)
    a = t.process(0, "env", "main_quest_step", [ev("track.spawn", amount=3, dst=("area", "a"))])
    b = t.process(1, "agent_0", "pick_up", [ev("track.move", src=("area", "a"), dst=("hand", "h"))])
    assert list(t.graph.predecessors(a)) == []
    assert t.edges() == [(a, b)]
    assert t.tokens_at("area", "a", "obj_x") == ["obj_x#1", "obj_x#2"]


def test_utilize_is_a_read_only_dependency() -> None:
    game = tracked_game()
    play(game, ["pick up pear", "inspect pear", "drop pear"])
    tracker = game.tracker
    pick, inspect, drop = "0:0:agent_0:pick up", "1:0:agent_0:inspect", "2:0:agent_0:drop"
    assert tracker.edges() == [(pick, inspect), (pick, drop)]  # no inspect -> drop edge
    direct = DependencyTracker(strict=True)
    direct.spawn_tokens("obj_x", 3, ("hand", "h"), "P")
    direct.process(0, "agent_0", "inspect", [ev("track.utilize", amount=2, src=("hand", "h"))])
    assert direct.tokens_at("hand", "h", "obj_x") == ["obj_x#0", "obj_x#1", "obj_x#2"]
    assert set(direct.token_last.values()) == {"P"}


def test_strict_mode_raises_on_a_shortfall() -> None:
    t = DependencyTracker(strict=True)
    t.spawn_tokens("obj_x", 1, ("hand", "h"), ROOT)
    with pytest.raises(TokenShortfallError, match="need 2, have 1"):
        t.process(0, "agent_0", "craft", [ev("track.consume", amount=2, src=("hand", "h"))])


def test_a_strict_game_raises_when_units_appear_without_events() -> None:
    game = tracked_game()
    give(game, "agent_0", "obj_quill")  # put in hand behind the rules' back
    with pytest.raises(TokenShortfallError, match="obj_quill at hand agent_0"):
        game.tick({"agent_0": "drop quill", "agent_1": "wait"})


def test_non_strict_mode_fabricates_the_shortfall_from_the_root() -> None:
    game = tracked_game(factory=DependencyTracker)
    give(game, "agent_0", "obj_quill")
    game.tick({"agent_0": "drop quill", "agent_1": "wait"})
    assert game.tracker.graph.has_edge(ROOT, "0:0:agent_0:drop")
    assert game.tracker.edges() == []
    t = DependencyTracker()
    t.spawn_tokens("obj_x", 1, ("hand", "h"), "P")
    t.process(0, "agent_0", "craft", [ev("track.consume", amount=3, src=("hand", "h"))])
    assert sorted(t.graph.predecessors("0:0:agent_0:craft")) == sorted([ROOT, "P"])


@pytest.mark.parametrize("loc", [None, "area", {"kind": "area"}, {"id": "a"}, ["area", "a"]])
def test_a_malformed_location_raises_even_when_not_strict(loc: Any) -> None:
    event = Event("track.move", "agent_0", {"obj_id": "obj_x", "amount": 1, "src": loc,
                                            "dst": {"kind": "hand", "id": "h"}})  # fmt: skip
    with pytest.raises(ValueError, match="malformed tracking location"):
        DependencyTracker().process(0, "agent_0", "pick_up", [event])


def test_a_missing_location_raises_even_when_not_strict() -> None:
    event = Event("track.consume", "agent_0", {"obj_id": "obj_x", "amount": 1})
    with pytest.raises(ValueError, match="malformed tracking location None"):
        DependencyTracker().process(0, "agent_0", "craft", [event])


def test_amounts_are_integers_and_non_positive_ones_are_skipped() -> None:
    t = DependencyTracker(strict=True)
    t.process(0, "env", "spawn", [
        ev("track.spawn", amount="2", dst=("area", "a")),
        ev("track.spawn", amount=0, dst=("area", "a")),
        ev("track.spawn", amount=-3, dst=("area", "a")),
        ev("track.spawn", obj=None, dst=("area", "a")),
        {"type": "track.spawn", "agent_id": "env",
         "data": {"obj_id": "obj_y", "amount": 1, "dst": {"kind": "area", "id": "a"}}},
        Event("something_else", "agent_0", {"amount": 5}),
    ])  # fmt: skip
    assert t.tokens_at("area", "a", "obj_x") == ["obj_x#0", "obj_x#1"]
    assert t.tokens_at("area", "a", "None") == ["None#2"]
    assert t.tokens_at("area", "a", "obj_y") == ["obj_y#3"]


def test_step_rule_hints_come_from_hint_events() -> None:
    game = tracked_game()
    node = game.tracker.record_step(game, "tutorial_room_step", [
        Event("dep_tracker_hint", "agent_0", {"hint": "pick up the bag"}),
        Event("dep_tracker_hint", "agent_1", {"hint": "open the door"}),
    ])  # fmt: skip
    assert game.tracker.graph.nodes[node]["hint"] == "pick up the bag\nopen the door"
    assert game.tracker.step_hints[game.tick_index][-1] == "pick up the bag\nopen the door"


# ---------------------------------------------------------------------------- the tutorial
def tutorial_world() -> str:
    for world in bundled_worlds():
        game = Game(world, 1)
        if game.is_enabled("tutorial"):
            return world
    pytest.skip("no bundled world has a tutorial")


def test_agents_in_the_tutorial_are_not_recorded() -> None:
    game = tracked_game(tutorial_world(), factory=DependencyTracker)
    assert not any(a.tutorial_passed for a in game.agents.values())
    game.tick(dict.fromkeys(game.agent_ids, "wait"))
    nodes = [n for n in game.tracker.nodes() if n.startswith("0:")]
    assert [n.split(":")[2] for n in nodes] == ["env"] * len(game.step_rules)
    # The tutorial's hint events still label its step-rule node.
    assert game.tracker.step_hints.get(0)


def test_one_agent_out_of_the_tutorial_is_recorded_alone() -> None:
    game = tracked_game(tutorial_world(), factory=DependencyTracker)
    game.agents["agent_1"].tutorial_passed = True
    game.tick(dict.fromkeys(game.agent_ids, "wait"))
    actors = [game.tracker.graph.nodes[n]["actor"] for n in game.tracker.nodes() if n[0] == "0"]
    assert actors.count("agent_1") == 1 and "agent_0" not in actors


def test_a_world_without_a_tutorial_records_from_the_first_tick() -> None:
    game = tracked_game(tutorial_world(), factory=DependencyTracker, tutorial=False)
    game.tick(dict.fromkeys(game.agent_ids, "wait"))
    assert "0:0:agent_0:wait" in game.tracker.graph and "0:1:agent_1:wait" in game.tracker.graph


# ---------------------------------------------------------------------------- the engine hook
def test_without_a_factory_there_is_no_tracker_and_no_tracking_events() -> None:
    game = Game(pear_world(), 2)
    game.reset(0)
    result = game.tick({"agent_0": "pick up pear", "agent_1": "wait"})
    assert game.tracker is None
    assert not [e for e in result.events if e.type.startswith("track.")]


def test_tracking_does_not_change_the_game() -> None:
    plain, tracked = Game("default", 3), tracked_game("default", 3, factory=DependencyTracker)
    plain.reset(0)
    for game in (plain, tracked):
        random_play(game, 150, seed=4)
    assert state_hash(plain) == state_hash(tracked)


def test_every_reset_and_load_starts_a_fresh_tracker(tmp_path: Path) -> None:
    game = tracked_game()
    first = game.tracker
    play(game, CHAIN[:2])
    game.reset(1)
    assert game.tracker is not first and game.tracker.nodes()[0].startswith("-1:")
    play(game, CHAIN[:2])
    game.save(tmp_path / "s.json")
    loaded = Game.load(tmp_path / "s.json", world=pear_world(), tracker_factory=strict)
    assert loaded.tracker.nodes() == []  # history is not saved: everything belongs to the root
    assert set(loaded.tracker.token_last.values()) == {ROOT}
    assert len(loaded.tracker.tokens_at("area", "area_gate", "obj_cider")) == 2
    play(loaded, ["pick up cider"])
    assert loaded.tracker.graph.has_edge(ROOT, f"{loaded.tick_index - 1}:0:agent_0:pick up")


# ---------------------------------------------------------------------------- conservation
def units_in_state(game: Game) -> dict[tuple[str, str, str], int]:
    out: dict[tuple[str, str, str], int] = {}
    stores = [("area", a.id, a.objects) for a in game.world.areas.values()]
    for agent in game.agents.values():
        stores += [("hand", agent.id, agent.hands), ("equip", agent.id, agent.equipped)]
    stores += [("container", c.id, c.items) for c in game.world.containers.values()]
    for kind, ident, store in stores:
        for oid, count in store.items():
            if int(count):
                out[(kind, ident, oid)] = int(count)
    return out


def units_tracked(tracker: DependencyTracker) -> dict[tuple[str, str, str], int]:
    return {
        (kind, ident, oid): len(queue)
        for (kind, ident), by_obj in tracker.loc_tokens.items()
        for oid, queue in by_obj.items()
        if queue
    }


def check_conserved(game: Game) -> None:
    assert units_tracked(game.tracker) == units_in_state(game), f"tick {game.tick_index}"


def test_the_conservation_check_notices_a_lost_unit() -> None:
    game = tracked_game()
    check_conserved(game)
    give(game, "agent_0", "obj_quill")
    with pytest.raises(AssertionError):
        check_conserved(game)


@pytest.mark.parametrize("world", bundled_worlds())
def test_a_strict_tracker_follows_every_unit_in_random_play(world: str) -> None:
    game = tracked_game(world, 3, tutorial=False)
    check_conserved(game)
    random_play(game, 300, seed=9, check=check_conserved)
    assert len(game.tracker.edges()) > 100  # the play did move, make and use things


def test_units_of_an_expansion_are_tracked() -> None:
    game = tracked_game(world_expansion=True)
    areas = len(game.world.areas)
    game.agents["agent_0"].visited = dict.fromkeys(game.world.areas)  # everything explored
    game.tick(dict.fromkeys(game.agent_ids, "wait"))
    assert len(game.world.areas) > areas
    check_conserved(game)


@pytest.mark.parametrize("world", bundled_worlds())
def test_a_strict_tracker_never_runs_short_with_the_tutorial_on(world: str) -> None:
    game = tracked_game(world, 3)
    random_play(game, 200, seed=2)


# ---------------------------------------------------------------------------- determinism
SCRIPT = """
import json, random, sys
sys.path[:0] = {paths!r}
from test_tracker import random_play, tracked_game
from agentodyssey_pz.deps import DependencyTracker
game = tracked_game("default", 3, factory=DependencyTracker)
random_play(game, 120, seed=6)
t = game.tracker
print(json.dumps([t.to_dict(), t.to_dot(), t.to_mermaid("action"), t.to_axis_svg()]))
"""


def test_exports_are_the_same_in_another_process_with_another_hash_seed() -> None:
    here = str(Path(__file__).parent)
    tests = str(Path(__file__).parent.parent)
    game = tracked_game("default", 3, factory=DependencyTracker)
    random_play(game, 120, seed=6)
    t = game.tracker
    expected = [t.to_dict(), t.to_dot(), t.to_mermaid("action"), t.to_axis_svg()]
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(paths=[here, tests])],
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert json.loads(out.stdout) == json.loads(json.dumps(expected))
