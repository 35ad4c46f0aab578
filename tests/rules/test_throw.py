"""`throw <object> <npc>` (rules/scavenging/throw.py), played on the scrapyard test world.

Damage max(1, the object's `attack_power` extra field); one draw: below 0.7 the unit lands on the
ground, else it shatters into salvage; a kill resolves as `attack`'s (loot, records, `npc_killed`);
no fight starts. Each outcome is checked against a copy of the game's generator.
"""

from __future__ import annotations

import random

import pytest
from harness import (
    act,
    agent,
    check_refused,
    give,
    main_events,
    put_on_ground,
    spawn_npc,
    state_of,
)
from scavenging_helper import GATE, HEAP, listed, mask_targets, mirror, yard

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.world.agents import Engagement

LAND_TRIALS = 4000
LAND_TOLERANCE = 0.03  # about 4 standard deviations of a 0.7 frequency over 4000 trials


def stage(seed: int = 0, reuse: Game | None = None, thing: str = "obj_stone", hp: int = 30):
    game = yard(seed, reuse=reuse)
    give(game, "agent_0", thing)
    scrapper = spawn_npc(game, "npc_scrapper", GATE, hp=hp)
    return game, scrapper


@pytest.mark.parametrize(
    ("thing", "damage"), [("obj_stone", 1), ("obj_cleaver", 1), ("obj_dart", 4)]
)
def test_damage_is_the_attack_power_field_at_least_1(thing: str, damage: int) -> None:
    """The cleaver's `attack` (8) plays no part; the dart's `attack_power` (4) does."""
    game, scrapper = stage(thing=thing)
    name = game.world.objects[thing].name
    res = act(game, "agent_0", f"throw {name} scrapper_0")
    assert res.action_ok["agent_0"] and scrapper.hp == 30 - damage
    hit = [e.data for e in res.events if e.type == "npc_hit_by_thrown"]
    assert hit == [{"obj_id": thing, "npc_id": "npc_scrapper_0", "damage": damage, "area_id": GATE}]


def test_each_throw_lands_or_shatters_as_the_generator_says() -> None:
    landed = shattered = 0
    game = None
    for seed in range(300):
        game, scrapper = stage(seed, reuse=game, thing="obj_cleaver")
        game.rng.seed(seed)
        draws = mirror(game)
        lands = draws.random() < 0.7
        # The cleaver's recipe: scrap 3 -> 1 unit, stone 1 -> a coin flip, salt 1.5 -> nothing.
        salvage = (
            {} if lands else {"obj_scrap": 1, **({"obj_stone": 1} if draws.random() < 0.5 else {})}
        )
        after = draws.getstate()
        res = act(game, "agent_0", "throw cleaver scrapper_0")
        ground = game.world.areas[GATE].objects
        thrown = {"obj_id": "obj_cleaver", "npc_id": "npc_scrapper_0", "area_id": GATE}
        hit = {**thrown, "damage": 1}
        if lands:
            assert ground == {"obj_cleaver": 1}
            last = ("object_landed", {"obj_id": "obj_cleaver", "area_id": GATE})
        else:
            assert ground == salvage
            last = (
                "object_shattered",
                {"obj_id": "obj_cleaver", "salvage": salvage, "area_id": GATE},
            )
        assert main_events(res) == [("object_thrown", thrown), ("npc_hit_by_thrown", hit), last]
        assert agent(game).hands == {} and scrapper.hp == 29
        assert game.rng.getstate() == after  # one draw to land, one per coin-flip ingredient
        landed += lands
        shattered += not lands
    assert landed > 150 and shattered > 50


def test_landing_frequency_is_0_7() -> None:
    """Statistically, over seeded trials (tolerance LAND_TOLERANCE)."""
    game, _ = stage(hp=10**6)
    landed = 0
    for seed in range(LAND_TRIALS):
        game.rng.seed(seed)
        give(game, "agent_0", "obj_stone")
        res = act(game, "agent_0", "throw stone scrapper_0")
        landed += main_events(res)[-1][0] == "object_landed"
        game.world.areas[GATE].objects.clear()
    assert abs(landed / LAND_TRIALS - 0.7) < LAND_TOLERANCE


def test_a_throw_starts_no_fight_and_leaves_stamina_alone() -> None:
    game, scrapper = stage()
    me = agent(game)
    me.stamina, me.consecutive_attacks = 0.6, 3
    act(game, "agent_0", "throw stone scrapper_0")
    assert me.combats == {} and (me.stamina, me.consecutive_attacks) == (0.6, 3)
    assert scrapper.hp == 29 and scrapper.area_id == GATE


def test_a_kill_resolves_like_an_attack_kill() -> None:
    """Records, loot on the ground, the NPC off the map, `npc_killed`; the same state as killing
    it with `attack` (stamina and fight included)."""
    results = {}
    for verb in ("throw", "attack"):
        game = yard()
        rat = spawn_npc(game, "npc_rat", GATE, hp=1, inventory={"obj_stone": 2, "obj_tag": 1})
        me = agent(game)
        me.combats[rat.id] = Engagement(0, GATE)
        me.stamina, me.consecutive_attacks = 0.8, 1
        game.rng.seed(5)  # the rat's loot and the throw's landing draw alike for both
        command = "throw dart rat_0" if verb == "throw" else "attack rat_0"
        if verb == "throw":
            give(game, "agent_0", "obj_dart")
        res = act(game, "agent_0", command)
        assert res.action_ok["agent_0"]
        assert rat.hp == 0 and rat.area_id is None and rat.inventory == {}
        assert me.kills == 1 and me.killed == {rat.id: 1} and list(me.unique_kills) == ["npc_rat_1"]
        assert me.combats == {} and (me.stamina, me.consecutive_attacks) == (1.0, 0)
        events = main_events(res)
        assert events[-1] == ("npc_killed", {"npc_id": rat.id, "area_id": GATE})
        ground = dict(game.world.areas[GATE].objects)
        ground.pop("obj_dart", None)  # the thrown dart (landed or shattered into scrap)
        ground.pop("obj_scrap", None)
        results[verb] = ground
        if verb == "throw":
            assert "throw.loot" in res.feedback_keys("agent_0")
    assert results["throw"] == results["attack"]
    assert {game.world.def_of(o).id: n for o, n in results["throw"].items()} == {
        "obj_stone": 2,
        "obj_tag": 1,
    }


def test_a_kill_is_not_recorded_before_the_tutorial_is_passed() -> None:
    game = yard()
    rat = spawn_npc(game, "npc_rat", GATE, hp=1)
    agent(game).tutorial_passed = False
    give(game, "agent_0", "obj_stone")
    res = act(game, "agent_0", "throw stone rat_0")
    assert rat.area_id is None and ("npc_killed", {"npc_id": rat.id, "area_id": GATE}) in (
        main_events(res)
    )
    assert agent(game).kills == 0 and agent(game).killed == {}


def test_hp_never_goes_below_0_but_the_damage_is_reported_whole() -> None:
    game = yard()
    rat = spawn_npc(game, "npc_rat", GATE, hp=2)
    give(game, "agent_0", "obj_dart")
    res = act(game, "agent_0", "throw dart rat_0")
    [hit] = [e.data for e in res.events if e.type == "npc_hit_by_thrown"]
    assert hit["damage"] == 4 and rat.hp == 0


def test_anyone_may_be_hit_guides_and_merchants_too() -> None:
    game = yard()
    guide = spawn_npc(game, "npc_tinker", GATE, quest=True)
    fence = spawn_npc(game, "npc_fence", GATE)
    give(game, "agent_0", "obj_stone", 2)
    for npc in (guide, fence):
        hp = npc.hp
        assert act(game, "agent_0", f"throw stone {npc.name}").action_ok["agent_0"]
        assert npc.hp == hp - 1


@pytest.mark.parametrize(
    ("command", "key"),
    [
        ("throw rock scrapper_0", "throw.not_held"),  # no such object
        ("throw dart scrapper_0", "throw.not_held"),  # on the ground, not in hand
        ("throw SACK scrapper_0", "throw.unthrowable"),  # a container
        ("throw TAG scrapper_0", "throw.unthrowable"),  # a writable
        ("throw stone nobody", "throw.no_target"),
        ("throw stone rat_0", "throw.no_target"),  # in another area
        ("throw stone mine_0", "throw.no_target"),  # another agent's personal NPC
    ],
)
def test_refusals_change_nothing(command: str, key: str) -> None:
    game = yard(agents=2)
    give(game, "agent_0", "obj_stone")
    put_on_ground(game, GATE, "obj_dart")
    spawn_npc(game, "npc_scrapper", GATE)
    spawn_npc(game, "npc_rat", HEAP)
    theirs = spawn_npc(game, "npc_rat", GATE, name="mine_0")
    game.world.set_npc_owner(theirs.id, "agent_1")
    if "SACK" in command or "TAG" in command:
        agent(game).hands.clear()
        [held] = give(game, "agent_0", "obj_sack" if "SACK" in command else "obj_tag")
        command = command.replace("SACK" if "SACK" in command else "TAG", game.world.name_of(held))
    check_refused(game, command, key)


def test_valid_params_pair_every_throwable_in_hand_with_every_npc_here() -> None:
    game = yard()
    give(game, "agent_0", "obj_dart")
    give(game, "agent_0", "obj_stone")
    spawn_npc(game, "npc_scrapper", GATE)
    spawn_npc(game, "npc_rat", GATE)
    spawn_npc(game, "npc_rat", GATE)
    spawn_npc(game, "npc_rat", HEAP)
    assert listed(game, "throw") == [
        ("dart", "scrapper_0"),
        ("dart", "rat_0"),
        ("dart", "rat_1"),
        ("stone", "scrapper_0"),
        ("stone", "rat_0"),
        ("stone", "rat_1"),
    ]
    # The catalogue: one entry per NPC prototype, the first throwable at the first NPC of it.
    first = {}
    for target, params in mask_targets(game, "throw"):
        first.setdefault(target, params)
    assert first == {"npc_scrapper": ("dart", "scrapper_0"), "npc_rat": ("dart", "rat_0")}
    agent(game).hands.clear()
    give(game, "agent_0", "obj_sack")
    assert listed(game, "throw") == [] and mask_targets(game, "throw") == []


def throw_stage(seed: int, game: Game) -> Game:
    rng = random.Random(seed)
    yard(0, reuse=game)
    for _ in range(rng.randint(0, 2)):
        give(game, "agent_0", rng.choice(["obj_stone", "obj_dart", "obj_sack", "obj_tag"]))
    for _ in range(rng.randint(0, 3)):
        spawn_npc(
            game,
            rng.choice(["npc_rat", "npc_scrapper", "npc_fence"]),
            GATE if rng.random() < 0.7 else HEAP,
        )
    return game


def test_valid_params_are_exactly_the_pairs_that_take_effect() -> None:
    main, scratch = yard(), yard()
    total = 0
    for seed in range(100):
        game = throw_stage(seed, main)
        offered = listed(game, "throw")
        total += len(offered)
        for params in offered:
            res = act(throw_stage(seed, scratch), "agent_0", ("throw", list(params)))
            assert res.action_ok["agent_0"], (seed, params)
        objects = {game.world.name_of(o) for o in game.agents["agent_0"].hands} | {"stone", "x"}
        npcs = {n.name for n in game.world.npcs.values()} | {"nobody"}
        before = state_of(game)
        for pair in sorted({(o, n) for o in objects for n in npcs} - set(offered)):
            res = act(game, "agent_0", ("throw", list(pair)))
            assert not res.action_ok["agent_0"] and not res.invalid["agent_0"], (seed, pair)
        assert state_of(game) == before, seed
    assert total > 40
