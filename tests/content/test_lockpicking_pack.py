"""The bundled rule pack `lockpicking` (rules/lockpicking/): `lockpick <area>`, the `remnant` game's
verb (spec rule-packs 1), played here on cinderdeep, which names the pack in `features.rule_packs`.

Lockpicks open no lock through `enter` (spec actions 5's recommendation); the pack's verb picks a
locked path with a tool in hand: 0.2 with a lockpick, 0.1 with only a tension wrench, the tool used
up either way, a failure noisy and hurting for 1 HP with probability 0.25. Each try's outcome is
checked against a copy of the game's generator, so every number is exact.
"""

from __future__ import annotations

import random

import pytest
from harness import act, agent, blank_game, give, main_events, move_to, restage, state_of

from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.schema import ObjectDef

RAKE, WIRE, WRENCH = "obj_verdite_rake", "obj_tension_wire", "obj_test_wrench"


def stage(seed: int = 0, reuse: Game | None = None) -> tuple[Game, str, str]:
    """Cinderdeep cleared, agent_0 at the spawn, the path to its first neighbour locked (`reuse`:
    a game to reset instead of building a new one)."""
    if reuse is None:
        game = blank_game("cinderdeep", tracking=True)
    else:
        game = reuse
        game.tracker = None  # `blank_game`'s stand-in flag, not a tracker to reset
        restage(game, seed)
        game.tracker = True
    game.world.add_object_def(
        ObjectDef(id=WRENCH, name="test_wrench", category="tool", usage="tension_wrench", size=1)
    )
    here = agent(game).area_id
    there = next(iter(game.world.graph.neighbors(here)))
    game.world.connect(here, there, locked=True, key="obj_sluice_key")
    game.rng.seed(seed)
    return game, here, there


def mirror(game: Game) -> random.Random:
    """A generator in the game's state: what the next draws will be."""
    copy = random.Random()
    copy.setstate(game.rng.getstate())
    return copy


def name(game: Game, area_id: str) -> str:
    return game.world.areas[area_id].name


def test_cinderdeep_plays_with_the_pack_and_enter_ignores_lockpicks() -> None:
    game, _, there = stage()
    assert game.engine.rules["lockpick"].verb == "lockpick"
    give(game, "agent_0", RAKE)
    assert act(game, "agent_0", f"enter {name(game, there)}").feedback_keys("agent_0") == [
        "enter.locked"
    ]
    assert "lockpick" not in blank_game().engine.rules  # other worlds do not have it


@pytest.mark.parametrize(("tool", "chance"), [(RAKE, 0.2), (WIRE, 0.2), (WRENCH, 0.1)])
def test_each_try_follows_the_generator_exactly(tool: str, chance: float) -> None:
    opened = hurt = 0
    game = None
    for seed in range(300):
        game, here, there = stage(seed, reuse=game)
        give(game, "agent_0", tool)
        me = agent(game)
        hp = me.hp
        draws = mirror(game)
        success = draws.random() < chance
        cut = not success and draws.random() < 0.25
        res = act(game, "agent_0", f"lockpick {name(game, there)}")
        assert res.action_ok["agent_0"] and not res.invalid["agent_0"]
        assert me.hands == {} and me.area_id == here  # the tool is spent; I do not move
        payload = {"from_area": here, "to_area": there, "tool": tool}
        if success:
            assert not game.world.graph.is_locked(here, there)
            assert not game.world.graph.is_locked(there, here)
            assert main_events(res) == [("path_unlocked", payload)]
        else:
            assert game.world.graph.is_locked(here, there)
            assert main_events(res) == [
                ("lockpick_failed", payload),
                ("noise_made", {"area_id": here}),
            ]
        assert me.hp == hp - (1 if cut else 0)
        assert ("lockpick.hurt" in res.feedback_keys("agent_0")) is cut
        assert [e.data["obj_id"] for e in res.events if e.type == "track.consume"] == [tool]
        opened += success
        hurt += cut
    assert abs(opened / 300 - chance) < 0.06 and 0 < hurt < 300 * (1 - chance) * 0.4


def test_the_better_tool_is_used_first() -> None:
    game, _, there = stage()
    give(game, "agent_0", WRENCH)
    give(game, "agent_0", RAKE)
    act(game, "agent_0", f"lockpick {name(game, there)}")
    assert agent(game).hands == {WRENCH: 1}


def test_refusals_change_nothing() -> None:
    game, here, there = stage()
    before = state_of(game)
    res = act(game, "agent_0", f"lockpick {name(game, there)}")
    assert res.feedback_keys("agent_0") == ["lockpick.no_tool"] and state_of(game) == before
    give(game, "agent_0", RAKE)
    game.world.graph.set_locked(here, there, False)
    before = state_of(game)
    for target in (name(game, there), "nowhere"):
        res = act(game, "agent_0", f"lockpick {target}")
        assert res.feedback_keys("agent_0") == ["lockpick.no_lock"]
        assert not res.action_ok["agent_0"] and res.events == []
    assert state_of(game) == before


def listed(game: Game) -> list[tuple[str, ...]]:
    ctx = RuleContext(game, game.world, agent(game), "lockpick", (), game.tick_index)
    return game.engine.rules["lockpick"].valid_params(ctx)


def random_stage(seed: int) -> Game:
    """A random place, random locks around it, up to two things in hand (tools or a key)."""
    rng = random.Random(seed)
    game, _, _ = stage(seed)
    world = game.world
    move_to(game, "agent_0", rng.choice(list(world.areas)))
    here = agent(game).area_id
    for there in world.graph.neighbors(here):
        world.graph.set_locked(here, there, rng.random() < 0.6)
    for _ in range(rng.randint(0, 2)):
        give(game, "agent_0", rng.choice([RAKE, WRENCH, "obj_key"]))
    return game


def test_valid_params_are_exact_on_random_stages() -> None:
    """Listed names take effect (each on a fresh copy of the stage); every other area name is
    refused and changes nothing."""
    listed_total = 0
    for seed in range(60):
        game = random_stage(seed)
        names = {a.name for a in game.world.areas.values()} | {"nowhere"}
        offered = listed(game)
        listed_total += len(offered)
        for params in offered:
            fresh = random_stage(seed)
            assert act(fresh, "agent_0", ("lockpick", list(params))).action_ok["agent_0"], seed
        before = state_of(game)
        for area_name in sorted(names - {n for (n,) in offered}):
            res = act(game, "agent_0", ("lockpick", [area_name]))
            assert not res.action_ok["agent_0"] and not res.invalid["agent_0"], (seed, area_name)
        assert state_of(game) == before, seed
    assert listed_total > 20


def test_the_discrete_action_is_masked_exactly() -> None:
    import agentodyssey_pz

    env = agentodyssey_pz.parallel_env(world="cinderdeep", num_agents=1, tutorial=False)
    observations, _ = env.reset(seed=0)
    game = env.unwrapped.game
    here = game.agents["agent_0"].area_id
    there = next(iter(game.world.graph.neighbors(here)))
    entry = ("lockpick", game.world.area_named(name(game, there)))
    index = env.unwrapped.catalogue.index[entry]
    game.world.graph.set_locked(here, there, True)
    give(game, "agent_0", RAKE)
    observations, _, _, _, infos = env.step({"agent_0": "wait"})
    assert observations["agent_0"]["action_mask"][index] == 1
    assert env.unwrapped.action_name("agent_0", index) == f"lockpick {name(game, there)}"
    _, _, _, _, infos = env.step({"agent_0": index})
    assert infos["agent_0"]["action_ok"] and "obj_verdite_rake" not in agent(game).hands
