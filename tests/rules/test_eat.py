"""`eat <object>` (rules/scavenging/eat.py), played on the scrapyard test world.

Edible by usage `consume`, category `food` or a positive `hp_restore`; heals `hp_restore` (10 when
absent), clamped at the maximum; refused at full health wherever the object is; the unit comes
from hands, the worn inventory, held containers, then the ground, in that order.
"""

from __future__ import annotations

import random

import attrs
import pytest
from harness import act, agent, check_refused, give, main_events, put_on_ground, state_of
from scavenging_helper import GATE, HEAP, equip_sack, listed, pack_module, yard

from agentodyssey_pz.engine.game import Game


def hurt(game: Game, hp: int = 50) -> None:
    agent(game).hp = hp


@pytest.mark.parametrize(
    ("food", "hp", "gained"),
    [
        ("obj_apple", 50, 15),  # hp_restore 15
        ("obj_bread", 50, 10),  # food without hp_restore: the default 10
        ("obj_bandage", 50, 10),  # usage consume (a tool), no hp_restore
        ("obj_herb", 50, 5),  # a material edible only through its hp_restore
        ("obj_apple", 95, 5),  # clamped at max HP
        ("obj_apple", 99, 1),
    ],
)
def test_eating_heals_its_restore_up_to_max_hp(food: str, hp: int, gained: int) -> None:
    game = yard()
    game.tracker = True  # tracking events on (`harness.act`)
    hurt(game, hp)
    give(game, "agent_0", food)
    name = game.world.objects[food].name
    res = act(game, "agent_0", f"eat {name}")
    me = agent(game)
    assert res.action_ok["agent_0"] and me.hp == hp + gained <= me.max_hp
    assert me.hands == {}
    assert main_events(res) == [
        (
            "object_consumed",
            {"obj_id": food, "from": "hand", "hp_restored": gained, "area_id": GATE},
        )
    ]
    assert [(e.type, e.data["obj_id"]) for e in res.events if e.type.startswith("track")] == [
        ("track.consume", food)
    ]
    assert res.feedback_keys("agent_0") == ["eat.done"]


def test_sources_in_order_hands_inventory_held_containers_ground() -> None:
    game = yard()
    hurt(game, 10)
    give(game, "agent_0", "obj_apple")
    equip_sack(game, {"obj_apple": 1})
    [held] = give(game, "agent_0", "obj_sack")
    game.world.containers[held].items["obj_apple"] = 1
    put_on_ground(game, GATE, "obj_apple")
    put_on_ground(game, HEAP, "obj_apple")  # another area: out of reach
    sources = []
    for _ in range(4):
        res = act(game, "agent_0", "eat apple")
        sources.append(main_events(res)[0][1]["from"])
    assert sources == ["hand", "inventory", game.world.name_of(held), "ground"]
    assert agent(game).hp == 10 + 4 * 15
    assert game.world.areas[HEAP].objects == {"obj_apple": 1}
    check_refused(game, "eat apple", "eat.none")


@pytest.mark.parametrize(
    ("setup", "command", "key"),
    [
        ("stone", "eat stone", "eat.inedible"),
        ("none", "eat dragonfruit", "eat.unknown"),
        ("full", "eat apple", "eat.full_health"),  # refused at full HP with an apple in hand
        ("full-nowhere", "eat apple", "eat.full_health"),  # ... and with none anywhere
        ("full-stone", "eat stone", "eat.inedible"),  # edibility is checked first
        ("elsewhere", "eat apple", "eat.none"),
        ("sack", "eat sack", "eat.inedible"),
    ],
)
def test_refusals_change_nothing(setup: str, command: str, key: str) -> None:
    game = yard()
    if not setup.startswith("full"):
        hurt(game)
    if setup in ("stone", "full-stone"):
        give(game, "agent_0", "obj_stone")
    if setup == "full":
        give(game, "agent_0", "obj_apple")
    if setup == "elsewhere":
        put_on_ground(game, HEAP, "obj_apple")
    if setup == "sack":
        [cid] = give(game, "agent_0", "obj_sack")
        command = f"eat {game.world.name_of(cid)}"
    check_refused(game, command, key)


def test_hp_restore_is_read_as_a_whole_number_from_the_extra_field() -> None:
    game = yard()
    extra_number = pack_module(game, "eat", "common").extra_number
    apple = game.world.objects["obj_apple"]
    assert apple.extras["hp_restore"] == 15 and extra_number(apple, "hp_restore") == 15
    assert extra_number(game.world.objects["obj_bread"], "hp_restore") == 0
    for value, expected in [(7.9, 7), ("12", 0), (True, 0), (None, 0), (float("inf"), 0), (-3, -3)]:
        odd = attrs.evolve(apple, extras={"hp_restore": value})
        assert extra_number(odd, "hp_restore") == expected, value


def test_a_negative_or_junk_restore_heals_the_default() -> None:
    game = yard()
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_apple"], extras={"hp_restore": "lots"}))
    hurt(game)
    give(game, "agent_0", "obj_apple")
    act(game, "agent_0", "eat apple")
    assert agent(game).hp == 60


def eat_stage(seed: int, game: Game) -> Game:
    """A random stage: maybe hurt, food and other things in hands, a worn sack, a held sack,
    the ground here and elsewhere."""
    rng = random.Random(seed)
    yard(0, reuse=game)
    things = ["obj_apple", "obj_bread", "obj_herb", "obj_stone", "obj_bandage", "obj_dart"]
    if rng.random() < 0.8:
        hurt(game, rng.randint(1, 99))
    for _ in range(rng.randint(0, 2)):
        if rng.random() < 0.3:
            [held] = give(game, "agent_0", "obj_sack")
            game.world.containers[held].items[rng.choice(things)] = rng.randint(1, 2)
        else:
            give(game, "agent_0", rng.choice(things))
    if rng.random() < 0.5:
        equip_sack(game, {rng.choice(things): 1})
    for area in (GATE, HEAP):
        for _ in range(rng.randint(0, 3)):
            put_on_ground(game, area, rng.choice(things))
    return game


def test_valid_params_are_exactly_the_names_that_take_effect() -> None:
    main, scratch = yard(), yard()
    names = sorted({o.name for o in main.world.objects.values()} | {"sack_0", "nothing"})
    total = 0
    for seed in range(80):
        game = eat_stage(seed, main)
        offered = listed(game, "eat")
        assert len(offered) == len(set(offered))
        total += len(offered)
        for params in offered:
            res = act(eat_stage(seed, scratch), "agent_0", ("eat", list(params)))
            assert res.action_ok["agent_0"], (seed, params)
        before = state_of(game)
        for name in sorted(set(names) - {p for (p,) in offered}):
            res = act(game, "agent_0", ("eat", [name]))
            assert not res.action_ok["agent_0"] and not res.invalid["agent_0"], (seed, name)
        assert state_of(game) == before, seed
    assert total > 40


def test_listing_order_follows_the_sources() -> None:
    game = yard()
    hurt(game)
    put_on_ground(game, GATE, "obj_bread")
    equip_sack(game, {"obj_herb": 1})
    give(game, "agent_0", "obj_apple")
    assert listed(game, "eat") == [("apple",), ("herb",), ("bread",)]
    agent(game).hp = agent(game).max_hp
    assert listed(game, "eat") == []
