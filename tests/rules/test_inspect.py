"""`inspect <object>`: the inventory, a container within reach, or any object within reach.

docs/mechanics/verbs.md#inspect with our fixes
(docs/mechanics/verbs.md#quirk-held-containers-are-in-reach: held containers count for presence,
recipes looked up by definition id; docs/mechanics/verbs.md#quirk-one-load-formula). Valid actions
per docs/mechanics/verbs.md#valid-actions-per-verb (instances by instance name, each item once).
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
    crate_in_reach,
    equip_inventory,
    give,
    loc,
    main_events,
    move_to,
    put_on_ground,
    restage,
    state_of,
)

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.agents import add_count
from agentodyssey_pz.world.schema import CraftRecipe, ObjectDef

HERE = "area_gate"
ELSEWHERE = "area_rows"
PEAR_USES = (
    "Ingredient of: press (made of pear), cider (made of pear), label (made of pear), "
    "pruner (made of cider, pear), apron (made of pear)."
)


@pytest.fixture
def game() -> Game:
    return blank_game(tracking=True)  # tracking events on: inspect reports what it used


def utilized(res: Any) -> list[tuple[str, dict]]:
    return [(e.data["obj_id"], e.data["src"]) for e in res.events if e.type == "track.utilize"]


# ------------------------------------------------------------------ inventory
def test_inventory_lists_contents_and_load(game: Game) -> None:
    """Load counts writable instances by their definition size (quirk "one load formula":
    the reference's inventory load weighs the label at 0, giving 3/15)."""
    label = game.world.new_instance("obj_label")
    cid = equip_inventory(game, {"obj_pear": 3, label: 1, "obj_coin": 5})
    before = state_of(game)
    res = act(game, "agent_0", "inspect inventory")
    crate, label_name = game.world.containers[cid].name, game.world.name_of(label)
    assert res.action_ok["agent_0"]
    assert res.feedback["agent_0"] == [
        (
            "inspect.inventory",
            f"My inventory ({crate}) holds 3 pear, 1 {label_name}, 5 coin; load 4/15.",
        )
    ]
    assert main_events(res) == [("inventory_inspected", {"area_id": HERE})]
    assert utilized(res) == [(cid, loc("equip", "agent_0"))]
    assert state_of(game) == before


def test_empty_inventory(game: Game) -> None:
    equip_inventory(game)
    res = act(game, "agent_0", "inspect inventory")
    assert res.feedback["agent_0"][0][1].endswith("holds no objects; load 0/15.")


# ------------------------------------------------------------------ containers
@pytest.mark.parametrize(
    ("where", "src_kind"), [("ground", "area"), ("held", "hand"), ("equipped", "equip")]
)
def test_container_within_reach(game: Game, where: str, src_kind: str) -> None:
    cid = crate_in_reach(game, where, {"obj_pear": 2, "obj_press": 1, "obj_pruner": 1})
    name = game.world.containers[cid].name
    res = act(game, "agent_0", ("inspect", [name]))
    # The press has no size (counts 0); pruner size 3 -> load 2 + 3.
    assert res.feedback["agent_0"] == [
        ("inspect.container", f"{name}: It holds 2 pear, 1 press, 1 pruner; load 5/15.")
    ]
    assert main_events(res) == [("container_inspected", {"obj_id": cid, "area_id": HERE})]
    src = HERE if src_kind == "area" else "agent_0"
    assert utilized(res) == [(cid, loc(src_kind, src))]


# ------------------------------------------------------------------ objects
@pytest.mark.parametrize(
    ("where", "src"),
    [
        ("hand", ("hand", "agent_0")),
        ("ground", ("area", HERE)),
        ("inventory", ("container", "INV")),
        ("held container", ("container", "HELD")),  # held containers are in reach
    ],
)
def test_object_within_reach(game: Game, where: str, src: tuple[str, str]) -> None:
    ids = {"INV": equip_inventory(game)}
    ids["HELD"] = give(game, "agent_0", "obj_crate")[0]
    store = {
        "hand": agent(game).hands,
        "ground": game.world.areas[HERE].objects,
        "inventory": game.world.containers[ids["INV"]].items,
        "held container": game.world.containers[ids["HELD"]].items,
    }[where]
    add_count(store, "obj_pear", 2)
    before = state_of(game)
    res = act(game, "agent_0", "inspect pear")
    assert res.action_ok["agent_0"]
    assert res.feedback["agent_0"] == [
        ("inspect.object", "pear: nothing remarkable about it."),
        ("inspect.uses", PEAR_USES),
        ("inspect.blank", "Nothing is written on it."),
    ]
    assert main_events(res) == [("object_inspected", {"obj_id": "obj_pear", "area_id": HERE})]
    assert utilized(res) == [("obj_pear", loc(src[0], ids.get(src[1], src[1])))]
    assert state_of(game) == before


def test_equipped_armour_and_description(game: Game) -> None:
    agent(game).equipped["obj_apron"] = 1
    res = act(game, "agent_0", "inspect apron")
    assert res.feedback_keys("agent_0") == ["inspect.object", "inspect.uses", "inspect.blank"]
    assert res.feedback["agent_0"][1] == ("inspect.uses", "Ingredient of: None.")
    assert utilized(res) == [("obj_apron", loc("equip", "agent_0"))]


def test_coin_description(game: Game) -> None:
    give(game, "agent_0", "obj_coin")
    res = act(game, "agent_0", "inspect coin")
    assert res.feedback["agent_0"][0] == ("inspect.object", "coin: A bent copper bit.")


def add_ledger(game: Game) -> None:
    """A product made of labels, so labels have a use."""
    game.world.add_object_def(
        ObjectDef(
            id="obj_ledger",
            name="ledger",
            category="tool",
            usage="read",
            size=1,
            text="Debts: none.",
            craft=CraftRecipe({"obj_label": 2, "obj_quill": 1}),
        )
    )


def test_quirk_18_7_writable_instance_shows_uses_and_text(game: Game) -> None:
    """Quirk "held containers are in reach": the reference looks recipes up by the instance id, so a
    writable instance always shows "None"; looked up by its definition id it shows the ledger."""
    add_ledger(game)
    label = give(game, "agent_0", "obj_label")[0]
    game.world.writables[label].text = "pears: 12"
    res = act(game, "agent_0", ("inspect", [game.world.name_of(label)]))
    assert res.feedback["agent_0"][1:] == [
        ("inspect.uses", "Ingredient of: ledger (made of label, quill)."),
        ("inspect.text", 'Written on it: "pears: 12"'),
    ]
    assert main_events(res) == [("object_inspected", {"obj_id": label, "area_id": HERE})]


def test_definition_text_is_shown(game: Game) -> None:
    add_ledger(game)
    game.world.areas[HERE].add_objects("obj_ledger", 1)
    res = act(game, "agent_0", "inspect ledger")
    assert res.feedback["agent_0"][-1] == ("inspect.text", 'Written on it: "Debts: none."')


def test_quirk_18_7_held_container_contents_are_within_reach(game: Game) -> None:
    """Quirk "held containers are in reach": the reference cannot inspect what lies in a container
    held in hand."""
    crate = give(game, "agent_0", "obj_crate")[0]
    game.world.containers[crate].items["obj_key"] = 1
    assert act(game, "agent_0", "inspect key").action_ok["agent_0"]


# ------------------------------------------------------------------ failures
def _crate_elsewhere(g: Game) -> str:
    return g.world.name_of(put_on_ground(g, ELSEWHERE, "obj_crate")[0])


def _crate_in_crate(g: Game) -> str:
    outer = give(g, "agent_0", "obj_crate")[0]
    inner = g.world.new_instance("obj_crate")
    g.world.containers[outer].items[inner] = 1
    return g.world.name_of(inner)


def _pear_elsewhere(g: Game) -> str:
    put_on_ground(g, ELSEWHERE, "obj_pear", 3)
    return "pear"


def _pear_in_crate_on_ground(g: Game) -> str:
    crate = put_on_ground(g, HERE, "obj_crate")[0]
    g.world.containers[crate].items["obj_pear"] = 1
    return "pear"


FAILURES = [
    ("no inventory", lambda g: "inventory", "inspect.no_inventory"),
    ("unknown", lambda g: "nothing", "inspect.not_here"),
    ("absent", lambda g: "pear", "inspect.not_here"),
    ("elsewhere", _pear_elsewhere, "inspect.not_here"),
    ("in a crate on the ground", _pear_in_crate_on_ground, "inspect.not_here"),
    ("crate elsewhere", _crate_elsewhere, "inspect.not_here"),
    ("crate inside a crate", _crate_in_crate, "inspect.not_here"),
]


@pytest.mark.parametrize(("case", "setup", "key"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failures_leave_state_untouched(game: Game, case: str, setup: Any, key: str) -> None:
    move_to(game, "agent_0", HERE)
    check_refused(game, ("inspect", [setup(game)]), key)


# ------------------------------------------------------------------ valid_params exactness
LOOSE = ["obj_coin", "obj_pear", "obj_press", "obj_cider", "obj_key", "obj_quill", "obj_pruner"]
ANY = [*LOOSE, "obj_apron", "obj_crate", "obj_label"]


def build_state(seed: int, g: Game) -> Game:
    """Random things on two grounds, in hand (up to 2 units), equipped, and inside containers."""
    rng = restage(g, seed)
    world, areas = g.world, list(g.world.areas)
    here = rng.choice(areas)
    move_to(g, "agent_0", here)
    a = agent(g)
    for area in (here, rng.choice(areas)):
        for _ in range(rng.randint(0, 4)):
            put_on_ground(g, area, rng.choice(ANY), rng.randint(1, 2))
    for _ in range(rng.randint(0, 2)):
        give(g, "agent_0", rng.choice(ANY))
    if rng.random() < 0.5:
        equip_inventory(g)
    if rng.random() < 0.3:
        a.equipped["obj_apron"] = 1
    for box in list(world.containers.values()):
        for _ in range(rng.randint(0, 3)):
            did = "obj_crate" if rng.random() < 0.1 else rng.choice([*LOOSE, "obj_label"])
            for oid, n in world.materialise(did, rng.randint(1, 2)):
                add_count(box.items, oid, n)
    return g


def object_names(g: Game) -> set[str]:
    return set(g.world.obj_name_to_id) | {"inventory", "nobody"}


@pytest.mark.parametrize("chunk", range(3))
def test_valid_params_exact(chunk: int) -> None:
    """Listed tuples succeed on a fresh copy of the state; every other object name (and
    `inventory`) fails and leaves the state untouched."""
    seeds = range(chunk * 60, chunk * 60 + 60)
    assert check_valid_params_exact("inspect", build_state, seeds, object_names) > 200


def test_entries_left_at_zero_units_are_not_listed(game: Game) -> None:
    """An entry a pack left at 0 units lists nothing; the same object with units further on in
    reach is listed once, where it has them."""
    move_to(game, "agent_0", HERE)
    a = agent(game)
    a.hands.update({"obj_pear": 0, "obj_coin": 1})
    put_on_ground(game, HERE, "obj_pear")
    ctx = RuleContext(game, game.world, a, "inspect", (), game.tick_index)
    names = [params[0] for params in game.engine.rules["inspect"].valid_params(ctx)]
    pear = game.world.name_of("obj_pear")
    assert names[0] == game.world.name_of("obj_coin")
    assert names.count(pear) == 1
    assert names.index(pear) == len(names) - 1  # the ground's own entry, the last store
