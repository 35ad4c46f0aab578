"""`pick up <object>`: one unit from the ground into the hands (two units held at most).

docs/mechanics/verbs.md#pick-up; valid actions per docs/mechanics/verbs.md#valid-actions-per-verb
(ours: respect the two-hands limit, one entry per distinct item, instances by instance name).
"""

from __future__ import annotations

from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_exact,
    events,
    give,
    move_to,
    put_on_ground,
    restage,
)

from agentodyssey_pz.engine.game import Game

HERE = "area_gate"
ELSEWHERE = "area_rows"


@pytest.fixture
def game() -> Game:
    return blank_game(tracking=True)


def ground(game: Game) -> dict[str, int]:
    return game.world.areas[HERE].objects


def test_pick_up_one_unit(game: Game) -> None:
    put_on_ground(game, HERE, "obj_pear", 3)
    res = act(game, "agent_0", "pick up pear")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["pick_up.done"]
    assert ground(game) == {"obj_pear": 2} and agent(game).hands == {"obj_pear": 1}
    assert events(res) == [
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
    check_refused(game, ("pick up", [setup(game)]), key)


# ------------------------------------------------------------------ valid_params
ANY = ["obj_coin", "obj_pear", "obj_press", "obj_key", "obj_pruner", "obj_crate", "obj_label"]


def build_state(seed: int, g: Game) -> Game:
    rng = restage(g, seed)
    areas = list(g.world.areas)
    move_to(g, "agent_0", rng.choice(areas))
    for area in (agent(g).area_id, rng.choice(areas)):
        for _ in range(rng.randint(0, 4)):
            put_on_ground(g, area, rng.choice(ANY), rng.randint(1, 2))
    for _ in range(rng.choice([0, 1, 2])):
        give(g, "agent_0", rng.choice(ANY))
    return g


def object_names(g: Game) -> list[str]:
    return [*g.world.obj_name_to_id, "mango"]


def test_valid_params_exact() -> None:
    """Listed tuples succeed on a fresh copy of the state; every other object name fails and
    leaves the state untouched."""
    check_valid_params_exact("pick_up", build_state, range(150), object_names, phrase="pick up")
