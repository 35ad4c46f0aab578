"""`craft <amount> <object>` (docs/mechanics/verbs.md#craft), in both fractional-crafting modes.

Tiny-world recipes: cider = 0.5 pear at a press; key = 2 cider at a press; crate (a container) =
3 cider at a press; pruner = 1 cider + 2 pear at a press; label (a writable) = 1 pear; apron = 4
pear; press (a station) = 6 pear. Coin and quill have no recipe. The page's "bar" examples use the
pear and the cider recipe (0.5 per unit). agent_0 stands at the gate, every ground cleared.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from harness import (
    AMOUNTS,
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
    move_to,
    put_on_ground,
    restage,
    valid_params,
)

from agentodyssey_pz.world.schema import CraftRecipe, ObjectDef

GATE, ROWS = "area_gate", "area_rows"
MODES = ["exact", "reference"]


# ----------------------------------------------------------------------------- staging helpers
def stage(mode: str = "exact", press: bool = True) -> Any:
    game = blank_game(fractional_crafting=mode)
    if press:
        put_on_ground(game, GATE, "obj_press")
    return game


def add_recipe(game: Any, def_id: str, name: str, ingredients: dict[str, float]) -> None:
    """A run-time definition (a plain material) with the given recipe and no station."""
    game.world.add_object_def(
        ObjectDef(
            id=def_id,
            name=name,
            category="material",
            usage="craft",
            size=1,
            craft=CraftRecipe(ingredients=ingredients),
        )
    )


def ground(game: Any) -> dict[str, int]:
    return game.world.areas[GATE].objects


# ----------------------------------------------------------------------------- success paths
def test_craft_consumes_and_puts_the_product_on_the_ground() -> None:
    game = stage()
    equip_inventory(game, {"obj_pear": 4})
    give(game, "agent_0", "obj_cider", 1)
    res = act(game, "agent_0", "craft 1 pruner")
    assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
    assert res.feedback_keys("agent_0") == ["craft.done"]
    assert res.feedback_text("agent_0") == "I crafted 1 pruner; on the ground here: pruner."
    assert agent(game).hands == {}
    assert game.world.containers[agent(game).inventory_id].items == {"obj_pear": 2}
    assert ground(game) == {"obj_press": 1, "obj_pruner": 1}  # the station is not used up
    assert agent(game).crafted == {"obj_pruner": 1}
    assert events(res) == [
        ("object_crafted", {"obj_id": "obj_pruner", "amount": 1, "area_id": GATE})
    ]


def test_sources_in_order_hands_inventory_held_containers_with_tracking() -> None:
    game = stage()
    give(game, "agent_0", "obj_pear", 1)
    held = hold_crate(game, {"obj_pear": 5, "obj_cider": 2})
    inv = equip_inventory(game, {"obj_pear": 1})
    res = act(game, "agent_0", "craft 1 pruner", tracking=True)
    assert agent(game).hands == {held: 1}
    assert game.world.containers[inv].items == {}
    assert game.world.containers[held].items == {"obj_pear": 5, "obj_cider": 1}
    consumed = [
        ("obj_cider", {"kind": "container", "id": held}),
        ("obj_pear", {"kind": "hand", "id": "agent_0"}),
        ("obj_pear", {"kind": "container", "id": inv}),
    ]
    assert events(res) == [
        *[("track.consume", {"obj_id": o, "amount": 1, "src": src}) for o, src in consumed],
        ("track.spawn", {"obj_id": "obj_pruner", "amount": 1, "dst": {"kind": "area", "id": GATE}}),
        ("object_crafted", {"obj_id": "obj_pruner", "amount": 1, "area_id": GATE}),
    ]


def test_crafts_accumulate_and_are_not_recorded_before_the_tutorial_is_passed() -> None:
    """Tracking held back per agent: the craft happens, only `crafted` tracking is held back."""
    game = stage()
    equip_inventory(game, {"obj_pear": 9})
    act(game, "agent_0", "craft 2 cider")
    act(game, "agent_0", "craft 1 label")
    act(game, "agent_0", "craft 3 cider")
    assert agent(game).crafted == {"obj_cider": 5, "obj_label": 1}
    agent(game).tutorial_passed = False
    res = act(game, "agent_0", "craft 2 cider")
    assert res.action_ok["agent_0"]
    assert agent(game).crafted == {"obj_cider": 5, "obj_label": 1}
    assert ground(game)["obj_cider"] == 7


def test_a_writable_product_is_made_from_plain_ingredients() -> None:
    """Quirk "writable products can be crafted": the reference counted only instance entries for
    writable products, so a label (1 pear) could never be crafted. Each unit is a new blank instance
    on the ground."""
    game = stage(press=False)
    give(game, "agent_0", "obj_pear", 2)
    n = game.world.writable_count["obj_label"]
    res = act(game, "agent_0", "craft 2 label")
    assert res.feedback_keys("agent_0") == ["craft.done"]
    new = [f"obj_label_{n}", f"obj_label_{n + 1}"]
    assert ground(game) == dict.fromkeys(new, 1)
    assert [game.world.writables[i].text for i in new] == ["", ""]
    assert game.world.obj_name_to_id[f"label_{n + 1}"] == new[1]
    assert res.feedback_text("agent_0").endswith(f"label_{n}, label_{n + 1}.")
    assert res.events[-1].data == {"obj_id": "obj_label", "amount": 2, "area_id": GATE}


def test_a_container_product_is_a_new_empty_instance() -> None:
    game = stage()
    equip_inventory(game, {"obj_cider": 3})
    n = game.world.container_count["obj_crate"]
    res = act(game, "agent_0", "craft 1 crate")
    assert res.feedback_keys("agent_0") == ["craft.done"]
    assert ground(game) == {"obj_press": 1, f"obj_crate_{n}": 1}
    assert game.world.containers[f"obj_crate_{n}"].items == {}


def test_instance_ingredients_count_by_definition_and_are_consumed_one_by_one() -> None:
    """Quirk "writable products can be crafted", other half: instances count under their definition,
    whatever the product."""
    game = stage(press=False)
    add_recipe(game, "obj_booklet", "booklet", {"obj_label": 2, "obj_pear": 1})
    give(game, "agent_0", "obj_label")
    inv = equip_inventory(game, {"obj_pear": 1})
    second = game.world.new_instance("obj_label")
    third = game.world.new_instance("obj_label")
    game.world.containers[inv].items.update({second: 1, third: 1})
    res = act(game, "agent_0", "craft 5 booklet")
    assert res.feedback_keys("agent_0") == ["craft.only_enough", "craft.done"]
    assert agent(game).hands == {}
    assert game.world.containers[inv].items == {third: 1}
    assert ground(game) == {"obj_booklet": 1}


# ----------------------------------------------------------------------------- fractional recipes
# The examples of docs/mechanics/verbs.md#quirk-fractional-ingredients-lose-their-remainder, cider =
# 0.5 pear: (pears in hand, pears in the inventory, crafts) -> pears left in hand and inventory, and
# the credit left, per mode.
SPEC_EXAMPLES = [
    # hand, inv, amount, exact: (hand, inv, credit), reference: (hand, inv)
    (0, 1, 1, (0, 0, 0.5), (0, 0)),
    (0, 3, 1, (0, 2, 0.5), (0, 2)),
    (0, 2, 3, (0, 0, 0.5), (0, 0)),
    (1, 1, 3, (0, 0, 0.5), (0, 0)),
    (0, 4, 2, (0, 3, 0.0), (0, 3)),
    (2, 0, 4, (0, 0, 0.0), (0, 0)),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("hand", "inv", "amount", "exact", "reference"), SPEC_EXAMPLES)
def test_spec_fraction_examples(
    mode: str, hand: int, inv: int, amount: int, exact: tuple, reference: tuple
) -> None:
    game = stage(mode)
    cid = equip_inventory(game, {"obj_pear": inv} if inv else {})
    if hand:
        give(game, "agent_0", "obj_pear", hand)
    res = act(game, "agent_0", f"craft {amount} cider")
    assert res.feedback_keys("agent_0") == ["craft.done"]
    left = (
        agent(game).hands.get("obj_pear", 0),
        game.world.containers[cid].items.get("obj_pear", 0),
    )
    if mode == "exact":
        assert (*left, agent(game).craft_credit.get("obj_pear", 0.0)) == exact
    else:
        assert left == reference
        assert agent(game).craft_credit == {}
    assert ground(game)["obj_cider"] == amount


# Repeated crafts of cider (0.5 pear) starting from 5 pears in the inventory: the requested amounts
# in order, then per mode the pears left and the credit after each craft, and cider in the end.
REPEATED = [
    # "exact" consumes exactly 0.5 pear per cider: 5 pears make 10 cider.
    ("exact", [1, 1, 1, 3, 4], [4, 4, 3, 2, 0], [0.5, 0, 0.5, 0, 0], 10),
    ("exact", [3, 3, 4], [3, 2, 0], [0.5, 0, 0], 10),
    ("exact", [1] * 10, [4, 4, 3, 3, 2, 2, 1, 1, 0, 0], [0.5, 0] * 5, 10),
    # "reference" destroys the remainder of every touched unit: 6 cider from 5 pears.
    ("reference", [1, 1, 1, 3], [4, 3, 2, 0], [0] * 4, 6),
    ("reference", [3, 3, 2], [3, 1, 0], [0] * 3, 8),
]


@pytest.mark.parametrize(("mode", "crafts", "pears", "credits", "total"), REPEATED)
def test_repeated_fractional_crafts(
    mode: str, crafts: list[int], pears: list[int], credits: list[float], total: int
) -> None:
    game = stage(mode)
    cid = equip_inventory(game, {"obj_pear": 5})
    for amount, left, credit in zip(crafts, pears, credits, strict=True):
        res = act(game, "agent_0", f"craft {amount} cider")
        assert res.feedback_keys("agent_0") == ["craft.done"], (amount, res.feedback)
        assert game.world.containers[cid].items.get("obj_pear", 0) == left
        assert agent(game).craft_credit.get("obj_pear", 0) == credit
    assert ground(game)["obj_cider"] == total
    assert act(game, "agent_0", "craft 1 cider").feedback_keys("agent_0") == [
        "craft.missing_ingredients"
    ]


@pytest.mark.parametrize(
    ("mode", "pears", "requested", "made", "pears_left"),
    [
        ("exact", 3, 9, 6, 0),  # 3 / 0.5 = 6
        ("exact", 3, 6, 6, 0),
        ("reference", 3, 9, 6, 0),
        ("reference", 1, 5, 2, 0),
    ],
)
def test_amount_is_clamped_to_what_the_ingredients_allow(
    mode: str, pears: int, requested: int, made: int, pears_left: int
) -> None:
    game = stage(mode)
    cid = equip_inventory(game, {"obj_pear": pears})
    res = act(game, "agent_0", f"craft {requested} cider")
    keys = ["craft.done"] if made == requested else ["craft.only_enough", "craft.done"]
    assert res.feedback_keys("agent_0") == keys
    assert ground(game)["obj_cider"] == made
    assert game.world.containers[cid].items.get("obj_pear", 0) == pears_left
    assert res.events[-1].data["amount"] == made
    if made < requested:
        assert res.feedback_text("agent_0").startswith(f"I only have ingredients for {made} cider.")


def test_credit_of_tenths_is_not_lost_to_float_rounding() -> None:
    """0.7 + 0.3 of a pear: 0.3 / 0.1 is 2.9999999999999996 in floats; it must count as 3."""
    game = stage("exact", press=False)
    add_recipe(game, "obj_pulp", "pulp", {"obj_pear": 0.1})
    give(game, "agent_0", "obj_pear", 1)
    assert act(game, "agent_0", "craft 7 pulp").feedback_keys("agent_0") == ["craft.done"]
    assert agent(game).hands == {}
    assert agent(game).craft_credit == {"obj_pear": 0.3}
    assert valid_params(game, "craft") == [("1", "pulp"), ("2", "pulp"), ("3", "pulp")]
    assert act(game, "agent_0", "craft 3 pulp").feedback_keys("agent_0") == ["craft.done"]
    assert agent(game).craft_credit == {}
    assert ground(game)["obj_pulp"] == 10


# ----------------------------------------------------------------------------- soft failures
def _nothing(game: Any) -> None:
    pass


def _press_in_hand(game: Any) -> None:
    game.world.areas[GATE].remove_objects("obj_press", 1)
    give(game, "agent_0", "obj_press")


def _press_elsewhere(game: Any) -> None:
    game.world.areas[GATE].remove_objects("obj_press", 1)
    put_on_ground(game, ROWS, "obj_press")


def _press_in_a_crate(game: Any) -> None:
    game.world.areas[GATE].remove_objects("obj_press", 1)
    [cid] = put_on_ground(game, GATE, "obj_crate")
    game.world.containers[cid].items["obj_press"] = 1


def _pears_on_the_ground(game: Any) -> None:
    put_on_ground(game, GATE, "obj_pear", 10)  # the ground is not an ingredient source
    put_on_ground(game, GATE, "obj_cider", 10)


def _pears_in_a_crate_on_the_ground(game: Any) -> None:
    [cid] = put_on_ground(game, GATE, "obj_crate")  # a crate on the ground is not a source
    game.world.containers[cid].items["obj_pear"] = 10


FAILURES = [
    # agent_0 carries 1 pear in hand and 1 cider in its inventory; a press stands at the gate.
    (_nothing, "craft 0 cider", "craft.bad_amount"),
    (_nothing, "craft -1 cider", "craft.bad_amount"),
    (_nothing, "craft one cider", "craft.bad_amount"),
    (_nothing, "craft 0.5 cider", "craft.bad_amount"),
    (_nothing, "craft \u0661 cider", "craft.bad_amount"),
    (_nothing, "craft '' cider", "craft.bad_amount"),
    (_nothing, "craft x unicorn", "craft.bad_amount"),  # the amount before the name
    (_nothing, "craft 1 unicorn", "craft.unknown_object"),
    (_nothing, "craft 1 Cider", "craft.unknown_object"),
    (_nothing, "craft 1 coin", "craft.not_craftable"),
    (_nothing, "craft 1 quill", "craft.not_craftable"),
    (_nothing, "craft 1 pear", "craft.not_craftable"),
    (_press_in_hand, "craft 1 cider", "craft.missing_station"),  # holding does not count
    (_press_elsewhere, "craft 1 cider", "craft.missing_station"),
    (_press_in_a_crate, "craft 1 cider", "craft.missing_station"),
    (_press_in_hand, "craft 1 unicorn", "craft.unknown_object"),
    (_nothing, "craft 1 key", "craft.missing_ingredients"),  # 1 of 2 cider
    (_nothing, "craft 1 pruner", "craft.missing_ingredients"),  # 1 of 2 pear
    (_nothing, "craft 1 press", "craft.missing_ingredients"),
    (_nothing, "craft 1 apron", "craft.missing_ingredients"),
    (_pears_on_the_ground, "craft 1 apron", "craft.missing_ingredients"),
    (_pears_in_a_crate_on_the_ground, "craft 1 apron", "craft.missing_ingredients"),
    (_press_elsewhere, "craft 1 key", "craft.missing_station"),  # stations before ingredients
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("setup", "command", "key"), FAILURES)
def test_soft_failures_change_nothing(mode: str, setup: Any, command: str, key: str) -> None:
    game = stage(mode)
    give(game, "agent_0", "obj_pear", 1)
    equip_inventory(game, {"obj_cider": 1})
    n = game.world.writable_count["obj_label"]
    setup(game)
    check_refused(game, command.format(n=n), key)


def test_failure_feedback_names_what_is_missing() -> None:
    game = stage()
    give(game, "agent_0", "obj_pear", 1)
    res = act(game, "agent_0", "craft 1 pruner")
    assert res.feedback_text("agent_0") == (
        "I cannot craft pruner: not enough for one; short of cider (need 1, have 0), "
        "pear (need 2, have 1)."
    )
    _press_elsewhere(game)
    res = act(game, "agent_0", "craft 1 cider")
    assert (
        res.feedback_text("agent_0") == "I cannot craft cider: it needs press here on the ground."
    )


def test_credit_alone_can_pay_in_exact_mode_only() -> None:
    for mode, ok in (("exact", True), ("reference", False)):
        game = stage(mode)
        agent(game).craft_credit["obj_pear"] = 0.5
        res = act(game, "agent_0", "craft 1 cider")
        assert res.action_ok["agent_0"] is ok, mode


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_craftables_up_to_possible() -> None:
    """Reference defects (docs/mechanics/verbs.md#quirk-valid-action-lists-are-exact): stations and
    held containers were ignored."""
    game = stage()
    give(game, "agent_0", "obj_cider", 1)
    hold_crate(game, {"obj_pear": 3})  # held containers are ingredient sources
    # Candidates in order: products of cider (key, crate, pruner), then of pear (press, cider,
    # label, pruner, apron). Only pruner (1), cider (6) and label (3) are possible.
    expected = [("1", "pruner"), *((str(n), "cider") for n in range(1, 7))]
    expected += [(str(n), "label") for n in range(1, 4)]
    assert valid_params(game, "craft") == expected
    assert valid_params(game, "craft", all_amounts=False) == [
        ("1", "pruner"),
        ("1", "cider"),
        ("1", "label"),
    ]


def test_valid_params_needs_the_stations_on_the_ground() -> None:
    game = stage(press=False)
    give(game, "agent_0", "obj_press")
    equip_inventory(game, {"obj_pear": 4, "obj_cider": 3})
    assert valid_params(game, "craft") == [
        ("1", "label"),
        ("2", "label"),
        ("3", "label"),
        ("4", "label"),
        ("1", "apron"),
    ]


@pytest.mark.parametrize(("mode", "expected"), [("exact", [("1", "cider")]), ("reference", [])])
def test_valid_params_counts_credit_only_in_exact_mode(mode: str, expected: list) -> None:
    game = stage(mode)
    agent(game).craft_credit["obj_pear"] = 0.5
    assert valid_params(game, "craft") == expected


def test_valid_params_is_empty_when_carrying_nothing() -> None:
    game = stage()
    put_on_ground(game, GATE, "obj_pear", 20)
    assert valid_params(game, "craft") == []


# ----------------------------------------------------------------------------- exactness property
CARRIED = ["obj_pear", "obj_pear", "obj_cider", "obj_cider", "obj_press", "obj_crate", "obj_label"]


def random_stage(game: Any, seed: int) -> Any:
    """A random crafting situation on a reused game (the same for the same seed)."""
    rng = restage(game, seed)
    here = rng.choice([GATE, GATE, ROWS])
    move_to(game, "agent_0", here)
    if rng.random() < 0.7:
        put_on_ground(game, here, "obj_press")
    for _ in range(rng.randint(0, 2)):
        [oid] = give(game, "agent_0", rng.choice(CARRIED))
        if oid in game.world.containers:
            fill(game, oid, {"obj_pear": rng.randint(0, 6), "obj_cider": rng.randint(0, 4)})
    if rng.random() < 0.7:
        equip_inventory(game, {"obj_pear": rng.randint(0, 9), "obj_cider": rng.randint(0, 5)})
    if rng.random() < 0.4:
        agent(game).craft_credit["obj_pear"] = 0.5
    put_on_ground(game, here, "obj_pear", rng.randint(0, 3))
    agent(game).tutorial_passed = rng.random() < 0.8
    return game


def candidates(game: Any, rng: random.Random, k: int) -> list[tuple[str, ...]]:
    """Amounts 0..4 and a non-number; mostly definition names, sometimes any name in the world."""
    kinds = [o.name for o in game.world.objects.values()]
    names = [*game.world.obj_name_to_id, "inventory", "gate", "wasp_0"]
    return [
        (rng.choice(AMOUNTS), rng.choice(kinds if rng.random() < 0.7 else names)) for _ in range(k)
    ]


@pytest.mark.parametrize("mode", MODES)
def test_valid_params_agree_exactly_with_apply(mode: str) -> None:
    """Every listed tuple succeeds with exactly its amount; any other fails, except an amount above
    what is possible, which `craft` clamps: it must then craft a listed amount - or an
    instance name, which crafts its definition."""
    game = make_game(fractional_crafting=mode)
    checked, listed_total = check_valid_params_sampled(
        "craft",
        lambda seed: random_stage(game, seed),
        range(150),
        candidates,
        tries=10,
        clamp_keys=frozenset({"craft.only_enough"}),
        near_share=0.3,
        by_definition=True,
    )
    assert checked > 1500 and listed_total > 1000


def test_exact_mode_consumes_exactly_the_recipe_over_random_crafts() -> None:
    """Over any sequence of cider crafts, pears used = 0.5 x cider made, up to the credit held."""
    for seed in range(40):
        rng = random.Random(seed)
        game = stage("exact")
        start = rng.randint(1, 12)
        equip_inventory(game, {"obj_pear": start})
        for _ in range(rng.randint(1, 8)):
            act(game, "agent_0", f"craft {rng.randint(1, 4)} cider")
        left = game.world.containers[agent(game).inventory_id].items.get("obj_pear", 0)
        credit = agent(game).craft_credit.get("obj_pear", 0.0)
        made = ground(game).get("obj_cider", 0)
        assert start - left - credit == pytest.approx(0.5 * made), seed


def test_definitions_are_not_changed_by_crafting() -> None:
    game = stage()
    equip_inventory(game, {"obj_pear": 4})
    before = attrs.asdict(game.world.objects["obj_cider"])
    act(game, "agent_0", "craft 3 cider")
    assert attrs.asdict(game.world.objects["obj_cider"]) == before


def test_an_instance_name_crafts_its_definition() -> None:
    """The product is the definition of the resolved id."""
    game = stage("exact")
    equip_inventory(game, {"obj_pear": 2})
    label = give(game, "agent_0", "obj_label")[0]
    name = game.world.writables[label].name
    res = act(game, "agent_0", f"craft 1 {name}")
    assert res.action_ok["agent_0"], res.feedback
    assert res.events[-1].data["obj_id"] == "obj_label"
