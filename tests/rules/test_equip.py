"""`equip <object>`: a held container becomes the inventory, held armour adds its defense.

docs/mechanics/verbs.md#equip (docs/mechanics/verbs.md#quirk-weapons-are-not-offered-for-equip:
weapons are not equippable, and no action list offers them); tracking kinds per
docs/mechanics/dependency-tracking.md#tracking-events (armour uses `equip`).
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
    valid_params,
)

from agentodyssey_pz.engine.game import Game

HERE = "area_gate"
HAND = {"kind": "hand", "id": "agent_0"}
EQUIP = {"kind": "equip", "id": "agent_0"}


@pytest.fixture
def game() -> Game:
    return blank_game(tracking=True)


def test_container_becomes_inventory(game: Game) -> None:
    cid = give(game, "agent_0", "obj_crate")[0]
    game.world.containers[cid].items["obj_pear"] = 4
    give(game, "agent_0", "obj_pear")
    res = act(game, "agent_0", ("equip", [game.world.name_of(cid)]))
    a = agent(game)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["equip.inventory"]
    assert (a.hands, a.equipped, a.inventory_id) == ({"obj_pear": 1}, {cid: 1}, cid)
    assert game.world.containers[cid].items == {"obj_pear": 4}
    assert a.defense == 0
    assert events(res) == [
        ("track.move", {"obj_id": cid, "amount": 1, "src": HAND, "dst": EQUIP}),
        ("item_equipped", {"obj_id": cid, "mode": "inventory"}),
    ]


def test_armour_adds_defense(game: Game) -> None:
    """Armour tracks to the `equip` location (the reference's `armor` kind strands tokens)."""
    give(game, "agent_0", "obj_apron", 2)
    agent(game).defense = 1
    res = act(game, "agent_0", "equip apron")
    a = agent(game)
    assert res.feedback_keys("agent_0") == ["equip.armor"]
    assert (a.hands, a.equipped, a.defense, a.inventory_id) == (
        {"obj_apron": 1},
        {"obj_apron": 1},
        4,
        None,
    )
    assert events(res) == [
        ("track.move", {"obj_id": "obj_apron", "amount": 1, "src": HAND, "dst": EQUIP}),
        ("item_equipped", {"obj_id": "obj_apron", "mode": "armor", "category": "armor"}),
    ]


def test_armour_and_inventory_together(game: Game) -> None:
    cid = give(game, "agent_0", "obj_crate")[0]
    give(game, "agent_0", "obj_apron")
    assert act(game, "agent_0", "equip apron").action_ok["agent_0"]
    assert act(game, "agent_0", ("equip", [game.world.name_of(cid)])).action_ok["agent_0"]
    a = agent(game)
    assert (a.hands, a.equipped, a.defense, a.inventory_id) == (
        {},
        {"obj_apron": 1, cid: 1},
        3,
        cid,
    )


# ------------------------------------------------------------------ failures
def _held(def_id: str) -> Any:
    def setup(g: Game) -> str:
        return g.world.name_of(give(g, "agent_0", def_id)[0])

    return setup


def _second_crate(g: Game) -> str:
    first = give(g, "agent_0", "obj_crate")[0]
    act(g, "agent_0", ("equip", [g.world.name_of(first)]))
    return _held("obj_crate")(g)


def _second_apron(g: Game) -> str:
    give(g, "agent_0", "obj_apron", 2)
    act(g, "agent_0", "equip apron")
    return "apron"


def _on_ground(g: Game) -> str:
    put_on_ground(g, HERE, "obj_apron")
    return "apron"


def _worn_not_held(g: Game) -> str:
    give(g, "agent_0", "obj_apron")
    act(g, "agent_0", "equip apron")
    return "apron"


FAILURES = [
    ("unknown", lambda g: "cape", "equip.not_held"),
    ("on the ground", _on_ground, "equip.not_held"),
    ("already worn, not in hand", _worn_not_held, "equip.not_held"),
    ("second inventory", _second_crate, "equip.has_inventory"),
    ("second armour", _second_apron, "equip.has_armor"),
    ("weapon (not equippable)", _held("obj_pruner"), "equip.not_equippable"),
    ("writable", _held("obj_label"), "equip.not_equippable"),
    ("tool", _held("obj_quill"), "equip.not_equippable"),
    ("material", _held("obj_pear"), "equip.not_equippable"),
    ("station", _held("obj_press"), "equip.not_equippable"),
    ("currency", _held("obj_coin"), "equip.not_equippable"),
]


@pytest.mark.parametrize(("case", "setup", "key"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any, key: str) -> None:
    move_to(game, "agent_0", HERE)
    check_refused(game, ("equip", [setup(game)]), key)


# ------------------------------------------------------------------ valid_params
def test_quirk_18_8_weapons_never_listed(game: Game) -> None:
    """Quirk "weapons are not offered for equip": the reference lists held weapons as equippable
    though `equip` refuses them; we list held armour and held container instances only."""
    cid = give(game, "agent_0", "obj_crate")[0]
    give(game, "agent_0", "obj_pruner")
    assert valid_params(game, "equip") == [(game.world.name_of(cid),)]
    agent(game).hands = {"obj_apron": 1, "obj_pruner": 1}
    assert valid_params(game, "equip") == [("apron",)]


ANY = ["obj_coin", "obj_pear", "obj_press", "obj_key", "obj_quill", "obj_pruner", "obj_apron"]
HELD = ["obj_crate", "obj_apron", "obj_pruner", "obj_label", "obj_pear"]  # mostly equippable


def build_state(seed: int, g: Game) -> Game:
    """Random hands (up to 2 units), maybe an inventory and armour worn, things on the ground."""
    rng = restage(g, seed)
    a, world = agent(g), g.world
    move_to(g, "agent_0", rng.choice(list(world.areas)))
    for _ in range(rng.randint(0, 3)):
        put_on_ground(g, a.area_id, rng.choice([*ANY, "obj_crate"]))
    for _ in range(rng.randint(0, 2)):
        give(g, "agent_0", rng.choice(HELD))
    if rng.random() < 0.4:
        equip_inventory(g, {"obj_apron": 1})
    if rng.random() < 0.4:
        a.equipped["obj_apron"], a.defense = 1, 3
    return g


def object_names(g: Game) -> list[str]:
    return [*g.world.obj_name_to_id, "nothing"]


def test_valid_params_exact() -> None:
    """Listed tuples succeed on a fresh copy of the state; every other object name fails and
    leaves the state untouched."""
    assert check_valid_params_exact("equip", build_state, range(200), object_names) > 30
