"""`store <amount> <object> <container>` (spec actions.md section 7).

The stage is the tiny world with every ground cleared; agent_0 stands at the gate. Sizes: coin 0,
pear / cider / key / label / quill 1, apron 2, pruner 3, press null; a crate is a container of
size 2 and capacity 15. "Named" containers are crate instances called by their instance name.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import act, agent, clear_world, give, make_game, move_to, put_on_ground, state_of

from agentodyssey_pz.rules.base import RuleResult
from agentodyssey_pz.rules.context import RuleContext

GATE, ROWS, VATS = "area_gate", "area_rows", "area_vats"


# ----------------------------------------------------------------------------- staging helpers
def stage(game: Any = None) -> Any:
    game = game or make_game()
    clear_world(game)
    return game


def fill(game: Any, cid: str, contents: dict[str, int]) -> None:
    """Put contents in a container; writable definitions become that many instances."""
    world = game.world
    for def_id, n in contents.items():
        if world.objects[def_id].is_instanced:
            for _ in range(n):
                world.containers[cid].items[world.new_instance(def_id)] = 1
        else:
            world.containers[cid].items[def_id] = n


def equip_inventory(game: Any, contents: dict[str, int], agent_id: str = "agent_0") -> str:
    cid = game.world.new_instance("obj_crate")
    body = game.agents[agent_id]
    body.equipped[cid] = 1
    body.inventory_id = cid
    fill(game, cid, contents)
    return cid


def crate_on_ground(game: Any, area: str, contents: dict[str, int]) -> str:
    [cid] = put_on_ground(game, area, "obj_crate")
    fill(game, cid, contents)
    return cid


def hold_crate(game: Any, contents: dict[str, int], agent_id: str = "agent_0") -> str:
    [cid] = give(game, agent_id, "obj_crate")
    fill(game, cid, contents)
    return cid


def name(game: Any, oid: str) -> str:
    return game.world.name_of(oid)


def act_tracked(game: Any, command: str, agent_id: str = "agent_0") -> RuleResult:
    """Like harness.act, with dependency tracking switched on."""
    res = RuleResult(game.agent_ids, tracking=True)
    parsed = game.engine.parse(command)
    ctx = RuleContext(game, game.world, game.agents[agent_id], parsed.verb, parsed.params, 0)
    game.engine.dispatch(ctx, res)
    return res


def valid(game: Any, all_amounts: bool = True) -> list[tuple[str, ...]]:
    ctx = RuleContext(game, game.world, agent(game), "store", (), game.tick_index)
    return game.engine.rules["store"].valid_params(ctx, all_amounts=all_amounts)


def events(res: RuleResult) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in res.events]


def loc(kind: str, ident: str) -> dict[str, str]:
    return {"kind": kind, "id": ident}


# ----------------------------------------------------------------------------- success paths
def test_hands_are_emptied_first_then_the_ground() -> None:
    game = stage()
    inv = equip_inventory(game, {})
    give(game, "agent_0", "obj_pear", 1)
    put_on_ground(game, GATE, "obj_pear", 3)
    res = act_tracked(game, "store 3 pear inventory")
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
    game = stage()
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


@pytest.mark.parametrize("where", ["ground", "held", "equipped_by_name"])
def test_named_containers_in_reach(where: str) -> None:
    """The event's `container` is the name as typed (spec rule-framework 11)."""
    game = stage()
    make = {
        "ground": lambda: crate_on_ground(game, GATE, {"obj_key": 1}),
        "held": lambda: hold_crate(game, {"obj_key": 1}),
        "equipped_by_name": lambda: equip_inventory(game, {"obj_key": 1}),
    }[where]
    cid = make()
    put_on_ground(game, GATE, "obj_pear", 2)
    res = act_tracked(game, f"store 2 pear {name(game, cid)}")
    assert res.feedback_keys("agent_0") == ["store.done"]
    assert game.world.containers[cid].items == {"obj_key": 1, "obj_pear": 2}
    assert events(res)[-1] == (
        "object_stored",
        {"obj_id": "obj_pear", "container": name(game, cid), "amount": 2, "area_id": GATE},
    )
    assert events(res)[0][1]["dst"] == loc("container", cid)


def test_a_writable_instance_is_stored_as_itself() -> None:
    game = stage()
    inv = equip_inventory(game, {})
    [label] = give(game, "agent_0", "obj_label")
    game.world.writables[label].text = "pears"
    res = act(game, "agent_0", f"store 1 {name(game, label)} inventory")
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
    # Quirk 4 (spec 0.2): a writable instance inside weighs its definition's size everywhere.
    ({"obj_pear": 13, "obj_label": 1}, "obj_pear", 3, 2, 1, ["store.only_space", "store.done"]),
    ({"obj_label": 14}, "obj_key", 2, 2, 1, ["store.only_space", "store.done"]),
]


@pytest.mark.parametrize("dest", ["inventory", "named"])
@pytest.mark.parametrize(("contents", "obj", "ground", "requested", "stored", "keys"), SPACE)
def test_amount_shrinks_to_space_then_to_what_is_found(
    dest: str, contents: dict, obj: str, ground: int, requested: int, stored: int, keys: list
) -> None:
    """One load formula for the inventory and named containers (quirk 4 fixed)."""
    game = stage()
    if dest == "inventory":
        cid, cname = equip_inventory(game, contents), "inventory"
    else:
        cid = crate_on_ground(game, GATE, contents)
        cname = name(game, cid)
    before = dict(game.world.containers[cid].items)
    put_on_ground(game, GATE, obj, ground)
    res = act(game, "agent_0", f"store {requested} {name(game, obj)} {cname}")
    assert res.feedback_keys("agent_0") == keys
    assert res.action_ok["agent_0"]
    assert game.world.containers[cid].items.get(obj, 0) - before.get(obj, 0) == stored
    assert game.world.areas[GATE].objects.get(obj, 0) == ground - stored
    assert res.events[-1].data["amount"] == stored


def test_clamp_feedback_names_the_numbers() -> None:
    game = stage()
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
    the rows."""
    inv = equip_inventory(game, {"obj_cider": 2})
    give(game, "agent_0", "obj_pear", 1)
    ground = crate_on_ground(game, GATE, {})
    far = crate_on_ground(game, ROWS, {})
    for def_id, n in (("obj_pear", 2), ("obj_press", 1), ("obj_coin", 3), ("obj_apron", 1)):
        put_on_ground(game, GATE, def_id, n)
    [label] = put_on_ground(game, GATE, "obj_label")
    put_on_ground(game, ROWS, "obj_key")
    return {
        "inv": name(game, inv),
        "ground": name(game, ground),
        "far": name(game, far),
        "label": name(game, label),
        "ground_id": ground,
        "inv_id": inv,
    }


def _nothing(game: Any, ids: dict[str, str]) -> None:
    pass


def _unequip(game: Any, ids: dict[str, str]) -> None:
    body = agent(game)
    del body.equipped[ids["inv_id"]]
    body.inventory_id = None


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
    (_nothing, "store \u0661 pear inventory", "store.bad_amount"),  # Arabic-Indic one (spec 7.4)
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
    game = stage()
    ids = _base(game)
    setup(game, ids)
    before = state_of(game)
    res = act(game, "agent_0", command.format(**ids))
    assert res.feedback_keys("agent_0") == [key]
    assert res.action_ok["agent_0"] is False
    assert res.invalid["agent_0"] is False
    assert res.events == []
    assert state_of(game) == before


def test_the_base_stage_itself_allows_storing() -> None:
    """The counterpart of the failure table: the same stage accepts the nearby commands."""
    game = stage()
    ids = _base(game)
    for command in ("store 3 pear inventory", "store 3 coin {ground}", "store 1 {label} {inv}"):
        assert act(game, "agent_0", command.format(**ids)).action_ok["agent_0"], command


@pytest.mark.parametrize("command", ["store 1 pear", "store 1 pear inventory now", "store"])
def test_wrong_parameter_count_is_invalid(command: str) -> None:
    game = stage()
    _base(game)
    before = state_of(game)
    res = act(game, "agent_0", command)
    assert res.invalid["agent_0"] is True
    assert res.action_ok["agent_0"] is False
    assert res.feedback_keys("agent_0") == ["invalid.param_count"]
    assert state_of(game) == before


# ----------------------------------------------------------------------------- valid_params
def test_valid_params_lists_storables_once_per_destination_up_to_found_and_space() -> None:
    game = stage()
    inv = equip_inventory(game, {})
    give(game, "agent_0", "obj_pear", 1)
    [label] = give(game, "agent_0", "obj_label")
    put_on_ground(game, GATE, "obj_pear", 2)  # pear: in hand and on the ground, listed once
    put_on_ground(game, GATE, "obj_coin", 3)
    put_on_ground(game, GATE, "obj_press", 1)  # size null: never listed
    ground = crate_on_ground(game, GATE, {"obj_pruner": 4, "obj_pear": 2})  # 1 free
    crate_on_ground(game, ROWS, {})  # out of reach: never listed
    dests = ["inventory", name(game, inv), name(game, ground)]
    expected = []
    for obj, limits in (("pear", (3, 3, 1)), (name(game, label), (1, 1, 1)), ("coin", (3, 3, 3))):
        for cname, limit in zip(dests, limits, strict=True):
            expected += [(str(n), obj, cname) for n in range(1, limit + 1)]
    assert valid(game) == expected
    assert valid(game, all_amounts=False) == [t for t in expected if t[0] == "1"]


def test_valid_params_without_an_inventory_lists_only_named_containers() -> None:
    """Reference defect (observations-and-loop 10): `inventory` was listed with none equipped."""
    game = stage()
    put_on_ground(game, GATE, "obj_key", 2)
    assert valid(game) == []  # no destination at all
    held = hold_crate(game, {"obj_pruner": 5})  # full: only size-0 things would fit
    assert valid(game) == []
    put_on_ground(game, GATE, "obj_coin", 1)
    assert valid(game) == [("1", "coin", name(game, held))]


def test_valid_params_never_offers_containers_or_stations() -> None:
    """Reference defect: containers (into themselves or others) and size-null items were listed."""
    game = stage()
    equip_inventory(game, {})
    hold_crate(game, {})
    crate_on_ground(game, GATE, {})
    put_on_ground(game, GATE, "obj_press", 2)
    assert valid(game) == []


# ----------------------------------------------------------------------------- exactness property
STORABLE = ["obj_coin", "obj_pear", "obj_cider", "obj_key", "obj_pruner", "obj_apron", "obj_label"]
ANYTHING = [*STORABLE, "obj_press", "obj_crate", "obj_quill"]
CLAMP_KEYS = {"store.only_found", "store.only_space"}
_GAME: list[Any] = []


def random_contents(rng: random.Random) -> dict[str, int]:
    return {d: rng.randint(1, 4) for d in rng.sample(STORABLE, rng.randint(0, 4))}


def random_stage(seed: int) -> Any:
    """A random storing situation, rebuilt identically for the same seed (one game, reset)."""
    if not _GAME:
        _GAME.append(make_game())
    game = _GAME[0]
    game.reset(0)
    clear_world(game)
    rng = random.Random(seed)
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


def near_names(game: Any) -> list[str]:
    """Names of everything in reach (and inside), and of the crate in the vats and its contents."""
    world, body = game.world, agent(game)
    ids = [
        *body.hands,
        *body.equipped,
        *world.areas[body.area_id].objects,
        *world.areas[VATS].objects,
    ]
    for cid in list(ids):
        if cid in world.containers:
            ids += world.containers[cid].items
    return [world.name_of(oid) for oid in dict.fromkeys(ids)] + ["inventory"]


def pick(rng: random.Random, near: list[str], everything: list[str]) -> str:
    return rng.choice(near if rng.random() < 0.7 else everything)


def candidates(game: Any, rng: random.Random, k: int) -> list[tuple[str, ...]]:
    """Plausible commands: mostly names in reach, sometimes any name in the world (NPCs and areas
    included), amounts 0..4 and a non-number."""
    world, near = game.world, near_names(game)
    everything = [
        *world.obj_name_to_id,
        *(a.name for a in world.areas.values()),
        *world.npc_name_to_id,
    ]
    amounts = ["0", "1", "2", "3", "4", "x"]
    return [
        (rng.choice(amounts), pick(rng, near, everything), pick(rng, near, everything))
        for _ in range(k)
    ]


def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed tuple succeeds with exactly its amount; any other tuple fails, except an amount
    above the limit, which the spec clamps (7.8-10): it must then store a listed amount."""
    checked = listed_total = 0
    for seed in range(200):
        listed = valid(random_stage(seed))
        listed_total += len(listed)
        assert valid(random_stage(seed), all_amounts=False) == [t for t in listed if t[0] == "1"]
        rng = random.Random(1000 + seed)
        near = [(str(int(t[0]) + 1), *t[1:]) for t in listed if rng.random() < 0.2]
        for params in [*listed, *near, *candidates(random_stage(seed), rng, 8)]:
            game = random_stage(seed)
            res = act(game, "agent_0", ("store", params))
            ok = res.action_ok["agent_0"]
            assert not res.invalid["agent_0"]
            if params in listed:
                assert ok, (seed, params, res.feedback)
                assert res.events[-1].data["amount"] == int(params[0])
            elif ok:
                assert CLAMP_KEYS & set(res.feedback_keys("agent_0")), (seed, params)
                stored = (str(res.events[-1].data["amount"]), params[1], params[2])
                assert stored in listed, (seed, params, stored)
            else:
                assert res.events == [] and len(res.feedback_keys("agent_0")) == 1
            checked += 1
    assert checked > 2000 and listed_total > 1000
