"""`unequip <object>`: one equipped unit back into a free hand; the inventory detaches, armour
gives its defense back.

docs/mechanics/verbs.md#unequip; tracking kinds per
docs/mechanics/dependency-tracking.md#tracking-events (one `equip` kind).
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
    equip_inventory,
    events,
    give,
    move_to,
    put_on_ground,
    restage,
    state_of,
    valid_params,
)

from agentodyssey_pz.engine.game import Game

HAND = {"kind": "hand", "id": "agent_0"}
EQUIP = {"kind": "equip", "id": "agent_0"}


@pytest.fixture
def game() -> Game:
    return blank_game(tracking=True)


def wear_apron(game: Game) -> None:
    a = agent(game)
    a.equipped["obj_apron"] = 1
    a.defense += 3


def test_unequip_armour_gives_defense_back(game: Game) -> None:
    wear_apron(game)
    give(game, "agent_0", "obj_pear")
    res = act(game, "agent_0", "unequip apron")
    a = agent(game)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["unequip.done"]
    assert (a.hands, a.equipped, a.defense) == ({"obj_pear": 1, "obj_apron": 1}, {}, 0)
    assert events(res) == [
        ("track.move", {"obj_id": "obj_apron", "amount": 1, "src": EQUIP, "dst": HAND}),
        ("item_unequipped", {"obj_id": "obj_apron"}),
    ]


def test_unequip_inventory_detaches_it_with_contents(game: Game) -> None:
    cid = equip_inventory(game, {"obj_pear": 3})
    wear_apron(game)
    res = act(game, "agent_0", ("unequip", [game.world.name_of(cid)]))
    a = agent(game)
    assert res.feedback_keys("agent_0") == ["unequip.inventory"]
    assert (a.hands, a.equipped, a.inventory_id, a.defense) == (
        {cid: 1},
        {"obj_apron": 1},
        None,
        3,
    )
    assert game.world.containers[cid].items == {"obj_pear": 3}
    assert events(res) == [
        ("track.move", {"obj_id": cid, "amount": 1, "src": EQUIP, "dst": HAND}),
        ("item_unequipped", {"obj_id": cid}),
    ]


def test_equip_then_unequip_round_trip(game: Game) -> None:
    give(game, "agent_0", "obj_apron")
    before = state_of(game)
    act(game, "agent_0", "equip apron")
    assert agent(game).defense == 3
    act(game, "agent_0", "unequip apron")
    assert state_of(game) == before


# ------------------------------------------------------------------ failures
def _worn_hands_full(g: Game) -> str:
    wear_apron(g)
    give(g, "agent_0", "obj_pear", 2)
    return "apron"


def _inventory_hands_full(g: Game) -> str:
    cid = equip_inventory(g)
    give(g, "agent_0", "obj_crate", 2)
    return g.world.name_of(cid)


def _held_only(g: Game) -> str:
    give(g, "agent_0", "obj_apron")
    return "apron"


def _on_ground(g: Game) -> str:
    put_on_ground(g, agent(g).area_id, "obj_apron")
    return "apron"


def _unknown_hands_full(g: Game) -> str:
    give(g, "agent_0", "obj_pear", 2)
    return "cape"


FAILURES = [
    ("unknown", lambda g: "cape", "unequip.not_equipped"),
    ("held, not equipped", _held_only, "unequip.not_equipped"),
    ("on the ground", _on_ground, "unequip.not_equipped"),
    ("unknown, hands full", _unknown_hands_full, "unequip.not_equipped"),
    ("hands full", _worn_hands_full, "unequip.hands_full"),
    ("inventory, hands full", _inventory_hands_full, "unequip.hands_full"),
]


@pytest.mark.parametrize(("case", "setup", "key"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any, key: str) -> None:
    check_refused(game, ("unequip", [setup(game)]), key)


# ------------------------------------------------------------------ valid_params
def test_valid_params_lists_equipped_when_a_hand_is_free(game: Game) -> None:
    cid = equip_inventory(game)
    wear_apron(game)
    give(game, "agent_0", "obj_pear")
    assert valid_params(game, "unequip") == [(game.world.name_of(cid),), ("apron",)]
    give(game, "agent_0", "obj_pear")
    assert valid_params(game, "unequip") == []


ANY = ["obj_coin", "obj_pear", "obj_key", "obj_pruner", "obj_apron", "obj_crate", "obj_label"]


def build_state(seed: int, g: Game) -> Game:
    """Random hands (up to 2 units), maybe an inventory and armour worn, things on the ground."""
    rng = restage(g, seed)
    a, world = agent(g), g.world
    move_to(g, "agent_0", rng.choice(list(world.areas)))
    for _ in range(rng.randint(0, 3)):
        put_on_ground(g, a.area_id, rng.choice(ANY))
    for _ in range(rng.choice([0, 1, 1, 2])):
        give(g, "agent_0", rng.choice(ANY))
    if rng.random() < 0.6:
        equip_inventory(g, {"obj_apron": 1})
    if rng.random() < 0.6:
        wear_apron(g)
    return g


def object_names(g: Game) -> list[str]:
    return [*g.world.obj_name_to_id, "nothing"]


def test_valid_params_exact() -> None:
    """Listed tuples succeed on a fresh copy of the state; every other object name fails and
    leaves the state untouched."""
    assert check_valid_params_exact("unequip", build_state, range(200), object_names) > 100
