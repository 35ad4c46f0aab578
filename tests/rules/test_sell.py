"""`sell <amount> <object> <merchant>` (docs/mechanics/verbs.md#sell).

The stage is the tiny world's gate with everything cleared away and the merchant `cider_seller`
placed there with a chosen purse. Sell prices are floor(value x 0.5): key 10 -> 5, pruner 20 -> 10,
apron 8 -> 4, cider 3 -> 1, pear 1 -> 0 (worthless); coin and press have no value; crates
(containers) and labels (writables) are never traded.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_sampled,
    crate_on_ground,
    equip_inventory,
    events,
    fill,
    give,
    hold_crate,
    make_game,
    put_on_ground,
    restage,
    set_value,
    spawn_npc,
    trade_candidates,
    valid_params,
)

GATE, ROWS = "area_gate", "area_rows"
STOCK = {"obj_cider": 4}


# ----------------------------------------------------------------------------- staging helpers
def stage(coins: int = 100, area: str = GATE) -> Any:
    """A cleared tiny world with the merchant in `area` (agent_0 stands at the gate)."""
    game = blank_game()
    spawn_npc(game, "npc_cider_seller", area, coins=coins, inventory=dict(STOCK))
    return game


def merchant(game: Any) -> Any:
    return game.world.npcs["npc_cider_seller"]


def drop_currency(game: Any) -> None:
    """Turn the coin into a plain material, leaving the world without a currency."""
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_coin"], category="material"))


def sold(amount: int, unit: int, obj_id: str = "obj_key") -> tuple[str, dict]:
    data = {"npc_id": "npc_cider_seller", "obj_id": obj_id, "amount": amount, "unit_price": unit}
    return ("object_sold", {**data, "area_id": GATE})


# ----------------------------------------------------------------------------- success paths
def test_takes_from_hands_then_inventory_then_held_containers() -> None:
    game = stage(coins=100)
    give(game, "agent_0", "obj_key")
    held = hold_crate(game, {"obj_key": 3, "obj_pear": 1})
    inv = equip_inventory(game, {"obj_key": 2})
    res = act(game, "agent_0", "sell 4 key cider_seller")  # 1 + 2 + 1 at 5 each
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["sell.done"]
    body = agent(game)
    assert body.hands == {held: 1}
    assert game.world.containers[inv].items == {}
    assert game.world.containers[held].items == {"obj_key": 2, "obj_pear": 1}
    assert merchant(game).coins == 80
    assert game.world.areas[GATE].objects == {"obj_coin": 20}  # on the ground, not in hand
    assert events(res) == [sold(4, 5)]


def test_tracking_events_name_each_source_and_the_coins_spawned() -> None:
    game = stage()
    give(game, "agent_0", "obj_key")
    held = hold_crate(game, {"obj_key": 1})
    inv = equip_inventory(game, {"obj_key": 1})
    res = act(game, "agent_0", "sell 3 key cider_seller", tracking=True)
    hand = {"kind": "hand", "id": "agent_0"}
    assert events(res) == [
        ("track.consume", {"obj_id": "obj_key", "amount": 1, "src": hand}),
        (
            "track.consume",
            {"obj_id": "obj_key", "amount": 1, "src": {"kind": "container", "id": inv}},
        ),
        (
            "track.consume",
            {"obj_id": "obj_key", "amount": 1, "src": {"kind": "container", "id": held}},
        ),
        ("track.spawn", {"obj_id": "obj_coin", "amount": 15, "dst": {"kind": "area", "id": GATE}}),
        sold(3, 5),
    ]


def test_selling_neither_restocks_nor_counts_as_trade() -> None:
    """Quirk "selling does not restock or count as trade" (kept): sold goods vanish and `traded` is
    untouched."""
    game = stage()
    give(game, "agent_0", "obj_cider", 2)
    res = act(game, "agent_0", "sell 2 cider cider_seller")
    assert res.feedback_keys("agent_0") == ["sell.done"]
    assert merchant(game).inventory == STOCK
    assert agent(game).traded == {}
    assert agent(game).hands == {}
    assert merchant(game).coins == 98
    assert game.world.areas[GATE].objects == {"obj_coin": 2}


def test_coins_join_a_stack_already_on_the_ground() -> None:
    game = stage()
    put_on_ground(game, GATE, "obj_coin", 3)
    give(game, "agent_0", "obj_pruner")
    act(game, "agent_0", "sell 1 pruner cider_seller")
    assert game.world.areas[GATE].objects == {"obj_coin": 13}


def test_amount_is_clamped_to_what_i_carry() -> None:
    game = stage()
    give(game, "agent_0", "obj_key", 2)
    res = act(game, "agent_0", "sell 5 key cider_seller")
    assert res.feedback_keys("agent_0") == ["sell.only_have", "sell.done"]
    assert agent(game).hands == {}
    assert merchant(game).coins == 90
    assert events(res) == [sold(2, 5)]


def test_amount_is_clamped_to_what_the_merchant_can_pay() -> None:
    game = stage(coins=12)
    equip_inventory(game, {"obj_key": 3})
    res = act(game, "agent_0", "sell 3 key cider_seller")
    assert res.feedback_keys("agent_0") == ["sell.only_afford", "sell.done"]
    assert game.world.containers[agent(game).inventory_id].items == {"obj_key": 1}
    assert merchant(game).coins == 2
    assert game.world.areas[GATE].objects == {"obj_coin": 10}


def test_both_clamps_apply_in_order() -> None:
    game = stage(coins=12)
    equip_inventory(game, {"obj_key": 3})
    res = act(game, "agent_0", "sell 9 key cider_seller")
    assert res.feedback_keys("agent_0") == ["sell.only_have", "sell.only_afford", "sell.done"]
    assert events(res) == [sold(2, 5)]


def test_the_merchant_may_spend_its_whole_purse() -> None:
    game = stage(coins=10)
    give(game, "agent_0", "obj_key", 2)
    res = act(game, "agent_0", "sell 2 key cider_seller")
    assert res.feedback_keys("agent_0") == ["sell.done"]
    assert merchant(game).coins == 0


@pytest.mark.parametrize(
    ("value", "unit"), [(2, 1), (3, 1), (4, 2), (9, 4), (10, 5), (11, 5), (20, 10), (101, 50)]
)
def test_sell_price_is_half_the_value_rounded_down(value: int, unit: int) -> None:
    """Unit = floor(value x 0.5); three units sold pay 3 x unit."""
    game = stage(coins=1000)
    set_value(game, "obj_pear", value)
    equip_inventory(game, {"obj_pear": 3})
    res = act(game, "agent_0", "sell 3 pear cider_seller")
    assert events(res) == [sold(3, unit, "obj_pear")]
    assert merchant(game).coins == 1000 - 3 * unit
    assert game.world.areas[GATE].objects == {"obj_coin": 3 * unit}


@pytest.mark.parametrize("value", [0, 1])
def test_values_below_two_are_worthless(value: int) -> None:
    game = stage()
    set_value(game, "obj_pear", value)
    give(game, "agent_0", "obj_pear")
    assert act(game, "agent_0", "sell 1 pear cider_seller").feedback_keys("agent_0") == [
        "sell.worthless"
    ]


# ----------------------------------------------------------------------------- soft failures
def _elsewhere(game: Any) -> None:
    game.world.place_npc("npc_cider_seller", ROWS)


def _wasp_here(game: Any) -> None:
    spawn_npc(game, "npc_wasp", GATE, name="wasp")


def _hold_crate(game: Any) -> None:
    agent(game).hands.pop("obj_pear")
    hold_crate(game, {"obj_key": 1})


def _hold_label(game: Any) -> None:
    agent(game).hands.pop("obj_pear")
    give(game, "agent_0", "obj_label")


def _key_on_ground(game: Any) -> None:
    put_on_ground(game, GATE, "obj_key", 2)
    [crate] = put_on_ground(game, GATE, "obj_crate")
    game.world.containers[crate].items["obj_key"] = 2


def _apron_equipped(game: Any) -> None:
    agent(game).equipped["obj_apron"] = 1


def _poor_merchant(game: Any) -> None:
    merchant(game).coins = 4


def _no_currency(game: Any) -> None:
    drop_currency(game)


def _nothing(game: Any) -> None:
    pass


def _held_name(game: Any) -> str:
    return next(game.world.name_of(o) for o in agent(game).hands if game.world.is_instance(o))


FAILURES = [
    # (setup, command, key); agent_0 holds a pear and carries coin, cider, pruner in its inventory.
    (_nothing, "sell 0 cider cider_seller", "sell.bad_amount"),
    (_nothing, "sell -2 cider cider_seller", "sell.bad_amount"),
    (_nothing, "sell all cider cider_seller", "sell.bad_amount"),
    (_nothing, "sell \uff11 cider cider_seller", "sell.bad_amount"),  # a full-width digit
    (_nothing, "sell 1 cider nobody", "sell.no_npc"),
    (_elsewhere, "sell 1 cider cider_seller", "sell.no_npc"),
    (_wasp_here, "sell 1 cider wasp", "sell.not_merchant"),
    (_no_currency, "sell 1 cider cider_seller", "sell.no_currency"),
    (_nothing, "sell 1 unicorn cider_seller", "sell.unknown_object"),
    (_hold_crate, "sell 1 {held} cider_seller", "sell.not_tradable"),
    (_hold_crate, "sell 1 crate cider_seller", "sell.not_tradable"),
    (_hold_label, "sell 1 {held} cider_seller", "sell.not_tradable"),
    (_hold_label, "sell 1 label cider_seller", "sell.not_tradable"),
    (_nothing, "sell 1 coin cider_seller", "sell.no_value"),
    (_nothing, "sell 1 press cider_seller", "sell.no_value"),
    (_nothing, "sell 1 pear cider_seller", "sell.worthless"),  # floor(1 x 0.5) = 0
    (_nothing, "sell 1 key cider_seller", "sell.not_carried"),
    (_key_on_ground, "sell 1 key cider_seller", "sell.not_carried"),
    (_apron_equipped, "sell 1 apron cider_seller", "sell.not_carried"),  # equipped: not sold
    (_poor_merchant, "sell 1 pruner cider_seller", "sell.merchant_broke"),  # 4 < 10
]


@pytest.mark.parametrize(("setup", "command", "key"), FAILURES)
def test_soft_failures_change_nothing(setup: Any, command: str, key: str) -> None:
    game = stage()
    give(game, "agent_0", "obj_pear")
    equip_inventory(game, {"obj_coin": 9, "obj_cider": 2, "obj_pruner": 1})
    setup(game)
    held = _held_name(game) if "{held}" in command else ""
    check_refused(game, command.format(held=held), key)


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_each_carried_kind_up_to_owned_and_affordable() -> None:
    game = stage(coins=12)
    give(game, "agent_0", "obj_key")
    hold_crate(game, {"obj_key": 2, "obj_apron": 1, "obj_pear": 3})
    equip_inventory(game, {"obj_cider": 2, "obj_coin": 4})
    agent(game).equipped["obj_apron"] = 1  # equipped: never offered
    assert valid_params(game, "sell") == [
        ("1", "key", "cider_seller"),  # 3 keys, but 12 // 5 = 2
        ("2", "key", "cider_seller"),
        ("1", "cider", "cider_seller"),
        ("2", "cider", "cider_seller"),
        ("1", "apron", "cider_seller"),  # in the held crate: 1 owned, 12 // 4 = 3
    ]
    assert valid_params(game, "sell", all_amounts=False) == [
        ("1", "key", "cider_seller"),
        ("1", "cider", "cider_seller"),
        ("1", "apron", "cider_seller"),
    ]


def test_valid_params_is_not_off_by_one_and_uses_the_sell_price() -> None:
    """Reference defects (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): amounts
    1..coins // value - 1, with the full value instead of the sell price. A merchant with 5 coins
    can buy one key (sell price 5)."""
    game = stage(coins=5)
    give(game, "agent_0", "obj_key", 2)
    assert valid_params(game, "sell") == [("1", "key", "cider_seller")]


def test_valid_params_offers_held_container_contents() -> None:
    """Reference defect: its held-container loop never yields anything."""
    game = stage()
    hold_crate(game, {"obj_quill": 2})
    assert valid_params(game, "sell") == [
        ("1", "quill", "cider_seller"),
        ("2", "quill", "cider_seller"),
    ]


def test_valid_params_is_empty_without_merchant_or_currency() -> None:
    game = stage(area=ROWS)
    give(game, "agent_0", "obj_key")
    spawn_npc(game, "npc_wasp", GATE, coins=50)
    assert valid_params(game, "sell") == []
    game.world.place_npc("npc_cider_seller", GATE)
    assert valid_params(game, "sell") == [("1", "key", "cider_seller")]
    drop_currency(game)
    assert valid_params(game, "sell") == []


# ----------------------------------------------------------------------------- exactness property
KINDS = [
    "obj_coin",
    "obj_pear",
    "obj_press",
    "obj_cider",
    "obj_key",
    "obj_quill",
    "obj_pruner",
    "obj_apron",
]
IN_HAND = [*KINDS, "obj_crate", "obj_label", "obj_key", "obj_cider"]


def random_goods(rng: random.Random, k: int) -> dict[str, int]:
    """`k` of KINDS, one to three units each. Not harness.random_contents: these are the kinds a
    merchant buys or refuses by their value (crates and labels are never traded)."""
    return {d: rng.randint(1, 3) for d in rng.sample(KINDS, k)}


def random_stage(game: Any, seed: int) -> Any:
    """Reset `game` and build a random selling situation at the gate (same seed, same state).
    Like buy's stage in outline, but the goods are the agent's and the merchants' stock is empty."""
    rng = restage(game, seed)
    world = game.world
    area = GATE if rng.random() < 0.85 else ROWS
    spawn_npc(game, "npc_cider_seller", area, coins=rng.randint(0, 30), inventory={})
    if rng.random() < 0.4:  # a second merchant, or a plain NPC with a purse
        role = rng.choice(["merchant", "beast"])
        spawn_npc(game, "npc_wasp", GATE, role=role, coins=rng.randint(0, 30))
    if rng.random() < 0.05:
        drop_currency(game)
    body = agent(game)
    for _ in range(rng.randint(0, 2)):
        give(game, "agent_0", rng.choice(IN_HAND))
    for cid in [c for c in body.hands if c in world.containers]:
        fill(game, cid, random_goods(rng, 2))
    if rng.random() < 0.6:
        equip_inventory(game, random_goods(rng, rng.randint(0, 3)))
    if rng.random() < 0.3:
        body.equipped["obj_apron"] = 1
    put_on_ground(game, GATE, "obj_key", 2)
    crate_on_ground(game, GATE, random_goods(rng, 2))
    body.tutorial_passed = rng.random() < 0.8
    return game


def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed tuple succeeds; any other tuple fails and changes nothing - except an amount
    above what I carry or the merchant can pay, which `sell` clamps: it must then
    succeed as the listed tuple with the clamped amount."""
    game = make_game()
    checked, listed_total = check_valid_params_sampled(
        "sell",
        lambda seed: random_stage(game, seed),
        range(250),
        trade_candidates,
        tries=15,
        reuse_after_failure=True,  # a failed trade was just shown to change nothing
        clamp_keys=frozenset({"sell.only_have", "sell.only_afford"}),
    )
    assert checked > 4000
    assert listed_total > 300
