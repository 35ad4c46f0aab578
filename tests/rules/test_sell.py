"""`sell <amount> <object> <merchant>` (spec actions.md section 17).

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
from harness import act, agent, clear_world, give, make_game, put_on_ground, spawn_npc, state_of

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext

GATE, ROWS = "area_gate", "area_rows"
STOCK = {"obj_cider": 4}


# ----------------------------------------------------------------------------- staging helpers
def stage(coins: int = 100, area: str = GATE) -> Any:
    """A cleared tiny world with the merchant in `area` (agent_0 stands at the gate)."""
    game = make_game()
    clear_world(game)
    spawn_npc(game, "npc_cider_seller", area, coins=coins, inventory=dict(STOCK))
    return game


def merchant(game: Any) -> Any:
    return game.world.npcs["npc_cider_seller"]


def equip_inventory(game: Any, contents: dict[str, int], agent_id: str = "agent_0") -> str:
    """Equip a fresh crate as the agent's inventory, holding `contents`."""
    cid = game.world.new_instance("obj_crate")
    body = game.agents[agent_id]
    body.equipped[cid] = 1
    body.inventory_id = cid
    game.world.containers[cid].items.update(contents)
    return cid


def hold_container(game: Any, contents: dict[str, int], agent_id: str = "agent_0") -> str:
    [cid] = give(game, agent_id, "obj_crate")
    game.world.containers[cid].items.update(contents)
    return cid


def set_value(game: Any, def_id: str, value: int | None) -> None:
    """Give a plain definition another value."""
    world = game.world
    world.add_object_def(attrs.evolve(world.objects[def_id], value=value))


def drop_currency(game: Any) -> None:
    """Turn the coin into a plain material, leaving the world without a currency."""
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_coin"], category="material"))


def act_tracked(game: Any, command: str, agent_id: str = "agent_0") -> RuleResult:
    """Like harness.act, with dependency tracking switched on."""
    res = RuleResult(game.agent_ids, tracking=True)
    parsed = game.engine.parse(command)
    body = game.agents[agent_id]
    ctx = RuleContext(game, game.world, body, parsed.verb, parsed.params, game.tick_index)
    game.engine.dispatch(ctx, res)
    return res


def valid(game: Any, all_amounts: bool = True, agent_id: str = "agent_0") -> list[tuple[str, ...]]:
    ctx = RuleContext(game, game.world, game.agents[agent_id], "sell", (), game.tick_index)
    return game.engine.rules["sell"].valid_params(ctx, all_amounts=all_amounts)


def events(res: RuleResult) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in res.events]


def box(container_id: str) -> dict[str, str]:
    return {"kind": "container", "id": container_id}


def sold(amount: int, unit: int, obj_id: str = "obj_key") -> tuple[str, dict]:
    data = {"npc_id": "npc_cider_seller", "obj_id": obj_id, "amount": amount, "unit_price": unit}
    return ("object_sold", {**data, "area_id": GATE})


# ----------------------------------------------------------------------------- success paths
def test_takes_from_hands_then_inventory_then_held_containers() -> None:
    game = stage(coins=100)
    give(game, "agent_0", "obj_key")
    held = hold_container(game, {"obj_key": 3, "obj_pear": 1})
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
    held = hold_container(game, {"obj_key": 1})
    inv = equip_inventory(game, {"obj_key": 1})
    res = act_tracked(game, "sell 3 key cider_seller")
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
    """Spec quirk 9 (kept as specified): sold goods vanish and `traded` is untouched."""
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
    """Spec 17.6: unit = floor(value x 0.5); three units sold pay 3 x unit."""
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
    hold_container(game, {"obj_key": 1})


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
    before = state_of(game)
    res = act(game, "agent_0", command.format(held=_held_name(game) if "{held}" in command else ""))
    assert res.feedback_keys("agent_0") == [key]
    assert res.action_ok["agent_0"] is False
    assert res.invalid["agent_0"] is False
    assert res.events == []
    assert state_of(game) == before


@pytest.mark.parametrize("command", ["sell 1 key", "sell 1 key cider_seller please", "sell"])
def test_wrong_parameter_count_is_invalid(command: str) -> None:
    game = stage()
    give(game, "agent_0", "obj_key")
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] is True
    assert res.action_ok["agent_0"] is False
    assert res.feedback_keys("agent_0") == ["invalid.param_count"]
    assert state_of(game) == before


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_each_carried_kind_up_to_owned_and_affordable() -> None:
    game = stage(coins=12)
    give(game, "agent_0", "obj_key")
    hold_container(game, {"obj_key": 2, "obj_apron": 1, "obj_pear": 3})
    equip_inventory(game, {"obj_cider": 2, "obj_coin": 4})
    agent(game).equipped["obj_apron"] = 1  # equipped: never offered
    assert valid(game) == [
        ("1", "key", "cider_seller"),  # 3 keys, but 12 // 5 = 2
        ("2", "key", "cider_seller"),
        ("1", "cider", "cider_seller"),
        ("2", "cider", "cider_seller"),
        ("1", "apron", "cider_seller"),  # in the held crate: 1 owned, 12 // 4 = 3
    ]
    assert valid(game, all_amounts=False) == [
        ("1", "key", "cider_seller"),
        ("1", "cider", "cider_seller"),
        ("1", "apron", "cider_seller"),
    ]


def test_valid_params_is_not_off_by_one_and_uses_the_sell_price() -> None:
    """Reference defects (observations-and-loop 10): amounts 1..coins // value - 1, with the full
    value instead of the sell price. A merchant with 5 coins can buy one key (sell price 5)."""
    game = stage(coins=5)
    give(game, "agent_0", "obj_key", 2)
    assert valid(game) == [("1", "key", "cider_seller")]


def test_valid_params_offers_held_container_contents() -> None:
    """Reference defect: its held-container loop never yields anything."""
    game = stage()
    hold_container(game, {"obj_quill": 2})
    assert valid(game) == [("1", "quill", "cider_seller"), ("2", "quill", "cider_seller")]


def test_valid_params_is_empty_without_merchant_or_currency() -> None:
    game = stage(area=ROWS)
    give(game, "agent_0", "obj_key")
    spawn_npc(game, "npc_wasp", GATE, coins=50)
    assert valid(game) == []
    game.world.place_npc("npc_cider_seller", GATE)
    assert valid(game) == [("1", "key", "cider_seller")]
    drop_currency(game)
    assert valid(game) == []


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
CLAMP_KEYS = {"sell.only_have", "sell.only_afford"}


def random_contents(rng: random.Random, k: int) -> dict[str, int]:
    return {d: rng.randint(1, 3) for d in rng.sample(KINDS, k)}


def random_stage(game: Any, seed: int) -> Any:
    """Reset `game` and build a random selling situation at the gate (same seed, same state)."""
    rng = random.Random(seed)
    game.reset(0)
    clear_world(game)
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
        world.containers[cid].items.update(random_contents(rng, 2))
    if rng.random() < 0.6:
        equip_inventory(game, random_contents(rng, rng.randint(0, 3)))
    if rng.random() < 0.3:
        body.equipped["obj_apron"] = 1
    put_on_ground(game, GATE, "obj_key", 2)
    [crate] = put_on_ground(game, GATE, "obj_crate")
    world.containers[crate].items.update(random_contents(rng, 2))
    body.tutorial_passed = rng.random() < 0.8
    return game


def candidates(game: Any, rng: random.Random, k: int) -> list[tuple[str, ...]]:
    """Plausible tuples: any amount 0..4, any object/container name, any NPC or area name."""
    world = game.world
    amounts = ["0", "1", "2", "3", "4", "x"]
    objects = [*world.obj_name_to_id, "inventory", "ghost"]
    npcs = [*world.npc_name_to_id, *(a.name for a in world.areas.values())]
    return [(rng.choice(amounts), rng.choice(objects), rng.choice(npcs)) for _ in range(k)]


def fingerprint(game: Any) -> str:
    """A cheap picture of everything a trade can change (agents, grounds, containers, NPCs)."""
    world = game.world
    return repr(
        (
            [attrs.asdict(a) for a in game.agents.values()],
            {a.id: a.objects for a in world.areas.values()},
            {c.id: c.items for c in world.containers.values()},
            {n.id: (n.coins, n.inventory, n.area_id) for n in world.npcs.values()},
        )
    )


def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed tuple succeeds; any other tuple fails and changes nothing - except an amount
    above what I carry or the merchant can pay, which the spec clamps (17.8-9): it must then
    succeed as the listed tuple with the clamped amount. The state is rebuilt after a success."""
    game = make_game()
    checked = listed_total = 0
    for seed in range(250):
        listed = valid(random_stage(game, seed))
        listed_total += len(listed)
        assert valid(game, all_amounts=False) == [t for t in listed if t[0] == "1"]
        before = fingerprint(game)
        for params in listed + candidates(game, random.Random(1000 + seed), 15):
            res = act(game, "agent_0", ("sell", params))
            ok = res.action_ok["agent_0"]
            assert not res.invalid["agent_0"]
            if params in listed:
                assert ok, (seed, params, res.feedback)
                assert res.events[-1].data["amount"] == int(params[0])
            elif ok:
                assert CLAMP_KEYS & set(res.feedback_keys("agent_0")), (seed, params)
                done = (str(res.events[-1].data["amount"]), params[1], params[2])
                assert done in listed, (seed, params, done)
            if ok:
                assert fingerprint(game) != before
                random_stage(game, seed)
            else:
                assert fingerprint(game) == before, (seed, params)
            checked += 1
    assert checked > 4000
    assert listed_total > 300
