"""`take out <object> <container>` (docs/mechanics/verbs.md#take-out).

The stage is the tiny world with every ground cleared; agent_0 stands at the gate. Containers are
crate instances called `inventory` when equipped as such, or by instance name.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_sampled,
    container_base,
    container_candidates,
    crate_in_reach,
    crate_on_ground,
    detach_inventory,
    equip_inventory,
    events,
    fill,
    give,
    hold_crate,
    make_game,
    name_of,
    random_container_stage,
    valid_params,
)

GATE, ROWS, VATS = "area_gate", "area_rows", "area_vats"


# ----------------------------------------------------------------------------- success paths
def test_take_one_unit_out_of_the_inventory() -> None:
    game = blank_game()
    inv = equip_inventory(game, {"obj_coin": 7, "obj_key": 1})
    res = act(game, "agent_0", "take out coin inventory", tracking=True)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert res.feedback_text("agent_0") == "I took 1 coin out of my inventory."
    assert game.world.containers[inv].items == {"obj_coin": 6, "obj_key": 1}
    assert agent(game).hands == {"obj_coin": 1}
    assert events(res) == [
        (
            "track.move",
            {
                "obj_id": "obj_coin",
                "amount": 1,
                "src": {"kind": "container", "id": inv},
                "dst": {"kind": "hand", "id": "agent_0"},
            },
        ),
        (
            "object_taken_out",
            {"obj_id": "obj_coin", "from": "inventory", "amount": 1, "area_id": GATE},
        ),
    ]


def test_the_last_unit_deletes_the_entry_and_stacks_in_hand() -> None:
    game = blank_game()
    inv = equip_inventory(game, {"obj_key": 1})
    give(game, "agent_0", "obj_key")
    res = act(game, "agent_0", "take out key inventory")
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert game.world.containers[inv].items == {}
    assert agent(game).hands == {"obj_key": 2}


@pytest.mark.parametrize("where", ["ground", "held", "equipped"])  # equipped: by name
def test_named_containers_in_reach(where: str) -> None:
    """Taking out of a held container works with the other hand free; `from` is the typed name."""
    game = blank_game()
    cid = crate_in_reach(game, where, {"obj_pear": 2})
    res = act(game, "agent_0", f"take out pear {name_of(game, cid)}")
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert game.world.containers[cid].items == {"obj_pear": 1}
    assert agent(game).hands.get("obj_pear") == 1
    assert events(res) == [
        (
            "object_taken_out",
            {"obj_id": "obj_pear", "from": name_of(game, cid), "amount": 1, "area_id": GATE},
        )
    ]


def test_a_writable_instance_is_taken_out_as_itself() -> None:
    game = blank_game()
    inv = equip_inventory(game, {})
    [label] = fill(game, inv, {"obj_label": 1})
    res = act(game, "agent_0", f"take out {name_of(game, label)} inventory")
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert agent(game).hands == {label: 1}
    assert game.world.containers[inv].items == {}


# ----------------------------------------------------------------------------- soft failures
def _nothing(game: Any) -> None:
    pass


def _hands_full(game: Any) -> None:
    give(game, "agent_0", "obj_coin")


FAILURES = [
    (_nothing, "take out unicorn inventory", "take_out.unknown_object"),
    (_nothing, "take out Pear inventory", "take_out.unknown_object"),
    (_hands_full, "take out unicorn inventory", "take_out.unknown_object"),  # name first
    (_hands_full, "take out pear inventory", "take_out.hands_full"),
    (_hands_full, "take out pear nowhere", "take_out.hands_full"),  # hands before container
    (detach_inventory, "take out pear inventory", "take_out.no_inventory"),
    (_nothing, "take out pear nowhere", "take_out.no_container"),
    (_nothing, "take out pear quill", "take_out.no_container"),
    (_nothing, "take out pear crate", "take_out.no_container"),
    (_nothing, "take out key {far}", "take_out.container_not_here"),
    (_nothing, "take out key inventory", "take_out.not_inside"),
    (_nothing, "take out quill inventory", "take_out.not_inside"),
    (_nothing, "take out pear {ground}", "take_out.not_inside"),
    (_nothing, "take out label inventory", "take_out.not_inside"),  # the kind, not the instance
]


@pytest.mark.parametrize(("setup", "command", "key"), FAILURES)
def test_soft_failures_change_nothing(setup: Any, command: str, key: str) -> None:
    game = blank_game()
    ids = container_base(game)
    setup(game)
    check_refused(game, command.format(**ids), key)


def test_two_coins_fill_both_hands() -> None:
    """Hands hold two units, not two kinds (docs/mechanics/verbs.md#where-things-can-be)."""
    game = blank_game()
    equip_inventory(game, {"obj_coin": 5})
    assert act(game, "agent_0", "take out coin inventory").action_ok["agent_0"]
    assert act(game, "agent_0", "take out coin inventory").action_ok["agent_0"]
    res = act(game, "agent_0", "take out coin inventory")
    assert res.feedback_keys("agent_0") == ["take_out.hands_full"]
    assert agent(game).hands == {"obj_coin": 2}


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_one_entry_per_distinct_item_of_containers_in_reach() -> None:
    """Reference defects (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): every
    container in the world was listed, once per unit, and instances inside containers never were."""
    game = blank_game()
    inv = equip_inventory(game, {"obj_pear": 2})
    [label] = fill(game, inv, {"obj_label": 1})
    held = hold_crate(game, {"obj_coin": 3})
    ground = crate_on_ground(game, GATE, {"obj_key": 1})
    crate_on_ground(game, ROWS, {"obj_cider": 1})
    lab = name_of(game, label)
    assert valid_params(game, "take_out") == [
        ("pear", "inventory"),
        (lab, "inventory"),
        ("coin", name_of(game, held)),
        ("pear", name_of(game, inv)),
        (lab, name_of(game, inv)),
        ("key", name_of(game, ground)),
    ]


def test_valid_params_is_empty_with_full_hands() -> None:
    game = blank_game()
    inv = equip_inventory(game, {"obj_pear": 2})
    give(game, "agent_0", "obj_coin", 2)
    assert valid_params(game, "take_out") == []
    act(game, "agent_0", "drop coin")
    assert valid_params(game, "take_out") == [("pear", "inventory"), ("pear", name_of(game, inv))]


# ----------------------------------------------------------------------------- exactness property
def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed pair succeeds; every other pair fails (no amount, so no clamping)."""
    game = make_game()
    checked, listed_total = check_valid_params_sampled(
        "take_out",
        # Taking out needs a free hand: hands hold fewer two things here than in discard's stages.
        lambda seed: random_container_stage(game, seed, held_counts=(0, 1, 1, 2)),
        range(200),
        partial(container_candidates, far_area=VATS, amounts=False),
        tries=8,
        amounts=False,
    )
    assert checked > 2000 and listed_total > 300
