"""`drop <object>`: one unit from the hands onto the ground.

docs/mechanics/verbs.md#drop; valid actions per docs/mechanics/verbs.md#valid-actions-per-verb (one
per held id).
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


@pytest.fixture
def game() -> Game:
    return blank_game(tracking=True)


def test_drop_one_unit(game: Game) -> None:
    give(game, "agent_0", "obj_coin", 2)
    put_on_ground(game, HERE, "obj_coin", 3)
    res = act(game, "agent_0", "drop coin")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["drop.done"]
    assert agent(game).hands == {"obj_coin": 1}
    assert game.world.areas[HERE].objects == {"obj_coin": 4}
    assert events(res) == [
        ("object_dropped", {"obj_id": "obj_coin", "area_id": HERE}),
        (
            "track.move",
            {
                "obj_id": "obj_coin",
                "amount": 1,
                "src": {"kind": "hand", "id": "agent_0"},
                "dst": {"kind": "area", "id": HERE},
            },
        ),
    ]


def test_drop_container_keeps_contents_and_writable_its_text(game: Game) -> None:
    crate = give(game, "agent_0", "obj_crate")[0]
    label = give(game, "agent_0", "obj_label")[0]
    game.world.containers[crate].items["obj_pear"] = 2
    game.world.writables[label].text = "here"
    act(game, "agent_0", ("drop", [game.world.name_of(crate)]))
    act(game, "agent_0", ("drop", [game.world.name_of(label)]))
    assert agent(game).hands == {}
    assert game.world.areas[HERE].objects == {crate: 1, label: 1}
    assert game.world.containers[crate].items == {"obj_pear": 2}
    assert game.world.writables[label].text == "here"


def _on_ground(g: Game) -> str:
    put_on_ground(g, HERE, "obj_pear")
    return "pear"


def _equipped_only(g: Game) -> str:
    agent(g).equipped["obj_apron"] = 1
    return "apron"


def _in_held_crate(g: Game) -> str:
    crate = give(g, "agent_0", "obj_crate")[0]
    g.world.containers[crate].items["obj_pear"] = 1
    return "pear"


FAILURES = [
    ("unknown", lambda g: "mango"),
    ("on the ground", _on_ground),
    ("equipped, not held", _equipped_only),
    ("inside a held container", _in_held_crate),
]


@pytest.mark.parametrize(("case", "setup"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any) -> None:
    check_refused(game, ("drop", [setup(game)]), "drop.not_held")


# ------------------------------------------------------------------ valid_params
ANY = ["obj_coin", "obj_pear", "obj_press", "obj_key", "obj_pruner", "obj_crate", "obj_label"]


def build_state(seed: int, g: Game) -> Game:
    rng = restage(g, seed)
    move_to(g, "agent_0", rng.choice(list(g.world.areas)))
    for _ in range(rng.randint(0, 3)):
        put_on_ground(g, agent(g).area_id, rng.choice(ANY))
    for _ in range(rng.choice([0, 1, 2])):
        give(g, "agent_0", rng.choice(ANY))
    if rng.random() < 0.3:
        agent(g).equipped["obj_apron"] = 1
    return g


def object_names(g: Game) -> list[str]:
    return [*g.world.obj_name_to_id, "mango"]


def test_valid_params_exact() -> None:
    """Listed tuples succeed on a fresh copy of the state; every other object name fails and
    leaves the state untouched."""
    check_valid_params_exact("drop", build_state, range(150), object_names)
