"""`store <amount> <object> <container>` (docs/mechanics/verbs.md#store).

The stage is the tiny world with every ground cleared; agent_0 stands at the gate. Sizes: coin 0,
pear / cider / key / label / quill 1, apron 2, pruner 3, press null; a crate is a container of
size 2 and capacity 15. "Named" containers are crate instances called by their instance name.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import attrs
import pytest
from harness import (
    STORABLE,
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_sampled,
    container_candidates,
    crate_in_reach,
    crate_on_ground,
    detach_inventory,
    equip_inventory,
    events,
    fill,
    give,
    hold_crate,
    loc,
    make_game,
    move_to,
    name_of,
    put_on_ground,
    random_contents,
    restage,
    valid_params,
)

GATE, ROWS, VATS = "area_gate", "area_rows", "area_vats"


# ----------------------------------------------------------------------------- success paths
def test_hands_are_emptied_first_then_the_ground() -> None:
    game = blank_game()
    inv = equip_inventory(game, {})
    give(game, "agent_0", "obj_pear", 1)
    put_on_ground(game, GATE, "obj_pear", 3)
    res = act(game, "agent_0", "store 3 pear inventory", tracking=True)
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["store.done"]
    assert res.feedback_text("agent_0") == "I stored 3 pear in my inventory."
    assert agent(game).hands == {}
    assert game.world.areas[GATE].objects == {"obj_pear": 1}
    assert game.world.containers[inv].items == {"obj_pear": 3}
    dst = loc("container", inv)
    assert events(res) == [
        (
            "track.move",
            {"obj_id": "obj_pear", "amount": 1, "src": loc("hand", "agent_0"), "dst": dst},
        ),
        ("track.move", {"obj_id": "obj_pear", "amount": 2, "src": loc("area", GATE), "dst": dst}),
        (
            "object_stored",
            {"obj_id": "obj_pear", "container": "inventory", "amount": 3, "area_id": GATE},
        ),
    ]


def test_from_hands_only_leaves_the_ground_alone() -> None:
    game = blank_game()
    inv = equip_inventory(game, {"obj_cider": 1})
    give(game, "agent_0", "obj_pear", 2)
    put_on_ground(game, GATE, "obj_pear", 3)
    res = act(game, "agent_0", "store 2 pear inventory")
    assert res.feedback_keys("agent_0") == ["store.done"]
    assert agent(game).hands == {}
    assert game.world.areas[GATE].objects == {"obj_pear": 3}
    assert game.world.containers[inv].items == {"obj_cider": 1, "obj_pear": 2}
    # Tracking is off: no track.* events, only the verb's own.
    assert events(res) == [
        (
            "object_stored",
            {"obj_id": "obj_pear", "container": "inventory", "amount": 2, "area_id": GATE},
        )
    ]


@pytest.mark.parametrize("where", ["ground", "held", "equipped"])  # equipped: by name
def test_named_containers_in_reach(where: str) -> None:
    """The event's `container` is the name as typed."""
    game = blank_game()
    cid = crate_in_reach(game, where, {"obj_key": 1})
    put_on_ground(game, GATE, "obj_pear", 2)
    res = act(game, "agent_0", f"store 2 pear {name_of(game, cid)}", tracking=True)
    assert res.feedback_keys("agent_0") == ["store.done"]
    assert game.world.containers[cid].items == {"obj_key": 1, "obj_pear": 2}
    assert events(res)[-1] == (
        "object_stored",
        {"obj_id": "obj_pear", "container": name_of(game, cid), "amount": 2, "area_id": GATE},
    )
    assert events(res)[0][1]["dst"] == loc("container", cid)


def test_a_writable_instance_is_stored_as_itself() -> None:
    game = blank_game()
    inv = equip_inventory(game, {})
    [label] = give(game, "agent_0", "obj_label")
    game.world.writables[label].text = "pears"
    res = act(game, "agent_0", f"store 1 {name_of(game, label)} inventory")
    assert res.feedback_keys("agent_0") == ["store.done"]
    assert game.world.containers[inv].items == {label: 1}
    assert game.world.writables[label].text == "pears"
    assert res.events[0].data["obj_id"] == label


# (contents of the crate, object, units on the ground, requested) -> (stored, feedback keys)
SPACE = [
    ({}, "obj_pear", 4, 4, 4, ["store.done"]),
    ({}, "obj_pear", 4, 9, 4, ["store.only_found", "store.done"]),
    ({"obj_pear": 12}, "obj_pear", 3, 3, 3, ["store.done"]),
    ({"obj_pear": 13}, "obj_pear", 5, 3, 2, ["store.only_space", "store.done"]),
    ({"obj_pear": 9}, "obj_pruner", 3, 3, 2, ["store.only_space", "store.done"]),
    ({"obj_pear": 9}, "obj_pruner", 1, 3, 1, ["store.only_found", "store.done"]),
    ({"obj_pear": 10}, "obj_apron", 4, 4, 2, ["store.only_space", "store.done"]),
    ({"obj_pruner": 5}, "obj_coin", 7, 7, 7, ["store.done"]),  # full, but coins have size 0
    ({"obj_pruner": 6}, "obj_coin", 2, 5, 2, ["store.only_found", "store.done"]),  # over-full
    # Quirk "one load formula": a writable instance inside weighs its definition's size everywhere.
    ({"obj_pear": 13, "obj_label": 1}, "obj_pear", 3, 2, 1, ["store.only_space", "store.done"]),
    ({"obj_label": 14}, "obj_key", 2, 2, 1, ["store.only_space", "store.done"]),
]


@pytest.mark.parametrize("dest", ["inventory", "named"])
@pytest.mark.parametrize(("contents", "obj", "ground", "requested", "stored", "keys"), SPACE)
def test_amount_shrinks_to_space_then_to_what_is_found(
    dest: str, contents: dict, obj: str, ground: int, requested: int, stored: int, keys: list
) -> None:
    """One load formula for the inventory and named containers (quirk "one load formula")."""
    game = blank_game()
    if dest == "inventory":
        cid, cname = equip_inventory(game, contents), "inventory"
    else:
        cid = crate_on_ground(game, GATE, contents)
        cname = name_of(game, cid)
    before = dict(game.world.containers[cid].items)
    put_on_ground(game, GATE, obj, ground)
    res = act(game, "agent_0", f"store {requested} {name_of(game, obj)} {cname}")
    assert res.feedback_keys("agent_0") == keys
    assert res.action_ok["agent_0"]
    assert game.world.containers[cid].items.get(obj, 0) - before.get(obj, 0) == stored
    assert game.world.areas[GATE].objects.get(obj, 0) == ground - stored
    assert res.events[-1].data["amount"] == stored


def test_clamp_feedback_names_the_numbers() -> None:
    game = blank_game()
    equip_inventory(game, {"obj_pear": 13})
    put_on_ground(game, GATE, "obj_pear", 5)
    res = act(game, "agent_0", "store 4 pear inventory")
    assert res.feedback_text("agent_0") == (
        "There is only space for 2 pear in my inventory.\nI stored 2 pear in my inventory."
    )
    put_on_ground(game, GATE, "obj_coin", 1)
    res = act(game, "agent_0", "store 3 coin inventory")
    assert res.feedback_text("agent_0") == "I only found 1 coin.\nI stored 1 coin in my inventory."


# ----------------------------------------------------------------------------- soft failures
def _base(game: Any) -> dict[str, str]:
    """agent_0 at the gate: 1 pear in hand, an inventory crate holding 2 cider, a crate on the
    ground and one in the rows; pears, a press, coins, an apron and a label on the ground; a key in
    the rows. Not harness.container_base: storing takes from the hands and the ground."""
    inv = equip_inventory(game, {"obj_cider": 2})
    give(game, "agent_0", "obj_pear", 1)
    ground = crate_on_ground(game, GATE, {})
    far = crate_on_ground(game, ROWS, {})
    for def_id, n in (("obj_pear", 2), ("obj_press", 1), ("obj_coin", 3), ("obj_apron", 1)):
        put_on_ground(game, GATE, def_id, n)
    [label] = put_on_ground(game, GATE, "obj_label")
    put_on_ground(game, ROWS, "obj_key")
    return {
        "inv": name_of(game, inv),
        "ground": name_of(game, ground),
        "far": name_of(game, far),
        "label": name_of(game, label),
        "ground_id": ground,
        "inv_id": inv,
    }


def _nothing(game: Any, ids: dict[str, str]) -> None:
    pass


def _unequip(game: Any, ids: dict[str, str]) -> None:
    detach_inventory(game)


def _fill_inventory(game: Any, ids: dict[str, str]) -> None:
    game.world.containers[ids["inv_id"]].items["obj_pruner"] = 5  # 2 + 15: over-full


def _fill_inventory_exactly(game: Any, ids: dict[str, str]) -> None:
    game.world.containers[ids["inv_id"]].items.update({"obj_pruner": 4, "obj_key": 1})  # 15


def _almost_fill_ground_crate(game: Any, ids: dict[str, str]) -> None:
    game.world.containers[ids["ground_id"]].items["obj_pear"] = 14  # 1 free, an apron needs 2


def _overfill_ground_crate(game: Any, ids: dict[str, str]) -> None:
    game.world.containers[ids["ground_id"]].items["obj_pruner"] = 6  # 18 > 15


FAILURES = [
    (_nothing, "store 1 unicorn inventory", "store.unknown_object"),
    (_nothing, "store 1 Pear inventory", "store.unknown_object"),  # names are case-sensitive
    (_nothing, "store x unicorn inventory", "store.unknown_object"),  # names before the amount
    (_nothing, "store 1 {ground} inventory", "store.is_container"),
    (_nothing, "store 1 {inv} {ground}", "store.is_container"),
    (_nothing, "store 1 {ground} {ground}", "store.is_container"),
    (_nothing, "store 1 crate inventory", "store.is_container"),
    (_nothing, "store 1 press inventory", "store.unstorable"),
    (_nothing, "store 0 pear inventory", "store.bad_amount"),
    (_nothing, "store -1 pear inventory", "store.bad_amount"),
    (_nothing, "store two pear inventory", "store.bad_amount"),
    (_nothing, "store 1.5 pear inventory", "store.bad_amount"),
    (_nothing, "store \u0661 pear inventory", "store.bad_amount"),  # Arabic-Indic one
    (_nothing, "store '' pear inventory", "store.bad_amount"),
    (_nothing, "store x pear nowhere", "store.bad_amount"),  # the amount before the container
    (_unequip, "store 1 pear inventory", "store.no_inventory"),
    (_nothing, "store 1 pear nowhere", "store.no_container"),
    (_nothing, "store 1 pear quill", "store.no_container"),  # a name, but not a container
    (_nothing, "store 1 pear crate", "store.no_container"),  # the definition, not an instance
    (_nothing, "store 1 pear {label}", "store.no_container"),
    (_nothing, "store 1 pear {far}", "store.container_not_here"),
    (_nothing, "store 1 key inventory", "store.not_found"),  # it lies in the rows
    (_nothing, "store 1 cider inventory", "store.not_found"),  # only inside the inventory
    (_fill_inventory, "store 1 key inventory", "store.not_found"),  # presence before space
    (_fill_inventory, "store 1 pear inventory", "store.no_space"),
    (_fill_inventory_exactly, "store 1 pear inventory", "store.no_space"),
    (_fill_inventory_exactly, "store 1 pear {inv}", "store.no_space"),
    (_almost_fill_ground_crate, "store 1 apron {ground}", "store.no_space"),
    (_fill_inventory, "store 1 {label} inventory", "store.no_space"),
    (_overfill_ground_crate, "store 1 pear {ground}", "store.no_space"),  # the reference: -3
    (_overfill_ground_crate, "store 9 pear {ground}", "store.no_space"),
]


@pytest.mark.parametrize(("setup", "command", "key"), FAILURES)
def test_soft_failures_change_nothing(setup: Any, command: str, key: str) -> None:
    game = blank_game()
    ids = _base(game)
    setup(game, ids)
    check_refused(game, command.format(**ids), key)


def test_the_base_stage_itself_allows_storing() -> None:
    """The counterpart of the failure table: the same stage accepts the nearby commands."""
    game = blank_game()
    ids = _base(game)
    for command in ("store 3 pear inventory", "store 3 coin {ground}", "store 1 {label} {inv}"):
        assert act(game, "agent_0", command.format(**ids)).action_ok["agent_0"], command


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_storables_once_per_destination_up_to_found_and_space() -> None:
    game = blank_game()
    inv = equip_inventory(game, {})
    give(game, "agent_0", "obj_pear", 1)
    [label] = give(game, "agent_0", "obj_label")
    put_on_ground(game, GATE, "obj_pear", 2)  # pear: in hand and on the ground, listed once
    put_on_ground(game, GATE, "obj_coin", 3)
    put_on_ground(game, GATE, "obj_press", 1)  # size null: never listed
    ground = crate_on_ground(game, GATE, {"obj_pruner": 4, "obj_pear": 2})  # 1 free
    crate_on_ground(game, ROWS, {})  # out of reach: never listed
    dests = ["inventory", name_of(game, inv), name_of(game, ground)]
    expected = []
    for obj, limits in (
        ("pear", (3, 3, 1)),
        (name_of(game, label), (1, 1, 1)),
        ("coin", (3, 3, 3)),
    ):
        for cname, limit in zip(dests, limits, strict=True):
            expected += [(str(n), obj, cname) for n in range(1, limit + 1)]
    assert valid_params(game, "store") == expected
    assert valid_params(game, "store", all_amounts=False) == [t for t in expected if t[0] == "1"]


def test_valid_params_without_an_inventory_lists_only_named_containers() -> None:
    """Reference defect (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): `inventory`
    was listed with none equipped."""
    game = blank_game()
    put_on_ground(game, GATE, "obj_key", 2)
    assert valid_params(game, "store") == []  # no destination at all
    held = hold_crate(game, {"obj_pruner": 5})  # full: only size-0 things would fit
    assert valid_params(game, "store") == []
    put_on_ground(game, GATE, "obj_coin", 1)
    assert valid_params(game, "store") == [("1", "coin", name_of(game, held))]


def test_valid_params_never_offers_containers_or_stations() -> None:
    """Reference defect: containers (into themselves or others) and size-null items were listed."""
    game = blank_game()
    equip_inventory(game, {})
    hold_crate(game, {})
    crate_on_ground(game, GATE, {})
    put_on_ground(game, GATE, "obj_press", 2)
    assert valid_params(game, "store") == []


# ----------------------------------------------------------------------------- exactness property
ANYTHING = [*STORABLE, "obj_press", "obj_crate", "obj_quill"]


def random_stage(game: Any, seed: int) -> Any:
    """A random storing situation on a reused game, the same for the same seed. Not
    `random_container_stage`: storing takes from the hands and the ground, so anything (stations and
    crates too) lies there, in any number."""
    rng = restage(game, seed)
    here = rng.choice([GATE, GATE, ROWS])
    move_to(game, "agent_0", here)
    for _ in range(rng.randint(0, 2)):
        [oid] = give(game, "agent_0", rng.choice(ANYTHING))
        if oid in game.world.containers:
            fill(game, oid, random_contents(rng))
    for def_id in rng.sample(ANYTHING, rng.randint(0, 6)):
        n = 1 if def_id == "obj_crate" else rng.randint(1, 5)
        for oid in put_on_ground(game, here, def_id, n):
            if oid in game.world.containers:
                fill(game, oid, random_contents(rng))
    if rng.random() < 0.6:
        equip_inventory(game, random_contents(rng))
    crate_on_ground(game, VATS, random_contents(rng))
    return game


def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed tuple succeeds with exactly its amount; any other tuple fails, except an amount
    above the limit, which `store` clamps: it must then store a listed amount."""
    game = make_game()
    checked, listed_total = check_valid_params_sampled(
        "store",
        lambda seed: random_stage(game, seed),
        range(200),
        partial(container_candidates, far_area=VATS),
        tries=8,
        clamp_keys=frozenset({"store.only_found", "store.only_space"}),
        near_share=0.2,
    )
    assert checked > 2000 and listed_total > 1000


def test_what_it_can_store_follows_a_changed_definition() -> None:
    """Store keeps what it found storable per World (`World.derived`) while names and definitions
    stay; a redefinition (world expansion's `add_object_def`) is seen at once."""
    game = blank_game()
    inv = name_of(game, equip_inventory(game, {}))
    give(game, "agent_0", "obj_pear", 2)
    assert valid_params(game, "store", all_amounts=False) == [
        ("1", "pear", "inventory"),
        ("1", "pear", inv),
    ]
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_pear"], size=None))  # now a station
    assert valid_params(game, "store", all_amounts=False) == []
    world.add_object_def(attrs.evolve(world.objects["obj_pear"], size=1, name="quince"))
    assert valid_params(game, "store", all_amounts=False) == [
        ("1", "quince", "inventory"),
        ("1", "quince", inv),
    ]
