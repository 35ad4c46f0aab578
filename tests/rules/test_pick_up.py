"""`pick up <object>`: one unit from the ground into the hands (two units held at most).

Spec: actions.md section 3; valid actions per observations-and-loop section 10 (recommended:
respect the two-hands limit, one entry per distinct item, instances by instance name).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import act, agent, clear_world, give, make_game, move_to, put_on_ground, state_of

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext

HERE = "area_gate"
ELSEWHERE = "area_rows"


@pytest.fixture
def game() -> Game:
    g = make_game()
    clear_world(g)
    g.tracker = True
    return g


def ground(game: Game) -> dict[str, int]:
    return game.world.areas[HERE].objects


def test_pick_up_one_unit(game: Game) -> None:
    put_on_ground(game, HERE, "obj_pear", 3)
    res = act(game, "agent_0", "pick up pear")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["pick_up.done"]
    assert ground(game) == {"obj_pear": 2} and agent(game).hands == {"obj_pear": 1}
    assert [(e.type, e.data) for e in res.events] == [
        ("object_picked_up", {"obj_id": "obj_pear", "area_id": HERE}),
        (
            "track.move",
            {
                "obj_id": "obj_pear",
                "amount": 1,
                "src": {"kind": "area", "id": HERE},
                "dst": {"kind": "hand", "id": "agent_0"},
            },
        ),
    ]


def test_coins_one_at_a_time_and_two_fill_both_hands(game: Game) -> None:
    put_on_ground(game, HERE, "obj_coin", 5)
    act(game, "agent_0", "pick up coin")
    act(game, "agent_0", "pick up coin")
    res = act(game, "agent_0", "pick up coin")
    assert res.feedback_keys("agent_0") == ["pick_up.hands_full"]
    assert agent(game).hands == {"obj_coin": 2} and ground(game) == {"obj_coin": 3}


@pytest.mark.parametrize("def_id", ["obj_press", "obj_crate", "obj_label", "obj_pruner"])
def test_anything_can_be_picked_up(game: Game, def_id: str) -> None:
    """Stations (size None), containers (with their contents) and writables too."""
    oid = put_on_ground(game, HERE, def_id)[0]
    if oid in game.world.containers:
        game.world.containers[oid].items["obj_pear"] = 4
    res = act(game, "agent_0", ("pick up", [game.world.name_of(oid)]))
    assert res.action_ok["agent_0"]
    assert agent(game).hands == {oid: 1} and ground(game) == {}
    if oid in game.world.containers:
        assert game.world.containers[oid].items == {"obj_pear": 4}


def _label_instance_only(g: Game) -> str:
    put_on_ground(g, HERE, "obj_label")
    return "label"  # the definition name: the ground holds label_<n>, not a plain label


def _held_only(g: Game) -> str:
    give(g, "agent_0", "obj_pear")
    return "pear"


def _full(g: Game) -> str:
    put_on_ground(g, HERE, "obj_pear")
    give(g, "agent_0", "obj_coin", 2)
    return "pear"


def _absent_and_full(g: Game) -> str:
    give(g, "agent_0", "obj_coin", 2)
    return "pear"


def _elsewhere(g: Game) -> str:
    put_on_ground(g, ELSEWHERE, "obj_pear")
    return "pear"


FAILURES = [
    ("unknown", lambda g: "mango", "pick_up.not_here"),
    ("elsewhere", _elsewhere, "pick_up.not_here"),
    ("only in hand", _held_only, "pick_up.not_here"),
    ("definition name of an instance", _label_instance_only, "pick_up.not_here"),
    ("hands full", _full, "pick_up.hands_full"),
    ("absent, hands full", _absent_and_full, "pick_up.not_here"),
]


@pytest.mark.parametrize(("case", "setup", "key"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any, key: str) -> None:
    target = setup(game)
    before = state_of(game)
    res = act(game, "agent_0", ("pick up", [target]))
    assert not res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == [key]
    assert res.events == []
    assert state_of(game) == before


@pytest.mark.parametrize("command", ["pick up", "pick up coin coin"])
def test_wrong_parameter_count_is_invalid(game: Game, command: str) -> None:
    put_on_ground(game, HERE, "obj_coin", 2)
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] and not res.action_ok["agent_0"]
    assert res.feedback_keys("agent_0") == ["invalid.param_count"]
    assert state_of(game) == before


# ------------------------------------------------------------------ valid_params
ANY = ["obj_coin", "obj_pear", "obj_press", "obj_key", "obj_pruner", "obj_crate", "obj_label"]


def build_state(seed: int, g: Game) -> Game:
    rng = random.Random(seed)
    g.reset(0)  # reusing a Game skips loading the rule packs again
    clear_world(g)
    areas = list(g.world.areas)
    move_to(g, "agent_0", rng.choice(areas))
    for area in (agent(g).area_id, rng.choice(areas)):
        for _ in range(rng.randint(0, 4)):
            put_on_ground(g, area, rng.choice(ANY), rng.randint(1, 2))
    for _ in range(rng.choice([0, 1, 2])):
        give(g, "agent_0", rng.choice(ANY))
    return g


def valid(g: Game) -> list[tuple[str, ...]]:
    ctx = RuleContext(g, g.world, agent(g), "pick_up", (), g.tick_index)
    return g.engine.rules["pick_up"].valid_params(ctx)


def test_valid_params_exact() -> None:
    """Listed tuples succeed on a fresh copy of the state; every other object name fails and
    leaves the state untouched."""
    main, scratch = make_game(), make_game()
    for seed in range(150):
        g = build_state(seed, main)
        listed = valid(g)
        assert len(listed) == len(set(listed))
        for params in listed:
            res = act(build_state(seed, scratch), "agent_0", ("pick up", list(params)))
            assert res.action_ok["agent_0"], (seed, params)
        before = state_of(g)
        for params in sorted({(n,) for n in [*g.world.obj_name_to_id, "mango"]} - set(listed)):
            res = act(g, "agent_0", ("pick up", list(params)))
            assert not res.action_ok["agent_0"] and not res.invalid["agent_0"], (seed, params)
        assert state_of(g) == before, seed
