"""`disassemble <object>` (rules/scavenging/disassemble.py) and the salvage table it shares with
`throw` (rules/scavenging/common.py), played on the scrapyard test world.

Salvage per ingredient quantity q: q >= 2 gives max(1, floor(q / 2)) units, q == 1 a coin flip
(one draw), anything else nothing. Disassembling takes one unit from the hands, else the ground
(never what I wear), needs a recipe, and leaves the salvage on the ground.
"""

from __future__ import annotations

import random

import attrs
import pytest
from harness import act, agent, check_refused, give, main_events, put_on_ground, state_of
from scavenging_helper import GATE, HEAP, listed, mask_targets, mirror, pack_module, yard

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.schema import CraftRecipe

FLIP_TRIALS = 4000
FLIP_TOLERANCE = 0.03  # about 4 standard deviations of a 0.5 frequency over 4000 trials


def with_recipe(game: Game, def_id: str, ingredients: dict[str, float]) -> None:
    world = game.world
    obj = world.objects[def_id]
    world.add_object_def(attrs.evolve(obj, craft=CraftRecipe(ingredients, obj.craft.dependencies)))


@pytest.mark.parametrize(
    ("quantity", "units"),
    [(2, 1), (2.5, 1), (3, 1), (3.9, 1), (4, 2), (5, 2), (9.5, 4), (0.5, 0), (1.5, 0), (0.999, 0)],
)
def test_the_yield_table_without_draws(quantity: float, units: int) -> None:
    game = yard()
    salvage_yield = pack_module(game, "disassemble", "common").salvage_yield
    with_recipe(game, "obj_dart", {"obj_scrap": quantity})
    rng = random.Random(1)
    state = rng.getstate()
    expected = {"obj_scrap": units} if units else {}
    assert salvage_yield(rng, game.world.objects["obj_dart"]) == expected
    assert rng.getstate() == state  # no draw


def test_an_ingredient_used_once_is_a_coin_flip_with_one_draw_each() -> None:
    game = yard()
    salvage_yield = pack_module(game, "disassemble", "common").salvage_yield
    with_recipe(game, "obj_dart", {"obj_scrap": 1, "obj_salt": 0.5, "obj_stone": 1.0})
    dart = game.world.objects["obj_dart"]
    back = {"obj_scrap": 0, "obj_stone": 0}
    for seed in range(FLIP_TRIALS):
        rng, draws = random.Random(seed), random.Random(seed)
        expected = {
            oid: 1 for oid in ("obj_scrap", "obj_stone") if draws.random() < 0.5
        }  # in recipe order
        got = salvage_yield(rng, dart)
        assert got == expected and list(got) == list(expected)
        assert rng.getstate() == draws.getstate()  # exactly two draws
        for oid in got:
            back[oid] += 1
    for oid, n in back.items():
        assert abs(n / FLIP_TRIALS - 0.5) < FLIP_TOLERANCE, oid


def test_disassembling_leaves_the_salvage_and_the_event() -> None:
    """The cleaver: scrap 3 -> 1, stone 1 -> a coin flip, salt 1.5 -> nothing."""
    game = None
    outcomes = set()
    for seed in range(40):
        game = yard(reuse=game)
        game.rng.seed(seed)
        give(game, "agent_0", "obj_cleaver")
        draws = mirror(game)
        salvage = {"obj_scrap": 1, **({"obj_stone": 1} if draws.random() < 0.5 else {})}
        res = act(game, "agent_0", "disassemble cleaver")
        assert res.action_ok["agent_0"] and agent(game).hands == {}
        assert game.world.areas[GATE].objects == salvage
        assert main_events(res) == [
            (
                "object_disassembled",
                {"obj_id": "obj_cleaver", "yield": salvage, "area_id": GATE},
            )
        ]
        assert game.rng.getstate() == draws.getstate()
        outcomes.add(len(salvage))
    assert outcomes == {1, 2}


def test_an_empty_yield_still_takes_the_unit_and_says_so() -> None:
    game = yard()
    give(game, "agent_0", "obj_tension_wrench")  # scrap 0.5: nothing comes back
    res = act(game, "agent_0", "disassemble tension_wrench")
    assert res.action_ok["agent_0"] and agent(game).hands == {}
    assert game.world.areas[GATE].objects == {}
    assert main_events(res) == [
        (
            "object_disassembled",
            {"obj_id": "obj_tension_wrench", "yield": {}, "area_id": GATE},
        )
    ]
    assert "nothing came back" in res.feedback_text("agent_0")


def test_hands_before_ground() -> None:
    game = yard()
    give(game, "agent_0", "obj_dart")
    put_on_ground(game, GATE, "obj_dart")
    act(game, "agent_0", "disassemble dart")
    assert agent(game).hands == {}
    assert game.world.areas[GATE].objects == {"obj_dart": 1, "obj_scrap": 1}
    act(game, "agent_0", "disassemble dart")
    assert game.world.areas[GATE].objects == {"obj_scrap": 2}


def test_instances_come_apart_and_stop_existing() -> None:
    """A sack (scrap 2 -> 1) with its contents, and a tag (stone 1 -> a coin flip); the salvage of
    an instanced ingredient would be new instances (a sack made of sacks)."""
    game = yard()
    [sack] = give(game, "agent_0", "obj_sack")
    game.world.containers[sack].items["obj_apple"] = 2
    [tag] = put_on_ground(game, GATE, "obj_tag")
    with_recipe(game, "obj_workbench", {"obj_sack": 2, "obj_tag": 3})
    put_on_ground(game, GATE, "obj_workbench")
    names = {oid: game.world.name_of(oid) for oid in (sack, tag)}
    act(game, "agent_0", f"disassemble {names[sack]}")
    assert sack not in game.world.containers and names[sack] not in game.world.obj_name_to_id
    assert agent(game).hands == {}
    act(game, "agent_0", f"disassemble {names[tag]}")
    assert tag not in game.world.writables
    res = act(game, "agent_0", "disassemble workbench")
    made = res.events[-1].data["yield"]
    assert made == {"obj_sack": 1, "obj_tag": 1}
    ground = game.world.areas[GATE].objects
    new = [oid for oid in ground if game.world.is_instance(oid)]
    assert sorted(game.world.def_of(oid).id for oid in new) == ["obj_sack", "obj_tag"]
    assert all(ground[oid] == 1 for oid in new)


@pytest.mark.parametrize(
    ("setup", "command", "key"),
    [
        ("", "disassemble gizmo", "disassemble.unknown"),
        ("worn", "disassemble vest", "disassemble.equipped"),  # worn (one in hand too)
        ("", "disassemble dart", "disassemble.none"),
        ("elsewhere", "disassemble dart", "disassemble.none"),
        ("stone", "disassemble stone", "disassemble.no_recipe"),
    ],
)
def test_refusals_change_nothing(setup: str, command: str, key: str) -> None:
    game = yard()
    if setup == "worn":
        agent(game).equipped["obj_vest"] = 1
        give(game, "agent_0", "obj_vest")
    if setup == "elsewhere":
        put_on_ground(game, HEAP, "obj_dart")
    if setup == "stone":
        give(game, "agent_0", "obj_stone")
    check_refused(game, command, key)


def test_listing_is_hands_then_ground_each_once_without_worn_or_uncraftable() -> None:
    game = yard()
    give(game, "agent_0", "obj_dart")
    give(game, "agent_0", "obj_stone")
    for oid in ("obj_vest", "obj_cleaver", "obj_dart", "obj_apple", "obj_workbench"):
        put_on_ground(game, GATE, oid)
    agent(game).equipped["obj_vest"] = 1
    [sack] = put_on_ground(game, GATE, "obj_sack")
    assert listed(game, "disassemble") == [
        ("dart",),
        ("cleaver",),
        ("workbench",),
        (game.world.name_of(sack),),
    ]
    assert [t for t, _ in mask_targets(game, "disassemble")] == [
        "obj_dart",
        "obj_cleaver",
        "obj_workbench",
        "obj_sack",
    ]
    assert type(game.engine.rules["disassemble"]).lists_from_reach


def disassemble_stage(seed: int, game: Game) -> Game:
    rng = random.Random(seed)
    yard(0, reuse=game)
    kinds = ["obj_dart", "obj_stone", "obj_vest", "obj_sack", "obj_tag", "obj_cleaver", "obj_apple"]
    for _ in range(rng.randint(0, 2)):
        give(game, "agent_0", rng.choice(kinds))
    for area in (GATE, HEAP):
        for _ in range(rng.randint(0, 3)):
            put_on_ground(game, area, rng.choice(kinds))
    if rng.random() < 0.5:
        agent(game).equipped["obj_vest"] = 1
    return game


def test_valid_params_are_exactly_the_names_that_take_effect() -> None:
    main, scratch = yard(), yard()
    total = 0
    for seed in range(80):
        game = disassemble_stage(seed, main)
        offered = listed(game, "disassemble")
        assert len(offered) == len(set(offered))
        total += len(offered)
        for params in offered:
            res = act(disassemble_stage(seed, scratch), "agent_0", ("disassemble", list(params)))
            assert res.action_ok["agent_0"], (seed, params)
        world = game.world
        names = {o.name for o in world.objects.values()}
        names |= {world.name_of(o) for o in (*agent(game).hands, *world.areas[GATE].objects)}
        before = state_of(game)
        for name in sorted(names - {p for (p,) in offered}):
            res = act(game, "agent_0", ("disassemble", [name]))
            assert not res.action_ok["agent_0"] and not res.invalid["agent_0"], (seed, name)
        assert state_of(game) == before, seed
    assert total > 60
