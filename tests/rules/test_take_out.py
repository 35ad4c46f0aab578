"""`take out <object> <container>` (spec actions.md section 9).

The stage is the tiny world with every ground cleared; agent_0 stands at the gate. Containers are
crate instances called `inventory` when equipped as such, or by instance name.
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
def stage() -> Any:
    game = make_game()
    clear_world(game)
    return game


def fill(game: Any, cid: str, contents: dict[str, int]) -> list[str]:
    """Put contents in a container (writable definitions as instances); returns the ids put."""
    world, put = game.world, []
    for def_id, n in contents.items():
        if world.objects[def_id].is_instanced:
            for _ in range(n):
                put.append(world.new_instance(def_id))
                world.containers[cid].items[put[-1]] = 1
        else:
            world.containers[cid].items[def_id] = n
            put.append(def_id)
    return put


def equip_inventory(game: Any, contents: dict[str, int]) -> str:
    cid = game.world.new_instance("obj_crate")
    body = agent(game)
    body.equipped[cid] = 1
    body.inventory_id = cid
    fill(game, cid, contents)
    return cid


def crate_on_ground(game: Any, area: str, contents: dict[str, int]) -> str:
    [cid] = put_on_ground(game, area, "obj_crate")
    fill(game, cid, contents)
    return cid


def hold_crate(game: Any, contents: dict[str, int]) -> str:
    [cid] = give(game, "agent_0", "obj_crate")
    fill(game, cid, contents)
    return cid


def name(game: Any, oid: str) -> str:
    return game.world.name_of(oid)


def act_tracked(game: Any, command: str) -> RuleResult:
    res = RuleResult(game.agent_ids, tracking=True)
    parsed = game.engine.parse(command)
    ctx = RuleContext(game, game.world, agent(game), parsed.verb, parsed.params, 0)
    game.engine.dispatch(ctx, res)
    return res


def valid(game: Any) -> list[tuple[str, ...]]:
    ctx = RuleContext(game, game.world, agent(game), "take_out", (), game.tick_index)
    return game.engine.rules["take_out"].valid_params(ctx)


def events(res: RuleResult) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in res.events]


# ----------------------------------------------------------------------------- success paths
def test_take_one_unit_out_of_the_inventory() -> None:
    game = stage()
    inv = equip_inventory(game, {"obj_coin": 7, "obj_key": 1})
    res = act_tracked(game, "take out coin inventory")
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
    game = stage()
    inv = equip_inventory(game, {"obj_key": 1})
    give(game, "agent_0", "obj_key")
    res = act(game, "agent_0", "take out key inventory")
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert game.world.containers[inv].items == {}
    assert agent(game).hands == {"obj_key": 2}


@pytest.mark.parametrize("where", ["ground", "held", "equipped_by_name"])
def test_named_containers_in_reach(where: str) -> None:
    """Taking out of a held container works with the other hand free; `from` is the typed name."""
    game = stage()
    make = {
        "ground": lambda: crate_on_ground(game, GATE, {"obj_pear": 2}),
        "held": lambda: hold_crate(game, {"obj_pear": 2}),
        "equipped_by_name": lambda: equip_inventory(game, {"obj_pear": 2}),
    }[where]
    cid = make()
    res = act(game, "agent_0", f"take out pear {name(game, cid)}")
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert game.world.containers[cid].items == {"obj_pear": 1}
    assert agent(game).hands.get("obj_pear") == 1
    assert events(res) == [
        (
            "object_taken_out",
            {"obj_id": "obj_pear", "from": name(game, cid), "amount": 1, "area_id": GATE},
        )
    ]


def test_a_writable_instance_is_taken_out_as_itself() -> None:
    game = stage()
    inv = equip_inventory(game, {})
    [label] = fill(game, inv, {"obj_label": 1})
    res = act(game, "agent_0", f"take out {name(game, label)} inventory")
    assert res.feedback_keys("agent_0") == ["take_out.done"]
    assert agent(game).hands == {label: 1}
    assert game.world.containers[inv].items == {}


# ----------------------------------------------------------------------------- soft failures
def _base(game: Any) -> dict[str, str]:
    """Inventory: 2 pear and a label instance; a quill in hand; a crate with 1 cider on the
    ground; a crate with 1 key in the rows."""
    inv = equip_inventory(game, {"obj_pear": 2})
    [label] = fill(game, inv, {"obj_label": 1})
    give(game, "agent_0", "obj_quill")
    ground = crate_on_ground(game, GATE, {"obj_cider": 1})
    far = crate_on_ground(game, ROWS, {"obj_key": 1})
    return {
        "inv": name(game, inv),
        "inv_id": inv,
        "ground": name(game, ground),
        "far": name(game, far),
        "label": name(game, label),
    }


def _nothing(game: Any, ids: dict[str, str]) -> None:
    pass


def _unequip(game: Any, ids: dict[str, str]) -> None:
    body = agent(game)
    del body.equipped[ids["inv_id"]]
    body.inventory_id = None


def _hands_full(game: Any, ids: dict[str, str]) -> None:
    give(game, "agent_0", "obj_coin")


FAILURES = [
    (_nothing, "take out unicorn inventory", "take_out.unknown_object"),
    (_nothing, "take out Pear inventory", "take_out.unknown_object"),
    (_hands_full, "take out unicorn inventory", "take_out.unknown_object"),  # name first
    (_hands_full, "take out pear inventory", "take_out.hands_full"),
    (_hands_full, "take out pear nowhere", "take_out.hands_full"),  # hands before container
    (_unequip, "take out pear inventory", "take_out.no_inventory"),
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


def test_two_coins_fill_both_hands() -> None:
    """Hands hold two units, not two kinds (spec 0.1)."""
    game = stage()
    equip_inventory(game, {"obj_coin": 5})
    assert act(game, "agent_0", "take out coin inventory").action_ok["agent_0"]
    assert act(game, "agent_0", "take out coin inventory").action_ok["agent_0"]
    res = act(game, "agent_0", "take out coin inventory")
    assert res.feedback_keys("agent_0") == ["take_out.hands_full"]
    assert agent(game).hands == {"obj_coin": 2}


@pytest.mark.parametrize("command", ["take out pear", "take out pear inventory now", "take out"])
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
def test_valid_params_one_entry_per_distinct_item_of_containers_in_reach() -> None:
    """Reference defects (observations-and-loop 10): every container in the world was listed, once
    per unit, and instances inside containers never were."""
    game = stage()
    inv = equip_inventory(game, {"obj_pear": 2})
    [label] = fill(game, inv, {"obj_label": 1})
    held = hold_crate(game, {"obj_coin": 3})
    ground = crate_on_ground(game, GATE, {"obj_key": 1})
    crate_on_ground(game, ROWS, {"obj_cider": 1})
    lab = name(game, label)
    assert valid(game) == [
        ("pear", "inventory"),
        (lab, "inventory"),
        ("coin", name(game, held)),
        ("pear", name(game, inv)),
        (lab, name(game, inv)),
        ("key", name(game, ground)),
    ]


def test_valid_params_is_empty_with_full_hands() -> None:
    game = stage()
    inv = equip_inventory(game, {"obj_pear": 2})
    give(game, "agent_0", "obj_coin", 2)
    assert valid(game) == []
    act(game, "agent_0", "drop coin")
    assert valid(game) == [("pear", "inventory"), ("pear", name(game, inv))]


# ----------------------------------------------------------------------------- exactness property
STORABLE = ["obj_coin", "obj_pear", "obj_cider", "obj_key", "obj_pruner", "obj_apron", "obj_label"]
_GAME: list[Any] = []


def random_contents(rng: random.Random) -> dict[str, int]:
    return {d: rng.randint(1, 4) for d in rng.sample(STORABLE, rng.randint(0, 4))}


def random_stage(seed: int) -> Any:
    """A random situation with containers held, equipped, here and elsewhere (same per seed)."""
    if not _GAME:
        _GAME.append(make_game())
    game = _GAME[0]
    game.reset(0)
    clear_world(game)
    rng = random.Random(seed)
    here = rng.choice([GATE, ROWS])
    move_to(game, "agent_0", here)
    for _ in range(rng.choice([0, 1, 1, 2])):
        [oid] = give(game, "agent_0", rng.choice(["obj_crate", "obj_pear", "obj_label"]))
        if oid in game.world.containers:
            fill(game, oid, random_contents(rng))
    for _ in range(rng.randint(0, 2)):
        crate_on_ground(game, here, random_contents(rng))
    if rng.random() < 0.6:
        equip_inventory(game, random_contents(rng))
    put_on_ground(game, here, rng.choice(STORABLE), 2)
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
    """Plausible commands: mostly names in reach, sometimes any name in the world."""
    world, near = game.world, near_names(game)
    everything = [
        *world.obj_name_to_id,
        *(a.name for a in world.areas.values()),
        *world.npc_name_to_id,
    ]
    return [(pick(rng, near, everything), pick(rng, near, everything)) for _ in range(k)]


def test_valid_params_agree_exactly_with_apply() -> None:
    """Every listed pair succeeds; every other pair fails (no amount, so no clamping)."""
    checked = listed_total = 0
    for seed in range(200):
        listed = valid(random_stage(seed))
        listed_total += len(listed)
        assert len(set(listed)) == len(listed)
        rng = random.Random(1000 + seed)
        for params in [*listed, *candidates(random_stage(seed), rng, 8)]:
            game = random_stage(seed)
            res = act(game, "agent_0", ("take_out", params))
            assert not res.invalid["agent_0"]
            assert res.action_ok["agent_0"] == (params in listed), (seed, params, res.feedback)
            checked += 1
    assert checked > 2000 and listed_total > 300
