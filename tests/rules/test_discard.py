"""`discard <amount> <object> <container>` (docs/mechanics/verbs.md#discard).

The stage is the tiny world with every ground cleared; agent_0 stands at the gate. Containers are
crate instances (capacity 15) called `inventory` when equipped as such, or by instance name.
"""

from __future__ import annotations

import sys
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
    put_on_ground,
    random_container_stage,
    valid_params,
)

GATE, ROWS, VATS = "area_gate", "area_rows", "area_vats"


# ----------------------------------------------------------------------------- success paths
def test_discard_from_the_inventory_onto_the_ground() -> None:
    game = blank_game()
    inv = equip_inventory(game, {"obj_pear": 5, "obj_key": 1})
    put_on_ground(game, GATE, "obj_pear", 1)
    res = act(game, "agent_0", "discard 3 pear inventory", tracking=True)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["discard.done"]
    assert res.feedback_text("agent_0") == ("I discarded 3 pear from my inventory onto the ground.")
    assert game.world.containers[inv].items == {"obj_pear": 2, "obj_key": 1}
    assert game.world.areas[GATE].objects == {"obj_pear": 4}
    assert agent(game).hands == {}
    assert events(res) == [
        (
            "track.move",
            {
                "obj_id": "obj_pear",
                "amount": 3,
                "src": {"kind": "container", "id": inv},
                "dst": {"kind": "area", "id": GATE},
            },
        ),
        (
            "object_discarded",
            {"obj_id": "obj_pear", "from": "inventory", "amount": 3, "area_id": GATE},
        ),
    ]


@pytest.mark.parametrize("where", ["ground", "held", "equipped"])  # equipped: by name
def test_named_containers_in_reach(where: str) -> None:
    """The event's `from` is the container name as typed."""
    game = blank_game()
    cid = crate_in_reach(game, where, {"obj_coin": 4})
    res = act(game, "agent_0", f"discard 4 coin {name_of(game, cid)}")
    assert res.feedback_keys("agent_0") == ["discard.done"]
    assert game.world.containers[cid].items == {}  # the emptied entry is deleted
    assert game.world.areas[GATE].objects.get("obj_coin") == 4
    assert events(res) == [
        (
            "object_discarded",
            {"obj_id": "obj_coin", "from": name_of(game, cid), "amount": 4, "area_id": GATE},
        )
    ]


@pytest.mark.parametrize(
    ("inside", "requested", "moved", "keys"),
    [
        (5, 1, 1, ["discard.done"]),
        (5, 5, 5, ["discard.done"]),
        (5, 6, 5, ["discard.only_found", "discard.done"]),
        (1, 40, 1, ["discard.only_found", "discard.done"]),
    ],
)
def test_amount_is_clamped_to_what_the_container_holds(
    inside: int, requested: int, moved: int, keys: list[str]
) -> None:
    game = blank_game()
    inv = equip_inventory(game, {"obj_cider": inside})
    res = act(game, "agent_0", f"discard {requested} cider inventory")
    assert res.feedback_keys("agent_0") == keys
    assert game.world.containers[inv].items.get("obj_cider", 0) == inside - moved
    assert game.world.areas[GATE].objects == {"obj_cider": moved}
    assert res.events[-1].data["amount"] == moved
    if moved < requested:
        assert res.feedback_text("agent_0").startswith(
            f"I only found {inside} cider in my inventory."
        )


def test_a_writable_instance_is_discarded_as_itself() -> None:
    game = blank_game()
    inv = equip_inventory(game, {})
    [label] = fill(game, inv, {"obj_label": 1})
    game.world.writables[label].text = "ripe"
    res = act(game, "agent_0", f"discard 1 {name_of(game, label)} inventory")
    assert res.feedback_keys("agent_0") == ["discard.done"]
    assert game.world.areas[GATE].objects == {label: 1}
    assert game.world.writables[label].text == "ripe"


# ----------------------------------------------------------------------------- soft failures
def _nothing(game: Any) -> None:
    pass


FAILURES = [
    (_nothing, "discard 0 pear inventory", "discard.bad_amount"),
    (_nothing, "discard -2 pear inventory", "discard.bad_amount"),
    (_nothing, "discard two pear inventory", "discard.bad_amount"),
    (_nothing, "discard 1.0 pear inventory", "discard.bad_amount"),
    (_nothing, "discard \u0662 pear inventory", "discard.bad_amount"),
    (_nothing, "discard '' pear inventory", "discard.bad_amount"),
    (_nothing, "discard x unicorn nowhere", "discard.bad_amount"),  # amount first
    (_nothing, "discard 1 unicorn inventory", "discard.unknown_object"),
    (_nothing, "discard 1 unicorn nowhere", "discard.unknown_object"),  # object before container
    (detach_inventory, "discard 1 pear inventory", "discard.no_inventory"),
    (_nothing, "discard 1 pear nowhere", "discard.no_container"),
    (_nothing, "discard 1 pear quill", "discard.no_container"),
    (_nothing, "discard 1 pear crate", "discard.no_container"),
    (_nothing, "discard 1 key {far}", "discard.container_not_here"),
    (_nothing, "discard 1 key inventory", "discard.not_inside"),
    (_nothing, "discard 1 quill inventory", "discard.not_inside"),  # held, not inside
    (_nothing, "discard 1 pear {ground}", "discard.not_inside"),
    (_nothing, "discard 1 label inventory", "discard.not_inside"),  # the kind, not the instance
]


@pytest.mark.parametrize(("setup", "command", "key"), FAILURES)
def test_soft_failures_change_nothing(setup: Any, command: str, key: str) -> None:
    game = blank_game()
    ids = container_base(game)
    setup(game)
    check_refused(game, command.format(**ids), key)


def test_the_base_stage_itself_allows_discarding() -> None:
    game = blank_game()
    ids = container_base(game)
    for command in (
        "discard 1 {label} {inv}",
        "discard 2 pear inventory",
        "discard 1 cider {ground}",
    ):
        assert act(game, "agent_0", command.format(**ids)).action_ok["agent_0"], command


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_every_entry_of_containers_in_reach() -> None:
    """Reference defects (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): containers
    anywhere in the world were listed, and instances inside containers never were."""
    game = blank_game()
    inv = equip_inventory(game, {"obj_pear": 2})
    [label] = fill(game, inv, {"obj_label": 1})
    held = hold_crate(game, {"obj_coin": 3})
    crate_on_ground(game, GATE, {})
    crate_on_ground(game, ROWS, {"obj_key": 1})
    lab = name_of(game, label)
    assert valid_params(game, "discard") == [
        ("1", "pear", "inventory"),
        ("2", "pear", "inventory"),
        ("1", lab, "inventory"),
        ("1", "coin", name_of(game, held)),
        ("2", "coin", name_of(game, held)),
        ("3", "coin", name_of(game, held)),
        ("1", "pear", name_of(game, inv)),
        ("2", "pear", name_of(game, inv)),
        ("1", lab, name_of(game, inv)),
    ]
    assert valid_params(game, "discard", all_amounts=False) == [
        t for t in valid_params(game, "discard") if t[0] == "1"
    ]


def test_valid_params_is_empty_without_containers_in_reach() -> None:
    game = blank_game()
    crate_on_ground(game, ROWS, {"obj_key": 1})
    give(game, "agent_0", "obj_key")
    assert valid_params(game, "discard") == []


# ----------------------------------------------------------------------------- exactness property
def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed tuple succeeds with exactly its amount; any other fails, except an amount above
    the count, which `discard` clamps: it must then discard a listed amount."""
    game = make_game()
    checked, listed_total = check_valid_params_sampled(
        "discard",
        lambda seed: random_container_stage(game, seed),
        range(200),
        partial(container_candidates, far_area=VATS),
        tries=8,
        clamp_keys=frozenset({"discard.only_found"}),
        near_share=0.2,
    )
    assert checked > 2000 and listed_total > 1000


def test_long_amount_runs_are_written_afresh_and_short_ones_kept() -> None:
    """Listings of amounts (`ListsAmounts.valid_commands`): a run longer than CACHED_RUN is written
    each time (a rich agent's purse would otherwise fill memory with one run per sum it held);
    shorter runs are kept. Both list every amount in order; a run with nothing to offer lists
    nothing."""
    game = make_game()
    namespace = type(game.engine.rules["discard"]).__module__.rsplit(".verbs.", 1)[0]
    carrying = sys.modules[f"{namespace}.carrying"]

    class Runs(carrying.ListsAmounts):
        verb = "discard"

        def __init__(self, runs: list[tuple[tuple[str, ...], int]]) -> None:
            self.runs = runs

        def amount_runs(self, ctx: Any) -> list[tuple[tuple[str, ...], int]]:
            return self.runs

    rest = ("pear", "inventory")
    long = carrying.CACHED_RUN + 1
    kept = carrying._short_run.cache_info
    before = kept()
    first = Runs([(rest, long)]).valid_commands(None)
    assert first == [f"discard {n} pear inventory" for n in range(1, long + 1)]
    assert Runs([(rest, long)]).valid_commands(None) == first
    assert kept().currsize == before.currsize and kept().hits == before.hits  # never kept
    short = Runs([(rest, 3), (("fig", "sack"), 0), (("plum", "sack"), 1)]).valid_commands(None)
    assert short == [
        "discard 1 pear inventory",
        "discard 2 pear inventory",
        "discard 3 pear inventory",
        "discard 1 plum sack",
    ]
    hits = kept().hits
    assert Runs([(rest, 3)]).valid_commands(None) == short[:3]
    assert kept().hits == hits + 1  # the same run, written once
