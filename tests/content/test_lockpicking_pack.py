"""The bundled rule pack `lockpicking` (rules/lockpicking/): `lockpick <area>`, the `remnant` game's
verb (docs/rule-packs.md#lockpicking), played here on cinderdeep, which names the pack in
`features.rule_packs`.

Lockpicks open no lock through `enter`
(docs/mechanics/verbs.md#quirk-a-path-opens-with-its-own-key); the pack's verb picks a locked path
with a tool in hand: 0.2 with a lockpick, 0.1 with only a tension wrench, the tool used up either
way, a failure noisy and hurting for 1 HP with probability 0.25. Each try's outcome is checked
against a copy of the game's generator, so every number is exact. The rule's settings serve
AgentOdyssey's remnant too (tools matched by definition id, other event payloads), played on the
scrapyard test world.
"""

from __future__ import annotations

import json
import random

import pytest
from harness import act, agent, blank_game, give, main_events, move_to, restage, state_of
from scavenging_helper import DOOR, GATE, REMNANT_LOCKPICK, SCRAPYARD, yard

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.policies.navigation import picking_tools
from agentodyssey_pz.rules.context import RuleContext
from agentodyssey_pz.world.entities import Area
from agentodyssey_pz.world.schema import ObjectDef
from agentodyssey_pz.world.validate import parse_definition

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


# ---------------------------------------------------------------------------- remnant's settings
# The scrapyard test world names the pack with remnant's settings (tests/scavenging_helper.py):
# tools by definition id (`obj_lockpick`, `obj_tension_wrench`, usage `unlock`), events without
# the tool, and a hurt reported as `agent_damaged`. Its gate's path to the door is locked.
TRIALS = 3000
TOLERANCE = 0.03  # about 4 standard deviations of a 0.2 frequency over 3000 trials


def yard_stage(seed: int = 0, reuse: Game | None = None) -> Game:
    game = yard(seed, reuse=reuse)
    game.world.graph.set_locked(GATE, DOOR, True)
    return game


@pytest.mark.parametrize(("tool", "chance"), [("obj_lockpick", 0.2), ("obj_tension_wrench", 0.1)])
def test_remnant_tools_by_definition_id_each_try_exact(tool: str, chance: float) -> None:
    opened = hurt = failed = 0
    game = None
    for seed in range(TRIALS):
        game = yard_stage(reuse=game) if game is None or seed % 50 == 0 else game
        game.world.graph.set_locked(GATE, DOOR, True)
        me = agent(game)
        me.hp, me.hands = 100, {}
        give(game, "agent_0", tool)
        game.rng.seed(seed)
        draws = mirror(game)
        success = draws.random() < chance
        cut = not success and draws.random() < 0.25
        res = act(game, "agent_0", "lockpick door")
        assert res.action_ok["agent_0"] and me.hands == {} and me.area_id == GATE
        assert game.rng.getstate() == draws.getstate()
        path = {"from_area": GATE, "to_area": DOOR}
        if success:
            assert not game.world.graph.is_locked(GATE, DOOR)
            assert not game.world.graph.is_locked(DOOR, GATE)
            assert main_events(res) == [("path_unlocked", path)]
        else:
            expected = [("lockpick_failed", path), ("noise_made", {"area_id": GATE})]
            if cut:
                expected.append(
                    ("agent_damaged", {"damage": 1, "area_id": GATE, "reason": "lockpick_fail"})
                )
            assert main_events(res) == expected and game.world.graph.is_locked(GATE, DOOR)
        assert me.hp == 100 - cut
        opened += success
        failed += not success
        hurt += cut
    assert abs(opened / TRIALS - chance) < TOLERANCE
    assert abs(hurt / failed - 0.25) < TOLERANCE + 0.005


def test_remnant_uses_the_lockpick_before_the_wrench_whatever_the_hand_order() -> None:
    game = yard_stage()
    give(game, "agent_0", "obj_tension_wrench")
    give(game, "agent_0", "obj_lockpick")
    act(game, "agent_0", "lockpick door")
    assert agent(game).hands == {"obj_tension_wrench": 1}


def test_remnant_tools_are_not_matched_by_usage_and_defense_cannot_stop_the_cut() -> None:
    game = yard_stage()
    world = game.world
    world.add_object_def(
        ObjectDef(id="obj_rake", name="rake", category="tool", usage="lockpick", size=1)
    )
    give(game, "agent_0", "obj_rake")
    assert act(game, "agent_0", "lockpick door").feedback_keys("agent_0") == ["lockpick.no_tool"]
    me = agent(game)
    me.hands, me.defense = {}, 30
    seed = next(
        s for s in range(1000) if (r := random.Random(s)).random() >= 0.2 and r.random() < 0.25
    )
    give(game, "agent_0", "obj_lockpick")
    game.rng.seed(seed)
    act(game, "agent_0", "lockpick door")
    assert me.hp == 99


def test_the_first_neighbour_of_that_name_is_the_one_picked() -> None:
    """Another area named `door` behind a locked path, the first `door` open: nothing to pick."""
    game = yard_stage()
    world = game.world
    world.add_area(Area("area_fake_door", "door", 1, True, "place_scrapyard"))
    world.connect(GATE, "area_fake_door", locked=True)
    world.graph.set_locked(GATE, DOOR, False)
    give(game, "agent_0", "obj_lockpick")
    assert act(game, "agent_0", "lockpick door").feedback_keys("agent_0") == ["lockpick.no_lock"]
    assert listed(game) == []


def test_settings_default_to_cinderdeep_s_and_planners_get_the_tools() -> None:
    cinder, _, _ = stage()
    rule = cinder.engine.rules["lockpick"]
    assert rule.settings == type(rule).settings
    assert rule.settings["lockpick_chance"] == 0.2 and rule.settings["wrench_chance"] == 0.1
    # Lockpicks first, in definition order: what the planner works out from TOOL_CHANCES.
    assert rule.picking_tools(cinder.world) == [WIRE, RAKE, WRENCH] == picking_tools(cinder)
    remnant = yard_stage().engine.rules["lockpick"]
    assert remnant.settings == {**type(rule).settings, **REMNANT_LOCKPICK}
    assert remnant.picking_tools(yard_stage().world) == ["obj_lockpick", "obj_tension_wrench"]


def test_a_wrong_setting_is_named_when_the_game_starts() -> None:
    raw = json.loads((SCRAPYARD / "world.json").read_text())
    raw["features"]["rule_settings"]["lockpick"]["tools_by_id"] = "yes"
    with pytest.raises(ConfigError, match=r"rule_settings\.lockpick\.tools_by_id: expected true"):
        Game(parse_definition(raw), 1, GameConfig())
