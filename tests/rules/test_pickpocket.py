"""`pickpocket <npc>` (rules/scavenging/pickpocket.py), played on the scrapyard test world.

Chance 0.4, +0.1 with empty hands, -0.2 with both hands full, -0.15 against a merchant, clamped to
[0, 1]; one draw decides. A success takes min(coins, randint(1, 5)) coins, else one item chosen
by `choice`, else nothing; into a hand free before the theft, the rest on the ground. A caught
thief is hit for max(1, attack - defense).
"""

from __future__ import annotations

import random

import attrs
import pytest
from harness import act, agent, check_refused, give, main_events, spawn_npc
from scavenging_helper import GATE, HEAP, listed, mask_targets, mirror, pack_module, yard

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.entities import Npc

TRIALS = 3000
TOLERANCE = 0.035  # about 4 standard deviations of a frequency near 0.5 over 3000 trials


def victim(game: Game, proto: str = "npc_tinker", **overrides) -> Npc:
    overrides.setdefault("coins", 0)
    overrides.setdefault("inventory", {})
    return spawn_npc(game, proto, GATE, **overrides)


@pytest.mark.parametrize(
    ("held", "proto", "chance"),
    [
        (0, "npc_tinker", 0.5),
        (1, "npc_tinker", 0.4),
        (2, "npc_tinker", 0.2),
        (0, "npc_fence", 0.35),  # a merchant
        (1, "npc_fence", 0.25),
        (2, "npc_fence", 0.05),
    ],
)
def test_the_chance_and_the_single_draw(held: int, proto: str, chance: float) -> None:
    """Success exactly when the draw is below the chance, over many seeds; its frequency near it."""
    game = yard()
    npc = victim(game, proto, coins=10**6, attack_power=0)
    stole = 0
    for seed in range(TRIALS):
        me = agent(game)
        me.hands.clear()
        if held:
            give(game, "agent_0", "obj_stone", held)
        assert pack_module(game, "pickpocket").chance(me, npc) == pytest.approx(chance)
        game.rng.seed(seed)
        expected = mirror(game).random() < chance
        res = act(game, "agent_0", f"pickpocket {npc.name}")
        assert res.action_ok["agent_0"]
        assert (main_events(res)[0][0] == "npc_pickpocketed") is expected
        stole += expected
    assert abs(stole / TRIALS - chance) < TOLERANCE


@pytest.mark.parametrize(("base", "expected"), [(1.0, 1.0), (0.95, 1.0), (0.1, 0.0), (-1.0, 0.0)])
def test_the_chance_is_clamped(base: float, expected: float, monkeypatch) -> None:
    """With another base chance: empty hands against the craftsman (+0.1) above 1, full hands
    against the merchant (-0.35) below 0."""
    game = yard()
    module = pack_module(game, "pickpocket")
    monkeypatch.setattr(module, "BASE_CHANCE", base)
    low = base < 0.5
    npc = victim(game, "npc_fence" if low else "npc_tinker")
    give(game, "agent_0", "obj_stone", 2 if low else 0)
    assert module.chance(agent(game), npc) == expected


def succeed(game: Game, npc: Npc, start: int = 0) -> tuple[random.Random, object]:
    """Seed the game (the first seed from `start` on that does it) so the theft succeeds; returns
    the generator after the success draw and the result."""
    chance = pack_module(game, "pickpocket").chance(agent(game), npc)
    seed = next(s for s in range(start, start + 100) if random.Random(s).random() < chance)
    game.rng.seed(seed)
    draws = mirror(game)
    draws.random()
    return draws, act(game, "agent_0", f"pickpocket {npc.name}")


@pytest.mark.parametrize("coins", [1, 3, 5, 40])
def test_coins_min_of_theirs_and_a_1_to_5_draw_into_a_free_hand(coins: int) -> None:
    """Empty hands (chance 0.5): over the seeds whose first draw succeeds."""
    seeds = [s for s in range(60) if random.Random(s).random() < 0.5]
    amounts = set()
    for seed in seeds:
        game = yard()
        npc = victim(game, coins=coins)
        game.rng.seed(seed)
        draws = mirror(game)
        draws.random()
        amount = min(coins, draws.randint(1, 5))
        res = act(game, "agent_0", f"pickpocket {npc.name}")
        assert npc.coins == coins - amount
        assert agent(game).hands.get("obj_coin", 0) == min(amount, 2)
        assert game.world.areas[GATE].objects.get("obj_coin", 0) == amount - min(amount, 2)
        assert main_events(res) == [
            (
                "npc_pickpocketed",
                {
                    "npc_id": npc.id,
                    "what_was_stolen": {"obj_id": "obj_coin", "amount": amount},
                    "area_id": GATE,
                },
            )
        ]
        assert game.rng.getstate() == draws.getstate()
        amounts.add(amount)
    assert amounts == set(range(1, min(coins, 5) + 1))


def test_coins_fall_to_the_ground_without_a_free_hand_and_beyond_the_hands() -> None:
    game = yard()
    npc = victim(game, coins=100)
    give(game, "agent_0", "obj_stone", 2)  # no free hand
    draws, _ = succeed(game, npc)
    amount = draws.randint(1, 5)
    assert agent(game).hands == {"obj_stone": 2}
    assert game.world.areas[GATE].objects == {"obj_coin": amount}
    game = yard()
    npc = victim(game, coins=100)
    give(game, "agent_0", "obj_coin")  # one hand free: one more coin fits
    draws, _ = succeed(game, npc)
    amount = draws.randint(1, 5)
    assert agent(game).hands == {"obj_coin": 2}
    assert game.world.areas[GATE].objects.get("obj_coin", 0) == amount - 1
    assert sum(agent(game).hands.values()) <= 2


def test_without_coins_one_item_by_choice_a_container_as_a_new_instance() -> None:
    seen = set()
    for start in range(0, 300, 10):
        game = yard()
        npc = victim(game, inventory={"obj_scrap": 2, "obj_sack": 1, "obj_tag": 0})
        draws, res = succeed(game, npc, start)
        oid, _ = draws.choice([("obj_scrap", 2), ("obj_sack", 1)])
        assert game.rng.getstate() == draws.getstate()
        me = agent(game)
        [(held, n)] = me.hands.items()
        assert n == 1 and game.world.def_of(held).id == oid
        if oid == "obj_sack":
            assert held in game.world.containers and npc.inventory == {"obj_scrap": 2, "obj_tag": 0}
        else:
            assert npc.inventory == {"obj_scrap": 1, "obj_sack": 1, "obj_tag": 0}
        stolen = main_events(res)[0][1]["what_was_stolen"]
        assert stolen == {"obj_id": oid, "amount": 1}
        seen.add(oid)
    assert seen == {"obj_scrap", "obj_sack"}


def test_an_item_goes_to_the_ground_without_a_free_hand() -> None:
    game = yard()
    npc = victim(game, inventory={"obj_scrap": 1})
    give(game, "agent_0", "obj_stone", 2)
    succeed(game, npc)
    assert agent(game).hands == {"obj_stone": 2} and npc.inventory == {}
    assert game.world.areas[GATE].objects == {"obj_scrap": 1}


def test_empty_pockets_still_count() -> None:
    game = yard()
    npc = victim(game)
    draws, res = succeed(game, npc)
    assert res.action_ok["agent_0"] and game.rng.getstate() == draws.getstate()
    assert main_events(res) == [
        (
            "npc_pickpocketed",
            {"npc_id": npc.id, "what_was_stolen": {"obj_id": None, "amount": 0}, "area_id": GATE},
        )
    ]


@pytest.mark.parametrize(
    ("attack", "defense", "damage"),
    [(10, 0, 10), (10, 4, 6), (10, 10, 1), (3, 50, 1), (10**6, 0, 10**6)],
)
def test_a_caught_thief_is_hit_for_attack_minus_defense_at_least_1(
    attack: int, defense: int, damage: int
) -> None:
    game = yard()
    npc = victim(game, attack_power=attack, coins=50)
    me = agent(game)
    me.defense, me.defending = defense, True  # defending does not help
    seed = next(s for s in range(100) if random.Random(s).random() >= 0.5)
    game.rng.seed(seed)
    res = act(game, "agent_0", f"pickpocket {npc.name}")
    assert res.action_ok["agent_0"] and me.hp == 100 - damage and npc.coins == 50
    assert main_events(res) == [
        ("agent_caught_stealing", {"npc_id": npc.id, "damage": damage, "area_id": GATE})
    ]


def test_only_an_npc_here_can_be_robbed_and_every_one_is_listed() -> None:
    game = yard(agents=2)
    check_refused(game, "pickpocket nobody", "pickpocket.not_here")
    rat = spawn_npc(game, "npc_rat", HEAP)
    check_refused(game, f"pickpocket {rat.name}", "pickpocket.not_here")
    fence, scrapper = victim(game, "npc_fence"), victim(game, "npc_scrapper")
    theirs = victim(game, "npc_rat")
    game.world.set_npc_owner(theirs.id, "agent_1")
    check_refused(game, f"pickpocket {theirs.name}", "pickpocket.not_here")
    assert listed(game, "pickpocket") == [(fence.name,), (scrapper.name,)]
    assert mask_targets(game, "pickpocket") == [
        ("npc_fence", (fence.name,)),
        ("npc_scrapper", (scrapper.name,)),
    ]
    assert listed(game, "pickpocket", "agent_1") == [
        (fence.name,),
        (scrapper.name,),
        (theirs.name,),
    ]


def test_in_a_world_without_money_the_items_are_tried() -> None:
    game = yard()
    world = game.world
    world.add_object_def(attrs.evolve(world.objects["obj_coin"], category="material"))
    assert world.currency_id is None
    npc = victim(game, coins=50, inventory={"obj_scrap": 1})
    _, res = succeed(game, npc)
    assert npc.coins == 50 and npc.inventory == {} and agent(game).hands == {"obj_scrap": 1}
    assert main_events(res)[0][1]["what_was_stolen"] == {"obj_id": "obj_scrap", "amount": 1}
