"""The tick: clock, bootstrap, who sees whom, agent order, invalid input, unknown agents,
termination and the resolved step-rule order.

docs/mechanics/index.md#how-a-tick-flows, docs/mechanics/step-rules.md#order-of-the-step-rules and
docs/mechanics/verbs.md#parsing-commands.
"""

from __future__ import annotations

import random
from typing import Any

import cattrs
import pytest
from harness import (
    DATA,
    SPEC_STEP_ORDER,
    TINY,
    agent,
    clear_world,
    make_game,
    put_on_ground,
    state_of,
)

from agentodyssey_pz.engine.config import GameConfig
from agentodyssey_pz.engine.game import Game
from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.observe.masks import valid_actions
from agentodyssey_pz.observe.text import tick_observation

PACKDEMO = DATA / "worlds" / "packdemo"
GATE, ROWS = "area_gate", "area_rows"


def observe(game: Game, result: Any, agent_id: str) -> str:
    return tick_observation(
        game, agent_id, result.feedback(agent_id), bootstrap=result.bootstrap,
        terminated=result.terminated,
    )  # fmt: skip


def time_line(text: str) -> str:
    (line,) = [ln for ln in text.splitlines() if ln.startswith("Current Time: ")]
    return line.removeprefix("Current Time: ")


def idle(game: Game) -> dict[str, str]:
    return dict.fromkeys(game.agent_ids, "wait")


# ------------------------------------------------------------------------------ the clock
def test_bootstrap_leaves_tick_0_and_the_start_time() -> None:
    game = Game(TINY, 1)
    boot = game.reset(0)
    assert (boot.tick, boot.bootstrap, game.tick_index) == (0, True, 0)
    assert time_line(observe(game, boot, "agent_0")) == "0001-01-01 08:00:00"
    assert game.time_text == "0001-01-01 08:00:00"


def test_each_tick_advances_the_clock_by_ten_minutes() -> None:
    game = make_game()
    texts = []
    for _ in range(6):
        result = game.tick(idle(game))
        texts.append(time_line(observe(game, result, "agent_0")))
    assert result.tick == game.tick_index == 6
    assert texts == [f"0001-01-01 0{8 + m // 60}:{m % 60:02d}:00" for m in range(10, 70, 10)]
    for _ in range(144 - 6):
        game.tick(idle(game))
    assert game.time_text == "0001-01-02 08:00:00"  # a day later, the year still four digits


def test_tick_seconds_and_start_time_come_from_the_config() -> None:
    game = make_game(tick_seconds=90, start_time="0999-12-31 23:58:00")
    assert game.time_text == "0999-12-31 23:58:00"
    game.tick(idle(game))
    assert game.time_text == "0999-12-31 23:59:30"
    result = game.tick(idle(game))
    assert time_line(observe(game, result, "agent_0")) == "1000-01-01 00:01:00"


@pytest.mark.parametrize(
    ("start_time", "tick_seconds"),
    [
        ("0001-01-01 08:00:00", 600), ("0999-12-31 23:58:00", 90), ("2024-02-28 23:59:59", 7),
        ("1999-12-31 13:37:11", 3601), ("0001-01-01 00:00:00", 86400), ("0001-01-01 00:00:00", 1),
    ],
)  # fmt: skip
def test_the_seconds_of_the_day_are_those_of_the_clock(start_time: str, tick_seconds: int) -> None:
    """`seconds_of_day` (the observation vector's time of day) is what `time` reads, from the
    bootstrap tick on, across midnights and leap days."""
    game = make_game(tick_seconds=tick_seconds, start_time=start_time)
    for tick in (-1, 0, 1, 5, 143, 144, 1000, 123_457):
        game.tick_index = tick
        moment = game.time
        assert game.seconds_of_day() == moment.hour * 3600 + moment.minute * 60 + moment.second


@pytest.mark.parametrize(
    "bad",
    [
        {"tick_seconds": 0}, {"tick_seconds": -600}, {"tick_seconds": True}, {"start_time": "8:00"},
        {"fractional_crafting": "rounded"}, {"fractional_crafting": None}, {"rule_packs": 3},
        {"rule_packs": [1]}, {"rule_packs": ""}, {"rule_packs": None},
    ],
)  # fmt: skip
def test_a_bad_clock_setting_is_refused_naming_the_field(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match=f"GameConfig.{next(iter(bad))}"):
        GameConfig(**bad)


@pytest.mark.parametrize(
    "agent_ids",
    [0, -1, True, 2.5, "ab", 10**9, ["a", "a"], ["a", ""], [1], ["x"] * 2 + list("abc")],
)
def test_bad_agent_ids_are_refused_before_anything_is_built(agent_ids: Any) -> None:
    """A string is not a list of names, and a huge count is a clear error, not a memory blow-up."""
    with pytest.raises(ConfigError, match=r"^agent_ids: need a count or a list of distinct names"):
        Game(TINY, agent_ids)


def test_agent_ids_may_be_a_count_or_names() -> None:
    assert Game(TINY, 2).agent_ids == ("agent_0", "agent_1")
    assert Game(TINY, ("scout", "smith")).agent_ids == ("scout", "smith")


# ------------------------------------------------------------------------------ who is here
def test_agents_in_one_area_see_each_other_until_one_leaves() -> None:
    game = make_game(agents=2)
    clear_world(game)
    a0, a1 = agent(game, "agent_0"), agent(game, "agent_1")
    result = game.tick(idle(game))
    assert "Here with me: agent_1." in observe(game, result, "agent_0")
    assert "Here with me: agent_0." in observe(game, result, "agent_1")
    assert game.agents_in(GATE) == [a0, a1]
    result = game.tick({"agent_0": "wait", "agent_1": "enter rows"})
    assert "Here with me: no one." in observe(game, result, "agent_0")
    assert "Here with me: no one." in observe(game, result, "agent_1")
    assert (game.agents_in(GATE), game.agents_in(ROWS)) == ([a0], [a1])
    # agent_0 arrives second but is listed first: agent order, not arrival order.
    game.tick({"agent_0": "enter rows", "agent_1": "wait"})
    assert (game.agents_in(GATE), game.agents_in(ROWS)) == ([], [a0, a1])
    assert game.agents_in("area_nowhere") == []


@pytest.mark.parametrize(("world", "tutorial"), [("default", None), ("glasswick", False)])
def test_agents_in_stays_exact_through_random_play(world: str, tutorial: bool | None) -> None:
    """Moves, deaths and respawns: the per-area index always matches every agent's own area, and
    the occupied areas are those `count_in` finds agents in."""
    game = Game(world, 4, GameConfig(tutorial=tutorial))
    game.reset(2)
    rng = random.Random(2)
    moved = 0
    for step in range(300):
        if step % 50 == 49:  # a death now and then: respawn moves the agent too
            game.agents[rng.choice(game.agent_ids)].hp = 0
        actions = {}
        for aid in game.agent_ids:
            listed = valid_actions(game, aid)
            verb = rng.choice(["enter", "enter", "attack", "wait"])
            actions[aid] = rng.choice(listed.get(verb, ["wait"]))
        before = {aid: a.area_id for aid, a in game.agents.items()}
        game.tick(actions)
        moved += sum(before[aid] != a.area_id for aid, a in game.agents.items())
        for area_id in game.world.areas:
            expected = [a for a in game.agents.values() if a.area_id == area_id]
            assert game.agents_in(area_id) == expected, (game.tick_index, area_id)
        occupied = {area_id for area_id in game.world.areas if game.count_in(area_id)}
        assert game.occupied_areas() == occupied == {a.area_id for a in game.agents.values()}
    assert moved >= 100 and sum(a.deaths for a in game.agents.values()) >= 6


# ------------------------------------------------------------------------------ agent order
@pytest.mark.parametrize("ids", [("agent_0", "agent_1"), ("zed", "amy")])
def test_agents_act_in_the_fixed_order_and_a_later_one_sees_the_effect(
    ids: tuple[str, ...],
) -> None:
    game = Game(TINY, list(ids))
    game.reset(0)
    clear_world(game)
    put_on_ground(game, GATE, "obj_coin", 1)
    first, second = ids
    result = game.tick({second: "pick up coin", first: "pick up coin"})
    assert game.agents[first].hands == {"obj_coin": 1}
    assert game.agents[second].hands == {}
    assert result.feedback_keys(first) == ["pick_up.done"]
    assert result.feedback_keys(second) == ["pick_up.not_here"]
    assert "there is none here" in result.feedback(second)
    assert (result.action_ok[first], result.action_ok[second]) == (True, False)
    assert not any(result.invalid.values())  # a failed pick-up is not invalid input


# ------------------------------------------------------------------------------ invalid input
BAD_ACTIONS = [
    pytest.param("missing", id="missing"),
    pytest.param(None, id="None"),
    pytest.param("", id="empty"),
    pytest.param("   ", id="blank"),
    pytest.param("dance wildly", id="unknown-verb"),
    pytest.param("waiting", id="verb-prefix"),
    pytest.param('pick up "coin', id="unbalanced-quote"),
    pytest.param("wait now", id="arity"),
    pytest.param("pick up", id="arity-missing"),
    pytest.param(42, id="int"),
    pytest.param(("pick up", [1]), id="bad-tuple"),
    pytest.param("wait\x00", id="control-char"),
]


def agent_data(game: Game, agent_id: str) -> dict[str, Any]:
    return cattrs.unstructure(game.agents[agent_id])


@pytest.mark.parametrize("bad", BAD_ACTIONS)
def test_missing_none_and_garbage_actions_are_invalid_and_change_nothing(bad: Any) -> None:
    game = make_game(agents=2)
    clear_world(game)
    put_on_ground(game, GATE, "obj_coin", 3)
    me = agent(game, "agent_1")
    me.consecutive_attacks = 3  # a real `wait` would reset it
    before = agent_data(game, "agent_1")
    ground = dict(game.world.areas[GATE].objects)
    actions = {"agent_0": "wait"} if bad == "missing" else {"agent_0": "wait", "agent_1": bad}
    result = game.tick(actions)
    assert (result.invalid["agent_1"], result.action_ok["agent_1"]) == (True, False)
    assert result.feedback_keys("agent_1")[0].startswith("invalid.")
    assert "Invalid action" in result.feedback("agent_1")
    assert agent_data(game, "agent_1") == before
    assert game.world.areas[GATE].objects == ground
    assert (result.invalid["agent_0"], result.action_ok["agent_0"]) == (False, True)
    assert game.tick_index == 1  # the tick still passed


@pytest.mark.parametrize(("bad", "quoted"), [(42, "'42'"), (12.5, "'12.5'")])
def test_invalid_feedback_quotes_short_non_text_input_whole(bad: Any, quoted: str) -> None:
    game = make_game()
    feedback = game.tick({"agent_0": bad}).feedback("agent_0")
    assert quoted in feedback and "..." not in feedback


@pytest.mark.parametrize("actions", [{"agent_0": None}, {}])
def test_no_command_says_so_instead_of_quoting_none(actions: dict[str, Any]) -> None:
    """An agent given None or left out: 'no command was given', not "act on 'None'"."""
    feedback = make_game().tick(actions).feedback("agent_0")
    assert feedback.startswith("Invalid action: no command was given. Known actions:")


def test_invalid_feedback_truncates_long_text() -> None:
    game = make_game()
    feedback = game.tick({"agent_0": "x" * 100}).feedback("agent_0")
    assert f"'{'x' * 77}...'" in feedback and "x" * 78 not in feedback


def test_a_real_wait_does_change_the_attack_streak() -> None:
    """Control for the test above: the state it watches is one `wait` would change."""
    game = make_game(agents=2)
    agent(game, "agent_1").consecutive_attacks = 3
    result = game.tick(idle(game))
    assert agent(game, "agent_1").consecutive_attacks == 0
    assert (result.invalid["agent_1"], result.action_ok["agent_1"]) == (False, True)


def test_an_unknown_agent_id_raises_before_anything_happens() -> None:
    game = make_game(agents=2)
    put_on_ground(game, GATE, "obj_coin", 1)
    before = state_of(game)
    with pytest.raises(KeyError, match="ghost"):
        game.tick({"agent_0": "pick up coin", "ghost": "wait", "agent_1": "wait"})
    assert state_of(game) == before
    assert agent(game).hands == {}


def test_ticking_before_reset_or_after_termination_raises() -> None:
    game = Game(PACKDEMO, 2)
    with pytest.raises(RuntimeError):
        game.tick({})
    game.reset(0)
    result = game.tick({"agent_0": "wait", "agent_1": "enter shed"})  # the demo quest's only stage
    assert result.terminated and game.terminated
    assert [e.agent_id for e in result.events if e.type == "main_quest_complete"] == ["agent_1"]
    banner = "=== The main quest is complete"
    assert all(
        observe(game, result, aid).splitlines()[-1].startswith(banner) for aid in game.agents
    )
    before = state_of(game)
    with pytest.raises(RuntimeError, match="ended"):
        game.tick(idle(game))
    assert state_of(game) == before
    game.reset(0)  # a new episode starts normally
    assert not game.terminated and not game.tick(idle(game)).terminated


# ------------------------------------------------------------------------------ rule order
def test_the_base_step_rule_order_is_the_spec_table() -> None:
    game = make_game()
    assert [(rule.priority, rule.name) for rule in game.step_rules] == SPEC_STEP_ORDER
