"""`buy <amount> <object> <merchant>` (docs/mechanics/verbs.md#buy).

The stage is the tiny world's gate with everything cleared away, the merchant `cider_seller` placed
there with a chosen purse and stock. Prices are the definitions' values: cider 3, label 2 (a
writable), crate 12 (a container), key 10; coin and press have no value.
"""

from __future__ import annotations

from typing import Any

import pytest
from harness import (
    act,
    agent,
    blank_game,
    check_refused,
    check_valid_params_sampled,
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
STOCK = {"obj_cider": 4, "obj_label": 5, "obj_crate": 1, "obj_press": 2}


# ----------------------------------------------------------------------------- staging helpers
def stage(coins: int = 50, stock: dict[str, int] | None = None, area: str = GATE) -> Any:
    """A cleared tiny world with the merchant in `area` (agent_0 stands at the gate)."""
    game = blank_game()
    spawn_npc(
        game,
        "npc_cider_seller",
        area,
        coins=coins,
        inventory=dict(STOCK if stock is None else stock),
    )
    return game


def merchant(game: Any) -> Any:
    return game.world.npcs["npc_cider_seller"]


# ----------------------------------------------------------------------------- success paths
def test_pays_from_hands_then_inventory_then_held_containers() -> None:
    game = stage(coins=50)
    give(game, "agent_0", "obj_coin", 1)
    held = hold_crate(game, {"obj_coin": 10, "obj_pear": 2})
    inv = equip_inventory(game, {"obj_coin": 5})
    res = act(game, "agent_0", "buy 3 cider cider_seller")  # cost 9: 1 + 5 + 3
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["buy.done"]
    body = agent(game)
    assert body.hands == {held: 1}
    assert game.world.containers[inv].items == {}
    assert game.world.containers[held].items == {"obj_coin": 7, "obj_pear": 2}
    assert merchant(game).coins == 59
    assert merchant(game).inventory == {
        "obj_cider": 1,
        "obj_label": 5,
        "obj_crate": 1,
        "obj_press": 2,
    }
    assert game.world.areas[GATE].objects == {"obj_cider": 3}
    assert body.traded == {"obj_cider": 3}
    assert events(res) == [
        (
            "object_bought",
            {
                "npc_id": "npc_cider_seller",
                "obj_id": "obj_cider",
                "amount": 3,
                "unit_price": 3,
                "area_id": GATE,
            },
        )
    ]


def test_tracking_events_name_each_paying_store_and_the_ground() -> None:
    game = stage()
    give(game, "agent_0", "obj_coin", 1)
    held = hold_crate(game, {"obj_coin": 10})
    inv = equip_inventory(game, {"obj_coin": 2})
    res = act(
        game, "agent_0", "buy 2 cider cider_seller", tracking=True
    )  # cost 6: 1 hand + 2 inventory + 3 held
    assert events(res) == [
        (
            "track.consume",
            {"obj_id": "obj_coin", "amount": 1, "src": {"kind": "hand", "id": "agent_0"}},
        ),
        (
            "track.consume",
            {"obj_id": "obj_coin", "amount": 2, "src": {"kind": "container", "id": inv}},
        ),
        (
            "track.consume",
            {"obj_id": "obj_coin", "amount": 3, "src": {"kind": "container", "id": held}},
        ),
        ("track.spawn", {"obj_id": "obj_cider", "amount": 2, "dst": {"kind": "area", "id": GATE}}),
        (
            "object_bought",
            {
                "npc_id": "npc_cider_seller",
                "obj_id": "obj_cider",
                "amount": 2,
                "unit_price": 3,
                "area_id": GATE,
            },
        ),
    ]


def test_writables_arrive_as_new_blank_instances_on_the_ground() -> None:
    game = stage()
    give(game, "agent_0", "obj_coin", 2)
    equip_inventory(game, {"obj_coin": 3})
    n = game.world.writable_count.get("obj_label", 0)
    res = act(game, "agent_0", "buy 2 label cider_seller")  # cost 4
    assert res.feedback_keys("agent_0") == ["buy.done"]
    new = [f"obj_label_{n}", f"obj_label_{n + 1}"]
    assert game.world.areas[GATE].objects == dict.fromkeys(new, 1)
    for i, oid in enumerate(new):
        assert game.world.writables[oid].text == ""
        assert game.world.obj_name_to_id[f"label_{n + i}"] == oid
    assert merchant(game).inventory["obj_label"] == 3
    assert agent(game).traded == {"obj_label": 2}
    assert res.events[0].data["obj_id"] == "obj_label"  # the definition, not an instance


def test_amount_is_clamped_to_the_stock_and_a_sold_out_entry_disappears() -> None:
    game = stage()
    give(game, "agent_0", "obj_coin", 2)
    equip_inventory(game, {"obj_coin": 20})
    n = game.world.container_count["obj_crate"]
    res = act(game, "agent_0", "buy 3 crate cider_seller")
    assert res.action_ok["agent_0"]
    assert res.feedback_keys("agent_0") == ["buy.only_stock", "buy.done"]
    assert "obj_crate" not in merchant(game).inventory
    assert game.world.areas[GATE].objects == {f"obj_crate_{n}": 1}
    assert game.world.containers[f"obj_crate_{n}"].items == {}
    assert merchant(game).coins == 62
    assert res.events[0].data["amount"] == 1


def test_buying_exactly_the_whole_stock_deletes_the_entry() -> None:
    game = stage(stock={"obj_cider": 4})
    give(game, "agent_0", "obj_coin", 2)
    equip_inventory(game, {"obj_coin": 10})
    res = act(game, "agent_0", "buy 4 cider cider_seller")
    assert res.feedback_keys("agent_0") == ["buy.done"]
    assert merchant(game).inventory == {}
    assert agent(game).hands == {}
    assert game.world.areas[GATE].objects == {"obj_cider": 4}


def test_purchases_accumulate_in_traded() -> None:
    game = stage()
    equip_inventory(game, {"obj_coin": 30})
    act(game, "agent_0", "buy 1 cider cider_seller")
    act(game, "agent_0", "buy 2 cider cider_seller")
    act(game, "agent_0", "buy 1 key cider_seller")  # not stocked: no change
    assert agent(game).traded == {"obj_cider": 3}


def test_not_recorded_as_trade_before_the_tutorial_is_passed() -> None:
    """Tracking held back per agent: the purchase happens, only the trade tracking is held back."""
    game = stage()
    agent(game).tutorial_passed = False
    equip_inventory(game, {"obj_coin": 30})
    res = act(game, "agent_0", "buy 2 cider cider_seller")
    assert res.action_ok["agent_0"]
    assert agent(game).traded == {}
    assert game.world.areas[GATE].objects == {"obj_cider": 2}
    assert merchant(game).coins == 56


def test_a_free_item_needs_no_coins() -> None:
    game = stage(coins=7, stock={"obj_pear": 3})
    set_value(game, "obj_pear", 0)
    res = act(game, "agent_0", "buy 2 pear cider_seller")
    assert res.feedback_keys("agent_0") == ["buy.done"]
    assert game.world.areas[GATE].objects == {"obj_pear": 2}
    assert merchant(game).coins == 7
    assert merchant(game).inventory == {"obj_pear": 1}
    assert res.events[0].data["unit_price"] == 0


def test_coins_on_the_ground_or_in_a_crate_on_the_ground_do_not_pay() -> None:
    game = stage()
    put_on_ground(game, GATE, "obj_coin", 20)
    [crate] = put_on_ground(game, GATE, "obj_crate")
    game.world.containers[crate].items["obj_coin"] = 20
    res = act(game, "agent_0", "buy 1 cider cider_seller")
    assert res.feedback_keys("agent_0") == ["buy.no_money"]


@pytest.mark.parametrize(
    ("value", "amount", "cost"), [(1, 1, 1), (1, 4, 4), (3, 3, 9), (7, 2, 14), (12, 4, 48)]
)
def test_cost_is_price_times_amount(value: int, amount: int, cost: int) -> None:
    """Price = int(value), cost = price x amount, paid to the merchant's purse."""
    game = stage(coins=5, stock={"obj_pear": 4})
    set_value(game, "obj_pear", value)
    equip_inventory(game, {"obj_coin": 50})
    res = act(game, "agent_0", f"buy {amount} pear cider_seller")
    assert res.events[0].data["unit_price"] == value
    assert merchant(game).coins == 5 + cost
    assert game.world.containers[agent(game).inventory_id].items == {"obj_coin": 50 - cost}


# ----------------------------------------------------------------------------- soft failures
def _elsewhere(game: Any) -> None:
    game.world.place_npc("npc_cider_seller", ROWS)


def _wasp_here(game: Any) -> None:
    spawn_npc(game, "npc_wasp", GATE, name="wasp")


def _negative_price(game: Any) -> None:
    game.world.npcs["npc_cider_seller"].inventory["obj_pear"] = 3
    set_value(game, "obj_pear", -1)


def _zero_stock(game: Any) -> None:
    game.world.npcs["npc_cider_seller"].inventory["obj_key"] = 0


def _nothing(game: Any) -> None:
    pass


FAILURES = [
    # (setup, command, key); agent_0 carries 11 coins (2 in hand, 9 in its inventory).
    (_nothing, "buy 0 cider cider_seller", "buy.bad_amount"),
    (_nothing, "buy -1 cider cider_seller", "buy.bad_amount"),
    (_nothing, "buy two cider cider_seller", "buy.bad_amount"),
    (_nothing, "buy 1.5 cider cider_seller", "buy.bad_amount"),
    (_nothing, "buy \u0661 cider cider_seller", "buy.bad_amount"),  # an Arabic-Indic digit
    (_nothing, "buy '' cider cider_seller", "buy.bad_amount"),
    (_nothing, "buy 1 cider nobody", "buy.no_npc"),
    (_nothing, "buy 1 cider Cider_Seller", "buy.no_npc"),  # names are case-sensitive
    (_elsewhere, "buy 1 cider cider_seller", "buy.no_npc"),
    (_wasp_here, "buy 1 pear wasp", "buy.not_merchant"),
    (_nothing, "buy 1 unicorn cider_seller", "buy.unknown_object"),
    (_nothing, "buy 1 Cider cider_seller", "buy.unknown_object"),
    (_nothing, "buy 1 press cider_seller", "buy.not_sold"),  # stocked, but value None
    (_nothing, "buy 1 coin cider_seller", "buy.not_sold"),
    (_negative_price, "buy 1 pear cider_seller", "buy.bad_price"),
    (_nothing, "buy 1 key cider_seller", "buy.out_of_stock"),
    (_zero_stock, "buy 1 key cider_seller", "buy.out_of_stock"),
    (_nothing, "buy 1 crate cider_seller", "buy.no_money"),  # 12 > 11
    (_nothing, "buy 9 cider cider_seller", "buy.no_money"),  # clamped to 4: 12 > 11
    (_nothing, "buy 4 cider cider_seller", "buy.no_money"),  # no partial purchase by money
]


@pytest.mark.parametrize(("setup", "command", "key"), FAILURES)
def test_soft_failures_change_nothing(setup: Any, command: str, key: str) -> None:
    game = stage()
    give(game, "agent_0", "obj_coin", 2)
    equip_inventory(game, {"obj_coin": 9})
    n = game.world.writable_count.get("obj_label", 0)
    setup(game)
    check_refused(game, command.format(n=n), key)


def test_a_purchase_that_is_exactly_affordable_succeeds() -> None:
    """The boundary of the money check above: 11 coins buy 5 labels (10) and 3 cider (9)."""
    game = stage()
    give(game, "agent_0", "obj_coin", 2)
    equip_inventory(game, {"obj_coin": 9})
    assert act(game, "agent_0", "buy 6 label cider_seller").feedback_keys("agent_0") == [
        "buy.only_stock",
        "buy.done",
    ]
    body = agent(game)
    assert body.hands == {}  # hands pay first
    assert game.world.containers[body.inventory_id].items == {"obj_coin": 1}


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_each_stocked_item_up_to_stock_and_money() -> None:
    game = stage(
        stock={"obj_cider": 4, "obj_label": 2, "obj_crate": 1, "obj_press": 2, "obj_ghost": 3}
    )
    give(game, "agent_0", "obj_coin", 1)
    equip_inventory(game, {"obj_coin": 6})  # 7 coins: cider <= 2, label <= 3 (stock 2), crate 0
    assert valid_params(game, "buy") == [
        ("1", "cider", "cider_seller"),
        ("2", "cider", "cider_seller"),
        ("1", "label", "cider_seller"),
        ("2", "label", "cider_seller"),
    ]
    assert valid_params(game, "buy", all_amounts=False) == [
        ("1", "cider", "cider_seller"),
        ("1", "label", "cider_seller"),
    ]


def test_valid_params_is_not_off_by_one() -> None:
    """Reference defect (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): the reference
    lists 1..coins//value - 1, so an item affordable exactly once is never offered. We list
    1..min(stock, coins // price)."""
    game = stage(stock={"obj_cider": 4})
    equip_inventory(game, {"obj_coin": 3})
    assert valid_params(game, "buy") == [("1", "cider", "cider_seller")]


def test_valid_params_respects_the_stock() -> None:
    """Reference defect: the reference ignores the merchant's stock."""
    game = stage(stock={"obj_cider": 2})
    equip_inventory(game, {"obj_coin": 30})
    assert valid_params(game, "buy") == [
        ("1", "cider", "cider_seller"),
        ("2", "cider", "cider_seller"),
    ]


def test_valid_params_for_free_items_is_bounded_by_stock() -> None:
    """Reference defect: the reference divides by a zero value."""
    game = stage(stock={"obj_pear": 2})
    set_value(game, "obj_pear", 0)
    assert valid_params(game, "buy") == [
        ("1", "pear", "cider_seller"),
        ("2", "pear", "cider_seller"),
    ]


def test_valid_params_is_empty_without_a_merchant_here() -> None:
    game = stage(area=ROWS)
    equip_inventory(game, {"obj_coin": 30})
    spawn_npc(game, "npc_wasp", GATE, inventory={"obj_cider": 3})
    assert valid_params(game, "buy") == []


def test_valid_params_lists_every_merchant_here() -> None:
    game = stage(stock={"obj_cider": 1})
    other = spawn_npc(
        game, "npc_wasp", GATE, role="merchant", inventory={"obj_key": 1, "obj_cider": 2}
    )
    equip_inventory(game, {"obj_coin": 30})
    assert valid_params(game, "buy") == [
        ("1", "cider", "cider_seller"),
        ("1", "key", other.name),
        ("1", "cider", other.name),
        ("2", "cider", other.name),
    ]


# ----------------------------------------------------------------------------- exactness property
DEFS = [
    "obj_coin",
    "obj_pear",
    "obj_press",
    "obj_cider",
    "obj_key",
    "obj_crate",
    "obj_label",
    "obj_quill",
    "obj_pruner",
    "obj_apron",
    "obj_ghost",
]
IN_HAND = ["obj_coin", "obj_coin", "obj_pear", "obj_crate", "obj_label"]


def random_stage(game: Any, seed: int) -> Any:
    """Reset `game` and build a random trading situation at the gate (same seed, same state)."""
    rng = restage(game, seed)
    world = game.world
    stock = {d: rng.randint(0, 4) for d in rng.sample(DEFS, rng.randint(0, 6))}
    area = GATE if rng.random() < 0.85 else ROWS
    spawn_npc(game, "npc_cider_seller", area, coins=rng.randint(0, 40), inventory=stock)
    if rng.random() < 0.4:  # a second merchant, or a plain NPC with goods
        role = rng.choice(["merchant", "beast"])
        goods = {d: rng.randint(0, 3) for d in rng.sample(DEFS, 3)}
        spawn_npc(game, "npc_wasp", GATE, role=role, coins=rng.randint(0, 30), inventory=goods)
    if rng.random() < 0.3:
        set_value(game, "obj_pear", 0)
    body = agent(game)
    for _ in range(rng.randint(0, 2)):
        give(game, "agent_0", rng.choice(IN_HAND))
    for cid in [c for c in body.hands if c in world.containers]:
        fill(game, cid, {"obj_coin": rng.randint(0, 12), "obj_cider": 1})
    if rng.random() < 0.6:
        equip_inventory(game, {"obj_coin": rng.randint(0, 15)} if rng.random() < 0.8 else {})
    put_on_ground(game, GATE, "obj_coin", rng.randint(1, 5))
    put_on_ground(game, GATE, "obj_label")
    body.tutorial_passed = rng.random() < 0.8
    return game


def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed tuple succeeds; any other tuple fails and changes nothing - except an amount
    above the stock, which `buy` clamps: it must then succeed as the listed tuple with the
    clamped amount, or an instance name, which buys its definition."""
    game = make_game()
    checked, _ = check_valid_params_sampled(
        "buy",
        lambda seed: random_stage(game, seed),
        range(250),
        trade_candidates,
        tries=15,
        reuse_after_failure=True,  # a failed trade was just shown to change nothing
        clamp_keys=frozenset({"buy.only_stock"}),
        by_definition=True,
    )
    assert checked > 4000


def test_an_instance_name_buys_its_definition() -> None:
    """The bought item is the definition of the resolved id."""
    game = blank_game()
    spawn_npc(game, "npc_cider_seller", "area_gate")
    give(game, "agent_0", "obj_coin", 2)
    name = game.world.writables[put_on_ground(game, "area_rows", "obj_label")[0]].name
    res = act(game, "agent_0", f"buy 1 {name} cider_seller")
    assert res.action_ok["agent_0"], res.feedback
    assert res.events[-1].data["obj_id"] == "obj_label"
